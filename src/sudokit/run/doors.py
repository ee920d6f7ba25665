"""The front doors: ``solve``, ``solutions``, ``count_solutions``, ``solve_many``, ``solve_array``.

Each door takes the one typed :class:`~sudokit.run.request.Request` (``request=``), or builds it
from its keyword arguments (``method``, limits, ``**options``) with
:meth:`sudokit.run.request.Request.build`. Every call here times the run, turns a hit limit into
``Status.UNKNOWN``, reports contradictory givens as ``Status.UNSATISFIABLE`` naming the unit, and
verifies every grid a solver returns against the givens and every unit: a wrong grid raises
:class:`~sudokit.errors.SolverBug` and is never returned.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import ArrayLike

from ..compiled import Kernels, use_compiled
from ..errors import SolverBug, UnsupportedPuzzle
from ..model.constraints import Variant
from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle, PuzzleLike, violations
from ..model.result import ArrayResult, ChunkResult, Limits, Result, Stats, Status, gather
from ..registry import OptionValue, default_method
from ..solvers.base import Solver
from .request import Request

__all__ = [
    "count_solutions",
    "default_method",
    "solutions",
    "solve",
    "solve_array",
    "solve_many",
]


def _request(request: Request | None, method: str | None, options: dict[str, OptionValue],
             limits: Limits, count_limit: int | None, trace: bool = False,
             variant: Variant = Variant.STANDARD, puzzles: Sequence[Puzzle] = ()) -> Request:
    """``request`` as given, or one built from a door's keyword arguments by the one decision
    (:func:`sudokit.run.choice.decide`: with no method named, ``puzzles`` decide whether the
    default path answers; none: the default method).

    Raises:
        TypeError: both a request and method, limit or option arguments were given.
        UnknownMethod, MethodUnavailable, InvalidOption: a bad method name or option.
    """
    if request is None:
        if method is not None or not puzzles:
            return Request.build(method, options, limits, count_limit, variant, trace)
        from .choice import decide

        side = max(p.geometry.side for p in puzzles)
        return decide(None, options, limits, count_limit, variant, puzzles=len(puzzles),
                      side=side, trace=trace)
    if method is not None or options or limits != Limits() or trace:
        raise TypeError("give either a request or method, limit and option arguments, not both")
    return request


def _prepare(puzzle: Puzzle, request: Request) -> Solver:
    """The request's solver, checked against the puzzle's geometry and loaded for it.

    Raises:
        UnsupportedPuzzle: the method does not declare this grid size or variant.
    """
    solver: Solver = request.solver()
    if not solver.supports(puzzle.geometry):
        raise UnsupportedPuzzle(
            f"method {solver.full_name!r} does not support {puzzle.geometry.shape_name} grids "
            f"(sides {solver.min_side}..{solver.max_side})"
        )
    solver.warm_up(puzzle.geometry)  # one-time compiling or loading is not part of a limit
    return solver


def verified(grid: Sequence[int], puzzle: Puzzle, method: str) -> Grid:
    """Return ``grid`` as a tuple after checking it solves ``puzzle``.

    Raises:
        SolverBug: the grid breaks a given or a unit (the message lists the first problems).
    """
    grid = tuple(map(int, grid))
    if _compiled_check_passes(grid, puzzle):
        return grid
    problems = violations(grid, puzzle)  # the reference check, which also words a failure
    if problems:
        raise SolverBug(f"method {method!r} returned a wrong grid: {'; '.join(problems[:3])}")
    return grid


def _compiled_check_passes(grid: Grid, puzzle: Puzzle) -> bool:
    """Whether the compiled check of :func:`sudokit.run.chunk.grids_solve` accepts ``grid``;
    False when the compiled check is not loaded (it is never loaded for this alone: a method
    of the compiled engine loads it) or the grid has a value no cell can hold (the reference
    check then decides and says why)."""
    geometry = puzzle.geometry
    if (not use_compiled(Kernels.VERIFY) or len(grid) != geometry.n_cells or not grid
            or min(grid) < 1 or max(grid) > geometry.side):
        return False
    from .chunk import grids_solve

    return bool(grids_solve(np.array([grid], np.uint8), np.array([puzzle.givens], np.uint8),
                            geometry)[0])


def count_solutions(
    puzzle: PuzzleLike,
    method: str | None = None,
    *,
    limit: int | None = 2,
    time_limit: float | None = None,
    node_limit: int | None = None,
    trace: bool = False,
    request: Request | None = None,
    **options: OptionValue,
) -> Result:
    """Find up to ``limit`` solutions (None: all) and report them with counters and time.

    >>> count_solutions("1... .... .... ....", "propagate").count  # 1 given in a 4x4: many
    2

    Args:
        puzzle: a Puzzle, text in any form :meth:`Puzzle.parse` reads (``"4.....8.5.3..."``),
            or N**2 digits (0 empty) as a sequence, N rows or a NumPy array; see
            :meth:`Puzzle.coerce`.
        method: registry name (default: the fastest available, see :func:`default_method`).
        limit: stop after this many solutions (None: all); 2 tells unique from multiple.
        time_limit: seconds of wall time for the whole call (None: no limit).
        node_limit: most search nodes (None: no limit).
        trace: ask the solver to record its per-step trace in ``result.stats.trace``.
        request: a prepared :class:`~sudokit.run.request.Request` instead of ``method``,
            ``limit``, ``time_limit``, ``node_limit``, ``trace`` and ``**options``.
        **options: method options (e.g. ``select="mrv"``).

    Returns:
        A Result: SOLVED with 1..limit verified solutions; UNSATISFIABLE when none exists
        (``message`` names a unit with a duplicate given, if that is why); UNKNOWN when a limit
        was hit first (``solutions`` holds those found so far).

    Raises:
        InvalidPuzzle: ``puzzle`` is text or digits that are not one valid puzzle.
        TypeError: ``puzzle`` is of no type above; or both ``request`` and method, limit or
            option arguments were given.
        UnknownMethod, MethodUnavailable, InvalidOption: bad method name or options.
        UnsupportedPuzzle: the method does not declare this grid size or variant.
        SolverBug: the method produced a grid that is not a solution.
    """
    puzzle = Puzzle.coerce(puzzle)
    request = _request(request, method, options, Limits(time_limit, node_limit), limit, trace,
                       puzzles=[puzzle])
    return run_request(puzzle, request)


def run_request(puzzle: Puzzle, request: Request) -> Result:
    """Run ``request`` on one puzzle: the one object path behind :func:`count_solutions` and
    :func:`solve` (timed, limits turned into ``Status.UNKNOWN``, every grid verified).

    A request with a hand-over (the default path, :mod:`sudokit.run.choice`) runs its method
    within the quick budget and, if that stopped it, the hand-over method with the rest of
    the time limit (``stats.extra["winner"]`` names it; ``seconds`` counts both).

    Raises:
        UnsupportedPuzzle, SolverBug: as :func:`count_solutions`.
    """
    if request.handover is not None:
        return _handed_over(puzzle, request)
    solver = _prepare(puzzle, request)
    stats = Stats.counting(solver.counters, trace=request.trace)
    start = time.perf_counter()
    conflicts = puzzle.conflicts()
    if conflicts:
        return Result(puzzle, Status.UNSATISFIABLE, (), solver.full_name,
                      time.perf_counter() - start, stats, request.count_limit, str(conflicts[0]))
    limits = request.limits.start()
    found, status, message = gather(solver.solutions(puzzle, stats, limits),
                                    lambda grid: verified(grid, puzzle, solver.full_name),
                                    request.count_limit)
    return Result(puzzle, status, tuple(found), solver.full_name,
                  time.perf_counter() - start, stats, request.count_limit, message)


def _handed_over(puzzle: Puzzle, request: Request) -> Result:
    """:func:`run_request` on the default path: the quick method, then the hand-over."""
    from .choice import left_after, quick_limits, stopped_by_budget, taker
    from .race import can_race, early_engine, race

    quick = quick_limits(request.limits)
    engine = None  # the hand-over's solver is asked only when it may be needed
    if quick is not None and request.count_limit and puzzle.geometry.constraints:
        engine = early_engine(puzzle, taker(request.handover, puzzle.geometry), request.limits,
                              request.count_limit)
    try:
        first = run_request(puzzle, replace(request, handover=None,
                                            limits=quick or request.limits))
        if quick is None or not stopped_by_budget(first.status, first.message):
            return first
        then = replace(request, method=taker(request.handover, puzzle.geometry), handover=None,
                       limits=left_after(request.limits, first.seconds))
        if request.count_limit and (engine is not None
                                    or can_race(then.method, puzzle.geometry, then.limits)):
            raced = race(puzzle, request.count_limit, then.limits, engine)
            stats = Stats.counting(())
            stats.extra["winner"] = raced.winner or "race"
            return Result(puzzle, raced.status, tuple(raced.grids), raced.winner or "race",
                          first.seconds + raced.seconds, stats, request.count_limit,
                          raced.message)
    finally:
        if engine is not None:
            engine.close()
    second = run_request(puzzle, then)
    second.stats.extra["winner"] = second.method
    return replace(second, seconds=first.seconds + second.seconds)


def solve(
    puzzle: PuzzleLike,
    method: str | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    trace: bool = False,
    request: Request | None = None,
    **options: OptionValue,
) -> Result:
    """Solve ``puzzle``: find one verified solution (see :func:`count_solutions` for details).

    ``puzzle`` is a Puzzle, puzzle text in any form, or N**2 digits (:meth:`Puzzle.coerce`):
    ``solve("4.....8.5.3...")`` works. ``request`` is as in :func:`count_solutions` (its count
    limit is not used: one solution is looked for).

    Returns:
        A :class:`Result`: ``status`` SOLVED (``solution``: the verified grid, N*N digits
        row-major; ``solution_text()`` in line form), UNSATISFIABLE (proved; ``message`` says
        why) or UNKNOWN (a limit was hit); ``stats`` holds the method's counters.

    Raises:
        As :func:`count_solutions`.

    >>> from sudokit.model.puzzle import Puzzle
    >>> r = solve(Puzzle.from_digits([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0]))
    >>> r.status.name, r.solution[-1]
    ('SOLVED', 1)
    """
    puzzle = Puzzle.coerce(puzzle)
    request = _request(request, method, options, Limits(time_limit, node_limit), 1, trace,
                       puzzles=[puzzle])
    return run_request(puzzle, replace(request, count_limit=1))


def solutions(
    puzzle: PuzzleLike,
    method: str | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    request: Request | None = None,
    **options: OptionValue,
) -> Iterator[Grid]:
    """Yield verified solutions lazily (all of them unless the caller stops).

    Contradictory givens yield nothing. ``puzzle`` (and ``request``) are read as in
    :func:`count_solutions`; a bad puzzle, method or option raises at the call, before the first
    solution is asked for.

    Returns:
        An iterator of verified solution grids (tuples of N*N digits, row-major).

    Raises:
        InvalidPuzzle, TypeError: ``puzzle`` is not a puzzle.
        UnknownMethod, MethodUnavailable, InvalidOption, UnsupportedPuzzle: as in
            :func:`count_solutions`.
        LimitReached: a limit was hit before the caller stopped (here the limit is not turned
            into a status, since there is no Result to carry it).
        SolverBug: as in :func:`count_solutions`.
    """
    puzzle = Puzzle.coerce(puzzle)
    request = _request(request, method, options, Limits(time_limit, node_limit), None)
    return _verified_solutions(puzzle, _prepare(puzzle, request), request.limits)


def _verified_solutions(puzzle: Puzzle, solver: Solver, limits: Limits) -> Iterator[Grid]:
    if puzzle.conflicts():
        return
    stats = Stats.counting(solver.counters)
    limits = limits.start()
    for grid in solver.solutions(puzzle, stats, limits):
        yield verified(grid, puzzle, solver.full_name)


def solve_many(
    puzzles: Sequence[Puzzle],
    method: str | None = None,
    *,
    count_limit: int = 1,
    time_limit: float | None = None,
    node_limit: int | None = None,
    request: Request | None = None,
    **options: OptionValue,
) -> list[Result]:
    """Solve (or count up to ``count_limit``) each puzzle; ``time_limit`` applies per puzzle.

    Puzzles are grouped by geometry and each group runs as one chunk through
    :func:`sudokit.run.chunk.solve_chunk` (one compiled call for a batch-capable method), verified
    on arrays. Results are in input order; ``seconds`` is each puzzle's own time. A prepared
    :class:`~sudokit.run.request.Request` may stand for ``method``, the limits and ``**options``.

    Returns:
        One :class:`Result` per puzzle, in input order.

    Raises:
        As :func:`count_solutions`.
    """
    from .chunk import kept_solutions, solve_chunk

    if not puzzles:
        return []
    request = _request(request, method, options, Limits(time_limit, node_limit), count_limit,
                       puzzles=puzzles)
    groups: dict[Geometry, list[int]] = {}
    for i, puzzle in enumerate(puzzles):
        groups.setdefault(puzzle.geometry, []).append(i)
    results: list[Result | None] = [None] * len(puzzles)
    for geometry, rows in groups.items():
        givens = np.array([puzzles[i].givens for i in rows], dtype=np.uint8)
        chunk = solve_chunk(givens, geometry, request, [puzzles[i] for i in rows])
        for j, i in enumerate(rows):
            results[i] = chunk.result(j, puzzles[i], kept_solutions(request))
    return results  # type: ignore[return-value]


def _array_task(task: tuple[np.ndarray, Geometry], request: Request) -> ChunkResult:
    from .chunk import solve_chunk

    return solve_chunk(task[0], task[1], request)


def _checked_array(array: np.ndarray, box: tuple[int, int] | None,
                   rules: Variant) -> tuple[np.ndarray, Geometry]:
    """The givens as contiguous ``uint8[M, N*N]`` and their geometry.

    Raises:
        ValueError: the row length is not the geometry's cell count, or a value is outside 0..N.
        InvalidPuzzle: the cell count is not that of ``box`` (or of a square grid up to 64x64).
    """
    geometry = Geometry.of(*box, rules) if box else Geometry.for_cells(array.shape[1], rules)
    if array.shape[1] != geometry.n_cells:
        raise ValueError(f"{geometry.shape_name} has {geometry.n_cells} cells, the rows have "
                         f"{array.shape[1]}")
    if array.size and ((array.dtype.kind != "u" and array.min() < 0)
                       or array.max() > geometry.side):
        raise ValueError(f"givens must be 0..{geometry.side} for {geometry.shape_name}")
    return np.ascontiguousarray(array, dtype=np.uint8), geometry


def solve_array(
    givens: ArrayLike,
    *,
    method: str | None = None,
    count_limit: int = 1,
    time_limit: float | None = None,
    node_limit: int | None = None,
    box: tuple[int, int] | None = None,
    jobs: int = 1,
    variant: Variant | str = Variant.STANDARD,
    request: Request | None = None,
    **options: OptionValue,
) -> ArrayResult:
    """Solve puzzles held as an array (Kaggle and machine-learning data) at engine speed.

    >>> import numpy as np
    >>> out = solve_array(np.zeros((2, 16), np.int64))
    >>> out.solutions.shape, out.status.tolist()
    ((2, 1, 16), [1, 1])
    >>> solve_array(np.zeros(16, np.int64)).solutions.shape       # one puzzle: M = 1
    (1, 1, 16)
    >>> solve_array(np.zeros((3, 4, 4), np.int64)).solutions.shape  # M grids of N rows
    (3, 1, 16)

    Args:
        givens: int array-like, 0 for an empty cell, 1..N a given; not modified. Shape
            [M, N*N] (one puzzle a row), [M, N, N] (M grids of N rows) or [N*N] (one puzzle,
            answered as M = 1).
        method: registry name (default: the fastest available, see :func:`default_method`).
        count_limit: solutions to look for per puzzle (2 tells unique from multiple).
        time_limit: seconds per puzzle (None: no limit).
        node_limit: search nodes per puzzle (None: no limit).
        box: box shape ``(rows, cols)`` (default: square boxes from the cell count).
        jobs: worker threads (processes for methods that hold the GIL); chunks of 4,096 rows.
        variant: the rules, a :class:`~sudokit.model.constraints.Variant` or its name: ``"standard"``,
            or ``"diagonal"`` (Sudoku X: both main diagonals are units too).
        request: a prepared :class:`~sudokit.run.request.Request` (its variant's whole-grid
            rules apply) instead of ``method``, the limits, ``variant`` and ``**options``.
        **options: method options.

    Returns:
        An :class:`ArrayResult` of M rows whatever the input's shape: ``solutions``
        uint8[M, count_limit, N*N] (row-major cells), ``status`` int8[M] (:class:`Status`
        codes), ``found`` int32[M], ``seconds`` float64[M]. Every solution is verified
        against its givens and every unit.

    Raises:
        ValueError: ``givens`` is not of one of the shapes above, or holds a value outside
            0..N; no variant has the name ``variant``.
        InvalidPuzzle: the cell count is not that of ``box`` (or of a square grid up to 64x64).
        UnknownMethod, MethodUnavailable, InvalidOption, UnsupportedPuzzle: as :func:`solve`.
        SolverBug: a method returned a wrong grid.
    """
    from .batch import run_tasks, uses_processes
    from .chunk import kept_solutions

    array = _rows(givens)
    request = _request(request, method, options, Limits(time_limit, node_limit), count_limit,
                       variant=Variant(variant))
    array, geometry = _checked_array(array, box, request.variant.rules)
    parts = [(array[i:i + 4096], geometry) for i in range(0, len(array), 4096)]
    remote = uses_processes(request.solver(), jobs, None)
    chunks = list(run_tasks(_array_task, parts, request, jobs=jobs, remote=remote))
    return _joined(chunks, kept_solutions(request), geometry.n_cells)


def _rows(givens: ArrayLike) -> np.ndarray:
    """``givens`` as an [M, N*N] array: one puzzle [N*N] is one row, grids [M, N, N] are
    flattened row-major (a view where NumPy can).

    Raises:
        ValueError: any other shape.
    """
    array = np.asarray(givens)
    if array.ndim == 1:
        return array.reshape(1, -1)
    if array.ndim == 3 and array.shape[1] == array.shape[2]:
        return array.reshape(len(array), -1)
    if array.ndim != 2:
        raise ValueError("expected givens of shape [M, N*N], [M, N, N] or [N*N], got shape "
                         f"{array.shape}")
    return array


def _joined(chunks: Sequence[ChunkResult], count_limit: int, n_cells: int) -> ArrayResult:
    """The chunks' arrays end to end, in order (empty arrays of the right shapes for none)."""
    if not chunks:
        empty = np.zeros((0,), np.int8)
        return ArrayResult(np.zeros((0, count_limit, n_cells), np.uint8), empty,
                           empty.astype(np.int32), empty.astype(np.float64))
    if len(chunks) == 1:  # one chunk (up to 4,096 puzzles): its arrays as they are
        one = chunks[0]
        return ArrayResult(one.grids, one.labels(), one.found, one.seconds)
    return ArrayResult(np.concatenate([c.grids for c in chunks]),
                       np.concatenate([c.labels() for c in chunks]),
                       np.concatenate([c.found for c in chunks]),
                       np.concatenate([c.seconds for c in chunks]))
