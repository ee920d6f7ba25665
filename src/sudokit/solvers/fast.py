"""Adapter for ``fast``: the compiled bitmask engine (Numba).

Naked singles, hidden singles, killer cage combinations and locked candidates to a fixpoint,
then depth-first search on a cell with the fewest candidates (bivalue first), all in compiled
code on uint64 candidate masks; see :mod:`sudokit.fast.kernels` and :mod:`sudokit.fast.rules`
for the algorithm and its sources. Every variant of :class:`~sudokit.model.geometry.Geometry`
runs on the same kernels (:mod:`sudokit.fast.tables` turns it into arrays): extra units,
chess-move peers, non-consecutive neighbours, even/odd cells, killer cages, jigsaw regions and
overlapping grids (every feature of :data:`~sudokit.model.geometry.ALL_FEATURES`, tested one by one in
``tests/fast/test_fast_variants.py``), and every kind of drawn rule of
:data:`~sudokit.model.rules.RULE_KINDS` (thermometers, arrows, dots, lines, outside clues: the
compiled propagators of :mod:`sudokit.fast.lines`, tested in ``tests/fast/test_fast_rules.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import LimitReached
from ..model.geometry import ALL_FEATURES, Geometry
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats, Status
from ..model.rules import RULE_KINDS
from ..registry import register
from .base import Solver

if TYPE_CHECKING:
    from ..model.result import ChunkResult

__all__ = ["FastSolver"]

_COUNTED = ("nodes", "backtracks", "propagations")
_EXTRA = ("hidden_singles", "locked_eliminations")


def _fill(stats: Stats, values: Sequence[int], since: Sequence[int] | None = None) -> None:
    """Add counter values (in Stat column order) to ``stats``, minus ``since`` if given."""
    names = _COUNTED + _EXTRA
    for i, name in enumerate(names):
        value = int(values[i]) - (int(since[i]) if since is not None else 0)
        if name in _COUNTED:
            setattr(stats, name, (getattr(stats, name) or 0) + value)
        else:
            stats.extra[name] = stats.extra.get(name, 0) + value


_WARM: set[tuple[Geometry | None, bool]] = set()
"""(geometry, locked candidates) pairs whose kernels :meth:`FastSolver.warm_up` has loaded."""


@register
class FastSolver(Solver):
    """Compiled propagation (naked/hidden singles, locked candidates) and MRV search."""

    name = "fast"
    summary = ("compiled bitmask engine (Numba): naked/hidden singles, locked candidates, "
               "MRV search; batch API")
    requires = ("numba",)
    counters = frozenset(_COUNTED)
    features = ALL_FEATURES | RULE_KINDS
    options = {"locked_candidates": (True, (True, False))}
    chunk_size = 4096
    releases_gil = True

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        from ..fast import ResumableSearch, StopReason

        search = ResumableSearch(puzzle.geometry, puzzle.givens,
                                 self.settings["locked_candidates"])
        before = [0] * len(_COUNTED + _EXTRA)
        start_nodes = stats.nodes or 0
        while True:
            budget = None if limits.node_limit is None else limits.node_limit - start_nodes
            outcome = search.advance(budget, limits.remaining())
            now = search.counters()
            _fill(stats, now, before)
            before = now
            if outcome is StopReason.FOUND:
                yield tuple(search.solution.tolist())
            elif outcome is StopReason.EXHAUSTED:
                return
            elif outcome is StopReason.NODE_LIMIT:
                raise LimitReached(f"node limit {limits.node_limit} reached")
            else:
                raise LimitReached(f"time limit {limits.time_limit} s reached")

    def warm_up(self, geometry: Geometry | None = None) -> None:
        """Load the cached kernels a geometry needs, so that timings and time limits exclude
        loading: the batch kernel on an empty grid with a one-node limit (it loads, it does not
        search), and the verification of :mod:`sudokit.fast.verify` the array path runs after
        it (its byte look-ups are loaded by :func:`sudokit.formats.linecodec.load_lookup`); with
        no geometry, also one-puzzle solves of empty 4x4 and 9x9 grids. Once per process and
        geometry (a repeated call costs a set look-up)."""
        from ..fast import solve_batch
        from ..fast.verify import solves

        key = (geometry, self.settings["locked_candidates"])
        if key in _WARM:
            return
        for g in [geometry] if geometry is not None else [Geometry.for_side(4),
                                                          Geometry.for_side(9)]:
            if geometry is None:
                empty = Puzzle(g, (0,) * g.n_cells)
                next(self.solutions(empty, Stats.counting(self.counters), Limits()))
            blank = np.zeros((1, g.n_cells), dtype=np.uint8)
            solve_batch(blank, 1, geometry=g, node_limit=1,
                        locked=self.settings["locked_candidates"])
            solves(blank, blank, g)
        _WARM.add(key)

    def solve_chunk(self, givens: np.ndarray, geometry: Geometry, limits: Limits,
                    count_limit: int) -> ChunkResult:
        """Solve a chunk in one compiled call (see :meth:`Solver.solve_chunk`)."""
        from ..fast import Stat, solve_batch
        from ..model.result import ChunkResult

        grids, codes, table = solve_batch(
            givens, max(1, count_limit), geometry=geometry, node_limit=limits.node_limit,
            time_limit=limits.time_limit, locked=self.settings["locked_candidates"])
        node_limit = limits.node_limit
        messages = {row: f"node limit {node_limit} reached"
                    if node_limit is not None and table[row, Stat.NODES] >= node_limit
                    else f"time limit {limits.time_limit} s reached"
                    for row in np.flatnonzero(codes == Status.UNKNOWN).tolist()}
        return ChunkResult(grids, table[:, Stat.SOLUTIONS].astype(np.int32), codes,
                           table[:, :len(_COUNTED + _EXTRA)], _COUNTED + _EXTRA,
                           table[:, Stat.NANOSECONDS] * 1e-9, self.full_name, messages)
