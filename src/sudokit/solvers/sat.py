"""Adapter for ``sat:BACKEND``: real SAT solvers through PySAT, or a solver binary (``sat:exec``).

The puzzle is encoded (option ``encoding``; ``auto`` = ``extended`` up to 16x16, ``reduced`` from
25x25 up), solved, decoded and verified by the front door. More solutions are found by adding a
blocking clause (the negation of the last grid's free cells) and solving again.

Limits: a time limit interrupts the PySAT call (``solve_limited(expect_interrupt=True)`` and a
``threading.Timer`` calling ``interrupt()``) or kills the external process. Nodes are the
solver's decisions (``accum_stats``); a node limit becomes a decision budget (``dec_budget``) on
the backends that have one (CaDiCaL, Kissat) and a conflict budget (``conf_budget``, at most one
conflict per decision) on the others, and is checked again after every call. Kissat exposes no
statistics in PySAT and an external binary none at all: there a node is one solver call and the
decision, conflict and propagation counters stay unmeasured (None).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Iterator
from typing import Any

from ..errors import InvalidOption, LimitReached, MethodUnavailable
from ..puzzle import Grid, Puzzle
from ..registry import register
from ..result import Limits, Stats
from ..sat.dimacs import SatOutcome, sudoku_comments
from ..sat.encoding import ENCODING_CHOICES, Clause, choose_encoding, decode, encode, var
from ..sat.external import default_command, run_command
from .base import Solver

__all__ = ["SatSolver", "pysat_backends", "limited_solve"]

EXEC = "exec"
_CANDIDATES = ("cadical195", "cadical153", "cadical103", "cadical300", "glucose4", "glucose42",
               "glucose3", "gluecard4", "gluecard3", "minisat22", "minisatep", "minicard",
               "maplechrono", "maplecm", "maplesat", "mergesat3", "kissat404")
_NON_INCREMENTAL = frozenset({"kissat404"})  # aborts when a clause is added after a solve
_MEASURED = ("decisions", "conflicts", "propagations")


def pysat_backends() -> tuple[str, ...]:
    """Return the PySAT solvers that build here and support interruptible limited solving.

    (Lingeling has no ``solve_limited`` in PySAT, so a time limit could not be honoured.)
    """
    if importlib.util.find_spec("pysat") is None:
        return ()
    from pysat.solvers import Solver as PySatSolver

    working = []
    for name in _CANDIDATES:
        try:
            with PySatSolver(name=name, bootstrap_with=[[1, 2], [-1]]) as probe:
                if probe.solve_limited(expect_interrupt=True):
                    working.append(name)
        except (NotImplementedError, ValueError, ImportError, RuntimeError, AttributeError):
            continue
        except Exception as exc:  # pysat's NoSuchSolverError: not built into this wheel
            if type(exc).__name__ != "NoSuchSolverError":
                raise
    return tuple(working)


def _blocking_clause(grid: Grid, puzzle: Puzzle) -> Clause:
    n = puzzle.geometry.side
    return [-var(cell, d, n) for cell, d in enumerate(grid) if not puzzle.givens[cell]]


@register
class SatSolver(Solver):
    """A Sudoku CNF solved by a PySAT backend (``sat:cadical195`` ...) or a binary (``sat:exec``).

    Options: ``encoding`` (see :mod:`sudokit.sat.encoding`); ``cmd`` (``sat:exec`` only): the
    command template with ``{in}`` and optionally ``{out}``, default the first of kissat,
    cadical, minisat on PATH. ``exec`` is listed as a backend when such a binary is on PATH; with
    ``cmd`` it works anywhere.
    """

    name = "sat"
    summary = ("Sudoku CNF (Lynce and Ouaknine 2006 / Kwon and Jain 2006) solved by a real SAT "
               "solver: PySAT backends or any DIMACS binary (sat:exec)")
    requires = ("pysat",)
    counters = frozenset({"nodes", *_MEASURED})
    options = {"encoding": ("auto", ENCODING_CHOICES), "cmd": (None, None)}
    backends = pysat_backends() + ((EXEC,) if default_command() else ())
    default_backend = "cadical195"

    def __init__(self, backend: str | None = None, **options: Any) -> None:
        super().__init__(None if backend == EXEC else backend, **options)
        if backend == EXEC:
            self.backend = EXEC
        if self.settings["cmd"] is not None and self.backend != EXEC:
            raise InvalidOption("option cmd applies to sat:exec only")

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        clauses = encode(puzzle, choose_encoding(self.settings["encoding"], puzzle.geometry))
        if any(not clause for clause in clauses):
            return  # the reduced encoding found a cell or unit-digit with no place
        if self.backend == EXEC:
            yield from self._exec_solutions(puzzle, clauses, stats, limits)
        else:
            yield from self._pysat_solutions(puzzle, clauses, stats, limits)

    def _pysat_solutions(self, puzzle: Puzzle, clauses: list[Clause], stats: Stats,
                         limits: Limits) -> Iterator[Grid]:
        """Solve, block, solve again; a fresh solver per call for non-incremental Kissat."""
        from pysat.solvers import Solver as PySatSolver

        incremental = self.backend not in _NON_INCREMENTAL
        solver = PySatSolver(name=self.backend, bootstrap_with=clauses)
        try:
            while limited_solve(solver, stats, limits):
                grid = decode(solver.get_model() or (), puzzle)
                yield grid
                blocking = _blocking_clause(grid, puzzle)
                if not blocking:
                    return
                clauses = clauses if incremental else clauses + [blocking]
                if not incremental:
                    solver.delete()
                    solver = PySatSolver(name=self.backend, bootstrap_with=clauses)
                else:
                    solver.add_clause(blocking)
        finally:
            solver.delete()

    def _exec_solutions(self, puzzle: Puzzle, clauses: list[Clause], stats: Stats,
                        limits: Limits) -> Iterator[Grid]:
        command = self.settings["cmd"] or default_command()
        if command is None:
            raise MethodUnavailable("sat:exec found no kissat, cadical or minisat on PATH; "
                                    "install one or pass --option cmd='SOLVER {in} {out}'")
        for name in _MEASURED:
            setattr(stats, name, None)
        comments = sudoku_comments(puzzle, choose_encoding(self.settings["encoding"],
                                                           puzzle.geometry))
        n_vars = puzzle.geometry.side**3
        while True:
            output = run_command(command, clauses, n_vars, comments=comments,
                                 timeout=limits.remaining())
            stats.nodes = (stats.nodes or 0) + 1
            if output.outcome is SatOutcome.UNKNOWN:
                raise LimitReached(f"{command.split()[0]} answered UNKNOWN")
            if output.outcome is SatOutcome.UNSATISFIABLE:
                return
            grid = decode(output.model, puzzle)
            yield grid
            blocking = _blocking_clause(grid, puzzle)
            if not blocking:
                return
            clauses = clauses + [blocking]
            limits.check(stats)


def limited_solve(solver: Any, stats: Stats, limits: Limits) -> bool:
    """One PySAT call under the limits; return whether a model was found.

    Raises:
        LimitReached: interrupted at the deadline, or the decision/conflict budget ran out.
    """
    limits.check(stats)
    if limits.node_limit is not None:
        budget = max(1, limits.node_limit - (stats.nodes or 0) + 1)
        try:
            solver.dec_budget(budget)
        except NotImplementedError:
            solver.conf_budget(budget)
    before = _solver_stats(solver)
    timer = None
    if limits.deadline is not None:
        timer = threading.Timer(limits.remaining() or 0.0, solver.interrupt)
        timer.start()
    try:
        answer = solver.solve_limited(expect_interrupt=True)
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()  # never interrupt (or outlive) the solver once the call is over
    _count(stats, before, _solver_stats(solver))
    if answer is None:  # interrupted or out of budget; the solver is not used again
        limits.check(stats)  # raises for the deadline or the node count
        raise LimitReached(f"node limit {limits.node_limit} reached (solver budget exhausted)")
    return answer


def _solver_stats(solver: Any) -> dict[str, int] | None:
    try:
        return solver.accum_stats()
    except NotImplementedError:  # Kissat in PySAT
        return None


def _count(stats: Stats, before: dict[str, int] | None, after: dict[str, int] | None) -> None:
    if before is None or after is None:
        for name in _MEASURED:
            setattr(stats, name, None)
        stats.nodes = (stats.nodes or 0) + 1
        return
    delta = {name: after.get(name, 0) - before.get(name, 0) for name in _MEASURED}
    for name in _MEASURED:
        setattr(stats, name, (getattr(stats, name) or 0) + delta[name])
    stats.nodes = (stats.nodes or 0) + max(1, delta["decisions"])
