"""Reading and writing every supported puzzle form, and every error with its location."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import InvalidPuzzle
from sudokit.formats.text import (
    Style,
    format_candidates,
    format_grid,
    format_line,
    format_side_by_side,
    parse_alphabet,
    parse_box,
    parse_puzzle,
    read_puzzles,
)
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution
from tests.helpers import DATA, EXAMPLES

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
TOP1_GIVENS = tuple(0 if ch == "." else int(ch) for ch in TOP1)


def pattern(box_rows: int, box_cols: int) -> tuple[int, ...]:
    """A valid full grid for any box shape (the shifted-rows pattern)."""
    n = box_rows * box_cols
    return tuple((box_cols * (r % box_rows) + r // box_rows + c) % n + 1
                 for r in range(n) for c in range(n))


def records(text: str, **kwargs):
    stream = io.StringIO(text)
    stream.name = "t.txt"
    return list(read_puzzles(stream, **kwargs))


@pytest.mark.parametrize("marker", list(".0_-*x"))
def test_line_form_every_empty_marker(marker: str) -> None:
    assert parse_puzzle(TOP1.replace(".", marker)).givens == TOP1_GIVENS


def test_line_form_16x16_letters_any_case_and_explicit_alphabet() -> None:
    solution = pattern(4, 4)
    upper = format_line(solution)
    assert upper[:16] == "123456789ABCDEFG"
    assert parse_puzzle(upper).givens == solution
    assert parse_puzzle(upper.lower()).givens == solution
    shifted = "".join("0123456789ABCDEF"[d - 1] for d in solution)
    assert parse_puzzle(shifted, alphabet="0-9A-F").givens == solution


def test_explicit_alphabet_36x36_where_zero_is_a_digit() -> None:
    solution = pattern(6, 6)
    symbols = parse_alphabet("0-9A-Z")
    assert len(symbols) == 36 and symbols[0] == "0"
    text = "".join(symbols[d - 1] for d in solution)
    record = records(text, alphabet="0-9A-Z")[0]
    assert record.puzzle.givens == solution
    assert format_line(solution, None, record.style) == text


def test_integers_one_line_commas_and_rows_with_box_spacing() -> None:
    solution = pattern(2, 2)
    one_line = " ".join(map(str, solution))
    assert parse_puzzle(one_line).givens == solution
    assert parse_puzzle(",".join(map(str, solution))).givens == solution
    rows = "\n".join("  ".join(" ".join(map(str, solution[r * 4 + b:r * 4 + b + 2]))
                               for b in (0, 2)) for r in range(4))
    assert parse_puzzle(rows.replace("\n", "\n\n", 1)).givens == solution


def test_large_files_parse() -> None:
    shapes = {"bnguyen_16x16.txt": 16, "bnguyen_36x36.txt": 36, "aprivitera_16x16.txt": 16,
              "aprivitera_25x25.txt": 25, "lkwaerst_16x16.txt": 16, "sam_25x25_medium.txt": 25}
    for name, side in shapes.items():
        (record,) = list(read_puzzles(DATA / "large" / name))
        assert record.error is None, record.error
        assert record.puzzle.geometry.side == side and record.puzzle.source_line == 1
    (sam,) = read_puzzles(DATA / "large" / "sam_25x25_medium.txt")
    assert sam.style.offset == -1 and sam.puzzle.givens[0] == 1  # "0" is the digit 1 (zero-based)
    written = format_line(sam.puzzle.givens, None, sam.style)
    assert written.split()[:5] == ["0", "3", "12", "10", "-1"]


def test_headers_n_and_box_rows_cols() -> None:
    text = "2\n3\n" + "\n".join(format_line(pattern(2, 3)[r * 6:r * 6 + 6]) for r in range(6))
    (record,) = records(text)
    assert record.puzzle.geometry == Geometry.of(2, 3) and record.line == 1
    (record,) = records("4\n" + "\n".join("1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 _"[i:i + 8]
                                          for i in range(0, 32, 8)))
    assert record.puzzle.givens[-1] == 0 and record.puzzle.geometry.side == 4


def test_drawings_ours_and_other_tools() -> None:
    assert parse_puzzle(format_grid(TOP1_GIVENS)).givens == TOP1_GIVENS
    other = ["+-------+-------+-------+"]
    for r in range(9):
        row = TOP1[r * 9:r * 9 + 9]
        other.append("| " + " | ".join(" ".join(row[b:b + 3]) for b in (0, 3, 6)) + " |")
        if r % 3 == 2:
            other.append("+-------+-------+-------+")
    assert parse_puzzle("\n".join(other)).givens == TOP1_GIVENS
    drawn = format_grid(TOP1_GIVENS)
    unicode_box = drawn.replace("|", "│").replace("-", "─").replace("+", "┼")
    assert parse_puzzle(unicode_box).givens == TOP1_GIVENS


def test_order_prefix_form() -> None:
    assert parse_puzzle("3 " + TOP1.replace(".", "0")).givens == TOP1_GIVENS
    assert parse_puzzle("2 1234341221434321").geometry == Geometry.of(2, 2)


def test_csv_header_bom_solutions_and_named_columns() -> None:
    solution = format_line(pattern(3, 3))
    puzzle = "0" + solution[1:]
    got = records(f"\ufeffquizzes,solutions\r\n{puzzle},{solution}\r\n")
    assert got[0].line == 2 and got[0].expected == pattern(3, 3)
    assert got[0].puzzle.givens[0] == 0 and got[0].style.empty == "0"
    got = records(f"id,clues,puzzle,solution\n7,80,{puzzle},{solution}\n")
    assert got[0].expected == pattern(3, 3)
    got = list(read_puzzles(DATA / "csv" / "kyubyong_test.csv"))
    assert len(got) == 30 and all(r.expected is not None for r in got)


def test_tdoku_lines_comments_blank_crlf_trailing_spaces() -> None:
    solution = format_line(pattern(3, 3))
    text = (f"# a comment\r\n\r\n{TOP1}   \r\n{'.' + solution[1:]}:1:{solution}\r\n"
            f"{TOP1}:0\n")
    got = records(text)
    assert [r.line for r in got] == [3, 4, 5]
    assert got[1].expected_count == 1 and got[1].expected == pattern(3, 3)
    assert got[2].expected_count == 0 and got[2].expected is None


def test_box_override_6x6() -> None:
    grid = pattern(3, 2)
    text = format_line(grid)
    assert parse_puzzle(text).geometry == Geometry.of(2, 3)
    assert parse_puzzle(text, box="3x2").geometry == Geometry.of(3, 2)
    assert parse_box("3x2") == (3, 2)
    with pytest.raises(InvalidPuzzle, match="ROWSxCOLS"):
        parse_box("3by2")
    with pytest.raises(InvalidPuzzle, match="above the maximum"):
        parse_box("9x9")


@pytest.mark.parametrize(("text", "line", "column", "what"), [
    (TOP1[:-1], 1, 1, "square number of cells"),
    (TOP1[:40] + "Q" + TOP1[41:], 1, 41, "expected a digit symbol"),
    ("#c\n" + TOP1 + "9", 2, 1, "whole line: .*got 82: 1 more than 81"),
    ("1 2 3 ! 4 3 2 1 2 1 4 3 4 3 2 1", 1, 7, "expected an integer"),
    ("4.....8.5\n.3.......\n", 1, 1, "ends after 2 of 9 rows"),
    (TOP1 + ":x", 1, 83, "whole-number count"),
    ("12345", 1, 1, "neither a whole grid"),
    ("\x00\x01binary" * 9, 1, 1, "expected digit symbols"),
])
def test_errors_name_line_column_and_expectation(text, line, column, what) -> None:
    """Every error names file, line and column (a whole-line error: column 1)."""
    with pytest.raises(InvalidPuzzle, match=what) as info:
        parse_puzzle(text, source="in.txt")
    assert (info.value.source, info.value.line, info.value.column) == ("in.txt", line, column)


def test_parse_puzzle_needs_exactly_one() -> None:
    with pytest.raises(InvalidPuzzle, match="found none"):
        parse_puzzle("# nothing\n\n")
    with pytest.raises(InvalidPuzzle, match="found another starting on line 2"):
        parse_puzzle(TOP1 + "\n" + TOP1)
    with pytest.raises(InvalidPuzzle, match="distinct"):
        parse_alphabet("0-9A-Z0")


def test_bad_lines_become_records_and_the_stream_goes_on() -> None:
    text = "\n".join([TOP1, "x" * 80, "\x00\xff" * 50, TOP1, "1" * 300_000, TOP1])
    got = records(text)
    assert [r.line for r in got] == [1, 2, 3, 4, 5, 6]
    assert [r.error is None for r in got] == [True, False, False, True, False, True]
    assert "longer than any puzzle form" in str(got[4].error)


def test_binary_file_is_read_not_raised(tmp_path) -> None:
    path = tmp_path / "junk.bin"
    path.write_bytes(bytes(range(256)) * 4 + b"\n" + TOP1.encode())
    got = list(read_puzzles(path))
    assert got[-1].puzzle is not None and got[-1].puzzle.givens == TOP1_GIVENS
    assert any(r.error is not None for r in got[:-1])


def test_examples_parse() -> None:
    for path in sorted(EXAMPLES.glob("*")):
        got = list(read_puzzles(path))
        assert got and all(r.error is None for r in got), path


def test_candidates_and_side_by_side() -> None:
    puzzle = Puzzle.from_digits(TOP1_GIVENS)
    drawn = format_candidates([puzzle.candidates(c) for c in range(81)], puzzle.geometry)
    assert drawn.splitlines()[0].split()[0] == "4" and "-+-" in drawn.splitlines()[3]
    solution = pattern(3, 3)
    both = format_side_by_side(Puzzle.from_digits([0] * 80 + [solution[-1]]), solution)
    assert both.splitlines()[0].endswith(format_grid(solution).splitlines()[0])


SHAPES = [(1, 1), (1, 2), (2, 2), (1, 5), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6),
          (8, 8)]


def random_grid(shape: tuple[int, int], seed: int, density: float) -> tuple[int, ...]:
    rng = random.Random(seed)
    n = shape[0] * shape[1]
    return tuple(rng.randint(1, n) if rng.random() < density else 0 for _ in range(n * n))


def _writers(grid, geometry):
    """Every writable form of ``grid``: (text, needs the box shape passed back)."""
    n = geometry.side
    ints = Style(symbols=None, empty="0")
    rows = [grid[r * n:(r + 1) * n] for r in range(n)]
    yield format_line(grid, geometry), False
    yield format_line(grid, geometry, Style(empty="0")), False
    yield format_grid(grid, geometry), n == 1 or geometry.box_cols == 1
    yield format_line(grid, geometry, ints), n == 1
    yield format_line(grid, geometry, Style(None, "0", ",")), n == 1
    if n > 1:
        yield f"{n}\n" + "\n".join(format_line(r, None, ints) for r in rows), False
        yield (f"{geometry.box_rows}\n{geometry.box_cols}\n"
               + "\n".join(format_line(r, None, Style()) for r in rows)), False
    if n > 2:
        yield f"quizzes,solutions\n{format_line(grid, geometry)},", False
    yield f"{format_line(grid, geometry)}:2", False
    if geometry.box_rows == geometry.box_cols > 1:
        yield f"{geometry.box_rows} {format_line(grid, geometry)}", False


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.floats(0.0, 1.0))
def test_round_trip_every_form_and_size(shape, seed, density) -> None:
    geometry = Geometry.of(*shape)
    grid = random_grid(shape, seed, density)
    for text, needs_box in _writers(grid, geometry):
        got = records(text, box=shape if needs_box else None)
        assert len(got) == 1 and got[0].error is None, (text, got)
        assert got[0].puzzle.givens == grid and got[0].puzzle.geometry == geometry, text
        if "\n" not in text.strip():
            assert format_line(grid, geometry, got[0].style) in text


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(2, 3), (3, 2), (3, 3), (2, 4), (4, 2)]), st.integers(0, 2**32))
def test_round_trip_with_box_given_keeps_nonstandard_shapes(shape, seed) -> None:
    geometry = Geometry.of(*shape)
    grid = random_grid(shape, seed, 0.5)
    for text in (format_line(grid, geometry), format_grid(grid, geometry)):
        puzzle = parse_puzzle(text, box=shape)
        assert puzzle.geometry == geometry and puzzle.givens == grid


def test_full_pattern_grids_read_as_solutions() -> None:
    for shape in SHAPES:
        grid = pattern(*shape)
        puzzle = parse_puzzle(format_grid(grid, Geometry.of(*shape)), box=shape)
        assert is_solution(grid, puzzle)


def test_order_one_prefix_lines_are_1x1_puzzles(tmp_path) -> None:
    """Issue 17.5: '1 0' and '1 1' (the SAT report's 1 <= N) are two 1x1 puzzles, not one 2x2
    grid; a spaced 2x2 grid whose first row looks like them still reads as a grid."""
    from typer.testing import CliRunner

    from sudokit.cli import app

    got = records("1 0\n1 1\n")
    assert [(r.line, r.puzzle.geometry.side, r.puzzle.givens) for r in got] == [
        (1, 1, (0,)), (2, 1, (1,))]
    assert records("1 .\n")[0].puzzle.givens == (0,)
    for drawing in ("1 .\n---\n. 1\n", "1 1\n---\n1 1\n", "1 | 1\n1 | 1\n", "1 0\n0 1\n"):
        grid = records(drawing)
        assert len(grid) == 1 and grid[0].puzzle.geometry.side == 2, drawing
    path = tmp_path / "order1.txt"
    path.write_text("1 0\n1 1\n")
    done = CliRunner().invoke(app, ["solve", str(path)])
    assert done.exit_code == 0 and done.stdout.splitlines() == ["1 1", "1 1"]  # prefix kept


def test_plain_9x9_lines_read_the_same_without_the_general_reader() -> None:
    """parse_puzzle's shortcut for a plain 81-symbol line gives the general reader's Puzzle."""
    import io

    lines = [line.strip() for name in ("norvig/sudoku-top95.txt", "tdoku/puzzles2_17_clue_first300")
             for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if len(line) == 81 and not line.startswith("#")]
    lines += [line.replace(".", "0") for line in lines[:20]]
    assert len(lines) > 300
    for line in lines:
        fast = parse_puzzle(line, source="x.txt")
        general = next(read_puzzles(io.StringIO(line), name="x.txt")).puzzle
        assert fast == general and (fast.source, fast.source_line) == ("x.txt", 1), line
    with pytest.raises(InvalidPuzzle):
        parse_puzzle("4" + "." * 79 + "A")  # not plain: the general reader says why
