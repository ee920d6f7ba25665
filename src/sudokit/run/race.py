"""The default path's hand-over race: CDCL in a forked process against the compiled engine.

A puzzle ``propagate`` has not finished within its quick budget (:mod:`sudokit.run.choice`)
goes to CDCL, which needs nothing compiled. Once the compiled engine's one-puzzle search for
the grid is in the kernel cache (:func:`sudokit.run.warm.search_ready`: its readiness markers),
CDCL alone is a single bet again: published rule puzzles split between the two (CPU seconds
after the hand-over, warm, measured on the 62 of 121 puzzles of ``tests/data/rules`` that
``propagate`` hands over: CDCL 0.01-0.31 s on 55 of them, 0.8-1 s on three, 2.5-31 s on
ISS's three; the engine 0.5 s of loading Numba and its kernels, then under 0.035 s of
search on 58 of them, 0.15-0.56 s on three, 3 s on "Solver needs SET"). So the hand-over races them, as
the portfolio does for large grids (Gomes and Selman 2001, "Algorithm portfolios"): CDCL
(:class:`~sudokit.sat.forked.ForkedCdcl`, CaDiCaL through PySAT, one unsliced search) starts
in a forked child, and the engine's resumable search (:class:`~sudokit.fast.ResumableSearch`)
in a second forked child, where its kernels load (or compile, should the cache lack them:
never in this process, whose time limit holds). The engine starts at once when a core is free
for it (:func:`~sudokit.sat.forked.head_start`, the portfolio's rule too), so that its loading
overlaps CDCL's search; on a busy machine CDCL first searches alone for
:data:`~sudokit.sat.forked.HEAD_START` CPU seconds, which most puzzles need no more than, and
the engine's loading is not paid. On a free core, a single puzzle with drawn rules gets its
engine's child even before ``propagate`` answers (:func:`early_engine`, killed if
``propagate`` finishes): its loading then overlaps the quick budget and the hand-over too.
This process only waits on both pipes. The first
side that settles the count wins (the count limit reached, or no other grid exists); both
children are killed. Grids the engine finds are blocked in CDCL's formula
(:meth:`ForkedCdcl.block`); every grid is verified.
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
from ..sat.forked import head_start

if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection

    from ..sat.forked import ForkedCdcl

__all__ = ["SLICE", "Raced", "can_race", "early_engine", "race"]

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
    search for it is compiled in the cache (with or without drawn rules:
    :func:`~sudokit.run.warm.search_ready`), and no node limit is asked (nodes of two methods
    do not add up). Nothing is imported from the engine (no Numba) when the kernels are not ready:
    their background compile starts then (:mod:`sudokit.run.warm`, when it is on), so that
    later hand-overs race."""
    from .warm import search_ready

    if method != "sat" or limits.node_limit is not None:
        return False
    if not search_ready(geometry):  # its compile starts, for the next puzzles
        return False
    from ..registry import get_solver
    from ..sat.forked import ForkedCdcl
    from ..sat.pysat import PYSAT_NAMES

    backend = get_solver("sat").backend
    return (backend in PYSAT_NAMES and ForkedCdcl.works()
            and get_solver("fast").supports(geometry))


def early_engine(puzzle: Puzzle, method: str, limits: Limits, count_limit: int
                 ) -> _EngineChild | None:
    """The engine's child for the race, started before the quick method answers (None when
    it is not): on a puzzle with drawn rules whose hand-over to ``method`` under ``limits``
    races (:func:`can_race`, its kernels compiled: :data:`~sudokit.compiled.Kernels.RULES`,
    no compile started from here), when a core is free for it
    (:func:`~sudokit.sat.forked.head_start`). Its half second of loading Numba and the kernels
    then overlaps ``propagate``'s budget and the hand-over; a puzzle ``propagate`` finishes
    only kills it (the caller closes it). Pass it to :func:`race`."""
    from ..compiled import Kernels, ready

    if (not puzzle.geometry.constraints or count_limit < 1 or not ready(Kernels.RULES)
            or head_start() or not can_race(method, puzzle.geometry, limits)):
        return None
    return _EngineChild(puzzle, count_limit)


def race(puzzle: Puzzle, count_limit: int, limits: Limits,
         engine: _EngineChild | None = None) -> Raced:
    """Race CDCL (forked) against the compiled engine (forked too) on ``puzzle`` (see the
    module docstring) until ``count_limit`` grids, a proof that no other exists, or ``limits``'
    time limit (counted from this call). CDCL alone has the first
    :func:`~sudokit.sat.forked.head_start` CPU seconds (none when a core is free), unless
    ``engine``, the engine's child started already (:func:`early_engine`), is given.

    Raises:
        SolverBug: a side returned a grid that does not solve the puzzle.
    """
    from ..registry import get_solver
    from ..sat.forked import ForkedCdcl

    start = time.perf_counter()
    deadline = math.inf if limits.time_limit is None else start + limits.time_limit
    sat = get_solver("sat")
    cdcl = _Cdcl(ForkedCdcl(puzzle, str(sat.backend)), sat.full_name, puzzle, count_limit)
    alone = 0.0 if engine is not None else head_start()
    try:
        while alone and cdcl.forked.cpu() < alone and time.perf_counter() < deadline:
            if cdcl.read(min(time.perf_counter() + 0.02, deadline)):
                return cdcl.outcome(start, cdcl.name)
        return _with_engine(cdcl, engine or _EngineChild(puzzle, count_limit), start,
                            deadline, limits)
    finally:
        cdcl.forked.close()


def _with_engine(cdcl: _Cdcl, engine: _EngineChild, start: float, deadline: float,
                 limits: Limits) -> Raced:
    """The race once CDCL's head start is over: the engine in a forked child of its own (its
    kernels load there, or compile there if this grid's specialisation is not in the cache:
    never in this process, whose limit stays kept), both children's grids read as they come."""
    from multiprocessing.connection import wait

    puzzle = cdcl.puzzle
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
        """Kill the child if it runs, and release its pipe (again: nothing)."""
        if self.conn.closed:
            return
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
