"""``--why`` of solve, count, explain, hint and rate: the why field in jsonl, a short text
otherwise, exit 1 when a puzzle has no solution or several (issue 42 item 3)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sudokit.cli import app
from tests.helpers import DATA, load

runner = CliRunner()
TWO = DATA / "invalid" / "sudopedia_cp468" / "multiple_solutions" / "two_solutions.txt"
DUPLICATE = DATA / "invalid" / "sudopedia_cp468" / "unsolvable" / "duplicate_row.txt"


def run(*args: str):
    return runner.invoke(app, list(args))


def test_count_says_why_in_text_and_json() -> None:
    text = run("count", str(TWO), "--why")
    assert text.exit_code == 0  # the count is complete
    assert "2 solutions" in text.stdout and "unavoidable set" in text.stdout
    row = json.loads(run("count", str(TWO), "--why", "-f", "json").stdout)
    assert row["solutions"] == 2 and row["why"]["verdict"] == "several"
    assert row["why"]["fixes"] and len(row["why"]["solutions"]) == 2


def test_solve_why_records_each_puzzle(tmp_path) -> None:
    unique = load("norvig/sudoku-easy50.txt", 1)[0].line
    path = tmp_path / "three.txt"
    path.write_text(f"{unique}\n{TWO.read_text()}\n")
    result = run("solve", "--why", "-f", "jsonl", str(path), str(DUPLICATE))
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["unique", "several", "none"]
    assert len(rows[2]["why"]["reasons"][0]["members"]) == 2
    text = run("solve", "--why", str(DUPLICATE)).stdout
    assert "cannot all hold" in text and "given twice" in text


def test_explain_and_hint_stop_with_why() -> None:
    explained = run("explain", "--why", str(DUPLICATE))
    assert explained.exit_code == 1 and explained.stdout.startswith("no solution: 1 disjoint")
    hinted = run("hint", "--why", "-f", "jsonl", str(TWO))
    assert hinted.exit_code == 1 and json.loads(hinted.stdout)["why"]["verdict"] == "several"
    unique = load("norvig/sudoku-easy50.txt", 1)[0].line
    assert run("hint", "--why", unique).exit_code == 0  # a unique puzzle: the hint as before


def test_rate_adds_why_to_records_that_need_it(tmp_path) -> None:
    unique = load("norvig/sudoku-easy50.txt", 1)[0].line
    path = tmp_path / "mixed.txt"
    path.write_text(f"{unique}\n{TWO.read_text()}\n{DUPLICATE.read_text()}\n")
    rows = [json.loads(line) for line in
            run("rate", "--why", "-f", "jsonl", str(path)).stdout.splitlines()]
    assert len(rows) == 3 and "why" not in rows[0] and "why_text" not in rows[1]
    assert rows[1]["why"]["verdict"] == "several" and rows[2]["why"]["verdict"] == "none"


def test_solve_why_refuses_what_it_does_not_do(tmp_path) -> None:
    result = run("solve", "--why", "--output", str(tmp_path / "out.txt"), str(TWO))
    assert result.exit_code == 2 and not (tmp_path / "out.txt").exists()
