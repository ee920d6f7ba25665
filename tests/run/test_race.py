"""The default path's hand-over race: CDCL forked against the compiled engine (run/race.py)."""

from __future__ import annotations

import json
import os
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
from sudokit.sat.forked import HEAD_START, ForkedCdcl, head_start
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


def test_cdcl_settles_what_it_finishes_in_its_head_start(monkeypatch) -> None:
    """CDCL has its head start (no core free: on a quiet machine the engine would start at
    once and might answer first) and finishes inside it."""
    monkeypatch.setattr(race_module, "head_start", lambda: HEAD_START)
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
    monkeypatch.setattr(race_module, "head_start", lambda: 0.0)  # the engine runs too
    start = time.perf_counter()
    raced = race(puzzle, 2, Limits(0.05))  # the engine's count takes about 0.2 CPU s
    assert raced.status is Status.UNKNOWN and raced.message == "time limit 0.05 s reached"
    assert time.perf_counter() - start < 3.0  # kernel loading, on a loaded machine


def test_the_hand_over_races_once_the_engine_is_ready(monkeypatch) -> None:
    puzzle, solution = _iss("Triple digits")
    geometry, limits = puzzle.geometry, Limits(60)
    monkeypatch.setattr(compiled, "ready", lambda kernels: kernels is not Kernels.RULES)
    asked: list[Kernels] = []
    monkeypatch.setattr(warm, "_ENABLED", True)
    monkeypatch.setattr(warm, "compile_in_background",
                        lambda jobs: asked.extend(kernels for kernels, _job in jobs))
    assert not can_race("sat", geometry, limits)  # not compiled: CDCL alone, as before
    assert asked == [Kernels.RULES]  # and compiled in the background for the next ones
    monkeypatch.setattr(warm, "_ENABLED", False)
    monkeypatch.setattr(compiled, "ready", lambda kernels: True)
    assert can_race("sat", geometry, limits)
    assert not can_race("sat", geometry, Limits(60, 1000))  # node limits do not add up
    assert not can_race("portfolio", geometry, limits)
    _load_engine(puzzle)
    result = count_solutions(puzzle, time_limit=60)
    assert result.status is Status.SOLVED and result.solutions == (solution,)
    assert result.count == 1 and result.stats.extra["winner"] == "fast"


def test_a_grid_without_drawn_rules_races_once_the_plain_search_is_compiled(monkeypatch
                                                                           ) -> None:
    """The engine's search has two versions: for grids with drawn rules (:data:`Kernels.RULES`)
    and without (the default method's warm-up, :data:`Kernels.SEARCH`). A hand-over races
    once its grid's version is compiled; meanwhile that version compiles in the background."""
    puzzle, _solution = _iss("Triple digits")
    plain = Geometry.for_side(4)
    monkeypatch.setattr(compiled, "ready", lambda kernels: kernels is not Kernels.SEARCH)
    asked: list[Kernels] = []
    monkeypatch.setattr(warm, "_ENABLED", True)
    monkeypatch.setattr(warm, "compile_in_background",
                        lambda jobs: asked.extend(kernels for kernels, _job in jobs))
    assert not can_race("sat", plain, Limits(60))
    assert asked == [Kernels.SEARCH]
    assert can_race("sat", puzzle.geometry, Limits(60))
    assert asked == [Kernels.SEARCH]


def test_the_rules_job_compiles_the_version_a_rule_puzzle_loads(tmp_path, monkeypatch) -> None:
    """:func:`sudokit.run.warm.rules_job` leaves in the cache the specialisation every rule
    puzzle's search loads: after it, a published rule puzzle's search compiles nothing."""
    from sudokit.fast import ResumableSearch, kernels

    warm.rules_job()()
    before = {key: len(dispatcher.overloads) for key, dispatcher in
              (("start", kernels.start), ("run", kernels.run))}
    puzzle, _solution = _iss("Hailstone - little killer")
    ResumableSearch(puzzle.geometry, puzzle.givens).advance(1)
    assert {"start": len(kernels.start.overloads), "run": len(kernels.run.overloads)} == before


@pytest.mark.parametrize(("cores", "load", "alone"), [
    (2, 0.3, 0.0), (2, 1.5, 0.0), (2, 1.6, HEAD_START), (8, 7.0, 0.0), (1, 0.0, HEAD_START)])
def test_the_engine_starts_at_once_when_a_core_is_free(monkeypatch, cores: int, load: float,
                                                       alone: float) -> None:
    """CDCL searches alone first only on a busy machine (its one-minute load average within
    half a core of the usable cores) or with one core: else the engine's loading overlaps
    CDCL's search on the free core."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert head_start() == alone  # the rule of both races (run.race and the portfolio)


def test_the_engine_starts_before_the_quick_method_when_a_core_is_free(monkeypatch) -> None:
    """On a puzzle with drawn rules whose hand-over races, with a core free, the engine's child
    starts before ``propagate`` answers (its loading overlaps the quick budget) and the race
    takes it as it is; a puzzle ``propagate`` finishes only kills it. Not on a busy machine,
    not without drawn rules, not before its kernels are compiled."""
    puzzle, solution = _iss("Triple digits")
    _load_engine(puzzle)
    monkeypatch.setattr(race_module, "head_start", lambda: 0.0)
    limits = Limits(60)
    assert race_module.early_engine(Puzzle(Geometry.for_side(4), (0,) * 16), "sat", limits,
                                    2) is None  # no drawn rules: propagate settles those
    monkeypatch.setattr(race_module, "head_start", lambda: HEAD_START)
    assert race_module.early_engine(puzzle, "sat", limits, 2) is None  # no core free
    monkeypatch.setattr(race_module, "head_start", lambda: 0.0)
    monkeypatch.setattr(compiled, "ready", lambda kernels: kernels is not Kernels.RULES)
    assert race_module.early_engine(puzzle, "sat", limits, 2) is None  # not compiled
    monkeypatch.undo()
    monkeypatch.setattr(race_module, "head_start", lambda: 0.0)
    monkeypatch.setattr(compiled, "ready", lambda kernels: True)
    unused = race_module.early_engine(puzzle, "sat", limits, 2)
    assert unused is not None and unused.process.is_alive()
    unused.close()
    assert not unused.process.is_alive()
    unused.close()  # a second close does nothing
    engine = race_module.early_engine(puzzle, "sat", limits, 2)
    raced = race(puzzle, 2, limits, engine)
    assert raced.status is Status.SOLVED and raced.grids == [solution]
    assert raced.winner == "fast"
    started = []
    real = race_module.early_engine

    def spy(*args):
        child = real(*args)
        started.append(child)
        return child

    monkeypatch.setattr(race_module, "early_engine", spy)
    result = count_solutions(puzzle, time_limit=60)  # the library's default path
    assert result.solutions == (solution,) and result.stats.extra["winner"] == "fast"
    assert started and started[0] is not None and not started[0].process.is_alive()
