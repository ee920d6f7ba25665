"""Drive any PySAT solver under :class:`~sudokit.model.result.Limits`: the backends that build
here, and one call of the search cut into resumable slices.

With a time limit the search runs in slices (conflict budgets: 50 ms, then half the time spent
so far, at most half the time left) while a ``threading.Timer`` calls ``interrupt()`` at the
deadline (see :func:`limited_solve`). Nodes are the solver's decisions (``accum_stats``, at
least one per call); a node limit N becomes a decision budget (``dec_budget``) on CaDiCaL and a
conflict budget (``conf_budget``) on the others, where the decisions made within one call may
exceed it: then the search stops as UNKNOWN with ``nodes`` at N (exact limits for every method)
and the real count in ``decisions``.

Used by Sudoku's SAT method (:mod:`sudokit.sat.search`), by the CNF front door
(:mod:`sudokit.sat.cnf`) and by the magic squares' SAT method (:mod:`sudokit.magic.sat`).

Reference: A. Ignatiev, A. Morgado and J. Marques-Silva, "PySAT: A Python toolkit for
prototyping with SAT oracles", SAT 2018.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from typing import TYPE_CHECKING

from ..errors import LimitReached
from ..model.result import Limits, Stats

if TYPE_CHECKING:
    from pysat.solvers import Solver

__all__ = ["MEASURED_COUNTERS", "PYSAT_COUNTERS", "PYSAT_NAMES", "limited_solve", "pysat_backends"]

PYSAT_NAMES = ("cadical195", "cadical153", "cadical103", "cadical300", "glucose4", "glucose42",
               "glucose3", "gluecard4", "gluecard3", "minisat22", "minisatep", "minicard",
               "maplechrono", "maplecm", "maplesat", "mergesat3")
"""PySAT solvers tried here (those that build and solve under limits: :func:`pysat_backends`)."""
_FIRST_SLICE = 1000  # conflicts in the first slice of a time-limited call
_SLICE_SECONDS = 0.05  # the shortest slice
_SLICE_SHARE = 0.5  # later slices: this share of the time spent so far (and of the time left)

MEASURED_COUNTERS = ("decisions", "conflicts", "propagations")
"""The :class:`~sudokit.model.result.Stats` fields read from a PySAT solver's ``accum_stats``."""

PYSAT_COUNTERS = frozenset({"nodes", *MEASURED_COUNTERS})
"""The counters :func:`limited_solve` fills: nodes (decisions, at least one per call) and
:data:`MEASURED_COUNTERS`."""


def pysat_backends(*, first: bool = False) -> tuple[str, ...]:
    """Return the PySAT solvers that build here and support resumable limited solving, in
    :data:`PYSAT_NAMES` order (``first``: only the first of them, probing no further: probing
    all took 1.6 s).

    Left out: Lingeling (no ``solve_limited`` in PySAT) and Kissat 4.0.4 (not incremental in
    PySAT: it aborts the process when solved twice, so neither time slices nor blocking clauses
    work; use ``sat:exec`` with a kissat binary instead). Both would break the time limit.
    """
    if importlib.util.find_spec("pysat") is None:
        return ()
    from pysat.solvers import Solver as PySatSolver

    working = []
    for name in PYSAT_NAMES:
        try:
            with PySatSolver(name=name, bootstrap_with=[[1, 2], [-1]]) as probe:
                if probe.solve_limited(expect_interrupt=True):
                    working.append(name)
                    if first:
                        break
        except (NotImplementedError, ValueError, ImportError, RuntimeError, AttributeError):
            continue
        except Exception as exc:  # pysat's NoSuchSolverError: not built into this wheel
            if type(exc).__name__ != "NoSuchSolverError":
                raise
    return tuple(working)


def limited_solve(solver: Solver, stats: Stats, limits: Limits) -> bool:
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


def _set_budgets(solver: Solver, limits: Limits, stats: Stats, slice_conflicts: int) -> bool:
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


def _interruptible_call(solver: Solver, limits: Limits) -> bool | None:
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


def _interrupt(solver: Solver) -> None:
    try:
        solver.interrupt()
    except NotImplementedError:  # CaDiCaL: the conflict-budget slices stop it instead
        pass


def _count(stats: Stats, before: dict[str, int], after: dict[str, int], limits: Limits) -> None:
    """Add one call's counters; nodes are its decisions (at least 1), capped at the node limit.

    Raises:
        LimitReached: the call made more decisions than the node limit left it.
    """
    delta = {name: after.get(name, 0) - before.get(name, 0) for name in MEASURED_COUNTERS}
    for name in MEASURED_COUNTERS:
        setattr(stats, name, (getattr(stats, name) or 0) + delta[name])
    stats.nodes = (stats.nodes or 0) + max(1, delta["decisions"])
    if limits.node_limit is not None and stats.nodes > limits.node_limit:
        stats.nodes = limits.node_limit
        raise LimitReached(f"node limit {limits.node_limit} reached (the backend's budget is "
                           f"not exact: {stats.decisions} decisions made)")
