"""The default path's hand-over race: CDCL forked against the compiled engine (run/race.py)."""

from __future__ import annotations

import json
import time

import pytest

from sudokit import compiled
from sudokit.compiled import Kernels
from sudokit.formats.fpuzzles import fpuzzles_puzzle
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, violations
from sudokit.model.result import Limits, Status
from sudokit.run import race as race_module
from sudokit.run import warm
from sudokit.run.doors import count_solutions
from sudokit.run.race import can_race, race
from sudokit.sat.forked import ForkedCdcl
from tests.helpers import DATA

RULES = DATA / "rules"

pytestmark = pytest.mark.skipif(not ForkedCdcl.works(), reason="CDCL is forked")


def _iss(title: str) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle of ISS's collection (tests/data/rules/iss_collections.json), with its
    published solution."""
    item = next(i for i in json.loads((RULES / "iss_collections.json").read_text())
                if i["title"] == title)
    return fpuzzles_puzzle(item["puzzle"]), tuple(map(int, item["solution"]))


def _load_engine(puzzle: Puzzle) -> None:
    """Load (or compile, on a cold cache: minutes) the engine's search for ``puzzle``, so that
    a race does not spend its time there (the hand-over races only once it is compiled)."""
    from sudokit.fast import ResumableSearch

    ResumableSearch(puzzle.geometry, puzzle.givens).advance(1)


def test_the_engine_settles_what_cdcl_does_not_finish() -> None:
    """Triple digits: CDCL ran past 30 s on it, the engine searches 96 nodes."""
    puzzle, solution = _iss("Triple digits")
    _load_engine(puzzle)
    raced = race(puzzle, 2, Limits(60))
    assert raced.status is Status.SOLVED and raced.grids == [solution]
    assert raced.winner == "fast" and raced.message is None


def test_cdcl_settles_what_it_finishes_in_its_head_start() -> None:
    path = RULES / "sigh_modular_lines.json"  # propagate: about 1 s; CDCL: tens of ms
    raced = race(fpuzzles_puzzle(path.read_text()), 2, Limits(60))
    assert raced.status is Status.SOLVED
    assert raced.grids == [tuple(json.loads(path.read_text())["solution"])]
    assert raced.winner.startswith("sat:")


def test_a_puzzle_with_two_solutions_is_counted_by_either() -> None:
    puzzle = Puzzle(Geometry.for_side(4), (1, 2, 3, 4, 3, 4, 1, 2) + (0,) * 8)
    raced = race(puzzle, 2, Limits(60))
    assert raced.status is Status.SOLVED and len(set(raced.grids)) == 2
    assert not any(violations(grid, puzzle) for grid in raced.grids)


def test_the_race_stops_at_its_time_limit(monkeypatch) -> None:
    puzzle, _solution = _iss("Hailstone - little killer")
    _load_engine(puzzle)
    monkeypatch.setattr(race_module, "HEAD_START", 0.0)  # the engine's slices run too
    start = time.perf_counter()
    raced = race(puzzle, 2, Limits(0.3))
    assert raced.status is Status.UNKNOWN and raced.message == "time limit 0.3 s reached"
    assert time.perf_counter() - start < 3.0  # kernel loading, on a loaded machine


def test_the_hand_over_races_once_the_engine_is_ready(monkeypatch) -> None:
    puzzle, solution = _iss("Triple digits")
    geometry, limits = puzzle.geometry, Limits(60)
    monkeypatch.setattr(compiled, "ready", lambda kernels: kernels is not Kernels.SEARCH)
    asked: list[Kernels] = []
    monkeypatch.setattr(warm, "_ENABLED", True)
    monkeypatch.setattr(warm, "compile_in_background",
                        lambda jobs: asked.extend(kernels for kernels, _job in jobs))
    assert not can_race("sat", geometry, limits)  # not compiled: CDCL alone, as before
    assert asked == [Kernels.SEARCH]  # and compiled in the background for the next ones
    monkeypatch.setattr(warm, "_ENABLED", False)
    monkeypatch.setattr(compiled, "ready", lambda kernels: True)
    assert can_race("sat", geometry, limits)
    assert not can_race("sat", geometry, Limits(60, 1000))  # node limits do not add up
    assert not can_race("portfolio", geometry, limits)
    _load_engine(puzzle)
    result = count_solutions(puzzle, time_limit=60)
    assert result.status is Status.SOLVED and result.solutions == (solution,)
    assert result.count == 1 and result.stats.extra["winner"] == "fast"
