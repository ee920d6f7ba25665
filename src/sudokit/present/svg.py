"""The board as SVG: any geometry drawn as printed puzzles are (the rules of
:mod:`sudokit.formats.outline`, the lines of :func:`sudokit.present.plots.puzzle_figure`), with
digits, pencil marks and a step's highlights; the picture of Jupyter and of ``sudokit serve``.
The drawn rules (thermometers, arrows, dots, lines, outside clues) are the glyphs of
:mod:`sudokit.present.glyphs`: lines and shading under the cells (whose backgrounds are
transparent unless highlighted), dots, signs and clues over the grid lines, each rule a group
``<g class="sk-rule" data-rule="thermometer">``.

Every cell is a group ``<g class="sk-cell" data-cell="7" data-row="1" data-col="8">`` holding
its background, its digit and its marks, so the page's JavaScript fills digits, candidates and
highlights in place. Drawing units: one cell is :data:`CELL` units wide; the canvas keeps
:data:`MARGIN` units around. A candidate digit ``d`` sits at row ``(d-1) // box_cols``, column
``(d-1) % box_cols`` of a ``box_rows x box_cols`` mini-grid of its cell (the 3x3 keypad of
9x9). Outside clues widen the ``viewBox`` to negative coordinates, so a cell keeps its place.
Styles are classes (``sk-given``, ``sk-focus``, ``sk-elim`` ...) of the stylesheet
:data:`STYLE`, embedded so a notebook shows the board without the page's CSS.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import TYPE_CHECKING

from ..formats.outline import Edge, shaded_cells
from ..model.constraints import Variant
from ..model.geometry import DEFAULT_SYMBOLS, Geometry
from .glyphs import Disc, Glyph, Polygon, RuleGlyphs, Stroke, glyph_extent, rule_glyphs
from .plots import _cage_outlines, _grid_lines

if TYPE_CHECKING:
    from ..logic.step import Step
    from ..model.puzzle import Puzzle
    from ..model.result import Result

__all__ = ["CELL", "MARGIN", "STYLE", "BoardPicture", "board_svg", "mark_pad", "mark_position",
           "result_svg"]

CELL = 40
"""Side of a cell in drawing units."""
MARGIN = 4
"""Blank border around the canvas in drawing units."""

STYLE = """
.sk-board{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;user-select:none}
.sk-paper{fill:#fff}.sk-bg{fill:#fff;fill-opacity:0}.sk-even .sk-bg{fill:#d4d4d4}
.sk-shaded .sk-bg{fill:#dce6f4}.sk-even .sk-bg,.sk-shaded .sk-bg,.sk-focus .sk-bg,.sk-peer .sk-bg,
.sk-selected .sk-bg,.sk-conflict .sk-bg,.sk-place .sk-bg{fill-opacity:.8}
.sk-rule text{text-anchor:middle;dominant-baseline:central}
.sk-rules-under,.sk-rules-over{pointer-events:none}
.sk-odd-ring{fill:none;stroke:#8c8c8c;stroke-width:1}
.sk-digit{font-size:24px;text-anchor:middle;dominant-baseline:central;fill:#2b6cb0}
.sk-given .sk-digit{fill:#000;font-weight:600}
.sk-mark{font-size:var(--sk-mark,11px);text-anchor:middle;dominant-baseline:central;fill:#555}
.sk-light{stroke:#b0b0b0;stroke-width:1;fill:none;stroke-linecap:square}
.sk-heavy{stroke:#222;stroke-width:2.6;fill:none;stroke-linecap:square}
.sk-cage{stroke:#333;stroke-width:1;fill:none;stroke-dasharray:4 3}
.sk-region{stroke:#5b84b1;stroke-width:1.2;fill:none;stroke-dasharray:1 2}
.sk-diagonal{stroke:#9fb3c8;stroke-width:1.2}
.sk-sum{font-size:10px;fill:#000;dominant-baseline:hanging}.sk-sum-bg{fill:#fff}
.sk-focus .sk-bg{fill:#fff3b0}.sk-peer .sk-bg{fill:#eef4ff}.sk-selected .sk-bg{fill:#bcd7ff}
.sk-conflict .sk-digit{fill:#d00}.sk-conflict .sk-bg{fill:#ffd6d6}
.sk-place .sk-bg{fill:#c8f0c8}.sk-place .sk-digit{fill:#080}
.sk-mark.sk-keep{fill:#080;font-weight:700}.sk-mark.sk-elim{fill:#d00;font-weight:700;
text-decoration:line-through}.sk-mark-bg.sk-keep{fill:#b8e8b8}.sk-mark-bg.sk-elim{fill:#ffc4c4}
.sk-link{stroke:#c05000;stroke-width:1.6;fill:none;marker-end:url(#sk-arrow)}
.sk-link.sk-weak{stroke-dasharray:4 3}
"""
"""The board's stylesheet (classes ``sk-*``), inlined in every SVG."""


def mark_pad(geometry: Geometry, cell: int | None = None) -> tuple[float, float, float, float]:
    """The blank ``(left, top, right, bottom)`` inside a cell around its marks, in drawing
    units: wider in killer puzzles, clear of the cage outlines and of the totals, and clear of
    the dots and signs drawn on the cells' edges (Kropki dots, X and V: they never cover a
    candidate). With ``cell``, that cell's own blank: wider still where another glyph reaches
    into it (a quadruple's circle on its corner, the chevrons of a minimum or maximum cell), so its marks, drawn smaller, clear those too."""
    if cell is not None:
        return _cell_pads(geometry).get(cell) or mark_pad(geometry)
    base = (5.0, 11.0, 5.0, 4.0) if geometry.cages else (2.0, 2.0, 2.0, 2.0)
    reach = _edge_reach(geometry)
    if not reach:
        return base
    side = max(geometry.box_rows, geometry.box_cols)
    clear = 2.0  # the least blank whose nearest mark's glyph (about 0.36 of its slot wide and
    while clear + 0.18 * (CELL - 2 * clear) / side < reach + 1.0:  # high) clears the disc
        clear += 0.5
    return (max(base[0], clear), max(base[1], clear), max(base[2], clear), max(base[3], clear))


_CHEVRONS = frozenset({"minimum", "maximum"})
"""The rules drawn with chevrons inside a cell (:func:`_cell_pads` clears them; a greater-than
sign's chevron reaches less far than its cells' marks start)."""


def _mark_boxes(g: Geometry, pad: Sequence[float]) -> list[tuple[float, float, float, float]]:
    """Every place a mark may take in a cell with blank ``pad`` (the keypad places, and the
    corner places of the board's corner marks: ``static/marks.js`` ``cornerPlace``), as the
    box ``(x0, y0, x1, y1)`` of its digit's ink in drawing units: the font is 0.9 of the slot
    (:func:`_header`), a digit about 0.55 of it wide and 0.75 high."""
    left, top, right, bottom = pad
    w, h = (CELL - left - right) / g.box_cols, (CELL - top - bottom) / g.box_rows
    font = 0.9 * min(w, h)
    keypad = [(left + (k % g.box_cols + 0.5) * w, top + (k // g.box_cols + 0.5) * h)
              for k in range(g.side)]
    l4, t4, r4, b4 = (p + 4 for p in pad)
    corners = [(x, y) for x in (l4, CELL / 2, CELL - r4) for y in (t4, CELL / 2, CELL - b4)]
    return [(x - 0.3 * font, y - 0.4 * font, x + 0.3 * font, y + 0.4 * font)
            for x, y in keypad + corners]


def _meets(box: tuple[float, float, float, float], glyph: Disc | Stroke,
           at: tuple[int, int]) -> bool:
    """Whether a mark's ``box`` (drawing units inside the cell at canvas ``at`` = (row,
    column)) meets a disc or a stroke (its width and 1 unit more)."""
    def nearest(x: float, y: float) -> float:
        nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
        return ((nx - x) ** 2 + (ny - y) ** 2) ** 0.5

    def local(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - at[1]) * CELL, (p[1] - at[0]) * CELL

    if isinstance(glyph, Disc):
        return nearest(*local(glyph.centre)) < glyph.radius * CELL + 1.0
    points = [local(p) for p in glyph.points]  # a stroke: sampled along each segment
    reach = glyph.width * CELL / 2 + 1.0
    return any(nearest(a[0] + (b[0] - a[0]) * k / 16, a[1] + (b[1] - a[1]) * k / 16) < reach
               for a, b in zip(points, points[1:]) for k in range(17))


@cache
def _cell_pads(g: Geometry) -> dict[int, tuple[float, float, float, float]]:
    """The cells whose marks need a wider blank than :func:`mark_pad`'s to clear a glyph
    reaching into them (a disc drawn over the grid lines elsewhere than an edge's middle, which
    :func:`mark_pad` clears; a chevron), with that blank: the least, in steps of half a unit,
    up to 12 (then the glyph may cover a mark)."""
    base = mark_pad(g)
    where = {g.position(c): c for c in range(g.n_cells)}
    near: dict[int, list[Disc | Stroke]] = {}
    for group in rule_glyphs(g):
        for glyph in group.glyphs:
            if (isinstance(glyph, Disc) and group.over and not _on_edge(glyph.centre)) or (
                    isinstance(glyph, Stroke) and group.name in _CHEVRONS):
                points = [glyph.centre] if isinstance(glyph, Disc) else list(glyph.points)
                for x, y in points:
                    for r in {int(y - 0.5), int(y), int(y + 0.49)}:
                        for c in {int(x - 0.5), int(x), int(x + 0.49)}:
                            if (r, c) in where:
                                near.setdefault(where[r, c], []).append(glyph)
    pads = {}
    for cell, glyphs in near.items():
        at, grow = g.position(cell), 0.0
        while grow < 12 and any(_meets(box, glyph, at) for box in _mark_boxes(
                g, [p + grow for p in base]) for glyph in glyphs):
            grow += 0.5
        if grow:
            pads[cell] = (base[0] + grow, base[1] + grow, base[2] + grow, base[3] + grow)
    return pads


def _on_edge(point: tuple[float, float]) -> bool:
    """Whether a point (in cells) is the middle of a cell's edge."""
    x, y = point
    return (abs(x - round(x)) < 1e-6) != (abs(y - round(y)) < 1e-6)


@cache
def _edge_reach(geometry: Geometry) -> float:
    """How far the discs drawn on the cells' edges (a dot or sign between two cells) reach
    into a cell, in drawing units; 0.0 when the grid has none."""
    reach = 0.0
    for group in rule_glyphs(geometry):
        for glyph in group.glyphs if group.over else ():
            if isinstance(glyph, Disc):
                if _on_edge(glyph.centre):
                    reach = max(reach, glyph.radius * CELL)
    return reach


def mark_position(geometry: Geometry, digit: int, cell: int | None = None
                  ) -> tuple[float, float]:
    """The centre ``(x, y)`` of candidate ``digit`` inside its cell (``cell``: that cell's
    own blank), in drawing units from the cell's top-left corner (a ``box_rows x box_cols``
    mini-grid inside :func:`mark_pad`)."""
    rows, cols = geometry.box_rows, geometry.box_cols
    left, top, right, bottom = mark_pad(geometry, cell)
    row, col = divmod(digit - 1, cols)
    return (left + (col + 0.5) * (CELL - left - right) / cols,
            top + (row + 0.5) * (CELL - top - bottom) / rows)


def _path(runs: Sequence[Sequence[tuple[float, float]]]) -> str:
    """SVG path data of line runs given in cell units (offset by the margin)."""
    return " ".join(f"M{x0 * CELL + MARGIN:g} {y0 * CELL + MARGIN:g}"
                    f"L{x1 * CELL + MARGIN:g} {y1 * CELL + MARGIN:g}"
                    for (x0, y0), (x1, y1) in runs)


def _lines(g: Geometry) -> list[str]:
    """Diagonals, cell and box lines, cage and extra-region outlines, cage totals."""
    out = []
    n = g.side
    ends = {Variant.MAIN_DIAGONAL: ((0, 0), (n, n)), Variant.ANTI_DIAGONAL: ((0, n), (n, 0))}
    for flag, run in ends.items():
        if flag in g.variant:
            out.append(f'<path class="sk-diagonal" d="{_path([run])}"/>')
    out.append(f'<path class="sk-light" d="{_path(_grid_lines(g, Edge.LIGHT))}"/>')
    if g.extra_regions:
        out.append(f'<path class="sk-region" d="{_path(_cage_outlines(g, g.extra_regions))}"/>')
    if g.cages:
        out.append(f'<path class="sk-cage" d="{_path(_cage_outlines(g))}"/>')
    out.append(f'<path class="sk-heavy" d="{_path(_grid_lines(g, Edge.HEAVY))}"/>')
    layout = g.layout
    if layout is not None and len(layout.origins) * n * n == g.n_cells:
        out += [f'<rect class="sk-heavy" x="{c0 * CELL + MARGIN}" y="{r0 * CELL + MARGIN}" '
                f'width="{n * CELL}" height="{n * CELL}" style="stroke-width:4"/>'
                for r0, c0 in layout.origins]
    for cage in g.cages:
        r, c = g.position(cage.cells[0])
        x, y = c * CELL + MARGIN + 2, r * CELL + MARGIN + 2
        width = 6 * len(str(cage.total)) + 2
        out.append(f'<rect class="sk-sum-bg" x="{x}" y="{y}" width="{width}" height="11"/>'
                   f'<text class="sk-sum" x="{x + 1}" y="{y + 1}">{cage.total}</text>')
    return out


@dataclass(frozen=True)
class BoardPicture:
    """A board to draw: a puzzle, the digits placed so far, pencil marks and a step.

    Displays as SVG in Jupyter (``_repr_svg_``), e.g. ``BoardPicture(puzzle, step=step,
    marks=state.pencil_marks())`` for a step of :func:`sudokit.run.explain.explain_states`.

    Attributes:
        puzzle: the puzzle (geometry and givens, drawn bold).
        values: one digit per cell (0: empty) for the cells that are not givens, or None.
        marks: per cell, its pencil marks (digits 1..N) drawn small in empty cells, or None.
        step: a step whose cells, placements, eliminations and chain links are highlighted.
    """

    puzzle: Puzzle
    values: Sequence[int] | None = None
    marks: Sequence[Sequence[int] | None] | None = None
    step: Step | None = None

    def _repr_svg_(self) -> str:
        return board_svg(self.puzzle, self.values, self.marks, self.step)


def _cell(g: Geometry, cell: int, given: int, digit: int, marks: Sequence[int],
          classes: str, mark_classes: dict[int, str]) -> str:
    """One cell's group: background, odd ring, digit and marks."""
    r, c = g.position(cell)
    kind = g.parity_of(cell)
    css = "sk-cell" + (" sk-given" if given else "") + (" sk-even" if kind == "e" else "")
    css += classes
    own = ""
    if cell in _cell_pads(g):  # a glyph reaches in: the marks, smaller, keep clear of it
        pad = _cell_pads(g)[cell]
        inner = min((CELL - pad[0] - pad[2]) / g.box_cols, (CELL - pad[1] - pad[3]) / g.box_rows)
        own = (f'data-pad="{" ".join(f"{p:g}" for p in pad)}" '
               f'style="--sk-mark:{max(5, int(inner * 0.9))}px" ')
    parts = [f'<g class="{css}" data-cell="{cell}" data-row="{r}" data-col="{c}" {own}'
             f'transform="translate({c * CELL + MARGIN},{r * CELL + MARGIN})">'
             f'<rect class="sk-bg" width="{CELL}" height="{CELL}"/>']
    if kind == "o":
        parts.append(f'<circle class="sk-odd-ring" cx="{CELL / 2}" cy="{CELL / 2}" '
                     f'r="{CELL * 0.38}"/>')
    symbol = DEFAULT_SYMBOLS[digit - 1] if digit else ""
    parts.append(f'<text class="sk-digit" x="{CELL / 2}" y="{CELL / 2 + 1}">{symbol}</text>'
                 '<g class="sk-marks">')
    if not digit:
        left, top, right, bottom = mark_pad(g, cell)
        w, h = (CELL - left - right) / g.box_cols, (CELL - top - bottom) / g.box_rows
        for d in marks:
            x, y = mark_position(g, d, cell)
            extra = mark_classes.get(d, "")
            if extra:
                parts.append(f'<rect class="sk-mark-bg {extra}" x="{x - w / 2:g}" '
                             f'y="{y - h / 2:g}" width="{w:g}" height="{h:g}"/>')
            parts.append(f'<text class="sk-mark {extra}" x="{x:g}" y="{y:g}">'
                         f"{DEFAULT_SYMBOLS[d - 1]}</text>")
    parts.append("</g></g>")
    return "".join(parts)


def _links(g: Geometry, step: Step) -> list[str]:
    """A chain's links as arrows between the centres of their candidates (groups: the first
    cell), dashed for weak links."""
    out = []
    for link in step.links:
        points = []
        for cells, digit in (link.start, link.end):
            r, c = g.position(cells[0])
            x, y = mark_position(g, digit, cells[0])
            points.append((c * CELL + MARGIN + x, r * CELL + MARGIN + y))
        (x0, y0), (x1, y1) = points
        weak = " sk-weak" if link.kind.value == "weak" else ""
        out.append(f'<line class="sk-link{weak}" x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" '
                   f'y2="{y1:g}"/>')
    return out


def _xy(point: tuple[float, float]) -> str:
    return f"{point[0] * CELL + MARGIN:.4g},{point[1] * CELL + MARGIN:.4g}"


def _paint(fill: str, edge: str, width: float) -> str:
    stroke = f' stroke="{edge}" stroke-width="{width * CELL:.3g}"' if edge else ""
    return f'fill="{fill}"{stroke}'


def _glyph(glyph: Glyph) -> str:
    """One primitive of :mod:`sudokit.present.glyphs` as an SVG element."""
    if isinstance(glyph, Stroke):
        dash = f' stroke-dasharray="{glyph.dash * CELL:.3g}"' if glyph.dash else ""
        return (f'<polyline points="{" ".join(map(_xy, glyph.points))}" fill="none" '
                f'stroke="{glyph.colour}" stroke-width="{glyph.width * CELL:.3g}" '
                f'stroke-linecap="round" stroke-linejoin="round"{dash}/>')
    if isinstance(glyph, Disc):
        x, y = _xy(glyph.centre).split(",")
        return (f'<circle cx="{x}" cy="{y}" r="{glyph.radius * CELL:.3g}" '
                f'{_paint(glyph.fill, glyph.edge, glyph.width)}/>')
    if isinstance(glyph, Polygon):
        return (f'<polygon points="{" ".join(map(_xy, glyph.points))}" '
                f'{_paint(glyph.fill, glyph.edge, glyph.width)}/>')
    x, y = _xy(glyph.at).split(",")
    weight = ' font-weight="700"' if glyph.bold else ""
    return (f'<text x="{x}" y="{y}" font-size="{glyph.size * CELL:.3g}" fill="{glyph.colour}"'
            f"{weight}>{escape(glyph.text)}</text>")


def _rules(drawn: Sequence[RuleGlyphs], over: bool) -> str:
    """The layer of the rules drawn over the grid lines (``over``) or under the cells."""
    groups = "".join(f'<g class="sk-rule" data-rule="{escape(group.name)}">'
                     f'{"".join(map(_glyph, group.glyphs))}</g>'
                     for group in drawn if group.over == over)
    return f'<g class="sk-rules-{"over" if over else "under"}">{groups}</g>'


def _header(g: Geometry, drawn: Sequence[RuleGlyphs]) -> str:
    """The ``<svg>`` start tag (size, the geometry's data attributes), the stylesheet, the
    arrow head of chain links and the white paper (the canvas and the margin of outside
    clues)."""
    left_cell, top_cell, right_cell, bottom_cell = glyph_extent(g, drawn)
    x0, y0 = left_cell * CELL, top_cell * CELL
    width = (right_cell - left_cell) * CELL + 2 * MARGIN
    height = (bottom_cell - top_cell) * CELL + 2 * MARGIN
    left, top, right, bottom = mark_pad(g)
    inner = min((CELL - left - right) / g.box_cols, (CELL - top - bottom) / g.box_rows)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="sk-board" '
            f'viewBox="{x0} {y0} {width} {height}" width="{width}" height="{height}" '
            f'data-side="{g.side}" data-box-rows="{g.box_rows}" data-box-cols="{g.box_cols}" '
            f'data-pad="{left:g} {top:g} {right:g} {bottom:g}" '
            f'style="--sk-mark:{max(5, int(inner * 0.9))}px;max-width:100%;height:auto">'
            f'<style>{STYLE}</style><defs><marker id="sk-arrow" viewBox="0 0 10 10" refX="9" '
            'refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
            '<path d="M0 0L10 5L0 10z" fill="#c05000"/></marker></defs>'
            f'<rect class="sk-paper" x="{x0}" y="{y0}" width="{width}" height="{height}"/>')


def board_svg(puzzle: Puzzle, values: Sequence[int] | None = None,
              marks: Sequence[Sequence[int] | None] | None = None,
              step: Step | None = None) -> str:
    """Draw a puzzle as an SVG document (a string), with the user's digits, pencil marks and
    the highlights of a step.

    Args:
        puzzle: geometry and givens (any size, jigsaw regions, diagonals, extra regions,
            killer cages with their totals, even/odd cells, multi-grid layouts, and the rules
            drawn on the grid: :func:`sudokit.present.glyphs.rule_glyphs`).
        values: one digit per cell filling the empty cells (0: empty), or None.
        marks: per cell, the pencil marks drawn in an empty cell (None: none), or None.
        step: highlighted: its pattern cells (yellow), placements (green), eliminated
            candidates (red, struck) and chain links (arrows, weak links dashed). The digits it
            places and removes are drawn as marks of their cells even when ``marks`` lacks
            them.

    Returns:
        ``<svg class="sk-board" ...>`` with ``viewBox`` in drawing units (:data:`CELL` per
        cell; it starts left of or above 0 when outside clues need a margin) and
        ``data-side``, ``data-box-rows``, ``data-box-cols`` attributes.

    Raises:
        ValueError: ``values`` or ``marks`` does not hold one entry per cell.
    """
    g = puzzle.geometry
    for name, seq in (("values", values), ("marks", marks)):
        if seq is not None and len(seq) != g.n_cells:
            raise ValueError(f"expected {name} for {g.n_cells} cells, got {len(seq)}")
    focus = set(step.cells) if step else set()
    placed = dict(step.placements) if step else {}
    elim: dict[int, set[int]] = {}
    for cell, digit in (step.eliminations if step else ()):
        elim.setdefault(cell, set()).add(digit)
    shaded = shaded_cells(g)
    drawn = rule_glyphs(g)
    out = [_header(g, drawn), _rules(drawn, over=False), '<g class="sk-cells">']
    for cell in range(g.n_cells):
        given = puzzle.givens[cell]
        digit = given or (values[cell] if values is not None else 0)
        shown = elim.get(cell, set()) | ({placed[cell]} if cell in placed else set())
        cell_marks = sorted(shown.union(marks[cell] or ()) if marks is not None else shown)
        classes = (" sk-shaded" if cell in shaded else "") + (" sk-focus" if cell in focus else "")
        classes += " sk-place" if cell in placed else ""
        mark_classes = {d: "sk-elim" for d in elim.get(cell, ())}
        if cell in placed:
            mark_classes[placed[cell]] = "sk-keep"
        out.append(_cell(g, cell, given, digit, cell_marks, classes, mark_classes))
    out.append("</g>")
    out += _lines(g)
    out.append(_rules(drawn, over=True))
    out.append('<g class="sk-links">' + "".join(_links(g, step) if step else []) + "</g>")
    if step is not None:
        out.append(f"<title>{escape(step.technique)}: {escape(step.text)}</title>")
    out.append("</svg>")
    return "".join(out)


def result_svg(result: Result) -> str:
    """A result as SVG: the puzzle with its first solution's digits (none when unsolved)."""
    return board_svg(result.puzzle, result.solution)
