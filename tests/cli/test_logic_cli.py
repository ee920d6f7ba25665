"""``sudokit explain``, ``hint`` and ``rate`` through the command line."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from sudokit import Puzzle, count_solutions
from sudokit.cli import app
from tests.helpers import DATA, ROOT

EASY = (DATA / "norvig/sudoku-easy50.txt").read_text().split()[0]
RATED = [line.split() for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]
runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def sudokit(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokit", *args], check=False, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_explain_text_lists_every_step_and_the_rating() -> None:
    result = run("explain", EASY, "--grid-every", "10")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("  1. [1.2] Hidden Single: ")
    assert lines[-1].startswith("rating 1.2 (Hidden Single), level easy")
    assert "---+---" in result.stdout or "+-" in result.stdout  # a candidates grid was drawn


def test_explain_jsonl_steps_replay_to_the_solution() -> None:
    result = run("explain", RATED[0][1], "--format", "jsonl")
    assert result.exit_code == 0, result.output
    steps = [json.loads(line) for line in result.stdout.splitlines()]
    solution = count_solutions(Puzzle.parse(RATED[0][1]), limit=1).solution
    grid = [int(c) for c in RATED[0][1]]
    for step in steps:
        assert {"technique", "rating", "placements", "eliminations", "text"} <= set(step)
        for r, c, d in step["placements"]:
            assert solution[(r - 1) * 9 + c - 1] == d
            grid[(r - 1) * 9 + c - 1] = d
        for r, c, d in step["eliminations"]:
            assert solution[(r - 1) * 9 + c - 1] != d
    assert tuple(grid) == solution


def test_hint_gives_the_next_step_only() -> None:
    result = run("hint", EASY)
    assert result.exit_code == 0
    assert result.stdout == "[1.2] Hidden Single: r2c2 is the only place for 6 in box 1\n"
    record = json.loads(run("hint", EASY, "-f", "jsonl").stdout)
    assert record["placements"] == [[2, 2, 6]] and record["technique"] == "Hidden Single"


def test_hint_from_pencil_marks() -> None:
    marks = " ".join(["."] * 80 + ["123456789"])
    result = run("hint", EASY, "--marks", marks)
    assert result.exit_code == 0 and result.stdout.startswith("[1.2] Hidden Single")
    bad = sudokit("hint", EASY, "--marks", "12 34")
    assert bad.returncode == 2 and "81 pencil-mark groups" in bad.stderr


def test_rate_streams_one_record_per_puzzle_in_order(tmp_path) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{EASY}\n12x\n{RATED[2][1]}\n")
    result = sudokit("rate", str(path), "--format", "jsonl", "--jobs", "2")
    assert result.returncode == 1  # one record is invalid
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3]
    assert rows[0]["rating"] == 1.2 and rows[0]["level"] == "easy"
    assert rows[1]["status"] == "invalid" and f"{path}:2" in rows[1]["error"]
    assert rows[2]["hardest"] and 5.0 <= rows[2]["rating"] <= 9.0
    assert {"source", "line", "rating", "level", "hardest"} <= set(rows[2])
    assert f"{path}:2" in result.stderr


def test_rate_text_and_unsolvable_puzzle() -> None:
    digits = ["0"] * 81
    digits[0] = digits[1] = "5"
    result = run("rate", EASY, "".join(digits))
    assert result.exit_code == 1
    first, second = result.stdout.splitlines()
    assert first.endswith("1.2\teasy\tHidden Single\tEP 1.2\tED 1.2")
    assert "invalid" in second and "no solution" in second


def test_logic_method_counts_techniques() -> None:
    result = run("solve", RATED[0][1], "--method", "logic", "--format", "jsonl")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "solved"
