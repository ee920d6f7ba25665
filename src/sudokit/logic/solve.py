"""The solve loop (easiest technique first), explanations, hints and ratings.

Sudoku Explainer's rule (Juillerat 2006): at every point apply the easiest step available; a
puzzle's rating is the rating of the hardest step its solve needs. Every step is checked against
the solution before it is applied: an elimination never removes the solution's digit and a
placement equals it (a wrong step raises :class:`~sudokit.errors.SolverBug`).

The solution, and whether it is the only one, come from the caller: the front doors
:func:`sudokit.explain`, :func:`sudokit.hint` and :func:`sudokit.rate` (:mod:`sudokit.run.explain`)
parse the puzzle and find them with the default method, then call :func:`logical_steps`,
:func:`logical_hint` or :func:`logical_rating` here.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from ..errors import InvalidPuzzle, SolverBug
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle
from ..model.result import Limits, Stats
from .chains.dynamic import limited, search_solution
from .chains.explainer import ONE_SOLUTION_ONLY
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
    "level_of",
    "logical_hint",
    "logical_rating",
    "logical_states",
    "logical_steps",
    "marked_state",
    "parse_marks",
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
        pearl: Sudoku Explainer's EP: the hardest step up to the first that places a digit
            (0.0 for a full grid).
        diamond: Sudoku Explainer's ED: the rating of the first step (0.0 for a full grid).
    """

    rating: float
    hardest: str
    level: Level
    steps: int
    trial: bool
    unique: bool
    pearl: float = 0.0
    diamond: float = 0.0


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
            solution, which then replaces ``solution`` for the following steps, and SE's
            forcing-chain producers are left out
            (:data:`~sudokit.logic.chains.explainer.ONE_SOLUTION_ONLY`).
        every_state: False when the caller does not read ``state`` between steps: a run of
            singles the compiled ladder followed ahead (:func:`~sudokit.logic.ladder.next_steps`)
            is then not placed one by one; the state it leads to, computed by the kernel with
            the same placements, is copied in at its last step. Each step is still checked.

    Raises:
        SolverBug: a step contradicts ``solution``.
        LimitReached: the time limit passed.
    """
    geometry = state.geometry
    chosen = techniques(kinds, max_rating, geometry.side, geometry.features)
    if not unique:
        chosen = [t for t in chosen if t.name not in ONE_SOLUTION_ONLY]
    ladder = plan(tuple(chosen), geometry)
    ahead: list[Step] = []  # singles found ahead (ladder.next_steps), next first
    after = None  # the state after them, when every_state is False
    while ahead or not state.solved:  # a single ahead places an open cell: not solved yet
        if limits is not None and stats is not None:
            limits.check(stats)
        if not ahead:
            with limited(limits):  # the trial step's search, inside the step
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
            with limited(limits):
                solution = search_solution(state.board())
        if stats is not None:
            stats.extra[step.technique] = stats.extra.get(step.technique, 0) + 1
        yield step


def logical_steps(puzzle: Puzzle, solution: Sequence[int], *, unique: bool,
                  trial: bool = True, limits: Limits | None = None) -> list[Step]:
    """Return the whole logical solve of a puzzle, easiest step first, each step verified.

    The puzzle's solution comes from the caller (the front door :func:`sudokit.explain` finds
    it with the default method): this package does not solve puzzles by search.

    Args:
        puzzle: the puzzle (givens, and on a partly filled grid the digits placed so far).
        solution: N*N digits, a solution of ``puzzle``; every step is checked against it.
        unique: whether ``solution`` is the puzzle's only one (uniqueness techniques are used
            only then; else a trial step may follow another solution).
        trial: allow the trial (bifurcation) step where logic ends, so the grid is completed.
        limits: checked before every step (None: no limit; start its clock first).

    Raises:
        SolverBug: a step contradicts ``solution``.
        LimitReached: ``limits`` ran out.
    """
    return list(solve_steps(Candidates.from_puzzle(puzzle), kinds=_kinds(unique, trial),
                            solution=solution, unique=unique, every_state=False,
                            limits=limits, stats=Stats()))


def logical_states(puzzle: Puzzle, solution: Sequence[int], *, unique: bool,
                   trial: bool = True, limits: Limits | None = None
                   ) -> Iterator[tuple[Step, Candidates]]:
    """Like :func:`logical_steps`, lazily, yielding each step with the candidates after it (the
    same state object, modified as the solve goes on: copy it to keep it)."""
    state = Candidates.from_puzzle(puzzle)
    for step in solve_steps(state, kinds=_kinds(unique, trial), solution=solution,
                            unique=unique, limits=limits, stats=Stats()):
        yield step, state


def logical_rating(puzzle: Puzzle, solution: Sequence[int], *, unique: bool,
                   limits: Limits | None = None) -> Rating:
    """Rate a puzzle on Sudoku Explainer's scale: the rating of the hardest step of its logical
    solve (:func:`logical_steps` with the trial step; arguments as there)."""
    return rating_of(logical_steps(puzzle, solution, unique=unique, limits=limits), unique)


def marked_state(puzzle: Puzzle, marks: Sequence[Sequence[int] | None] | None,
                 solution: Sequence[int]) -> Candidates:
    """The candidates of ``puzzle`` with the player's pencil ``marks`` (None: automatic).

    Raises:
        InvalidPuzzle: the marks remove a digit of ``solution`` (the message names the cell).
    """
    state = (Candidates.from_pencil_marks(puzzle, marks) if marks is not None
             else Candidates.from_puzzle(puzzle))
    for cell, digit in enumerate(solution):
        if not state.has(cell, digit):
            raise InvalidPuzzle(f"the pencil marks of {puzzle.geometry.label(cell)} lack "
                                f"{digit}, which the solution needs there")
    return state


def logical_hint(puzzle: Puzzle, solution: Sequence[int], *, unique: bool,
                 marks: Sequence[Sequence[int] | None] | None = None,
                 limits: Limits | None = None, trial: bool = True) -> Step | None:
    """Return the next (easiest) step of a puzzle or of a partly filled grid, or None when full
    (or, without ``trial``, when no technique applies: only a trial would go on).

    Args:
        puzzle, solution, unique, limits: as for :func:`logical_steps`.
        marks: optional pencil marks per cell (see :meth:`Candidates.from_pencil_marks`).
        trial: allow the trial (bifurcation) step when no technique applies.

    Raises:
        InvalidPuzzle: ``marks`` remove a digit of ``solution`` (the message names the cell), or
            are malformed.
    """
    state = marked_state(puzzle, marks, solution)
    return next(solve_steps(state, kinds=_kinds(unique, trial), solution=solution,
                            unique=unique, limits=limits, stats=Stats()), None)


def rating_of(steps: Sequence[Step], unique: bool) -> Rating:
    """Summarise a solve's steps as a :class:`Rating` (EP and ED as Sudoku Explainer's
    ``Solver.getDifficulty`` computes them: the running maximum at the first step that places
    a digit, and the first step's rating)."""
    hardest = max(steps, key=lambda s: s.rating, default=None)
    value = hardest.rating if hardest else 0.0
    pearl = running = 0.0
    for step in steps:
        running = max(running, step.rating)
        if step.placements:
            pearl = running
            break
    diamond = steps[0].rating if steps else 0.0
    return Rating(value, hardest.technique if hardest else "", level_of(value), len(steps),
                  any(s.technique == "Trial" for s in steps), unique, pearl, diamond)


def _kinds(unique: bool, trial: bool) -> frozenset[TechniqueKind]:
    kinds = set(TechniqueKind)
    if not unique:
        kinds.discard(TechniqueKind.UNIQUENESS)
    if not trial:
        kinds.discard(TechniqueKind.TRIAL)
    return frozenset(kinds)


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
