"""CDCL in a forked process, for the portfolio's race (:mod:`sudokit.solvers.portfolio`).

CaDiCaL in PySAT holds the GIL while it searches and has no ``interrupt()``: in-process it can
only be stopped between ``solve_limited`` calls, and cutting its search into many calls costs
it much of its speed (36x36 at 42% givens: 1.5 s in one call, 20-30 s in 50 ms slices). In a
child process it runs in one call, the parent only waits on a pipe, and stopping is a kill.
"""

from __future__ import annotations

from typing import Any

from ..errors import LimitReached
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats

__all__ = ["ForkedCdcl"]

_PIPE_ROOM = 32 * 1024  # bytes of grids sent to the child (a pipe holds 64 KiB)


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

        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_child, args=(child, puzzle, backend),
                                       daemon=True)
        self.process.start()
        child.close()
        self.unsent_room = _PIPE_ROOM

    @staticmethod
    def works() -> bool:
        import multiprocessing

        return "fork" in multiprocessing.get_all_start_methods()

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


def _child(conn: Any, puzzle: Puzzle, backend: str) -> None:
    """The body of :class:`ForkedCdcl`'s child."""
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
