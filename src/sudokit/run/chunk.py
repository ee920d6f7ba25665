"""The array path: a typed request, chunk results as arrays, and their verification.

A chunk is many puzzles of one geometry held as ``uint8[M, N*N]`` givens. It travels as arrays
from decoding to encoding: :func:`solve_chunk` runs a method on the whole chunk (one compiled
call for a batch-capable method, a loop over :meth:`Solver.solutions` otherwise), checks every
grid on arrays (:func:`sudokit.model.puzzle.solves`), and returns a :class:`ChunkResult`.
Per-puzzle objects (:class:`~sudokit.model.result.Result`, :class:`~sudokit.model.result.Stats`) are built
only when a caller asks for them (:meth:`ChunkResult.result`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiled import Kernels, twin, use_compiled
from ..errors import InvalidOption, SolverBug, UnsupportedPuzzle
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle, has_duplicate_givens, solves, violations
from ..model.result import COUNTERS, ChunkResult, Stats, Status, empty_result, gather
from .request import Request

if TYPE_CHECKING:
    from ..solvers.base import Solver
    from .race import Raced

__all__ = ["grids_solve", "kept_solutions", "solve_chunk"]


def _name_conflicts(chunk: ChunkResult, givens: np.ndarray, geometry: Geometry,
                    rows: np.ndarray) -> None:
    """Name the unit with a duplicate given for each of ``rows`` that has one (in messages)."""
    if not len(rows):
        return
    for row in rows[has_duplicate_givens(givens[rows], geometry)].tolist():
        conflicts = Puzzle(geometry, tuple(givens[row].tolist())).conflicts()
        chunk.messages[row] = str(conflicts[0])


def kept_solutions(request: Request) -> int:
    """The solutions per puzzle the array path keeps room for (its arrays have that many
    columns).

    Raises:
        InvalidOption: ``request`` asks for every solution (no count limit).
    """
    if request.count_limit is None:
        raise InvalidOption("the array path needs a count limit (solutions per puzzle), "
                            "got none")
    return request.count_limit


def _verify(chunk: ChunkResult, givens: np.ndarray, geometry: Geometry) -> None:
    """Check every grid of the chunk (as :func:`grids_solve`); a wrong one raises SolverBug
    naming it."""
    k = chunk.grids.shape[1]
    mask = np.arange(k) < chunk.found[:, None]
    if not mask.any():
        return
    if mask.all() and k == 1:  # the usual chunk: every puzzle solved once, no copies
        owners, grids = np.arange(len(givens)), chunk.grids[:, 0]
        ok = grids_solve(grids, givens, geometry)
    else:
        owners = np.nonzero(mask)[0]
        grids = chunk.grids[mask]
        ok = grids_solve(grids, givens[owners], geometry)
    for bad in np.flatnonzero(~ok).tolist():
        puzzle = Puzzle(geometry, tuple(givens[owners[bad]].tolist()))
        problems = violations(tuple(grids[bad].tolist()), puzzle)
        raise SolverBug(f"method {chunk.method!r} returned a wrong grid for puzzle "
                        f"{owners[bad]} of the chunk: {'; '.join(problems[:3])}")


@twin(Kernels.VERIFY, "sudokit.fast.verify:solves", "sudokit.model.puzzle:solves", "grids")
def grids_solve(grids: np.ndarray, givens: np.ndarray, geometry: Geometry) -> np.ndarray:
    """:func:`sudokit.model.puzzle.solves`, in compiled code (:mod:`sudokit.fast.verify`)
    where :func:`sudokit.compiled.use_compiled` says so: once a method of the compiled engine
    loaded it (never loaded for this alone: a method answering in Python, as on a first use
    while the kernels compile, is checked in Python)."""
    if use_compiled(Kernels.VERIFY):
        from ..fast.verify import solves as compiled

        return compiled(grids, givens, geometry)
    return solves(grids, givens, geometry)


def _one_by_one(solver: Solver, givens: np.ndarray, geometry: Geometry, request: Request,
                puzzles: Sequence[Puzzle] | None) -> ChunkResult:
    """Run a method that has no chunk path puzzle by puzzle, filling the arrays."""
    names = tuple(n for n in COUNTERS if n in solver.counters)
    solver.warm_up(geometry)  # one-time compiling or loading is not part of a time limit
    chunk = empty_result(len(givens), geometry.n_cells, kept_solutions(request), names,
                         solver.full_name)
    duplicated = has_duplicate_givens(givens, geometry)
    for row in range(len(givens)):
        if duplicated[row]:
            continue  # UNSATISFIABLE; named below
        start = time.perf_counter()
        puzzle = puzzles[row] if puzzles else Puzzle(geometry, tuple(givens[row].tolist()))
        stats = Stats.counting(solver.counters)
        found, status, message = gather(solver.solutions(puzzle, stats, request.limits.start()),
                                        _as_array(geometry), request.count_limit)
        chunk.seconds[row] = time.perf_counter() - start
        chunk.status[row], chunk.found[row] = status, len(found)
        for j, grid in enumerate(found):
            chunk.grids[row, j] = grid
        chunk.counters[row] = [getattr(stats, n) or 0 for n in names]
        if stats.extra:
            chunk.extras[row] = dict(stats.extra)
        if message:
            chunk.messages[row] = message
    return chunk


def _as_array(geometry: Geometry) -> Any:
    """A converter of a method's grid (a sequence of N*N ints) to uint8[N*N] (values are
    checked by verification); Any: :func:`~sudokit.model.result.gather` types its ``verify``
    as returning the solution's own type."""
    def convert(grid: object) -> np.ndarray:
        array = np.asarray(grid, dtype=np.int64)
        if array.shape != (geometry.n_cells,) or array.min() < 0 or array.max() > 255:
            raise SolverBug(f"a method returned a grid of shape {array.shape} or with values "
                            f"outside 0..255, expected {geometry.n_cells} digits")
        return array.astype(np.uint8)
    return convert


def solve_chunk(givens: np.ndarray, geometry: Geometry, request: Request,
                puzzles: Sequence[Puzzle] | None = None) -> ChunkResult:
    """Solve (or count up to ``request.count_limit``) every puzzle of a chunk; verify every grid.

    Args:
        givens: uint8[M, N*N] givens (0 empty, 1..N given), one geometry; not modified.
        geometry: the grid of every puzzle.
        request: method, options, per-puzzle limits and count limit.
        puzzles: the same puzzles as objects, if the caller has them (a method without a chunk
            path then sees their source and line).

    A request with a :attr:`~sudokit.run.request.Request.handover` (the default path of
    :mod:`sudokit.run.choice`) runs its method within
    :data:`~sudokit.run.choice.QUICK_SECONDS` per puzzle, and each puzzle it has not finished
    then goes to the hand-over method with the rest of its time limit (``extras`` names it:
    ``{"winner": METHOD}``).

    Returns:
        A :class:`ChunkResult` in input order. Puzzles with a digit given twice in a unit are
        UNSATISFIABLE with a message naming the unit.

    Raises:
        UnsupportedPuzzle: the method does not declare this grid size or variant.
        SolverBug: a method returned a grid that does not solve its puzzle.
    """
    if request.handover is not None:
        return _handed_over(givens, geometry, request, puzzles)
    solver: Solver = request.solver()
    if not solver.supports(geometry):
        raise UnsupportedPuzzle(
            f"method {solver.full_name!r} does not support {geometry.shape_name} grids "
            f"(sides {solver.min_side}..{solver.max_side})")
    givens = np.ascontiguousarray(givens, dtype=np.uint8)
    chunk = solver.solve_chunk(givens, geometry, request.limits, kept_solutions(request))
    if chunk is None:
        chunk = _one_by_one(solver, givens, geometry, request, puzzles)
    else:  # only the compiled engine's methods have a chunk path: it verifies compiled
        from ..fast import verify  # noqa: F401  (loads the verification's kernels)
    _verify(chunk, givens, geometry)
    _name_conflicts(chunk, givens, geometry,
                    np.flatnonzero(chunk.status == Status.UNSATISFIABLE))
    if request.stop_note is not None:
        _note_stops(chunk, request.stop_note)
    return chunk


def _note_stops(chunk: ChunkResult, note: str) -> None:
    """Word each puzzle the time limit stopped with ``note`` (what really happened)."""
    from .choice import stopped_by_budget

    for row, status in enumerate(chunk.status.tolist()):
        if stopped_by_budget(status, chunk.messages.get(row)):
            chunk.messages[row] = note


def _handed_over(givens: np.ndarray, geometry: Geometry, request: Request,
                 puzzles: Sequence[Puzzle] | None) -> ChunkResult:
    """Run ``request``'s method within the quick budget, then its hand-over method on each
    puzzle the budget stopped (see :func:`solve_chunk`)."""
    from dataclasses import replace

    from .choice import left_after, quick_limits, stopped_by_budget, taker
    from .race import can_race, early_engine, race

    limits, quick = request.limits, quick_limits(request.limits)
    engine = None
    if quick is not None and len(givens) == 1 and geometry.constraints:  # may start at once
        engine = early_engine(_puzzle(givens, geometry, puzzles, 0),
                              taker(request.handover, geometry), limits, kept_solutions(request))
    try:
        chunk = solve_chunk(givens, geometry, replace(request, handover=None,
                                                      limits=quick or limits), puzzles)
        over = [row for row, status in enumerate(chunk.status.tolist())
                if stopped_by_budget(status, chunk.messages.get(row))]
        if quick is None or not over:
            return chunk  # (the hand-over's solver, SAT's modules, never loaded)
        then = replace(request, method=taker(request.handover, geometry), handover=None)
        racing = engine is not None or can_race(then.method, geometry, limits)
        for row in over:
            left = left_after(limits, float(chunk.seconds[row]))
            if racing:
                _raced_row(chunk, row, race(_puzzle(givens, geometry, puzzles, row),
                                            kept_solutions(request), left, engine))
                continue
            _then_row(chunk, row, givens, geometry, replace(then, limits=left), puzzles)
        return chunk
    finally:
        if engine is not None:
            engine.close()


def _puzzle(givens: np.ndarray, geometry: Geometry, puzzles: Sequence[Puzzle] | None,
            row: int) -> Puzzle:
    """The puzzle of ``row``: from ``puzzles`` if given, else built from its givens."""
    return Puzzle(geometry, tuple(givens[row].tolist())) if puzzles is None else puzzles[row]


def _then_row(chunk: ChunkResult, row: int, givens: np.ndarray, geometry: Geometry,
              then: Request, puzzles: Sequence[Puzzle] | None) -> None:
    """Put the hand-over method's answer (``then``, not raced) on ``row`` in ``chunk``."""
    more = solve_chunk(givens[row:row + 1], geometry, then,
                       None if puzzles is None else [puzzles[row]])
    chunk.grids[row], chunk.found[row], chunk.status[row] = (more.grids[0], more.found[0],
                                                             more.status[0])
    chunk.seconds[row] += more.seconds[0]
    chunk.messages.pop(row, None)
    if 0 in more.messages:
        chunk.messages[row] = more.messages[0]
    chunk.extras[row] = {**more.extras.get(0, {}), "winner": more.method}


def _raced_row(chunk: ChunkResult, row: int, raced: Raced) -> None:
    """Put a hand-over race's outcome (:func:`sudokit.run.race.race`) in ``chunk``'s ``row``."""
    chunk.grids[row] = 0
    for column, grid in enumerate(raced.grids):
        chunk.grids[row, column] = grid
    chunk.found[row], chunk.status[row] = len(raced.grids), raced.status
    chunk.seconds[row] += raced.seconds
    chunk.messages.pop(row, None)
    if raced.message is not None:
        chunk.messages[row] = raced.message
    chunk.extras[row] = {"winner": raced.winner or "race"}
