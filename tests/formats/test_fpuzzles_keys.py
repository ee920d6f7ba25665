"""f-puzzles rule keys (formats/fpuzzles_keys.py): every key read into the model, written back
with the solution, read again to the same puzzle."""

from __future__ import annotations

import io
import json

import pytest

from sudokit.errors import InvalidPuzzle
from sudokit.formats.fpuzzles import format_fpuzzles, fpuzzles_puzzle
from sudokit.formats.fpuzzles_keys import RULE_KEYS
from sudokit.formats.fpuzzles_stream import read_fpuzzles
from sudokit.model.constraints import Variant
from tests.helpers import DATA

RULES = DATA / "rules"


def empty(n: int = 9) -> dict:
    return {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}


@pytest.mark.parametrize("path", sorted(RULES.glob("sigh_*.json")), ids=lambda p: p.stem)
def test_round_trip_with_the_solution(path) -> None:
    record = next(read_fpuzzles(io.StringIO(path.read_text()), path.name))
    assert record.error is None and record.expected
    written = format_fpuzzles(record.expected, record.style.fpuzzles)
    data = json.loads(written)
    assert [c["value"] for row in data["grid"] for c in row] == list(record.expected)
    again = fpuzzles_puzzle(written)
    assert again == record.puzzle and again.constraints == record.puzzle.constraints


EXAMPLES = {
    "thermometer": {"lines": [["R1C1", "R1C2", "R1C3"]]},
    "slowthermometer": {"lines": [["R1C1", "R1C2"]]},
    "arrow": {"cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C3"]]},
    "difference": {"cells": ["R1C1", "R1C2"], "value": "3"},
    "ratio": {"cells": ["R1C1", "R1C2"]},
    "xv": {"cells": ["R1C1", "R1C2"], "value": "V"},
    "littlekillersum": {"cell": "R0C1", "direction": "DR", "value": "20"},
    "sandwichsum": {"cell": "R10C3", "value": "10"},
    "xsum": {"cell": "R4C0", "value": "12"},
    "skyscraper": {"cell": "R4C10", "value": "3"},
    "palindrome": {"lines": [["R1C1", "R2C2", "R3C3"]]},
    "renban": {"lines": [["R1C1", "R2C1", "R3C1"]]},
    "whispers": {"lines": [["R1C1", "R2C1"]], "value": "4"},
    "betweenline": {"lines": [["R1C1", "R2C1", "R3C1"]]},
    "quadruple": {"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2]},
    "minimum": {"cell": "R5C5"},
    "maximum": {"cell": "R5C5"},
    "clone": {"cells": ["R1C1", "R1C2"], "cloneCells": ["R5C5", "R5C6"]},
    "lockout": {"lines": [["R1C1", "R2C1", "R3C1"]]},
    "entropicline": {"lines": [["R1C1", "R2C1", "R3C1"]]},
    "modularline": {"lines": [["R1C1", "R2C1", "R3C1"]]},
    "nabner": {"lines": [["R1C1", "R2C2", "R3C3"]]},
    "regionsumline": {"lines": [["R1C3", "R1C4"]]},
    "zipperline": {"lines": [["R1C1", "R1C2", "R1C3"]]},
    "doublearrow": {"lines": [["R1C1", "R1C2", "R1C3"]]},
    "rowindexer": {"cells": ["R1C1"]},
    "columnindexer": {"cells": ["R1C1"]},
    "boxindexer": {"cells": ["R1C1"]},
}


def test_every_key_has_an_example() -> None:
    assert set(EXAMPLES) == RULE_KEYS


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_every_key_is_read_into_rules(key: str) -> None:
    puzzle = fpuzzles_puzzle(empty() | {key: [EXAMPLES[key]]})
    assert puzzle.constraints, key
    assert puzzle.geometry.features & {r.kind for r in puzzle.constraints}


def test_outside_clues_read_away_from_the_clue() -> None:
    sky = fpuzzles_puzzle(empty() | {"skyscraper": [EXAMPLES["skyscraper"]]}).constraints[0]
    assert sky.cells == tuple(3 * 9 + c for c in range(8, -1, -1))
    killer = fpuzzles_puzzle(empty() | {"littlekillersum": [EXAMPLES["littlekillersum"]]})
    assert killer.constraints[0].cells == (1, 11, 21, 31, 41, 51, 61, 71)


def test_negative_kinds() -> None:
    ratio = fpuzzles_puzzle(empty(4) | {"negative": ["ratio"],
                                        "difference": [{"cells": ["R1C1", "R1C2"]}]})
    assert len(ratio.constraints) == 1 + 24 - 1  # the dot, every other orthogonal pair
    xv = fpuzzles_puzzle(empty(4) | {"negative": ["xv"]})
    assert len(xv.constraints) == 2 * 24
    plain = fpuzzles_puzzle(empty(4) | {"nonconsecutive": True})
    assert plain.geometry.variant is Variant.NON_CONSECUTIVE and not plain.constraints
    dotted = fpuzzles_puzzle(empty(4) | {"nonconsecutive": True,
                                         "ratio": [{"cells": ["R1C1", "R1C2"]}]})
    assert Variant.NON_CONSECUTIVE not in dotted.geometry.variant
    assert len(dotted.constraints) == 1 + 23


def test_a_box_indexer_points_into_its_region() -> None:
    """R2C3 is 6th in box 1 (reading order); holding 4, it puts 6 in the box's 4th cell, R2C1
    (SudokuSolver's ``BoxIndexerConstraint``)."""
    rule, = fpuzzles_puzzle(empty() | {"boxindexer": [{"cells": ["R2C3"]}]}).constraints
    assert rule.name == "box indexer" and rule.cells[0] == 11
    box = [0, 1, 2, 9, 10, 11, 18, 19, 20]
    grid = [0] * 81
    grid[11], grid[9] = 4, 6
    assert rule.holds([grid[c] for c in rule.cells])
    grid[9] = 5
    assert not rule.holds([grid[c] for c in rule.cells])
    assert set(rule.cells) == set(box)


def test_given_candidates_bind_an_empty_cell_and_are_moot_on_a_given() -> None:
    data = empty(4)
    data["grid"][0][0] = {"givenPencilMarks": [3, 4]}
    data["grid"][3][3] = {"value": 2, "given": True, "givenPencilMarks": [1, 2]}
    puzzle = fpuzzles_puzzle(data)
    rule, = puzzle.constraints
    assert rule.cells == (0,) and [rule.holds([d]) for d in range(1, 5)] == [False, False, True,
                                                                          True]
    assert puzzle.givens[15] == 2
    data["grid"][0][0] = {"givenPencilMarks": [5]}
    with pytest.raises(InvalidPuzzle, match="givenPencilMarks"):
        fpuzzles_puzzle(data)


def test_the_editors_lockout_drawings_are_skipped() -> None:
    """f-puzzles draws a lockout line again as a ``line`` and its end diamonds as
    ``rectangle`` entries marked ``isLLConstraint``; without a ``lockout`` they are refused."""
    line = [["R1C1", "R2C1", "R3C1"]]
    drawn = {"line": [{"lines": line, "isLLConstraint": True}],
             "rectangle": [{"cells": ["R1C1"], "isLLConstraint": True}]}
    assert len(fpuzzles_puzzle(empty() | drawn | {"lockout": [{"lines": line}]}).constraints) == 1
    with pytest.raises(InvalidPuzzle, match="'line', 'rectangle'"):
        fpuzzles_puzzle(empty() | drawn)


def test_cells_in_no_region() -> None:
    """``"region": null`` on every cell is a grid without boxes (SudokuPad's importer puts
    such cells in no region); on some cells only it is refused rather than boxed."""
    data = empty(4)
    for row in data["grid"]:
        for cell in row:
            cell["region"] = None
    assert fpuzzles_puzzle(data).geometry.regions == ((0, 1, 2, 3), (4, 5, 6, 7),
                                                      (8, 9, 10, 11), (12, 13, 14, 15))
    data["grid"][0][0] = {}
    with pytest.raises(InvalidPuzzle, match=r"R1C2 is in no region"):
        fpuzzles_puzzle(data)


def test_cell_names_read_the_same_each_time() -> None:
    """A name read once is remembered; its range is checked on each grid; any case reads."""
    line = {"lines": [["r1c1", "R1C2", "R00000000000001C3"]]}
    for _ in range(2):
        thermo = fpuzzles_puzzle(empty() | {"thermometer": [line]}).constraints
        assert {c for r in thermo for c in r.cells} == {0, 1, 2}
    with pytest.raises(InvalidPuzzle, match=r"R1C1\.\.R4C4, found 'R5C1'"):
        fpuzzles_puzzle(empty(4) | {"thermometer": [{"lines": [["R5C1", "R1C1"]]}]})
    fpuzzles_puzzle(empty() | {"thermometer": [{"lines": [["R5C1", "R1C1"]]}]})
    with pytest.raises(InvalidPuzzle, match="found 'R1C1x'"):
        fpuzzles_puzzle(empty() | {"thermometer": [{"lines": [["R1C1x", "R1C2"]]}]})


@pytest.mark.parametrize("key, entry, message", [
    ("quadruple", {"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": 5},
     r"quadruple: expected digits 1\.\.9, found 5"),
    ("killercage", {"cells": 5, "value": "3"}, "killercage: expected a list of cells, found 5"),
    ("extraregion", {"cells": "R1C1"}, "extraregion: expected a list of cells, found 'R1C1'"),
])
def test_an_entry_of_the_wrong_json_type_is_an_error_at_its_key(key, entry, message) -> None:
    """Not a list where one is expected: a located InvalidPuzzle (was a TypeError for a number)."""
    with pytest.raises(InvalidPuzzle, match=message):
        fpuzzles_puzzle(empty() | {key: [entry]})
