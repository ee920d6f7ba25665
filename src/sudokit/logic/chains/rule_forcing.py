"""Rule forcing chains: a candidate whose assumption, followed by singles and every drawn
rule's filter (:mod:`sudokit.logic.techniques.rules`), ends in a contradiction is false.

Sudoku Explainer's Nishio forcing chains (Juillerat 2006: a contradiction reached from one
candidate, 7.5) with the drawn rules among the links: the rule-aware counterpart of the digit
forcing chains of :mod:`~sudokit.logic.chains.forcing` (whose compiled search sees units
and peers only). Rated 7.5 plus the length bonus of twice the rounds of singles and filters
the contradiction needs. Tried after every other logical technique, on grids with rules.
"""

from __future__ import annotations

import struct
from functools import cache

import numpy as np
import numpy.typing as npt

from ...compiled import Kernels, twin, use_compiled
from ...model.geometry import Geometry
from .dynamic import settle
from .forcing import _grid, _scratch
from ..deadline import check_deadline
from ..registry import technique
from ..rule_filters import board_watch, filter_round, filters
from ..state import Board, bits
from ..step import Step, eliminations_text, length_bonus
from ..units import intersections, unit_cells
from .rule_rounds import board_start, rule_arrays, scratches

__all__ = ["RULE_CELL_FORCING", "RULE_CELL_FORCING_PLUS", "RULE_FORCING", "RULE_FORCING_PLUS",
           "assume_with_rules", "compile_rounds", "locked_round", "rule_cell_forcing_chain",
           "rule_cell_forcing_chain_plus", "rule_forcing_chain", "rule_forcing_chain_plus",
           "settled"]

RULE_FORCING = 7.5
"""Base rating of a rule forcing chain (Explainer's Nishio forcing chains)."""

RULE_CELL_FORCING = 8.2
"""Base rating of a rule cell forcing chain (as the cell forcing chains of
:mod:`~sudokit.logic.chains.forcing`)."""

RULE_FORCING_PLUS = 8.0
RULE_CELL_FORCING_PLUS = 8.7
"""Base ratings of the chains followed further, "(+)" (peers differ in the rules' fillings,
locked candidates): half a point above, as Explainer's dynamic forcing chains (+) over the
plain ones."""

_ROUNDS = 30
"""The most rounds (singles, then every rule's filter) one assumption is followed for."""


_SINGLES_BREAK = "the singles that follow leave a cell or a digit without a place"


@twin(Kernels.LOGIC, "sudokit.logic.chains._rounds_kernel:rounds",
      "sudokit.logic.chains.rule_forcing:_assume_reference", "rule assumptions")
def assume_with_rules(board: Board, cell: int, digit: int, plus: bool = False
                      ) -> tuple[str | None, int, list[int]]:
    """Assume ``cell`` holds ``digit``; apply singles and the rules' filters in rounds (with
    ``plus``, when they stop: the rules' filters where their cells that see each other differ,
    then locked candidates).

    The singles and the rules' rounds run compiled once the technique engine is, on a grid
    whose rules are all pair relations, sums and automata
    (:func:`~sudokit.logic.chains.rule_rounds.rule_arrays`; the peers' round and locked
    candidates stay Python), else in Python (:func:`_assume_reference`): the same rounds,
    changes and answer.

    Returns:
        why the assumption fails (the rule or the singles that break), or None when no
        contradiction comes within :data:`_ROUNDS` rounds; the rounds used; the candidates
        reached (N*N masks, bit d-1 for digit d).
    """
    arrays = rule_arrays(board.geometry) if use_compiled(Kernels.LOGIC) else None
    if arrays is None:
        return _assume_reference(board, cell, digit, plus)
    return _assume_compiled(board, cell, digit, plus, arrays)


def compile_rounds() -> None:
    """Compile (or load from the disk cache) the rounds kernel: one assumption followed on a
    4x4 grid with a sum, a pair relation and an automaton (the technique engine's warm-up runs
    it: :meth:`sudokit.solvers.logic.LogicSolver.warm_up`)."""
    from ...model.puzzle import Puzzle
    from ...model.rules import Automaton, Relation, WeightedSum
    from ..state import Candidates

    automaton = Automaton((8, 9), ((1, 1, 1, 1), (2, 2, 2, 2), (2, 2, 2, 2)), frozenset({2}))
    rules = (WeightedSum.of([(0, 1), (1, 1)], 3, "warm-up"),
             Relation((4, 5), frozenset({(1, 2), (2, 1)}), "warm-up"), automaton)
    geometry = Geometry.for_side(4).with_constraints(rules)
    board = Candidates.from_puzzle(Puzzle(geometry, (0,) * 16)).board()
    assume_with_rules(board, 0, 1)


def _assume_compiled(board: Board, cell: int, digit: int, plus: bool, arrays: tuple
                     ) -> tuple[str | None, int, list[int]]:
    """:func:`assume_with_rules` with its singles and plain rounds run by
    :func:`~sudokit.logic.chains._rounds_kernel.rounds` (the peers' rounds between, here)."""
    from ._rounds_kernel import BROKEN, CUTOFF, SINGLES, rounds

    check_deadline()
    geometry = board.geometry
    start, values0, due0 = board_start(board, len(arrays[0]))
    masks, values, seen, due = start.copy(), values0.copy(), start.copy(), due0.copy()
    touched = np.zeros(len(masks), np.uint8)
    touched[cell] = 1
    grid, scratch, work = scratches(geometry)
    scratch[1][0], scratch[2][0] = cell, digit - 1
    peer_watch = board_watch(geometry, board.masks, True) if plus else None
    ended, r, broke = rounds(masks, values, touched, 1, grid, scratch, arrays, work, seen, due,
                             1, _ROUNDS)
    while True:
        if ended == SINGLES:
            return _SINGLES_BREAK, r, masks.tolist()
        if ended == BROKEN:
            rule = filters(geometry)[broke][0]
            return f"{rule.describe(geometry.label)} cannot be kept", r, masks.tolist()
        if ended == CUTOFF or peer_watch is None:
            return None, r, masks.tolist()
        listed, placed = masks.tolist(), values.tolist()
        broken = filter_round(geometry, listed, True, peer_watch) or locked_round(
            geometry, listed, placed)
        if isinstance(broken, str):
            return f"{broken} cannot be kept", r, listed
        if not broken:
            return None, r, listed
        if r >= _ROUNDS or not all(listed[c] for c in broken):
            bad, listed, placed = _settle(geometry, listed, placed, set(broken))
            return (_SINGLES_BREAK if bad and r < _ROUNDS else None), min(r + 1, _ROUNDS), listed
        masks[:] = listed
        touched[list(broken)] = 1
        check_deadline()
        ended, r, broke = rounds(masks, values, touched, 0, grid, scratch, arrays, work, seen,
                                 due, r + 1, _ROUNDS)


def _assume_reference(board: Board, cell: int, digit: int, plus: bool = False
                      ) -> tuple[str | None, int, list[int]]:
    """:func:`assume_with_rules` in Python: :func:`settled` and
    :func:`~sudokit.logic.rule_filters.filter_round` in turn."""
    geometry = board.geometry
    bad, masks, values = settled(geometry, board.masks, board.values, [(cell, digit)], {cell})
    watch = board_watch(geometry, board.masks)
    peer_watch = board_watch(geometry, board.masks, True) if plus else None
    for rounds in range(1, _ROUNDS + 1):
        if bad:
            return _SINGLES_BREAK, rounds, masks
        broken = filter_round(geometry, masks, watch=watch)
        if plus and not broken:
            broken = filter_round(geometry, masks, True, peer_watch) or locked_round(
                geometry, masks, values)
        if isinstance(broken, str):
            return f"{broken} cannot be kept", rounds, masks
        if not broken:
            return None, rounds, masks
        bad, masks, values = _settle(geometry, masks, values, set(broken))
    return None, _ROUNDS, masks


def _settle(geometry: Geometry, masks: list[int], values: list[int], touched: set[int]
            ) -> tuple[bool, list[int], list[int]]:
    """The singles that follow once the cells ``touched`` lost candidates, to their fixpoint
    (:func:`settled`): whether they end in a contradiction, the candidates and digits reached.

    Every touched cell at once rather than one
    :func:`~sudokit.logic.chains.dynamic.consequences` per cell (one copy of the board, not
    one per cell): singles only remove candidates, so the fixpoint, and whether a
    contradiction comes, do not depend on the order."""
    if not all(masks[c] for c in touched):  # a filter (or locked candidates) emptied it
        return True, masks, values
    return settled(geometry, masks, values, [], touched)


@twin(Kernels.LOGIC, "sudokit.logic.chains._settle_kernel:settle",
      "sudokit.logic.chains.dynamic:settle", "settles")
def settled(geometry: Geometry, masks: list[int], values: list[int],
            pending: list[tuple[int, int]], touched: set[int]
            ) -> tuple[bool, list[int], list[int]]:
    """Place each (cell, digit) of ``pending``, then the singles that follow from the cells
    ``touched``, to their fixpoint (:func:`~sudokit.logic.chains.dynamic.settle`, compiled once
    the technique engine is: :func:`~sudokit.logic.chains._settle_kernel.settle`, the same
    fixpoint, state and order).

    Returns:
        whether a contradiction comes; the candidates (N*N masks, bit d-1 for digit d) and the
        placed digits (0 open) reached, new lists (``masks`` and ``values`` are not changed).
    """
    if not use_compiled(Kernels.LOGIC):
        masks, values = list(masks), list(values)
        return settle(geometry, masks, values, list(pending), set(touched)), masks, values
    from ._settle_kernel import settle as kernel

    at_masks, at_values = np.array(masks, np.int64), np.array(values, np.int64)
    marked = np.zeros(len(masks), np.uint8)
    marked[list(touched)] = 1
    scratch = _scratch(geometry)
    for i, (c, d) in enumerate(pending):
        scratch[1][i], scratch[2][i] = c, d - 1
    bad = kernel(at_masks, at_values, marked, len(pending), _grid(geometry), scratch)
    return bool(bad), at_masks.tolist(), at_values.tolist()


def locked_round(geometry: Geometry, masks: list[int], values: list[int]) -> dict[int, int]:
    """Locked candidates (pointing and claiming) once over ``masks`` (changed in place;
    ``values``: placed digits, 0 open): per cell changed, one digit it lost.

    Which digits lock is read once, before any removal, as a snapshot: per intersection of
    :func:`intersections`, the digits of its open cells that no other open cell of its first
    unit holds (two OR-reductions over all intersections at once, in NumPy). The removals
    follow in :func:`intersections`' order, digits ascending, cells ascending (so the changes
    and their order are fixed)."""
    inside, rest, targets = _locks(geometry)
    open_masks = np.zeros(len(masks) + 1, dtype=np.int64)  # the last: 0, ends every segment
    open_masks[:-1] = masks
    open_masks[:-1][np.asarray(values) != 0] = 0
    locked = (np.bitwise_or.reduceat(open_masks[inside[0]], inside[1])
              & ~np.bitwise_or.reduceat(open_masks[rest[0]], rest[1]))
    changed: dict[int, int] = {}
    for i in np.flatnonzero(locked).tolist():
        for b in bits(int(locked[i])):
            bit = 1 << b
            for c in targets[i]:
                if masks[c] & bit and not values[c]:
                    masks[c] &= ~bit
                    changed[c] = b + 1
    return changed


_Segments = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]
"""Cells (indices, one segment after another) and where each segment starts."""


@cache
def _locks(geometry: Geometry) -> tuple[_Segments, _Segments, tuple[tuple[int, ...], ...]]:
    """Per intersection of :func:`intersections` (in its order): its cells; its first unit's
    other cells; its second unit's other cells, ascending. The first two as segments for
    ``reduceat``, each ended by the index one past the last cell (a cell with no candidate, so
    that no segment is empty)."""
    pad = geometry.side * geometry.side
    units = unit_cells(geometry)
    inters = intersections(geometry)

    def segments(parts: list[int]) -> _Segments:
        cells: list[int] = []
        starts = []
        for part in parts:
            starts.append(len(cells))
            cells += [c for c in range(pad) if part >> c & 1] + [pad]
        return np.array(cells, dtype=np.intp), np.array(starts, dtype=np.intp)

    return (segments([i.cells for i in inters]),
            segments([units[i.first] & ~i.cells for i in inters]),
            tuple(tuple(c for c in range(pad) if (units[i.second] & ~i.cells) >> c & 1)
                  for i in inters))


_NEEDS = frozenset({"pair-relation", "linear-sum", "sequence", "must-contain", "renban",
                    "between-line", "lockout-line", "indexing", "killer", "non-consecutive"})


@technique("Rule Forcing Chain", RULE_FORCING, max_side=16, order=1, needs=_NEEDS)
def rule_forcing_chain(board: Board, plus: bool = False) -> Step | None:
    """The first candidate (cells with fewest candidates first) whose assumption breaks a
    rule or the units, followed by singles and the rules' filters (``plus``: see
    :func:`assume_with_rules`)."""
    geometry = board.geometry
    masks = board.masks
    known = _Known(board, plus)
    for cell in sorted(board.open_cells, key=lambda c: (masks[c].bit_count(), c)):
        for b in bits(masks[cell]):
            if known.holds(cell, b + 1):
                continue
            why, rounds, reached = assume_with_rules(board, cell, b + 1, plus)
            if why is not None:
                return _step(geometry, cell, b + 1, why, rounds, plus)
            known.remember(cell, b + 1, rounds, reached)
    return None


class _Known:
    """The assumptions of earlier boards of the same grid that led to no contradiction, with
    the candidates reached (one per candidate and depth of following, the last board's).

    Such a state R is a fixpoint of every link the chain follows (singles, the rules' filters,
    with ``plus`` the peers' fillings and locked candidates), all monotone (fewer candidates in,
    fewer out; the fillings search on fewer candidates walks part of the same tree, so it stays
    within :data:`~sudokit.logic.rule_filters.NODES` when the larger one did). On a later board
    B' within the earlier board B that still holds R, following the same assumption stays
    within B' and above R at every round (each link keeps R), so no contradiction comes, and
    where it settles is R again: the greatest common fixpoint below B' lies between R and the
    one below B, which is R. An assumption cut off at :data:`_ROUNDS` is not remembered.
    """

    def __init__(self, board: Board, plus: bool) -> None:
        key = (id(board.geometry), plus)
        hit = _KNOWN.get(key)
        if hit is None or hit[0] is not board.geometry:
            if len(_KNOWN) >= 8:
                _KNOWN.clear()
            hit = _KNOWN[key] = (board.geometry, {})
        self.seen: dict[tuple[int, int], tuple[int, int, list[int]]] = hit[1]
        self.board = _packed(board.masks)

    def holds(self, cell: int, digit: int) -> list[int] | None:
        """The candidates an earlier board's assumption of ``digit`` in ``cell`` reached, when
        that state and its board bracket this board's (so it reaches them again), else None."""
        hit = self.seen.get((cell, digit))
        if hit is None:
            return None
        board, reached, masks = hit
        if self.board & ~board or reached & ~self.board:
            return None
        return masks

    def remember(self, cell: int, digit: int, rounds: int, masks: list[int]) -> None:
        """The state ``masks`` an assumption settled in without contradiction, within
        ``rounds`` (not remembered if cut off at :data:`_ROUNDS`)."""
        if rounds < _ROUNDS:
            self.seen[(cell, digit)] = (self.board, _packed(masks), masks)


_KNOWN: dict[tuple[int, bool], tuple[Geometry, dict[tuple[int, int],
                                                    tuple[int, int, list[int]]]]] = {}


def _packed(masks: list[int]) -> int:
    """The candidates as one integer, 16 bits a cell (a side of at most 16)."""
    return int.from_bytes(struct.pack(f"<{len(masks)}H", *masks), "little")


@technique("Rule Forcing Chain (+)", RULE_FORCING_PLUS, max_side=16, order=1, needs=_NEEDS)
def rule_forcing_chain_plus(board: Board) -> Step | None:
    """:func:`rule_forcing_chain` followed further: peers differ in the rules' fillings,
    locked candidates."""
    return rule_forcing_chain(board, True)


def _step(geometry: Geometry, cell: int, digit: int, why: str, rounds: int,
          plus: bool) -> Step:
    label = geometry.label(cell)
    name, base, means = _KINDS[plus]
    return Step(name, base + length_bonus(2 * rounds),
                lambda: f"if {label}={digit}, {means} lead to a contradiction "
                        f"({why}): {label}<>{digit}",
                eliminations=((cell, digit),), cells=(cell,), digits=(digit,))


_KINDS = {False: ("Rule Forcing Chain", RULE_FORCING, "singles and the rules"),
          True: ("Rule Forcing Chain (+)", RULE_FORCING_PLUS,
                 "singles, the rules (their cells that see each other differ) and locked "
                 "candidates")}
"""Per depth of following (plus or not): the technique's name, base rating and what
follows the assumption, in its text."""


@technique("Rule Cell Forcing Chain", RULE_CELL_FORCING, max_side=16, order=1, needs=_NEEDS)
def rule_cell_forcing_chain(board: Board, plus: bool = False) -> Step | None:
    """The first cell (fewest candidates first) such that every candidate of it, followed by
    singles and the rules' filters (``plus``: see :func:`assume_with_rules`), removes the same
    candidate elsewhere."""
    known = _Known(board, plus)
    for cell in sorted(board.open_cells, key=lambda c: (board.masks[c].bit_count(), c)):
        gone, rounds = _cell_gone(board, cell, plus, known)
        if gone and rounds < 0:  # some branch known from before: followed again for rounds
            gone, rounds = _cell_gone(board, cell, plus, None)
        if gone:
            return _cell_step(board.geometry, cell, gone, rounds, plus)
    return None


def _cell_gone(board: Board, cell: int, plus: bool, known: _Known | None
               ) -> tuple[tuple[tuple[int, int], ...], int]:
    """The candidates every candidate of ``cell`` removes elsewhere (followed as
    :func:`assume_with_rules`), and the most rounds one needed; -1 rounds when the state of some
    candidate came from ``known`` (the same state: :class:`_Known`, but its rounds unknown)."""
    masks = board.masks
    common, rounds = None, 0
    for b in bits(masks[cell]):
        reached = known.holds(cell, b + 1) if known is not None else None
        if reached is not None:
            rounds = -1
        else:
            why, used, reached = assume_with_rules(board, cell, b + 1, plus)
            if why is not None:
                continue
            if known is not None:
                known.remember(cell, b + 1, used, reached)
            rounds = max(rounds, used) if rounds >= 0 else rounds
        common = reached if common is None else [x | y for x, y in zip(common, reached)]
    if common is None:
        return (), rounds
    return tuple((c, b + 1) for c, (m, kept) in enumerate(zip(masks, common))
                 for b in bits(m & ~kept) if c != cell), rounds


@technique("Rule Cell Forcing Chain (+)", RULE_CELL_FORCING_PLUS, max_side=16, order=1,
           needs=_NEEDS)
def rule_cell_forcing_chain_plus(board: Board) -> Step | None:
    """:func:`rule_cell_forcing_chain` followed further (see :func:`assume_with_rules`)."""
    return rule_cell_forcing_chain(board, True)


def _cell_step(geometry: Geometry, cell: int, gone: tuple[tuple[int, int], ...],
               rounds: int, plus: bool) -> Step:
    label = geometry.label(cell)
    name = "Rule Cell Forcing Chain" + (" (+)" if plus else "")
    base = RULE_CELL_FORCING_PLUS if plus else RULE_CELL_FORCING
    return Step(name, base + length_bonus(2 * rounds),
                lambda: f"whichever digit {label} holds, {_KINDS[plus][2]} remove "
                        f"{eliminations_text(geometry, gone)}",
                eliminations=gone, cells=(cell,), digits=tuple(sorted({d for _c, d in gone})))
