"""Adapter for ``cpsat``: Google OR-Tools' CP-SAT solver (optional: ``pip install ortools``).

The model is the 0-1 one of the SAT encodings, stated with CP-SAT's native constraints: one
Boolean per candidate the givens leave (:func:`sudokit.sat.compact.candidates`), ``ExactlyOne``
per cell and per (unit, digit). CP-SAT (lazy clause generation: Stuckey 2010, "Lazy clause
generation: combining the power of SAT and CP (and MIP?) solving") propagates them natively.
More solutions: a blocking clause on the last grid's free cells, and solve again.

Variants: extra units come with the geometry's units; candidates are pruned by the givens
through every rule (:func:`sudokit.sat.compact.candidates`); pairs that must differ but share no
unit (cage mates, chess moves) get ``AddAtMostOne`` per digit, non-consecutive neighbours a
clause per pair of adjacent digits, and each killer cage the linear equation
``sum(d * x(cell, d)) == total`` (CP-SAT's linear propagation plus the cage mates' all-different).

Limits: the time left is CP-SAT's ``max_time_in_seconds``; a node is one ``Solve`` call (CP-SAT
has no branch limit), so node limits are exact in those units; ``conflicts`` are CP-SAT's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import LimitReached
from ..model.geometry import ALL_FEATURES
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from ..registry import register
from .base import Solver

__all__ = ["CpSatSolver"]


def _model(puzzle: Puzzle) -> tuple[Any, dict[tuple[int, int], Any], bool]:
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


def _variant_constraints(model: Any, x: dict[tuple[int, int], Any], puzzle: Puzzle) -> None:
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
    for cage in g.cages:
        fixed = sum(givens[c] for c in cage.cells)
        terms = [d * x[c, d] for c in cage.cells for d in range(1, n + 1) if (c, d) in x]
        model.Add(sum(terms) == cage.total - fixed)


@register
class CpSatSolver(Solver):
    """OR-Tools CP-SAT on the 0-1 Sudoku model (option ``workers``: CP-SAT's search workers)."""

    name = "cpsat"
    summary = ("OR-Tools CP-SAT (lazy clause generation) on ExactlyOne per cell and unit-digit; "
               "optional: pip install 'sudokit[ortools]'")
    requires = ("ortools",)
    install = "sudokit[ortools]"
    counters = frozenset({"nodes", "conflicts"})
    features = ALL_FEATURES
    options = {"workers": (1, None)}

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        from ortools.sat.python import cp_model

        model, x, ok = _model(puzzle)
        if not ok:
            return
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = int(self.settings["workers"])
        while True:
            limits.count_node(stats)
            left = limits.remaining()
            if left is not None:
                solver.parameters.max_time_in_seconds = max(left, 1e-3)
            status = solver.Solve(model)
            stats.conflicts = (stats.conflicts or 0) + int(solver.NumConflicts())
            if status == cp_model.INFEASIBLE:
                return
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                raise LimitReached(f"time limit {limits.time_limit} s reached (CP-SAT)")
            grid = list(puzzle.givens)
            for (cell, digit), var in x.items():
                if solver.BooleanValue(var):
                    grid[cell] = digit
            yield tuple(grid)
            free = [x[c, d] for c, d in enumerate(grid) if not puzzle.givens[c]]
            if not free:
                return
            model.AddBoolOr([v.Not() for v in free])
