"""The SVG board of present/svg.py: well-formed for every size and variant, one group per cell
with its data attributes, the marks where the page's JavaScript puts them, a step's highlights."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sudokit.formats.text import read_puzzles
from sudokit.logic.step import Link, LinkKind, Step
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.present.svg import CELL, BoardPicture, board_svg, mark_position
from sudokit.run.doors import solve
from tests.helpers import DATA

NS = {"s": "http://www.w3.org/2000/svg"}


def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def cell_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "data-cell" in g.attrib]


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_every_size_has_one_group_per_cell(box: tuple[int, int]) -> None:
    g = Geometry.of(*box)
    givens = [0] * g.n_cells
    givens[0] = g.side
    root = tree(board_svg(Puzzle(g, givens)))
    groups = cell_groups(root)
    assert [int(e.get("data-cell")) for e in groups] == list(range(g.n_cells))
    assert root.get("data-side") == str(g.side) and root.get("viewBox").endswith(
        f"{g.side * CELL + 8} {g.side * CELL + 8}")
    assert "sk-given" in groups[0].get("class") and "sk-given" not in groups[1].get("class")
    last = groups[-1]
    assert (last.get("data-row"), last.get("data-col")) == (str(g.side - 1), str(g.side - 1))


@pytest.mark.parametrize("folder, variant, feature", [
    ("KillerSudoku", "killer", 'class="sk-cage"'),
    ("JigsawSudoku", "jigsaw", 'class="sk-heavy"'),
    ("EvenOddSudoku", "even-odd", "sk-odd-ring"),
    ("SamuraiSudoku", "samurai", 'class="sk-heavy"'),
])
def test_variants_are_drawn(folder: str, variant: str, feature: str) -> None:
    path = sorted((DATA / "janko" / folder / "problems").iterdir())[0]
    puzzle = next(read_puzzles(path, variant=variant)).puzzle
    svg = board_svg(puzzle, solve(puzzle).solution)
    root = tree(svg)
    assert len(cell_groups(root)) == puzzle.geometry.n_cells and feature in svg
    assert svg.count('class="sk-sum"') == len(puzzle.geometry.cages)
    rows, cols = puzzle.geometry.canvas
    assert root.get("width") == str(cols * CELL + 8) and root.get("height") == str(rows * CELL + 8)


def test_diagonals_and_extra_regions() -> None:
    x = Puzzle(Geometry.of(3, 3, "diagonal"), [0] * 81)
    assert board_svg(x).count('class="sk-diagonal"') == 2
    fpuzzle = next(read_puzzles(DATA / "fpuzzles" / "extra_regions.json")).puzzle
    svg = board_svg(fpuzzle)
    assert 'class="sk-region"' in svg and "sk-shaded" in svg


def test_marks_sit_where_the_page_puts_them_and_a_step_is_highlighted() -> None:
    g = Geometry.of(3, 3)
    assert mark_position(g, 1) == (2 + 6, 2 + 6) and mark_position(g, 9) == (38 - 6, 38 - 6)
    marks = [None] * 81
    marks[1], marks[2] = [1, 5], [5, 7]
    step = Step("X-Chain", 6.6, "a chain", placements=((3, 2),), eliminations=((2, 5),),
                cells=(1, 2), digits=(5,),
                links=(Link(((1,), 5), ((2,), 5), LinkKind.STRONG),
                       Link(((2,), 5), ((3,), 5), LinkKind.WEAK)))
    svg = board_svg(Puzzle(g, [0] * 81), None, marks, step)
    root = tree(svg)
    groups = cell_groups(root)
    assert "sk-focus" in groups[1].get("class") and "sk-focus" in groups[2].get("class")
    assert "sk-place" in groups[3].get("class")
    assert svg.count('class="sk-mark sk-elim"') == 1 and svg.count('class="sk-mark sk-keep"') == 1
    assert svg.count('class="sk-link"') == 1 and svg.count('class="sk-link sk-weak"') == 1
    picture = BoardPicture(Puzzle(g, [0] * 81), marks=marks, step=step)
    assert picture._repr_svg_() == svg
    with pytest.raises(ValueError, match="expected values for 81 cells"):
        board_svg(Puzzle(g, [0] * 81), [0] * 80)


def test_jupyter_shows_the_board() -> None:
    puzzle = Puzzle(Geometry.of(2, 2), [1, 0, 0, 0] * 4)
    assert "<svg" in puzzle._repr_html_()


@pytest.mark.parametrize("rules", [
    {"ratio": [{"cells": ["R5C5", "R5C6"], "value": 2}], "difference": [{"cells": ["R5C5", "R6C5"]}]},
    {"xv": [{"cells": ["R3C3", "R3C4"], "value": "X"}, {"cells": ["R3C3", "R4C3"], "value": "V"}]},
])
def test_dots_and_signs_on_edges_cover_no_candidate(rules: dict) -> None:
    """Every candidate's glyph (its slot's middle 36%, as drawn at 90% of the slot) stays
    clear of every disc drawn on an edge (issue 41: Kropki dots covered candidates)."""
    import json

    from sudokit.formats.text import parse_puzzle
    from sudokit.present.svg import mark_pad

    puzzle = parse_puzzle(json.dumps({"size": 9, "grid": [[{}] * 9] * 9, **rules}))
    root = tree(board_svg(puzzle, marks=[list(range(1, 10))] * 81))
    discs = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
             for c in root.iter("{http://www.w3.org/2000/svg}circle")]
    assert discs
    left, top, right, bottom = mark_pad(puzzle.geometry)
    half = 0.18 * (CELL - left - right) / 3
    for g in cell_groups(root):
        dx, dy = (float(v) for v in g.get("transform")[10:-1].split(","))
        for mark in g.iter("{http://www.w3.org/2000/svg}text"):
            if "sk-mark" not in mark.get("class", ""):
                continue
            x, y = dx + float(mark.get("x")), dy + float(mark.get("y"))
            for cx, cy, r in discs:  # the nearest point of the glyph's box to the disc
                nx, ny = min(max(cx, x - half), x + half), min(max(cy, y - half), y + half)
                assert (nx - cx) ** 2 + (ny - cy) ** 2 > r ** 2, (g.get("data-cell"), mark.text)
