"""Minimal conflicts by CDCL with assumptions: one incremental SAT solver holds the whole
puzzle, each member (given, drawn rule, killer cage) behind a selector variable, and every check
is a solve under the selectors of the members kept.

The search is deletion with core refinement (Marques-Silva and Lynce 2011, "On improving MUS
extraction algorithms", SAT): start from the solver's unsatisfiable core of all members; for
each member in turn, solve without it: unsatisfiable, the core of that solve replaces the set
(dropping every member outside it at once); satisfiable, the member is needed, and the model is
checked to be a solution of that sub-puzzle (:func:`~sudokit.model.puzzle.is_solution`). The
solver keeps what it learns between checks, which matters on rule puzzles where one solve of a
sub-puzzle by the front door takes seconds.

The grid's own rules are clauses without a selector (:func:`~sudokit.sat.encoding.base_clauses`
of the geometry without rules and cages); a rule's clauses are :func:`~sudokit.sat.rules.
rule_clauses`, a cage's those :func:`~sudokit.sat.encoding.variant_clauses` gives a geometry with
that cage alone, each with its auxiliary variables moved past the others'.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import LimitReached, SolverBug
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle, is_solution
from .why_check import Checker, Member, sub_puzzle

if TYPE_CHECKING:
    from pysat.solvers import Solver

__all__ = ["BACKENDS", "SatConflicts"]

BACKENDS = ("glucose4", "minisat22")
"""PySAT solvers tried in turn: both give cores under assumptions and can be interrupted from
another thread (CaDiCaL holds the interpreter lock while it solves)."""


def _solver() -> Solver | None:
    """A fresh PySAT solver of :data:`BACKENDS`, or None without PySAT."""
    try:
        from pysat.solvers import Solver
    except ImportError:
        return None
    for name in BACKENDS:
        try:
            return Solver(name=name)
        except Exception:  # pysat's NoSuchSolverError: not built into this wheel
            continue
    return None


def _shifted(clauses: Sequence[Sequence[int]], cells: int, offset: int) -> list[list[int]]:
    """The clauses with every auxiliary variable (above ``cells``) moved up by ``offset``."""
    return [[lit if abs(lit) <= cells else (lit + offset if lit > 0 else lit - offset)
             for lit in clause] for clause in clauses]


class SatConflicts:
    """The puzzle in one incremental SAT solver, its members behind selectors.

    Args:
        puzzle: the whole puzzle; members: its members (:func:`~sudokit.run.why_check.members`).
        check: whose deadline bounds every solve.

    Raises:
        ValueError: no PySAT solver here (the caller uses :mod:`sudokit.run.why_none`'s
            search instead).
    """

    def __init__(self, puzzle: Puzzle, members: Sequence[Member], check: Checker) -> None:
        from ..sat.encoding import Encoding, base_clauses, variant_clauses
        from ..sat.rules import rule_clauses

        solver = _solver()
        if solver is None:
            raise ValueError("no PySAT solver with cores")
        self.solver, self.puzzle, self.check = solver, puzzle, check
        background = sub_puzzle(puzzle, ()).geometry
        g = puzzle.geometry
        side, cells = g.side, g.n_cells * g.side
        solver.append_formula(base_clauses(background, Encoding.EXTENDED))
        top = max(cells + 1, self._top(background))
        self.selector: dict[int, Member] = {}
        for member in members:
            top += 1
            chosen = top
            self.selector[chosen] = member
            if member.kind == "given":
                clauses = [[member.index * side + member.digit]]
            elif member.kind == "rule":
                clauses = []
                for position in member.rules:
                    part, n_aux = rule_clauses(g.constraints[position], side, top + 1)
                    clauses += part
                    top += n_aux
            else:
                alone = Geometry.of(g.box_rows, g.box_cols, cages=[g.cages[member.index]])
                cage = variant_clauses(alone)
                clauses = _shifted(cage, cells, top - cells)
                top += max((abs(lit) for c in cage for lit in c), default=cells) - cells
            for clause in clauses:
                solver.add_clause([-chosen, *clause])
        self.members = list(members)

    @staticmethod
    def _top(geometry: Geometry) -> int:
        from ..sat.encoding import n_variables

        return int(n_variables(geometry))

    def solve(self, kept: Sequence[Member]) -> bool:
        """Whether the kept members with the grid's rules have a solution (a model is checked
        to be one).

        Raises:
            LimitReached: the check's deadline passed.
            SolverBug: the model is not a solution of the sub-puzzle.
        """
        index = {id(m): s for s, m in self.selector.items()}
        assumptions = [index[id(m)] for m in kept]
        left = self.check.left()
        timer = None
        if left is not None:
            timer = threading.Timer(left, self.solver.interrupt)
            timer.start()
        try:
            self.check.checks += 1
            answer = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            if timer is not None:
                timer.cancel()
            self.solver.clear_interrupt()
        if answer is None:
            raise LimitReached("the time limit of the explanation was reached")
        if answer:
            self._verify(kept)
        return bool(answer)

    def _verify(self, kept: Sequence[Member]) -> None:
        side = self.puzzle.geometry.side
        grid = [0] * self.puzzle.geometry.n_cells
        for lit in self.solver.get_model():
            if 0 < lit <= len(grid) * side:
                grid[(lit - 1) // side] = (lit - 1) % side + 1
        if not is_solution(grid, sub_puzzle(self.puzzle, kept)):
            raise SolverBug("the SAT model of a sub-puzzle is not one of its solutions")

    def _core(self) -> set[int]:
        return {id(self.selector[s]) for s in self.solver.get_core() or ()}

    def minimal(self, pool: Sequence[Member]) -> list[Member]:
        """A minimal subset of ``pool`` without a solution (``pool`` has none), in ``pool``'s
        order; empty when the grid's rules alone have none.

        Raises:
            LimitReached: the deadline passed.
        """
        if self.solve(pool):
            raise ValueError("the members have a solution")
        current = [m for m in pool if id(m) in self._core()]
        needed: list[Member] = []
        while current:
            member, rest = current[0], current[1:]
            if self.solve(needed + rest):
                needed.append(member)
                current = rest
            else:
                core = self._core()  # holds every needed member: each is in every conflict
                current = [m for m in rest if id(m) in core]
        return [m for m in pool if any(m is n for n in needed)]

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()
