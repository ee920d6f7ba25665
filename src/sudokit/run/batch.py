"""Streaming, ordered, chunked batch solving: the policy of parallel work.

Two kinds of task share one runner (:func:`run_tasks`): a chunk of
:class:`~sudokit.formats.Record` objects (the object path: any input form, any output form) and a
:class:`~sudokit.formats.lineform.LineChunk` (the array path of line-form records, written as bytes; see
:mod:`sudokit.run.pipeline`). Results come back in input order as soon as a task and all before it are
done, so a caller that writes and flushes each leaves only complete records behind if
interrupted. With ``jobs > 1`` tasks run on a pool (threads when the method declares
``releases_gil``, processes otherwise, or a Dask cluster) with at most ``2 * jobs`` in flight:
memory stays constant in the stream length. With several workers, task sizes start at one
puzzle and follow the measured time per puzzle (:class:`TaskSizes`), so the first record comes
early and every worker has work.

One bad puzzle becomes one ``invalid`` outcome and never stops the stream; an exception a method
raises on one puzzle becomes an ``invalid`` outcome naming it, except :class:`SolverBug`, which
always propagates (a wrong grid must never be hidden).
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from ..errors import InvalidOption, MethodUnavailable, SolverBug, SudokuError
from ..formats.lines import Record
from ..model.puzzle import Grid, is_solution, violations
from ..model.result import Limits, Result, Status

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from ..model.geometry import Geometry
    from ..model.puzzle import Puzzle
    from ..registry import OptionValue
    from ..solvers.base import Solver
    from .request import Request

T = TypeVar("T")
C = TypeVar("C")
R = TypeVar("R")
Q = TypeVar("Q")

__all__ = ["RecordResult", "solve_records", "solve_record_chunk", "check_expected", "run_tasks",
           "sizes_for", "uses_processes", "in_sizes", "TaskSizes"]

_PROCESS_TASK = 32
"""Most puzzles per task sent to a worker process (fewer at first)."""

@dataclass(frozen=True)
class RecordResult:
    """What happened to one input record.

    Attributes:
        record: the input record (its source, line, puzzle or parse error).
        label: the record status: SOLVED, MULTIPLE, UNSATISFIABLE, UNKNOWN or INVALID.
        result: the solver's result; None for invalid input or a method failure.
        error: a parse error, a method failure, a solution that differs from the file's, or the
            reason for unsolvable/timeout; None when all is well.
    """

    record: Record
    label: Status
    result: Result | None = None
    error: str | None = None

    @property
    def solution(self) -> Grid | None:
        """The first solution found (also for ``multiple``), or None."""
        return self.result.solution if self.result else None

    @property
    def ok(self) -> bool:
        """True when solved (uniquely, if uniqueness was asked) and matching any expectation."""
        return self.label is Status.SOLVED and self.error is None


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


def _record_result(record: Record, result: Result) -> RecordResult:
    label = result.label
    error = check_expected(record, result)
    if error is None and result.status is not Status.SOLVED:
        error = result.message
    return RecordResult(record, label, result, error)


def _failure(record: Record, exc: Exception, method: str) -> RecordResult:
    # a SudokuError's message is for the user; anything else is a bug and names its type
    why = str(exc) if isinstance(exc, SudokuError) else f"{type(exc).__name__}: {exc}"
    return RecordResult(record, Status.INVALID, None, f"method {method!r} failed: {why}")


def solve_record_chunk(records: Sequence[Record], request: Request) -> list[RecordResult]:
    """Solve one chunk of records (a pool task) with a :class:`~sudokit.run.request.Request`;
    outcomes in input order.

    Valid puzzles are grouped by geometry and solved as arrays (:func:`sudokit.run.chunk.solve_chunk`);
    if a method fails on a group, its puzzles are retried one by one so that the failure is
    pinned on one record (``invalid``, naming the method and the error).

    Raises:
        SolverBug: a method returned a wrong grid.
    """
    out: list[RecordResult | None] = [None] * len(records)
    groups: dict[Geometry, list[int]] = {}
    for i, record in enumerate(records):
        if record.puzzle is None:
            out[i] = RecordResult(record, Status.INVALID, None, str(record.error))
        else:
            groups.setdefault(record.puzzle.geometry, []).append(i)
    for rows in groups.values():
        group = [records[i] for i in rows]
        try:
            outcomes = _solve_group(group, request)
        except SolverBug:
            raise
        except Exception:  # noqa: BLE001 - retried one by one to isolate the failing puzzle
            outcomes = [_solve_one(record, request) for record in group]
        for i, outcome in zip(rows, outcomes):
            out[i] = outcome
    return out  # type: ignore[return-value]


def _solve_group(records: Sequence[Record], request: Request) -> list[RecordResult]:
    """Solve valid records of one geometry as one array chunk; outcomes in order."""
    import numpy as np

    from .chunk import kept_solutions
    from .chunk import solve_chunk as solve_arrays

    puzzles: list[Puzzle] = []
    for record in records:
        assert record.puzzle is not None, "solve_record_chunk groups valid records only"
        puzzles.append(record.puzzle)
    givens = np.array([p.givens for p in puzzles], dtype=np.uint8)
    chunk = solve_arrays(givens, puzzles[0].geometry, request, puzzles)
    count_limit = kept_solutions(request)  # an int: solve_arrays asked for it already
    return [_record_result(record, chunk.result(j, puzzles[j], count_limit))
            for j, record in enumerate(records)]


def _solve_one(record: Record, request: Request) -> RecordResult:
    try:
        return _solve_group([record], request)[0]
    except SolverBug:
        raise
    except Exception as exc:  # noqa: BLE001 - one failing puzzle must not stop the batch
        return _failure(record, exc, request.method)


def uses_processes(solver: Solver | type[Solver], jobs: int, dask: str | None) -> bool:
    """Whether tasks go to other processes: a remote Dask cluster, or several workers (also of
    a local Dask cluster) for a method that holds the GIL; threads otherwise."""
    if dask is not None and dask != "local":
        return True
    return (jobs > 1 or dask is not None) and not solver.releases_gil


class TaskSizes:
    """Task sizes that follow the time tasks take, so that every worker has work.

    Iterating gives the size of each next task (puzzles, or lines on the array path); the
    runner reports each task's size and solving time to :meth:`observe`. Sizes start at
    1, so two puzzles already keep two workers busy, and are set from the measured seconds per
    puzzle so that a task takes about ``target`` seconds (never growing more than 4-fold per
    task, never above ``top``): slow methods go on one puzzle per task, the compiled engine
    grows to its chunk size within a few tasks.

    Args:
        top: the largest task.
        target: seconds of solving per task to aim for.
    """

    def __init__(self, top: int, target: float = 0.1) -> None:
        self.top, self.target, self.size = max(1, top), target, 1

    def __iter__(self) -> TaskSizes:
        return self

    def __next__(self) -> int:
        return self.size

    def observe(self, count: int, seconds: float) -> None:
        """Record that a task of ``count`` puzzles took ``seconds`` to solve."""
        if count <= 0:
            return
        per_puzzle = seconds / count
        wanted = self.target / per_puzzle if per_puzzle > 0 else self.top
        self.size = int(max(1, min(self.top, 4 * self.size, wanted)))


def sizes_for(solver: Solver | type[Solver], jobs: int, remote: bool) -> Iterable[int]:
    """Task sizes in turn (the last repeats): with several workers, a :class:`TaskSizes`
    following the measured time per puzzle (up to the method's ``chunk_size``, or
    :data:`_PROCESS_TASK` for other processes); with one, growing by 4 from 64 to the method's
    ``chunk_size`` (the first records come early)."""
    top = max(1, solver.chunk_size, _PROCESS_TASK if remote else 1)
    if jobs > 1 or remote:
        return TaskSizes(top)
    size, out = min(64, top), []
    while size < top:
        out.append(size)
        size *= 4
    return (*out, top)


def in_sizes(items: Iterable[T], sizes: Iterable[int]) -> Iterator[list[T]]:
    """Lists of as many items as each next size of ``sizes`` (the last size repeats), lazily."""
    iterator, steps = iter(items), iter(sizes)
    size = next(steps)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk
        size = next(steps, size)


def solve_records(
    records: Iterable[Record],
    method: str | None = None,
    *,
    count_limit: int = 1,
    time_limit: float | None = None,
    node_limit: int | None = None,
    jobs: int = 1,
    dask: str | None = None,
    **options: OptionValue,
) -> Iterator[RecordResult]:
    """Solve a stream of records lazily, yielding one RecordResult per record in input order.

    Args:
        records: parsed input (e.g. from :func:`sudokit.formats.read_puzzles`), consumed lazily.
        method: registry name (default: :func:`sudokit.registry.default_method`).
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
    from .request import Request

    request = Request.build(method, options, Limits(time_limit, node_limit), count_limit)
    solver = request.solver()
    remote = uses_processes(solver, jobs, dask)
    sizes = sizes_for(solver, jobs, remote)
    chunks = in_sizes(records, sizes)
    for outcomes in run_tasks(solve_record_chunk, chunks, request, jobs=jobs, remote=remote, dask=dask,
                              sizes=sizes):
        yield from outcomes


def run_tasks(function: Callable[[T, Q], R], tasks: Iterable[T], request: Q, *,
              jobs: int = 1, remote: bool = False, dask: str | None = None,
              sizes: Iterable[int] | None = None) -> Iterator[R]:
    """Run ``function(task, request)`` for each task, yielding results in task order.

    Args:
        function: a module-level function (picklable for processes and Dask).
        tasks: consumed lazily; at most ``2 * jobs`` are in flight.
        request: what every task shares (a :class:`~sudokit.run.request.Request`, or what
            ``function`` takes).
        jobs: workers (1 with no ``dask``: in this thread); never more than the tasks.
        remote: processes instead of threads.
        dask: a Dask scheduler address or ``"local"`` (see :func:`solve_records`).
        sizes: the sizes the tasks were cut to; a :class:`TaskSizes` is told the size
            (``len(task)``) and solving time of each task.
    """
    if dask is None and jobs > 1:  # never more workers than tasks
        tasks = iter(tasks)
        head = list(itertools.islice(tasks, jobs))
        jobs, tasks = max(1, min(jobs, len(head))), itertools.chain(head, tasks)
    if dask is None and jobs <= 1:
        for task in tasks:
            yield function(task, request)
        return
    observe = sizes.observe if isinstance(sizes, TaskSizes) else None
    with _executor(jobs, remote, dask) as pool:
        for count, seconds, result in _ordered(pool, function, tasks, request,
                                               2 * max(jobs, 2)):
            if observe is not None:
                observe(count, seconds)
            yield result


def _timed(function: Callable[[T, Q], R], task: T, request: Q) -> tuple[float, R]:
    """Run one task in a worker: its solving seconds and its result."""
    start = time.perf_counter()
    result = function(task, request)
    return time.perf_counter() - start, result


@contextmanager
def _executor(jobs: int, remote: bool, dask: str | None) -> Iterator[Executor]:
    """Threads, processes, or a Dask cluster (the policy; solvers never see it).

    Worker processes ignore Ctrl-C (the parent handles it) and exit when the parent dies, even
    by SIGKILL (see :func:`_watch_parent`). If the caller stops early or is interrupted, pending
    tasks are cancelled and worker processes terminated instead of waiting for running tasks.
    """
    if dask is not None:
        with _dask_executor(dask, jobs, remote) as cluster:
            yield cluster
        return
    import multiprocessing  # here, like the pools: one job needs neither (start-up time)
    from concurrent.futures import ThreadPoolExecutor

    pool: Executor
    if remote:
        pool = _process_pool(jobs)
    else:
        pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        if remote:
            for process in multiprocessing.active_children():
                process.terminate()
        raise
    pool.shutdown()


def _process_pool(jobs: int) -> Executor:
    """A pool of ``jobs`` worker processes, started now with SIGINT blocked.

    With the fork start method (Linux) the pool forks every worker at its first submission, in
    the submitting thread, and a child inherits that thread's signal mask: a Ctrl-C that reaches
    a worker before its initializer ignores SIGINT (under load, while it imports) stays pending
    and is dropped when :func:`_watch_parent` unblocks it, instead of printing a
    ``KeyboardInterrupt`` traceback from the worker. The parent gets its own Ctrl-C when its
    mask is restored.
    """
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_watch_parent,
                               initargs=(os.getpid(),))
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: no signal masks
        return pool
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool.submit(os.getpid)  # forks the workers (other start methods start them on demand)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    return pool


def _watch_parent(parent: int) -> None:
    """Set up a worker process: ignore SIGINT (first, before any import: the parent handles
    Ctrl-C; a SIGINT held pending since the fork by :func:`_process_pool` is dropped), default
    SIGTERM, and exit as soon as the parent process is gone (the kernel's parent-death signal on
    Linux, which also stops a worker whose compiled code holds the GIL; else a daemon thread
    polls the parent id every 0.2 s; a worker must never outlive its parent nor hold its stderr
    open)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from ..sat.forked import die_with_parent

    if die_with_parent(parent):
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="sudokit-parent-watch", daemon=True).start()


@contextmanager
def _dask_executor(address: str, jobs: int, processes: bool) -> Iterator[Executor]:
    """A concurrent.futures executor over a Dask cluster.

    ``"local"`` starts a local cluster of ``jobs`` workers: worker processes for a method that
    holds the GIL, else threads of this process (no start-up of other interpreters, nothing
    shipped between processes). Its scratch files go to a temporary directory removed at the
    end.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise MethodUnavailable(
            "--dask needs Dask's distributed scheduler: pip install 'sudokit[dask]'") from exc
    with ExitStack() as stack:
        if address == "local":
            import tempfile

            import dask

            scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="sudokit-dask-"))
            settings: dict[str, object] = {"temporary_directory": scratch}
            if processes:  # worker processes die with this one (see dask_setup)
                settings |= {"distributed.worker.preload": [__name__], _DASK_PARENT: os.getpid()}
            stack.enter_context(dask.config.set(settings))
            workers = max(jobs, 1)
            cluster = stack.enter_context(LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers if processes else 1, threads_per_worker=1 if processes
                else workers, processes=processes, dashboard_address=None,
                local_directory=scratch))
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            client = stack.enter_context(_connected(Client, address))
        yield client.get_executor()


_DASK_PARENT = "sudokit-parent"
"""Dask configuration key (passed on to the workers) holding the id of the process that
started a ``--dask local`` cluster."""


def dask_setup(worker: object) -> None:
    """Dask's preload hook, run in each worker process of a ``--dask local`` cluster (this
    module is its ``distributed.worker.preload``): the worker dies with the process that
    started it, even by SIGKILL and while a solver holds the GIL (Linux parent-death signal),
    and at once if that process died while the worker was starting."""
    import dask

    from ..sat.forked import die_with_parent

    parent = dask.config.get(_DASK_PARENT, None)
    if parent is not None and int(parent) != os.getpid():  # not a worker thread of the parent
        die_with_parent(int(parent))


_DASK_CONNECT_SECONDS = 10
"""How long to try reaching a ``--dask`` scheduler before giving up."""


def _connected(client: Callable[..., C], address: str) -> C:
    """A Dask client of the scheduler at ``address``.

    Raises:
        InvalidOption: the address is malformed or the scheduler cannot be reached in
            :data:`_DASK_CONNECT_SECONDS`.
    """
    try:
        return client(address, timeout=f"{_DASK_CONNECT_SECONDS}s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise InvalidOption(f"--dask {address}: cannot reach a Dask scheduler there "
                            f"({exc})") from None


def _ordered(pool: Executor, function: Callable[[T, Q], R], tasks: Iterable[T], request: Q,
             in_flight: int) -> Iterator[tuple[int, float, R]]:
    """Run tasks on ``pool`` with at most ``in_flight`` pending; yield each task's size
    (``len(task)``, 0 if it has none), solving seconds and result, in task order.

    Stopped early, it cancels its pending tasks, except on a process pool: there
    :func:`_executor`'s ``shutdown(cancel_futures=True)`` cancels them in the pool's own
    thread. A future cancelled from here stays among the pool's work items until that thread
    drops it, and when the workers are terminated first, Python 3.11's pool marks every item
    broken, a cancelled one included, and its thread dies printing
    ``InvalidStateError: CANCELLED`` (a Ctrl-C traceback in one run of several; CPython
    gh-107219, fixed in 3.12 by python/cpython#108974).
    """
    from concurrent.futures import ProcessPoolExecutor

    pending: deque[tuple[int, Future[tuple[float, R]]]] = deque()
    try:
        for task in tasks:
            size = len(task) if hasattr(task, "__len__") else 0
            pending.append((size, pool.submit(_timed, function, task, request)))
            if len(pending) >= in_flight:
                size, future = pending.popleft()
                yield size, *future.result()
        while pending:
            size, future = pending.popleft()
            yield size, *future.result()
    finally:
        if not isinstance(pool, ProcessPoolExecutor):
            for _, future in pending:
                future.cancel()
