"""The rules drawn on a grid (thermometers, arrows, dots, lines, outside clues) as glyphs: one
description of what to draw per rule, in grid coordinates, for every back-end.

:func:`rule_glyphs` reads the :class:`~sudokit.model.rules.RuleDrawing` that a named rule of
:mod:`~sudokit.model.rulebook` keeps (the rule's name, its cells in drawn order, its clue) and
answers, per rule, a few primitives: :class:`Stroke` (a polyline), :class:`Disc`,
:class:`Polygon` and :class:`Label`. Coordinates are canvas cells: ``x`` to the right, ``y``
downwards, the cell at canvas row ``r``, column ``c`` spans ``[c, c + 1] x [r, r + 1]``; widths,
radii and font sizes are in cells too. The SVG board (:mod:`sudokit.present.svg`) and the
Matplotlib picture of ``sudokit show --png`` (:mod:`sudokit.present.plots`) only translate
primitives, so both draw the same thing.

The look is the one of f-puzzles and SudokuPad, which most published puzzles use: grey
thermometers with a bulb, arrows with a circle (or a pill of 2-3 cells) and a thin shaft ending
in a head, white and black Kropki dots on the edge between two cells (with the number of a
difference or ratio dot), X and V, greater-than chevrons pointing at the smaller digit,
coloured lines (German whispers green, Dutch whispers orange, renban pink, palindromes grey,
entropic coral, modular teal, parity red, nabner yellow, region-sum blue, zipper lavender),
between lines with a circle at each end, lockout lines with diamonds, clones as cells shaded in
pairs of the same colour, quadruples as circles on a corner holding their digits, minimum and
maximum cells shaded with chevrons pointing in (minimum) or out (maximum), indexer cells
shaded, and the outside clues (little killers with a diagonal arrow, sandwich sums, X-sums,
skyscrapers, numbered rooms) written in the cell-sized margin beyond the grid, which
:func:`glyph_extent` grows to hold them. A glyph group is drawn ``over`` the grid lines (dots,
signs, quadruples, clues) or under the digits and lines (the rest). Rules without a drawing
(negative constraints: "no dot means not consecutive") draw nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model.geometry import Geometry
from ..model.rules import RuleDrawing

__all__ = ["Disc", "Label", "Polygon", "RuleGlyphs", "Stroke", "glyph_extent", "rule_glyphs"]

Point = tuple[float, float]


@dataclass(frozen=True)
class Stroke:
    """A polyline with round caps and joins.

    Attributes:
        points: its vertices ``(x, y)`` in cells.
        colour: a CSS colour (``"#67f067"``).
        width: the line width in cells.
        dash: the dash length in cells (0: solid).
    """

    points: tuple[Point, ...]
    colour: str
    width: float
    dash: float = 0.0


@dataclass(frozen=True)
class Disc:
    """A filled circle.

    Attributes:
        centre: ``(x, y)`` in cells.
        radius: in cells.
        fill: a CSS colour.
        edge: the outline's colour (``""``: none).
        width: the outline's width in cells.
    """

    centre: Point
    radius: float
    fill: str
    edge: str = ""
    width: float = 0.0


@dataclass(frozen=True)
class Polygon:
    """A filled closed polygon (a diamond, a shaded cell).

    Attributes:
        points: its vertices ``(x, y)`` in cells.
        fill: a CSS colour.
        edge: the outline's colour (``""``: none).
        width: the outline's width in cells.
    """

    points: tuple[Point, ...]
    fill: str
    edge: str = ""
    width: float = 0.0


@dataclass(frozen=True)
class Label:
    """Text centred on a point.

    Attributes:
        at: its centre ``(x, y)`` in cells.
        text: what is written.
        size: the font size (em height) in cells.
        colour: a CSS colour.
        bold: bold type.
    """

    at: Point
    text: str
    size: float
    colour: str = "#000"
    bold: bool = False


Glyph = Stroke | Disc | Polygon | Label


@dataclass(frozen=True)
class RuleGlyphs:
    """What to draw for one named rule.

    Attributes:
        name: the rule's name (``"thermometer"``, ``"white Kropki dot"``, ``"sandwich sum"``).
        over: drawn over the grid lines (dots, signs, quadruples, outside clues), else under
            the digits and the lines (lines, arrows, thermometers, shaded cells).
        glyphs: the primitives, in drawing order.
    """

    name: str
    over: bool
    glyphs: tuple[Glyph, ...]


GREY, ARROW, INK = "#c8c8c8", "#9a9a9a", "#000"
LINES = {"German whispers": "#67f067", "Dutch whispers": "#ffa500", "renban": "#f067f0",
         "palindrome": "#b8b8b8", "entropic line": "#ff7f6e", "modular line": "#2ec4b6",
         "parity line": "#e5484d", "nabner line": "#e9c43a", "region sum line": "#3d8bfd",
         "zipper line": "#b39ddb"}
"""The colour of each coloured line (f-puzzles and SudokuPad defaults)."""
CLONES = ("#fbd9a8", "#c8e6c9", "#d1c4e9", "#b3e5fc", "#ffcdd2", "#f0f4c3")
SHADES = {"row indexer": "#f6c4c4", "column indexer": "#c4d8f6", "minimum": "#e2e2e2",
          "maximum": "#e2e2e2"}


class _Grid:
    """Cell centres of a geometry's canvas."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry

    def centre(self, cell: int) -> Point:
        r, c = self.geometry.position(cell)
        return c + 0.5, r + 0.5

    def centres(self, cells: Sequence[int]) -> tuple[Point, ...]:
        return tuple(self.centre(c) for c in cells)

    def square(self, cell: int, inset: float = 0.0) -> tuple[Point, ...]:
        x, y = self.centre(cell)
        h = 0.5 - inset
        return (x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)


def _unit(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _along(p: Point, u: Point, k: float, v: Point = (0.0, 0.0), j: float = 0.0) -> Point:
    """``p + k u + j v``."""
    return p[0] + k * u[0] + j * v[0], p[1] + k * u[1] + j * v[1]


def _chevron(tip: Point, u: Point, depth: float, half: float, colour: str = INK,
             width: float = 0.04) -> Stroke:
    """A ``>`` whose vertex ``tip`` points along ``u``."""
    v = (-u[1], u[0])
    return Stroke((_along(tip, u, -depth, v, half), tip, _along(tip, u, -depth, v, -half)),
                  colour, width)


def _line(colour: str, width: float = 0.17) -> Callable[[RuleDrawing, _Grid, int], tuple]:
    def draw(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
        points = g.centres(d.cells)
        if len(points) == 1:
            return (Disc(points[0], width / 2, colour),)
        return (Stroke(points, colour, width),)
    return draw


def _thermometer(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    points = g.centres(d.cells)
    drawn: tuple[Glyph, ...] = (Disc(points[0], 0.38, GREY), Stroke(points, GREY, 0.3))
    if d.name == "slow thermometer":  # a white dashed core tells it from a thermometer
        drawn += (Stroke(points, "#fff", 0.07, dash=0.12),)
    return drawn


def _shaft(start: Point, points: Sequence[Point]) -> tuple[Glyph, ...]:
    """An arrow's shaft from ``start`` through ``points``, with a head at the last point."""
    ends = (start, *points)
    return (Stroke(ends, ARROW, 0.05), _chevron(ends[-1], _unit(ends[-2], ends[-1]), 0.2, 0.17,
                                                ARROW, 0.05))


def _arrow(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    circle, shaft = g.centres(d.extra), g.centres(d.cells)
    if len(circle) == 1:
        drawn: tuple[Glyph, ...] = (Disc(circle[0], 0.4, "#fff", ARROW, 0.05),)
    else:  # a pill: a rounded outline along its cells
        drawn = (Stroke(circle, ARROW, 0.85), Stroke(circle, "#fff", 0.75))
    if not shaft:
        return drawn
    near = min(circle, key=lambda p: math.dist(p, shaft[0]))
    return drawn + _shaft(_along(near, _unit(near, shaft[0]), 0.4), shaft)


def _double_arrow(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    points = g.centres(d.cells)
    return (Stroke(points, ARROW, 0.05), Disc(points[0], 0.4, "#fff", ARROW, 0.05),
            Disc(points[-1], 0.4, "#fff", ARROW, 0.05))


def _between(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    points = g.centres(d.cells)
    return (Stroke(points, "#a8a8a8", 0.07), Disc(points[0], 0.38, "#fff", "#a8a8a8", 0.05),
            Disc(points[-1], 0.38, "#fff", "#a8a8a8", 0.05))


def _lockout(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    points, colour = g.centres(d.cells), "#4f7fc4"
    diamonds = tuple(Polygon(((x, y - 0.4), (x + 0.4, y), (x, y + 0.4), (x - 0.4, y)), "#fff",
                             colour, 0.05) for x, y in (points[0], points[-1]))
    return (Stroke(points, colour, 0.1),) + diamonds


def _dot(fill: str, ink: str) -> Callable[[RuleDrawing, _Grid, int], tuple]:
    def draw(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
        (x0, y0), (x1, y1) = g.centres(d.cells[:2])
        mid = ((x0 + x1) / 2, (y0 + y1) / 2)
        if not d.value:
            return (Disc(mid, 0.12, fill, INK, 0.03),)
        return (Disc(mid, 0.16, fill, INK, 0.03), Label(mid, d.value, 0.2, ink, True))
    return draw


def _sign(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    (x0, y0), (x1, y1) = g.centres(d.cells[:2])
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    return (Disc(mid, 0.19, "#fff"), Label(mid, d.value, 0.4 if len(d.value) < 2 else 0.26,
                                           INK, True))


def _greater(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    a, b = g.centres(d.cells[:2])
    u = _unit(a, b)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return (_chevron(_along(mid, u, 0.07), u, 0.14, 0.14, INK, 0.045),)


def _quadruple(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    points = g.centres(d.cells)
    corner = (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))
    digits = d.value.split()
    spots = {1: [(0, 0)], 2: [(-1, 0), (1, 0)], 3: [(-1, -1), (1, -1), (0, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)]}.get(len(digits), [(0, 0)])
    if len(spots) == 1 and len(digits) > 1:
        digits = [" ".join(digits)]
    step = 0.12 if len(digits) < 3 else 0.11
    size = 0.24 if max(map(len, digits), default=1) == 1 else 0.15
    return (Disc(corner, 0.31, "#fff", INK, 0.03),) + tuple(
        Label(_along(corner, (step, 0), sx, (0, step), sy), t, size) for (sx, sy), t in
        zip(spots, digits))


def _clone(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    colour = CLONES[k % len(CLONES)]
    return tuple(Polygon(g.square(c, 0.03), colour) for c in (*d.cells, *d.extra))


def _shade(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    return tuple(Polygon(g.square(c), SHADES.get(d.name, "#e4d2f6")) for c in d.cells)


def _extreme(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    centre, inward = g.centre(d.cells[0]), d.name == "minimum"
    marks = []
    for u in ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)):
        point = (-u[0], -u[1]) if inward else u
        marks.append(_chevron(_along(centre, u, 0.38 if inward else 0.44), point, 0.07, 0.12,
                              "#555", 0.035))
    return _shade(d, g, k) + tuple(marks)


def _clue_step(d: RuleDrawing, g: _Grid) -> Point:
    """The step from the clue into the grid: along the cells read, or (one cell) diagonally
    from the nearest corner."""
    if len(d.cells) > 1:
        (x0, y0), (x1, y1) = g.centres(d.cells[:2])
        return x1 - x0, y1 - y0
    rows, cols = g.geometry.canvas
    x, y = g.centre(d.cells[0])
    return (1.0 if x < cols / 2 else -1.0), (1.0 if y < rows / 2 else -1.0)


def _outside(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    step = _clue_step(d, g)
    clue = _along(g.centre(d.cells[0]), step, -1.0)
    return (Label(clue, d.value, 0.42 if len(d.value) < 3 else 0.32),)


def _little_killer(d: RuleDrawing, g: _Grid, k: int) -> tuple[Glyph, ...]:
    step = _clue_step(d, g)
    clue = _along(g.centre(d.cells[0]), step, -1.0)
    tip = _along(clue, step, 0.42)
    return (Label(_along(clue, step, -0.1), d.value, 0.36), Stroke((_along(clue, step, 0.2), tip),
                                                                    INK, 0.03),
            _chevron(tip, _unit((0, 0), step), 0.1, 0.08, INK, 0.03))


_BUILDERS: dict[str, tuple[bool, Callable[[RuleDrawing, _Grid, int], tuple]]] = {
    "thermometer": (False, _thermometer),
    "slow thermometer": (False, _thermometer),
    "arrow": (False, _arrow),
    "double arrow": (False, _double_arrow),
    "between line": (False, _between),
    "lockout line": (False, _lockout),
    "clone": (False, _clone),
    "row indexer": (False, _shade),
    "column indexer": (False, _shade),
    "indexer": (False, _shade),
    "minimum": (False, _extreme),
    "maximum": (False, _extreme),
    "white Kropki dot": (True, _dot("#fff", INK)),
    "black Kropki dot": (True, _dot(INK, "#fff")),
    "X": (True, _sign),
    "V": (True, _sign),
    "greater-than sign": (True, _greater),
    "quadruple": (True, _quadruple),
    "given candidates": (False, lambda d, g, k: ()),  # drawn as the cell's marks (the board)
    "little killer": (True, _little_killer),
    "sandwich sum": (True, _outside),
    "X-sum": (True, _outside),
    "skyscraper": (True, _outside),
    "numbered room": (True, _outside),
    **{name: (False, _line(colour)) for name, colour in LINES.items()},
}
_FAMILIES = (("difference", "white Kropki dot"), ("ratio", "black Kropki dot"),
             ("sum ", "X"), ("whispers", "German whispers"))


def _builder(name: str) -> tuple[bool, Callable[[RuleDrawing, _Grid, int], tuple]]:
    """The builder of a rule name; a family's other members (``"difference 3 dot"``,
    ``"whispers 3"``) draw as its usual member; an unknown name as a thin grey line."""
    if name in _BUILDERS:
        return _BUILDERS[name]
    for prefix, usual in _FAMILIES:
        if name.startswith(prefix):
            return _BUILDERS[usual]
    return False, _line("#909090", 0.08)


def rule_glyphs(geometry: Geometry) -> tuple[RuleGlyphs, ...]:
    """What to draw for every drawn rule of a geometry, in the order of its constraints.

    Args:
        geometry: a grid carrying rules (:attr:`~sudokit.model.geometry.Geometry.constraints`);
            only the rules with a :class:`~sudokit.model.rules.RuleDrawing` are drawn (the
            first rule of each named rule of :mod:`~sudokit.model.rulebook`).

    Returns:
        One :class:`RuleGlyphs` per drawn rule (empty for a grid without rules); the ``k``-th
        clone pair takes the ``k``-th clone colour.
    """
    grid, seen, found = _Grid(geometry), dict[str, int](), []
    for rule in geometry.constraints:
        d = rule.drawing
        if d is None or not d.cells:
            continue
        over, build = _builder(d.name)
        k = seen[d.name] = seen.get(d.name, -1) + 1
        found.append(RuleGlyphs(d.name, over, tuple(build(d, grid, k))))
    return tuple(found)


def _reach(glyph: Glyph) -> list[tuple[float, float, float]]:
    """Points ``(x, y, r)`` a glyph covers within ``r`` of."""
    if isinstance(glyph, Disc):
        return [(*glyph.centre, glyph.radius)]
    if isinstance(glyph, Label):
        return [(glyph.at[0], glyph.at[1], 0.3 * glyph.size * max(1, len(glyph.text)))]
    return [(x, y, glyph.width / 2) for x, y in glyph.points]


def glyph_extent(geometry: Geometry, drawn: Sequence[RuleGlyphs]
                 ) -> tuple[int, int, int, int]:
    """The canvas grown by whole cells to hold every glyph: ``(left, top, right, bottom)`` in
    cells (``(0, 0, columns, rows)`` when nothing lies outside; an outside clue adds a cell on
    its side)."""
    rows, cols = geometry.canvas
    left, top, right, bottom = 0, 0, cols, rows
    for x, y, r in (p for group in drawn for glyph in group.glyphs for p in _reach(glyph)):
        left, right = min(left, math.floor(x - r + 1e-9)), max(right, math.ceil(x + r - 1e-9))
        top, bottom = min(top, math.floor(y - r + 1e-9)), max(bottom, math.ceil(y + r - 1e-9))
    return left, top, right, bottom
