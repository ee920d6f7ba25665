"""The drawn rules of a grid packed for the compiled rounds of the rule forcing chains
(:func:`sudokit.logic.chains._rounds_kernel.rounds`): per rule of
:func:`sudokit.logic.rule_filters.filters` (same order), its kind, cells and the arrays of its
filter; only for a grid whose rules are all pair relations, weighted sums and automata (the
other kinds' filters are Python only: :func:`rule_arrays` gives None); the board's arrays
each assumption starts from (:func:`board_start`) and the kernel's scratch (:func:`scratches`).
"""

from __future__ import annotations

import threading

import numpy as np

from ...model.geometry import Geometry
from ...model.rules import Automaton, Relation, WeightedSum
from .._fillings_kernel import AUTOMATON, SUM
from ..rule_filters import board_watch, filters
from ..state import Board
from ..tables import per_geometry
from ._rounds_kernel import RELATION
from .forcing import _grid, _scratch

__all__ = ["board_start", "rule_arrays", "rule_work", "scratches"]


@per_geometry
def rule_arrays(geometry: Geometry) -> tuple | None:
    """The rules of :func:`~sudokit.logic.rule_filters.filters` as the plain tuple
    :func:`~sudokit.logic.chains._rounds_kernel.rounds` takes, or None when some rule is of
    another kind (or there is none).

    Returns:
        ``(kinds, cells, sizes, sums, moves, pairs, of)``: int64[R] kinds; int64[R, L] cells
        padded with -1 and int64[R] their counts; ``sums`` = (int64[R, L] coefficients,
        int64[R] offsets, int64[R] goals: the total plus the offset); ``moves`` = (int64[R, Q,
        M] the digit bit and int64[R, Q, M] the next state of each state's live moves, padded
        with bit 0, uint8[R, Q] accepting, int64[R] start); ``pairs`` = (int64[R, N + 1] per
        digit of the first cell the second's partners, the same backwards, N); ``of`` =
        (int64[C + 1] starts, int64[...] rules) the rules on each cell, ascending.
    """
    rules = [rule for rule, _filtered in filters(geometry)]
    if not rules or not all(isinstance(r, (Relation, WeightedSum, Automaton)) for r in rules):
        return None
    side, count = geometry.side, len(rules)
    longest = max(len(r.cells) for r in rules)
    autos = [r for r in rules if isinstance(r, Automaton)]
    states = max([len(a.transitions) for a in autos], default=1)
    kinds = np.zeros(count, np.int64)
    cells = np.full((count, longest), -1, np.int64)
    sizes = np.zeros(count, np.int64)
    ks = np.zeros((count, longest), np.int64)
    offsets, goals = np.zeros(count, np.int64), np.zeros(count, np.int64)
    bits = np.zeros((count, states, side), np.int64)
    nexts = np.zeros_like(bits)
    accepting, starts = np.zeros((count, states), np.uint8), np.zeros(count, np.int64)
    fwd, bwd = np.zeros((count, side + 1), np.int64), np.zeros((count, side + 1), np.int64)
    for i, rule in enumerate(rules):
        sizes[i] = len(rule.cells)
        cells[i, :sizes[i]] = rule.cells
        if isinstance(rule, WeightedSum):
            kinds[i] = SUM
            offsets[i] = sum(-k * side for k in rule.coefficients if k < 0)
            ks[i, :sizes[i]], goals[i] = rule.coefficients, rule.total + offsets[i]
        elif isinstance(rule, Automaton):
            kinds[i], starts[i] = AUTOMATON, rule.start
            for q, row in enumerate(rule.transitions):
                accepting[i, q] = q in rule.accepting
                live = [(1 << d, nxt) for d, nxt in enumerate(row, 1) if nxt >= 0]
                for k, (bit, nxt) in enumerate(live):
                    bits[i, q, k], nexts[i, q, k] = bit, nxt
        elif isinstance(rule, Relation):
            kinds[i] = RELATION
            for a, b in rule.pairs:
                fwd[i, a] |= 1 << b
                bwd[i, b] |= 1 << a
    on = [[i for i, r in enumerate(rules) if c in r.cells] for c in range(geometry.n_cells)]
    of = (np.cumsum([0] + [len(x) for x in on]).astype(np.int64),
          np.array([i for x in on for i in x], np.int64))
    return (kinds, cells, sizes, (ks, offsets, goals), (bits, nexts, accepting, starts),
            (fwd, bwd, side), of)


@per_geometry
def _widths(geometry: Geometry) -> tuple[int, int, int]:
    """The longest rule, the uint64 words of the widest sum's bit set, the most states."""
    arrays = rule_arrays(geometry)
    assert arrays is not None
    kinds, cells, _sizes, (ks, offsets, _goals), (bits, *_), _pairs, _of = arrays
    side, width = geometry.side, 1
    for i in np.flatnonzero(kinds == SUM).tolist():
        top = int(offsets[i]) + sum(int(k) * side for k in ks[i] if k > 0)
        width = max(width, top // 64 + 1)
    return cells.shape[1], width, bits.shape[1]


def rule_work(geometry: Geometry) -> tuple:
    """Scratch arrays for the rules of :func:`rule_arrays` (made per call): the cells'
    candidates and a copy, the sum filter's uint64 bit sets and the automaton filter's layers
    (see :mod:`sudokit.logic._fillings_kernel`)."""
    longest, width, states = _widths(geometry)
    return (np.zeros(longest, np.int64), np.zeros(longest, np.int64),
            np.zeros((longest + 1, width), np.uint64), np.zeros(width, np.uint64),
            np.zeros(width, np.uint64), np.zeros(width, np.uint64),
            np.zeros((longest + 1, states), np.uint8), np.zeros(states, np.uint8),
            np.zeros(states, np.uint8))


def board_start(board: Board, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board's candidates and digits as int64 arrays, and its ``count`` rules due in the
    first round (:func:`~sudokit.logic.rule_filters.board_watch`) as uint8: made once per
    board (the last few), copied per assumption."""
    key = (id(board.geometry), tuple(board.masks))
    hit = _STARTS.get(key)
    if hit is None or hit[0] is not board.geometry:
        due = board_watch(board.geometry, board.masks).due
        if len(_STARTS) >= 8:
            _STARTS.clear()
        hit = _STARTS[key] = (board.geometry, (
            np.array(board.masks, np.int64), np.array(board.values, np.int64),
            np.array([due >> i & 1 for i in range(count)], np.uint8)))
    return hit[1]


_STARTS: dict[tuple, tuple[Geometry, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}


def scratches(geometry: Geometry) -> tuple[tuple, tuple, tuple]:
    """The kernel's grid, singles scratch and rules' scratch of ``geometry``, one set per
    thread (the kernel releases the GIL)."""
    mine = _LOCAL.__dict__.setdefault("scratches", {})
    hit = mine.get(id(geometry))
    if hit is None or hit[0] is not geometry:
        if len(mine) >= 8:
            mine.clear()
        hit = mine[id(geometry)] = (geometry, (_grid(geometry), _scratch(geometry),
                                               rule_work(geometry)))
    return hit[1]


_LOCAL = threading.local()
