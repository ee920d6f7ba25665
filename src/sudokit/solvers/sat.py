"""Adapter for ``sat:BACKEND``: real SAT solvers through PySAT, or a solver binary (``sat:exec``).

The puzzle is encoded (option ``encoding``, default ``reduced``: Kwon and Jain 2006, built on
arrays by :mod:`sudokit.sat.compact`), solved, decoded and verified by the front door. More
solutions are found by adding a blocking clause (the negation of the last grid's free cells)
and solving again.

Limits: with a time limit the PySAT search runs in resumable slices (conflict budgets: 50 ms,
then half the time spent so far, at most half the time left) while a ``threading.Timer`` calls
``interrupt()`` at the deadline (see :func:`limited_solve`); an external process is killed at
the deadline. Nodes are the solver's decisions (``accum_stats``, at least one per call); a node
limit N becomes a decision budget (``dec_budget``) on CaDiCaL and a conflict budget
(``conf_budget``) on the others, where the decisions made within one call may exceed it: then
the search stops as UNKNOWN with ``nodes`` at N (exact limits for every method) and the real
count in ``decisions``. Encoding and loading the formula count against the time limit. An
external binary reports no statistics: there a node is one solver run, and the decision,
conflict and propagation counters stay unmeasured (None).
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterator
from typing import Any

from ..errors import InvalidOption, LimitReached, MethodUnavailable
from ..model.puzzle import Grid, Puzzle
from ..registry import register
from ..model.result import Limits, Stats, Status
from ..sat.dimacs import sudoku_comments
from ..sat.compact import compact_cnf, renumbered
from ..sat.encoding import (DEFAULT_ENCODING, ENCODING_CHOICES, Clause, Encoding, deadline_check,
                            decode, encode, n_variables, paused_gc, var)
from ..sat.external import default_command, run_command
from .base import Solver

__all__ = ["SatSolver", "CdclSearch", "pysat_backends", "limited_solve"]

EXEC = "exec"
_CANDIDATES = ("cadical195", "cadical153", "cadical103", "cadical300", "glucose4", "glucose42",
               "glucose3", "gluecard4", "gluecard3", "minisat22", "minisatep", "minicard",
               "maplechrono", "maplecm", "maplesat", "mergesat3")
_FIRST_SLICE = 1000  # conflicts in the first slice of a time-limited call
_SLICE_SECONDS = 0.05  # the shortest slice
_SLICE_SHARE = 0.5  # later slices: this share of the time spent so far (and of the time left)
_LOAD_CHUNK = 8192  # clauses loaded between two deadline checks
_MEASURED = ("decisions", "conflicts", "propagations")


def pysat_backends() -> tuple[str, ...]:
    """Return the PySAT solvers that build here and support resumable limited solving.

    Left out: Lingeling (no ``solve_limited`` in PySAT) and Kissat 4.0.4 (not incremental in
    PySAT: it aborts the process when solved twice, so neither time slices nor blocking clauses
    work; use ``sat:exec`` with a kissat binary instead). Both would break the time limit.
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
    install = "python-sat"
    counters = frozenset({"nodes", *_MEASURED})
    options = {"encoding": (DEFAULT_ENCODING.value, ENCODING_CHOICES), "cmd": (None, None)}
    features = frozenset({"diagonal", "main-diagonal", "anti-diagonal", "hyper", "disjoint",
                          "anti-knight", "anti-king", "non-consecutive", "jigsaw", "killer",
                          "extra-region", "even-odd", "multi-grid"})
    backends = pysat_backends() + ((EXEC,) if default_command() else ())
    default_backend = "cadical195"

    def __init__(self, backend: str | None = None, **options: Any) -> None:
        super().__init__(None if backend == EXEC else backend, **options)
        if backend == EXEC:
            self.backend = EXEC
        if self.settings["cmd"] is not None and self.backend != EXEC:
            raise InvalidOption("option cmd applies to sat:exec only")

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        encoding = Encoding(self.settings["encoding"])
        if self.backend != EXEC:
            search = CdclSearch(puzzle, self.backend, encoding, stats, limits)
            with search:
                while (grid := search.next(stats, limits)) is not None:
                    yield grid
                    search.block(grid)
            return
        check = deadline_check(limits, stats)  # the time limit covers encoding and loading
        with paused_gc():  # no collection walks millions of clause lists (see paused_gc)
            clauses = encode(puzzle, encoding, check)
        if [] in clauses:
            return  # the reduced encoding found a cell or unit-digit with no place
        try:
            comments = sudoku_comments(puzzle, encoding)
            yield from self._exec_solutions(puzzle, clauses, comments, stats, limits)
        finally:
            with paused_gc():
                clauses.clear()

    def _exec_solutions(self, puzzle: Puzzle, clauses: list[Clause], comments: list[str],
                        stats: Stats, limits: Limits) -> Iterator[Grid]:
        command = self.settings["cmd"] or default_command()
        if command is None:
            raise MethodUnavailable("sat:exec found no kissat, cadical or minisat on PATH; "
                                    "install one or pass --option cmd='SOLVER {in} {out}'")
        for name in _MEASURED:
            setattr(stats, name, None)
        n_vars = n_variables(puzzle.geometry)
        while True:
            limits.count_node(stats)  # a node is one run of the binary
            output = run_command(command, clauses, n_vars, comments=comments,
                                 deadline=limits.deadline,
                                 check=lambda: limits.check(stats))  # no formula to release
            if output.outcome is Status.UNKNOWN:
                raise LimitReached(f"{command.split()[0]} answered UNKNOWN")
            if output.outcome is Status.UNSATISFIABLE:
                return
            grid = decode(output.model, puzzle)
            yield grid
            blocking = _blocking_clause(grid, puzzle)
            if not blocking:
                return
            clauses = clauses + [blocking]


class CdclSearch:
    """A resumable CDCL search over one puzzle through a PySAT backend.

    The puzzle is encoded (``reduced``: on arrays by :func:`~sudokit.sat.compact.compact_cnf`;
    the others by :func:`~sudokit.sat.encoding.encode`, renumbered) and loaded once, within the
    time limit; :meth:`next` then finds a model, proves there is none left, or stops at a limit
    (:class:`~sudokit.errors.LimitReached`) and can be called again: the solver keeps what it
    learnt. :meth:`block` excludes a grid (a blocking clause), so counting is incremental.
    Use it as a context manager (the solver is deleted at the end).

    Args:
        puzzle: the puzzle (consistent givens).
        backend: a PySAT solver name (:func:`pysat_backends`).
        encoding: the clause families.
        stats, limits: as in :meth:`~sudokit.solvers.base.Solver.solutions`.

    Raises:
        LimitReached: the deadline passed while the formula was built or loaded.
    """

    def __init__(self, puzzle: Puzzle, backend: str, encoding: Encoding, stats: Stats,
                 limits: Limits) -> None:
        from pysat.solvers import Solver as PySatSolver

        check = deadline_check(limits, stats)
        with paused_gc():
            if encoding is Encoding.REDUCED:
                self.cnf = compact_cnf(puzzle, check)
            else:
                self.cnf = renumbered(encode(puzzle, encoding, check), puzzle, check)
        self.exhausted = [] in self.cnf.clauses
        self.solver = PySatSolver(name=backend)
        try:
            with paused_gc():
                for start in range(0, len(self.cnf.clauses), _LOAD_CHUNK):
                    check()
                    self.solver.append_formula(self.cnf.clauses[start:start + _LOAD_CHUNK])
        except BaseException:
            self.close()
            with paused_gc():
                self.cnf.clauses.clear()
            raise
        with paused_gc():
            self.cnf.clauses.clear()  # the solver holds its own copy: free ours now

    def __enter__(self) -> CdclSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Delete the solver (idempotent)."""
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def next(self, stats: Stats, limits: Limits) -> Grid | None:
        """Return the next grid not yet blocked, or None when there is none.

        Raises:
            LimitReached: a limit was hit (call again with new limits to go on).
        """
        if self.exhausted:
            return None
        if not limited_solve(self.solver, stats, limits):
            self.exhausted = True
            return None
        return self.cnf.decode(self.solver.get_model() or ())

    def block(self, grid: Grid) -> None:
        """Exclude ``grid`` from later answers (a grid with no free cell ends the search)."""
        clause = self.cnf.blocking_clause(grid)
        if clause:
            self.solver.add_clause(clause)
        else:
            self.exhausted = True


def limited_solve(solver: Any, stats: Stats, limits: Limits) -> bool:
    """Run a PySAT solver under the limits; return whether a model was found (False: UNSAT).

    With a deadline the search runs in slices (a conflict budget adapted to the measured speed;
    the solver keeps what it learnt between slices): 50 ms at first, then half the time spent
    so far, at most half the time left (see :func:`_slice_seconds`) and a ``threading.Timer``
    also calls ``interrupt()`` at the deadline where the backend has it (CaDiCaL in PySAT has no
    ``interrupt()`` and holds the GIL while it solves, so only the slices can stop it).

    A node limit N is exact: every call gets a decision budget (``dec_budget``) of the nodes
    left where the backend has one, else a conflict budget; a call counts at least one node,
    none starts with no node left, and a backend whose budget let it make more decisions than
    the limit allowed (MiniSat-family solvers, CaDiCaL 1.0.3) is stopped with ``stats.nodes``
    at N (``stats.decisions`` keeps what it really made).

    Raises:
        LimitReached: the deadline passed or the node budget ran out.
    """
    slice_conflicts = _FIRST_SLICE
    began = time.perf_counter()
    while True:
        limits.check(stats)
        node_bound = _set_budgets(solver, limits, stats, slice_conflicts)
        before, start = solver.accum_stats(), time.perf_counter()
        answer = _interruptible_call(solver, limits)
        _count(stats, before, solver.accum_stats(), limits)
        if answer is not None:
            return answer
        limits.check(stats)  # raises at the deadline
        if node_bound or limits.deadline is None:
            raise LimitReached(f"node limit {limits.node_limit} reached (solver budget exhausted)")
        took = time.perf_counter() - start
        slice_conflicts = max(_FIRST_SLICE // 10,
                              int(slice_conflicts * _slice_seconds(began, limits)
                                  / max(took, 1e-3)))


def _slice_seconds(began: float, limits: Limits) -> float:
    """The next slice's length: half the time this call has run so far (so there are only
    logarithmically many slices: each new ``solve_limited`` call costs CaDiCaL much of its
    momentum, measured 1.9 s unsliced against 20-30 s in 50 ms slices on a 36x36 puzzle), but
    at most half the time left before the deadline, and at least 50 ms."""
    now = time.perf_counter()
    left = _SLICE_SECONDS if limits.deadline is None else limits.deadline - now
    return max(_SLICE_SECONDS, min(_SLICE_SHARE * (now - began), _SLICE_SHARE * left))


def _set_budgets(solver: Any, limits: Limits, stats: Stats, slice_conflicts: int) -> bool:
    """Give the solver its budgets for one call; return whether the node budget is binding.

    Raises:
        LimitReached: no node is left for another call.
    """
    conflicts = slice_conflicts if limits.deadline is not None else None
    node_bound = False
    if limits.node_limit is not None:
        nodes_left = limits.node_limit - (stats.nodes or 0)
        if nodes_left <= 0:
            raise LimitReached(f"node limit {limits.node_limit} reached")
        try:
            solver.dec_budget(nodes_left)
        except NotImplementedError:
            node_bound = conflicts is None or nodes_left <= conflicts
            conflicts = nodes_left if node_bound else conflicts
    if conflicts is not None:
        solver.conf_budget(conflicts)
    return node_bound


def _interruptible_call(solver: Any, limits: Limits) -> bool | None:
    timer = None
    if limits.deadline is not None:
        timer = threading.Timer(limits.remaining() or 0.0, _interrupt, (solver,))
        timer.start()
    try:
        return solver.solve_limited(expect_interrupt=True)
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()  # never interrupt (or outlive) the solver once the call is over


def _interrupt(solver: Any) -> None:
    try:
        solver.interrupt()
    except NotImplementedError:  # CaDiCaL: the conflict-budget slices stop it instead
        pass


def _count(stats: Stats, before: dict[str, int], after: dict[str, int], limits: Limits) -> None:
    """Add one call's counters; nodes are its decisions (at least 1), capped at the node limit.

    Raises:
        LimitReached: the call made more decisions than the node limit left it.
    """
    delta = {name: after.get(name, 0) - before.get(name, 0) for name in _MEASURED}
    for name in _MEASURED:
        setattr(stats, name, (getattr(stats, name) or 0) + delta[name])
    stats.nodes = (stats.nodes or 0) + max(1, delta["decisions"])
    if limits.node_limit is not None and stats.nodes > limits.node_limit:
        stats.nodes = limits.node_limit
        raise LimitReached(f"node limit {limits.node_limit} reached (the backend's budget is "
                           f"not exact: {stats.decisions} decisions made)")
