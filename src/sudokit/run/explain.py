"""The front doors of the technique engine: ``explain``, ``explain_states``, ``hint``, ``rate``.

Each door reads the puzzle with the one parser (:meth:`Puzzle.coerce`), finds its solution and
whether it is the only one through :func:`~sudokit.run.doors.count_solutions` (the default
method, count limit 2; every grid verified there), and hands both to the logic package
(:mod:`sudokit.logic.solve`), which verifies every step against that solution.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from functools import partial

from ..errors import InvalidPuzzle, LimitReached, SudokuError
from ..logic.solve import (
    Rating,
    _kinds,
    logical_hint,
    logical_rating,
    logical_states,
    logical_steps,
    rating_of,
)
from ..logic.state import Candidates
from ..logic.step import Step, StepBoard
from ..model.puzzle import Grid, Puzzle, PuzzleLike
from ..model.result import Limits, Result, Status
from .chosen import technique_choice
from .doors import count_solutions, solve_many

__all__ = ["DEFAULT_SECONDS", "explain", "explain_states", "hint", "hints", "rate", "rate_many"]


DEFAULT_SECONDS = 15.0
"""The default time limit of each door, per puzzle (as ``sudokit solve``'s): the count to two
and the logical solve together within it, from the door's call."""


def _limits(time_limit: float | None, started: float | None = None) -> Limits:
    """The limits of a logical solve: its deadline ``time_limit`` seconds after ``started``
    (a ``time.perf_counter()`` value: the door's start, so that finding the solution counts;
    None: now), not counting the loading of the technique engine's kernels (compiled on a
    first use outside the command line) or its warm-up."""
    from ..compiled import Kernels, use_compiled

    begun = time.perf_counter()
    if time_limit and use_compiled(Kernels.LOGIC):
        from .request import Request

        Request.build("logic").solver().warm_up()
    limits = Limits(time_limit or None).start()
    if limits.deadline is None or started is None:
        return limits
    return Limits(limits.time_limit, None, limits.deadline - (begun - started))


def _engines(batch: bool = False) -> str | None:
    """Prepare a door's engines: on the command line's first use, start compiling the kernels
    of the solution search and of the technique engine in the background
    (:mod:`sudokit.run.warm`), and meanwhile run the technique engine on its Python references
    (the same steps) and return ``propagate`` for the solution search; None (the default
    method) once they are compiled, or with background compiling off."""
    from ..compiled import Kernels, ready, run_as_python
    from ..registry import default_method
    from .warm import INTERIM_METHOD, compiling, method_job

    search = Kernels.NINE if batch else Kernels.SEARCH
    if not compiling([(search, method_job(default_method(), lookups=batch)),
                      (Kernels.LOGIC, method_job("logic"))]):
        run_as_python(Kernels.LOGIC, False)
        return None
    run_as_python(Kernels.LOGIC, not ready(Kernels.LOGIC))
    return None if ready(search) else INTERIM_METHOD


def _solution(puzzle: Puzzle, time_limit: float | None = DEFAULT_SECONDS) -> tuple[Grid, bool]:
    """The puzzle's first solution by the default method, and whether it is the only one.

    Raises:
        InvalidPuzzle: the puzzle has no solution (the message says why when the givens
            clash).
        LimitReached: no solution was found within ``time_limit`` seconds.
        UnsupportedPuzzle, SolverBug: as :func:`~sudokit.run.doors.count_solutions`.
    """
    from ..registry import default_method
    from .choice import is_small
    from .warm import INTERIM_METHOD, enabled, search_ready

    method = _engines()  # starts the technique engine's compile if it is not ready
    if method is None and (not enabled() or search_ready(puzzle.geometry)
                           and _engine_ready(puzzle)):
        method = default_method()  # compiled: the engine's first solution, as always
    elif is_small(1, puzzle.geometry.side):
        method = None  # the default path: nothing to compile (sudokit.run.choice)
    else:
        method = INTERIM_METHOD
    return _answer(count_solutions(puzzle, method, limit=2, time_limit=time_limit or None))


def _engine_ready(puzzle: Puzzle) -> bool:
    """Whether the compiled engine's kernels for ``puzzle``'s grid (the 9x9 engine's or the
    general one's: :func:`sudokit.run.deadline.kernels_by`'s groups) are compiled; if not, their
    background compile starts (the default method's warm-up would otherwise compile them in
    the foreground, inside the door's time limit: an empty 25x25 on a cache compiled for
    9x9 only)."""
    from ..registry import default_method
    from .deadline import engine_kernels
    from .warm import compiling, method_job

    kernels = engine_kernels(default_method(), puzzle.geometry)
    return not compiling([(kernels, method_job(default_method(), [puzzle.geometry]))])


def _answer(result: Result) -> tuple[Grid, bool]:
    """The first solution of a count to two and whether it is proved the only one.

    Raises:
        InvalidPuzzle: no solution exists.
        LimitReached: none was found within the time limit.
    """
    if not result.solutions:
        if result.status is Status.UNKNOWN:
            raise LimitReached(f"no solution found: {result.message}")
        why = f": {result.message}" if result.message else ""
        line = result.puzzle.source_line  # the puzzle starts at column 1 of its line
        raise InvalidPuzzle(f"the puzzle has no solution{why}", source=result.puzzle.source,
                            line=line, column=None if line is None else 1)
    return result.solutions[0], result.count == 1 and result.status is not Status.UNKNOWN


def _replayed(puzzle: Puzzle, steps: Sequence[Step], index: int) -> StepBoard:
    """The board before ``steps[index]``: the puzzle's candidates with the steps before it
    applied (eliminations, then placements with their peers), as the solve applied them."""
    state = Candidates.from_puzzle(puzzle)
    for step in steps[:index]:
        for cell, digit in step.eliminations:
            state.eliminate(cell, digit)
        for cell, digit in step.placements:
            state.place(cell, digit)
    return StepBoard.of(puzzle, state)


def _with_boards(puzzle: Puzzle, steps: Iterable[Step]) -> Iterator[Step]:
    """Each step of a solve of ``puzzle`` carrying its board, replayed when first shown."""
    seen: list[Step] = []
    for step in steps:
        seen.append(step)
        yield step.with_board(partial(_replayed, puzzle, seen, len(seen) - 1))


def explain(puzzle: PuzzleLike, *, trial: bool = True,
            time_limit: float | None = DEFAULT_SECONDS) -> list[Step]:
    """Return the whole logical solve of a puzzle, easiest step first, each step verified.

    Uniqueness techniques are used only when the puzzle has exactly one solution.

    Args:
        puzzle: a :class:`~sudokit.Puzzle` or anything :meth:`Puzzle.coerce` takes.
        trial: allow the trial (bifurcation) step where logic ends, so the grid is completed.
        time_limit: seconds for finding the solution and the logical solve together, from
            the call (None or 0: no limit; a first use's loading of the technique engine's
            kernels is not counted).

    Returns:
        The :class:`~sudokit.logic.step.Step` objects in order; ``print(step)`` gives the line
        ``sudokit explain`` prints (``[1.2] Hidden Single: r2c6 is the only place for 9 in
        box 2``); each carries the board before it (:attr:`Step.board
        <sudokit.logic.step.Step.board>`, replayed when first read), so in Jupyter a step
        displays as that board with its highlights.

    Raises:
        InvalidPuzzle: unreadable input, or a puzzle without a solution.
        LimitReached: the time limit passed.
    """
    started = time.perf_counter()
    puzzle = Puzzle.coerce(puzzle)
    solution, unique = _solution(puzzle, time_limit)
    return list(_with_boards(puzzle, logical_steps(puzzle, solution, unique=unique, trial=trial,
                                                   limits=_limits(time_limit, started))))


def explain_states(puzzle: PuzzleLike, *, trial: bool = True,
                   time_limit: float | None = DEFAULT_SECONDS,
                   techniques: Sequence[str] | None = None, exclude: Sequence[str] | None = None
                   ) -> Iterator[tuple[Step, Candidates]]:
    """Like :func:`explain`, lazily, yielding each step with the candidates after it (the same
    state object, modified as the solve goes on: copy it to keep it); ``techniques`` /
    ``exclude``: only those techniques, or all but those (:mod:`sudokit.run.chosen`).

    Raises:
        InvalidPuzzle, LimitReached: as :func:`explain`, when a step is asked for.
        InvalidOption: an unknown technique name.
    """
    from .chosen import chosen_states

    started = time.perf_counter()
    puzzle = Puzzle.coerce(puzzle)
    choice = technique_choice(techniques, exclude)
    solution, unique = _solution(puzzle, time_limit)
    seen: list[Step] = []
    solve = (logical_states(puzzle, solution, unique=unique, trial=trial,
                            limits=_limits(time_limit, started)) if choice is None else
             chosen_states(puzzle, choice, kinds=_kinds(unique, trial), solution=solution,
                           limits=_limits(time_limit, started)))
    for step, state in solve:
        seen.append(step)
        yield step.with_board(partial(_replayed, puzzle, seen, len(seen) - 1)), state


def rate(puzzle: PuzzleLike, *, time_limit: float | None = DEFAULT_SECONDS,
         techniques: Sequence[str] | None = None, exclude: Sequence[str] | None = None
         ) -> Rating:
    """Rate a puzzle on Sudoku Explainer's scale: the rating of the hardest step of its solve.

    Returns:
        A :class:`~sudokit.logic.Rating`: ``rating`` (a float, 1.0 to 11+), ``hardest`` (the
        technique), ``level`` (easy, medium, hard, expert, extreme), ``steps``, ``trial``
        (whether the trial step was needed), ``unique``.

    Raises:
        InvalidPuzzle: unreadable input, or a puzzle without a solution.
        LimitReached: the time limit (as :func:`explain`'s) passed.
        InvalidOption: an unknown technique name (``techniques``, ``exclude``: only those
            techniques, or all but those; the rating of a solve they cannot finish is that
            of its steps so far).
    """
    if techniques or exclude:
        return rating_of(*chosen_solve(puzzle, time_limit, techniques, exclude))
    started = time.perf_counter()
    puzzle = Puzzle.coerce(puzzle)
    solution, unique = _solution(puzzle, time_limit)
    return logical_rating(puzzle, solution, unique=unique, limits=_limits(time_limit, started))


def chosen_solve(puzzle: PuzzleLike, time_limit: float | None,
                 techniques: Sequence[str] | None, exclude: Sequence[str] | None
                 ) -> tuple[list[Step], bool]:
    """The steps of a solve with the chosen techniques only (:mod:`sudokit.run.chosen`, trial
    allowed) and whether the puzzle has one solution, found once for both; the time limit as
    :func:`explain`'s.

    Raises:
        InvalidOption: an unknown technique name (before the solution is looked for).
        InvalidPuzzle, LimitReached: as :func:`explain`.
    """
    from .chosen import chosen_states

    started = time.perf_counter()
    puzzle = Puzzle.coerce(puzzle)
    choice = technique_choice(techniques, exclude)
    solution, unique = _solution(puzzle, time_limit)
    return [step for step, _ in chosen_states(puzzle, choice, kinds=_kinds(unique, True),
                                              solution=solution,
                                              limits=_limits(time_limit, started))], unique


def hint(puzzle: PuzzleLike, marks: Sequence[Sequence[int] | None] | None = None, *,
         time_limit: float | None = DEFAULT_SECONDS, trial: bool = True,
         techniques: Sequence[str] | None = None, exclude: Sequence[str] | None = None
         ) -> Step | None:
    """Return the next (easiest) step of a puzzle or of a partly filled grid, or None when full
    (or, with ``trial=False``, when no technique applies).


    Args:
        puzzle: the grid so far (givens and the digits placed by the user).
        marks: optional pencil marks per cell (see :meth:`Candidates.from_pencil_marks`); wrong
            marks (a removed solution digit) are reported as an InvalidPuzzle.
        time_limit: as :func:`explain`'s.
        trial: allow the trial (bifurcation) step when no technique applies.
        techniques: only these techniques (names; :mod:`sudokit.run.chosen`).
        exclude: every technique but these.

    Returns:
        The easiest :class:`~sudokit.logic.step.Step` that applies (``print(step)`` gives
        ``[1.2] Hidden Single: ...``), or None when the grid is full; it carries the grid
        and candidates it applies to (:attr:`Step.board <sudokit.logic.step.Step.board>`: in
        Jupyter the step displays as that board).

    Raises:
        InvalidPuzzle: unreadable input, a grid without a solution, or pencil marks that
            remove a digit of the solution.
        LimitReached: the time limit passed.
        InvalidOption: an unknown technique name.
    """
    if techniques or exclude:
        found = hints(puzzle, marks, time_limit=time_limit, trial=trial, techniques=techniques,
                      exclude=exclude, every=False)
        return found[0] if found else None
    started = time.perf_counter()
    puzzle = Puzzle.coerce(puzzle)
    solution, unique = _solution(puzzle, time_limit)
    step = logical_hint(puzzle, solution, unique=unique, marks=marks,
                        limits=_limits(time_limit, started), trial=trial)
    return None if step is None else step.on(puzzle, marks)


def hints(puzzle: PuzzleLike, marks: Sequence[Sequence[int] | None] | None = None, *,
          time_limit: float | None = DEFAULT_SECONDS, trial: bool = True,
          techniques: Sequence[str] | None = None, exclude: Sequence[str] | None = None,
          every: bool = True) -> list[Step]:
    """Every step available now (HoDoKu's "all steps"): each instance of each technique that
    applies (:func:`sudokit.run.chosen.every_step`), easiest technique first
    (``every=False``: the first only, as :func:`hint`); arguments and errors as :func:`hint`'s. [] when the grid is full or nothing applies."""
    from ..logic.solve import marked_state
    from .chosen import every_step

    started = time.perf_counter()
    puzzle = Puzzle.coerce(puzzle)
    choice = technique_choice(techniques, exclude)
    solution, unique = _solution(puzzle, time_limit)
    state = marked_state(puzzle, marks, solution)
    found = every_step(state, choice, kinds=_kinds(unique, trial), solution=solution,
                       limits=_limits(time_limit, started), first_only=not every)
    return [step.on(puzzle, marks) for step in found]


def rate_many(puzzles: Sequence[Puzzle], *, time_limit: float | None = DEFAULT_SECONDS
              ) -> list[Rating | SudokuError]:
    """Rate each puzzle as :func:`rate` does, their solutions counted to two in one call of
    :func:`~sudokit.run.doors.solve_many` (one compiled batch per geometry, verified on
    arrays); a puzzle that cannot be rated (or not within ``time_limit``: seconds per puzzle
    for its count and its logical solve together, its count's seconds in the batch taken from
    its logical solve's) has its error in its place, in input order.

    Raises:
        Nothing of a single puzzle: a geometry the default method refuses has each of its
        puzzles counted alone (:func:`rate`'s errors, in place).
    """
    from ..compiled import Kernels, ready
    from ..registry import default_method
    from .warm import enabled

    method = _engines(batch=True)
    if method is None and (ready(Kernels.NINE) or not enabled()):
        method = default_method()  # compiled: one batch, the engine's solutions as always
    try:
        results: Sequence[Result | None] = solve_many(puzzles, method, count_limit=2,
                                                      time_limit=time_limit or None)
    except SudokuError:
        results = [None] * len(puzzles)
    out: list[Rating | SudokuError] = []
    for puzzle, result in zip(puzzles, results):
        started = time.perf_counter()  # the puzzle's start: its share of the batch counts too
        try:
            if result is not None:
                started -= result.seconds
                solution, unique = _answer(result)
            else:
                solution, unique = _solution(puzzle, time_limit)
            out.append(logical_rating(puzzle, solution, unique=unique,
                                      limits=_limits(time_limit, started)))
        except SudokuError as exc:
            out.append(exc)
    return out
