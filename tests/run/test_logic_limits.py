"""explain, hint and rate have a time limit (issue 30 item 11: ``rate`` of an empty 25x25 ran
400+ s), and ``rate`` stops on SIGTERM as ``solve`` does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from sudokit import compiled
from sudokit.cli import app
from sudokit.compiled import Kernels
from sudokit.errors import LimitReached
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.logic.deadline import limited
from sudokit.logic.rule_filters import filter_round
from sudokit.model.result import Limits
from sudokit.run import deadline, warm
from sudokit.solvers.portfolio import PortfolioSolver
from sudokit.run.doors import count_solutions
from sudokit.run.explain import explain, hint, rate, rate_many
from tests.helpers import ROOT, sigh_rule_puzzle

EMPTY_25 = Puzzle(Geometry.of(5, 5), (0,) * 625)
P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("door", [explain, rate, hint])
def test_doors_stop_at_their_time_limit(door) -> None:
    """With background compiling off (as in this suite), kernels compile where first used,
    as asked: the engines of both grids are loaded first, not timed. The cold cache with
    background compiling on (a library's default) is the next test's."""
    door(P)  # loads the engines first (not timed)
    count_solutions(EMPTY_25, "portfolio", node_limit=1)  # the general engine too
    _stops_within_its_limit(door)


@pytest.mark.parametrize("door", [explain, rate, hint])
def test_doors_do_not_compile_the_engine_inside_their_limit(door, monkeypatch) -> None:
    """Background compiling on, every kernel group compiled but the general engine's (an
    empty 25x25 on a cache compiled for 9x9 only): the door does not compile it in the
    foreground inside its 0.5 s; it asks the background for it and counts meanwhile by
    ``propagate``."""
    door(P)  # loads the technique engine first (not timed)
    asked: list[Kernels] = []
    monkeypatch.setattr(warm, "_ENABLED", True)
    monkeypatch.setattr(warm, "compile_in_background",
                        lambda jobs: asked.extend(kernels for kernels, _job in jobs))
    monkeypatch.setattr(compiled, "ready", lambda kernels: kernels is not Kernels.ENGINE)
    monkeypatch.setattr(deadline, "kernels_for", lambda request, geometry: Kernels.ENGINE)
    monkeypatch.setattr(PortfolioSolver, "warm_up",  # what compiling it would cost
                        lambda self, geometry=None: time.sleep(10))
    _stops_within_its_limit(door)
    assert asked == [Kernels.ENGINE]


def test_rate_stops_inside_a_long_rule_step(monkeypatch) -> None:
    """The deadline is checked inside a step, not only between steps: a rule forcing chain
    (+) of this little killer follows every candidate through the rules' filters, about 8 s
    of CPU for one step before the check reached the filters (its rate ran 136 s against a
    15 s limit on the board). The solution is given (on a loaded machine its count could use
    up the second before any step: the count's limit is tested elsewhere)."""
    from sudokit.run import explain

    puzzle, solution = sigh_rule_puzzle("disjoint_little_killer")
    rate(P)  # loads the engines first (not timed)
    monkeypatch.setattr(explain, "_solution", lambda *args: (solution, True))
    start = time.process_time()  # CPU: on a loaded machine the wall clock says little
    with pytest.raises(LimitReached, match="time limit 1.0 s"):
        rate(puzzle, time_limit=1.0)
    assert time.process_time() - start < 3.0


def test_the_rules_filters_check_the_deadline() -> None:
    puzzle, _solution = sigh_rule_puzzle("disjoint_little_killer")
    masks = [(1 << 9) - 1] * 81
    past = Limits(1.0, None, time.perf_counter() - 1.0)
    assert isinstance(filter_round(puzzle.geometry, list(masks)), dict)  # no limits: no check
    with limited(past), pytest.raises(LimitReached):
        filter_round(puzzle.geometry, list(masks))


def test_rate_many_marks_the_slow_puzzle_only() -> None:
    ratings = rate_many([Puzzle.coerce(P), EMPTY_25], time_limit=0.5)
    assert ratings[0].rating == pytest.approx(2.6)
    assert isinstance(ratings[1], LimitReached)


def test_cli_rate_writes_timeout_records() -> None:
    done = CliRunner().invoke(app, ["rate", P, "." * 625, "--time-limit", "0.5"])
    lines = done.stdout.splitlines()
    assert done.exit_code == 1 and lines[0].split("\t")[1] == "2.6"
    assert lines[1].split("\t")[1] == "timeout"


def test_sigterm_stops_rate_with_complete_records() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-m", "sudokit", "rate", "-"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write((P + "\n").encode())
        proc.stdin.flush()
        first = proc.stdout.readline()  # stdin stays open: rate waits for more
        proc.send_signal(signal.SIGTERM)
        rest, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert b"terminated: every record written is complete" in err
    assert first.split(b"\t")[1] == b"2.6" and rest == b""


def _stops_within_its_limit(door) -> None:
    """``door`` on an empty 25x25 with a 0.5 s limit stops there (only ``hint`` may finish:
    one step), within one limit on a loaded machine."""
    start = time.perf_counter()
    try:
        door(EMPTY_25, time_limit=0.5)
    except LimitReached as exc:
        assert "time limit 0.5 s" in str(exc)
    else:
        assert door is hint, "a whole logical solve of an empty 25x25 within 0.5 s"
    assert time.perf_counter() - start < 4.0  # one 0.5 s limit, on a loaded machine
