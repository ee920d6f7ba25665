"""Memory stays flat over invalid records (issue 43, item 8): a file of a million short bad
lines held every record in ``compare`` (about 650 bytes each, 1.1 GB in all). Measured with
:mod:`tracemalloc` (Python allocations only, which is where records live) over 20,000 bad
lines: the peak traced memory of the command must not grow with them. ``solve`` read an input
of bad records whole before its first block (looking for puzzles to choose a method): it reads
at most :data:`~sudokit.run.pipeline.HEAD_RECORDS` records and a task before it starts."""

from __future__ import annotations

import contextlib
import io
import tracemalloc

import pytest

from sudokit.cli import main

P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
BAD_LINES = 20_000


def _peak(args: list[str]) -> int:
    """Peak traced bytes of ``main(args)`` (stdout and stderr written to /dev/null)."""
    with open("/dev/null", "w") as null, contextlib.redirect_stdout(null), \
            contextlib.redirect_stderr(null):
        tracemalloc.start()
        try:
            main(args)
        except SystemExit:
            pass
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    return peak


@pytest.mark.parametrize("command", [["compare", "--methods", "propagate"]])
def test_bad_records_are_not_kept(command: list[str], tmp_path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{P}\n" + "ab\nq?\n" * (BAD_LINES // 2))
    few = tmp_path / "few.txt"
    few.write_text(f"{P}\n" + "ab\nq?\n" * 50)
    _peak([command[0], str(few), *command[1:]])  # imports and first-use loads
    small = _peak([command[0], str(few), *command[1:]])
    large = _peak([command[0], str(bad), *command[1:]])
    assert large - small < 100 * BAD_LINES, (small, large)  # < 100 bytes per bad record


def test_solve_starts_before_reading_a_file_of_bad_records(tmp_path, monkeypatch) -> None:
    from sudokit.run import pipeline

    bad = tmp_path / "bad.txt"
    bad.write_text("ab\nq?\n" * 8000 + f"{P}\n")  # 8,001 records (ab and q? are one grid)
    read = []
    tasks = pipeline.input_tasks

    def counted(*args, **kwargs):
        for task in tasks(*args, **kwargs):
            read.append(task.size if hasattr(task, "size") else len(task))
            yield task

    monkeypatch.setattr(pipeline, "input_tasks", counted)
    run = pipeline.solve_inputs([str(bad)], "fast")
    assert sum(read) <= pipeline.HEAD_RECORDS + 4096  # one task past the bound at most
    blocks = list(run.blocks)
    assert sum(read) == sum(b.size for b in blocks) > pipeline.HEAD_RECORDS + 4096
