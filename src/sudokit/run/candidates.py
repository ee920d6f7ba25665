"""Setters' tools: the true candidates of a puzzle and an estimate of its number of solutions.

* **True candidates**: for each cell, the digits it holds in at least one solution, each with
  the number of solutions that have it, counted up to a cap (a setter sees at once which digits
  are forced, which are nearly so, and where a new given would cut the solutions). The solutions
  are found by a solving method (the default one unless told), so every rule of the puzzle counts
  and every solution is verified by the front door. The search starts by enumerating up to
  ``enumerate_limit`` solutions; when there are more, every candidate propagation leaves
  (:mod:`sudokit.csp.propagation`) and whose tally is still under the cap is settled by counting
  the solutions with that digit placed (up to the cap). Every solution found on the way is
  tallied once, so one counting run settles many candidates.
* **Solution-count estimate**: Knuth's random probing (:mod:`sudokit.csp.estimate`) for puzzles
  with too many solutions to count.

Reference: D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
Computation 29 (1975), 121-136.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..csp.estimate import SolutionEstimate, knuth_estimate
from ..errors import LimitReached
from ..model.puzzle import Grid, Puzzle, PuzzleLike
from ..model.result import Limits, Stats, Status
from .doors import count_solutions

__all__ = ["TrueCandidates", "true_candidates", "estimate_solutions"]

ENUMERATE_LIMIT = 1000
"""Solutions enumerated before candidates are settled one by one."""


@dataclass(frozen=True)
class TrueCandidates:
    """The digits each cell holds in some solution, with solution counts up to a cap.

    Attributes:
        puzzle: the puzzle.
        counts: one dict per cell (row-major, N**2 of them) from digit to the number of
            solutions with that digit in that cell, at most ``cap`` (a count of ``cap`` means
            "``cap`` or more"); a digit in no solution is absent. A given's dict holds only it.
        cap: the cap of the counts (1: only whether a digit is possible).
        solutions_found: distinct verified solutions found in all.
        complete: True when every count is exact up to the cap (False when the time limit came
            first: then ``unsettled`` lists what was not decided).
        unsettled: ``(cell, digit)`` pairs whose count is below the cap and not proved exact.
        method: the solving method used.
        seconds: wall time, in seconds.
    """

    puzzle: Puzzle
    counts: tuple[dict[int, int], ...]
    cap: int
    solutions_found: int
    complete: bool
    unsettled: tuple[tuple[int, int], ...]
    method: str
    seconds: float

    @property
    def candidates(self) -> list[tuple[int, ...]]:
        """Per cell, the digits of some solution, ascending (empty tuples: no solution)."""
        return [tuple(sorted(c)) for c in self.counts]

    def as_dict(self) -> dict[str, object]:
        """The JSON form of the API and ``--format json``: ``candidates`` (per cell, digits),
        ``counts`` (per cell, ``{digit: count}`` with string keys), ``cap``,
        ``solutions_found``, ``complete``, ``unsettled`` (``[cell, digit]`` pairs, 0-based
        cells), ``method``, ``seconds``."""
        return {"candidates": [list(c) for c in self.candidates],
                "counts": [{str(d): n for d, n in sorted(c.items())} for c in self.counts],
                "cap": self.cap, "solutions_found": self.solutions_found,
                "complete": self.complete, "unsettled": [list(p) for p in self.unsettled],
                "method": self.method, "seconds": round(self.seconds, 6)}


class _Tally:
    """Distinct solutions found so far and, per cell and digit, how many have it."""

    def __init__(self, n_cells: int) -> None:
        self.seen: set[Grid] = set()
        self.counts: list[dict[int, int]] = [{} for _ in range(n_cells)]

    def add(self, grids: tuple[Grid, ...]) -> None:
        for grid in grids:
            if grid in self.seen:
                continue
            self.seen.add(grid)
            for cell, digit in enumerate(grid):
                self.counts[cell][digit] = self.counts[cell].get(digit, 0) + 1


def true_candidates(puzzle: PuzzleLike, *, cap: int = 1, method: str | None = None,
                    time_limit: float | None = 15.0,
                    enumerate_limit: int = ENUMERATE_LIMIT) -> TrueCandidates:
    """The true candidates of ``puzzle``: per cell, the digits of its solutions, counted to ``cap``.

    Args:
        puzzle: a Puzzle or anything :meth:`Puzzle.coerce` takes (every size, variant and rule
            the method supports).
        cap: counts stop at this many solutions per candidate (>= 1).
        method: the solving method (default: the fastest available).
        time_limit: seconds for the whole call (None: no limit); when it runs out the answer
            has ``complete=False`` and lists the undecided candidates.
        enumerate_limit: solutions enumerated at first; past it, candidates are settled one by
            one (>= 1).

    Returns:
        The counts, with ``solutions_found`` and whether they are complete.

    Raises:
        ValueError: ``cap`` or ``enumerate_limit`` < 1.
        InvalidPuzzle, UnknownMethod, MethodUnavailable, UnsupportedPuzzle: as
            :func:`~sudokit.run.doors.count_solutions`.
    """
    if cap < 1 or enumerate_limit < 1:
        raise ValueError(f"cap and enumerate_limit must be >= 1, got {cap}, {enumerate_limit}")
    started = time.perf_counter()
    puzzle = Puzzle.coerce(puzzle)
    clock = Limits(time_limit).start()
    tally = _Tally(puzzle.geometry.n_cells)
    first = count_solutions(puzzle, method, limit=max(enumerate_limit, cap),
                            time_limit=clock.remaining())
    tally.add(first.solutions)
    if first.status is Status.UNSATISFIABLE or (
            first.status is Status.SOLVED and first.count < max(enumerate_limit, cap)):
        unsettled: list[tuple[int, int]] = []  # every solution is known
    else:
        unsettled = _settle(puzzle, tally, cap, method, clock)
    counts = tuple({d: min(n, cap) for d, n in c.items()} for c in tally.counts)
    return TrueCandidates(puzzle, counts, cap, len(tally.seen), not unsettled, tuple(unsettled),
                          first.method, time.perf_counter() - started)


def _settle(puzzle: Puzzle, tally: _Tally, cap: int, method: str | None,
            clock: Limits) -> list[tuple[int, int]]:
    """Count, up to ``cap``, the solutions with each still-open candidate placed; the
    candidates the time limit left undecided."""
    from .inspect import PropagationChoice, candidates_after

    open_pairs = [(cell, digit) for cell, digits in
                  enumerate(candidates_after(puzzle, PropagationChoice.PROPAGATE) or [])
                  for digit in digits]
    undecided: list[tuple[int, int]] = []
    for cell, digit in open_pairs:
        if tally.counts[cell].get(digit, 0) >= cap:
            continue  # enough solutions have it already
        remaining = clock.remaining()
        if remaining is not None and remaining <= 0:
            undecided.append((cell, digit))
            continue
        givens = list(puzzle.givens)
        givens[cell] = digit
        placed = Puzzle(puzzle.geometry, tuple(givens), puzzle.source, puzzle.source_line)
        result = count_solutions(placed, method, limit=cap, time_limit=remaining)
        tally.add(result.solutions)
        if result.status is Status.UNKNOWN and tally.counts[cell].get(digit, 0) < cap:
            undecided.append((cell, digit))
    return undecided


def estimate_solutions(puzzle: PuzzleLike, *, probes: int = 1000, seed: int = 0,
                       time_limit: float | None = 15.0) -> SolutionEstimate:
    """Estimate the number of solutions of ``puzzle`` by Knuth's random probing.

    Args:
        puzzle: a Puzzle or anything :meth:`Puzzle.coerce` takes.
        probes: random root-to-leaf paths (>= 1); the standard error falls as 1/sqrt(probes).
        seed: seed of the random paths (the same seed, the same estimate).
        time_limit: seconds (None: no limit); the probing stops between two probes and the
            estimate covers those completed.

    Returns:
        The estimate, its standard error and the probes run
        (:class:`~sudokit.csp.estimate.SolutionEstimate`).

    Raises:
        ValueError: ``probes`` < 1.
        LimitReached: the time limit ran out before one probe ended.
        InvalidPuzzle: ``puzzle`` is not one valid puzzle.
    """
    puzzle = Puzzle.coerce(puzzle)
    try:
        return knuth_estimate(puzzle, probes, seed, Limits(time_limit), Stats(nodes=0))
    except LimitReached as exc:
        raise LimitReached(f"{exc}: no probe ended; allow more time") from None
