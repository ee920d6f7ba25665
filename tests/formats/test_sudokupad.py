"""SudokuPad links (formats/sudokupad.py): SudokuPad's own ``scl``/``ctc`` data unzipped and read
(givens, regions, killer cages, metadata), ``fpuz``/``fpuzzles`` links read as f-puzzles data,
and everything SudokuPad's data draws without stating its rule refused by name.

``tests/data/rules/sudokupad_links.txt`` holds published puzzles with their published solutions
(killer, jigsaw, classic, thermo) in each link form; ``sudokupad_refused.txt`` two published
SudokuPad puzzles of the Sudoku-Bench set whose dots, lines and circles are only drawn, and a
short puzzle id (sources in ``tests/data/SOURCES.md``).
"""

from __future__ import annotations

import io
import json

import lzstring
import pytest

from sudokit.errors import InvalidPuzzle
from sudokit.formats.sudokupad import SudokuPadLink, split_link, unzip_scl
from sudokit.formats.text import format_line, read_puzzles
from sudokit.run.doors import count_solutions, solve
from tests.formats.test_hostile_input import bomb
from tests.helpers import DATA

RULES = DATA / "rules"
LZ = lzstring.LZString()
BOXES = [[[r, c] for r in range(3 * br, 3 * br + 3) for c in range(3 * bc, 3 * bc + 3)]
         for br in range(3) for bc in range(3)]


def only(text: str):
    found = list(read_puzzles(io.StringIO(text + "\n"), name="in.txt"))
    assert len(found) == 1
    return found[0]


def scl(**data) -> str:
    """An scl link of SudokuPad data (plain JSON, which SudokuPad reads as well as zipped)."""
    base = {"cells": [[{} for _ in range(9)] for _ in range(9)], "regions": BOXES}
    return "https://sudokupad.app/scl" + LZ.compressToBase64(json.dumps(base | data))


# -- published puzzles ---------------------------------------------------------------------------

def test_published_links_solve_to_their_published_solutions() -> None:
    records = list(read_puzzles(RULES / "sudokupad_links.txt"))
    assert [r.line for r in records] == [4, 6, 8, 10, 12]
    for record in records:
        assert record.error is None and record.expected is not None
        result = solve(record.puzzle)
        assert tuple(result.solution) == record.expected, record.line
        assert count_solutions(record.puzzle, limit=2).count == 1
    killer, jigsaw, classic, thermo, zipped = (r.puzzle.geometry for r in records)
    assert len(killer.cages) == 29 and killer.regions is None
    assert jigsaw.regions is not None and len(jigsaw.regions) == 9
    assert classic.regions is None and not classic.cages and not classic.constraints
    assert thermo.constraints  # the thermometers of the f-puzzles data
    assert zipped == thermo and records[4].puzzle == records[3].puzzle
    assert records[3].style.fpuzzles.prefix == "https://sudokupad.app/fpuz"


def test_scl_solution_written_in_the_line_form() -> None:
    record = list(read_puzzles(RULES / "sudokupad_links.txt"))[0]
    written = format_line(record.expected, record.puzzle.geometry, record.style)
    assert written == "".join(map(str, record.expected))


def test_published_drawn_rules_are_refused_by_name() -> None:
    fish, circles, short = read_puzzles(RULES / "sudokupad_refused.txt")
    for record in (fish, circles, short):
        assert record.puzzle is None
    assert "overlay between r4c8 and r4c9: its rule is not stated" in str(fish.error)
    assert "21 overlays in all" in str(fish.error) and "background image" in str(fish.error)
    assert (fish.error.line, fish.error.column) == (4, len("https://sudokupad.app/scl") + 1)
    assert "underlay at r4c1" in str(circles.error) and "9 underlays" in str(circles.error)
    assert "'wsj7iunsg6'" in str(short.error) and "no network" in str(short.error)


# -- the format ----------------------------------------------------------------------------------

def test_unzip_reverses_sudokupads_zipper() -> None:
    # PuzzleZipper.zip of {"x":true,"color":"#123456","cells":[[{},{"value":"5"}],[{},{}]],
    # "cages":[{"value":"title: it's"}],"regions":[[[0,0]]]}, run in node
    zipped = "{x:t,c:123456,ce:[[,{v:5}],[,]],ca:[{v:'title: it\\'s'}],re:[[[0,0]]]}"
    assert unzip_scl(zipped) == {"x": True, "color": "#123456",
                                 "cells": [[{}, {"value": 5}], [{}, {}]],
                                 "cages": [{"value": "title: it's"}], "regions": [[[0, 0]]]}
    assert unzip_scl('{"cells": []}') == {"cells": []}
    with pytest.raises(InvalidPuzzle, match="zipped JSON"):
        unzip_scl("{ce:[[,,]")


def test_link_forms() -> None:
    for text, kind, prefix in (
            ("https://sudokupad.app/sclABCD", "scl", "https://sudokupad.app/scl"),
            ("https://beta.sudokupad.app/ctcABCD", "scl", "https://beta.sudokupad.app/ctc"),
            ("https://sudokupad.app/?puzzleid=fpuzzlesN4Ig", "fpuzzles",
             "https://sudokupad.app/?puzzleid=fpuzzles"),
            ("fpuzN4IgAB", "fpuzzles", "fpuz"), ("sclN4Sw", "scl", "scl"),
            ("https://sudokupad.app/abc123", "id", "https://sudokupad.app/"),
            ("N4IgAB", "fpuzzles", "N4Ig"), ('{"size": 9}', "fpuzzles", "")):
        link = split_link(text)
        assert (link.kind, link.prefix) == (kind, prefix), text
    assert split_link("https://sudokupad.app/sclA%2BB%3D&setting=1") == SudokuPadLink(
        "scl", "https://sudokupad.app/scl", "A+B=")
    for text in ("53..7....", "scl", "# comment", "sclerosis and more"):
        assert split_link(text) is None


def test_cages_read_and_refused() -> None:
    cage = {"cells": [[0, 0], [0, 1]], "value": 3}
    record = only(scl(cages=[cage, {"cells": [[1, 0], [1, 1]]}, {"value": "solution: 12"}]))
    geometry = record.puzzle.geometry
    assert geometry.cages[0].total == 3 and geometry.extra_regions == ((9, 10),)
    assert record.expected is None  # a partial solution is no solution
    for bad, says in (({"value": "?"}, "clue '?': its rule is not stated"),
                      ({"unique": False}, "digits may repeat"),
                      ({"value": 30}, "cannot add up to 30"),
                      ({"value": "", "fromConstraint": "Row Indexer"}, "drawn for 'Row Indexer'")):
        record = only(scl(cages=[cage | bad]))
        assert says in str(record.error) and "cage at r1c1" in str(record.error)


def test_every_drawn_element_and_unread_key_is_named() -> None:
    line = {"wayPoints": [[2.5, 1.5], [4.5, 1.5], [6.5, 1.5]], "color": "#CFCFCF"}
    for data, says in (
            ({"lines": [line]}, "line from r3c2 to r7c2"),
            ({"arrows": [line, line]}, "arrow from r3c2 to r7c2: its rule is not stated in the "
                                       "data (2 arrows in all)"),
            ({"overlays": [{"center": [1, 1]}], "lines": [line]},
             "line from r3c2 to r7c2: its rule is not stated in the data (1 line, 1 overlay"),
            ({"overlays": [{"center": [1, 1]}]}, "overlay at the corner of r1c1, r1c2, r2c1"),
            ({"underlays": [{"center": [-0.5, 3.5]}]}, "underlay at r0c4"),
            ({"fogofwar": [[0, 0]]}, "key 'fogofwar' is not read"),
            ({"metadata": {"bgimage": "x.png"}}, "background image"),
            ({"metadata": {"antiknight": True}}, "metadata 'antiknight'")):
        record = only(scl(**data))
        assert record.puzzle is None and says in str(record.error), (data, record.error)


def test_grid_regions_and_givens_checked() -> None:
    cells = [[{} for _ in range(9)] for _ in range(9)]
    for data, says in (
            ({"cells": cells[:8]}, "expected N rows of N cells"),
            ({"regions": []}, "without regions"),
            ({"regions": BOXES[:8]}, "expected 9 regions of 9 cells"),
            ({"cells": [[{"value": 12}] + row[1:] for row in cells]}, "r1c1: value 12"),
            ({"cells": [[{"pencilMarks": [1, 2]}] + row[1:] for row in cells]},
             "'pencilMarks' (given pencil marks"),
            ({"regions": "abc"}, "regions: expected a list"),
            ({"cages": [{"cells": 5}]}, "cage cells: expected a list"),
            ({"cages": [5]}, "expected cage objects"),
            ({"cages": [{"cells": [[0, 0], [0, 0]], "value": 3}]}, "lists a cell twice"),
            ({"metadata": "x"}, "metadata: expected an object"),
            ({"lines": {"wayPoints": [[0.5, 0.5]]}}, "line from r1c1 to r1c1")):
        record = only(scl(**data))
        assert record.puzzle is None and says in str(record.error), (data, record.error)
    givens = [[{"value": "5"}] + row[1:] for row in cells]
    assert only(scl(cells=givens)).puzzle.givens[::9] == (5,) * 9


def test_bad_payloads_are_one_error_each() -> None:
    records = list(read_puzzles(io.StringIO(
        "https://sudokupad.app/sclN4IgN4IgN4Ig\nsclAAAA\nhttps://sudokupad.app/scfABCD\n"),
        name="in.txt"))
    assert [r.line for r in records] == [1, 2, 3]
    assert "does not decompress" in str(records[0].error) and records[0].error.column == 26
    assert "scf data is not read" in str(records[2].error)


def test_small_grid_and_two_digit_solutions() -> None:
    cells = [[{} for _ in range(4)] for _ in range(4)]
    boxes = [[[r, c] for r in (2 * br, 2 * br + 1) for c in (2 * bc, 2 * bc + 1)]
             for br in range(2) for bc in range(2)]
    cells[0][0] = {"value": 1}
    data = {"cells": cells, "regions": boxes, "metadata": {"solution": "1234341221434321"}}
    record = only("scl" + LZ.compressToBase64(json.dumps(data)))
    assert record.expected == (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    data["metadata"]["solution"] = "".join(f"{d:02d}" for d in record.expected)
    assert only("scl" + LZ.compressToBase64(json.dumps(data))).expected == record.expected


def test_hostile_payloads_are_bounded() -> None:
    deep = "{ce:" + "[" * 150 + "]" * 150 + "}"
    record = only("https://sudokupad.app/scl" + LZ.compressToBase64(deep))
    assert "nested deeper than 100" in str(record.error)
    record = only("https://sudokupad.app/scl" + bomb(12_600))
    assert "more than 4,194,304 characters" in str(record.error) and record.error.column == 26
