"""Drawings of every kind of geometry: terminal text (sudokit.formats.drawing, format_grid, the Rich
renderings), the Jupyter HTML table, and the PNG of ``show --png`` (sudokit.present.plots).

Geometries are built directly with Geometry.of, and read from the Janko samples of
tests/data/janko (see tests/data/SOURCES.md). Structure is checked cell by cell: which line
separates two cells, where cage totals and givens sit, what stays blank outside a layout.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.formats.drawing import (
    _junctions,
    draw_text,
    layout_pieces,
    plain_lines,
    plain_pieces,
)
from sudokit.formats.outline import Edge, edge, legend, marked_cells
from sudokit.formats.text import (
    format_candidates,
    format_grid,
    format_side_by_side,
    parse_puzzle,
)
from sudokit.model.constraints import Cage, Variant
from sudokit.model.geometry import Geometry
from sudokit.model.layouts import Layout
from sudokit.model.puzzle import Puzzle
from sudokit.present.display import grid_html
from sudokit.present.render import candidates_table, grid_text
from tests.helpers import DATA

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
JANKO = DATA / "janko"
HEAVY_V, LIGHT_V, DASHED_V = "┃", "│", "┇"
HEAVY_H, LIGHT_H, DASHED_H = "━", "─", "┅"

# A 6x6 jigsaw (regions of 6 cells) built by hand, and a 4x4 killer with a cage crossing boxes.
JIGSAW6 = ("aaabbb"
           "aacbbb"
           "accddd"
           "eccfdd"
           "eecffd"
           "eeefff")


def _regions(text: str) -> list[list[int]]:
    """Regions from one id character per cell."""
    return [[i for i, ch in enumerate(text) if ch == k] for k in sorted(set(text))]


def killer4() -> Geometry:
    # Solution 1234 / 3412 / 2143 / 4321; cages: r1c1-r1c2 (3), r1c3 (3), r1c4-r2c4 (6),
    # r2c1-r2c3 (3+4+1=8), r3c1-r4c1 (6), r3c2-r3c3 crossing boxes (1+4=5), r3c4-r4c4 (4),
    # r4c2-r4c3 (3+2=5).
    return Geometry.of(2, 2, cages=[(3, [0, 1]), (3, [2]), (6, [3, 7]), (8, [4, 5, 6]),
                                    (6, [8, 12]), (5, [9, 10]), (4, [11, 15]), (5, [13, 14])])


SAMURAI = Layout(21, 21, ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12)))


# -- reading a drawing back: where each cell and each line sits ---------------------------------


def width_of(lines: list[str], cols: int) -> int:
    """Cell width of a variant drawing: its lines are cols * (width + 1) + 1 wide."""
    return (len(lines[0]) - 1) // cols - 1


def content(lines: list[str], r: int, c: int, width: int) -> str:
    line = lines[2 * r + 1].ljust(len(lines[0]))
    return line[c * (width + 1) + 1:(c + 1) * (width + 1)]


def left_line(lines: list[str], r: int, c: int, width: int) -> str:
    return lines[2 * r + 1].ljust(len(lines[0]))[c * (width + 1)]


def top_line(lines: list[str], r: int, c: int, width: int) -> str:
    return lines[2 * r].ljust(len(lines[0]))[c * (width + 1) + 1:(c + 1) * (width + 1)]


def expected(line: Edge, vertical: bool) -> str:
    chars = ((" ", LIGHT_V, HEAVY_V, DASHED_V) if vertical
             else (" ", LIGHT_H, HEAVY_H, DASHED_H))
    return chars[line]


# -- the plain drawing is unchanged -------------------------------------------------------------


def test_standard_drawing_is_byte_identical_and_reads_back() -> None:
    puzzle = parse_puzzle(TOP1)
    drawn = format_grid(puzzle.givens)
    assert drawn.splitlines()[:4] == ["4 . . | . . . | 8 . 5", ". 3 . | . . . | . . .",
                                      ". . . | 7 . . | . . .", "------+-------+------"]
    assert len(drawn.splitlines()) == 11 and drawn.endswith("\n")
    assert parse_puzzle(drawn) == puzzle
    assert format_grid([1, 0, 0, 1], Geometry.of(1, 2)) == "1 .\n---\n. 1\n"
    # integers, as a 16x16 read from decimals is written back
    sixteen = [(i % 16) + 1 if i % 3 == 0 else 0 for i in range(256)]
    text = format_grid(sixteen, Geometry.of(4, 4))
    assert parse_puzzle(text, box="4x4").givens == tuple(sixteen)
    # a plain variant (Sudoku X) keeps the drawing that reads back
    diagonal = Geometry.of(3, 3, "diagonal")
    assert format_grid(puzzle.givens, diagonal) == drawn
    assert grid_text(Puzzle(diagonal, puzzle.givens)).plain == drawn


def test_plain_pieces_cut_the_plain_lines() -> None:
    for shape, texts in (((3, 3), [str(d) if d else "" for d in parse_puzzle(TOP1).givens]),
                         ((2, 3), ["12" if i % 4 else "" for i in range(36)])):
        g = Geometry.of(*shape)
        pieces = plain_pieces(g, texts)
        assert ["".join(p.text for p in line) for line in pieces] == plain_lines(
            [t or "." for t in texts], g)
        cells = [p for line in pieces for p in line if p.cell >= 0]
        assert [p.cell for p in cells] == list(range(g.n_cells))
        assert all(p.text == (texts[p.cell] or ".") for p in cells)


def test_standard_candidates_and_side_by_side_unchanged() -> None:
    puzzle = parse_puzzle(TOP1)
    shown = format_candidates([puzzle.candidates(c) for c in range(81)], puzzle.geometry)
    assert shown.splitlines()[0] == ("      4    1679   12679 |     139    2369    1269 |"
                                     "       8    1239       5")
    both = format_side_by_side(puzzle, puzzle.givens)
    assert both.splitlines()[0] == "4 . . | . . . | 8 . 5    4 . . | . . . | 8 . 5"


# -- box-drawing characters ---------------------------------------------------------------------


def test_every_junction_has_its_character() -> None:
    table = _junctions()
    assert len(table) == 81 and len(set(table.values())) == 81  # 3**4 arm weights
    assert table[(0, 2, 2, 0)] == "┏" and table[(2, 2, 2, 2)] == "╋"
    assert table[(1, 1, 1, 1)] == "┼" and table[(2, 1, 2, 1)] == "╂"
    assert table[(0, 2, 0, 1)] == "╼" and table[(0, 0, 0, 0)] == " "


# -- jigsaw -------------------------------------------------------------------------------------


def check_lines_between_cells(g: Geometry, lines: list[str]) -> None:
    """Every vertical and horizontal line of the drawing is the one edge() gives."""
    rows, cols = g.canvas
    width = width_of(lines, cols)
    for r in range(rows):
        for c in range(cols):
            here = g.cell_at(r, c)
            assert left_line(lines, r, c, width) == expected(
                edge(g, g.cell_at(r, c - 1), here), True), (r, c)
            top = top_line(lines, r, c, width).lstrip("0123456789")
            assert set(top) <= {expected(edge(g, g.cell_at(r - 1, c), here), False)}, (r, c)


def test_jigsaw_regions_heavy_between_regions_light_inside() -> None:
    g = Geometry.of(2, 3, regions=_regions(JIGSAW6))
    region = {cell: k for k, cells in enumerate(g.regions) for cell in cells}
    givens = [(i % 6) + 1 if i % 5 == 0 else 0 for i in range(36)]
    lines = format_grid(givens, g).splitlines()
    assert len(lines) == 13 and width_of(lines, 6) == 3
    for r in range(6):
        for c in range(1, 6):
            a, b = r * 6 + c - 1, r * 6 + c
            assert left_line(lines, r, c, 3) == (HEAVY_V if region[a] != region[b] else LIGHT_V)
    for r in range(1, 6):
        for c in range(6):
            a, b = (r - 1) * 6 + c, r * 6 + c
            assert set(top_line(lines, r, c, 3)) == {HEAVY_H if region[a] != region[b]
                                                     else LIGHT_H}
    for cell, d in enumerate(givens):
        assert content(lines, *divmod(cell, 6), 3).strip() == (str(d) if d else ".")
    check_lines_between_cells(g, lines)
    assert "jigsaw" in legend(g)[0]


def test_janko_jigsaw_drawn_with_its_regions() -> None:
    from sudokit.formats.janko import read_janko

    puzzle = read_janko(JANKO / "JigsawSudoku/problems/250_9x9.txt")
    lines = format_grid(puzzle.givens, puzzle.geometry).splitlines()
    check_lines_between_cells(puzzle.geometry, lines)
    heavy_inside = sum(left_line(lines, r, c, 3) == HEAVY_V for r in range(9) for c in range(1, 9))
    assert heavy_inside > 9  # regions are not the boxes: more than the 2 x 9 box lines differ
    for cell, d in enumerate(puzzle.givens):
        if d:
            assert content(lines, *divmod(cell, 9), 3) == f" {d} "


# -- killer -------------------------------------------------------------------------------------


def test_killer_cages_totals_and_lines() -> None:
    g = killer4()
    lines = draw_text(g, [""] * 16).splitlines()
    assert lines[0] == "┏3━━━━━━┳3━━┯6━━┓"
    width = width_of(lines, 4)
    for cage in g.cages:  # the total sits at the top-left corner of the cage's first cell
        r, c = divmod(cage.cells[0], 4)
        assert top_line(lines, r, c, width).startswith(str(cage.total))
    # r1c1-r1c2: one cage in one box, no line between; r1c2 | r1c3: box line
    assert left_line(lines, 0, 1, width) == " " and left_line(lines, 0, 2, width) == HEAVY_V
    # r3c2-r3c3: one cage across the box line, dashed heavy
    assert left_line(lines, 2, 2, width) == DASHED_V
    # r3c1 over r4c1 in one cage: blank; r2c1 over r3c1 between boxes: heavy
    assert top_line(lines, 3, 0, width).strip() == "" and set(top_line(lines, 2, 0, width)) <= {
        HEAVY_H, "6"}
    # r4c1 | r4c2: two cages inside one box: light
    assert left_line(lines, 3, 1, width) == LIGHT_V
    check_lines_between_cells(g, lines)


def test_janko_killer_fits_80_columns_with_its_solution() -> None:
    from sudokit.formats.janko import read_janko

    puzzle = read_janko(JANKO / "KillerSudoku/problems/22_9x9.txt")
    g = puzzle.geometry
    lines = format_grid(puzzle.givens, g).splitlines()
    assert len(lines) == 19 and max(map(len, lines)) == 37
    check_lines_between_cells(g, lines)
    totals = [int(t) for line in lines[::2] for t in "".join(
        ch if ch.isdigit() else " " for ch in line).split()]
    assert Counter(totals) == Counter(cage.total for cage in g.cages)
    solution = _janko_solution(puzzle, JANKO / "KillerSudoku/solutions/22_9x9.txt")
    both = format_side_by_side(puzzle, solution).splitlines()
    assert len(both) == 19 and max(map(len, both)) <= 80
    right = [line[41:] for line in both]
    for cell, d in enumerate(solution):
        assert content(right, *divmod(cell, 9), 3) == f" {d} "


def _janko_solution(puzzle: Puzzle, path: Path) -> list[int]:
    """A Janko solution file's digits, cell by cell of the puzzle's geometry."""
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()][1:]
    g = puzzle.geometry
    digits = [int(rows[r][c]) for r, c in map(g.position, range(g.n_cells))]
    assert Puzzle(g, digits).conflicts() == []
    return digits


# -- even/odd and marks -------------------------------------------------------------------------


def test_even_odd_cells_bracketed() -> None:
    parity = ("eo." * 27)
    givens = [0] * 81
    givens[2], givens[5] = 7, 3
    g = Geometry.of(3, 3, parity=parity)
    lines = format_grid(givens, g).splitlines()
    for cell in range(81):
        text = content(lines, *divmod(cell, 9), 3)
        kind = parity[cell]
        if kind == "e":
            assert text == "[ ]"
        elif kind == "o":
            assert text == "( )"
        else:
            assert text == (f" {givens[cell]} " if givens[cell] else " . ")
    solved = format_grid([2, 1, 7] * 27, g).splitlines()
    assert content(solved, 0, 0, 3) == "[2]" and content(solved, 0, 1, 3) == "(1)"
    assert "even-odd" in legend(g)[0]


def test_janko_even_odd_every_given_present() -> None:
    from sudokit.formats.janko import read_janko

    puzzle = read_janko(JANKO / "EvenOddSudoku/problems/2_9x9.txt")
    lines = format_grid(puzzle.givens, puzzle.geometry).splitlines()
    for cell, d in enumerate(puzzle.givens):
        text = content(lines, *divmod(cell, 9), 3)
        if d:
            assert text[1] == str(d)
        else:
            assert text in ("[ ]", "( )", " . ")
    assert sum(line.count("[") for line in lines) == puzzle.geometry.parity.count("e")


def test_diagonal_and_hyper_marks_on_variant_drawings() -> None:
    g = Geometry.of(3, 3, "diagonal+hyper", parity="." * 81)
    lines = draw_text(g, [""] * 81).splitlines()
    assert content(lines, 0, 0, 3) == " ╲ " and content(lines, 0, 8, 3) == " ╱ "
    assert content(lines, 4, 4, 3) == " ╳ " and content(lines, 1, 2, 3) == " ░ "
    assert content(lines, 0, 1, 3) == " . "
    marks = marked_cells(g)
    assert len(marks) == 17 + 36 - 12  # diagonals, hyper boxes, minus the 12 cells in both
    assert {"diagonal", "hyper"} <= {line.split(":")[0] for line in legend(g)}
    assert marked_cells(Geometry.of(3, 3, "disjoint")) == {}


# -- multi-grid layouts -------------------------------------------------------------------------


def test_samurai_canvas_blank_outside_grids_and_boxes_outlined() -> None:
    g = Geometry.of(3, 3, layout=SAMURAI)
    givens = [(cell % 9) + 1 if cell % 7 == 0 else 0 for cell in range(g.n_cells)]
    lines = format_grid(givens, g).splitlines()
    assert len(lines) == 43 and max(map(len, lines)) == 85
    width = 3
    for r in range(21):
        for c in range(21):
            cell = g.cell_at(r, c)
            text = content(lines, r, c, width)
            if cell is None:
                assert text == "   "
                assert left_line(lines, r, c, width) in (" ", HEAVY_V)
            else:
                assert text == (f" {givens[cell]} " if givens[cell] else " . ")
    # no line at all between two uncovered canvas cells
    assert lines[1][37:48] == "           " and lines[2][37:48] == "           "
    for box in g.boxes:  # every box of every grid is outlined heavy
        rows = sorted({g.position(cell)[0] for cell in box})
        cols = sorted({g.position(cell)[1] for cell in box})
        assert set(top_line(lines, rows[0], cols[0], width)) == {HEAVY_H}
        assert left_line(lines, rows[0], cols[0], width) == HEAVY_V
        assert left_line(lines, rows[0], cols[-1] + 1, width) == HEAVY_V
        assert left_line(lines, rows[0], cols[1], width) == LIGHT_V
    check_lines_between_cells(g, lines)


def test_samurai_solution_written_under_the_puzzle() -> None:
    from sudokit.formats.janko import read_janko

    puzzle = read_janko(JANKO / "SamuraiSudoku/problems/2_21x21.txt")
    solution = _janko_solution(puzzle, JANKO / "SamuraiSudoku/solutions/2_21x21.txt")
    both = format_side_by_side(puzzle, solution).splitlines()
    assert len(both) == 43 + 1 + 43 and max(map(len, both)) == 85 and both[43] == ""
    below = both[44:]
    for cell, d in enumerate(solution):
        assert content(below, *puzzle.geometry.position(cell), 3) == f" {d} "


def test_clueless_extra_grid_marked() -> None:
    from sudokit.formats.janko import read_janko

    puzzle = read_janko(JANKO / "Clueless1Sudoku/problems/2_27x27.txt")
    g = puzzle.geometry
    lines = format_grid(puzzle.givens, g).splitlines()
    extra = {cell for unit in g.extra_units for cell in unit}
    assert len(extra) == 81 and set(marked_cells(g)) == extra
    for cell in extra:
        r, c = g.position(cell)
        if not puzzle.givens[cell]:
            assert content(lines, r, c, 3) == " ░ "
    check_lines_between_cells(g, lines)


# -- Rich and HTML ------------------------------------------------------------------------------


def test_rich_drawings_match_the_text() -> None:
    g = killer4()
    puzzle = Puzzle(g, [1, 0, 0, 0] * 4)
    assert grid_text(puzzle).plain == format_grid(puzzle.givens, g)
    candidates = [puzzle.candidates(c) for c in range(16)]
    assert candidates_table(puzzle, candidates).plain == format_candidates(candidates, g)
    text = grid_text(puzzle, [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
    styled = {(text.plain[s.start:s.end], str(s.style)) for s in text.spans}
    assert ("8", "bold yellow") in styled and ("1", "bold") in styled and ("2", "cyan") in styled


def test_text_and_pieces_agree_on_every_kind() -> None:
    geometries = [killer4(), Geometry.of(2, 3, regions=_regions(JIGSAW6)),
                  Geometry.of(3, 3, layout=SAMURAI), Geometry.of(3, 3, "diagonal", parity="eo." * 27)]
    for g in geometries:
        for texts in ([""] * g.n_cells, [str(1 + cell % g.side) for cell in range(g.n_cells)],
                      ["1234" if cell % 3 else "" for cell in range(g.n_cells)]):
            joined = "".join("".join(p.text for p in line).rstrip() + "\n"
                             for line in layout_pieces(g, texts))
            assert draw_text(g, texts) == joined
    with pytest.raises(ValueError, match="expected 16 cell texts"):
        draw_text(killer4(), ["1"] * 15)


def test_html_of_a_layout_and_a_killer() -> None:
    g = Geometry.of(3, 3, layout=SAMURAI)
    html = grid_html(Puzzle(g, [0] * g.n_cells))
    assert html.count("<tr>") == 21 and html.count("<td") == 21 * 21
    assert html.count("border:none") == 21 * 21 - g.n_cells
    killer = grid_html(Puzzle(killer4(), [0] * 16))
    assert killer.count("font-size:60%") == 8 and "dashed" in killer


# -- PNG ----------------------------------------------------------------------------------------


def test_puzzle_figure_killer_outlines_closed_and_totals_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    from sudokit.present.plots import _cage_outlines, puzzle_figure, save_figure

    g = killer4()
    segments = _cage_outlines(g)
    ends = Counter(tuple(p) for segment in segments for p in segment)
    assert all(n % 2 == 0 for n in ends.values())  # every outline is closed
    for (x0, y0), (x1, y1) in segments:  # axis-parallel, inset from the canvas edge
        assert (x0 == x1 or y0 == y1) and all(0 < v < 4 for v in (x0, y0, x1, y1))
        assert (x0 % 1 and x1 % 1) if x0 == x1 else (y0 % 1 and y1 % 1)  # off the cell lines
    solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    figure = puzzle_figure(Puzzle(g, [1] + [0] * 15), solution)
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert Counter(texts) == Counter([str(d) for d in solution] + [str(c.total) for c in g.cages])
    weights = {t.get_text(): t.get_fontweight() for t in figure.axes[0].texts[:1]}
    assert weights == {"1": "bold"}
    path = save_figure(figure, tmp_path / "killer.png")
    image = imread(path)
    assert image.ndim == 3 and image.shape[0] == image.shape[1] > 100


def test_puzzle_figure_layout_and_parity(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    from sudokit.present.plots import puzzle_figure, save_figure

    g = Geometry.of(3, 3, layout=Layout(12, 12, ((0, 0), (0, 3), (3, 0), (3, 3))))
    image = imread(save_figure(puzzle_figure(Puzzle(g, [0] * g.n_cells)), tmp_path / "b.png"))
    assert image.shape[0] == image.shape[1]
    parity = "eo" * 40 + "."
    figure = puzzle_figure(Puzzle(Geometry.of(3, 3, parity=parity), [0] * 81))
    patches = figure.axes[0].patches
    assert len(patches) == 81 - 1  # a square per even cell, a circle per odd cell
    with pytest.raises(ValueError, match="81 digits"):
        puzzle_figure(Puzzle(Geometry.of(3, 3), [0] * 81), [1] * 80)


# -- the command line ---------------------------------------------------------------------------


def test_show_draws_a_janko_killer_and_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    png = tmp_path / "killer.png"
    result = CliRunner().invoke(app, ["show", str(JANKO / "KillerSudoku/problems/22_9x9.txt"),
                                      "--png", str(png)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("┏15━") and "killer:" in result.stdout
    assert imread(png).shape[2] in (3, 4)
    missing = CliRunner().invoke(app, ["show", TOP1, "--png", str(tmp_path / "no" / "x.png")])
    assert missing.exit_code == 2 and "no such directory" in missing.output


def test_solve_format_grid_draws_a_killer_and_its_solution() -> None:
    from sudokit.formats.janko import read_janko

    path = JANKO / "KillerSudoku/problems/22_9x9.txt"
    puzzle = read_janko(path)
    solution = _janko_solution(puzzle, JANKO / "KillerSudoku/solutions/22_9x9.txt")
    result = CliRunner().invoke(app, ["solve", str(path), "--format", "grid"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("# solved ")
    left, right = [line[:37] for line in lines[1:20]], [line[41:] for line in lines[1:20]]
    assert left == format_grid(puzzle.givens, puzzle.geometry).splitlines()
    for cell, d in enumerate(solution):
        assert content(right, *divmod(cell, 9), 3) == f" {d} "


def test_show_never_cuts_a_wide_canvas() -> None:
    result = CliRunner().invoke(app, ["show", str(JANKO / "SamuraiSudoku/problems/2_21x21.txt")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines[:43]) == 85 and lines[43].startswith("multi-grid:")


def test_show_solve_draws_the_solution(tmp_path: Path) -> None:
    png = tmp_path / "top1.png"
    result = CliRunner().invoke(app, ["show", TOP1, "--solve", "-m", "propagate", "--png",
                                      str(png)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("4 1 7 | 3 6 9 | 8 2 5")
    unsolvable = CliRunner().invoke(app, ["show", "11" + TOP1[2:], "--solve", "-m", "propagate"])
    assert unsolvable.exit_code == 1 and unsolvable.stdout.startswith("1 1 . | ")


def test_variant_with_plain_geometry_legend() -> None:
    g = Geometry.of(3, 3, Variant.ANTI_KNIGHT | Variant.NON_CONSECUTIVE)
    assert [line.split(":")[0] for line in legend(g)] == ["anti-knight", "non-consecutive"]
    assert legend(Geometry.of(3, 3)) == []
    assert Cage(3, (0, 1)) in killer4().cages
