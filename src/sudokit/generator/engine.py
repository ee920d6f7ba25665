"""The Python side of the generator kernels: per-puzzle seeds, scratch arrays, batch calls.

A :class:`Maker` owns the scratch of one thread (threads run kernels without the GIL, each on
its own Maker). Puzzle ``index`` of a run seeded ``seed`` is made from a stream keyed by the
seed, the index and the try number only (:func:`seeds_for`), so it depends on neither the batch
it was made in nor the number of threads, and the keys are the same on every platform.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from ..compiled import Kernels, twin, use_compiled
from ..compiled import interpreted as as_python
from ..model.constraints import Variant
from ..model.geometry import Geometry
from .symmetry import Symmetry, orbits

__all__ = ["EXACT_MAX_SIDE", "Batch", "Maker", "Plan", "exact_grids", "grid_table", "new_seed",
           "seeds_for"]

EXACT_MAX_SIDE = 6
"""Grids up to this side (standard rules) are drawn exactly uniformly from :func:`grid_table`."""


def exact_grids(geometry: Geometry) -> bool:
    """Whether grids of ``geometry`` are drawn from :func:`grid_table` (standard rules, side
    up to :data:`EXACT_MAX_SIDE`; the table is made by the compiled engine)."""
    return geometry.variant is Variant.STANDARD and geometry.side <= EXACT_MAX_SIDE


@cache
def grid_table(geometry: Geometry) -> np.ndarray:
    """Every solution grid of ``geometry`` whose first row is 1..N (uint8[K, N*N]), for
    standard grids up to :data:`EXACT_MAX_SIDE` (4x4: 12 grids, 6x6: 39,168); empty otherwise.

    A uniform row of it, uniformly relabelled, is a uniform grid: each grid has exactly one
    relabelling whose first row is 1..N.
    """
    from ..fast import solve_batch

    n = geometry.side
    if not exact_grids(geometry):
        return np.zeros((0, geometry.n_cells), np.uint8)
    first = np.zeros((1, geometry.n_cells), np.uint8)
    first[0, :n] = np.arange(1, n + 1)
    solutions, _, stats = solve_batch(first, 100_000, geometry=geometry)
    return np.ascontiguousarray(solutions[0, :int(stats[0, 5])])


def new_seed() -> int:
    """A fresh random seed (128 bits of OS entropy), for runs given none."""
    entropy = np.random.SeedSequence().entropy
    assert isinstance(entropy, int)  # drawn from the OS when none is given
    return entropy


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _splitmix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's output function (Steele, Lea and Flood 2014) on uint64 arrays."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def seeds_for(seed: int, indices: Sequence[int] | np.ndarray, attempt: int | np.ndarray = 0
              ) -> np.ndarray:
    """The four-word kernel seeds (uint64[M, 4]) of puzzles ``indices`` at try ``attempt``.

    The run's four words come from ``numpy.random.SeedSequence(seed)``; each puzzle's from
    those, its index and the try number through SplitMix64: integer arithmetic only, the same
    on every machine.
    """
    base = np.random.SeedSequence(int(seed)).generate_state(4, np.uint64)
    index = np.asarray(indices, np.uint64).reshape(-1)
    tries = np.broadcast_to(np.asarray(attempt, np.uint64), index.shape)
    key = _splitmix(_splitmix(index) ^ (tries * _GOLDEN))
    return _splitmix(base[None, :] ^ (key[:, None] + np.arange(4, dtype=np.uint64)[None, :]))


@dataclass(frozen=True, kw_only=True)
class Plan:
    """What the kernels make (from the options of :func:`sudokit.generate`; see
    :meth:`sudokit.generator.Options.plan`), built by keyword.

    Attributes:
        geometry: the grid.
        symmetry: the givens pattern's symmetry (orbits of cells removed together).
        minimal: every orbit is tried with no node limit (the result is minimal).
        floor: never remove givens below this count.
        min_givens: accept a puzzle only with at least this many givens.
        max_givens: accept a puzzle only with at most this many givens.
        stop_at: stop removing at this many givens (-1: try every orbit).
        node_budget: nodes per uniqueness check when not ``minimal``.
        batch: first group size of the group tests (1, the default: one orbit at a time;
            measured faster, since one forbidden-digit search costs less than a count to two).
        max_attempts: grids tried per puzzle (and per seed) for the givens range.
        exact: draw grids up to 6x6 exactly uniformly (else by the randomised search, as
            larger grids are: for measuring that search's bias).
    """

    geometry: Geometry
    symmetry: Symmetry = Symmetry.NONE
    minimal: bool = True
    floor: int = 0
    min_givens: int = 0
    max_givens: int = 4096
    stop_at: int = -1
    node_budget: int = 1000
    batch: int = 1
    max_attempts: int = 200
    exact: bool = True


class Batch(NamedTuple):
    """Output of :meth:`Maker.make`: ``puzzles`` and ``solutions`` uint8[M, N*N], ``info``
    int64[M, len(INFO)] (columns in :data:`sudokit.generator.kernels.INFO`)."""

    puzzles: np.ndarray
    solutions: np.ndarray
    info: np.ndarray


class Maker:
    """Scratch and compiled calls for one thread making puzzles of one geometry."""

    def __init__(self, geometry: Geometry) -> None:
        from ..fast import uses_nine
        from ..fast.nine import new_nine_state
        from ..fast.state import new_state
        from ..fast.tables import tables_for
        from .grids import Engines, Scratch, Shape

        self.geometry = geometry
        n_cells, side = geometry.n_cells, geometry.side
        self.engines = Engines(0 if uses_nine(geometry, True) else 1, tables_for(geometry),
                               new_state(n_cells, side, len(geometry.units)), new_nine_state())
        self.shape = Shape(side, geometry.box_rows, geometry.box_cols,
                           geometry.variant is Variant.STANDARD)
        self.scratch = Scratch(
            rng=np.zeros(4, np.uint64), zeros=np.zeros(n_cells, np.uint8),
            tmp=np.zeros(n_cells + 1, np.uint8), rows=np.zeros(side, np.int32),
            cols=np.zeros(side, np.int32), labels=np.zeros(side + 1, np.uint8),
            order=np.zeros(n_cells, np.int32), removed=np.zeros(n_cells, np.int32),
            out2=np.zeros((2, n_cells), np.uint8), counters=np.zeros(3, np.int64),
            unit_mask=np.zeros(len(geometry.units), np.uint64))
        self.table = grid_table(geometry)

    @twin(Kernels.GENERATOR, "sudokit.generator.kernels:generate_batch",
          "sudokit.generator.kernels:generate_batch (interpreted)", "plans")
    def make(self, seeds: np.ndarray, plan: Plan) -> Batch:
        """Make one puzzle per row of ``seeds`` (see :func:`seeds_for`).

        While :func:`sudokit.compiled.use_compiled` says no (a first use of the command line,
        the kernels compiling in the background), puzzles are made one at a time by the
        kernels' interpreted copy (:func:`sudokit.compiled.interpreted`: the same puzzles,
        slower, nothing compiled), and the rest of the batch by the compiled kernels once it
        says yes.
        """
        from .kernels import INFO

        g = self.geometry
        m = len(seeds)
        out = Batch(np.zeros((m, g.n_cells), np.uint8), np.zeros((m, g.n_cells), np.uint8),
                    np.zeros((m, len(INFO)), np.int64))
        seeds = np.ascontiguousarray(seeds, np.uint64)
        row = 0
        while row < m and not use_compiled(Kernels.GENERATOR):
            self._call(True, seeds[row:row + 1], plan, *(a[row:row + 1] for a in out))
            row += 1
        if row < m:
            self._call(False, seeds[row:], plan, *(a[row:] for a in out))
        return out

    def _call(self, interpreted: bool, seeds: np.ndarray, plan: Plan, puzzles: np.ndarray,
              solutions: np.ndarray, info: np.ndarray) -> None:
        """Run :func:`~sudokit.generator.kernels.generate_batch`, compiled or interpreted."""
        from .kernels import Reduction, generate_batch

        start, cells = orbits(plan.symmetry, self.geometry.side)
        limits = Reduction(plan.minimal, int(plan.node_budget), int(plan.floor),
                        int(plan.min_givens), int(plan.max_givens), int(plan.stop_at),
                        int(plan.batch), plan.minimal, int(plan.max_attempts))
        kernel = as_python(generate_batch) if interpreted else generate_batch
        kernel(self.engines, self.shape, limits, start, cells,
               self.table if plan.exact else self.table[:0], seeds, self.scratch, puzzles,
               solutions, info)
