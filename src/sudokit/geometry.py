"""Grid geometry: cells, units, peers and labels of a Sudoku of any box shape.

A grid has boxes of ``box_rows x box_cols`` cells; its side is ``N = box_rows * box_cols`` and it
has ``N**2`` cells, numbered ``cell = row * N + col`` (0-based). A *unit* is a row, a column, a box
or an extra region of the variant; each unit holds N cells that must all differ. The *peers* of a
cell are the other cells sharing a unit with it (Norvig 2006). Every size from 1x1 to 64x64 goes
through the same code; nothing assumes 9x9.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, cached_property
from typing import Any
from operator import itemgetter

from .errors import InvalidPuzzle

__all__ = ["Variant", "Geometry", "MAX_SIDE", "box_shape_for_side"]

MAX_SIDE = 64
"""Largest grid side supported (one 64-bit candidate mask per cell in the compiled engine)."""


class Variant(Enum):
    """Which units a grid has besides rows, columns and boxes."""

    STANDARD = "standard"
    DIAGONAL = "diagonal"  # Sudoku X: both main diagonals are units too


def box_shape_for_side(side: int) -> tuple[int, int]:
    """Return the usual ``(box_rows, box_cols)`` for a grid side N.

    Square boxes when N is a perfect square (9 -> 3x3); otherwise the most square factorisation
    with fewer rows than columns (6 -> 2x3, 12 -> 3x4); a prime N gets 1xN boxes (a Latin square).

    Raises:
        InvalidPuzzle: N outside 1..64.

    >>> box_shape_for_side(9), box_shape_for_side(6), box_shape_for_side(12)
    ((3, 3), (2, 3), (3, 4))
    """
    if not 1 <= side <= MAX_SIDE:
        raise InvalidPuzzle(f"grid side must be between 1 and {MAX_SIDE}, got {side}")
    rows = math.isqrt(side)
    while side % rows:
        rows -= 1
    return rows, side // rows


@dataclass(frozen=True)
class Geometry:
    """The structure of a grid: cells, units, peers; every derived table is computed once.

    Use :meth:`of` (cached) rather than the constructor so equal geometries share their tables.

    Attributes:
        box_rows: rows per box (>= 1).
        box_cols: columns per box (>= 1).
        variant: extra units (:class:`Variant`).

    Raises:
        InvalidPuzzle: a box dimension below 1, a side above 64, or a diagonal variant on a grid
            whose diagonals are not defined (always defined, but N must be >= 1).

    >>> g = Geometry.of(3, 3)
    >>> g.side, g.n_cells, len(g.units), len(g.peers[0]), g.n_arcs
    (9, 81, 27, 20, 1620)
    """

    box_rows: int
    box_cols: int
    variant: Variant = Variant.STANDARD

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1:
            raise InvalidPuzzle(f"box shape must be positive, got {self.box_rows}x{self.box_cols}")
        if self.box_rows * self.box_cols > MAX_SIDE:
            raise InvalidPuzzle(
                f"grid side {self.box_rows * self.box_cols} is above the maximum {MAX_SIDE}"
            )

    def __reduce__(self) -> tuple[Any, tuple[int, int, Variant]]:
        """Pickle by reference: the receiving process rebuilds (or reuses) its own shared
        geometry with :meth:`of` instead of receiving the cached tables."""
        return Geometry.of, (self.box_rows, self.box_cols, self.variant)

    @staticmethod
    def of(box_rows: int, box_cols: int, variant: Variant = Variant.STANDARD) -> Geometry:
        """Return the shared geometry for this box shape and variant (cached)."""
        return _shared_geometry(int(box_rows), int(box_cols), Variant(variant))

    @staticmethod
    def for_side(side: int, variant: Variant = Variant.STANDARD) -> Geometry:
        """Return the geometry of side N with the usual box shape (see box_shape_for_side)."""
        return Geometry.of(*box_shape_for_side(side), variant)

    @staticmethod
    def for_cells(n_cells: int, variant: Variant = Variant.STANDARD) -> Geometry:
        """Return the geometry whose cell count is n_cells (81 -> 9x9, 256 -> 16x16).

        Raises:
            InvalidPuzzle: n_cells is not the square of a side in 1..64.
        """
        side = math.isqrt(n_cells)
        if side * side != n_cells or not 1 <= side <= MAX_SIDE:
            raise InvalidPuzzle(
                f"expected a square number of cells (16, 36, 81, 256, ... up to 4096), got {n_cells}"
            )
        return Geometry.for_side(side, variant)

    @property
    def side(self) -> int:
        """N, the number of digits, rows, columns and boxes."""
        return self.box_rows * self.box_cols

    @property
    def n_cells(self) -> int:
        """N**2."""
        return self.side * self.side

    @property
    def shape_name(self) -> str:
        """E.g. ``"9x9 (3x3 boxes)"``."""
        extra = "" if self.variant is Variant.STANDARD else f", {self.variant.value}"
        return f"{self.side}x{self.side} ({self.box_rows}x{self.box_cols} boxes{extra})"

    def row_of(self, cell: int) -> int:
        return cell // self.side

    def col_of(self, cell: int) -> int:
        return cell % self.side

    def box_of(self, cell: int) -> int:
        """Box index, boxes numbered row-major (0 is top-left)."""
        r, c = divmod(cell, self.side)
        return (r // self.box_rows) * (self.side // self.box_cols) + c // self.box_cols

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.side
        return tuple(tuple(range(r * n, r * n + n)) for r in range(n))

    @cached_property
    def cols(self) -> tuple[tuple[int, ...], ...]:
        n = self.side
        return tuple(tuple(range(c, n * n, n)) for c in range(n))

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        members: list[list[int]] = [[] for _ in range(self.side)]
        for cell in range(self.n_cells):
            members[self.box_of(cell)].append(cell)
        return tuple(tuple(m) for m in members)

    @cached_property
    def extra_units(self) -> tuple[tuple[int, ...], ...]:
        """Units of the variant beyond rows, columns and boxes (the diagonals of Sudoku X)."""
        if self.variant is Variant.DIAGONAL:
            n = self.side
            return (tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n)))
        return ()

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit: rows, then columns, then boxes, then extra units; each N cells."""
        return self.rows + self.cols + self.boxes + self.extra_units

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """A name per unit, parallel to :attr:`units`: ``"row 1"``, ``"column 3"``, ``"box 9"``."""
        n = self.side
        names = [f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
        names += [f"box {i + 1}" for i in range(n)]
        names += [f"diagonal {i + 1}" for i in range(len(self.extra_units))]
        return tuple(names)

    @cached_property
    def unit_getters(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
        """Per unit, an ``operator.itemgetter`` returning the unit's values from a grid (fast)."""
        return tuple(itemgetter(*unit) if len(unit) > 1 else _single(unit[0])
                     for unit in self.units)

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into :attr:`units`) of the units that contain it."""
        owners: list[list[int]] = [[] for _ in range(self.n_cells)]
        for u, unit in enumerate(self.units):
            for cell in unit:
                owners[cell].append(u)
        return tuple(tuple(o) for o in owners)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, its peers in increasing order (9x9: 20 each)."""
        result = []
        for cell in range(self.n_cells):
            seen = {p for u in self.units_of[cell] for p in self.units[u]}
            seen.discard(cell)
            result.append(tuple(sorted(seen)))
        return tuple(result)

    @property
    def n_arcs(self) -> int:
        """Directed arcs of the constraint graph: the sum of peer counts (9x9: 1,620)."""
        return sum(len(p) for p in self.peers)

    def label(self, cell: int) -> str:
        """Return the 1-based ``r{row}c{col}`` label of a cell (``r1c1`` is top-left)."""
        r, c = divmod(cell, self.side)
        return f"r{r + 1}c{c + 1}"


def _single(cell: int) -> Callable[[Sequence[int]], tuple[int, ...]]:
    return lambda grid: (grid[cell],)


@cache
def _shared_geometry(box_rows: int, box_cols: int, variant: Variant) -> Geometry:
    return Geometry(box_rows, box_cols, variant)
