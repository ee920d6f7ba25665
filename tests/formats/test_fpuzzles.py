"""f-puzzles data (JSON, links, LZ-String): reading, solving, refusing what the model lacks, and
writing solutions back in the input's form.

The files of ``tests/data/fpuzzles`` are Janko puzzles (killer, jigsaw, even-odd) and the
sudocue 12-clue X-Sudoku written as f-puzzles data, each with its published solution in the
``solution`` key, and two puzzles made from published solutions for the single diagonals and
the extra regions (unique under their rules, two solutions or more without them; see
``tests/data/SOURCES.md``).
"""

from __future__ import annotations

import importlib.util
import io
import json

import lzstring
import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.errors import InvalidPuzzle
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.formats.text import (
    format_line,
    needs_general_reader,
    parse_puzzle,
    read_puzzles,
)
from sudokit.model.constraints import Variant
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution
from sudokit.run.doors import count_solutions, solve
from tests.helpers import DATA

FP = DATA / "fpuzzles"
LZ = lzstring.LZString()
METHODS = ["fast", "propagate", "mac", "sat", "dpll"] + (
    ["cpsat"] if importlib.util.find_spec("ortools") else [])


def records(path_or_text):
    if isinstance(path_or_text, str):
        return list(read_puzzles(io.StringIO(path_or_text), name="in.txt"))
    return list(read_puzzles(path_or_text))


def only(path_or_text):
    found = records(path_or_text)
    assert len(found) == 1
    return found[0]


def empty(n: int = 9) -> dict:
    return {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}


# -- real puzzles -------------------------------------------------------------------------------

def test_killer_json_document_over_many_lines() -> None:
    record = only(FP / "janko_killer_22.json")
    assert record.error is None and record.line == 1
    geometry = record.puzzle.geometry
    assert geometry.features == {"killer"} and len(geometry.cages) > 20
    assert sum(c.total for c in geometry.cages) == 405  # every cell in a cage: 9 * 45
    assert solve(record.puzzle).solution == record.expected


def test_links_and_bare_data_one_a_line() -> None:
    jigsaw, evenodd, sudokupad = records(FP / "janko_links.txt")
    assert (jigsaw.line, evenodd.line, sudokupad.line) == (3, 4, 5)
    assert jigsaw.puzzle.geometry.features == {"jigsaw"}
    assert evenodd.puzzle.geometry.features == {"even-odd"}
    assert sudokupad.puzzle == evenodd.puzzle and sudokupad.expected == evenodd.expected
    for record in (jigsaw, evenodd):
        assert solve(record.puzzle).solution == record.expected


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("name", "feature"), [
    ("x_sudoku_anti_diagonal", "anti-diagonal"), ("x_sudoku_main_diagonal", "main-diagonal"),
    ("extra_regions", "extra-region")])
def test_single_diagonals_and_extra_regions_in_every_method(name: str, feature: str,
                                                           method: str) -> None:
    record = only(FP / f"{name}.json")
    assert record.puzzle.geometry.features == {feature}
    found = count_solutions(record.puzzle, method, limit=2, time_limit=60)
    assert found.solutions == (record.expected,)


@pytest.mark.parametrize("name", ["x_sudoku_anti_diagonal", "x_sudoku_main_diagonal",
                                  "extra_regions"])
def test_the_rule_does_the_work(name: str) -> None:
    """Read as classic Sudoku the givens leave several solutions."""
    puzzle = only(FP / f"{name}.json").puzzle
    classic = Puzzle(Geometry.of(3, 3), puzzle.givens)
    assert count_solutions(classic, "sat", limit=2).count == 2
    # and the published solution breaks no rule of the variant
    assert is_solution(only(FP / f"{name}.json").expected, puzzle)


def test_the_technique_engine_solves_extra_regions() -> None:
    record = only(FP / "extra_regions.json")
    result = solve(record.puzzle, "logic")
    assert result.status.name == "SOLVED" and result.solution == record.expected


# -- keys -----------------------------------------------------------------------------------------

def test_flags_cages_regions_and_parity() -> None:
    data = empty(6)
    data.update({"diagonal+": True, "diagonal-": False, "antiknight": True,
                 "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"},
                                {"cells": ["R6C5", "R6C6"], "value": ""}],
                 "cage": [{"cells": ["R3C3", "r3c4"], "value": "11"}],
                 "extraregion": [{"cells": ["R2C2", "R4C4", "R5C5"]}],
                 "odd": [{"cell": "R1C3"}], "even": [{"cell": "R2C1"}],
                 "thermometer": [], "arrow": None, "title": "t", "author": "a"})
    data["grid"][0][0] = {"value": 1, "given": True}
    data["grid"][0][5] = {"value": 4}  # a solver's entry, not a given
    g = fpuzzles_puzzle(data).geometry
    assert g.variant == Variant.ANTI_DIAGONAL | Variant.ANTI_KNIGHT
    assert g.diagonals == ((5, 10, 15, 20, 25, 30),)
    assert [(c.total, c.cells) for c in g.cages] == [(3, (0, 1)), (11, (14, 15))]
    assert g.extra_regions == ((34, 35), (7, 21, 28))
    assert g.parity[2] == "o" and g.parity[6] == "e"
    assert fpuzzles_puzzle(data).givens[:6] == (1, 0, 0, 0, 0, 0)


def test_regions_replace_the_boxes() -> None:
    data = empty(4)
    for r in range(4):
        for c in range(4):
            data["grid"][r][c]["region"] = r  # each row is its own region
    g = fpuzzles_puzzle(data).geometry
    assert g.regions == ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15))
    data = empty(4)
    for r in range(4):
        for c in range(4):
            data["grid"][r][c]["region"] = (r // 2) * 2 + c // 2  # the usual boxes
    assert fpuzzles_puzzle(data).geometry.is_standard


def test_negative_difference_is_non_consecutive() -> None:
    data = empty(6) | {"negative": ["difference"]}
    assert fpuzzles_puzzle(data).geometry.variant is Variant.NON_CONSECUTIVE


@pytest.mark.parametrize(("change", "words"), [
    ({"fogofwar": ["R1C1"]}, "'fogofwar' is not supported"),
    ({"littlekillersum": [{"cell": "R0C1", "value": "5"}]}, "littlekillersum: expected"),
    ({"thermometer": [{"lines": [["R1C1", "R1C1"]]}]}, "a cell appears twice"),
    ({"negative": ["sum"]}, "negative constraint 'sum' is not supported"),
    ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "Y"}]}, "expected value \"X\" or \"V\""),
    ({"sandwichsum": [{"cell": "R5C5", "value": "5"}]}, "not beside the grid"),
    ({"text": [{"cells": ["R1C1"], "value": "hi"}]}, "'text'"),
    ({"cage": [{"cells": ["R1C1"], "value": "x"}]}, "cage value 'x'"),
    ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "30"}]}, "cannot add up to 30"),
    ({"killercage": [{"cells": ["R1C1", "R10C2"], "value": "3"}]}, "expected a cell R1C1..R9C9"),
    ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"},
                     {"cells": ["R1C2", "R1C3"], "value": "3"}]}, "overlap"),
    ({"size": 17}, "grid side 1..16"),
    ({"size": 4}, "expected 4 rows of 4"),
])
def test_what_the_model_cannot_express_is_invalid(change: dict, words: str) -> None:
    data = empty() | change
    record = only(json.dumps(data))
    assert record.puzzle is None and words in str(record.error)
    assert record.error.source == "in.txt" and record.error.line == 1
    key = "grid" if "rows of" in words else next(iter(change))  # where the fault is
    assert record.error.column == json.dumps(data).find(f'"{key}"') + 1


def test_errors_name_the_line_in_a_document_and_in_compressed_data() -> None:
    text = "# two puzzles\n[\n" + json.dumps(empty()) + ",\n" + json.dumps(
        empty() | {"arrow": [{"cells": ["R1C1"]}]}) + "\n]\n"
    first, second = records(text)
    assert first.error is None
    assert "arrow: expected" in str(second.error) and second.error.line == 4
    bad = only("N4Ig" + "A" * 40)
    assert "does not decompress" in str(bad.error) and bad.error.line == 1
    packed = LZ.compressToBase64(json.dumps(empty() | {"xv": [{"cells": ["R1C1", "R1C2"]}]}))
    record = only("\nhttps://www.f-puzzles.com/?load=" + packed + "\n")
    assert record.error.line == 2 and "decompressed data" in str(record.error)
    broken = only('{"size": 9,\n "grid": [\n')
    assert "expected f-puzzles JSON" in str(broken.error)


def test_sudokupad_own_formats_are_not_fpuzzles_data() -> None:
    for link in ("https://sudokupad.app/scl" + "N4Ig" * 5, "https://sudokupad.app/abc123"):
        with pytest.raises(InvalidPuzzle, match="SudokuPad (scl|id) link") as caught:
            decode_fpuzzles(link)
        assert caught.value.column == 1


def test_link_forms_decode_alike() -> None:
    text = json.dumps(empty() | {"title": "x+y"})
    packed = LZ.compressToBase64(text)
    for link, prefix in ((f"https://f-puzzles.com/?load={packed}", "https://f-puzzles.com/?load="),
                         (f"https://sudokupad.app/?puzzleid=fpuzzles{packed}",
                          "https://sudokupad.app/?puzzleid=fpuzzles"),
                         (packed, "N4Ig")):
        assert decode_fpuzzles(link) == (text, prefix)
    quoted = "https://www.f-puzzles.com/?load=" + packed.replace("+", "%2B").replace("=", "%3D")
    assert decode_fpuzzles(quoted)[0] == text
    text = json.dumps(empty(4) | {"title": "rgnbp?lsrgqn"})  # "-" in the URL-safe alphabet
    safe = LZ.compressToEncodedURIComponent(text)
    assert "-" in safe and decode_fpuzzles("https://sudokupad.app/fpuzzles" + safe)[0] == text


# -- writing back and the front doors -------------------------------------------------------------

def test_solution_written_back_in_each_form() -> None:
    for record in records(FP / "janko_links.txt") + records(FP / "x_sudoku_main_diagonal.json"):
        written = format_line(record.expected, record.puzzle.geometry, record.style)
        back = only(written)
        assert back.puzzle == record.puzzle  # givens kept, values are not givens
        data = json.loads(decode_fpuzzles(written)[0])
        assert [c["value"] for row in data["grid"] for c in row] == list(record.expected)
        assert written.startswith(record.style.fpuzzles.prefix or "{")


def test_parse_puzzle_and_general_reader_detection(tmp_path) -> None:
    puzzle = parse_puzzle(json.dumps(empty(4) | {"diagonal-": True}))
    assert puzzle.geometry.variant is Variant.MAIN_DIAGONAL
    path = tmp_path / "p.txt"
    path.write_text("\n# comment\nhttps://www.f-puzzles.com/?load=N4Ig\n")
    assert needs_general_reader(str(path), "standard")
    path.write_text("1" * 81 + "\n")
    assert not needs_general_reader(str(path), "standard")


def test_cli_solve_writes_the_json_back_and_show_draws_it() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["solve", str(FP / "extra_regions.json")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.splitlines()[0])
    expected = json.loads((FP / "extra_regions.json").read_text())["solution"]
    assert [c["value"] for row in data["grid"] for c in row] == expected
    result = runner.invoke(app, ["show", str(FP / "x_sudoku_anti_diagonal.json")])
    assert result.exit_code == 0 and "anti-diagonal" in result.stdout


def test_invalid_input_is_reported_with_its_place() -> None:
    with pytest.raises(InvalidPuzzle, match="'fogofwar'"):
        parse_puzzle(json.dumps(empty() | {"fogofwar": ["R1C1"]}))


def test_a_link_on_the_command_line_is_a_puzzle() -> None:
    link = (FP / "janko_links.txt").read_text().splitlines()[2]
    result = CliRunner().invoke(app, ["solve", link])
    assert result.exit_code == 0, result.output
    written = result.stdout.splitlines()[0]
    assert written.startswith("https://www.f-puzzles.com/?load=")
    expected = json.loads(decode_fpuzzles(link)[0])["solution"]
    data = json.loads(decode_fpuzzles(written)[0])
    assert [c["value"] for row in data["grid"] for c in row] == expected


def test_odd_and_even_on_one_cell_and_writers_without_extra_regions() -> None:
    record = only(json.dumps(empty() | {"odd": [{"cell": "R1C1"}], "even": [{"cell": "r1c1"}]}))
    assert "marked both odd and even" in str(record.error)
    from sudokit.formats.compact import format_compact
    from sudokit.formats.janko import format_janko_puzzle

    puzzle = only(FP / "extra_regions.json").puzzle
    for writer in (format_compact, format_janko_puzzle):
        with pytest.raises(ValueError, match="extra regions"):
            writer(puzzle)


class _Pipe:
    """A stream that cannot seek (like a pipe on standard input)."""

    name = "<pipe>"

    def __init__(self, text: str) -> None:
        self._text = io.StringIO(text)

    def readline(self, size: int = -1) -> str:
        return self._text.readline(size)

    def read(self, size: int = -1) -> str:
        return self._text.read(size)

    def seekable(self) -> bool:
        return False


def test_streams_that_cannot_seek_lose_no_line() -> None:
    links = (FP / "janko_links.txt").read_text()
    assert [r.line for r in read_puzzles(_Pipe(links))] == [3, 4, 5]
    plain = "# c\n\n" + "1..." * 4 + "\n" + "..1." * 4 + "\n"
    found = list(read_puzzles(_Pipe(plain)))
    assert [(r.line, r.puzzle.line) for r in found] == [(3, "1..." * 4), (4, "..1." * 4)]


def test_cnf_comments_carry_extra_regions_and_single_diagonals() -> None:
    from sudokit.sat.dimacs import puzzle_from_comments, sudoku_comments
    from sudokit.sat.encoding import Encoding

    for name in ("extra_regions", "x_sudoku_anti_diagonal"):
        puzzle = only(FP / f"{name}.json").puzzle
        back = puzzle_from_comments(sudoku_comments(puzzle, Encoding.EXTENDED))
        assert back.geometry == puzzle.geometry and back.givens == puzzle.givens


def test_an_object_already_decoded_reads_as_its_text() -> None:
    data = json.loads((DATA / "rules" / "sigh_sandwich_sudoku.json").read_text("utf-8"))
    assert fpuzzles_puzzle(data) == fpuzzles_puzzle(json.dumps(data))
    with pytest.raises(InvalidPuzzle, match="killercage") as bad:
        fpuzzles_puzzle({"size": 9, "grid": data["grid"], "killercage": [{"cells": ["R0C1"]}]})
    assert bad.value.line == 1 and bad.value.column > 1  # located at its key in the text
