"""A compiled check of many solution grids at once: the array path's verification once the
compiled engine is loaded (the same test as :func:`sudokit.puzzle.solves`, without the
temporaries of the NumPy version: about 0.1 µs per 9x9 grid instead of 0.8)."""

from __future__ import annotations

import numba as nb
import numpy as np

from ..geometry import Geometry
from ..puzzle import _unit_table

__all__ = ["solves"]


def solves(grids: np.ndarray, givens: np.ndarray, geometry: Geometry) -> np.ndarray:
    """Check grids against their puzzles: every unit a permutation of 1..N, every given kept.

    Args:
        grids: uint8 ``(M, N**2)`` candidate solutions; not modified.
        givens: integer ``(M, N**2)`` givens of the matching puzzles (0 empty); not modified.
        geometry: the grids' geometry (its units include a variant's extra units).

    Returns:
        bool ``(M,)``: True where the grid solves its puzzle.
    """
    out = np.zeros(len(grids), np.bool_)
    if len(grids):
        side = geometry.side
        _check(np.ascontiguousarray(grids, np.uint8), np.ascontiguousarray(givens, np.uint8),
               _unit_table(geometry).astype(np.intp), side, np.uint64((1 << side) - 1), out)
    return out


@nb.njit(cache=True, nogil=True)
def _check(grids: np.ndarray, givens: np.ndarray, units: np.ndarray, side: int,
           full: np.uint64, out: np.ndarray) -> None:  # pragma: no cover - compiled
    one = np.uint64(1)
    for i in range(grids.shape[0]):
        ok = True
        for cell in range(grids.shape[1]):
            digit, given = grids[i, cell], givens[i, cell]
            if digit < 1 or digit > side or (given != 0 and given != digit):
                ok = False
                break
        for unit in range(units.shape[0]):
            if not ok:
                break
            seen = np.uint64(0)
            for k in range(units.shape[1]):
                seen |= one << np.uint64(grids[i, units[unit, k]] - 1)
            ok = seen == full
        out[i] = ok
