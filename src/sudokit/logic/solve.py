"""The solve loop (easiest technique first), explanations, hints and ratings.

Sudoku Explainer's rule (Juillerat 2006): at every point apply the easiest step available; a
puzzle's rating is the rating of the hardest step its solve needs. Every step is checked against
the solution before it is applied: an elimination never removes the solution's digit and a
placement equals it (a wrong step raises :class:`~sudokit.errors.SolverBug`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

import numpy as np

from ..errors import InvalidPuzzle, SolverBug
from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle, PuzzleLike, violations
from ..model.result import Limits, Stats
from .dynamic import search_solution
from .ladder import next_steps, plan
from .registry import TechniqueKind, techniques
from .state import Candidates
from .step import Step

__all__ = [
    "ALL_KINDS",
    "LEVEL_BANDS",
    "Level",
    "Rating",
    "apply_step",
    "check_step",
    "explain",
    "explain_states",
    "hint",
    "level_of",
    "parse_marks",
    "rate",
    "rating_of",
    "solve_steps",
]

ALL_KINDS = frozenset(TechniqueKind)


class Level(Enum):
    """A coarse level from the rating (HoDoKu-like names; the bands: :data:`LEVEL_BANDS`)."""

    EASY = "easy"  # singles only
    MEDIUM = "medium"  # locked candidates, pairs, X-Wing
    HARD = "hard"  # triples, quads, fish, wings, uniqueness
    EXPERT = "expert"  # chains and ALS
    EXTREME = "extreme"  # forcing chains and trial


LEVEL_BANDS: Mapping[Level, tuple[float, float]] = MappingProxyType({
    Level.EASY: (0.0, 2.5),
    Level.MEDIUM: (2.5, 4.0),
    Level.HARD: (4.0, 6.0),
    Level.EXPERT: (6.0, 8.0),
    Level.EXTREME: (8.0, math.inf),
})
"""The ratings of each level on Sudoku Explainer's scale, ``low <= rating < high`` (the one
definition of the level bands): singles below 2.5; locked candidates, pairs and X-Wing below
4.0; triples, quads, fish, wings and uniqueness below 6.0; chains and ALS below 8.0; forcing
chains and trial from 8.0."""


def level_of(rating: float) -> Level:
    """Return the level whose band (:data:`LEVEL_BANDS`) holds ``rating`` (EXTREME above
    every band)."""
    for level, (_low, high) in LEVEL_BANDS.items():
        if rating < high:
            return level
    return Level.EXTREME


@dataclass(frozen=True)
class Rating:
    """The difficulty of a puzzle.

    Attributes:
        rating: the hardest step's rating (Sudoku Explainer's scale); 0.0 for a full grid.
        hardest: that step's technique ("" for a full grid).
        level: the :class:`Level`.
        steps: number of steps of the solve.
        trial: whether the solve needed the trial (bifurcation) step.
        unique: whether the puzzle has exactly one solution (uniqueness techniques are used
            only then).
    """

    rating: float
    hardest: str
    level: Level
    steps: int
    trial: bool
    unique: bool


def check_step(step: Step, solution: Sequence[int] | None) -> None:
    """Verify a step against the solution.

    Raises:
        SolverBug: an elimination removes the solution's digit or a placement differs from it.
    """
    if solution is None:
        return
    for cell, digit in step.eliminations:
        if solution[cell] == digit:
            raise SolverBug(f"{step.technique} removed {digit} from cell {cell}, "
                            f"the solution's digit: {step.text}")
    for cell, digit in step.placements:
        if solution[cell] != digit:
            raise SolverBug(f"{step.technique} placed {digit} in cell {cell}; the solution has "
                            f"{solution[cell]}: {step.text}")


def apply_step(state: Candidates, step: Step) -> None:
    """Apply a step's eliminations and placements to ``state`` (modified in place)."""
    for cell, digit in step.eliminations:
        state.eliminate(cell, digit)
    for cell, digit in step.placements:
        state.place(cell, digit)


def solve_steps(state: Candidates, *, kinds: frozenset[TechniqueKind] = ALL_KINDS,
                solution: Sequence[int] | None = None, limits: Limits | None = None,
                stats: Stats | None = None, max_rating: float | None = None,
                unique: bool = True, every_state: bool = True) -> Iterator[Step]:
    """Apply the easiest step until the grid is full or nothing applies; yield each step.

    Args:
        state: the candidates; modified in place (by this function only: singles are found a
            few steps ahead, so a caller must not change it between steps).
        kinds: technique kinds allowed (leave out UNIQUENESS when the puzzle may have several
            solutions, TRIAL to stop where logic ends).
        solution: when given, every step is checked against it before it is applied.
        limits: its deadline is checked before every step.
        stats: ``stats.extra[technique]`` counts the steps of each technique.
        max_rating: leave out techniques rated above this.
        unique: whether ``solution`` is the only one; if not, a trial step may pick another
            solution, which then replaces ``solution`` for the following steps.
        every_state: False when the caller does not read ``state`` between steps: a run of
            singles the compiled ladder followed ahead (:func:`~sudokit.logic.ladder.next_steps`)
            is then not placed one by one; the state it leads to, computed by the kernel with
            the same placements, is copied in at its last step. Each step is still checked.

    Raises:
        SolverBug: a step contradicts ``solution``.
        LimitReached: the time limit passed.
    """
    ladder = plan(tuple(techniques(kinds, max_rating, state.geometry.side)), state.geometry)
    ahead: list[Step] = []  # singles found ahead (ladder.next_steps), next first
    after = None  # the state after them, when every_state is False
    while ahead or not state.solved:  # a single ahead places an open cell: not solved yet
        if limits is not None and stats is not None:
            limits.check(stats)
        if not ahead:
            ahead, after = next_steps(state.board(), ladder)
            if not ahead:
                return
            ahead.reverse()
            if every_state:
                after = None
        step = ahead.pop()
        if unique or step.technique != "Trial":
            check_step(step, solution)
        if after is None:
            apply_step(state, step)
        elif not ahead:
            state.masks[:], state.values[:] = after
        if not unique and step.technique == "Trial":
            solution = search_solution(state.board())
        if stats is not None:
            stats.extra[step.technique] = stats.extra.get(step.technique, 0) + 1
        yield step


_NINE = Geometry.for_side(9)
_LINE_DIGITS = frozenset("0123456789.")
_LINE_VALUES = bytes.maketrans(b"0123456789.", bytes(range(10)) + b"\0")


def _coerce(puzzle: PuzzleLike) -> Puzzle:
    """:meth:`Puzzle.coerce`, with a plain 81-symbol line (digits, ``.`` or ``0`` empty) read
    straight to its givens (the same puzzle :meth:`Puzzle.parse` returns, source
    ``"<string>"`` line 1); anything else goes through :meth:`Puzzle.coerce`.

    Raises:
        InvalidPuzzle, TypeError: as :meth:`Puzzle.coerce`.
    """
    if type(puzzle) is str and len(puzzle) == 81 and _LINE_DIGITS.issuperset(puzzle):
        return Puzzle(_NINE, tuple(puzzle.encode().translate(_LINE_VALUES)), "<string>", 1)
    return Puzzle.coerce(puzzle)


def _solution(puzzle: Puzzle) -> tuple[Grid, bool]:
    """The puzzle's (first) solution and whether it is unique.

    A standard 9x9 puzzle is searched by the compiled engine's :class:`~sudokit.fast.Search`
    directly (what the default method runs on it, without the method's front door): up to two
    solutions, the first verified against the givens and every unit (the compiled check of
    :func:`sudokit.fast.verify.solves`). Other grids, and a
    puzzle without a solution (for the message naming why), go through
    :func:`sudokit.run.doors.count_solutions`.

    Raises:
        InvalidPuzzle: the puzzle has no solution.
        SolverBug: the engine returned a grid that is not a solution.
    """
    if puzzle.geometry == _NINE:
        from ..fast import Outcome, Search, uses_nine
        from ..fast.verify import solves

        if uses_nine(puzzle.geometry, True):
            givens = np.frombuffer(bytes(puzzle.givens), dtype=np.uint8)
            search = Search(puzzle.geometry, givens)
            if search.advance() is Outcome.FOUND:
                found = search.solution
                grid = tuple(found.tolist())
                if not solves(found[None], givens[None], puzzle.geometry)[0]:
                    raise SolverBug(f"the compiled engine returned a wrong grid: "
                                    f"{'; '.join(violations(grid, puzzle)[:3])}")
                return grid, search.advance() is Outcome.EXHAUSTED
    from ..run.doors import count_solutions

    result = count_solutions(puzzle, limit=2)
    if not result.solutions:
        why = f": {result.message}" if result.message else ""
        raise InvalidPuzzle(f"the puzzle has no solution{why}", source=puzzle.source,
                            line=puzzle.source_line)
    return result.solutions[0], result.count == 1


def explain(puzzle: PuzzleLike, *, trial: bool = True) -> list[Step]:
    """Return the whole logical solve of a puzzle, easiest step first, each step verified.

    Uniqueness techniques are used only when the puzzle has exactly one solution.

    Args:
        puzzle: a :class:`~sudokit.Puzzle` or anything :meth:`Puzzle.coerce` takes.
        trial: allow the trial (bifurcation) step where logic ends, so the grid is completed.

    Raises:
        InvalidPuzzle: unreadable input, or a puzzle without a solution.
    """
    puzzle = _coerce(puzzle)
    solution, unique = _solution(puzzle)
    kinds = _kinds(unique, trial)
    return list(solve_steps(Candidates.from_puzzle(puzzle), kinds=kinds, solution=solution,
                            unique=unique, every_state=False))


def explain_states(puzzle: PuzzleLike, *, trial: bool = True
                   ) -> Iterator[tuple[Step, Candidates]]:
    """Like :func:`explain`, lazily, yielding each step with the candidates after it (the same
    state object, modified as the solve goes on: copy it to keep it)."""
    puzzle = _coerce(puzzle)
    solution, unique = _solution(puzzle)
    state = Candidates.from_puzzle(puzzle)
    for step in solve_steps(state, kinds=_kinds(unique, trial), solution=solution,
                            unique=unique):
        yield step, state


def parse_marks(text: str, geometry: Geometry) -> list[list[int] | None]:
    """Read pencil marks: N*N whitespace-separated groups, one per cell in row-major order, each
    the cell's candidate digits (``"137"``; for N > 9 comma-separated: ``"1,12,16"``), ``.`` or
    ``0`` for none given.

    Raises:
        InvalidPuzzle: a wrong group count or a character that is not a digit (the message
            names the group's column in the text).
    """
    groups = text.split()
    if len(groups) != geometry.n_cells:
        raise InvalidPuzzle(f"expected {geometry.n_cells} pencil-mark groups, got {len(groups)}",
                            source="--marks")
    out: list[list[int] | None] = []
    position = 0
    for group in groups:
        position = text.index(group, position)
        if group in (".", "0"):
            out.append(None)
        else:
            parts = group.split(",") if geometry.side > 9 else list(group)
            if not all(p.isdigit() for p in parts):
                raise InvalidPuzzle(f"expected candidate digits, got {group!r}",
                                    source="--marks", line=1, column=position + 1)
            out.append([int(p) for p in parts])
        position += len(group)
    return out


def _kinds(unique: bool, trial: bool) -> frozenset[TechniqueKind]:
    kinds = set(TechniqueKind)
    if not unique:
        kinds.discard(TechniqueKind.UNIQUENESS)
    if not trial:
        kinds.discard(TechniqueKind.TRIAL)
    return frozenset(kinds)


def rate(puzzle: PuzzleLike) -> Rating:
    """Rate a puzzle on Sudoku Explainer's scale: the rating of the hardest step of its solve.

    Raises:
        InvalidPuzzle: unreadable input, or a puzzle without a solution.
    """
    puzzle = _coerce(puzzle)
    solution, unique = _solution(puzzle)
    steps = list(solve_steps(Candidates.from_puzzle(puzzle), kinds=_kinds(unique, True),
                             solution=solution, unique=unique, every_state=False))
    return rating_of(steps, unique)


def rating_of(steps: Sequence[Step], unique: bool) -> Rating:
    """Summarise a solve's steps as a :class:`Rating`."""
    hardest = max(steps, key=lambda s: s.rating, default=None)
    value = hardest.rating if hardest else 0.0
    return Rating(value, hardest.technique if hardest else "", level_of(value), len(steps),
                  any(s.technique == "Trial" for s in steps), unique)


def hint(puzzle: PuzzleLike, marks: Sequence[Sequence[int] | None] | None = None) -> Step | None:
    """Return the next (easiest) step of a puzzle or of a partly filled grid, or None when full.

    Args:
        puzzle: the grid so far (givens and the digits placed by the user).
        marks: optional pencil marks per cell (see :meth:`Candidates.from_pencil_marks`); wrong
            marks (a removed solution digit) are reported as an InvalidPuzzle.

    Raises:
        InvalidPuzzle: unreadable input, a grid without a solution, or pencil marks that
            remove a digit of the solution.
    """
    puzzle = _coerce(puzzle)
    solution, unique = _solution(puzzle)
    state = (Candidates.from_pencil_marks(puzzle, marks) if marks is not None
             else Candidates.from_puzzle(puzzle))
    for cell, digit in enumerate(solution):
        if not state.has(cell, digit):
            raise InvalidPuzzle(f"the pencil marks of {puzzle.geometry.label(cell)} lack "
                                f"{digit}, which the solution needs there")
    return next(solve_steps(state, kinds=_kinds(unique, True), solution=solution,
                            unique=unique), None)
