"""One contract, every method: the same properties hold for each registered method.

Skips are by capability (declared sizes), never by method name.
"""

from __future__ import annotations

import time

import pytest

from sudokit import Geometry, Puzzle, Status, count_solutions, get_solver, is_solution, solve
from sudokit.errors import InvalidOption, UnsupportedPuzzle
from sudokit.model.result import COUNTERS
from tests.helpers import DATA, load

PLAIN_TIME = 20.0  # generous per-puzzle limit for the slow teaching methods


def needs(method: str, side: int, box: tuple[int, int] | None = None) -> Geometry:
    geometry = Geometry.of(*box) if box else Geometry.for_side(side)
    if not get_solver(method).supports(geometry):
        pytest.skip(f"{method} does not declare {geometry.shape_name}")
    return geometry


def test_easy_real_puzzles_solve_and_verify(method: str) -> None:
    for puzzle in load("norvig/sudoku-easy50.txt", 5):
        result = solve(puzzle, method, time_limit=PLAIN_TIME)
        assert result.status is Status.SOLVED, result.message
        assert is_solution(result.solution, puzzle)
        assert result.method.split(":")[0] == method.split(":")[0]
        assert result.seconds >= 0


def test_unique_puzzle_counts_one(method: str) -> None:
    puzzle = load("norvig/sudoku-easy50.txt", 1)[0]
    result = count_solutions(puzzle, method, limit=2, time_limit=PLAIN_TIME)
    assert result.status is Status.SOLVED and result.count == 1 and result.unique is True


def test_multiple_solutions_count_two(method: str) -> None:
    path = DATA / "invalid/sudopedia_cp468/multiple_solutions/two_solutions.txt"
    puzzle = Puzzle.from_digits([0 if ch == "." else int(ch) for ch in path.read_text().split()
                                 for ch in ch])
    result = count_solutions(puzzle, method, limit=2, time_limit=PLAIN_TIME)
    assert result.count == 2 and result.label is Status.MULTIPLE
    assert result.solutions[0] != result.solutions[1]
    assert all(is_solution(s, puzzle) for s in result.solutions)


def test_contradictory_givens_unsatisfiable(method: str) -> None:
    givens = [0] * 81
    givens[0] = givens[8] = 5  # twice in row 1
    result = solve(Puzzle.from_digits(givens), method)
    assert result.status is Status.UNSATISFIABLE and result.solution is None
    assert "row 1" in result.message


@pytest.mark.parametrize("name", ["unsolvable_box", "unsolvable_col", "unsolvable_row",
                                  "unsolvable_square"])
def test_unsolvable_without_duplicates_is_proved(method: str, name: str) -> None:
    path = DATA / f"invalid/sudopedia_cp468/unsolvable/{name}.txt"
    puzzle = Puzzle.from_digits([0 if ch == "." else int(ch) for ch in path.read_text()
                                 if not ch.isspace()])
    result = solve(puzzle, method, time_limit=PLAIN_TIME)
    assert result.status is Status.UNSATISFIABLE, (name, result.message)


def test_node_limit_gives_unknown(method: str) -> None:
    empty = Puzzle.from_digits([0] * 81)
    result = count_solutions(empty, method, limit=None, node_limit=10)
    assert result.status is Status.UNKNOWN
    assert all(is_solution(s, empty) for s in result.solutions)


@pytest.mark.parametrize("limit", [0, 1, 7, 40])
def test_node_limit_is_exact(method: str, limit: int) -> None:
    """With node_limit=N a method enters at most N nodes: it stops with nodes <= N."""
    empty = Puzzle.from_digits([0] * 81)
    result = count_solutions(empty, method, limit=None, node_limit=limit)
    assert result.status is Status.UNKNOWN and "node limit" in result.message
    assert result.stats.nodes is not None and result.stats.nodes <= limit, result.stats.nodes


def test_negative_limits_are_refused(method: str) -> None:
    empty = Puzzle.from_digits([0] * 81)
    with pytest.raises(InvalidOption, match="time limit"):
        solve(empty, method, time_limit=-1)
    with pytest.raises(InvalidOption, match="node limit"):
        solve(empty, method, node_limit=-1)


def test_time_limit_gives_unknown_promptly(method: str) -> None:
    empty = Puzzle.from_digits([0] * 81)
    start = time.perf_counter()
    result = count_solutions(empty, method, limit=None, time_limit=0.3)
    assert result.status is Status.UNKNOWN
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("side,box", [(1, (1, 1)), (4, (2, 2)), (6, (2, 3)), (9, (3, 3)),
                                      (12, (3, 4)), (16, (4, 4))])
def test_empty_grid_of_each_declared_size(method: str, side: int, box: tuple[int, int]) -> None:
    geometry = needs(method, side, box)
    puzzle = Puzzle(geometry, (0,) * geometry.n_cells)
    result = solve(puzzle, method, time_limit=PLAIN_TIME)
    assert result.status is Status.SOLVED and is_solution(result.solution, puzzle)


def test_undeclared_size_is_refused(method: str) -> None:
    solver = get_solver(method)
    if solver.max_side >= 64:
        pytest.skip("declares every size")
    geometry = Geometry.for_side(solver.max_side + 1)
    with pytest.raises(UnsupportedPuzzle):
        solve(Puzzle(geometry, (0,) * geometry.n_cells), method)


def test_large_real_puzzle(method: str) -> None:
    needs(method, 16)
    lines = (DATA / "large/bnguyen_16x16.txt").read_text().split()
    puzzle = Puzzle.from_digits([int(x) for x in lines])
    result = solve(puzzle, method, time_limit=PLAIN_TIME)
    # A method that declares 16x16 must solve this one (each does in well under a second): a
    # time-out is a regression, never a skip.
    assert result.status is Status.SOLVED, f"{method}: {result.summary()}"
    assert is_solution(result.solution, puzzle)


def _measured(stats) -> set[str]:
    return {name for name in COUNTERS if getattr(stats, name) is not None}


@pytest.mark.parametrize("case", ["solved", "search", "unsatisfiable", "limit"])
def test_only_declared_counters_are_set(method: str, case: str) -> None:
    """A counter the method does not declare stays None (never a misleading 0), and a search
    never backtracks more often than it entered nodes."""
    solver = get_solver(method)
    if case == "solved":
        result = solve(load("norvig/sudoku-easy50.txt", 1)[0], method, time_limit=PLAIN_TIME)
    elif case == "search":
        result = count_solutions(load("norvig/sudoku-top95.txt", 1)[0], method, limit=2,
                                 time_limit=PLAIN_TIME)
    elif case == "unsatisfiable":
        path = DATA / "invalid/sudopedia_cp468/unsolvable/unsolvable_box.txt"
        result = solve(Puzzle.from_digits([0 if ch == "." else int(ch) for ch in
                                           path.read_text() if not ch.isspace()]),
                       method, time_limit=PLAIN_TIME)
    else:
        result = count_solutions(Puzzle.from_digits([0] * 81), method, limit=None, node_limit=25)
    undeclared = _measured(result.stats) - set(solver.counters)
    assert not undeclared, f"{method} sets undeclared counters {sorted(undeclared)}"
    nodes, backtracks = result.stats.nodes, result.stats.backtracks
    if nodes is not None and backtracks is not None:
        assert backtracks <= nodes, (method, case, nodes, backtracks)


@pytest.mark.parametrize("method_name", ["backtracking", "forward-checking"])
def test_cli_jsonl_leaves_unmeasured_counters_null(method_name: str) -> None:
    """Issue 17.14 through the CLI: backtracking measures no propagation, revision or queue."""
    import json

    from typer.testing import CliRunner

    from sudokit.cli import app

    text = (DATA / "norvig/sudoku-easy50.txt").read_text().split("\n")[0]
    out = CliRunner().invoke(app, ["solve", "-m", method_name, "-f", "jsonl", text])
    assert out.exit_code == 0, out.output
    stats = json.loads(out.stdout.splitlines()[0])["stats"]
    assert stats["revisions"] is None and stats["max_queue"] is None
    assert (stats["propagations"] is None) == (method_name == "backtracking")
    assert stats["nodes"] >= stats["backtracks"] >= 0
