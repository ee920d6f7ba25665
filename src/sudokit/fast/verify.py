"""A compiled check of many solution grids at once: the array path's verification once the
compiled engine is loaded (the same test as :func:`sudokit.model.puzzle.solves`, every variant
constraint and drawn rule (:mod:`sudokit.fast.rulecheck`) included, without the temporaries of
the NumPy version: about 0.2 µs per 9x9 grid instead of 0.8, and 0.06 µs for classic 9x9
grids, whose rows, columns and boxes are read by position instead of through the unit table:
docs/benchmarks.md, "Hard 9x9")."""

from __future__ import annotations

import numba as nb
import numpy as np

from ..compiled import Kernels, kernel
from ..model.geometry import Geometry
from ..model.puzzle import _unit_table, _variant_tables
from .rulecheck import rules_hold_into

__all__ = ["solves"]


@kernel(Kernels.VERIFY)
def solves(grids: np.ndarray, givens: np.ndarray, geometry: Geometry) -> np.ndarray:
    """Check grids against their puzzles: every unit a permutation of 1..N, every given kept,
    and every variant constraint of the geometry (cage mates and cells a chess move apart
    differ, cages reach their totals, no consecutive digits on non-consecutive neighbours,
    even/odd cells).

    Args:
        grids: uint8 ``(M, C)`` candidate solutions (C = ``geometry.n_cells``); not modified.
        givens: integer ``(M, C)`` givens of the matching puzzles (0 empty); not modified.
        geometry: the grids' geometry (its units include a variant's extra units).

    Returns:
        bool ``(M,)``: True where the grid solves its puzzle.
    """
    out = np.zeros(len(grids), np.bool_)
    if len(grids):
        side = geometry.side
        grids = np.ascontiguousarray(grids, np.uint8)
        givens = np.ascontiguousarray(givens, np.uint8)
        if geometry.is_standard and side == 9 and geometry.box_rows == 3:
            _check_nine(grids, givens, out)
        else:
            _check(grids, givens, _unit_table(geometry), side, np.uint64((1 << side) - 1), out)
        if not geometry.is_standard:
            pairs, consecutive, even, odd, cells, ids, totals = _variant_tables(geometry)
            _check_variant(grids, pairs, consecutive, even, odd, cells, ids, totals, out)
        if geometry.constraints:  # the drawn rules (sudokit.fast.rulecheck)
            rules_hold_into(grids, geometry, out)
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


@nb.njit(cache=True, nogil=True)
def _check_nine(grids: np.ndarray, givens: np.ndarray,
                out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Set ``out[i]`` where classic 9x9 grid i (uint8[M, 81], row-major) keeps its givens and
    every row, column and 3x3 box holds 1..9 (the OR of its digits' bits is full): the test of
    :func:`_check` with the units by position (fixed loops LLVM unrolls, no table reads)."""
    bits = np.zeros(81, np.uint16)
    for i in range(grids.shape[0]):
        bad = False
        for cell in range(81):
            digit, given = grids[i, cell], givens[i, cell]
            bad |= (np.uint8(digit - 1) >= 9) | ((given != 0) & (given != digit))
            bits[cell] = np.uint16(1) << np.uint16((digit - 1) & 15)
        wrong = np.uint16(0)
        for r in range(9):
            row = col = box = np.uint16(0)
            for k in range(9):
                row |= bits[9 * r + k]
                col |= bits[9 * k + r]
                box |= bits[27 * (r // 3) + 3 * (r % 3) + 9 * (k // 3) + k % 3]
            wrong |= (row & col & box) ^ np.uint16(511)  # each within 511: all three full
        out[i] = not bad and wrong == 0


@nb.njit(cache=True, nogil=True)
def _check_variant(grids: np.ndarray, pairs: np.ndarray, consecutive: np.ndarray,
                   even: np.ndarray, odd: np.ndarray, cells: np.ndarray, ids: np.ndarray,
                   totals: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Clear ``out[i]`` where grid i breaks a variant constraint (arrays as
    :func:`sudokit.model.puzzle._variant_tables`: pairs that differ [P, 2], non-consecutive pairs
    [Q, 2], even and odd cells, cage cells with their cage ids, cage totals)."""
    sums = np.zeros(totals.shape[0], np.int64)
    for i in range(grids.shape[0]):
        if not out[i]:
            continue
        g = grids[i]
        ok = True
        for p in range(pairs.shape[0]):
            if g[pairs[p, 0]] == g[pairs[p, 1]]:
                ok = False
        for p in range(consecutive.shape[0]):
            a, b = np.int64(g[consecutive[p, 0]]), np.int64(g[consecutive[p, 1]])
            if a - b == 1 or b - a == 1:
                ok = False
        for k in range(even.shape[0]):
            if g[even[k]] % 2 != 0:
                ok = False
        for k in range(odd.shape[0]):
            if g[odd[k]] % 2 != 1:
                ok = False
        sums[:] = 0
        for k in range(cells.shape[0]):
            sums[ids[k]] += g[cells[k]]
        for k in range(totals.shape[0]):
            if sums[k] != totals[k]:
                ok = False
        out[i] = ok
