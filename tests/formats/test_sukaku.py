"""Pencil-mark (Sukaku) lines: N**3 characters read as an N x N grid with given candidates,
never silently as a larger grid (issue 42 item 4)."""

from __future__ import annotations

from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.formats.sukaku import sukaku_side
from sudokit.model.puzzle import Puzzle
from sudokit.run.doors import count_solutions
from sudokit.run.explain import rate
from tests.helpers import DATA, load

MARKS = DATA / "sukaku" / "magictour_top1465_first30_marks.txt"


def _lines() -> list[str]:
    return [line for line in MARKS.read_text().splitlines() if not line.startswith("#")]


def test_every_marks_line_is_a_9x9_with_the_puzzles_solution() -> None:
    originals = load("tdoku/puzzles3_magictour_top1465", 30)
    for line, original in zip(_lines(), originals, strict=True):
        puzzle = Puzzle.parse(line)
        assert puzzle.geometry.side == 9
        assert all(rule.name == "given candidates" for rule in puzzle.constraints)
        found = count_solutions(puzzle)
        assert found.count == 1
        assert found.solutions == count_solutions(original).solutions


def test_marks_rate_as_their_puzzle() -> None:
    originals = load("tdoku/puzzles3_magictour_top1465", 30)
    for index in (3, 4, 9):
        marks = rate(Puzzle.parse(_lines()[index]))
        assert (marks.rating, marks.hardest) == (rate(originals[index]).rating,
                                                 rate(originals[index]).hardest)


def test_solve_of_a_marks_file_writes_9x9_solutions() -> None:
    result = CliRunner().invoke(app, ["solve", "-q", str(MARKS)])
    assert result.exit_code == 0
    solutions = result.stdout.split()
    assert len(solutions) == 30 and all(len(s) == 81 for s in solutions)


def test_other_sides_and_what_is_not_marks() -> None:
    four = "1000" "0200" "0030" "0004" * 1  # r1c1..r1c4 as marks, then the rest open
    line = four + "1234" * 12
    assert sukaku_side(line) == 4 and Puzzle.parse(line).geometry.side == 4
    eight = "5" + "." * 63  # a 64-cell line with a digit above 4: an 8x8 grid
    assert sukaku_side(eight) is None and Puzzle.parse(eight).geometry.side == 8
    sparse = "1" + "." * 63  # a cell with no candidate: not marks, an 8x8 grid
    assert Puzzle.parse(sparse).geometry.side == 8
    letters = "A" + "." * 728  # 27x27 line form with a letter stays 27x27
    assert Puzzle.parse(letters).geometry.side == 27
    assert Puzzle.parse(_lines()[0]).geometry.side == 9  # the same length, as marks
    shifted = "0" + _lines()[0][:-1]  # a digit out of its place: not marks
    assert sukaku_side(shifted) is None
