"""The default path's hand-over race: CDCL in a forked process against the compiled engine.

A puzzle ``propagate`` has not finished within its quick budget (:mod:`sudokit.run.choice`)
goes to CDCL, which needs nothing compiled. Once the compiled engine's one-puzzle search is in
the kernel cache (its readiness marker, :func:`sudokit.compiled.ready`), CDCL alone is a single
bet again: published rule puzzles split between the two (measured whole commands, warm, with
``benchmarks/default_path.py``: "Triple digits" 0.06 s of engine search, over 30 s in CDCL;
"Solver needs SET" 0.8 s of CDCL, 6 s of engine search). So the hand-over races them, as the
portfolio does for large grids (Gomes and Selman 2001, "Algorithm portfolios"): CDCL
(:class:`~sudokit.sat.forked.ForkedCdcl`, CaDiCaL through PySAT, one unsliced search) starts in
a forked child first and searches alone for :data:`HEAD_START` CPU seconds (most puzzles end
there, and the engine's second of Numba loading is never paid); then the engine's resumable
search (:class:`~sudokit.fast.ResumableSearch`) starts in a second forked child, where its
kernels load (or compile, if this grid's rule kinds need a specialisation the cache lacks:
the readiness marker covers grids without rules; never in this process, whose time limit holds).
This process only waits on both pipes. The first side that settles the count wins (the count
limit reached, or no other grid exists); both children are killed. Grids the engine finds are
blocked in CDCL's formula (:meth:`ForkedCdcl.block`); every grid is verified.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.geometry import Geometry
from ..errors import SolverBug
from ..model.puzzle import Grid, Puzzle, violations
from ..model.result import Limits, Stats, Status

if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection

    from ..sat.forked import ForkedCdcl

__all__ = ["HEAD_START", "SLICE", "Raced", "can_race", "race"]

HEAD_START = 1.0
"""CPU seconds CDCL searches alone before the engine's kernels are loaded (about a second of
Numba loading, which most handed-over puzzles need not pay: CDCL ends them in 0.1-0.9 s). CPU,
not wall time: on a loaded machine the child's wall time says little of its work."""
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
SLICE = 0.05
"""Seconds between two looks at the time limit while both children search."""


@dataclass
class Raced:
    """The outcome of :func:`race` on one puzzle.

    Attributes:
        grids: the verified solutions found (at most the count limit), in the order found.
        status: SOLVED, UNSATISFIABLE (proved: no grid) or UNKNOWN (the time limit).
        message: why it is UNKNOWN (``"time limit T s reached"``), else None.
        winner: the full name of the side that settled it (``"fast"``, ``"sat:cadical195"``).
        seconds: wall seconds of the race, kernel loading included.
    """

    grids: list[Grid]
    status: Status
    message: str | None
    winner: str
    seconds: float


def can_race(method: str, geometry: Geometry, limits: Limits) -> bool:
    """Whether a hand-over to ``method`` on ``geometry`` under ``limits`` is raced: the method
    is ``sat`` on a PySAT backend that forks, the engine takes the grid and its one-puzzle
    search is compiled in the cache, and no node limit is asked (nodes of two methods do not
    add up). Nothing is imported from the engine (no Numba) when the kernels are not ready:
    their background compile starts then (:mod:`sudokit.run.warm`, when it is on), so that
    later hand-overs race."""
    from ..compiled import Kernels, ready

    if method != "sat" or limits.node_limit is not None:
        return False
    if not ready(Kernels.SEARCH):
        from ..registry import default_method
        from .warm import compiling, method_job

        compiling([(Kernels.SEARCH, method_job(default_method()))])  # for the next puzzles
        return False
    from ..registry import get_solver
    from ..sat.forked import ForkedCdcl
    from ..sat.pysat import PYSAT_NAMES

    backend = get_solver("sat").backend
    return (backend in PYSAT_NAMES and ForkedCdcl.works()
            and get_solver("fast").supports(geometry))


def race(puzzle: Puzzle, count_limit: int, limits: Limits) -> Raced:
    """Race CDCL (forked) against the compiled engine (here) on ``puzzle`` (see the module
    docstring) until ``count_limit`` grids, a proof that no other exists, or ``limits``'
    time limit (counted from this call). CDCL alone has the first :data:`HEAD_START` seconds:
    most puzzles end there, before the engine's kernels are loaded.

    Raises:
        SolverBug: a side returned a grid that does not solve the puzzle.
    """
    from ..registry import get_solver
    from ..sat.forked import ForkedCdcl

    start = time.perf_counter()
    deadline = math.inf if limits.time_limit is None else start + limits.time_limit
    sat = get_solver("sat")
    cdcl = _Cdcl(ForkedCdcl(puzzle, str(sat.backend)), sat.full_name, puzzle, count_limit)
    try:
        while cdcl.cpu() < HEAD_START and time.perf_counter() < deadline:
            if cdcl.read(min(time.perf_counter() + 0.02, deadline)):
                return cdcl.outcome(start, cdcl.name)
        return _with_engine(cdcl, puzzle, start, deadline, limits)
    finally:
        cdcl.forked.close()


def _with_engine(cdcl: _Cdcl, puzzle: Puzzle, start: float, deadline: float,
                 limits: Limits) -> Raced:
    """The race once CDCL's head start is over: the engine in a forked child of its own (its
    kernels load there, or compile there if this grid's specialisation is not in the cache:
    never in this process, whose limit stays kept), both children's grids read as they come."""
    from multiprocessing.connection import wait

    engine = _EngineChild(puzzle, cdcl.count_limit)
    try:
        while True:
            if cdcl.read(0.0):
                return cdcl.outcome(start, cdcl.name)
            left = deadline - time.perf_counter()
            if left <= 0:
                return cdcl.outcome(start, "", f"time limit {limits.time_limit} s reached")
            if engine.conn not in wait([cdcl.forked.conn, engine.conn], min(SLICE, left)):
                continue
            try:
                kind, grid = engine.conn.recv()
            except EOFError:  # the engine's child ended without an answer: CDCL goes on
                engine.close()
                cdcl.read(deadline)
                return cdcl.outcome(start, cdcl.name) if cdcl.settled else cdcl.outcome(
                    start, "", f"time limit {limits.time_limit} s reached")
            if kind == "done":
                return cdcl.outcome(start, "fast")
            if grid not in cdcl.grids:
                cdcl.grids.append(_verified(grid, puzzle, "fast"))
                cdcl.forked.block(grid)
                if len(cdcl.grids) >= cdcl.count_limit:
                    return cdcl.outcome(start, "fast")
    finally:
        engine.close()


class _EngineChild:
    """The compiled engine's one-puzzle search (:class:`~sudokit.fast.ResumableSearch`) in a
    forked child that sends ``("grid", grid)`` for each solution and ``("done", None)`` once
    the count limit is reached or no other grid exists; stopped by a kill."""

    def __init__(self, puzzle: Puzzle, count_limit: int) -> None:
        import multiprocessing

        from ..sat.forked import die_with_parent

        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe(duplex=False)
        self.process = context.Process(target=_engine_child, daemon=True, args=(
            child, puzzle, count_limit, os.getpid(), die_with_parent))
        self.process.start()
        child.close()

    def close(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def _engine_child(conn: Connection, puzzle: Puzzle, count_limit: int, parent: int,
                  die_with_parent: Callable[[int], bool]) -> None:
    """The body of :class:`_EngineChild` (killed by the kernel if ``parent`` dies)."""
    die_with_parent(parent)
    from ..fast import ResumableSearch, StopReason

    search = ResumableSearch(puzzle.geometry, puzzle.givens)
    for _found in range(count_limit):
        if search.advance() is not StopReason.FOUND:
            break
        conn.send(("grid", tuple(search.solution.tolist())))
    conn.send(("done", None))


class _Cdcl:
    """The forked CDCL side and the grids found so far (by either side)."""

    def __init__(self, forked: ForkedCdcl, name: str, puzzle: Puzzle, count_limit: int) -> None:
        self.forked, self.name, self.puzzle, self.count_limit = forked, name, puzzle, count_limit
        self.grids: list[Grid] = []
        self.settled = False
        self.stats = Stats.counting(("nodes", "decisions", "conflicts", "propagations"))

    def cpu(self) -> float:
        """CPU seconds the child has used so far (user and system; inf if unknown: no head
        start off Linux)."""
        try:
            with open(f"/proc/{self.forked.process.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            return math.inf
        return (int(fields[11]) + int(fields[12])) / _TICKS

    def read(self, until: float) -> bool:
        """Take the child's news until ``until`` (a ``time.perf_counter()`` value; past: only
        what is there now); whether the count is settled (enough grids, or no other)."""
        while self.forked.conn.poll(max(0.0, until - time.perf_counter())):
            grid = self.forked.next(self.stats, Limits())
            if grid is not None and grid not in self.grids:
                self.grids.append(_verified(grid, self.puzzle, self.name))
            if grid is None or len(self.grids) >= self.count_limit:
                self.settled = True
                return True
        return False

    def outcome(self, start: float, winner: str, message: str | None = None) -> Raced:
        """The race's outcome: settled by ``winner``, or UNKNOWN with ``message``."""
        status = (Status.UNKNOWN if message is not None else
                  Status.SOLVED if self.grids else Status.UNSATISFIABLE)
        return Raced(self.grids, status, message, winner, time.perf_counter() - start)


def _verified(grid: Grid, puzzle: Puzzle, method: str) -> Grid:
    """``grid`` once checked against ``puzzle`` (the reference check of
    :func:`sudokit.model.puzzle.violations`; this module is below :mod:`sudokit.run.doors`).

    Raises:
        SolverBug: the grid breaks a given, a unit or a rule.
    """
    problems = violations(grid, puzzle)
    if problems:
        raise SolverBug(f"method {method!r} returned a wrong grid: {'; '.join(problems[:3])}")
    return grid
