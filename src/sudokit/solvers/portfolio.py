"""Adapter for ``portfolio``: the compiled engine and CDCL raced on one puzzle.

Schedule (chosen by measurement, see ``benchmarks/large.py``):

1. **probe**: the compiled engine (:mod:`sudokit.fast`) alone, with a budget of ``probe_nodes``
   search nodes. Most puzzles end here (every 9x9 puzzle, and grids of any size that
   propagation nearly decides), so the portfolio costs what the engine costs; on grids up to
   ``fast_only_side`` (9x9) without drawn rules the engine is never stopped, since CDCL never
   beats it there.
2. **race**: the same engine search goes on (it is resumable: nothing is redone) while a CDCL
   solver (CaDiCaL through PySAT) encodes the puzzle and searches. With two cores the engine
   runs in a thread (its kernels release the GIL) and CDCL in a forked process, in one unsliced
   search (:class:`~sudokit.sat.forked.ForkedCdcl`); the thread starts at once only when a
   core is free for it, else after a head start of CDCL alone (the default path's rule,
   :func:`~sudokit.sat.forked.head_start`: on a busy machine both would share one core, and
   the race would cost twice its winner); with one core, or with a node limit, CDCL
   runs in this process (:class:`~sudokit.sat.search.CdclSearch`, in slices) and, on one core,
   the two alternate with equal time. The first answer wins and the other is stopped.

This is the algorithm portfolio of Gomes and Selman 2001 ("Algorithm portfolios", Artificial
Intelligence 126) on two complementary methods: propagation with MRV search, fast when the
search tree is small, and conflict-driven clause learning, which wins on the heavy-tailed
instances of quasigroup completion near the phase transition (Gomes and Selman 1997; Achlioptas
et al. 2000).

Variants: the portfolio declares every feature of the engine (its one member that always
runs); CDCL joins the race only on geometries whose features it declares itself
(:meth:`SatSolver.supports <sudokit.solvers.base.Solver.supports>`), so neither member ever
sees a constraint it does not enforce; elsewhere the engine runs alone, unstopped. The engine
takes every kind of drawn rule (thermometers, arrows, dots, lines, outside clues:
:data:`~sudokit.model.rules.RULE_KINDS`, propagated by :mod:`sudokit.fast.lines`); should a
grid ever carry a feature the engine does not declare, the portfolio hands the puzzle whole to
a method that declares it: CDCL when it does, else ``propagate`` (``extra["winner"]`` names
it), so the default method solves every puzzle some method can.

Counting (``--unique``) races the same way: every grid either method finds is reported once and
blocked in the CDCL formula (a blocking clause), so CDCL only looks for new ones; the search is
over when either method proves that no other grid exists. Statistics: ``nodes`` is engine nodes
plus CDCL decisions; ``backtracks`` and ``propagations`` are the engine's, ``decisions`` and
``conflicts`` CDCL's; ``extra["winner"]`` names the method that found the last grid or proof.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import LimitReached
from ..model.geometry import ALL_FEATURES, Geometry
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats, Status
from ..model.rules import RULE_KINDS
from ..registry import register
from ..sat.forked import ForkedCdcl, head_start
from ..sat.pysat import PYSAT_NAMES
from .base import Solver
from .fast import FastSolver, _fill
from .propagate import PropagateSolver

if TYPE_CHECKING:
    from ..model.result import ChunkResult

__all__ = ["PortfolioSolver"]

_SLICE = 0.05  # seconds of engine search between two looks at the race
_FAR = 1e9  # a deadline that never comes (CDCL runs in slices only when it has a deadline)


class _News(LimitReached):
    """Raised inside the CDCL search when the engine has something to report."""


@dataclass(frozen=True)
class _Race(Limits):
    """The CDCL side's limits: the caller's, plus a stop when the engine has news."""

    news: threading.Event | None = None
    pace: Callable[[], None] | None = None  # called at each look: _Pacer or _Joiner

    def check(self, stats: Stats) -> None:
        if self.pace is not None:
            self.pace()
        if self.news is not None and self.news.is_set():
            raise _News("the engine has news")
        super().check(stats)


class _Engine:
    """The compiled engine's resumable search, run in slices (in a thread or inline).

    Found grids and the end of the search are reported through ``grids``, ``exhausted`` and
    the ``news`` event; ``stop`` ends the thread at its next slice.
    """

    def __init__(self, puzzle: Puzzle, locked: bool, node_limit: int | None,
                 deadline: float | None) -> None:
        from ..fast import ResumableSearch

        self.search = ResumableSearch(puzzle.geometry, puzzle.givens, locked)
        self.node_limit = node_limit  # of the whole engine search
        self.deadline = deadline
        self.grids: list[Grid] = []
        self.exhausted = False
        self.stopped_by_limit: str | None = None
        self.news = threading.Event()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    @property
    def done(self) -> bool:
        return self.exhausted or self.stopped_by_limit is not None

    def step(self, seconds: float) -> None:
        """Search for up to ``seconds`` (less at the deadline); record what it finds."""
        from ..fast import StopReason

        if self.done:
            return
        if self.deadline is not None:
            seconds = min(seconds, max(0.0, self.deadline - time.perf_counter()))
        outcome = self.search.advance(self.node_limit, seconds)
        with self.lock:
            if outcome is StopReason.FOUND:
                self.grids.append(tuple(self.search.solution.tolist()))
            elif outcome is StopReason.EXHAUSTED:
                self.exhausted = True
            elif outcome is StopReason.NODE_LIMIT:
                self.stopped_by_limit = f"node limit {self.node_limit} reached"
            elif self.deadline is not None and time.perf_counter() >= self.deadline:
                self.stopped_by_limit = "time limit reached"
            if outcome is StopReason.FOUND or outcome is StopReason.EXHAUSTED:
                self.news.set()

    def take(self) -> list[Grid]:
        """Return the grids found since the last call (and clear the news)."""
        with self.lock:
            grids, self.grids = self.grids, []
            if not self.exhausted:  # an exhausted search stays news
                self.news.clear()
            return grids

    def start_thread(self) -> None:
        self.thread = threading.Thread(target=self._loop, name="portfolio-engine", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.stop.is_set() and not self.done:
            if self.grids:  # wait until the race took the last grid (counting goes on after)
                self.stop.wait(0.001)
                continue
            self.step(_FAR)  # one compiled call to the end: no GIL needed meanwhile

    def close(self) -> None:
        """Stop the thread (within 1,024 engine nodes) and wait for it."""
        self.stop.set()
        self.search.stop()
        if self.thread is not None:
            self.thread.join()
            self.thread = None

    def counters(self) -> list[int]:
        return self.search.counters()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


_CDCL_COUNTERS = frozenset({"nodes", "decisions", "conflicts", "propagations"})


@register
class PortfolioSolver(Solver):
    """The compiled engine first, then the engine and CDCL raced (see the module docstring).

    Options: ``probe_nodes`` (engine nodes before CDCL starts), ``fast_only_side`` (largest
    grid side left to the engine alone), ``workers`` (2: engine thread beside CDCL; 1: the two
    alternate; default: 2 when this process may use two cores), ``cdcl`` (the PySAT backend),
    ``locked_candidates`` (of the engine).
    """

    name = "portfolio"
    summary = ("compiled engine, then the engine raced against CDCL (CaDiCaL): never far "
               "behind the better of the two, on any grid size")
    requires = ("numba",)
    counters = frozenset({"nodes", "backtracks", "propagations", "decisions", "conflicts"})
    features = ALL_FEATURES | RULE_KINDS
    options = {"probe_nodes": (2000, None), "fast_only_side": (9, None),
               "workers": (None, (None, 1, 2)), "cdcl": ("cadical195", PYSAT_NAMES),
               "locked_candidates": (True, (True, False))}
    chunk_size = 4096
    releases_gil = True

    def _fast(self) -> FastSolver:
        return FastSolver(locked_candidates=self.settings["locked_candidates"])

    def _cdcl_available(self, geometry: Geometry | None = None) -> bool:
        """Whether CDCL may race: its backend is known and it declares every feature of
        ``geometry`` (when given)."""
        from .sat import SatSolver

        return self.settings["cdcl"] in SatSolver.backends and (
            geometry is None or SatSolver.supports(geometry))

    def _engine_alone(self, geometry: Geometry) -> bool:
        """Whether the engine runs unstopped: grids up to ``fast_only_side`` without drawn
        rules (with them a few puzzles need more than the engine's filtering: CDCL races
        after the probe when it declares their kinds), or CDCL cannot take the grid."""
        small = geometry.side <= self.settings["fast_only_side"] and not geometry.constraints
        return small or not self._cdcl_available(geometry)

    def _stand_in(self, geometry: Geometry) -> Solver | None:
        """The method that takes a grid the engine does not (None when the engine does):
        CDCL if it declares the grid's features, else ``propagate``."""
        if FastSolver.supports(geometry):
            return None
        from .sat import SatSolver

        if self._cdcl_available(geometry):
            return SatSolver(self.settings["cdcl"])
        assert PropagateSolver.supports(geometry)  # declares every feature the portfolio does
        return PropagateSolver()

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        stand_in = self._stand_in(puzzle.geometry)
        if stand_in is not None:
            stats.extra["winner"] = stand_in.full_name
            yield from stand_in.solutions(puzzle, stats, limits)
            return
        stats.extra["winner"] = "fast"
        if self._engine_alone(puzzle.geometry):
            yield from self._fast().solutions(puzzle, stats, limits)
            return
        yield from self._run(puzzle, stats, limits, probe=True)

    def _run(self, puzzle: Puzzle, stats: Stats, limits: Limits, probe: bool) -> Iterator[Grid]:
        """Probe with the engine (if ``probe``), then race it against CDCL."""
        node_limit = limits.node_limit
        probe_nodes = self.settings["probe_nodes"] if probe else 0
        if node_limit is not None:
            probe_nodes = min(probe_nodes, node_limit)
        engine = _Engine(puzzle, self.settings["locked_candidates"], probe_nodes, limits.deadline)
        found: set[Grid] = set()  # the probe's grids: the race must not report them again
        try:
            for grid in self._probe(engine, limits, stats):
                found.add(grid)
                yield grid
            if engine.exhausted:
                return
            used = engine.counters()[0]
            left = None if node_limit is None else node_limit - used
            engine.node_limit = None if left is None else used + (left + 1) // 2
            engine.stopped_by_limit = None
            sat_limit = None if left is None else left // 2
            yield from self._race(puzzle, engine, stats, limits, sat_limit, found)
        finally:
            engine.close()
            _fill(stats, engine.counters())

    def solve_chunk(self, givens: np.ndarray, geometry: Geometry, limits: Limits,
                    count_limit: int) -> ChunkResult | None:
        """Solve a chunk: the engine's one compiled call, the race only for the rows its probe
        budget left UNKNOWN (see :meth:`Solver.solve_chunk`); None (puzzle by puzzle) on a
        grid the engine does not take."""
        if self._stand_in(geometry) is not None:
            return None
        return _chunk_solve(self, givens, geometry, limits, count_limit)

    def warm_up(self, geometry: Geometry | None = None) -> None:
        """Load the engine's kernels (see :meth:`FastSolver.warm_up`) and import PySAT (or
        warm the method standing in for the engine on this grid)."""
        stand_in = None if geometry is None else self._stand_in(geometry)
        if stand_in is not None:
            stand_in.warm_up(geometry)
            return
        self._fast().warm_up(geometry)
        if geometry is None or not self._engine_alone(geometry):
            self._cdcl_available()

    @staticmethod
    def _probe(engine: _Engine, limits: Limits, stats: Stats) -> Iterator[Grid]:
        """Run the engine alone up to its node limit, yielding what it finds.

        Raises:
            LimitReached: the deadline passed.
        """
        while not engine.done:
            engine.step(_FAR)
            yield from engine.take()
        limits.check(stats)

    def _workers(self) -> int:
        return self.settings["workers"] or min(2, _cores())

    def _race(self, puzzle: Puzzle, engine: _Engine, stats: Stats, limits: Limits,
              sat_limit: int | None, seen: set[Grid]) -> Iterator[Grid]:
        """Race the engine (resumed) against CDCL; yield each grid not in ``seen`` (the grids
        reported already, blocked in CDCL's formula) once.

        With two workers and no node limit, CDCL runs in a forked process (one unsliced
        search, stopped by a kill); otherwise in this process, in slices."""
        from ..sat.encoding import Encoding
        from ..sat.search import CdclSearch

        sat_stats = Stats.counting(_CDCL_COUNTERS)
        cdcl: ForkedCdcl | CdclSearch | None
        threaded, race, cdcl = self._start(puzzle, engine, limits, sat_limit)
        for grid in seen:
            if cdcl is not None:
                cdcl.block(grid)
        cdcl_stopped = sat_limit == 0  # by its node budget
        try:
            while True:
                for grid in engine.take():
                    if grid not in seen:
                        seen.add(grid)
                        stats.extra["winner"] = "fast"
                        if cdcl is not None:
                            cdcl.block(grid)
                        yield grid
                if engine.exhausted:
                    stats.extra["winner"] = "fast"
                    return
                if cdcl_stopped:
                    self._wait(engine, limits, threaded)
                    continue
                try:
                    if cdcl is None:
                        cdcl = CdclSearch(puzzle, self.settings["cdcl"], Encoding.REDUCED,
                                          sat_stats, race)
                        for grid in seen:
                            cdcl.block(grid)
                    answer = cdcl.next(sat_stats, race)
                except _News:
                    continue
                except LimitReached:
                    limits.check(stats)  # the deadline: over for both
                    cdcl_stopped = True  # its node budget: the engine goes on alone
                    continue
                if answer is None:
                    stats.extra["winner"] = f"sat:{self.settings['cdcl']}"
                    return
                if answer in seen:  # the engine found it first (the forked side may lag)
                    continue
                stats.extra["winner"] = f"sat:{self.settings['cdcl']}"
                seen.add(answer)
                cdcl.block(answer)
                yield answer
        finally:
            engine.close()
            if cdcl is not None:
                cdcl.close()
            _merge(stats, sat_stats)

    def _start(self, puzzle: Puzzle, engine: _Engine, limits: Limits,
               sat_limit: int | None) -> tuple[bool, _Race, ForkedCdcl | None]:
        """Set the race up: whether the engine runs in a thread (started here when a core is
        free, else by a :class:`_Joiner` after CDCL's head start), CDCL's limits, and CDCL
        forked into its own process (before any thread starts) when it runs there, else None
        (it starts in this process at its first turn)."""
        threaded = self._workers() >= 2
        cdcl: ForkedCdcl | None = None
        if threaded and sat_limit is None and ForkedCdcl.works():
            cdcl = ForkedCdcl(puzzle, self.settings["cdcl"])  # before any thread starts
        pace: _Pacer | _Joiner | None = None if threaded else _Pacer(engine)
        alone = head_start() if cdcl is not None else 0.0
        if alone and cdcl is not None:  # no core free: the engine joins after CDCL's head start
            pace = _Joiner(engine, cdcl, alone)
        elif threaded:
            engine.start_thread()
        race = _Race(limits.time_limit, sat_limit,
                     limits.deadline if limits.deadline is not None else time.perf_counter() + _FAR,
                     engine.news, pace)
        return threaded, race, cdcl

    @staticmethod
    def _wait(engine: _Engine, limits: Limits, threaded: bool) -> None:
        """Let the engine alone search a while (CDCL is out of budget).

        Raises:
            LimitReached: the engine too is out of nodes or time.
        """
        if engine.stopped_by_limit:
            raise LimitReached(engine.stopped_by_limit)
        if threaded and engine.thread is None:  # the CDCL child died within its head start
            engine.start_thread()
        if threaded:
            engine.news.wait(_SLICE)
        else:
            engine.step(_SLICE)
        if engine.stopped_by_limit and not engine.grids:
            raise LimitReached(engine.stopped_by_limit)


class _Pacer:
    """One-core mode: at each look CDCL takes at the race, let the engine catch up with the
    time CDCL has had (each gets half; the engine runs at least one slice of 1,024 nodes, so
    time is balanced by credit, not per look)."""

    def __init__(self, engine: _Engine) -> None:
        self.engine = engine
        self.last = time.perf_counter()
        self.credit = 0.0  # CDCL's time minus the engine's, in seconds

    def __call__(self) -> None:
        now = time.perf_counter()
        self.credit += now - self.last
        if self.credit > 0.005 and not self.engine.done:
            self.engine.step(min(self.credit, 4 * _SLICE))
            self.credit -= time.perf_counter() - now
        self.last = time.perf_counter()


class _Joiner:
    """Two cores but none free (:func:`~sudokit.sat.forked.head_start`): at each look the race
    takes, start the engine's thread once the forked CDCL has searched alone for ``alone`` CPU
    seconds (a busy machine would give the two racers one core: most puzzles CDCL settles
    within its head start, and the engine then takes no CPU from it)."""

    def __init__(self, engine: _Engine, cdcl: ForkedCdcl, alone: float) -> None:
        self.engine, self.cdcl, self.alone = engine, cdcl, alone

    def __call__(self) -> None:
        if self.engine.thread is None and not self.engine.done and self.cdcl.cpu() >= self.alone:
            self.engine.start_thread()


def _merge(stats: Stats, sat_stats: Stats) -> None:
    """Add CDCL's counters: its decisions are nodes too; its propagations go to ``extra``."""
    stats.nodes = (stats.nodes or 0) + (sat_stats.nodes or 0)
    stats.decisions = (stats.decisions or 0) + (sat_stats.decisions or 0)
    stats.conflicts = (stats.conflicts or 0) + (sat_stats.conflicts or 0)
    stats.extra["cdcl_propagations"] = sat_stats.propagations or 0


def _chunk_solve(solver: PortfolioSolver, givens: np.ndarray, geometry: Geometry,
                 limits: Limits, count_limit: int) -> ChunkResult:
    """The portfolio's chunk path: one compiled engine call for the whole chunk with the probe
    budget, then the race for each row the probe left UNKNOWN. A chunk of one puzzle that may
    race goes to the race's resumable engine at once, which probes it itself: the race would
    search the batch call's probe again, and load the batch kernels beside its own (on
    "Solver needs SET": 0.17 CPU s of probe searched twice, 0.05 s of loading)."""
    from ..model.result import ChunkResult, empty_result

    fast = solver._fast()
    if solver._engine_alone(geometry):
        chunk = fast.solve_chunk(givens, geometry, limits, count_limit)
        return ChunkResult(chunk.grids, chunk.found, chunk.status, chunk.counters,
                           chunk.counter_names, chunk.seconds, solver.full_name, chunk.messages)
    if len(givens) == 1:
        out = empty_result(1, geometry.n_cells, count_limit, _NAMES, solver.full_name)
        _race_row(solver, out, 0, Puzzle(geometry, tuple(givens[0].tolist())), limits,
                  count_limit, probe=True)
        return out
    probe = solver.settings["probe_nodes"]
    if limits.node_limit is not None:
        probe = min(probe, limits.node_limit)
    chunk = fast.solve_chunk(givens, geometry, Limits(limits.time_limit, probe), count_limit)
    counters = np.zeros((len(givens), len(_NAMES)), np.int64)
    counters[:, :3] = chunk.counters[:, :3]
    out = ChunkResult(chunk.grids, chunk.found, chunk.status, counters, _NAMES, chunk.seconds,
                      solver.full_name, dict(chunk.messages))
    probed = (chunk.status == Status.UNKNOWN) & (chunk.counters[:, 0] >= probe)
    if limits.node_limit is not None and probe >= limits.node_limit:
        probed[:] = False  # the caller's node limit, not the probe, stopped these rows
    for row in np.flatnonzero(probed).tolist():
        left = None if limits.time_limit is None else max(0.0, limits.time_limit
                                                          - float(chunk.seconds[row]))
        _race_row(solver, out, row, Puzzle(geometry, tuple(givens[row].tolist())),
                  Limits(left, limits.node_limit), count_limit, probe=False)
    return out


_NAMES = ("nodes", "backtracks", "propagations", "decisions", "conflicts")
"""The counters of the portfolio's chunk rows."""


def _race_row(solver: PortfolioSolver, out: ChunkResult, row: int, puzzle: Puzzle,
              limits: Limits, count_limit: int, probe: bool) -> None:
    """Put in ``out``'s ``row`` what the engine (probing first if ``probe``) and CDCL raced
    find on ``puzzle`` within ``limits`` (its nodes and seconds added to the row's)."""
    from ..model.result import gather

    start = time.perf_counter()
    stats = Stats.counting(solver.counters)
    found, status, message = gather(solver._run(puzzle, stats, limits.start(), probe=probe),
                                    lambda grid: grid, count_limit)  # into the uint8 rows
    out.status[row], out.found[row] = status, len(found)
    out.grids[row, :] = 0
    for j, grid in enumerate(found):
        out.grids[row, j] = grid
    before = int(out.counters[row, 0])
    out.counters[row] = [getattr(stats, n) or 0 for n in _NAMES]
    out.counters[row, 0] += before
    out.seconds[row] += time.perf_counter() - start
    out.messages.pop(row, None)
    if message:
        out.messages[row] = message
