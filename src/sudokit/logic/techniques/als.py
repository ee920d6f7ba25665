"""ALS-XZ: two almost locked sets joined by a restricted common digit.

An almost locked set (ALS) is n cells of one unit holding n + 1 digits. If digit x appears in
two disjoint ALS A and B and every x of A sees every x of B (x is a *restricted common*), x is in
at most one of them, so one of them is locked: any other common digit z is in A or in B, and z
leaves every cell seeing all z's of both (HoDoKu's ALS-XZ, Hobiwan 2008). Sudoku Explainer has no ALS rule; the deduction is a chain
through two sets, rated 7.1 here (a forcing chain of five or six nodes) and tried after the AIC
search; sets of up to four cells are searched.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from ...compiled import Kernels, twin, use_compiled
from ..registry import technique
from ..state import Board, bits, digits_of
from ..step import Step, cells_text, eliminations_text
from ..tables import grid_tables

__all__ = ["Als", "AlsArrays", "almost_locked_sets", "als_arrays", "als_of", "als_xz"]

MAX_CELLS = 4


@dataclass(frozen=True)
class Als:
    """An almost locked set: ``cells`` (bitmask), its ``digits`` (mask) and, per digit, where
    it lies (``places[d0]``, a bitmask over cells)."""

    cells: int
    digits: int
    places: tuple[int, ...]


def almost_locked_sets(board: Board, max_cells: int = MAX_CELLS, min_cells: int = 1) -> list[Als]:
    """Every ALS of ``min_cells`` to ``max_cells`` cells (each once, whatever unit it is found
    in), in the order of the units, then of size. Those of up to :data:`MAX_CELLS` cells are
    found once per board snapshot and shared by the ALS techniques."""
    if max_cells <= MAX_CELLS:
        every = board.memo.get("als")
        if every is None:
            every = board.memo["als"] = _find_sets(board, MAX_CELLS, 1)
        if min_cells <= 1 and max_cells == MAX_CELLS:
            return every
        return [a for a in every if min_cells <= a.cells.bit_count() <= max_cells]
    return _find_sets(board, max_cells, min_cells)


def _find_sets(board: Board, max_cells: int, min_cells: int) -> list[Als]:
    masks, cells_of, side = board.masks, board.cells_of, board.side
    seen: set[int] = set()
    out: list[Als] = []
    for unit in board.geometry.units:
        open_cells = [c for c in unit if not board.values[c]]
        top = min(max_cells, len(open_cells) - 1)
        by_size: list[list[tuple[int, int]]] = [[] for _ in range(top + 1)]
        _grow(open_cells, masks, 0, 0, 0, 0, top, by_size)
        for size in range(min_cells, top + 1):
            for cells, digits in by_size[size]:
                if cells in seen:
                    continue
                seen.add(cells)
                out.append(Als(cells, digits, tuple(cells & cells_of[d] for d in range(side))))
    return out


def _grow(open_cells: list[int], masks: list[int], first: int, size: int, cells: int,
          digits: int, top: int, by_size: list[list[tuple[int, int]]]) -> None:
    """Extend the group ``cells`` (``size`` cells, candidates ``digits``) by the open cells
    from index ``first`` on, in lexicographic order, recording each group of n cells with
    n + 1 candidates in ``by_size[n]``; a group with more than ``top + 1`` candidates is not
    extended (no extension can be an ALS of at most ``top`` cells)."""
    for i in range(first, len(open_cells)):
        c = open_cells[i]
        union = digits | masks[c]
        count = union.bit_count()
        if count > top + 1:
            continue
        grown = cells | 1 << c
        if count == size + 2:
            by_size[size + 1].append((grown, union))
        if size + 1 < top:
            _grow(open_cells, masks, i + 1, size + 1, grown, union, top, by_size)


class AlsArrays(NamedTuple):
    """Every ALS of up to :data:`MAX_CELLS` cells of a board as arrays (the order of
    :func:`almost_locked_sets`), with the board's arrays, for the compiled searches of
    :mod:`sudokit.logic.techniques._als_kernel`.

    Attributes:
        cells: int32[K, MAX_CELLS], each set's cells ascending, padded with -1.
        digits: int64[K], each set's candidates.
        n_sets: K, the number of sets.
        masks, values: int64[C], the board's candidates and placed digits.
        sees: uint8[C, C], the grid's peer matrix.
        peers: int32[C, P], the grid's peer lists (ascending, padded with -1).
        bivalue: int64[B], the open cells with two candidates, ascending.
    """

    cells: np.ndarray
    digits: np.ndarray
    n_sets: int
    masks: np.ndarray
    values: np.ndarray
    sees: np.ndarray
    peers: np.ndarray
    bivalue: np.ndarray


KERNEL_CELLS = 256
"""Largest grid (cells) whose ALS are searched compiled (sides up to 16)."""


def als_arrays(board: Board) -> AlsArrays | None:
    """The :class:`AlsArrays` of ``board`` (once per snapshot), or None on a grid over
    :data:`KERNEL_CELLS` cells."""
    if not use_compiled(Kernels.LOGIC, board.geometry.n_cells, KERNEL_CELLS):
        return None
    if "als-arrays" in board.memo:
        return board.memo["als-arrays"]
    from ._als_kernel import enumerate_als
    from ..kernels.arrays import board_arrays

    t = grid_tables(board.geometry)
    arrays = board_arrays(board)
    n = board.side
    cells, digits, scratch = _buffers(_capacity(n, len(t.units)), n)
    k = enumerate_als(arrays.masks, arrays.values, t.units, t.units_of, MAX_CELLS, cells, digits,
                      scratch[0], scratch[1], scratch[2])
    out = None if k < 0 else AlsArrays(cells[:k].copy(), digits[:k].copy(), k, arrays.masks,
                                       arrays.values, t.sees, t.peers,
                                       np.flatnonzero(arrays.cand.sum(axis=1) == 2))
    board.memo["als-arrays"] = out
    return out


_LOCAL = threading.local()


def _buffers(capacity: int, side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's output and work arrays of
    :func:`~sudokit.logic.techniques._als_kernel.enumerate_als` (``capacity`` sets; reused, so a board's
    sets cost no large allocation: the board keeps a copy of the rows filled)."""
    arrays = getattr(_LOCAL, "arrays", None)
    if arrays is None or arrays[0].shape[0] != capacity or arrays[2].shape[1] != side + 1:
        arrays = _LOCAL.arrays = (np.empty((capacity, MAX_CELLS), dtype=np.int32),
                                  np.empty(capacity, dtype=np.int64),
                                  np.empty((3, side + 1), dtype=np.int64))
    return arrays


@cache
def _capacity(side: int, units: int) -> int:
    """Room for the ALS of a grid: every set of 1..MAX_CELLS cells of every unit, at most
    2**15 (more: the compiled search gives way to the Python one)."""
    return min(units * sum(math.comb(side, k) for k in range(1, MAX_CELLS + 1)), 1 << 15)


def als_of(board: Board, arrays: AlsArrays, index: int) -> Als:
    """The :class:`Als` of row ``index`` of ``arrays``."""
    cells = sum(1 << int(c) for c in arrays.cells[index] if c >= 0)
    return Als(cells, int(arrays.digits[index]),
               tuple(cells & board.cells_of[d] for d in range(board.side)))


def _sees_all(board: Board, first: int, second: int) -> bool:
    """Whether every cell of ``first`` sees every cell of ``second`` (bitmasks)."""
    return second & ~board.common_peers(first) == 0


@technique("ALS-XZ", 7.1, max_side=16, order=2)
@twin(Kernels.LOGIC, "sudokit.logic.techniques._als_kernel:als_xz_first",
      "sudokit.logic.techniques.als:almost_locked_sets", "boards")
def als_xz(board: Board) -> Step | None:
    """Two ALS with a restricted common digit x: another common digit z leaves the cells that
    see all its places in both."""
    arrays = als_arrays(board)
    if arrays is not None:  # compiled, same order and tests
        from ._als_kernel import als_xz_first

        i, j, x = als_xz_first(arrays.cells, arrays.digits, arrays.n_sets, arrays.masks,
                               arrays.values, arrays.sees, arrays.peers, board.side)
        if i < 0:
            return None
        a, b = als_of(board, arrays, i), als_of(board, arrays, j)
        return _eliminate(board, a, b, x, a.digits & b.digits)
    sets = almost_locked_sets(board)
    for i, a in enumerate(sets):
        for b in sets[i + 1:]:
            common = a.digits & b.digits
            if a.cells & b.cells or common.bit_count() < 2:
                continue
            for x in bits(common):
                if not _sees_all(board, a.places[x], b.places[x]):
                    continue
                step = _eliminate(board, a, b, x, common)
                if step is not None:
                    return step
    return None


def _eliminate(board: Board, a: Als, b: Als, x: int, common: int) -> Step | None:
    eliminations = []
    for z in bits(common & ~(1 << x)):
        where = a.places[z] | b.places[z]
        targets = board.cells_of[z] & board.common_peers(where) & ~(a.cells | b.cells)
        eliminations += [(c, z + 1) for c in bits(targets)]
    if not eliminations:
        return None
    g = board.geometry
    return Step("ALS-XZ", 7.1,
                f"ALS {cells_text(g, bits(a.cells))} {{{g.symbols(digits_of(a.digits))}}} "
                f"and {cells_text(g, bits(b.cells))} "
                f"{{{g.symbols(digits_of(b.digits))}}}, restricted common {g.symbol(x + 1)}: "
                f"{eliminations_text(g, eliminations)}",
                eliminations=tuple(sorted(eliminations)),
                cells=tuple(bits(a.cells | b.cells)), digits=tuple(digits_of(common)))
