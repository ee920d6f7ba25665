"""How many solutions a puzzle has, estimated by random probing of its search tree (Knuth 1975).

Counting every solution of a puzzle with few givens is hopeless (an empty 9x9 has about
6.67e21). Knuth's estimator walks one random path from the root of the search tree to a leaf:
at each node it counts the children ``d`` (here: the digits of the MRV cell that survive
propagation, :class:`~sudokit.csp.propagation.PropagationState`), multiplies a weight by ``d``
and descends into one child chosen uniformly. A path that ends in a solution scores its weight
``d1 * d2 * ... * dk``, any other path 0. The expected score is exactly the number of solutions,
so the mean over many probes is an unbiased estimate, with the usual standard error
``s / sqrt(probes)`` (the scores are independent). The spread is large when the tree is uneven:
read the relative standard error before trusting the digits.

Reference: D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
Computation 29 (1975), 121-136.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from ..errors import LimitReached
from ..model.puzzle import Puzzle, is_solution
from ..model.result import Limits, Stats
from .propagation import PropagationState

__all__ = ["SolutionEstimate", "knuth_estimate"]


@dataclass(frozen=True)
class SolutionEstimate:
    """The outcome of Knuth's random probing of one puzzle.

    Attributes:
        estimate: the mean score over the probes, rounded to a whole number of solutions (a
            Python int: it may exceed any float, e.g. on an empty 36x36).
        standard_error: the standard error of that mean, rounded (0 when every probe scored the
            same, e.g. a puzzle propagation alone solves).
        probes: probes completed (fewer than asked when the time limit came first).
        solution_leaves: probes whose path ended in a solution.
        nodes: search nodes tried (children propagated) over all probes.
        seconds: wall time of the probing, in seconds.
        exhausted: True when the search tree has no branching at all (propagation decides the
            puzzle), so ``estimate`` is the exact count (0 or 1).
    """

    estimate: int
    standard_error: int
    probes: int
    solution_leaves: int
    nodes: int
    seconds: float
    exhausted: bool = False

    @property
    def relative_error(self) -> float | None:
        """``standard_error / estimate`` (None when the estimate is 0)."""
        if not self.estimate:
            return None
        return float(Fraction(self.standard_error, self.estimate))


def knuth_estimate(puzzle: Puzzle, probes: int = 1000, seed: int = 0,
                   limits: Limits | None = None, stats: Stats | None = None) -> SolutionEstimate:
    """Estimate the number of solutions of ``puzzle`` from ``probes`` random root-to-leaf paths.

    Every leaf is verified with :func:`~sudokit.model.puzzle.is_solution` (givens, units and
    every drawn rule) before it scores. The same ``seed`` gives the same estimate.

    Args:
        puzzle: any puzzle the propagation of :mod:`sudokit.csp.propagation` takes (every
            size, variant and drawn rule).
        probes: random paths to walk, >= 1.
        seed: seed of the path choices (:class:`random.Random`).
        limits: a time limit stops the probing between two probes (the estimate then covers the
            probes completed; LimitReached when none was); a node limit counts children tried.
        stats: counters incremented in place (``nodes``, ``propagations``), if given.

    Returns:
        The estimate with its standard error.

    Raises:
        ValueError: ``probes`` < 1.
        LimitReached: a limit was reached before the first probe ended.
    """
    if probes < 1:
        raise ValueError(f"probes must be >= 1, got {probes}")
    limits = (limits or Limits()).start()
    stats = stats if stats is not None else Stats(nodes=0, propagations=0)
    stats.nodes = stats.nodes or 0
    started = time.perf_counter()
    state = PropagationState(puzzle)
    if not state.assign_givens():
        return SolutionEstimate(0, 0, probes, 0, 0, time.perf_counter() - started, True)
    root = len(state.trail)
    if state.select_cell() < 0:
        count = int(is_solution(state.grid(), puzzle))
        return SolutionEstimate(count, 0, probes, count, 0, time.perf_counter() - started, True)
    rng = random.Random(seed)
    scores: list[int] = []
    nodes_before = stats.nodes
    try:
        for _ in range(probes):
            scores.append(_probe(state, puzzle, rng, limits, stats))
            state.undo(root)
    except LimitReached:
        if not scores:
            raise
    stats.propagations = (stats.propagations or 0) + state.eliminations
    mean, error = _mean_and_error(scores)
    return SolutionEstimate(mean, error, len(scores), sum(1 for s in scores if s),
                            stats.nodes - nodes_before, time.perf_counter() - started)


def _probe(state: PropagationState, puzzle: Puzzle, rng: random.Random, limits: Limits,
           stats: Stats) -> int:
    """Walk one random path from the state to a leaf; its weight if the leaf is a solution."""
    weight = 1
    while True:
        cell = state.select_cell()
        if cell < 0:
            return weight if is_solution(state.grid(), puzzle) else 0
        mask, mark = state.cand[cell], len(state.trail)
        alive = []
        while mask:
            bit = mask & -mask
            mask ^= bit
            limits.count_node(stats)
            if state.remove(cell, state.cand[cell] & ~bit) and state.propagate():
                alive.append(bit)
            state.undo(mark)
        if not alive:
            return 0
        weight *= len(alive)
        bit = rng.choice(alive)
        state.remove(cell, state.cand[cell] & ~bit)
        state.propagate()  # succeeded a moment ago on the same state


def _mean_and_error(scores: list[int]) -> tuple[int, int]:
    """The mean of integer scores and its standard error, both rounded, in exact arithmetic
    (scores can exceed any float)."""
    n = len(scores)
    total = sum(scores)
    mean = Fraction(total, n)
    if n < 2:
        return round(mean), 0
    squares = sum(s * s for s in scores)
    variance = (squares - total * mean) / (n - 1)  # sample variance s**2
    # standard error sqrt(s**2 / n), as an integer square root of the rounded value
    return round(mean), isqrt(max(0, round(variance / n)))
