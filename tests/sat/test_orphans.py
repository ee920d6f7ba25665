"""No process outlives its parent by more than a second, whatever signal killed the parent.

Each test starts ``sudokit`` in a subprocess on work that lasts tens of seconds, waits until the
processes it starts exist, kills it with SIGKILL, and checks every descendant is gone within
one second: the default method's forked CDCL child (CaDiCaL holds its GIL, so only the kernel's
parent-death signal can stop it), a ``sat:exec`` solver and the processes it started (a
``sh -c`` and its ``sleep``), and the worker processes of ``--jobs``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import DATA, ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the process tree from /proc")

SLOW_36 = DATA / "qcp" / "36x36_cdcl_slow.txt"
"""One CaDiCaL call takes 30-40 s on it."""


def _parents() -> dict[int, int]:
    """Every live process id and its parent id (zombies left out: they have exited)."""
    tree = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] not in ("Z", "X"):
                tree[int(entry.name)] = int(fields[1])
    return tree


def _descendants(root: int) -> set[int]:
    tree, found, todo = _parents(), set(), [root]
    while todo:
        parent = todo.pop()
        children = {pid for pid, ppid in tree.items() if ppid == parent}
        found |= children
        todo += children
    return found


def _alive(pids: set[int]) -> set[int]:
    return pids & set(_parents())


def _kill_and_check(args: list[str], wanted: int, wait: float = 90.0, settle: float = 0.3,
                    env: dict[str, str] | None = None) -> None:
    """Run sudokit with ``args``, wait until it has ``wanted`` descendants (and ``settle``
    seconds more), SIGKILL it, and assert that none of them is alive five seconds later."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "sudokit", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + wait
        children: set[int] = set()
        while len(children) < wanted:
            assert proc.poll() is None, f"sudokit ended (code {proc.returncode}) too soon"
            assert time.monotonic() < deadline, f"only {len(children)} child processes"
            time.sleep(0.1)
            children = _descendants(proc.pid)
        time.sleep(settle)  # let the children settle into their work
        children = _descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        gone_by = time.monotonic() + 5.0  # 1 s on an idle machine; a loaded one is slower
        while (left := _alive(children)) and time.monotonic() < gone_by:
            time.sleep(0.1)
        for pid in left:  # do not leave them to the next test
            os.kill(pid, signal.SIGKILL)
        assert not left, f"alive 5 s after the parent's SIGKILL: {sorted(left)}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_default_method_forked_cdcl_dies_with_its_parent() -> None:
    """issue 30 item 5: the forked CaDiCaL ran at 95% CPU for 69+ s after kill -9."""
    _kill_and_check(["solve", str(SLOW_36), "--time-limit", "60"], wanted=1)


def test_exec_solver_and_its_children_die_with_their_parent(tmp_path: Path) -> None:
    """sat:exec in its own session: the guard kills the whole group (sh and its sleep)."""
    script = tmp_path / "solver.sh"
    script.write_text("#!/bin/sh\nsleep 40 &\nsleep 40\n")
    _kill_and_check(["solve", "-m", "sat:exec", "-o", f"cmd=sh {script} {{in}}",
                     "--time-limit", "60", str(DATA / "norvig" / "sudoku-hardest.txt")],
                    wanted=4)  # guard, sh, two sleeps


def test_exec_sh_c_sleep_dies_with_its_parent() -> None:
    """The issue's case: ``-o "cmd=sh -c 'sleep 40' {in}"``."""
    _kill_and_check(["solve", "-m", "sat:exec", "-o", "cmd=sh -c 'sleep 40' {in}",
                     "--time-limit", "60", str(DATA / "norvig" / "sudoku-hardest.txt")],
                    wanted=2)


def test_exec_through_the_sat_command_dies_with_its_parent(tmp_path: Path) -> None:
    cnf = tmp_path / "p.cnf"
    cnf.write_text("p cnf 2 1\n1 2 0\n")
    _kill_and_check(["sat", "-m", "exec", "-o", "cmd=sh -c 'sleep 40' {in}", str(cnf)],
                    wanted=2)


def test_pool_workers_in_cdcl_die_with_their_parent(tmp_path: Path) -> None:
    """--jobs 2 worker processes searching in CaDiCaL (which holds the GIL, so the workers'
    watching thread cannot run): the kernel kills them."""
    puzzles = tmp_path / "two.txt"
    text = " ".join(SLOW_36.read_text().split())
    puzzles.write_text(f"{text}\n{text}\n")
    _kill_and_check(["solve", "-m", "sat", "--jobs", "2", "--time-limit", "60", str(puzzles)],
                    wanted=2)


def test_dask_local_workers_die_with_their_parent(tmp_path: Path) -> None:
    """``--dask local`` worker processes (spawned by Dask, searching in CaDiCaL): the preload
    hook :func:`sudokit.run.batch.dask_setup` sets the kernel's parent-death signal (a worker
    still starting when its parent dies ends on its own: its pipe from the parent closes)."""
    pytest.importorskip("distributed")
    puzzles = tmp_path / "two.txt"
    text = " ".join(SLOW_36.read_text().split())
    puzzles.write_text(f"{text}\n{text}\n")
    _kill_and_check(["solve", "-m", "sat", "--dask", "local", "--jobs", "2", "--time-limit",
                     "60", str(puzzles)], wanted=2, settle=1.0)


def test_background_compile_child_dies_with_its_parent(tmp_path: Path) -> None:
    """The first use's compile child (``python -m sudokit.run.warm``, empty kernel cache)."""
    _kill_and_check(["solve", str(ROOT / "examples" / "top95.txt")], wanted=1,
                    env={"NUMBA_CACHE_DIR": str(tmp_path), "SUDOKIT_BACKGROUND_COMPILE": "1"})


def test_serve_solving_child_dies_with_the_server() -> None:
    """``sudokit serve`` solving a hard 36x36 by the portfolio (CaDiCaL forked from a worker
    thread of the server) when the server is killed."""
    import json
    import socket
    import threading
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    body = json.dumps({"puzzle": " ".join(SLOW_36.read_text().split()),
                       "method": "portfolio"}).encode()

    def post() -> None:
        for _ in range(300):  # until the server listens
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/solve", body, timeout=90)
                return
            except OSError:
                time.sleep(0.2)

    threading.Thread(target=post, daemon=True).start()
    _kill_and_check(["serve", "--port", str(port), "--time-limit", "60"], wanted=1)
