"""Hostile input never ends a run: oversized integer tokens, broken Janko grids, f-puzzles data
among other lines, decompression bombs and deep JSON each become one bad record with its file,
line and column, and every puzzle around them keeps its record (issue 30 items 2, 3, 4, 8, 11).
"""

from __future__ import annotations

import io
import json

import lzstring
import pytest

from sudokit.errors import InvalidPuzzle
from sudokit.formats.bounded import BASE64, MAX_DECODED, MAX_DEPTH, URI_SAFE, lz_decompress
from sudokit.formats.text import read_puzzles
from sudokit.magic.text import parse_givens
from sudokit.model.integers import MAX_DIGITS, int_token, integer
from sudokit.sat.dimacs import read_dimacs

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HUGE = "1" * 5000
"""More digits than Python's int() reads (4,300)."""


def around(bad: str) -> list:
    """The records of ``bad`` between two intact puzzles, as one file."""
    return list(read_puzzles(io.StringIO(f"{TOP1}\n{bad}\n{TOP1}\n"), name="in.txt"))


def first(bad: str) -> list:
    """The records of ``bad`` (f-puzzles data: the first line of a file) and two intact
    puzzles after it."""
    return list(read_puzzles(io.StringIO(f"{bad}\n{TOP1}\n{TOP1}\n"), name="in.txt"))


def only_bad(records: list, line: int) -> InvalidPuzzle:
    """The one error among the records; the intact puzzles around it are read."""
    bad = [r for r in records if r.error is not None]
    assert len(bad) == 1, [str(r.error) for r in bad]
    assert sum(r.puzzle is not None and r.puzzle.givens[0] == 4 for r in records) == 2
    error = bad[0].error
    assert (error.source, error.line) == ("in.txt", line) and error.column is not None, error
    return error


# -- item 2: one reader of integer tokens --------------------------------------------------------

def test_integer_tokens_are_ascii_and_bounded() -> None:
    assert integer("-12") == -12 and integer("007", signed=False) == 7
    assert integer("9" * (MAX_DIGITS + 1)) is None and integer(HUGE) is None
    assert integer("\u0663") is None and integer("-3", signed=False) is None  # Arabic-Indic 3
    with pytest.raises(InvalidPuzzle, match="an integer of 5,000 digits"):
        int_token(HUGE)


@pytest.mark.parametrize(("bad", "column"), [
    (" ".join(["0"] * 80 + [HUGE]), 161),  # a row of integers (the int.txt)
    (HUGE, 1),  # a lone number (a size header?)
    (f"{TOP1}:99999999999999999999", 83),  # a tdoku count over int64
    (f"{TOP1}:{HUGE}", 83),
    (TOP1 + ";" + "a" * 81 + ";" + HUGE, 165),  # a compact cage total
])
def test_an_oversized_integer_is_one_bad_record(bad: str, column: int) -> None:
    error = only_bad(around(bad), 2)
    assert error.column == column
    assert len(str(error)) < 400  # the token is cut in the message


def test_janko_tokens_and_killer_sums_of_any_length() -> None:
    rows = ["- " * 8 + "-"] * 9
    rows[4] = "- - - - " + HUGE + " - - - -"
    (record,) = read_puzzles(io.StringIO("9 9\n" + "\n".join(rows) + "\n"), name="in.txt")
    assert (record.error.line, record.error.column) == (6, 9)
    killer = "9 9\n" + "\n".join(rows) + "\n" + "\n".join(["a b c d e f g h i"] * 9) + "\n"
    (record,) = read_puzzles(io.StringIO(killer), name="in.txt", variant="killer")
    assert record.error is not None and (record.error.line, record.error.column) == (6, 9)


def test_fpuzzles_numbers_of_any_length() -> None:
    grid = [[{} for _ in range(9)] for _ in range(9)]
    cases = [{"size": int(HUGE[:30]), "grid": grid},
             {"size": 9, "grid": grid, "killercage": [{"cells": ["R1C1"], "value": HUGE}]},
             {"size": 9, "grid": grid, "odd": [{"cell": f"R{HUGE}C1"}]}]
    for data in cases:
        error = only_bad(first(json.dumps(data)), 1)
        assert "digits" in str(error) or "..." in str(error)
    raw = '{"size": ' + HUGE + ', "grid": []}'
    assert "an integer of 5,000 digits" in str(only_bad(first(raw), 1))


def test_dimacs_header_and_literals_of_any_length() -> None:
    for text, where in ((f"p cnf {HUGE} 1\n1 0\n", (1, 1)), (f"p cnf 3 1\n1 -{HUGE} 0\n", (2, 3)),
                        ("p cnf 3 1\n1 -5 0\n", (2, 3))):
        with pytest.raises(InvalidPuzzle) as info:
            read_dimacs(text, "f.cnf")
        assert (info.value.line, info.value.column) == where, info.value


def test_magic_givens_of_any_length() -> None:
    with pytest.raises(InvalidPuzzle, match="characters") as info:
        parse_givens(f"1 2 3\n4 {HUGE} 6\n7 8 9\n", source="g.txt")
    assert (info.value.line, info.value.column) == (2, 3)


# -- item 8: memory proportional to the input -------------------------------------------------

@pytest.mark.parametrize("declared", ["50000000", "99999999999"])
def test_dimacs_declaring_more_variables_than_it_can_use_is_refused(declared: str) -> None:
    with pytest.raises(InvalidPuzzle, match="declares .* variables") as info:
        read_dimacs(f"p cnf {declared} 1\n1 0\n", "f.cnf")
    assert (info.value.line, info.value.column) == (1, 7)
    assert read_dimacs("p cnf 1000 1\n1 0\n").n_vars == 1000  # unused variables are allowed


def bomb(codes: int) -> str:
    """LZ-String base64 data whose every code repeats the last entry plus one character: the
    text grows with the square of the data (12,600 codes: 27 KB of data, 79 MB of text)."""
    bits: list[int] = []

    def put(value: int, width: int) -> None:
        bits.extend((value >> i) & 1 for i in range(width))

    put(0, 2)
    put(ord("{"), 8)
    words, width, enlarge = 4, 3, 4
    for _ in range(codes):
        put(words, width)
        words, enlarge = words + 1, enlarge - 1
        if enlarge == 0:
            enlarge, width = 1 << width, width + 1
    put(2, width)
    bits += [0] * (-len(bits) % 6)
    return "".join(BASE64[int("".join(map(str, bits[i:i + 6])), 2)]
                   for i in range(0, len(bits), 6)) + "=="


def test_lz_decompression_agrees_with_lzstring_and_is_capped() -> None:
    lz = lzstring.LZString()
    for text in ('{"size": 9}', "ab" * 3000, '{"t": "\u00e9\u4e2d"}' * 50):
        assert lz_decompress(lz.compressToBase64(text)) == text
        assert lz_decompress(lz.compressToEncodedURIComponent(text), URI_SAFE) == text
    small = bomb(500)
    assert lz_decompress(small) == lz.decompressFromBase64(small)
    with pytest.raises(InvalidPuzzle, match="4 MiB"):
        lz_decompress(bomb(12_600))
    assert len(bomb(12_600)) < 27_000 and MAX_DECODED == 4 << 20


def test_a_link_that_expands_past_the_cap_is_one_bad_record() -> None:
    error = only_bad(first("https://www.f-puzzles.com/?load=" + bomb(12_600)), 1)
    assert "expands to more than 4,194,304 characters" in str(error) and error.column == 33


@pytest.mark.parametrize("at_start", [True, False])
def test_json_nested_100000_deep_is_one_bad_record(at_start: bool) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = f"{deep}\n{TOP1}\n" if at_start else f"{TOP1}\n{deep}\n{TOP1}\n"
    records = list(read_puzzles(io.StringIO(text), name="in.txt"))
    bad = [r for r in records if r.error is not None]
    assert len(bad) == 1 and [r.puzzle is not None for r in records].count(True) == 2 - at_start
    if at_start:
        assert f"deeper than {MAX_DEPTH} levels" in str(bad[0].error)
        assert (bad[0].error.line, bad[0].error.column) == (1, MAX_DEPTH + 1)


# -- items 3 and 4: what follows a broken part is read afresh -----------------------------------

@pytest.mark.parametrize(("rows", "line", "column"), [
    (["1 - - - - - - - - - - -", "1 - - - - - - - - - -", "1 - - - - - - - - - - -"], 3, 22),
    (["1 - - - - - - - - - - -"] * 2 + ["1 - - - - - - - - - - - -"], 4, 25),
    (["1 - - - - - - - - - - -"] * 11, 13, 82),
])
def test_a_broken_janko_grid_swallows_no_puzzle(rows: list[str], line: int, column: int) -> None:
    text = "12 12\n" + "\n".join(rows) + "\n" + (TOP1 + "\n") * 10
    records = list(read_puzzles(io.StringIO(text), name="in.txt"))
    assert sum(r.puzzle is not None for r in records) == 10
    assert (records[0].error.line, records[0].error.column) == (line, column)
    assert "no row of the grid" in records[0].error.reason


def test_a_janko_grid_broken_on_its_first_row() -> None:
    records = list(read_puzzles(io.StringIO("4 4\n- - -\n1 2 3 4\n" + TOP1 + "\n"),
                                name="in.txt"))
    assert (records[0].error.line, records[0].error.column) == (2, 6)
    assert records[-1].puzzle is not None


def test_janko_short_row_error_has_a_column() -> None:
    from sudokit.formats.janko import janko_puzzle
    from sudokit.model.variants import VariantSpec

    header = (1, (("4", 1), ("4", 3)))
    rows = [(2, (("1", 1), ("-", 3), ("-", 5)))] + [(n, (("-", 1),) * 4) for n in (3, 4, 5)]
    with pytest.raises(InvalidPuzzle) as info:
        janko_puzzle(header, rows, VariantSpec(), "j.txt")
    assert (info.value.line, info.value.column) == (2, 6)


@pytest.mark.parametrize("bad", ['{"size": 9}', "{bad json", '{"size": 9,', "[" * 500])
def test_directives_keep_working_after_f_puzzles_lines(bad: str) -> None:
    text = f"# variant: jigsaw\n{bad}\n# variant: diagonal\n{TOP1}\n{TOP1}\n"
    records = list(read_puzzles(io.StringIO(text), name="in.txt"))
    assert records[0].error is not None and records[0].line == 2
    good = [r for r in records if r.puzzle is not None]
    assert [r.line for r in good] == [4, 5]
    assert all(r.puzzle.geometry.variant.text == "diagonal" for r in good)


def test_a_json_document_over_lines_then_line_form() -> None:
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    text = json.dumps(data, indent=1) + "\n" + TOP1 + "\n"
    first, second = read_puzzles(io.StringIO(text), name="in.txt")
    assert first.puzzle is not None and first.puzzle.geometry.side == 4
    assert second.line == text.count("\n") and second.puzzle.givens[0] == 4


def test_janko_output_writes_the_input_s_empty_character() -> None:
    from sudokit.formats.text import format_line
    from sudokit.run.doors import solve
    from tests.helpers import DATA

    text = (DATA / "janko" / "SamuraiSudoku" / "problems" / "2_21x21.txt").read_text()
    for empty in ("-", "."):
        (record,) = read_puzzles(io.StringIO(text.replace("-", empty)), name="in.txt",
                                 variant="samurai")
        written = format_line(solve(record.puzzle).solution, None, record.style)
        other = "." if empty == "-" else "-"
        assert empty in written and other not in written


def test_cnf_decode_header_errors_name_line_and_column() -> None:
    from sudokit.formats.text import parse_puzzle
    from sudokit.sat.dimacs import decode_answer, write_sudoku_cnf
    from sudokit.sat.encoding import Encoding

    out = io.StringIO()
    write_sudoku_cnf(out, parse_puzzle(TOP1), Encoding.MINIMAL)
    text = out.getvalue()
    for bad, place in ((text.replace("givens 4 0", "givens 4 x"), (5, 12)),
                       (text.replace("givens 4 0", "givens 4 " + HUGE), (5, 12)),
                       (text.replace("box 3x3", "box 3xq"), (4, 1))):
        with pytest.raises(InvalidPuzzle, match="bad sudokit header: expected an integer") as info:
            decode_answer(bad, "s SATISFIABLE\nv 1 0\n", cnf_source="p.cnf")
        assert (info.value.source, info.value.line, info.value.column) == ("p.cnf", *place)


def test_broken_json_lines_are_one_error_each_and_read_no_further() -> None:
    text = "{bad\n" * 2000 + '{"size": 9,\n "grid": [\n' + TOP1 + "\n"
    records = list(read_puzzles(io.StringIO(text), name="in.txt"))
    assert [r.line for r in records[:3]] == [1, 2, 3] and len(records) == 2002
    assert records[2000].error.line == 2003 and records[2001].puzzle is not None


def test_a_box_option_of_any_length_is_refused_in_words() -> None:
    from sudokit.formats.text import parse_box

    with pytest.raises(InvalidPuzzle, match="expected a box shape"):
        parse_box(HUGE + "x3")


@pytest.mark.parametrize(("text", "place"), [("p cnf 3 2\n1 2 0\n", (1, 9)),
                                             ("p cnf 3 1\n1 2\n", (2, 4)), ("c x\n", (1, 1))])
def test_dimacs_errors_name_line_and_column(text: str, place: tuple[int, int]) -> None:
    with pytest.raises(InvalidPuzzle) as info:
        read_dimacs(text, "f.cnf")
    assert (info.value.line, info.value.column) == place


def test_a_cell_set_twice_names_the_literal_s_line_and_column() -> None:
    """Found by the fuzzer: the message named only the file."""
    from sudokit.formats.text import parse_puzzle
    from sudokit.sat.dimacs import decode_answer, write_sudoku_cnf
    from sudokit.sat.encoding import Encoding

    cnf = io.StringIO()
    write_sudoku_cnf(cnf, parse_puzzle("..3..4.221......"), Encoding.EXTENDED)
    answer = "s SATISFIABLE\nv 1 -2 -3 -4\nc 1\nv -5 1 0\n"
    with pytest.raises(InvalidPuzzle) as info:
        decode_answer(cnf.getvalue(), answer, cnf_source="p.cnf", answer_source="m.txt")
    assert str(info.value) == "m.txt:4:6: model sets r1c1 to 1 twice"


def test_brackets_inside_strings_never_count_as_nesting() -> None:
    from sudokit.formats.bounded import _too_deep
    assert _too_deep('["' + "[" * 500 + '"]', 0) is None  # one level: the rest is a string
    assert _too_deep('{"a\\"[": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}", 0) == 8 + MAX_DEPTH
    wide = "[" + ",".join(["[1]"] * 300) + "]"  # 301 brackets, 2 deep: the quick count fails
    assert _too_deep(wide, 0) is None


def test_json_without_long_integers_decodes_as_with_the_bounded_reader() -> None:
    from sudokit.formats.bounded import JSONRefused, json_value  # noqa: PLC0415
    text = '{"a": [1, -0, 2.5e3, "' + "9" * 30 + '"], "b": ' + "9" * MAX_DIGITS + "}"
    assert json_value(text) == json.loads(text)  # digits in a string are no integer
    with pytest.raises(JSONRefused, match="19 digits"):
        json_value('{"a": ' + "9" * (MAX_DIGITS + 1) + "}")
