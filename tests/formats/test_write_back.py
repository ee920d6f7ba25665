"""Solutions written back in the input's form (issue 17, items 4, 6 and 7): order prefixes, title
lines (``--skip-header``), and ``--grid-output`` holding each puzzle and its solution."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.formats.text import read_puzzles
from sudokit.model.puzzle import Puzzle, is_solution

DATA = Path(__file__).parents[1] / "data"
TOP = (DATA / "norvig" / "sudoku-top95.txt").read_text().split()[:3]


def _solve(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["solve", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("method", ["fast", "propagate"])
@pytest.mark.parametrize("stdin", [False, True])
def test_order_prefixed_lines_come_back_with_their_prefix(tmp_path: Path, method: str,
                                                          stdin: bool) -> None:
    lines = ["3 " + "0" * 3 + "4" + "0" * 4 + "9" + "0" + "2" + "0" * 70,  # 12 givens
             "2 1" + "." * 15, "0" * 81, "1 0", "1 .", "3 " + "1" * 81]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    args = ["-", "-m", method] if stdin else [str(path), "-m", method]
    result = CliRunner().invoke(app, ["solve", *args], input=path.read_text() if stdin else None)
    out = result.stdout.splitlines()
    givens = Puzzle.parse(lines[0][2:])  # 12 givens: many solutions, the method's first comes
    assert out[0].startswith("3 ") and is_solution(tuple(map(int, out[0][2:])), givens)
    assert out[1].startswith("2 1") and len(out[1]) == 18
    assert len(out[2]) == 81 and out[2][0] != "3"  # a plain line stays plain
    assert out[3] == out[4] == "1 1"
    assert out[5].startswith("unsolvable ")
    # what comes back reads as the solution of the same puzzle
    records = list(read_puzzles(path))
    again = tmp_path / "out.txt"
    again.write_text("\n".join(out[:5]) + "\n")
    for record, solution in zip(records, read_puzzles(again)):
        assert is_solution(solution.puzzle.givens, record.puzzle)


def test_skip_header_skips_a_title_line_on_both_paths(tmp_path: Path) -> None:
    path = tmp_path / "puzzles"
    path.write_text("Sudoku puzzles of the AC-3 report\n" + "\n".join(TOP) + "\n")
    code, out, err = _solve(str(path))
    assert code == 1 and out.splitlines()[0].startswith("invalid ") and ":1:" in out
    for fmt in ("line", "jsonl", "grid"):
        code, out, err = _solve(str(path), "--skip-header", "-f", fmt)
        assert code == 0, err
        assert "invalid" not in out and out.count(f"{path}") in (0, 3)
    code, out, _ = _solve(str(path), "--skip-header")
    assert len(out.splitlines()) == 3
    code, out, _ = _solve(str(path), "--skip-header", "-f", "jsonl")
    assert [line.split('"line": ')[1].split(",")[0] for line in out.splitlines()] == ["2", "3",
                                                                                        "4"]


def test_grid_output_holds_each_puzzle_then_its_solution(tmp_path: Path) -> None:
    path, grids = tmp_path / "in.txt", tmp_path / "grids.txt"
    path.write_text("\n".join([*TOP, "1" * 81]) + "\n")
    code, out, _ = _solve(str(path), "--grid-output", str(grids))
    assert code == 1
    text = grids.read_text()
    assert text.count("# solution\n") == 3 and text.count("\n\n") == 4
    records = [r.puzzle for r in read_puzzles(grids)]  # puzzle, solution, ..., the unsolvable
    assert len(records) == 7
    for k in range(3):
        puzzle, solution = records[2 * k], records[2 * k + 1]
        assert "".join(map(str, solution.givens)) == out.splitlines()[k]
        assert is_solution(solution.givens, puzzle)
    assert records[6].givens == tuple([1] * 81)
