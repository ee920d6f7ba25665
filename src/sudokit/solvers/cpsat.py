"""Adapter for ``cpsat``: Google OR-Tools' CP-SAT solver (optional: ``pip install ortools``).

The model is the 0-1 one of the SAT encodings, stated with CP-SAT's native constraints: one
Boolean per candidate the givens leave (:func:`sudokit.sat.compact.candidates`), ``ExactlyOne``
per cell and per (unit, digit). CP-SAT (lazy clause generation: Stuckey 2010, "Lazy clause
generation: combining the power of SAT and CP (and MIP?) solving") propagates them natively.
Solutions are enumerated by one search (``enumerate_all_solutions``) that stops after a batch;
more: a blocking clause on each grid found, and a search again.

Variants: extra units come with the geometry's units; candidates are pruned by the givens
through every rule (:func:`sudokit.sat.compact.candidates`); pairs that must differ but share no
unit (cage mates, chess moves) get ``AddAtMostOne`` per digit, non-consecutive neighbours a
clause per pair of adjacent digits, and each killer cage the linear equation
``sum(d * x(cell, d)) == total`` (CP-SAT's linear propagation plus the cage mates' all-different),
plus the cages' implied sums (:func:`sudokit.model.implied.implied_sums`: innies and outies,
set equivalence) as redundant linear equalities.

Drawn rules (:mod:`sudokit.model.rules`) read the digit of each of their cells as an integer
variable channelled to its Booleans: pair relations as ``AddAllowedAssignments`` of their table,
linear sums as linear equalities, sequence rules as ``AddAutomaton`` over their automaton,
must-contain as "at least m" sums of Booleans, renban as ``AddAllDifferent`` plus max - min,
between and lockout lines over the min and max of their ends, indexing as ``AddElement``.

Limits: the time left is CP-SAT's ``max_time_in_seconds``; a node is one ``Solve`` call (CP-SAT
has no branch limit; one call finds up to 64 grids), so node limits are exact in those units;
``conflicts`` are CP-SAT's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from ..errors import LimitReached
from ..model.geometry import ALL_FEATURES
from ..model.implied import implied_sums
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from ..model.rules import (Automaton, Between, Contains, Index, Lockout, Relation, Renban, Rule,
                           WeightedSum)
from ..registry import register
from .base import Solver

if TYPE_CHECKING:  # OR-Tools is imported when a model is built
    from ortools.sat.python.cp_model import CpModel, Domain, IntVar

__all__ = ["CPSAT_RULE_KINDS", "CpSatSolver"]


def _model(puzzle: Puzzle) -> tuple[CpModel, dict[tuple[int, int], IntVar], bool]:
    """Build the CP-SAT model; return it, its Booleans by (cell, digit) and whether the
    givens leave every cell and every (unit, digit) a place."""
    from ortools.sat.python import cp_model

    from ..sat.compact import candidates

    cand, ok = candidates(puzzle)
    model = cp_model.CpModel()
    x = {(int(c), int(d) + 1): model.NewBoolVar(f"x{c}_{d + 1}")
         for c, d in zip(*np.nonzero(cand))}
    givens = puzzle.givens
    for cell in range(len(givens)):
        if not givens[cell]:
            group = [x[cell, d] for d in range(1, puzzle.geometry.side + 1) if (cell, d) in x]
            ok = ok and bool(group)
            model.AddExactlyOne(group)
    for unit in puzzle.geometry.units:
        placed = {givens[c] for c in unit}
        for d in range(1, puzzle.geometry.side + 1):
            if d not in placed:
                group = [x[c, d] for c in unit if (c, d) in x]
                ok = ok and bool(group)
                model.AddExactlyOne(group)
    if not puzzle.geometry.is_standard:
        _variant_constraints(model, x, puzzle)
    return model, x, ok


def _variant_constraints(model: CpModel, x: dict[tuple[int, int], IntVar], puzzle: Puzzle
                         ) -> None:
    """Add the pairs, non-consecutive neighbours and cage sums (parity and the givens' effects
    are already in the candidates)."""
    g, givens = puzzle.geometry, puzzle.givens
    n = g.side
    for a, b in g.extra_pairs:
        for d in range(1, n + 1):
            if (a, d) in x and (b, d) in x:
                model.AddAtMostOne([x[a, d], x[b, d]])
    for a, b in g.consecutive_pairs:
        for d in range(1, n):
            for u, v in (((a, d), (b, d + 1)), ((a, d + 1), (b, d))):
                if u in x and v in x:
                    model.AddBoolOr([x[u].Not(), x[v].Not()])
    sums = [(cage.cells, (1,) * len(cage.cells), cage.total) for cage in g.cages]
    sums += [(s.cells, s.coefficients, s.total) for s in implied_sums(g)]
    for cells, coefficients, total in sums:
        fixed = sum(k * givens[c] for c, k in zip(cells, coefficients))
        terms = [k * d * x[c, d] for c, k in zip(cells, coefficients)
                 for d in range(1, n + 1) if (c, d) in x]
        model.Add(sum(terms) == total - fixed)
    if g.constraints:
        digits = _Digits(model, x, puzzle)
        for rule in g.constraints:
            _add_rule(model, digits, rule, n)


class _Digits:
    """The digit of each cell as an integer expression: the given, or an ``IntVar`` channelled
    to the cell's Booleans (``v == sum(d * x(cell, d))``), made on first use."""

    def __init__(self, model: CpModel, x: dict[tuple[int, int], IntVar], puzzle: Puzzle
                 ) -> None:
        self.model, self.x, self.puzzle = model, x, puzzle
        self.made: dict[int, IntVar] = {}

    def __getitem__(self, cell: int) -> IntVar:
        if cell not in self.made:
            given = self.puzzle.givens[cell]
            if given:
                self.made[cell] = self.model.NewConstant(given)
            else:
                n = self.puzzle.geometry.side
                options = [d for d in range(1, n + 1) if (cell, d) in self.x]
                var = self.model.NewIntVarFromDomain(_domain(options), f"v{cell}")
                self.model.Add(var == sum(d * self.x[cell, d] for d in options))
                self.made[cell] = var
        return self.made[cell]

    def of(self, cells: Sequence[int]) -> list[IntVar]:
        """The digits of several cells, in order."""
        return [self[c] for c in cells]


def _domain(values: Sequence[int]) -> Domain:
    from ortools.sat.python import cp_model

    return cp_model.Domain.FromValues(list(values) or [0])  # no value: an infeasible 0


def _pair(model: CpModel, digits: _Digits, rule: Relation, n: int) -> None:
    model.AddAllowedAssignments(digits.of(rule.cells), sorted(rule.pairs))


def _linear(model: CpModel, digits: _Digits, rule: WeightedSum, n: int) -> None:
    model.Add(sum(k * v for k, v in zip(rule.coefficients, digits.of(rule.cells)))
              == rule.total)


def _sequence(model: CpModel, digits: _Digits, rule: Automaton, n: int) -> None:
    """``AddAutomaton`` over the rule's automaton (states renumbered from 0, the start first;
    the dead state -1 left out)."""
    transitions = [(s, d, t) for s, row in enumerate(rule.transitions)
                   for d, t in enumerate(row, 1) if t >= 0]
    model.AddAutomaton(digits.of(rule.cells), rule.start, sorted(rule.accepting), transitions)


def _contains(model: CpModel, digits: _Digits, rule: Contains, n: int) -> None:
    x, givens = digits.x, digits.puzzle.givens
    for d in set(rule.digits):
        here = [x[c, d] for c in rule.cells if (c, d) in x]
        fixed = sum(givens[c] == d for c in rule.cells)
        model.Add(sum(here) >= rule.digits.count(d) - fixed)


def _renban(model: CpModel, digits: _Digits, rule: Renban, n: int) -> None:
    values = digits.of(rule.cells)
    low, high = model.NewIntVar(1, n, ""), model.NewIntVar(1, n, "")
    model.AddAllDifferent(values)
    model.AddMinEquality(low, values)
    model.AddMaxEquality(high, values)
    model.Add(high - low == len(values) - 1)


def _ends(model: CpModel, digits: _Digits, rule: Between | Lockout, n: int
         ) -> tuple[IntVar, IntVar, list[IntVar]]:
    """The lower and upper end of a line (``IntVar``s) and its middle digits."""
    values = digits.of(rule.cells)
    low, high = model.NewIntVar(1, n, ""), model.NewIntVar(1, n, "")
    model.AddMinEquality(low, [values[0], values[-1]])
    model.AddMaxEquality(high, [values[0], values[-1]])
    return low, high, values[1:-1]


def _between(model: CpModel, digits: _Digits, rule: Between, n: int) -> None:
    low, high, middle = _ends(model, digits, rule, n)
    for v in middle:
        model.Add(v > low)
        model.Add(v < high)


def _lockout(model: CpModel, digits: _Digits, rule: Lockout, n: int) -> None:
    low, high, middle = _ends(model, digits, rule, n)
    model.Add(high - low >= rule.gap)
    for v in middle:
        below = model.NewBoolVar("")
        model.Add(v < low).OnlyEnforceIf(below)
        model.Add(v > high).OnlyEnforceIf(below.Not())


def _index(model: CpModel, digits: _Digits, rule: Index, n: int) -> None:
    """``AddElement`` over the targets behind a constant first entry, so that the pointer is
    the indexing digit itself (digit d reads the d-th target)."""
    pointer = digits[rule.cells[0]]
    targets = [model.NewConstant(rule.value)] + [digits[rule.cells[t]] for t in rule.targets]
    model.Add(pointer <= len(rule.targets))
    model.AddElement(pointer, targets, rule.value)


def _add_rule(model: CpModel, digits: _Digits, rule: Rule, n: int) -> None:
    """One OR-Tools statement per rule kind (:mod:`sudokit.model.rules`)."""
    match rule:
        case Relation():
            _pair(model, digits, rule, n)
        case WeightedSum():
            _linear(model, digits, rule, n)
        case Automaton():
            _sequence(model, digits, rule, n)
        case Contains():
            _contains(model, digits, rule, n)
        case Renban():
            _renban(model, digits, rule, n)
        case Between():
            _between(model, digits, rule, n)
        case Lockout():
            _lockout(model, digits, rule, n)
        case Index():
            _index(model, digits, rule, n)
        case _:
            raise KeyError(rule.kind)


_KINDS = (Relation, WeightedSum, Automaton, Contains, Renban, Between, Lockout, Index)

CPSAT_RULE_KINDS = frozenset(kind.kind for kind in _KINDS)
"""The rule kinds :class:`CpSatSolver` states natively."""


@register
class CpSatSolver(Solver):
    """OR-Tools CP-SAT on the 0-1 Sudoku model (option ``workers``: CP-SAT's search workers)."""

    name = "cpsat"
    summary = ("OR-Tools CP-SAT (lazy clause generation) on ExactlyOne per cell and unit-digit; "
               "optional: pip install 'sudokit[ortools]'")
    requires = ("ortools",)
    install = "sudokit[ortools]"
    counters = frozenset({"nodes", "conflicts"})
    features = ALL_FEATURES | CPSAT_RULE_KINDS
    options = {"workers": (1, None)}

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        """Enumerate with CP-SAT's ``enumerate_all_solutions`` (no presolve: one search finds
        a grid and goes on to prove there is no other), a batch per ``Solve`` call (2, then
        doubling up to :data:`_MOST_BATCH`), when every rule kind is in :data:`_ENUMERATED`;
        otherwise one grid per ``Solve`` call. The grids found are blocked before the next
        call."""
        from ortools.sat.python import cp_model

        model, x, ok = _model(puzzle)
        if not ok:
            return
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = int(self.settings["workers"])
        enumerating = {r.kind for r in puzzle.geometry.constraints} <= _ENUMERATED
        solver.parameters.enumerate_all_solutions = enumerating
        batch = 2 if enumerating else 1
        while True:
            limits.count_node(stats)
            left = limits.remaining()
            if left is not None:
                solver.parameters.max_time_in_seconds = max(left, 1e-3)
            found = _batch_class()(x, puzzle.givens, batch)
            status = solver.Solve(model, found)
            stats.conflicts = (stats.conflicts or 0) + int(solver.NumConflicts())
            yield from found.grids
            if status == cp_model.INFEASIBLE or (enumerating and status == cp_model.OPTIMAL):
                return  # the search ended: every solution was found
            if len(found.grids) < batch:
                raise LimitReached(f"time limit {limits.time_limit} s reached (CP-SAT)")
            for grid in found.grids:
                free = [x[c, d] for c, d in enumerate(grid) if not puzzle.givens[c]]
                if not free:
                    return
                model.AddBoolOr([v.Not() for v in free])
            batch = min(2 * batch, _MOST_BATCH) if enumerating else 1


_ENUMERATED = frozenset({"pair-relation", "linear-sum"})
"""The rule kinds whose statements add no free auxiliary variable (their integer digits are
channelled), so that an enumerating search meets each grid once; the others (automata, the
ends of lines ...) may give the same grid with many assignments of their auxiliary variables."""

_MOST_BATCH = 64
"""The most grids one ``Solve`` call collects (each later call blocks them all)."""


@cache
def _batch_class() -> type:
    from ortools.sat.python import cp_model

    class Batch(cp_model.CpSolverSolutionCallback):
        """Collect up to ``size`` distinct grids, then stop the search (CP-SAT enumerates
        assignments of every variable, so a grid may come again with other auxiliary ones)."""

        def __init__(self, x: dict[tuple[int, int], IntVar], givens: Grid, size: int) -> None:
            super().__init__()
            self.x, self.givens, self.size = x, givens, size
            self.grids: list[Grid] = []

        def on_solution_callback(self) -> None:
            grid = list(self.givens)
            for (cell, digit), var in self.x.items():
                if self.BooleanValue(var):
                    grid[cell] = digit
            if tuple(grid) in self.grids:  # the same digits, other auxiliary variables
                return
            self.grids.append(tuple(grid))
            if len(self.grids) >= self.size:
                self.StopSearch()

    return Batch
