"""The portfolio method (engine probe, then engine and CDCL raced) and the compact CNF.

Small grids go through the race by setting ``fast_only_side=0`` and ``probe_nodes=0``; both
schedules (a thread beside CDCL, and one thread alternating) run every race test.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from sudokit.model.constraints import Variant
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution
from sudokit.model.result import Limits, Status
from sudokit.run.chunk import solve_chunk
from sudokit.run.doors import count_solutions, solve, solve_many
from sudokit.run.request import Request
from sudokit.sat.compact import compact_cnf
from sudokit.sat.encoding import Encoding, encode
from sudokit.sat.forked import HEAD_START
from sudokit.solvers import portfolio
from sudokit.solvers.portfolio import PortfolioSolver
from tests.helpers import DATA, load

pytest.importorskip("pysat")

RACE = {"fast_only_side": 0, "probe_nodes": 0}
WORKERS = pytest.mark.parametrize("workers", [1, 2])
UNSAT_4X4 = Puzzle.from_digits([1, 2, 3, 0, 0, 0, 0, 4] + [0] * 8)  # r1c4 has no candidate


def _large(name: str) -> Puzzle:
    path = DATA / "large" / name
    return Puzzle.from_digits([int(x) for x in path.read_text().split()])


@WORKERS
def test_race_solves_and_names_a_winner(workers: int) -> None:
    puzzle = _large("bnguyen_16x16.txt")
    result = solve(puzzle, "portfolio", workers=workers, **RACE)
    assert result.status is Status.SOLVED and is_solution(result.solution, puzzle)
    assert result.stats.extra["winner"] in ("fast", "sat:cadical195")


@WORKERS
def test_race_counts_distinct_grids_and_proves_the_count(workers: int) -> None:
    empty = Puzzle.from_digits([0] * 16)
    two = count_solutions(empty, "portfolio", limit=2, workers=workers, **RACE)
    assert two.status is Status.SOLVED and two.count == 2
    assert len(set(two.solutions)) == 2
    every = count_solutions(empty, "portfolio", limit=None, workers=workers, **RACE)
    assert every.count == 288  # all 4x4 Sudoku grids, each once although both methods run
    unique = count_solutions(_large("bnguyen_16x16.txt"), "portfolio", limit=2,
                             workers=workers, **RACE)
    assert unique.status is Status.SOLVED and unique.count == 1


@WORKERS
def test_race_proves_unsatisfiable(workers: int) -> None:
    assert solve(UNSAT_4X4, "portfolio", workers=workers, **RACE).status is Status.UNSATISFIABLE


@pytest.mark.parametrize(("load", "joins"), [(0.3, True), (1.6, False), (6.0, False)])
def test_the_engine_thread_starts_at_once_only_when_a_core_is_free(
        monkeypatch: pytest.MonkeyPatch, load: float, joins: bool) -> None:
    """Two cores: the engine's thread races CDCL at once when the one-minute load average
    leaves a core free (``sat.forked.head_start``, the default path's rule); on a busy machine
    CDCL first searches alone, and settles a 4x4 count long before its head start is over."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    started: list[bool] = []
    start_thread = portfolio._Engine.start_thread

    def spy(engine: portfolio._Engine) -> None:
        started.append(True)
        start_thread(engine)

    monkeypatch.setattr(portfolio._Engine, "start_thread", spy)
    two = count_solutions(Puzzle.from_digits([0] * 16), "portfolio", limit=2, workers=2, **RACE)
    assert two.status is Status.SOLVED and two.count == 2
    assert bool(started) is joins
    if not joins:
        assert two.stats.extra["winner"] == "sat:cadical195"


def test_the_engine_thread_joins_after_the_head_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """No core free: the engine's thread starts at the first look after the forked CDCL has
    used its head start of CPU seconds, not before."""
    cpu = [0.1]
    cdcl = type("Cdcl", (), {"cpu": lambda self: cpu[0]})()
    engine = portfolio._Engine(Puzzle.from_digits([0] * 16), True, None, None)
    started: list[bool] = []
    monkeypatch.setattr(engine, "start_thread", lambda: started.append(True))
    joiner = portfolio._Joiner(engine, cdcl, HEAD_START)
    joiner()
    assert not started
    cpu[0] = HEAD_START
    joiner()
    assert started == [True]


@WORKERS
def test_node_limit_is_exact_over_both_methods(workers: int) -> None:
    empty = Puzzle(Geometry.of(5, 5), (0,) * 625)
    result = count_solutions(empty, "portfolio", limit=None, node_limit=300, workers=workers,
                             **RACE)
    assert result.status is Status.UNKNOWN and result.stats.nodes <= 300


@WORKERS
def test_time_limit_holds_in_the_race(workers: int) -> None:
    empty = Puzzle(Geometry.of(5, 5), (0,) * 625)
    solve(empty, "fast")  # load the compiled kernels first: not part of the measure
    result = count_solutions(empty, "portfolio", limit=None, time_limit=0.5, workers=workers,
                             **RACE)
    assert result.status is Status.UNKNOWN and "time limit" in result.message
    # The contract is T + 1 s (issue 39); a tighter bound failed CI on a loaded machine (0.73 s).
    assert result.seconds < 0.5 + 1.0


def test_small_grids_run_the_engine_alone_with_its_counts() -> None:
    puzzles = load("norvig/sudoku-top95.txt", 20)
    ours = solve_many(puzzles, "portfolio")
    fast = solve_many(puzzles, "fast")
    assert [r.solution for r in ours] == [r.solution for r in fast]
    assert [r.stats.nodes for r in ours] == [r.stats.nodes for r in fast]
    assert all(r.method == "portfolio" for r in ours)


@pytest.mark.parametrize("probe", [0, 5, 10**6])
def test_chunk_races_only_the_rows_the_probe_left(probe: int) -> None:
    puzzles = [_large("bnguyen_16x16.txt"), load("large/aprivitera_16x16.txt")[0]]
    givens = np.array([p.givens for p in puzzles], np.uint8)
    request = Request.build("portfolio", {"probe_nodes": probe, "fast_only_side": 0},
                            Limits(), 2)
    chunk = solve_chunk(givens, puzzles[0].geometry, request)
    assert chunk.method == "portfolio"
    assert chunk.status.tolist() == [Status.SOLVED, Status.SOLVED]
    assert chunk.found.tolist() == [1, 1]
    assert (chunk.counters[:, chunk.counter_names.index("nodes")] >= 0).all()


@pytest.mark.parametrize(("probe", "node_limit"), [(0, None), (10**6, None), (10, 4)])
def test_a_chunk_of_one_puzzle_probes_in_the_race_engine(monkeypatch, probe: int,
                                                         node_limit: int | None) -> None:
    """One puzzle that may race is probed by the race's resumable engine (not the batch call,
    whose probe the race would search again, its kernels loaded beside the race's): the same
    answers, nodes within the caller's limit."""
    from sudokit.solvers.fast import FastSolver

    monkeypatch.setattr(FastSolver, "solve_chunk", lambda *args: pytest.fail("batch probe"))
    puzzle = _large("bnguyen_16x16.txt")
    if node_limit is not None:  # an empty grid: its 300 solutions take more nodes
        puzzle = Puzzle(Geometry.of(4, 4), (0,) * 256)
    request = Request.build("portfolio", {"probe_nodes": probe, "fast_only_side": 0},
                            Limits(node_limit=node_limit), 2 if node_limit is None else 300)
    chunk = solve_chunk(np.array([puzzle.givens], np.uint8), puzzle.geometry, request)
    if node_limit is None:
        assert chunk.status.tolist() == [Status.SOLVED] and chunk.found.tolist() == [1]
        assert is_solution(chunk.grids[0, 0].tolist(), puzzle)
    else:
        assert chunk.status.tolist() == [Status.UNKNOWN]
        assert chunk.counters[0, 0] <= node_limit


def test_chunk_keeps_the_callers_node_limit() -> None:
    empty = np.zeros((2, 256), np.uint8)
    request = Request.build("portfolio", {"probe_nodes": 10, "fast_only_side": 0},
                            Limits(node_limit=4), 300)
    chunk = solve_chunk(empty, Geometry.of(4, 4), request)
    assert chunk.status.tolist() == [Status.UNKNOWN] * 2
    assert (chunk.counters[:, 0] <= 4).all()


def test_default_options_are_declared() -> None:
    solver = PortfolioSolver()
    assert solver.settings["probe_nodes"] > 0 and solver.settings["fast_only_side"] == 9


def _clause_set(clauses, original=None) -> set[tuple[int, ...]]:
    if original is None:
        return {tuple(sorted(c)) for c in clauses}
    return {tuple(sorted(int(original[abs(x)]) * (1 if x > 0 else -1) for x in c))
            for c in clauses}


@pytest.mark.parametrize("puzzle", [
    Puzzle.from_digits([0] * 16),
    UNSAT_4X4,
    load("norvig/sudoku-top95.txt", 1)[0],
    Puzzle(Geometry.of(3, 3, Variant.DIAGONAL), (0,) * 81),
    Puzzle(Geometry.of(2, 3), (1, 2, 3) + (0,) * 33),
])
def test_compact_cnf_has_the_clauses_of_the_reduced_encoding(puzzle: Puzzle) -> None:
    cnf = compact_cnf(puzzle)
    assert _clause_set(cnf.clauses, cnf.original) == _clause_set(encode(puzzle, Encoding.REDUCED))
    pairs = [tuple(sorted(c)) for c in cnf.clauses if len(c) == 2 and c[0] < 0 and c[1] < 0]
    assert len(pairs) == len(set(pairs))  # each pairwise clause once


def test_compact_cnf_decodes_and_blocks() -> None:
    from pysat.solvers import Solver as PySat

    puzzle = Puzzle.from_digits([1, 0, 0, 0] * 4)  # column 1 all ones: unsatisfiable
    assert [] in compact_cnf(puzzle).clauses
    puzzle = Puzzle.from_digits([0] * 16)
    cnf = compact_cnf(puzzle)
    grids = set()
    with PySat(name="cadical195", bootstrap_with=cnf.clauses) as sat:
        while sat.solve():
            grid = cnf.decode(sat.get_model())
            assert is_solution(grid, puzzle) and grid not in grids
            grids.add(grid)
            sat.add_clause(cnf.blocking_clause(grid))
    assert len(grids) == 288


def test_engine_restarts_keep_enumeration_exact() -> None:
    """dom/wdeg with restarts (sides 16 and up) before the first solution, plain enumeration
    after it: this 25x25 puzzle restarts and has exactly 20 solutions."""
    from sudokit.fast import ResumableSearch
    from sudokit.fast.state import Reg

    text = (DATA / "qcp" / "25x25_restarts.txt").read_text()
    puzzle = Puzzle.from_digits([int(x) for x in text.split()])
    search = ResumableSearch(puzzle.geometry, puzzle.givens)
    search.advance()
    assert int(search._state.regs[Reg.RESTARTS]) > 0
    fast = count_solutions(puzzle, "fast", limit=None)
    sat = count_solutions(puzzle, "sat:cadical195", limit=None)
    assert fast.count == sat.count == 20
    assert set(fast.solutions) == set(sat.solutions)


def test_cpsat_solves_counts_and_proves() -> None:
    """The optional CP-SAT method (skipped without OR-Tools; the contract suite covers more)."""
    pytest.importorskip("ortools")
    puzzle = load("large/aprivitera_16x16.txt")[0]
    result = count_solutions(puzzle, "cpsat", limit=2)
    assert result.status is Status.SOLVED and result.count == 1
    assert count_solutions(Puzzle.from_digits([0] * 16), "cpsat", limit=None).count == 288
    assert solve(UNSAT_4X4, "cpsat").status is Status.UNSATISFIABLE
