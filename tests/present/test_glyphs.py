"""The drawn rules (present/glyphs.py) on the SVG board and in ``show --png``: every named rule of
the rulebook draws its expected elements, outside clues grow the margin, negative rules draw
nothing, every published sample draws every rule, and the PNG is written at the expected size."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from sudokit.formats.text import read_puzzles
from sudokit.model import rulebook as rb
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.present.glyphs import Label, glyph_extent, rule_glyphs
from sudokit.present.svg import CELL, MARGIN, board_svg
from sudokit.sat.rules import rule_from_json, rule_json
from tests.helpers import DATA

SVG = "{http://www.w3.org/2000/svg}"
N = 9
ROW = list(range(N))  # r1c1..r1c9, read from the left
COLUMN_UP = [r * N + 4 for r in range(N - 1, -1, -1)]  # c5 read from the bottom

# rules, the name drawn, the layer, and the elements of its group (tag: count)
CASES = [
    (rb.thermometer([10, 11, 12, 21], N), "thermometer", "under", {"circle": 1, "polyline": 1}),
    (rb.slow_thermometer([10, 11], N), "slow thermometer", "under",
     {"circle": 1, "polyline": 2}),
    (rb.arrow([0], [1, 2, 3]), "arrow", "under", {"circle": 1, "polyline": 2}),
    (rb.arrow([0, 1], [10, 20]), "arrow", "under", {"polyline": 4}),  # a pill
    (rb.double_arrow([0, 1, 2, 3]), "double arrow", "under", {"polyline": 1, "circle": 2}),
    (rb.kropki_white(0, 1, N), "white Kropki dot", "over", {"circle": 1}),
    (rb.kropki_black(0, 9, N), "black Kropki dot", "over", {"circle": 1}),
    (rb.difference_dot(0, 1, N, 3), "difference 3 dot", "over", {"circle": 1, "text": 1}),
    (rb.ratio_dot(0, 1, N, 3), "ratio 3 dot", "over", {"circle": 1, "text": 1}),
    (rb.sum_pair(0, 1, N, 10), "X", "over", {"circle": 1, "text": 1}),
    (rb.sum_pair(0, 1, N, 5), "V", "over", {"circle": 1, "text": 1}),
    (rb.greater_than(0, 1, N), "greater-than sign", "over", {"polyline": 1}),
    (rb.whispers([0, 1, 2], N), "German whispers", "under", {"polyline": 1}),
    (rb.whispers([0, 1, 2], N, 4), "Dutch whispers", "under", {"polyline": 1}),
    (rb.nabner([0, 1, 2], N), "nabner line", "under", {"polyline": 1}),
    (rb.entropic_line([0, 1, 2], N), "entropic line", "under", {"polyline": 1}),
    (rb.modular_line([0, 1, 2], N), "modular line", "under", {"polyline": 1}),
    (rb.parity_line([0, 1, 2], N), "parity line", "under", {"polyline": 1}),
    (rb.palindrome([0, 1, 2, 11], N), "palindrome", "under", {"polyline": 1}),
    (rb.renban([0, 1, 2]), "renban", "under", {"polyline": 1}),
    (rb.zipper_line([0, 1, 2, 3, 4]), "zipper line", "under", {"polyline": 1}),
    (rb.region_sum_line([1, 2, 3, 4], lambda c: c % N // 3), "region sum line", "under",
     {"polyline": 1}),
    (rb.between_line([0, 1, 2, 3]), "between line", "under", {"polyline": 1, "circle": 2}),
    (rb.lockout_line([0, 1, 2, 3], N), "lockout line", "under",
     {"polyline": 1, "polygon": 2}),
    (rb.clone([0, 1], [30, 31], N), "clone", "under", {"polygon": 4}),
    (rb.quadruple([0, 1, 9, 10], [1, 2, 3]), "quadruple", "over", {"circle": 1, "text": 3}),
    (rb.minimum(10, [1, 9, 11, 19], N), "minimum", "under", {"polygon": 1, "polyline": 4}),
    (rb.maximum(10, [1, 9, 11, 19], N), "maximum", "under", {"polygon": 1, "polyline": 4}),
    (rb.indexer(0, ROW, 1, "row indexer"), "row indexer", "under", {"polygon": 1}),
    (rb.indexer(0, ROW, 1, "column indexer"), "column indexer", "under", {"polygon": 1}),
    (rb.little_killer([8, 16, 24], 12), "little killer", "over", {"text": 1, "polyline": 2}),
    (rb.sandwich(ROW, 10, N), "sandwich sum", "over", {"text": 1}),
    (rb.x_sum(COLUMN_UP, 15, N), "X-sum", "over", {"text": 1}),
    (rb.skyscraper(ROW, 3, N), "skyscraper", "over", {"text": 1}),
    (rb.numbered_room(ROW, 5, N), "numbered room", "over", {"text": 1}),
]


def drawn(svg: str) -> dict[str, list[ET.Element]]:
    """Layer ("under"/"over") -> its rule groups."""
    root = ET.fromstring(svg)
    holders = {g.get("class"): g for g in root.iter(f"{SVG}g")}
    groups = {layer: list(holders[f"sk-rules-{layer}"]) for layer in ("under", "over")}
    assert all(g.get("class") == "sk-rule" for layer in groups.values() for g in layer)
    return groups


def tags(group: ET.Element) -> dict[str, int]:
    return dict(Counter(e.tag.removeprefix(SVG) for e in group))


@pytest.mark.parametrize("rules, name, layer, expected", CASES, ids=[c[1] + f"-{k}" for k, c in
                                                                     enumerate(CASES)])
def test_every_rule_draws_its_elements(rules, name, layer, expected) -> None:
    puzzle = Puzzle(Geometry.of(3, 3, constraints=rules), [0] * 81)
    layers = drawn(board_svg(puzzle))
    assert [g.get("data-rule") for g in layers[layer]] == [name]
    assert not layers["over" if layer == "under" else "under"]
    assert tags(layers[layer][0]) == expected
    if name == "quadruple":
        texts = sorted(t.text for t in layers[layer][0].iter(f"{SVG}text"))
        assert texts == ["1", "2", "3"]


def test_outside_clues_grow_the_margin_on_their_side_only() -> None:
    g = Geometry.of(3, 3, constraints=rb.sandwich(ROW, 10, N) + rb.x_sum(COLUMN_UP, 15, N))
    assert glyph_extent(g, rule_glyphs(g)) == (-1, 0, 9, 10)  # left of row 1, below column 5
    root = ET.fromstring(board_svg(Puzzle(g, [0] * 81)))
    assert root.get("viewBox") == f"{-CELL} 0 {10 * CELL + 2 * MARGIN} {10 * CELL + 2 * MARGIN}"
    texts = {t.text: (float(t.get("x")), float(t.get("y"))) for t in root.iter(f"{SVG}text")
             if t.text in ("10", "15")}
    assert texts["10"] == (-CELL / 2 + MARGIN, CELL / 2 + MARGIN)  # left of r1c1
    assert texts["15"] == (4.5 * CELL + MARGIN, 9.5 * CELL + MARGIN)  # below r9c5
    cell = next(e for e in root.iter(f"{SVG}g") if e.get("data-cell") == "0")
    assert cell.get("transform") == f"translate({MARGIN},{MARGIN})"  # cells keep their place


def test_little_killer_clue_sits_on_its_diagonal_and_a_corner_cell_points_inward() -> None:
    g = Geometry.of(3, 3, constraints=rb.little_killer([8, 16, 24], 12)
                    + rb.little_killer([80], 9))
    clues = [next(x for x in group.glyphs if isinstance(x, Label)) for group in rule_glyphs(g)]
    (x0, y0), (x1, y1) = clues[0].at, clues[1].at
    assert 9 < x0 < 10 and -1 < y0 < 0  # R0C10, reading down-left from the top right
    assert 9 < x1 < 10 and 9 < y1 < 10  # beyond r9c9, reading up-left


def test_negative_rules_draw_nothing_and_rules_survive_the_cnf_comments() -> None:
    dot = rb.kropki_white(0, 1, N)[0]
    assert dot.drawing is not None and rb.negated(dot, N).drawing is None
    g = Geometry.of(3, 3, constraints=(rb.negated(dot, N),))
    assert rule_glyphs(g) == () and not any(drawn(board_svg(Puzzle(g, [0] * 81))).values())
    for rules, *_ in CASES:
        assert all(rule_from_json(rule_json(r)) == r for r in rules)


@pytest.mark.parametrize("path", sorted((DATA / "rules").glob("sigh_*.json")),
                         ids=lambda p: p.stem)
def test_published_samples_draw_every_rule(path: Path) -> None:
    puzzle = next(read_puzzles(path)).puzzle
    named = [r.drawing.name for r in puzzle.constraints if r.drawing is not None]
    layers = drawn(board_svg(puzzle))
    groups = layers["under"] + layers["over"]
    assert named and sorted(g.get("data-rule") for g in groups) == sorted(named)
    assert all(len(g) for g in groups)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (4, 4), (5, 5)])
def test_every_size_draws_rules_and_clues(box: tuple[int, int]) -> None:
    g0 = Geometry.of(*box, "diagonal")
    n = g0.side
    row = list(range(n))
    rules = (rb.thermometer([n, n + 1, n + 2], n) + rb.sandwich(row, 3, n)
             + rb.kropki_white(2 * n, 2 * n + 1, n) + rb.little_killer([n - 1], n))
    g = g0.with_constraints(rules)
    layers = drawn(board_svg(Puzzle(g, [0] * g.n_cells)))
    assert sorted(e.get("data-rule") for e in layers["under"] + layers["over"]) == [
        "little killer", "sandwich sum", "thermometer", "white Kropki dot"]
    assert glyph_extent(g, rule_glyphs(g)) == (-1, -1, n + 1, n)


def test_rules_draw_with_cages_and_jigsaw_regions() -> None:
    path = min((DATA / "janko" / "KillerSudoku" / "problems").iterdir())
    killer = next(read_puzzles(path, variant="killer")).puzzle
    g = killer.geometry.with_constraints(rb.thermometer([0, 1, 2], 9) + rb.sandwich(ROW, 5, 9))
    svg = board_svg(Puzzle(g, killer.givens))
    assert svg.count('class="sk-sum"') == len(g.cages) and 'class="sk-cage"' in svg
    assert [e.get("data-rule") for e in drawn(svg)["under"]] == ["thermometer"]


def test_png_draws_the_same_glyphs_and_grows_for_clues(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    from sudokit.present.plots import puzzle_figure, save_figure

    plain = Puzzle(Geometry.of(3, 3), [0] * 81)
    g = Geometry.of(3, 3, constraints=rb.thermometer([0, 1, 2], 9) + rb.sandwich(ROW, 10, N)
                    + rb.quadruple([0, 1, 9, 10], [1, 2]))
    figure = puzzle_figure(Puzzle(g, [0] * 81))
    axes = figure.axes[0]
    assert sorted(t.get_text() for t in axes.texts) == ["1", "10", "2"]
    assert len(axes.patches) == 2 and len(axes.lines) == 1  # bulb, quadruple; the tube
    assert axes.get_xlim() == (-1.2, 9.2)
    image = imread(save_figure(figure, tmp_path / "rules.png", dpi=100))
    base = imread(save_figure(puzzle_figure(plain), tmp_path / "plain.png", dpi=100))
    assert image.ndim == 3 and image.shape[0] == base.shape[0]
    assert image.shape[1] > base.shape[1]  # one more column for the clue


def test_terminal_legend_lists_every_drawn_rule_and_the_unmarked_ones() -> None:
    from sudokit.present.render import rules_legend

    rules = (rb.thermometer([0, 1, 2], N) + rb.thermometer([40, 41], N)
             + rb.arrow([0, 1], [10, 20]) + rb.sum_pair(3, 4, N, 10)
             + rb.quadruple([0, 1, 9, 10], [1, 2]) + rb.sandwich(ROW, 10, N)
             + (rb.negated(rb.kropki_white(5, 6, N)[0], N),) * 2)
    lines = rules_legend(Geometry.of(3, 3, constraints=rules))
    assert lines == ["thermometer (2): r1c1-r1c3, r5c5-r5c6", "arrow (1): r1c1r1c2=r2c2-r3c3",
                     "X (1): r1c4-r1c5", "quadruple (1): 12@r1c1", "sandwich sum (1): 10:r1c1-r1c9",
                     "no white Kropki dot (2 pairs, drawn by no mark)"]
    assert rules_legend(Geometry.of(3, 3)) == []
