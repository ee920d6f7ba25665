"""Digging toward a technique: a puzzle whose hardest step is a chosen technique, dug from a
solution grid with the target's cut technique ladder as the guide (issue 42 item 5).

A random minimal puzzle rarely needs a given technique when that technique is not what such
puzzles usually need next (a non-consecutive puzzle of about 12 givens needs a Rule Forcing
Chain, almost never a Pair Relation). Digging toward the target turns that around: givens are
removed from the full grid one orbit of the symmetry at a time, in a random order, and a removal
is kept only while the easiest-first solve with the techniques up to the target's highest base
rating (the ``needs`` cut of :mod:`.techniques`) still completes it; a completed logical solve
proves the puzzle unique (a uniqueness technique on that ladder gets the compiled engine's count
first, since it assumes uniqueness). The most dug puzzle along the way whose hardest step meets
every ``needs`` target is the candidate; :func:`~.techniques.judge` then judges it from scratch,
as it judges every other puzzle.

The other way round, :func:`fill_toward` takes a random minimal puzzle on which that cut
solve stalls (it needs a harder technique than the target) and adds givens from its solution,
one orbit at a time in a random order, until the cut solve completes it: the first puzzle that
way is a candidate too. Every ``needs`` try whose kernel-made puzzle stalls gets one fill.

Measured (``benchmarks/needs.py``, docs/generate.md): Pair Relation and Pair Relation with Peers
on non-consecutive grids go from none found in 400 grids to more than 70 a minute by digging;
X-Wing on diagonal grids from one puzzle in 6,438 grids to one in a few hundred by filling. A
dug classic puzzle rarely needs a fish as its last step (none in 20 grids), so fish targets do
not dig.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..model.geometry import Geometry
from ..model.puzzle import Puzzle
from .symmetry import Symmetry, orbits

if TYPE_CHECKING:
    from ..logic.solve import Rating
    from .techniques import TechniqueTarget

__all__ = ["DIG_MAX_RATING", "Dug", "dig_toward", "digs", "fill_toward", "fills"]

DIG_MAX_RATING = 3.0
"""Digging is tried for ``needs`` targets whose highest base rating is at most this (the
techniques right past singles and intersections: pairs, the drawn-rule basics such as Pair
Relation 2.5): there the cut solves are cheap and the target is often what a dug puzzle needs
last. Above it the measured rates were no better than random puzzles' (X-Wing 0 in 20 dug grids
against 82 a minute at random, Rule Forcing Chain 1.4 a minute against 17)."""


class Dug:
    """A dug candidate: ``puzzle``, the ``rating`` of its cut solve, the ``solves`` run."""

    __slots__ = ("puzzle", "rating", "solves")

    def __init__(self, puzzle: Puzzle, rating: Rating, solves: int) -> None:
        self.puzzle, self.rating, self.solves = puzzle, rating, solves


def digs(targets: Sequence[TechniqueTarget], minimal: bool) -> bool:
    """Whether tries of these targets may dig (a ``needs`` target of base rating at most
    :data:`DIG_MAX_RATING`; never for ``minimal`` puzzles: a dug puzzle is not proven minimal)."""
    needs = [t for t in targets if t.needs]
    return (not minimal and bool(needs)
            and all(t.ceiling is not None and t.ceiling <= DIG_MAX_RATING for t in needs))


def _ladder_assumes_unique(ceiling: float, geometry: Geometry) -> bool:
    from ..logic.registry import TechniqueKind, techniques

    return bool(techniques(frozenset({TechniqueKind.UNIQUENESS}), ceiling, geometry.side,
                           geometry.features))


def _unique(givens: list[int], geometry: Geometry) -> bool:
    from ..fast import Stat, solve_batch

    _, _, stats = solve_batch(np.array([givens], np.uint8), 2, geometry=geometry)
    return int(stats[0, Stat.SOLUTIONS]) == 1


def _cut_rating(givens: list[int], geometry: Geometry, solution: Sequence[int],
                ceiling: float) -> Rating | None:
    """The rating of the easiest-first solve with techniques up to ``ceiling`` (no trial),
    or None where it stalls."""
    from ..logic.registry import TechniqueKind
    from ..logic.solve import rating_of, solve_steps
    from ..logic.state import Candidates

    state = Candidates.from_puzzle(Puzzle(geometry, tuple(givens)))
    steps = list(solve_steps(state, kinds=frozenset(TechniqueKind) - {TechniqueKind.TRIAL},
                             solution=solution, max_rating=ceiling, every_state=False))
    return rating_of(steps, True) if state.solved else None


def dig_toward(targets: Sequence[TechniqueTarget], geometry: Geometry,
               solution: Sequence[int], rng: np.random.Generator, *,
               symmetry: Symmetry = Symmetry.NONE,
               givens: tuple[int, int] | None = None) -> Dug | None:
    """Dig ``solution`` (N*N digits, a solution grid of ``geometry``) toward the ``needs``
    targets (see the module docstring); None when no puzzle along the way met them.

    Args:
        targets: the request's targets (only the ``needs`` ones guide; the caller judges all).
        rng: the removal order's source (a per-puzzle stream keeps runs reproducible).
        symmetry: givens are removed one orbit at a time.
        givens: accepted givens counts ``(low, high)`` (None: any).

    Raises:
        SolverBug: a step contradicts ``solution``.
    """
    needs = [t for t in targets if t.needs]
    ceiling = max(float(t.ceiling) for t in needs if t.ceiling is not None)
    check_unique = _ladder_assumes_unique(ceiling, geometry)
    low, high = givens if givens is not None else (0, geometry.n_cells)
    start, cells = orbits(symmetry, geometry.side)
    digits = [int(d) for d in solution]
    puzzle = list(digits)
    count, solves, best = len(puzzle), 0, None
    for k in rng.permutation(len(start) - 1):
        orbit = cells[start[k]:start[k + 1]]
        if count - len(orbit) < low:
            continue
        for cell in orbit:
            puzzle[cell] = 0
        rating = None
        if not check_unique or _unique(puzzle, geometry):
            solves += 1
            rating = _cut_rating(puzzle, geometry, digits, ceiling)
        if rating is None:
            for cell in orbit:
                puzzle[cell] = digits[cell]
            continue
        count -= len(orbit)
        if count <= high and all(t.meets(rating.hardest, rating.rating) for t in needs):
            best = Dug(Puzzle(geometry, tuple(puzzle)), rating, solves)
    if best is not None:
        best.solves = solves
    return best


def fills(targets: Sequence[TechniqueTarget], minimal: bool) -> bool:
    """Whether a stalled try of these targets is filled (:func:`fill_toward`): a ``needs``
    target below the trial step; never for ``minimal`` puzzles."""
    needs = [t for t in targets if t.needs]
    return not minimal and bool(needs) and all(t.ceiling is not None for t in needs)


def fill_toward(targets: Sequence[TechniqueTarget], puzzle: Puzzle, solution: Sequence[int],
                rng: np.random.Generator, *, symmetry: Symmetry = Symmetry.NONE,
                givens: tuple[int, int] | None = None) -> Dug | None:
    """Add givens of ``solution`` to ``puzzle`` (unique; its cut solve stalls) one orbit at a
    time, in a random order, until the ``needs`` targets' cut solve completes it; that puzzle
    when its hardest step meets them and its givens count is in ``givens``, else None (see the
    module docstring). Each added orbit continues the stalled solve (its digits placed in the
    stalled candidates) rather than solving again: the candidate's rating is that continued
    solve's, which the caller's judging from scratch confirms or not.

    Raises:
        SolverBug: a step contradicts ``solution``.
    """
    from ..logic.registry import TechniqueKind
    from ..logic.solve import rating_of, solve_steps
    from ..logic.state import Candidates

    geometry = puzzle.geometry
    needs = [t for t in targets if t.needs]
    ceiling = max(float(t.ceiling) for t in needs if t.ceiling is not None)
    kinds = frozenset(TechniqueKind) - {TechniqueKind.TRIAL}
    low, high = givens if givens is not None else (0, geometry.n_cells)
    start, cells = orbits(symmetry, geometry.side)
    digits = [int(d) for d in solution]
    filled = list(puzzle.givens)
    count, solves = sum(1 for v in filled if v), 1
    state = Candidates.from_puzzle(puzzle)
    steps = list(solve_steps(state, kinds=kinds, solution=digits, max_rating=ceiling,
                             every_state=False))
    for k in rng.permutation(len(start) - 1):
        orbit = [int(c) for c in cells[start[k]:start[k + 1]] if not filled[c]]
        if state.solved or not any(state.values[c] == 0 for c in orbit):
            continue
        for cell in orbit:
            filled[cell] = digits[cell]
            if state.values[cell] == 0:
                state.place(cell, digits[cell])
        count += len(orbit)
        if count > high:
            return None
        solves += 1
        steps += solve_steps(state, kinds=kinds, solution=digits, max_rating=ceiling,
                             every_state=False)
        if state.solved:
            rating = rating_of(steps, True)
            if count >= low and all(t.meets(rating.hardest, rating.rating) for t in needs):
                return Dug(Puzzle(geometry, tuple(filled)), rating, solves)
            return None
    return None
