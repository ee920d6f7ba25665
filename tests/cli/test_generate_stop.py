"""``generate`` stops within about a second on SIGTERM, Ctrl-C and ``--time-limit``
(issue 43, item 9: on 64x64 grids one compiled call ran for over 100 s and held the signals)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import ROOT

ARGS = [sys.executable, "-m", "sudokit", "generate", "--size", "64", "--seed", "2", "-n", "50"]


def _started(*extra: str) -> subprocess.Popen:
    env = {**os.environ, "SUDOKIT_BACKGROUND_COMPILE": "0"}
    child = subprocess.Popen([*ARGS, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             cwd=ROOT, env=env)
    time.sleep(4)  # well inside the making of the first 64x64 puzzle
    assert child.poll() is None
    return child


@pytest.mark.parametrize(("sig", "code", "jobs"), [(signal.SIGTERM, 143, "1"),
                                                  (signal.SIGINT, 130, "1"),
                                                  (signal.SIGTERM, 143, "2")])
def test_a_signal_stops_a_64x64_run_within_a_second(sig: int, code: int, jobs: str) -> None:
    """Also with two worker threads, whose pool the interpreter's exit would wait for."""
    child = _started("--jobs", jobs)
    sent = time.monotonic()
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    took = time.monotonic() - sent
    assert child.returncode == code, err
    assert took < 1.5, took
    assert "Traceback" not in err


def test_time_limit_stops_a_run() -> None:
    env = {**os.environ, "SUDOKIT_BACKGROUND_COMPILE": "0"}
    started = time.monotonic()
    done = subprocess.run([*ARGS, "--time-limit", "2"], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "time limit of 2 s reached" in done.stderr
    assert time.monotonic() - started < 15  # start-up, 2 s and the stop


def test_time_limit_keeps_what_was_made(tmp_path) -> None:
    from typer.testing import CliRunner

    from sudokit.cli import app

    result = CliRunner().invoke(app, ["generate", "--size", "4", "-n", "3", "--seed", "1",
                                      "--time-limit", "60"])
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 3
