"""The array path: a typed request, chunk results as arrays, and their verification.

A chunk is many puzzles of one geometry held as ``uint8[M, N*N]`` givens. It travels as arrays
from decoding to encoding: :func:`solve_chunk` runs a method on the whole chunk (one compiled
call for a batch-capable method, a loop over :meth:`Solver.solutions` otherwise), checks every
grid on arrays (:func:`sudokit.puzzle.solves`), and returns a :class:`ChunkResult`.
Per-puzzle objects (:class:`~sudokit.result.Result`, :class:`~sudokit.result.Stats`) are built
only when a caller asks for them (:meth:`ChunkResult.result`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from .errors import SolverBug, UnsupportedPuzzle
from .geometry import Geometry
from .puzzle import Puzzle, has_duplicate_givens, solves, violations
from .result import COUNTERS, Limits, Result, Stats, Status, gather

__all__ = ["Request", "ChunkResult", "solve_chunk", "empty_result"]


@dataclass(frozen=True)
class Request:
    """What to run on every puzzle of a batch: one typed value instead of option dicts.

    Attributes:
        method: a registry name, resolved once (``"fast"``, ``"sat:cadical195"``).
        options: method options (``{"select": "mrv"}``); limits never travel here.
        limits: the time limit (seconds) and node limit, each per puzzle.
        count_limit: solutions to look for per puzzle (1 solves, 2 tells unique from multiple).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: from :meth:`solver` (and so from
            :meth:`checked`) for a bad name or option.
    """

    method: str
    options: Mapping[str, Any] = field(default_factory=dict)
    limits: Limits = Limits()
    count_limit: int = 1

    @classmethod
    def build(cls, method: str | None = None, options: Mapping[str, Any] | None = None,
              limits: Limits = Limits(), count_limit: int = 1) -> Request:
        """A checked request; ``method`` None is the fastest available
        (:func:`sudokit.api.default_method`).

        Raises:
            UnknownMethod, MethodUnavailable, InvalidOption: a bad name or option.
        """
        from .api import default_method

        return cls(method or default_method(), dict(options or {}), limits,
                   count_limit).checked()

    def solver(self) -> Any:
        """The solver instance (cached per request: the name is resolved once)."""
        return _solver(self.method, tuple(sorted(self.options.items())))

    def checked(self) -> Request:
        """Resolve the method now, so a bad name or option fails before any work; return self."""
        self.solver()
        return self


@cache
def _solver(method: str, options: tuple[tuple[str, Any], ...]) -> Any:
    from .registry import get_solver

    return get_solver(method, **dict(options))


@dataclass(frozen=True)
class ChunkResult:
    """The outcome of a chunk of M puzzles, as arrays.

    Attributes:
        grids: uint8[M, K, N*N] solutions (K = count limit); ``grids[i, j]`` is valid for
            ``j < found[i]``, zeros after.
        found: int32[M] solutions found per puzzle (at most K).
        status: int8[M] :class:`~sudokit.result.Status` codes: SOLVED, UNSATISFIABLE (proved)
            or UNKNOWN (a limit was hit).
        counters: int64[M, C] counter values, columns named by ``counter_names``.
        counter_names: names of the counters measured (:data:`~sudokit.result.COUNTERS` first,
            then method-specific extras).
        seconds: float64[M] wall time per puzzle, in seconds.
        method: the method's full name.
        messages: row -> why it is UNSATISFIABLE or UNKNOWN, when there is something to say
            (the unit holding a duplicate given, which limit was hit).
        extras: row -> the method's own counters beyond the columns (e.g. steps per technique
            of ``logic``), for methods solved one puzzle at a time.
    """

    grids: np.ndarray
    found: np.ndarray
    status: np.ndarray
    counters: np.ndarray
    counter_names: tuple[str, ...]
    seconds: np.ndarray
    method: str
    messages: dict[int, str] = field(default_factory=dict)
    extras: dict[int, dict[str, Any]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.status)

    def labels(self) -> np.ndarray:
        """int8[M] record statuses: MULTIPLE where two or more solutions were found, else
        ``status``."""
        return np.where(self.found >= 2, np.int8(Status.MULTIPLE), self.status).astype(np.int8)

    def stats(self, row: int) -> Stats:
        """The counters of one puzzle as a :class:`Stats` (unmeasured counters stay None)."""
        stats = Stats.counting([n for n in self.counter_names if n in COUNTERS])
        for name, value in zip(self.counter_names, self.counters[row].tolist()):
            if name in COUNTERS:
                setattr(stats, name, value)
            else:
                stats.extra[name] = value
        stats.extra.update(self.extras.get(row, {}))
        return stats

    def result(self, row: int, puzzle: Puzzle, count_limit: int) -> Result:
        """The :class:`Result` of one puzzle (built on request; grids already verified)."""
        grids = tuple(tuple(g) for g in self.grids[row, :self.found[row]].tolist())
        return Result(puzzle, Status(int(self.status[row])), grids, self.method,
                      float(self.seconds[row]), self.stats(row), count_limit,
                      self.messages.get(row))


def empty_result(m: int, n_cells: int, count_limit: int, names: tuple[str, ...],
                 method: str) -> ChunkResult:
    """A ChunkResult of ``m`` rows, all UNSATISFIABLE with nothing found, to be filled in."""
    return ChunkResult(np.zeros((m, count_limit, n_cells), np.uint8), np.zeros(m, np.int32),
                       np.zeros(m, np.int8), np.zeros((m, len(names)), np.int64), names,
                       np.zeros(m, np.float64), method, {})


def _name_conflicts(chunk: ChunkResult, givens: np.ndarray, geometry: Geometry,
                    rows: np.ndarray) -> None:
    """Name the unit with a duplicate given for each of ``rows`` that has one (in messages)."""
    if not len(rows):
        return
    for row in rows[has_duplicate_givens(givens[rows], geometry)].tolist():
        conflicts = Puzzle(geometry, tuple(givens[row].tolist())).conflicts()
        chunk.messages[row] = str(conflicts[0])


def _verify(chunk: ChunkResult, givens: np.ndarray, geometry: Geometry) -> None:
    """Check every grid of the chunk; a wrong one raises SolverBug naming it."""
    k = chunk.grids.shape[1]
    mask = np.arange(k) < chunk.found[:, None]
    if not mask.any():
        return
    if mask.all() and k == 1:  # the usual chunk: every puzzle solved once, no copies
        owners, grids = np.arange(len(givens)), chunk.grids[:, 0]
        ok = _solves(grids, givens, geometry)
    else:
        owners = np.nonzero(mask)[0]
        grids = chunk.grids[mask]
        ok = _solves(grids, givens[owners], geometry)
    for bad in np.flatnonzero(~ok).tolist():
        puzzle = Puzzle(geometry, tuple(givens[owners[bad]].tolist()))
        problems = violations(tuple(grids[bad].tolist()), puzzle)
        raise SolverBug(f"method {chunk.method!r} returned a wrong grid for puzzle "
                        f"{owners[bad]} of the chunk: {'; '.join(problems[:3])}")


def _solves(grids: np.ndarray, givens: np.ndarray, geometry: Geometry) -> np.ndarray:
    """:func:`sudokit.puzzle.solves`, in compiled code once the compiled engine is loaded
    (:mod:`sudokit.fast.verify`; never loaded for this alone)."""
    if "sudokit.fast" in sys.modules:
        from .fast.verify import solves as compiled

        return compiled(grids, givens, geometry)
    return solves(grids, givens, geometry)


def _one_by_one(solver: Any, givens: np.ndarray, geometry: Geometry, request: Request,
                puzzles: Sequence[Puzzle] | None) -> ChunkResult:
    """Run a method that has no chunk path puzzle by puzzle, filling the arrays."""
    names = tuple(n for n in COUNTERS if n in solver.counters)
    solver.warm_up(geometry)  # one-time compiling or loading is not part of a time limit
    chunk = empty_result(len(givens), geometry.n_cells, request.count_limit, names,
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
    """A converter of a method's grid to uint8[N*N] (values are checked by verification)."""
    def convert(grid: Any) -> np.ndarray:
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

    Returns:
        A :class:`ChunkResult` in input order. Puzzles with a digit given twice in a unit are
        UNSATISFIABLE with a message naming the unit.

    Raises:
        UnsupportedPuzzle: the method does not declare this grid size or variant.
        SolverBug: a method returned a grid that does not solve its puzzle.
    """
    solver = request.solver()
    if not solver.supports(geometry):
        raise UnsupportedPuzzle(
            f"method {solver.full_name!r} does not support {geometry.shape_name} grids "
            f"(sides {solver.min_side}..{solver.max_side})")
    givens = np.ascontiguousarray(givens, dtype=np.uint8)
    chunk = solver.solve_chunk(givens, geometry, request.limits, request.count_limit)
    if chunk is None:
        chunk = _one_by_one(solver, givens, geometry, request, puzzles)
    _verify(chunk, givens, geometry)
    _name_conflicts(chunk, givens, geometry,
                    np.flatnonzero(chunk.status == Status.UNSATISFIABLE))
    return chunk
