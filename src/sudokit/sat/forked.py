"""CDCL in a forked process, for the portfolio's race (:mod:`sudokit.solvers.portfolio`).

CaDiCaL in PySAT holds the GIL while it searches and has no ``interrupt()``: in-process it can
only be stopped between ``solve_limited`` calls, and cutting its search into many calls costs
it much of its speed (36x36 at 42% givens: 1.5 s in one call, 20-30 s in 50 ms slices). In a
child process it runs in one call, the parent only waits on a pipe, and stopping is a kill.

The child never outlives this process: it asks the kernel for SIGKILL when its parent dies
(Linux ``prctl(PR_SET_PDEATHSIG)``; a watching thread could not help, CaDiCaL holds the GIL).

Both races against it (the portfolio's engine thread, the default path's engine child in
:mod:`sudokit.run.race`) start their second racer by one rule, :func:`head_start`: at once when
a core is free for it, else once the child has searched alone for :data:`HEAD_START` CPU seconds
(:meth:`ForkedCdcl.cpu`). On a busy machine the two would share one core, so a race costs about
twice its winner; most puzzles CDCL settles within the head start.
"""

from __future__ import annotations

import functools
import math
import os
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import LimitReached
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["HEAD_START", "ForkedCdcl", "die_with_parent", "head_start"]

_PIPE_ROOM = 32 * 1024  # bytes of grids sent to the child (a pipe holds 64 KiB)
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

HEAD_START = 0.35
"""CPU seconds CDCL searches alone before its rival starts, when no core is free for the rival
(:func:`head_start`): CDCL ends 55 of the 62 puzzles the default path hands over (published
rule puzzles) within 0.31 s, and the rival's work (the engine's half second of loading, on the
default path) is then not taken from it. CPU, not wall time: on a loaded machine the child's
wall time says little of its work."""
_FREE_CORE = 0.5
"""How far below the number of usable cores the one-minute load average must be for a core to
count as free (the racing process itself counts in it)."""


def head_start() -> float:
    """CPU seconds the forked CDCL searches alone before its rival starts: none when a core is
    free for the rival (two or more usable cores, and a one-minute load average at least
    :data:`_FREE_CORE` below their number), else :data:`HEAD_START`."""
    try:
        cores = len(os.sched_getaffinity(0))
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not Linux, or no load average: take no chance
        return HEAD_START
    return 0.0 if cores >= 2 and load <= cores - _FREE_CORE else HEAD_START


def die_with_parent(parent: int) -> bool:
    """Have the kernel SIGKILL this (forked) process as soon as its parent dies.

    Call it first thing in a forked child. It uses Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``,
    which also covers a parent killed by SIGKILL, then exits at once if the parent (pid
    ``parent``, read before the fork) already died in between. The setting is kept across
    ``execve`` but not inherited by the child's own children.

    Returns:
        True when the kernel watch is set; False off Linux (or without libc), where the caller
        must watch the parent itself.
    """
    prctl = _prctl()
    if prctl is None or prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # the parent died before the watch was set
        os._exit(1)
    return True


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` (None off Linux), looked up before a fork so the child loads nothing."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


class ForkedCdcl:
    """CDCL in a forked process: encode, solve without slices (a CaDiCaL search cut into many
    ``solve_limited`` calls loses much of its speed), send each grid found, block it and the
    grids the race sends, solve again; ``("done", ...)`` once no other grid exists.

    The race only waits on a pipe, so neither side holds the other's GIL, and stopping is a
    kill. Same interface as :class:`~sudokit.sat.search.CdclSearch` for the race.
    """

    def __init__(self, puzzle: Puzzle, backend: str) -> None:
        import multiprocessing

        import pysat.solvers  # noqa: F401  imported here, so the child imports nothing (a fork

        from . import compact  # noqa: F401  from a threaded process must take no lock)

        _prctl()
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_child,
                                       args=(child, puzzle, backend, os.getpid()), daemon=True)
        self.process.start()
        child.close()
        self.unsent_room = _PIPE_ROOM

    @staticmethod
    def works() -> bool:
        import multiprocessing

        return "fork" in multiprocessing.get_all_start_methods()

    def cpu(self) -> float:
        """CPU seconds the child has used so far (user and system; inf if unknown, off Linux:
        then no head start is given)."""
        try:
            with open(f"/proc/{self.process.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            return math.inf
        return (int(fields[11]) + int(fields[12])) / _TICKS

    def block(self, grid: Grid) -> None:
        """Send a grid found elsewhere, to be blocked before the child's next solve.

        Only an optimisation (the child would otherwise find the grid again; the race drops
        repeats), so it stops before the pipe could fill: the child reads only between two
        solves, and a full pipe would block this process until then."""
        size = 3 * len(grid) + 64  # about its pickled size
        if self.unsent_room < size:
            return
        self.unsent_room -= size
        try:
            self.conn.send(grid)
        except OSError:  # the child has ended: nothing left to block
            pass

    def next(self, stats: Stats, limits: Limits) -> Grid | None:
        """Wait for the child's next grid (None: no other grid exists).

        Raises:
            LimitReached: the deadline passed (or, from the race's limits, the engine has news).
        """
        while True:
            limits.check(stats)
            if self.conn.poll(0.002):
                try:
                    kind, grid, counters = self.conn.recv()
                except EOFError as exc:  # pragma: no cover - the child died
                    raise LimitReached("the CDCL process ended without an answer") from exc
                stats.decisions, stats.conflicts, stats.propagations = counters
                stats.nodes = max(1, counters[0])
                return grid if kind == "grid" else None

    def close(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def _child(conn: Connection, puzzle: Puzzle, backend: str, parent: int) -> None:
    """The body of :class:`ForkedCdcl`'s child (killed by the kernel if ``parent`` dies)."""
    die_with_parent(parent)
    from pysat.solvers import Solver as PySatSolver

    from .compact import compact_cnf

    cnf = compact_cnf(puzzle)
    counters = (0, 0, 0)
    if [] in cnf.clauses:
        conn.send(("done", None, counters))
        return
    with PySatSolver(name=backend, bootstrap_with=cnf.clauses) as solver:
        cnf.clauses.clear()
        while True:
            while conn.poll():
                solver.add_clause(cnf.blocking_clause(conn.recv()))
            found = solver.solve()
            stats = solver.accum_stats()
            counters = (stats.get("decisions", 0), stats.get("conflicts", 0),
                        stats.get("propagations", 0))
            if not found:
                conn.send(("done", None, counters))
                return
            grid = cnf.decode(solver.get_model())
            conn.send(("grid", grid, counters))
            clause = cnf.blocking_clause(grid)
            if not clause:
                conn.send(("done", None, counters))
                return
            solver.add_clause(clause)
