"""Streaming, ordered, chunked batch solving of a stream of puzzle records.

Records are read lazily, solved in chunks of the method's ``chunk_size`` through
:func:`sudokit.api.solve_many` (one compiled call per chunk for batch-capable methods), and
yielded in input order as soon as a record and all before it are done, so a caller that writes
and flushes each one leaves only complete records behind if interrupted. With ``jobs > 1``,
chunks run on a pool (threads when the method declares ``releases_gil``, processes otherwise),
with at most ``2 * jobs`` chunks in flight: memory stays constant in the stream length.

One bad puzzle becomes one ``invalid`` outcome and never stops the stream; an exception a method
raises on one puzzle becomes an ``invalid`` outcome naming it, except :class:`SolverBug`, which
always propagates (a wrong grid must never be hidden).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .api import count_solutions, default_method, solve_many
from .errors import MethodUnavailable, SolverBug
from .formats import Record
from .puzzle import Grid, is_solution, violations
from .registry import get_solver
from .result import Result, Status

__all__ = ["Outcome", "Label", "solve_records", "solve_chunk", "check_expected"]

_PROCESS_TASK = 32
"""Fewest puzzles per task sent to a worker process."""


class Label(Enum):
    """The status word of one output record."""

    SOLVED = "solved"
    MULTIPLE = "multiple"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"
    INVALID = "invalid"


@dataclass(frozen=True)
class Outcome:
    """What happened to one input record.

    Attributes:
        record: the input record (its source, line, puzzle or parse error).
        label: solved, multiple, unsolvable, timeout or invalid.
        result: the solver's result; None for invalid input or a method failure.
        error: a parse error, a method failure, a solution that differs from the file's, or the
            reason for unsolvable/timeout; None when all is well.
    """

    record: Record
    label: Label
    result: Result | None = None
    error: str | None = None

    @property
    def solution(self) -> Grid | None:
        """The first solution found (also for ``multiple``), or None."""
        return self.result.solution if self.result else None

    @property
    def ok(self) -> bool:
        """True when solved (uniquely, if uniqueness was asked) and matching any expectation."""
        return self.label is Label.SOLVED and self.error is None


def check_expected(record: Record, result: Result) -> str | None:
    """Compare a result with the solution and count written in the input; None when they agree.

    Returns:
        A message naming the difference (e.g. the first cell where the solutions differ, and
        whether the file's solution is itself valid), or None.
    """
    found = result.solution
    if record.expected is not None and found is not None and found != record.expected:
        g = result.puzzle.geometry
        cell = next(c for c, (a, b) in enumerate(zip(found, record.expected)) if a != b)
        where = f"at {g.label(cell)} (file {record.expected[cell]}, found {found[cell]})"
        if is_solution(record.expected, result.puzzle):
            return f"differs from the file's solution {where}; both are valid: several solutions"
        problem = violations(record.expected, result.puzzle)[0]
        return f"differs from the file's solution {where}; the file's is wrong: {problem}"
    expected = record.expected_count
    if expected is None or result.status is Status.UNKNOWN:
        return None
    counted = min(result.count, result.count_limit or result.count)
    if min(expected, result.count_limit or expected) != counted:
        limit = result.count_limit
        return f"found {result.count} solution(s) (limit {limit}); file says {expected}"
    return None


def _outcome(record: Record, result: Result) -> Outcome:
    label = Label(result.label)
    error = check_expected(record, result)
    if error is None and result.status is not Status.SOLVED:
        error = result.message
    return Outcome(record, label, result, error)


def _failure(record: Record, exc: Exception, method: str) -> Outcome:
    return Outcome(record, Label.INVALID, None,
                   f"method {method!r} failed: {type(exc).__name__}: {exc}")


def solve_chunk(records: Sequence[Record], method: str, settings: dict[str, Any]) -> list[Outcome]:
    """Solve one chunk of records (a pool task); results in input order.

    Raises:
        SolverBug: a method returned a wrong grid.
    """
    valid = [r for r in records if r.puzzle is not None]
    try:
        results = iter(solve_many([r.puzzle for r in valid], method, **settings))
    except SolverBug:
        raise
    except Exception:  # noqa: BLE001 - retried one by one to isolate the failing puzzle
        results = None
    out = []
    for record in records:
        if record.puzzle is None:
            out.append(Outcome(record, Label.INVALID, None, str(record.error)))
        elif results is not None:
            out.append(_outcome(record, next(results)))
        else:
            out.append(_solve_one(record, method, settings))
    return out


def _solve_one(record: Record, method: str, settings: dict[str, Any]) -> Outcome:
    limit = settings.get("count_limit", 1)
    rest = {k: v for k, v in settings.items() if k != "count_limit"}
    try:
        return _outcome(record, count_solutions(record.puzzle, method, limit=limit, **rest))
    except SolverBug:
        raise
    except Exception as exc:  # noqa: BLE001 - one failing puzzle must not stop the batch
        return _failure(record, exc, method)


def solve_records(
    records: Iterable[Record],
    method: str | None = None,
    *,
    count_limit: int = 1,
    time_limit: float | None = None,
    node_limit: int | None = None,
    jobs: int = 1,
    dask: str | None = None,
    **options: Any,
) -> Iterator[Outcome]:
    """Solve a stream of records lazily, yielding one Outcome per record in input order.

    Args:
        records: parsed input (e.g. from :func:`sudokit.formats.read_puzzles`), consumed lazily.
        method: registry name (default: :func:`sudokit.api.default_method`).
        count_limit: 1 to solve, 2 to check uniqueness (``multiple`` when 2 are found).
        time_limit: seconds per puzzle (None: no limit); a puzzle over it is ``timeout``.
        node_limit: search nodes per puzzle (None: no limit).
        jobs: parallel workers over chunks (1: in this thread).
        dask: run chunks on a Dask cluster instead: a scheduler address
            (``"tcp://host:8786"``) or ``"local"`` for a local cluster of ``jobs`` worker
            processes (needs ``pip install 'sudokit[dask]'``).
        **options: method options (e.g. ``select="mrv"``).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: bad method or options (before any work).
        SolverBug: a method returned a wrong grid (never hidden in a record).
        MethodUnavailable: ``dask`` is set but Dask's ``distributed`` is not installed.
    """
    method = method or default_method()
    solver = get_solver(method, **options)
    settings = dict(options, count_limit=count_limit, time_limit=time_limit,
                    node_limit=node_limit)
    size = max(1, solver.chunk_size)
    remote = dask is not None or (jobs > 1 and not solver.releases_gil)
    if remote:
        size = max(size, _PROCESS_TASK)  # amortise pickling and inter-process round trips
    chunks = _chunks(records, size)
    if dask is None and jobs <= 1:
        for chunk in chunks:
            yield from solve_chunk(chunk, method, settings)
        return
    with _executor(jobs, remote, dask) as pool:
        yield from _ordered(pool, chunks, method, settings, 2 * max(jobs, 2))


@contextmanager
def _executor(jobs: int, remote: bool, dask: str | None) -> Iterator[Executor]:
    """Threads, processes, or a Dask cluster (the policy; solvers never see it)."""
    if dask is not None:
        with _dask_executor(dask, jobs) as pool:
            yield pool
        return
    with (ProcessPoolExecutor if remote else ThreadPoolExecutor)(max_workers=jobs) as pool:
        yield pool


@contextmanager
def _dask_executor(address: str, jobs: int) -> Iterator[Executor]:
    """A concurrent.futures executor over a Dask cluster (a local one for ``"local"``)."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise MethodUnavailable(
            "--dask needs Dask's distributed scheduler: pip install 'sudokit[dask]'") from exc
    if address == "local":
        client = Client(n_workers=max(jobs, 1), threads_per_worker=1, dashboard_address=None)
    else:
        client = Client(address)
    try:
        yield client.get_executor()
    finally:
        client.close()


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    iterator = iter(records)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _ordered(pool: Executor, chunks: Iterator[list[Record]], method: str,
             settings: dict[str, Any], in_flight: int) -> Iterator[Outcome]:
    """Run chunks on ``pool`` with at most ``in_flight`` pending; yield results in order."""
    pending: deque[Future[list[Outcome]]] = deque()
    try:
        for chunk in chunks:
            pending.append(pool.submit(solve_chunk, chunk, method, settings))
            if len(pending) >= in_flight:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
