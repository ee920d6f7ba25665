"""Batch solving: order, laziness, parallel pools, bad input, failures and expectations."""

from __future__ import annotations

import io
import itertools
import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from sudokit.errors import SolverBug
from sudokit.formats.text import Record, read_puzzles
from sudokit.model.result import Limits, Status
from sudokit.run.batch import check_expected, solve_records
from sudokit.solvers.propagate import PropagateSolver
from tests.helpers import DATA, EXAMPLES, ROOT

TOP95 = EXAMPLES / "top95.txt"


def stream(text: str) -> list[Record]:
    handle = io.StringIO(text)
    handle.name = "t.txt"
    return list(read_puzzles(handle))


def test_outcomes_in_input_order_with_bad_lines() -> None:
    lines = TOP95.read_text().splitlines()[:6]
    text = "\n".join([lines[0], "garbage!", lines[1], "1" * 81, lines[2]])
    outcomes = list(solve_records(stream(text), "propagate"))
    assert [o.record.line for o in outcomes] == [1, 2, 3, 4, 5]
    assert [o.label for o in outcomes] == [Status.SOLVED, Status.INVALID, Status.SOLVED,
                                           Status.UNSATISFIABLE, Status.SOLVED]
    assert "line 2" not in (outcomes[1].error or "") and "t.txt:2:" in outcomes[1].error
    assert "given twice in row 1" in outcomes[3].error


@pytest.mark.parametrize("threads", [True, False])
def test_parallel_jobs_keep_order(monkeypatch: pytest.MonkeyPatch, threads: bool) -> None:
    monkeypatch.setattr(PropagateSolver, "releases_gil", threads)
    monkeypatch.setattr(PropagateSolver, "chunk_size", 7)
    records = list(read_puzzles(TOP95))[:40]
    outcomes = list(solve_records(records, "propagate", jobs=2))
    assert [o.record.line for o in outcomes] == [r.line for r in records]
    assert all(o.ok for o in outcomes)


def test_reads_lazily_and_stops_early() -> None:
    def endless() -> Iterator[Record]:
        yield from itertools.islice(read_puzzles(TOP95), 3)
        raise AssertionError("the batch read past what was asked")

    first = next(solve_records(endless(), "propagate"))
    assert first.ok


def test_uniqueness_and_expected_counts() -> None:
    records = list(read_puzzles(DATA / "invalid" / "tdoku_test_puzzles"))
    outcomes = list(solve_records(records, "propagate", count_limit=2))
    expected = {0: Status.UNSATISFIABLE, 1: Status.SOLVED}
    for outcome in outcomes:
        count = outcome.record.expected_count
        assert outcome.label is expected.get(count, Status.MULTIPLE), outcome.record.line
        assert outcome.error is None or outcome.label is Status.UNSATISFIABLE


def test_expected_solution_mismatch_is_reported_status_kept() -> None:
    (record,) = stream((DATA / "csv" / "kaggle_first200.csv").open().readline())
    wrong = list(record.expected)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    bad = Record(record.source, record.line, record.puzzle, expected=tuple(wrong))
    (outcome,) = solve_records([bad], "propagate")
    assert outcome.label is Status.SOLVED and not outcome.ok
    assert "differs from the file's solution at r1c1" in outcome.error
    assert "the file's is wrong" in outcome.error
    assert check_expected(record, outcome.result) is None


def test_expected_count_mismatch() -> None:
    line = TOP95.read_text().splitlines()[0]
    (outcome,) = solve_records(stream(f"{line}:0"), "propagate")
    assert outcome.label is Status.SOLVED and "file says 0" in outcome.error


def test_timeout_is_a_record(monkeypatch: pytest.MonkeyPatch) -> None:
    records = list(read_puzzles(TOP95))[:2]
    outcomes = list(solve_records(records, "propagate", node_limit=0))
    assert all(o.label is Status.UNKNOWN and "node limit" in o.error for o in outcomes)


def test_method_failure_becomes_a_record_but_solver_bug_surfaces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records = list(read_puzzles(TOP95))[:3]
    original = PropagateSolver.solutions

    def flaky(self, puzzle, stats, limits):
        if puzzle.source_line == 2:
            raise RuntimeError("boom")
        return original(self, puzzle, stats, limits)

    monkeypatch.setattr(PropagateSolver, "solutions", flaky)
    outcomes = list(solve_records(records, "propagate"))
    assert [o.label for o in outcomes] == [Status.SOLVED, Status.INVALID, Status.SOLVED]
    assert "RuntimeError: boom" in outcomes[1].error

    def wrong(self, puzzle, stats, limits):
        yield tuple(1 for _ in puzzle.givens)

    monkeypatch.setattr(PropagateSolver, "solutions", wrong)
    with pytest.raises(SolverBug):
        list(solve_records(records, "propagate"))


def test_dask_cluster_keeps_order() -> None:
    distributed = pytest.importorskip("distributed")
    records = list(read_puzzles(TOP95))[:20]
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        outcomes = list(solve_records(records, "propagate", jobs=2,
                                      dask=cluster.scheduler_address))
    assert [o.record.line for o in outcomes] == [r.line for r in records]
    assert all(o.ok for o in outcomes)


def test_local_dask_cluster_keeps_order_and_leaves_no_scratch(tmp_path, monkeypatch) -> None:
    pytest.importorskip("distributed")
    import tempfile

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    records = list(read_puzzles(TOP95))[:12]
    outcomes = list(solve_records(records, "fast", jobs=2, dask="local"))
    assert [o.record.line for o in outcomes] == [r.line for r in records]
    assert all(o.ok for o in outcomes)
    assert list(tmp_path.iterdir()) == []  # no dask-scratch-space, no temporary directory


def test_task_sizes_start_at_one_and_follow_the_time_per_puzzle() -> None:
    from sudokit.run.batch import TaskSizes

    sizes = TaskSizes(top=4096, target=0.1)
    assert next(sizes) == 1
    sizes.observe(1, 0.5)  # a slow method: one puzzle per task
    assert next(sizes) == 1
    grown = []
    for _ in range(8):  # a fast one: grows 4-fold per task, up to the top
        size = next(sizes)
        sizes.observe(size, size * 1e-6)
        grown.append(next(sizes))
    assert grown[:3] == [4, 16, 64] and grown[-1] == 4096
    sizes.observe(4096, 4096 * 0.01)  # slower puzzles: back to about target / time
    assert next(sizes) == 10


def test_every_puzzle_of_a_small_slow_batch_is_its_own_task_with_two_jobs() -> None:
    """Two or more puzzles keep two workers busy (issue 12, item 8)."""
    from sudokit.run.pipeline import solve_inputs

    run = solve_inputs([str(TOP95)], "mac", jobs=2, limits=Limits(5.0))
    sizes = [block.size for block in itertools.islice(run.blocks, 6)]
    assert sizes == [1] * 6


_CTRL_C_AT_START = """
import os, signal, sys
from sudokit.run.batch import _executor
for _ in range(int(sys.argv[1])):
    try:
        with _executor(2, True, None) as pool:
            future = pool.submit(os.getpid)  # the workers are forked by now (Linux)
            os.killpg(0, signal.SIGINT)  # Ctrl-C while they start up
            future.result()
    except KeyboardInterrupt:
        continue
    sys.exit("the parent did not get its KeyboardInterrupt")
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_a_ctrl_c_while_pool_workers_start_is_the_parents_alone() -> None:
    """A SIGINT to the process group just after the pool forks its workers (they are still
    starting: bootstrap, initializer, imports) is handled by the parent alone: no worker prints
    a KeyboardInterrupt traceback (the defect showed under load, when a worker was still
    importing as Ctrl-C came)."""
    proc = subprocess.run([sys.executable, "-c", _CTRL_C_AT_START, "150"], capture_output=True,
                          text=True, timeout=120, start_new_session=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "KeyboardInterrupt" not in proc.stderr



def _sleepy(task: int, request: object) -> int:
    import time

    time.sleep(0.2)
    return task



def _stopped_at_the_second_result(tasks: int) -> None:
    """Run ``tasks`` slow tasks on 2 worker processes, 8 in flight, and stop (a Ctrl-C) as
    the second result comes: the pool is shut down and its workers terminated while the
    generator of results is still open (it is closed after, as when ``sudokit solve`` is
    interrupted in its output loop)."""
    from sudokit.run.batch import _executor, _ordered

    try:
        with _executor(2, True, None) as pool:
            for done, _result in enumerate(_ordered(pool, _sleepy, range(tasks), None, 8)):
                if done == 1:  # 2 running, 1 queued, 5 waiting in the pool
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass


def test_a_stopped_process_pool_leaves_no_thread_traceback() -> None:
    """A run on worker processes stopped while tasks wait cancels them without a traceback
    from the pool's thread (issue 39: ``--jobs 2`` and Ctrl-C printed ``Exception in thread
    Thread-1 ... InvalidStateError: CANCELLED`` once in CI). Futures cancelled by
    ``_ordered`` stayed among the pool's work items while its terminated workers made Python
    3.11's pool set an error on each: 9 stops of 10 printed it before the fix."""
    import threading

    errors: list[BaseException | None] = []
    hook, threading.excepthook = threading.excepthook, lambda args: errors.append(args.exc_value)
    try:
        for _ in range(4):
            _stopped_at_the_second_result(20)
        for thread in threading.enumerate():  # the pools' threads end once broken
            if thread is not threading.current_thread() and not thread.daemon:
                thread.join(5)
    finally:
        threading.excepthook = hook
    assert errors == []
