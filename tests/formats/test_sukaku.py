"""Pencil-mark (Sukaku) lines: N**3 characters read as an N x N grid with given candidates,
never silently as a larger grid (issue 42 item 4)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.errors import InvalidPuzzle
from sudokit.formats.text import parse_puzzle, read_puzzles
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


GRIDS = DATA / "sukaku" / "candidate_grids.txt"
RUUD = "729461538614835927358297641965328714143679285287514369472153896896742153531986472"


def _grid_text(index: int) -> str:
    """The ``index``-th candidate grid of the file (its lines, frames included)."""
    blocks = GRIDS.read_text().split("\n\n")
    return "\n".join(ln for ln in blocks[index].splitlines() if not ln.startswith("#"))


def _cells(text: str) -> list[str]:
    """The candidate groups of a grid's rows, 81 of them."""
    rows = [ln for ln in text.splitlines() if ln.startswith("|")]
    return [g for ln in rows for g in ln.replace("|", " ").split()]


def test_public_candidate_grids_are_one_9x9_each_with_their_marks() -> None:
    records = list(read_puzzles(GRIDS))
    assert [r.error for r in records] == [None] * 3
    for index, record in enumerate(records):
        puzzle = record.puzzle
        assert puzzle is not None and puzzle.geometry.side == 9
        groups = _cells(_grid_text(index))
        solution = count_solutions(puzzle).solutions[0]
        for cell, group in enumerate(groups):  # every cell's solution digit is a candidate
            assert str(solution[cell]) in group
            if len(group) == 1:
                assert puzzle.givens[cell] == int(group)
        # no candidate outside the groups: a digit left out of a group is no solution
        cell = next(c for c, g in enumerate(groups) if 1 < len(g) < 9)
        missing = next(d for d in range(1, 10) if str(d) not in groups[cell])
        givens = list(puzzle.givens)
        givens[cell] = missing
        assert count_solutions(Puzzle(puzzle.geometry, tuple(givens))).count == 0
    assert "".join(map(str, count_solutions(records[0].puzzle).solutions[0])) == RUUD


def test_candidate_grid_forms_read_the_same_puzzle() -> None:
    text = _grid_text(1)  # Sudopedia's: frames, "|" touching a group
    rows = [ln for ln in text.splitlines() if ln.startswith("|")]
    bare = "\n".join(ln.replace("|", " ") for ln in rows)  # no separators at all
    plus = text.replace(".", "+").replace(":", "+").replace("'", "+")
    star = text.replace(".", "*").replace(":", "*").replace("'", "*")
    first = parse_puzzle(text)
    for other in (bare, plus, star, "\n\n".join(rows)):
        assert parse_puzzle(other) == first
    four = "12 34 3 4\n3 4 12 12\n1234 1 4 3\n4 3 1 2"  # 4x4 (N^3 groups where unambiguous)
    assert parse_puzzle(four).geometry.side == 4


def test_what_is_not_a_candidate_grid_reads_as_before() -> None:
    spaced = "\n".join(" ".join(str((r * 3 + r // 3 + c) % 9 + 1) for c in range(9))
                       for r in range(9))  # a full grid of spaced digits
    assert parse_puzzle(spaced).givens[:3] == (1, 2, 3)
    sixteen = (DATA / "large" / "bnguyen_16x16.txt").read_text()  # integers: 12 is twelve
    assert parse_puzzle(sixteen).geometry.side == 16


@pytest.mark.parametrize("change, line, column, words", [
    (lambda t: t.replace("| 25689   2356 ", "| 25689   2x56 "), 7, 12, "found 'x'"),
    (lambda t: t.replace("| 25689   2356 ", "| 25689   2352 "), 7, 14, "'2' twice"),
    (lambda t: t.replace(" 47      14679", "         14679"), 7, 71, "found 8"),
    (lambda t: "\n".join(t.splitlines()[:9]), 2, 1, "ends after 6 of 9 rows"),
])
def test_a_broken_candidate_grid_is_one_error_at_its_place(change, line: int, column: int,
                                                           words: str) -> None:
    text = change(_grid_text(1))
    assert text != _grid_text(1)
    with pytest.raises(InvalidPuzzle) as caught:
        parse_puzzle(text)
    error = caught.value
    assert (error.line, error.column) == (line, column) and words in str(error)
    assert "candidate" in str(error)


def test_commands_and_the_board_read_a_candidate_grid(tmp_path) -> None:
    path = tmp_path / "sudopedia.txt"
    path.write_text(_grid_text(1) + "\n")
    runner = CliRunner()
    solved = runner.invoke(app, ["solve", "-q", str(path)])
    assert solved.exit_code == 0 and len(solved.stdout.split()) == 1
    rated = runner.invoke(app, ["rate", "-f", "jsonl", str(path)])
    record = json.loads(rated.stdout)
    puzzle = parse_puzzle(_grid_text(1))
    assert (record["rating"], record["hardest"]) == (rate(puzzle).rating, rate(puzzle).hardest)
    top = "." + "-" * 25 + "." + "-" * 26 + "." + "-" * 26 + "."  # a frame of 81 characters
    framed = tmp_path / "frame81.txt"
    framed.write_text("\n".join([top, *_grid_text(1).splitlines()[1:]]) + "\n")
    again = runner.invoke(app, ["solve", "-q", str(framed)])  # the line-form fast path
    assert again.exit_code == 0 and again.stdout.split() == solved.stdout.split()
    for command in (["count"], ["hint"], ["explain"]):
        assert runner.invoke(app, [*command, str(path)]).exit_code == 0
    from sudokit.serve.api import read_puzzle  # the board's Load and every /api request
    assert read_puzzle({"puzzle": _grid_text(1)}) == puzzle


FORGE = DATA / "sukaku" / "sukaku_forge_positions.txt"


def test_public_sukaku_lines_read_as_9x9_with_each_candidate() -> None:
    """The six 729-character lines of sukaku-forge's tests: each a 9x9 (never a 27x27) whose
    candidates are exactly the line's; the published solution counts (1, 1, 1, 130, 126,
    106); each solution takes only candidates of the line."""
    lines = [line for line in FORGE.read_text().splitlines() if not line.startswith("#")]
    records = list(read_puzzles(FORGE))
    assert len(lines) == len(records) == 6 and all(len(line) == 729 for line in lines)
    counts = []
    for line, record in zip(lines, records, strict=True):
        puzzle = record.puzzle
        assert record.error is None and puzzle is not None and puzzle.geometry.side == 9
        assert sukaku_side(line) == 9
        found = count_solutions(puzzle, limit=1000)
        counts.append(found.count)
        for solution in found.solutions[:5]:
            assert all(line[9 * cell + d - 1] == str(d) for cell, d in enumerate(solution))
    assert counts == [1, 1, 1, 130, 126, 106]


def _as_link(line: str) -> str:
    """The board's link form (formats/marklink.py) of a 729-character Sukaku line."""
    from sudokit.formats.marklink import marks_link

    cells = [[k + 1 for k in range(9) if line[cell * 9 + k] not in ".0"] for cell in range(81)]
    return marks_link(cells, 9)


def test_the_boards_link_form_reads_as_its_sukaku_line(tmp_path) -> None:
    lines = _lines()[:5]
    links = [_as_link(line) for line in lines]
    assert all(link.startswith("sk9.") and len(link) == 127 for link in links)
    for line, link in zip(lines, links, strict=True):
        assert Puzzle.parse(link) == Puzzle.parse(line)
    path = tmp_path / "links.txt"
    path.write_text("# board links\n" + "\n".join(links) + "\n")
    records = list(read_puzzles(str(path)))
    assert [r.line for r in records] == [2, 3, 4, 5, 6]
    assert [r.puzzle.givens for r in records] == [Puzzle.parse(x).givens for x in lines]
    result = CliRunner().invoke(app, ["solve", "-q", links[0]])  # a literal on the command line
    assert result.exit_code == 0, result.output
    solved = CliRunner().invoke(app, ["solve", "-q", lines[0]])
    assert result.stdout.split() == solved.stdout.split() and len(solved.stdout.split()) == 1


def test_a_broken_link_line_is_one_located_error_and_the_others_read(tmp_path) -> None:
    good = _as_link(_lines()[0])
    path = tmp_path / "links.txt"
    path.write_text(good + "\nsk9.AAA\n" + good + "\n")
    records = list(read_puzzles(str(path)))
    assert [r.puzzle is not None for r in records] == [True, False, True]
    assert "expected 123 base64url characters" in str(records[1].error)
    assert (records[1].error.line, records[1].error.column) == (2, 5)
