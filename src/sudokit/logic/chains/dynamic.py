"""Consequences of an assumption by singles, for forcing chains and the trial step.

:func:`consequences` assumes a candidate true (or false) on a copy of the board's candidates and
applies basic eliminations, naked singles and hidden singles to a fixpoint, recording in which
wave each fact was first derived (a wave is one round of singles; a chain through w waves has
about 2w nodes). A contradiction (an empty cell, a digit without a place) ends it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ...errors import LimitReached
from ...model.geometry import Geometry
from ...model.result import Limits, Stats
from ..deadline import check_deadline as _check_deadline
from ..deadline import limited
from ..rule_filters import filter_round
from ..state import Board, bits

__all__ = ["Implications", "consequences", "limited", "search_solution", "settle"]

@dataclass
class Implications:
    """What an assumption implies.

    Attributes:
        contradiction: the assumption is impossible.
        placed: cell -> (digit, wave) for every digit placed.
        eliminated: (cell, digit) -> wave for every candidate removed.
        masks: the candidates at the fixpoint.
        values: the placed digits at the fixpoint.
        waves: rounds of singles run (up to the contradiction, if any).
    """

    contradiction: bool = False
    placed: dict[int, tuple[int, int]] = field(default_factory=dict)
    eliminated: dict[tuple[int, int], int] = field(default_factory=dict)
    masks: list[int] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    waves: int = 0


def consequences(board: Board, cell: int, digit: int, true: bool,
                 masks: list[int] | None = None, values: list[int] | None = None
                 ) -> Implications:
    """Assume ``cell`` is (``true``) or is not ``digit``; derive by singles (see module)."""
    geometry = board.geometry
    masks = list(board.masks if masks is None else masks)
    values = list(board.values if values is None else values)
    out = Implications(masks=masks, values=values)
    pending: list[tuple[int, int]] = []
    if true:
        pending.append((cell, digit))
    else:
        masks[cell] &= ~(1 << (digit - 1))
        out.eliminated[(cell, digit)] = 0
        if not masks[cell]:
            out.contradiction = True
            return out
    out.contradiction = settle(geometry, masks, values, pending, {cell}, out)
    return out


def settle(geometry: Geometry, masks: list[int], values: list[int],
           pending: list[tuple[int, int]], touched: set[int],
           out: Implications | None = None) -> bool:
    """Place each (cell, digit) of ``pending``, then the singles that follow from the cells
    ``touched`` (which lost candidates), wave after wave to their fixpoint; ``masks`` and
    ``values`` change in place. Into ``out``, when given, go the digits placed and candidates
    removed with their wave, and the waves run.

    Returns:
        whether a contradiction comes (a cell without a candidate, a digit placed twice in a
        unit or a unit without a place for a digit).
    """
    peers, units, units_of = geometry.peers, geometry.units, geometry.units_of
    wave = 0
    while True:
        wave += 1
        if out is not None:
            out.waves = wave
        while pending:
            c, d = pending.pop()
            if values[c]:
                if values[c] != d:
                    return True
                continue
            bit = 1 << (d - 1)
            if not masks[c] & bit:
                return True
            values[c] = d
            masks[c] = bit
            if out is not None:
                out.placed[c] = (d, wave)
            for p in peers[c]:
                if masks[p] & bit:
                    if values[p]:
                        return True
                    masks[p] &= ~bit
                    if out is not None:
                        out.eliminated[(p, d)] = wave
                    touched.add(p)
                    if not masks[p]:
                        return True
        found = _singles(masks, values, touched, units, units_of)
        if found is None:
            return True
        if not found:
            return False
        pending = found
        touched = {c for c, _d in found}


def _singles(masks: list[int], values: list[int], touched: set[int],
             units: tuple[tuple[int, ...], ...],
             units_of: tuple[tuple[int, ...], ...]) -> list[tuple[int, int]] | None:
    """Naked singles among ``touched`` cells (ascending), then hidden singles in their units
    (ascending; in a unit, digits ascending); None on a contradiction (a digit with no place in
    a unit). The order is fixed because it decides which eliminations are recorded in a cell
    placed in the same wave (the compiled
    :func:`~sudokit.logic.chains._forcing_kernel.assume_candidate` keeps the same order)."""
    found = []
    for c in sorted(touched):
        m = masks[c]
        if not values[c] and m and not m & (m - 1):
            found.append((c, m.bit_length()))
    for u in sorted({u for c in touched for u in units_of[c]}):
        seen_once = seen_twice = placed = 0
        for c in units[u]:
            if values[c]:
                placed |= masks[c]
                continue
            m = masks[c]
            seen_twice |= seen_once & m
            seen_once |= m
        if (seen_once | placed).bit_count() != len(units[u]):
            return None
        for b in bits(seen_once & ~seen_twice & ~placed):
            for c in units[u]:
                if not values[c] and masks[c] >> b & 1:
                    found.append((c, b + 1))
                    break
    return found


UNDECIDED = "undecided"
"""What :func:`_compiled_solution` returns when the Python search must decide."""

CDCL_CELLS = 81
"""Largest grid (cells) whose trial searches go to CDCL: on an empty 36x36 or 64x64 grid the
formula took over 500 MB and the time limit, where the Python search finds a completion at
once (tests/fuzz)."""


def _compiled_solution(geometry: Geometry, masks: list[int], values: list[int]
                       ) -> list[int] | None | str:
    """A completion of the candidates ``masks`` (placed ``values``) found by CDCL, or None
    when there is none, or :data:`UNDECIDED` (PySAT missing, or a grid larger than
    :data:`CDCL_CELLS`).

    The puzzle of the grid (every rule drawn on it) with ``values`` and each single candidate
    as givens is encoded (:func:`sudokit.sat.compact.compact_cnf`), every candidate ``masks``
    lost is added as a negative unit clause, and a PySAT backend solves it: a completion of
    ``masks`` is a model. On the rule puzzle "Solver needs SET" (tests/data/rules) a trial
    step's searches took seconds in Python.

    Raises:
        LimitReached: the deadline of :func:`limited` passed (checked every 0.2 s).
    """
    if geometry.n_cells > CDCL_CELLS:
        return UNDECIDED
    backends = _backends()
    if not backends:
        return UNDECIDED
    n = geometry.side
    givens = []
    for m, v in zip(masks, values):
        if not v and not m:
            return None  # a cell without a candidate
        givens.append(v or (m.bit_length() if not m & (m - 1) else 0))
    from pysat.solvers import Solver as PySatSolver

    from ...model.puzzle import Puzzle
    from ...sat.compact import compact_cnf
    from ...sat.pysat import limited_solve

    puzzle = Puzzle(geometry, tuple(givens))
    if puzzle.conflicts():
        return None
    cnf = compact_cnf(puzzle)
    if [] in cnf.clauses:
        return None
    original = cnf.original
    lost = np.array([c * n + d + 1 for c, m in enumerate(masks) if not givens[c]
                     for d in range(n) if not m >> d & 1], dtype=np.int64)
    dense = np.minimum(np.searchsorted(original, lost), original.size - 1)
    dense = dense[original[dense] == lost]
    with PySatSolver(name=backends[0], bootstrap_with=cnf.clauses) as solver:
        for v in dense.tolist():
            solver.add_clause([-v])
        while True:
            try:
                if not limited_solve(solver, Stats(), Limits(0.2).start()):
                    return None
                return list(cnf.decode(solver.get_model() or ()))
            except LimitReached:
                _check_deadline()


@functools.cache
def _backends() -> tuple[str, ...]:
    """The first PySAT backend that builds and solves under limits here, or none (probed once:
    :func:`~sudokit.sat.pysat.pysat_backends` with ``first``)."""
    from ...sat.pysat import pysat_backends

    return pysat_backends(first=True)


def search_solution(board: Board, masks: list[int] | None = None,
                    values: list[int] | None = None, budget: list[int] | None = None
                    ) -> list[int] | None:
    """Return a completion of the board, or None: by CDCL where PySAT is installed
    (:func:`_compiled_solution`; without ``budget``), else depth-first in Python (singles and
    the rules' filters between choices).

    ``budget`` (a one-item list) is decremented per choice; the search gives up (None) at 0.
    The search keeps its own stack of choice points (one per open cell at most: an empty
    64x64 grid goes thousands deep, past Python's recursion limit).

    Raises:
        LimitReached: the deadline of the limits set by :func:`limited` passed (checked at
            every choice).
    """
    state = (list(board.masks if masks is None else masks),
             list(board.values if values is None else values))
    if budget is None:
        found = _compiled_solution(board.geometry, *state)
        if not isinstance(found, str):
            return found
    stack: list[tuple[list[int], list[int], int, Iterator[int]]] = []
    while True:
        at_masks, at_values = state
        open_cells = [c for c, v in enumerate(at_values) if not v]
        if not open_cells:
            return at_values
        cell = min(open_cells, key=lambda c: at_masks[c].bit_count())
        stack.append((at_masks, at_values, cell, iter(bits(at_masks[cell]))))
        while stack:
            at_masks, at_values, cell, choices = stack[-1]
            b = next(choices, None)
            if b is None:
                stack.pop()
                continue
            if budget is not None:
                if budget[0] <= 0:
                    return None
                budget[0] -= 1
            _check_deadline()
            out = _with_rules(board, consequences(board, cell, b + 1, True, at_masks,
                                                  at_values))
            if not out.contradiction:
                state = (out.masks, out.values)
                break
        else:
            return None


def _with_rules(board: Board, out: Implications) -> Implications:
    """Follow ``out`` with the drawn rules' filters and the singles they lead to, to a
    fixpoint (:func:`~sudokit.logic.rule_filters.filter_round`); unchanged on a grid without
    rules."""
    while not out.contradiction:
        changed = filter_round(board.geometry, out.masks)
        if isinstance(changed, str):
            out.contradiction = True
        if isinstance(changed, str) or not changed:
            return out
        for c, gone in changed.items():
            out = consequences(board, c, gone, False, out.masks, out.values)
            if out.contradiction:
                break
    return out
