"""Symmetries of the givens pattern, and the cell orbits the generator removes together.

A symmetric puzzle has a given in a cell exactly when it has one in each image of that cell
under the symmetry (the digits differ; only the pattern is symmetric). Every symmetry here maps
the N x N square to itself, so it applies to any size and box shape. NumPy is imported on
first use, so the command line can offer :class:`Symmetry` without loading it.
"""

from __future__ import annotations

from enum import Enum
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Symmetry", "is_symmetric", "orbits"]


class Symmetry(str, Enum):
    """The symmetry of a puzzle's givens pattern."""

    NONE = "none"
    ROT180 = "rot180"  # half-turn about the centre (the classic newspaper symmetry)
    ROT90 = "rot90"  # quarter-turns
    MIRROR = "mirror"  # left-right reflection (about the vertical middle line)
    FLIP = "flip"  # top-bottom reflection (about the horizontal middle line)
    DIAGONAL = "diagonal"  # reflection about the main diagonal (r, c) -> (c, r)
    ANTIDIAGONAL = "antidiagonal"  # reflection about the other diagonal
    DIHEDRAL = "dihedral"  # all eight rotations and reflections of the square


def _generators(symmetry: Symmetry, n: int) -> list[np.ndarray]:
    """Cell maps (int[N*N]: cell -> image) generating the symmetry's group."""
    import numpy as np

    r, c = np.divmod(np.arange(n * n), n)
    m = n - 1
    maps = {
        Symmetry.NONE: [],
        Symmetry.ROT180: [(m - r) * n + (m - c)],
        Symmetry.ROT90: [c * n + (m - r)],
        Symmetry.MIRROR: [r * n + (m - c)],
        Symmetry.FLIP: [(m - r) * n + c],
        Symmetry.DIAGONAL: [c * n + r],
        Symmetry.ANTIDIAGONAL: [(m - c) * n + (m - r)],
        Symmetry.DIHEDRAL: [c * n + (m - r), c * n + r],
    }
    return maps[symmetry]


@cache
def orbits(symmetry: Symmetry | str, side: int) -> tuple[np.ndarray, np.ndarray]:
    """The orbits of the cells of an N x N grid under ``symmetry``, as CSR arrays.

    Returns:
        ``(start, cells)``, int32: orbit k holds ``cells[start[k]:start[k + 1]]``. Orbits are
        ordered by their smallest cell, cells inside an orbit increasing (a fixed order, so the
        same seed gives the same puzzles).

    >>> start, cells = orbits("rot180", 3)
    >>> [cells[start[k]:start[k + 1]].tolist() for k in range(len(start) - 1)]
    [[0, 8], [1, 7], [2, 6], [3, 5], [4]]
    """
    import numpy as np

    symmetry = Symmetry(symmetry)
    n_cells = side * side
    label = np.arange(n_cells)
    gens = _generators(symmetry, side)
    changed = True
    while changed:  # smallest cell of each orbit: propagate minima along the generators
        changed = False
        for g in gens:
            low = np.minimum(label, label[g])
            np.minimum.at(low, g, label)
            if not np.array_equal(low, label):
                label, changed = low, True
        label = label[label]
    order = np.lexsort((np.arange(n_cells), label))
    cells = order.astype(np.int32)
    _, counts = np.unique(label, return_counts=True)
    start = np.zeros(len(counts) + 1, np.int32)
    start[1:] = np.cumsum(counts)
    return start, cells


def is_symmetric(givens: np.ndarray, symmetry: Symmetry | str, side: int) -> bool:
    """Whether the pattern of non-zero cells of ``givens`` (N*N ints) has ``symmetry``."""
    import numpy as np

    filled = np.asarray(givens).reshape(-1) != 0
    return all(np.array_equal(filled, filled[g]) for g in _generators(Symmetry(symmetry), side))
