"""SIGTERM during ``solve``'s start-up (issue 43, item 11): exit code 143 as documented (it
was 130: Click turns any KeyboardInterrupt, which the SIGTERM handler raises, into 130), and
no traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from tests.helpers import DATA, ROOT


@pytest.mark.parametrize("delay", [0.3, 0.6, 0.9])
def test_sigterm_in_start_up_exits_143(delay: float, tmp_path) -> None:
    source = tmp_path / "many.txt"
    source.write_text((DATA / "norvig/sudoku-top95.txt").read_text() * 200)
    child = subprocess.Popen([sys.executable, "-m", "sudokit", "solve", str(source), "-m",
                              "propagate", "-j", "2"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    time.sleep(delay)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=60)  # 19,000 puzzles: still running when signalled
    assert child.returncode in (143, -signal.SIGTERM), err  # -15: before Python's handler
    assert "Traceback" not in err


def test_an_error_after_a_swallowed_sigterm_is_the_stop() -> None:
    """Numba catches the Terminated raised while it compiles and fails later with its own
    error (``RuntimeError: no compiled object yet``): that error ends the command as the
    SIGTERM would have, exit 143 and one line, not a traceback with exit 1."""
    import os

    import typer

    from sudokit.cli._common import Terminated, stopped_by_sigterm

    with pytest.raises(typer.Exit) as stop:
        with stopped_by_sigterm(exits=True):
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(1)
            except Terminated:
                pass  # swallowed, as library code does
            raise RuntimeError("no compiled object yet")
    assert stop.value.exit_code == 143
    with pytest.raises(RuntimeError):  # without a SIGTERM an error stays an error
        with stopped_by_sigterm(exits=True):
            raise RuntimeError("a bug")


def test_a_sigterm_in_a_finaliser_is_sent_again() -> None:
    """A SIGTERM whose Terminated is raised where Python cannot raise (a finaliser: it goes to
    ``sys.unraisablehook``) reaches the command's code a moment later instead of being lost."""
    from sudokit.cli._common import Terminated, stopped_by_sigterm

    class Late:
        def __del__(self) -> None:
            raise Terminated

    with pytest.raises(Terminated):
        with stopped_by_sigterm():
            Late()  # collected at once: its Terminated goes to the hook
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                time.sleep(0.01)
