"""Adapter for ``cpsat``: Google OR-Tools' CP-SAT solver (optional: ``pip install ortools``).

The model is the 0-1 one of the SAT encodings, stated with CP-SAT's native constraints: one
Boolean per candidate the givens leave (:func:`sudokit.sat.compact.candidates`), ``ExactlyOne``
per cell and per (unit, digit). CP-SAT (lazy clause generation: Stuckey 2010, "Lazy clause
generation: combining the power of SAT and CP (and MIP?) solving") propagates them natively.
More solutions: a blocking clause on the last grid's free cells, and solve again.

Limits: the time left is CP-SAT's ``max_time_in_seconds``; a node is one ``Solve`` call (CP-SAT
has no branch limit), so node limits are exact in those units; ``conflicts`` are CP-SAT's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import LimitReached
from ..puzzle import Grid, Puzzle
from ..registry import register
from ..result import Limits, Stats
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
    return model, x, ok


@register
class CpSatSolver(Solver):
    """OR-Tools CP-SAT on the 0-1 Sudoku model (option ``workers``: CP-SAT's search workers)."""

    name = "cpsat"
    summary = ("OR-Tools CP-SAT (lazy clause generation) on ExactlyOne per cell and unit-digit; "
               "optional: pip install 'sudokit[ortools]'")
    requires = ("ortools",)
    install = "sudokit[ortools]"
    counters = frozenset({"nodes", "conflicts"})
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
