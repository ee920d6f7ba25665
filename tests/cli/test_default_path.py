"""The default path (issue 39): one decision of the method (:mod:`sudokit.run.choice`), the
hand-over from ``propagate`` to CDCL, and a time limit that counts compiling.

Every published rule puzzle of ``tests/data/rules`` solved and proved unique by the default
``sudokit solve P.json --unique`` runs under ``-m slow`` (minutes); the fast tests use a puzzle
``propagate`` does not finish within its budget."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.model.result import Limits, Status
from sudokit.run.choice import QUICK_METHOD, decide
from sudokit.run.doors import count_solutions
from tests.helpers import DATA, EXAMPLES, processes_with_cache

RULES = DATA / "rules"
MODULAR = RULES / "sigh_modular_lines.json"  # propagate: about 1 s; CDCL: tens of ms


def _published(path: Path) -> tuple[int, ...]:
    return tuple(json.loads(path.read_text())["solution"])


def test_one_decision_of_the_method() -> None:
    small = decide(None, limits=Limits(15), count_limit=2)
    assert small.method == QUICK_METHOD and small.handover == "sat"
    assert decide(None, puzzles=9).handover is None  # a larger input: the registry's default
    assert decide(None, puzzles=9).method == decide(None, side=16).method == "portfolio"
    assert decide("fast").method == "fast" and decide("fast").handover is None
    named = decide(None, {"probe_nodes": 10})  # options go to the default method, no path
    assert named.method == "portfolio" and named.handover is None


def test_the_library_hands_a_hard_puzzle_over_to_cdcl(monkeypatch) -> None:
    """No core free (CDCL has its head start, the engine does not start early): CDCL, which
    finishes in tens of ms, answers."""
    from sudokit.run import race
    from sudokit.sat.forked import HEAD_START

    monkeypatch.setattr(race, "head_start", lambda: HEAD_START)
    puzzle = fpuzzles_puzzle(MODULAR.read_text())
    result = count_solutions(puzzle)
    assert result.status is Status.SOLVED and result.count == 1
    assert result.solutions[0] == _published(MODULAR)
    assert result.stats.extra["winner"].startswith("sat")
    quick = count_solutions(puzzle, "propagate", time_limit=0.05)
    assert quick.status is Status.UNKNOWN  # the budget alone would not do


def test_the_command_line_hands_it_over_too(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["solve", str(MODULAR), "--unique", "-f", "jsonl", "-q"])
    record = json.loads(out.stdout)
    assert out.exit_code == 0 and record["status"] == "solved", (out.stderr, out.stdout[-300:])
    grid = json.loads(record["solution"])["grid"]
    assert tuple(c["value"] for row in grid for c in row) == _published(MODULAR)




try:
    import distributed  # noqa: F401

    _DASK = [pytest.param(["--dask", "local", "--jobs", "2"], id="dask")]
except ImportError:
    _DASK = []
WORKERS = [pytest.param([], id="one"), pytest.param(["--jobs", "2"], id="jobs"), *_DASK]
"""One worker, ``--jobs 2`` (threads: the compiled engine releases the GIL) and a local Dask
cluster: a time limit counts from the command's start in each."""


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("workers", WORKERS)
def test_a_time_limit_counts_compiling_on_an_empty_cache(tmp_path: Path,
                                                        workers: list[str]) -> None:
    """``-m fast`` on an empty kernel cache compiled for 80-160 s whatever ``--time-limit``
    said; now the compile runs in the background and the command ends at its limit (a
    bound with room for a loaded machine, not a timing). A small input never starts a
    local Dask cluster under a time limit (seconds of start-up)."""
    cache = tmp_path / "cache"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "SUDOKIT_BACKGROUND_COMPILE": "1"}
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "sudokit", "solve",
                               str(RULES / "sigh_thermosudoku.json"), "-m", "fast", "--unique",
                               "-q", "-f", "jsonl", "--time-limit", "3", *workers], env=env,
                              capture_output=True, timeout=60)
        seconds = time.monotonic() - start
    finally:
        for pid in processes_with_cache(cache):  # the compile the run started, detached
            os.kill(pid, 9)
    assert seconds < 3 + 6, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] in ("timeout", "solved")
    if record["status"] == "timeout":  # says what happened, not "time limit 0.0 s reached"
        assert record["error"] == "kernels still compiling at the time limit"


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("workers", WORKERS)
def test_a_large_input_waits_for_the_compile_only_up_to_its_time_limit(
        tmp_path: Path, workers: list[str]) -> None:
    """More than eight puzzles with ``-m fast`` compiled the kernels in the foreground (80-160
    s) whatever ``--time-limit`` said, also in each of several workers; now the background
    compile is waited for up to the limit from the command's start, then the puzzles are
    answered at once by ``propagate`` ("kernels still compiling at the time limit") until
    the kernels are ready."""
    cache, lines = tmp_path / "cache", tmp_path / "top20.txt"
    lines.write_text("\n".join(EXAMPLES.joinpath("top95.txt").read_text().split()[:20]) + "\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "SUDOKIT_BACKGROUND_COMPILE": "1"}
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "sudokit", "solve", str(lines), "-m", "fast",
                               "-q", "-f", "jsonl", "--time-limit", "2", *workers], env=env,
                              capture_output=True, timeout=60)
        seconds = time.monotonic() - start
    finally:
        for pid in processes_with_cache(cache):  # the compile the run started, detached
            os.kill(pid, 9)
    assert seconds < 2 + 6, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 20
    for record in records:
        assert record["status"] == "solved" or (
            record["error"] == "kernels still compiling at the time limit"), record


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_several_workers_answer_by_propagate_while_the_default_compiles(tmp_path: Path) -> None:
    """``--jobs 2`` with the default method on a large input and an empty cache compiled the
    compiled engine in the foreground (tens of CPU seconds) before the first answer; now it
    answers by ``propagate`` while the kernels compile in the background, as one worker does
    (the command's CPU seconds tell: the detached compile is not its child)."""
    import resource

    cache, lines = tmp_path / "cache", tmp_path / "top20.txt"
    lines.write_text("\n".join(EXAMPLES.joinpath("top95.txt").read_text().split()[:20]) + "\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "SUDOKIT_BACKGROUND_COMPILE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run([sys.executable, "-m", "sudokit", "solve", str(lines), "-q",
                               "--jobs", "2"], env=env, capture_output=True, timeout=120)
    finally:
        for pid in processes_with_cache(cache):  # the compile the run started, detached
            os.kill(pid, 9)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 20, done.stderr[-500:]
    assert cpu < 6, cpu  # a foreground compile of the 9x9 engine took 14 CPU seconds here


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_worker_without_kernels_answers_by_propagate_until_its_deadline(
        tmp_path: Path) -> None:
    """A worker process with a cache of its own (a Dask worker elsewhere) gets the command's
    deadline in the request and never compiles in the foreground: it waits for its own
    background compile until then, then answers by ``propagate`` at no time."""
    cache = tmp_path / "cache"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "SUDOKIT_BACKGROUND_COMPILE": "1",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    script = (
        "import time, json\n"
        "from sudokit.model.geometry import Geometry\n"
        "from sudokit.run.deadline import in_time\n"
        "from sudokit.run.request import Request\n"
        "from sudokit.model.result import Limits\n"
        "start = time.time()\n"
        "request = Request.build('fast', limits=Limits(5.0), count_limit=2)\n"
        "from dataclasses import replace\n"
        "request = replace(request, compile_by=start + 1.5)\n"
        "answer = in_time(request, [Geometry.of(3, 3)])\n"
        "print(json.dumps([answer.method, answer.limits.time_limit, answer.stop_note,\n"
        "                  time.time() - start]))\n")
    try:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              timeout=60, text=True)
    finally:
        for pid in processes_with_cache(cache):  # the compile the worker started, detached
            os.kill(pid, 9)
    method, limit, note, seconds = json.loads(done.stdout or done.stderr)
    assert (method, limit, note) == ("propagate", 0.0, "kernels still compiling at the time limit")
    assert seconds < 1.5 + 4, seconds


_CLUSTER = """
import subprocess, sys
from distributed import LocalCluster
with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                  worker_dashboard_address=None) as cluster:
    done = subprocess.run([sys.executable, "-m", "sudokit", "solve", sys.argv[1], "-q", "-f",
                           "jsonl", "--dask", cluster.scheduler_address], capture_output=True,
                          text=True, timeout=240)
    sys.stderr.write(done.stderr[-800:])
    print(done.stdout, end="")
"""


@pytest.mark.skipif(not _DASK or sys.platform != "linux", reason="needs distributed; /proc")
def test_a_remote_worker_answers_the_default_by_propagate_while_it_compiles(
        tmp_path: Path) -> None:
    """``--dask HOST:PORT`` (a cluster of its own: here a local one started apart, as a remote
    one is) with the default method on a large input and an empty cache compiled the compiled
    engine in each worker's foreground before its first answer; now the worker starts the
    background compile and answers by ``propagate`` (handing over to CDCL) meanwhile."""
    cache, lines = tmp_path / "cache", tmp_path / "top20.txt"
    lines.write_text("\n".join(EXAMPLES.joinpath("top95.txt").read_text().split()[:20]) + "\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "SUDOKIT_BACKGROUND_COMPILE": "1",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        done = subprocess.run([sys.executable, "-c", _CLUSTER, str(lines)], env=env,
                              capture_output=True, text=True, timeout=300)
    finally:
        for pid in processes_with_cache(cache):  # the compile the worker started, detached
            os.kill(pid, 9)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 20, done.stderr
    assert all(r["status"] == "solved" for r in records), done.stderr
    assert records[0]["method"] in ("propagate", "sat"), records[0]  # not compiled first


def _rule_puzzles() -> list:
    items = [pytest.param(path.read_text(), _published(path), id=path.stem)
             for path in sorted(RULES.glob("sigh_*.json"))]
    for path in [RULES / "variant_solver_js_ci.json", *sorted(RULES.glob("heldout_*.json"))]:
        items += [pytest.param(decode_fpuzzles(item["puzzle"])[0],
                               tuple(map(int, item["solution"])), id=item["title"])
                  for item in json.loads(path.read_text()) if "refused" not in item]
    return items


@pytest.mark.slow
@pytest.mark.parametrize(("text", "solution"), _rule_puzzles())
def test_the_default_solves_and_proves_unique_every_published_rule_puzzle(
        tmp_path: Path, text: str, solution: tuple[int, ...]) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    out = CliRunner().invoke(app, ["solve", str(path), "--unique", "-f", "jsonl", "-q",
                                   "--time-limit", "60"])
    record = json.loads(out.stdout)
    assert out.exit_code == 0 and record["status"] == "solved", record
    grid = json.loads(record["solution"])["grid"]
    assert tuple(c["value"] for row in grid for c in row) == solution


def test_counting_many_solutions_goes_to_the_default_method() -> None:
    assert decide(None, count_limit=None).method == decide(None, count_limit=3).method \
        == "portfolio"
    assert decide(None, count_limit=2).handover == "sat"
