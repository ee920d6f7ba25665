"""Adapter for ``fast``: the compiled bitmask engine (Numba), the default method.

Naked singles, hidden singles and locked candidates to a fixpoint, then depth-first search on a
cell with the fewest candidates (bivalue first), all in compiled code on uint64 candidate masks;
see :mod:`sudokit.fast.kernels` for the algorithm and its sources.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..errors import LimitReached
from ..puzzle import Grid, Puzzle
from ..registry import register
from ..result import Limits, Stats
from .base import Solver

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


@register
class FastSolver(Solver):
    """Compiled propagation (naked/hidden singles, locked candidates) and MRV search."""

    name = "fast"
    summary = ("compiled bitmask engine (Numba): naked/hidden singles, locked candidates, "
               "MRV search; batch API")
    requires = ("numba",)
    counters = frozenset(_COUNTED)
    options = {"locked_candidates": (True, (True, False))}
    chunk_size = 4096
    releases_gil = True

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        from ..fast import Outcome, Search, Stat

        search = Search(puzzle.geometry, puzzle.givens, self.settings["locked_candidates"])
        before = [0] * len(_COUNTED + _EXTRA)
        start_nodes = stats.nodes or 0
        while True:
            budget = None if limits.node_limit is None else limits.node_limit - start_nodes
            outcome = search.advance(budget, limits.remaining())
            now = [search.counter(Stat(i)) for i in range(len(before))]
            _fill(stats, now, before)
            before = now
            if outcome is Outcome.FOUND:
                yield tuple(search.solution.tolist())
            elif outcome is Outcome.EXHAUSTED:
                return
            elif outcome is Outcome.NODE_LIMIT:
                raise LimitReached(f"node limit {limits.node_limit} reached")
            else:
                raise LimitReached(f"time limit {limits.time_limit} s reached")

    def warm_up(self) -> None:
        """Load the cached kernels (9x9 and generic, one-puzzle and batch) by solving empty grids."""
        from ..fast import solve_many
        from ..geometry import Geometry

        for side in (4, 9):
            geometry = Geometry.for_side(side)
            empty = Puzzle(geometry, (0,) * geometry.n_cells)
            next(self.solutions(empty, Stats.counting(self.counters), Limits()))
            solve_many(np.zeros((1, geometry.n_cells), dtype=np.uint8), 1, geometry=geometry,
                       locked=self.settings["locked_candidates"])

    def solve_chunk(
        self, puzzles: Sequence[Puzzle], limits: Limits, count_limit: int
    ) -> list[tuple[list[Grid], Stats, bool]] | None:
        """Solve a chunk of same-geometry puzzles in one compiled call (else None)."""
        from ..fast import Code, Stat, solve_many

        geometry = puzzles[0].geometry
        if any(p.geometry != geometry for p in puzzles):
            return None
        givens = np.array([p.givens for p in puzzles], dtype=np.uint8)
        grids, status, table = solve_many(
            givens, max(1, count_limit), geometry=geometry, node_limit=limits.node_limit,
            time_limit=limits.time_limit, locked=self.settings["locked_candidates"])
        out = []
        for i in range(len(puzzles)):
            stats = Stats.counting(self.counters)
            _fill(stats, table[i])
            stats.extra["seconds"] = table[i, Stat.NANOSECONDS] * 1e-9
            found = [tuple(row.tolist()) for row in grids[i, :table[i, Stat.SOLUTIONS]]]
            out.append((found, stats, int(status[i]) in (Code.NODE_LIMIT, Code.TIME_LIMIT)))
        return out
