"""Steps with the techniques a player chooses, and every step available at one point.

SudokuWiki and HoDoKu let a player say which techniques the solver may use; HoDoKu and Sudoku
Explainer list every step available at a point, not only the easiest. Here:

- :func:`technique_choice` reads ``techniques`` (only these) and ``exclude`` (all but these)
  as names of :func:`sudokit.logic.registry.technique_names`; a name without its bracketed
  part covers each of its forms (``Hidden Single``: the box and line forms).
- :func:`chosen_steps` is the solve loop of :func:`sudokit.logic.solve.solve_steps` on the
  chosen techniques' ladder (the easiest chosen step first, each checked against the
  solution and applied).
- :func:`every_step` lists the chosen techniques' steps on the board as it is, easiest
  technique first, every instance of each (HoDoKu's "all steps"; a finder returns one step,
  so the others are found on a copy with the earlier ones applied and kept only when they
  hold on the board itself); the techniques about drawn rules, BUG, the forcing chains and
  trial give their easiest step only (:func:`listable`), the forcing chains and trial only
  when nothing easier applies: they take seconds each.

The front doors (:func:`sudokit.run.explain.hint`, ``explain_states``, ``rate``) take these
as options; the board's ``/api/hint`` (``"all": true``) and ``sudokit hint --all`` list
:func:`every_step`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

from ..errors import InvalidOption, LimitReached
from ..logic.deadline import limited
from ..logic.ladder import next_steps, plan
from ..logic.registry import Technique, TechniqueKind, techniques
from ..logic.solve import apply_step, check_step
from ..logic.state import Candidates
from ..logic.step import Step
from ..model.puzzle import Puzzle
from ..model.result import Limits, Stats

__all__ = ["INSTANCE_SECONDS", "LAST_RESORT", "MAX_INSTANCES", "MAX_MISSES", "Choice",
           "chosen_states", "chosen_steps", "every_step", "listable",
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
        with limited(limits):  # checked inside a step too (sudokit.logic.deadline)
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


def every_step(state: Candidates, choice: Choice | None, *,
               kinds: frozenset[TechniqueKind], solution: Sequence[int],
               limits: Limits | None = None, first_only: bool = False) -> list[Step]:
    """Every chosen step on the board as it is, easiest technique first, each technique's
    instances in the order its finder gives them (:func:`_instances`; the same step found by
    two techniques once); forcing chains and the trial step (rated :data:`LAST_RESORT` and up)
    only when nothing easier applies (``first_only``: stop at the first step). ``state`` is
    not changed. When ``limits`` run out after some steps were found, those are returned
    (the harder techniques not asked).

    Raises:
        SolverBug: a step contradicts ``solution``.
        LimitReached: ``limits`` ran out.
    """
    found: list[Step] = []
    seen: set[tuple[object, object]] = set()
    for tech in _ladder(state, kinds, choice):
        if (tech.kind is TechniqueKind.TRIAL or tech.rating >= LAST_RESORT or first_only) and found:
            break
        try:
            for step in _instances(tech, state, solution, limits, first_only):
                if (step.placements, step.eliminations) not in seen:
                    seen.add((step.placements, step.eliminations))
                    found.append(step)
        except LimitReached:
            if found:  # the steps found so far: the harder techniques left out
                break
            raise
    return found


MAX_INSTANCES = 60
"""At most this many finder calls per technique in :func:`_instances`."""
MAX_MISSES = 4
""":func:`_instances` stops after this many steps in a row that do not hold on the board."""
INSTANCE_SECONDS = 0.15
"""... or after this many seconds on one technique's further instances (an ALS-XZ search
takes about 40 ms on a 9x9)."""


def listable(tech: Technique) -> bool:
    """Whether :func:`_instances` lists every instance of ``tech`` (True) or only its
    finder's easiest step: the techniques about drawn rules (``needs``), BUG (it reads the
    whole grid), forcing chains and trial (rated from 7.5: they read the whole grid too)."""
    return (not tech.needs and not tech.name.startswith("BUG") and tech.rating < 7.5
            and tech.kind is not TechniqueKind.TRIAL)


def _instances(tech: Technique, state: Candidates, solution: Sequence[int],
               limits: Limits | None, first_only: bool) -> Iterator[Step]:
    """The steps of one technique on ``state`` (not changed): the finder gives its easiest
    step; that step is applied to a copy and the finder asked again, and so on (at most
    :data:`MAX_INSTANCES` calls). A step found on the copy is kept only if it holds on
    ``state`` itself: a single is checked there directly (its cell's candidates, its house);
    any other step is kept only when no candidate removed from the copy lies in its cells or
    in a peer of them with one of its digits (the pattern reads nothing the earlier steps
    changed: a step of the copy that may lean on them is left out, so the list can miss an
    instance but never shows a false one). It stops after :data:`MAX_MISSES` such steps in a
    row (singles: checked exactly, never cut so) or :data:`INSTANCE_SECONDS` of searching. Only the first step for techniques that are
    not :func:`listable`.

    Raises:
        SolverBug: a step contradicts ``solution``.
        LimitReached: ``limits`` ran out.
    """
    stats = Stats()
    if limits is not None:
        limits.check(stats)
    with limited(limits):
        step = tech.find(state.board())
    if step is None:
        return
    check_step(step, solution)
    yield step
    if first_only or not listable(tech):
        return
    work, original = state.copy(), state.pencil_marks()
    peers = [frozenset(p) for p in state.geometry.peers]
    ends, missed = time.perf_counter() + INSTANCE_SECONDS, 0
    for _ in range(MAX_INSTANCES - 1):
        if (missed >= MAX_MISSES and not _is_single(step)) or time.perf_counter() > ends:
            return
        apply_step(work, step)
        if limits is not None:
            limits.check(stats)
        with limited(limits):
            found = tech.find(work.board())
        if found is None:
            return
        check_step(found, solution)
        step = found
        if _holds(step, state, work, original, peers):
            missed = 0
            yield step
        else:
            missed += 1


def _holds(step: Step, state: Candidates, work: Candidates, original: list[list[int]],
           peers: list[frozenset[int]]) -> bool:
    """Whether ``step``, found on ``work`` (``state`` with earlier steps applied), holds on
    ``state`` (see :func:`_instances`)."""
    if _is_single(step):
        return _single_holds(step, state)
    cells = set(step.cells) | {c for link in step.links for end in (link.start, link.end)
                               for c in end[0]}
    digits = set(step.digits)
    now = work.pencil_marks()
    for cell, before in enumerate(original):
        gone = set(before) - set(now[cell]) if not work.values[cell] or state.values[cell] \
            else set(before)
        if gone and (cell in cells or (peers[cell] & cells
                                       and (not digits or gone & digits))):
            return False
    return True


def _is_single(step: Step) -> bool:
    return step.technique.startswith(("Naked Single", "Hidden Single", "Full House"))


def _single_holds(step: Step, state: Candidates) -> bool:
    """Whether a single's placement is one on ``state``: the cell's only candidate (Naked),
    the digit's only place in one of its houses (Hidden), or the last open cell of one of
    its houses (Full House)."""
    geometry = state.geometry
    (cell, digit), = step.placements
    if state.values[cell] or not state.has(cell, digit):
        return False
    units = [geometry.units[u] for u in geometry.units_of[cell]]
    if step.technique.startswith("Naked Single"):
        return all(d == digit or not state.has(cell, d) for d in range(1, geometry.side + 1))
    if step.technique.startswith("Full House"):
        return any(all(state.values[c] for c in unit if c != cell) for unit in units)
    return any(not any(state.has(c, digit) for c in unit if c != cell) for unit in units)
