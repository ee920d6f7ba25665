"""Steps with the techniques a player chooses, and every step available at one point.

SudokuWiki and HoDoKu let a player say which techniques the solver may use; HoDoKu and Sudoku
Explainer list every step available at a point, not only the easiest. Here:

- :func:`technique_choice` reads ``techniques`` (only these) and ``exclude`` (all but these)
  as names of :func:`sudokit.logic.registry.technique_names`; a name without its bracketed
  part covers each of its forms (``Hidden Single``: the box and line forms).
- :func:`chosen_steps` is the solve loop of :func:`sudokit.logic.solve.solve_steps` on the
  chosen techniques' ladder (the easiest chosen step first, each checked against the
  solution and applied).
- :func:`every_step` asks each chosen technique once on the board as it is: its easiest step
  (a finder returns one step), so one step per technique that applies, easiest first (the
  forcing chains and trial only when nothing easier applies: they take seconds each).

The front doors (:func:`sudokit.run.explain.hint`, ``explain_states``, ``rate``) take these
as options; the board's ``/api/hint`` (``"all": true``) and ``sudokit hint --all`` list
:func:`every_step`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ..errors import InvalidOption, InvalidPuzzle, LimitReached
from ..logic.ladder import next_steps, plan
from ..logic.registry import Technique, TechniqueKind, techniques
from ..logic.solve import apply_step, check_step
from ..logic.state import Candidates
from ..logic.step import Step
from ..model.puzzle import Puzzle
from ..model.result import Limits, Stats

__all__ = ["LAST_RESORT", "Choice", "chosen_states", "chosen_steps", "every_step", "marked_state",
           "technique_choice"]

LAST_RESORT = 8.0
""":func:`every_step` asks the techniques rated from here (forcing chains, trial: the
"extreme" level, seconds each on a 9x9) only when no easier one applies."""

Choice = Callable[[Technique], bool]
"""Whether a registered technique may be used."""


def _matches(name: str, tech: Technique) -> bool:
    wanted = name.strip().casefold()
    return wanted in (tech.name.casefold(), tech.name.split(" (")[0].casefold())


def technique_choice(only: Sequence[str] | None = None,
                     exclude: Sequence[str] | None = None) -> Choice | None:
    """The techniques a solve may use: those named in ``only`` (None: all), less those named
    in ``exclude``; None when neither is given (every technique).

    Raises:
        InvalidOption: a name that is no registered technique (the message lists them).
    """
    if not only and not exclude:
        return None
    known = techniques()
    for name in [*(only or ()), *(exclude or ())]:
        if not any(_matches(name, t) for t in known):
            names = ", ".join(dict.fromkeys(t.name.split(" (")[0] for t in known))
            raise InvalidOption(f"no technique {name!r}; the techniques are: {names}")
    return lambda t: ((not only or any(_matches(n, t) for n in only))
                      and not any(_matches(n, t) for n in exclude or ()))


def _ladder(state: Candidates, kinds: frozenset[TechniqueKind], choice: Choice | None
            ) -> list[Technique]:
    geometry = state.geometry
    return [t for t in techniques(kinds, None, geometry.side, geometry.features)
            if choice is None or choice(t)]


def chosen_steps(state: Candidates, choice: Choice | None, *,
                 kinds: frozenset[TechniqueKind], solution: Sequence[int],
                 limits: Limits | None = None) -> Iterator[Step]:
    """Apply the easiest step of the chosen techniques until the grid is full or none
    applies; yield each step (``state`` is modified in place, as the loop goes).

    Raises:
        SolverBug: a step contradicts ``solution``.
        LimitReached: ``limits`` ran out.
    """
    ladder = plan(tuple(_ladder(state, kinds, choice)), state.geometry)
    stats = Stats()
    while not state.solved:
        if limits is not None:
            limits.check(stats)
        found, _ = next_steps(state.board(), ladder)
        if not found:
            return
        step = found[0]
        check_step(step, solution)
        apply_step(state, step)
        yield step


def chosen_states(puzzle: Puzzle, choice: Choice | None, *,
                  kinds: frozenset[TechniqueKind], solution: Sequence[int],
                  limits: Limits | None = None) -> Iterator[tuple[Step, Candidates]]:
    """:func:`chosen_steps` from the puzzle's candidates, each step with the state after it
    (the same object, modified as the solve goes on)."""
    state = Candidates.from_puzzle(puzzle)
    for step in chosen_steps(state, choice, kinds=kinds, solution=solution, limits=limits):
        yield step, state


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


def every_step(state: Candidates, choice: Choice | None, *,
               kinds: frozenset[TechniqueKind], solution: Sequence[int],
               limits: Limits | None = None, first_only: bool = False) -> list[Step]:
    """Each chosen technique's step on the board as it is (one per technique that applies:
    its finder's easiest; the same step found by two techniques once), easiest technique
    first; forcing chains and the trial step (rated :data:`LAST_RESORT` and up) only when
    nothing easier applies (``first_only``: stop at the first
    step). ``state`` is not changed. When ``limits`` run out after some steps were found,
    those are returned (the harder techniques not asked).

    Raises:
        SolverBug: a step contradicts ``solution``.
        LimitReached: ``limits`` ran out.
    """
    board, stats = state.board(), Stats()
    found: list[Step] = []
    seen: set[tuple[object, object]] = set()
    for tech in _ladder(state, kinds, choice):
        if (tech.kind is TechniqueKind.TRIAL or tech.rating >= LAST_RESORT or first_only) and found:
            break
        if limits is not None:
            try:
                limits.check(stats)
            except LimitReached:
                if found:  # the steps found so far: the harder techniques left out
                    break
                raise
        step = tech.find(board)
        if step is not None and (step.placements, step.eliminations) not in seen:
            check_step(step, solution)
            seen.add((step.placements, step.eliminations))
            found.append(step)
    return found
