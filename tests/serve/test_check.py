"""``/api/check`` and :func:`sudokit.run.check.grid_violations`: the rules a grid in progress
already breaks, each with its cells, on published puzzles (a thermometer puzzle of sigh's
collection with its published solution, a Janko killer)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("httpx")  # Starlette's test client

from starlette.testclient import TestClient  # noqa: E402

from sudokit.formats.text import parse_puzzle  # noqa: E402
from sudokit.model.puzzle import Puzzle, is_solution  # noqa: E402
from sudokit.run.check import grid_violations  # noqa: E402
from sudokit.run.doors import solve  # noqa: E402
from sudokit.serve import Settings, create_app  # noqa: E402
from tests.helpers import DATA  # noqa: E402

THERMO = (DATA / "rules" / "sigh_thermosudoku.json").read_text()
SOLUTION = json.loads(THERMO)["solution"]
KILLER = (DATA / "janko/KillerSudoku/problems/22_9x9.txt").read_text()


def test_the_published_solution_breaks_nothing_and_a_swap_breaks_the_thermometer() -> None:
    puzzle = Puzzle.parse(THERMO)
    assert grid_violations(puzzle, SOLUTION) == [] and is_solution(SOLUTION, puzzle)
    thermo = next(r for r in puzzle.geometry.constraints if r.name == "thermometer")
    bulb, tip = thermo.cells[0], thermo.cells[-1]
    swapped = list(SOLUTION)
    swapped[bulb], swapped[tip] = swapped[tip], swapped[bulb]
    broken = grid_violations(puzzle, swapped)
    assert any(v.rule.startswith("thermometer") and bulb in v.cells for v in broken), broken
    assert not is_solution(swapped, puzzle)  # the same verdict as the full check


def test_a_grid_in_progress_shows_only_what_is_already_broken() -> None:
    puzzle = Puzzle.parse(THERMO)
    empty = [0] * 81
    assert grid_violations(puzzle, empty) == []
    open_cells = [c for c in range(9) if not puzzle.givens[c]]
    a, b = open_cells[:2]
    grid = list(empty)
    grid[a] = grid[b] = SOLUTION[a]
    broken = grid_violations(puzzle, grid)
    assert [v.cells for v in broken if v.rule == "row 1"] == [(a, b)]


def test_a_killer_cage_past_its_total_is_broken_before_it_is_full() -> None:
    puzzle = parse_puzzle(KILLER, variant="killer")
    solution = solve(puzzle).solution
    assert solution is not None and grid_violations(puzzle, solution) == []
    cage = min(puzzle.geometry.cages, key=lambda c: c.total - len(c.cells))
    grid = [0] * 81
    grid[cage.cells[0]] = cage.total - len(cage.cells) + 2  # the open cells can't fit
    assert grid[cage.cells[0]] <= 9
    broken = grid_violations(puzzle, grid)
    assert any(v.rule == f"killer cage {cage.total}" for v in broken), broken


def test_the_api_answers_check_in_the_server_with_cells() -> None:
    app = create_app(Settings())
    try:
        client = TestClient(app)
        full = client.post("/api/check", json={"puzzle": THERMO, "grid": SOLUTION}).json()
        assert full == {"violations": [], "filled": True, "solved": True}
        wrong = list(SOLUTION)
        wrong[0], wrong[1] = wrong[1], wrong[0]
        answer = client.post("/api/check", json={"puzzle": THERMO, "grid": wrong}).json()
        assert answer["filled"] and not answer["solved"] and answer["violations"]
        assert all({"rule", "cells", "text"} == set(v) for v in answer["violations"])
        bad = client.post("/api/check", json={"puzzle": THERMO, "grid": [0] * 80})
        assert bad.status_code == 400
        assert all(w.pid is None for w in app.state.lanes.quick.workers)  # no child needed
    finally:
        app.state.lanes.stop()
