"""First use: kernels compile in a background child while Python answers (sudokit.run.warm)."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sudokit import compiled
from sudokit.compiled import Kernels, run_as_python
from sudokit.run import pipeline, warm
from sudokit.run.explain import explain, rate
from sudokit.run.output import OutputFormat
from sudokit.run.pipeline import solve_inputs
from tests.helpers import DATA, EXAMPLES, ROOT


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty kernel cache for run.warm's markers, background compiling on."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SUDOKIT_BACKGROUND_COMPILE", "1")
    compiled._kernel_dir.cache_clear()
    warm.enable()
    yield tmp_path
    compiled._kernel_dir.cache_clear()
    monkeypatch.setattr(warm, "_ENABLED", False)
    run_as_python(Kernels.LOGIC, False)
    run_as_python(Kernels.GENERATOR, False)


def _child_script(job: str, then: str) -> str:
    """A parent process that starts a background job and then does ``then``."""
    return textwrap.dedent(f"""
        import functools, os, sys, time
        from sudokit.run import pipeline, warm
        warm.enable()
        from sudokit.compiled import Kernels
        warm.compile_in_background([(Kernels.GENERATOR, functools.partial({job}))])
        print(warm._CHILDREN[0].pid, flush=True)
        {then}
    """)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting for its reaper is gone
        return stat.read().split(")")[1].split()[0] != "Z"


def _run_parent(fresh: Path, script: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), NUMBA_CACHE_DIR=str(fresh))
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env,
                            text=True)


def test_child_finishes_its_job_after_a_normal_exit(fresh: Path) -> None:
    parent = _run_parent(fresh, _child_script("time.sleep, 1.0", "sys.exit(0)"))
    child = int(parent.stdout.readline())
    assert parent.wait(10) == 0
    assert _alive(child)  # told to finish: it outlives the parent
    deadline = time.monotonic() + 20
    while not compiled.ready(Kernels.GENERATOR) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert compiled.ready(Kernels.GENERATOR)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_child_dies_with_a_killed_parent(fresh: Path, how: signal.Signals) -> None:
    parent = _run_parent(fresh, _child_script("time.sleep, 60", "time.sleep(60)"))
    child = int(parent.stdout.readline())
    time.sleep(0.5)  # the child has read its job and asked for the death signal
    assert _alive(child)
    parent.send_signal(how)
    parent.wait(10)
    deadline = time.monotonic() + 1.0
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)
    assert not compiled.ready(Kernels.GENERATOR)


def test_library_calls_never_start_a_child(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(warm, "_ENABLED", False)
    assert warm.interim_method(Kernels.NINE, functools.partial(time.sleep, 0)) is None
    assert not warm._CHILDREN or all(c.poll() is not None for c in warm._CHILDREN)


def _lines(blocks) -> bytes:
    return b"".join(block.text for block in blocks)


def test_solve_answers_with_propagate_then_switches(fresh: Path, monkeypatch) -> None:
    """The first task goes to propagate while the kernels compile; once the child marks them
    ready (here: once a task has been answered, whatever else asked for the markers before,
    such as a reader thread running ahead under load), the run switches."""
    started, answered = [], []
    monkeypatch.setattr(warm, "compile_in_background", lambda jobs: started.append(jobs))
    real_ready, real_task = compiled.ready, pipeline.solve_task

    def ready(kernels: Kernels) -> bool:  # the child is done once a task was answered
        return bool(answered) or real_ready(kernels)

    def solve_task(task, request):
        block = real_task(task, request)
        answered.append(request.method)
        return block

    monkeypatch.setattr(compiled, "ready", ready)
    monkeypatch.setattr(pipeline, "solve_task", solve_task)
    path = str(EXAMPLES / "top95.txt")
    run = solve_inputs([path], fmt=OutputFormat.JSONL)
    records = _lines(run.blocks).decode().splitlines()
    assert started and started[0][0][0] is Kernels.NINE
    methods = [line.split('"method": "')[1].split('"')[0] for line in records]
    assert methods[0] == "propagate" and methods[-1] != "propagate"
    monkeypatch.setattr(warm, "_ENABLED", False)
    plain = _lines(solve_inputs([path], fmt=OutputFormat.LINE).blocks)
    monkeypatch.setattr(warm, "_ENABLED", True)
    answered.clear()
    switched = _lines(solve_inputs([path], fmt=OutputFormat.LINE).blocks)
    assert switched == plain  # the same solutions, whichever method gave them


def test_ready_kernels_are_used_at_once(fresh: Path, monkeypatch) -> None:
    monkeypatch.setattr(warm, "compile_in_background", lambda jobs: pytest.fail("nothing to compile"))
    compiled.mark_ready(Kernels.NINE)
    run = solve_inputs([str(EXAMPLES / "top95.txt")], fmt=OutputFormat.JSONL)
    assert '"method": "propagate"' not in _lines(run.blocks).decode()


def test_explain_on_references_while_compiling(fresh: Path, monkeypatch) -> None:
    started = []
    monkeypatch.setattr(warm, "compile_in_background", lambda jobs: started.append([k for k, _ in jobs]))
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    steps = [str(s) for s in explain(line)]
    assert started == [[Kernels.SEARCH, Kernels.LOGIC]]
    monkeypatch.setattr(warm, "_ENABLED", False)
    assert [str(s) for s in explain(line)] == steps


def test_references_find_the_same_steps_as_the_kernels() -> None:
    """The technique engine's Python references and its kernels agree on real puzzles (the
    first use answers on the references while the kernels compile): SE-rated diabolical
    puzzles, whose solves reach chains, ALS and cycles."""
    rated = (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()
    puzzles = [line.split()[1] for line in rated[:8]]
    kernels = [([str(s) for s in explain(p)], rate(p)) for p in puzzles]
    run_as_python(Kernels.LOGIC)
    try:
        references = [([str(s) for s in explain(p)], rate(p)) for p in puzzles]
    finally:
        run_as_python(Kernels.LOGIC, False)
    assert references == kernels


def test_generate_interprets_its_kernels_while_they_compile(fresh: Path, monkeypatch,
                                                            capsys) -> None:
    """The first ``generate`` makes its puzzles with the kernels' Python twin while a child
    compiles them, then switches: the same puzzles as the compiled generator, for a seed."""
    from sudokit.run.generate import generate

    started, asked = [], []
    monkeypatch.setattr(warm, "compile_in_background", lambda jobs: started.append(jobs))
    real_ready = compiled.ready

    def ready(kernels: Kernels) -> bool:  # two puzzles interpreted, then compiled
        asked.append(kernels)
        return asked.count(Kernels.GENERATOR) > 4 or real_ready(kernels)

    monkeypatch.setattr(compiled, "ready", ready)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    first = [g.line for g in generate(4, seed=5)]
    notice = capsys.readouterr().err
    assert "compiling the puzzle generator in the background" in notice
    assert "pure Python meanwhile" in notice
    assert [kernels for kernels, _job in started[0]] == [Kernels.GENERATOR]  # no proof
    assert asked.count(Kernels.GENERATOR) > 4
    monkeypatch.setattr(warm, "_ENABLED", False)
    assert first == [g.line for g in generate(4, seed=5)]
    started[0][0][1]()  # the child's job runs in a process of its own: here it must not fail


def test_engine_markers_name_the_rules_version(fresh: Path, monkeypatch) -> None:
    """The general engine's marker written for a grid without drawn rules does not make a
    grid with rules ready (a second specialisation of its kernels, compiled in the background,
    never inside a door's limit); each version has its own marker."""
    from sudokit.model.geometry import Geometry
    from sudokit.model.puzzle import Puzzle
    from sudokit.model.rulebook import thermometer
    from sudokit.run.deadline import engine_kernels, kernels_by
    from sudokit.run.explain import _engine_ready
    from sudokit.run.request import Request

    started = []
    monkeypatch.setattr(warm, "compile_in_background",
                        lambda jobs: started.append([kernels for kernels, _job in jobs]))
    plain = Puzzle(Geometry.for_side(6), (0,) * 36)
    rules = Puzzle(Geometry.for_side(9), (0,) * 81).with_constraints(*thermometer([0, 1, 2], 9))
    assert engine_kernels("fast", plain.geometry) is Kernels.ENGINE
    assert engine_kernels("fast", rules.geometry) is Kernels.ENGINE_RULES
    assert engine_kernels("fast", Geometry.for_side(9)) is Kernels.NINE
    compiled.mark_ready(Kernels.ENGINE)
    fast = Request.build("fast")
    assert kernels_by(fast, plain.geometry, time.perf_counter() + 5) and not started
    assert _engine_ready(plain) and not started
    assert not _engine_ready(rules) and started == [[Kernels.ENGINE_RULES]]
    assert not kernels_by(fast, rules.geometry, time.perf_counter())  # no wait past the limit
    compiled.mark_ready(Kernels.ENGINE_RULES)
    assert _engine_ready(rules) and kernels_by(fast, rules.geometry, time.perf_counter())


def test_a_second_child_waits_for_the_one_compiling(fresh: Path) -> None:
    """Children of two commands on one cache compile one after the other: the second waits
    for the cache's compile lock, then skips the kernels the first marked ready."""
    import fcntl
    import threading

    ran: list[str] = []
    directory = compiled.kernel_dir()
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "compiling.lock", "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another child compiling
        worker = threading.Thread(target=warm._compile, args=(
            [(Kernels.GENERATOR, lambda: ran.append("generator")),
             (Kernels.TABLES, lambda: ran.append("tables"))],))
        worker.start()
        time.sleep(0.3)
        assert ran == [] and worker.is_alive()
        compiled.mark_ready(Kernels.GENERATOR)  # what the other child compiled
    worker.join(10)
    assert ran == ["tables"] and compiled.ready(Kernels.TABLES)
