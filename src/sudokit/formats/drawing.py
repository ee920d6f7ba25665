"""Terminal drawings of any geometry: jigsaw regions, killer cages with their sums, even/odd
cells, diagonal and hyper cells, and overlapping multi-grid layouts (samurai and the rest).

The plain boxes-and-bands drawing of :func:`sudokit.formats.format_grid` (``|`` and ``-+-``)
reads back as a puzzle and stays the drawing of every *plain* geometry (one N x N grid with
rectangular boxes, any :class:`~sudokit.model.constraints.Variant`). A geometry with regions,
cages, parity or a layout cannot be told by box lines alone, so it is drawn on its canvas with
Unicode box-drawing characters, one text row per canvas row and one border row between rows:

* heavy lines (``━ ┃``) between cells of different boxes or jigsaw regions, and around each
  grid of a layout; canvas cells outside every grid are blank;
* light lines (``─ │``) between the other cells; in a killer puzzle light lines are drawn
  around cages only (cells of one cage are not separated) and a box line crossing a cage is
  heavy dashed (``┅ ┇``), the convention of printed killer Sudoku (janko.at, the WPF GP);
* each cage's total in the border above its first cell (row-major), at that cell's top-left
  corner;
* even cells in square brackets ``[4]``, odd cells in parentheses ``(3)`` (Janko draws them
  grey squares and circles);
* empty cells ``.``, or ``╲``, ``╱`` and ``╳`` on the diagonals (a diagonal jigsaw, say) and
  ``░`` in hyper boxes and a layout's extra units (clueless Sudoku's tenth grid).

A 9x9 drawing is 37 columns by 19 rows (a puzzle and its solution side by side fit in 80
columns); a samurai canvas is 85 by 43. The frame (lines, totals, blank canvas) of a geometry is
computed once per cell width and cached (64 geometries), so drawing many puzzles of one
geometry costs little more than placing their digits.

:func:`layout_pieces` returns the drawing as tagged pieces, so that :mod:`sudokit.present.render`
can colour the same layout for the terminal; the line rules and marks are those of
:mod:`sudokit.formats.outline`, shared with the HTML and PNG drawings.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from ..model.geometry import Geometry
from .outline import Edge, edges_of, marked_cells

__all__ = [
    "Piece",
    "draw_text",
    "drawing_pieces",
    "layout_pieces",
    "plain_lines",
    "plain_pieces",
]


class Piece(NamedTuple):
    """A run of characters of a drawing.

    Attributes:
        text: the characters.
        kind: ``"border"``, ``"sum"`` (a cage total), ``"given"``, ``"solved"``, ``"empty"``
            (the empty mark) or ``"parity"`` (the brackets of even/odd cells).
        cell: the cell the piece belongs to (-1 for borders and sums).
    """

    text: str
    kind: str
    cell: int = -1


# -- box-drawing characters ---------------------------------------------------------------------

_ARMS = {"UP": (0,), "RIGHT": (1,), "DOWN": (2,), "LEFT": (3,), "VERTICAL": (0, 2),
         "HORIZONTAL": (1, 3)}
_WEIGHTS = {"LIGHT": 1, "HEAVY": 2}


@cache
def _junctions() -> dict[tuple[int, int, int, int], str]:
    """Arm weights (up, right, down, left; 0 none, 1 light, 2 heavy) -> the box-drawing
    character, from the Unicode names of U+2500..U+257F (every one of the 80 combinations)."""
    table: dict[tuple[int, ...], str] = {}
    for code in range(0x2500, 0x2580):
        name = unicodedata.name(chr(code)).removeprefix("BOX DRAWINGS ")
        if any(w in name for w in ("DASH", "DOUBLE", "ARC", "DIAGONAL", "SINGLE")):
            continue
        arms = [0, 0, 0, 0]
        weight = 0
        for part in name.split(" AND "):
            words = part.split()
            weight = next((_WEIGHTS[w] for w in words if w in _WEIGHTS), weight)
            for word in words:
                for arm in _ARMS.get(word, ()):
                    arms[arm] = weight
        table[tuple(arms)] = chr(code)
    table[(0, 0, 0, 0)] = " "
    return table  # type: ignore[return-value]


_WEIGHT = {Edge.NONE: 0, Edge.LIGHT: 1, Edge.HEAVY: 2, Edge.HEAVY_DASHED: 2}
_weight = _WEIGHT.__getitem__  # a line's weight in a junction: none, light or heavy


_HORIZONTAL = {Edge.NONE: " ", Edge.LIGHT: "─", Edge.HEAVY: "━", Edge.HEAVY_DASHED: "┅"}
_VERTICAL = {Edge.NONE: " ", Edge.LIGHT: "│", Edge.HEAVY: "┃", Edge.HEAVY_DASHED: "┇"}


def _cell_width(geometry: Geometry, texts: Sequence[str]) -> int:
    """Characters per cell: the longest content plus a mark each side, wide enough for every
    cage total."""
    longest = max((len(t) for t in texts), default=1)
    sums = max((len(str(c.total)) for c in geometry.cages), default=0)
    return max(longest + 2, sums, 3)


def layout_pieces(geometry: Geometry, texts: Sequence[str],
                  kinds: Sequence[str] | None = None) -> list[list[Piece]]:
    """Lay out one text per cell on the geometry's canvas with borders, cage totals and marks.

    Args:
        geometry: any geometry (plain ones too, though :func:`sudokit.formats.format_grid`
            draws those in the form that reads back).
        texts: per cell (``geometry.n_cells`` of them), its content: a digit symbol,
            candidates such as ``"135"``, or ``""`` for an empty cell (drawn as its mark).
        kinds: per cell, the piece kind of its content (default: ``"given"`` for non-empty
            texts).

    Returns:
        ``2 * canvas_rows + 1`` lines of pieces, border lines and cell lines alternating;
        every line is ``canvas_cols * (width + 1) + 1`` characters wide before trailing blanks.

    Raises:
        ValueError: ``texts`` does not hold one text per cell.
    """
    if len(texts) != geometry.n_cells:
        raise ValueError(f"expected {geometry.n_cells} cell texts, got {len(texts)}")
    width = _cell_width(geometry, texts)
    lines: list[list[Piece]] = []
    for frame in _frame(geometry, width):
        line: list[Piece] = []
        for item in frame:
            if isinstance(item, int):
                line += _content(geometry, item, texts[item], kinds, width)
            else:
                line.append(item)
        lines.append(line)
    return lines


@lru_cache(maxsize=64)
def _frame(geometry: Geometry, width: int) -> tuple[tuple[Piece | int, ...], ...]:
    """The lines of :func:`layout_pieces` with each cell's content left as its index: borders,
    cage totals and blank canvas depend on the geometry and the cell width only."""
    rows, cols = geometry.canvas
    # at[r][c]: the cell at canvas (r, c); row -1, row `rows` and columns -1, `cols` are None
    at = [[geometry.cell_at(r, c) for c in range(cols)] + [None] for r in range(rows)]
    at += [[None] * (cols + 1)] * 2
    edge = edges_of(geometry)
    above = [[edge(at[r - 1][c], at[r][c]) for c in range(cols)] + [Edge.NONE]
             for r in range(rows + 1)]  # the line above canvas (r, c)
    left = [[edge(at[r][c - 1], at[r][c]) for c in range(cols + 1)]
            for r in range(rows)] + [[Edge.NONE] * (cols + 1)] * 2  # the line left of (r, c)
    sums = {cage.cells[0]: str(cage.total) for cage in geometry.cages}
    junction = _junctions()
    lines: list[tuple[Piece | int, ...]] = []
    for r in range(rows + 1):
        border = []
        for c in range(cols + 1):
            arms = (_weight(left[r - 1][c]), _weight(above[r][c]), _weight(left[r][c]),
                    _weight(above[r][c - 1]))
            border.append(Piece(junction[arms], "border"))
            if c == cols:
                break
            run = _HORIZONTAL[above[r][c]] * width
            total = sums.get(at[r][c])  # type: ignore[arg-type]
            if total is None:
                border.append(Piece(run, "border"))
            else:
                border += [Piece(total, "sum"), Piece(run[len(total):], "border")]
        lines.append(tuple(border))
        if r == rows:
            break
        line: list[Piece | int] = []
        for c in range(cols + 1):
            line.append(Piece(_VERTICAL[left[r][c]], "border"))
            here = at[r][c]
            if c == cols:
                break
            line.append(Piece(" " * width, "border") if here is None else here)
        lines.append(tuple(line))
    return tuple(lines)


@lru_cache(maxsize=64)  # bounded: a file may hold millions of geometries
def _decor(geometry: Geometry) -> tuple[tuple[str, str, str], ...]:
    """Per cell: the marks left and right of its content (parity brackets or blanks) and the
    mark of the cell when empty."""
    marks = marked_cells(geometry)
    found = []
    for cell in range(geometry.n_cells):
        left, right = {"e": ("[", "]"), "o": ("(", ")")}.get(geometry.parity_of(cell), (" ", " "))
        found.append((left, right, marks.get(cell, "." if left == " " else " ")))
    return tuple(found)


def _parts(decor: tuple[str, str, str], text: str, width: int) -> tuple[str, ...]:
    """A cell's content in five parts: left mark, left pad, its text (or empty mark), right
    pad, right mark; ``width`` characters together."""
    left, right, empty = decor
    shown = text or empty
    pad = width - 2 - len(shown)
    return left, " " * (pad - pad // 2), shown, " " * (pad // 2), right


def _content(geometry: Geometry, cell: int, text: str, kinds: Sequence[str] | None,
             width: int) -> list[Piece]:
    """A cell's pieces: its parity brackets (or blanks) around its centred text or mark."""
    left, before, shown, after, right = _parts(_decor(geometry)[cell], text, width)
    kind = "empty" if not text else kinds[cell] if kinds is not None else "given"
    return [Piece(left, "parity", cell), Piece(before, "border"), Piece(shown, kind, cell),
            Piece(after, "border"), Piece(right, "parity", cell)]


def plain_lines(cells: Sequence[str], geometry: Geometry) -> list[str]:
    """The drawing that reads back, of a plain geometry (``geometry.is_plain``): cells
    right-aligned to one width, one blank between cells, `` | `` between boxes and ``-+-``
    rules between bands. ``cells`` holds N**2 non-empty texts (the empty mark already in)."""
    side, width = geometry.side, max(len(c) for c in cells)
    rows = []
    for r in range(side):
        row = [c.rjust(width) for c in cells[r * side:(r + 1) * side]]
        boxes = [" ".join(row[b:b + geometry.box_cols]) for b in range(0, side, geometry.box_cols)]
        rows.append(" | ".join(boxes))
    rule = "-+-".join("-" * len(b) for b in rows[0].split(" | "))
    out = []
    for r, text in enumerate(rows):
        if r and r % geometry.box_rows == 0:
            out.append(rule)
        out.append(text)
    return out


def plain_pieces(geometry: Geometry, texts: Sequence[str], kinds: Sequence[str] | None = None,
                 empty: str = ".") -> list[list[Piece]]:
    """:func:`plain_lines` cut into pieces: each cell's text apart from the blanks and box
    separators around it.

    Args:
        geometry: a plain geometry: one N x N grid with rectangular boxes.
        texts: per cell (N**2), its symbol or candidates, ``""`` for an empty cell.
        kinds: per cell, the piece kind of a non-empty text (default ``"given"``).
        empty: the symbol of an empty cell.
    """
    side, cols = geometry.side, geometry.box_cols
    shown = [t or empty for t in texts]
    width = max(len(t) for t in shown)
    lines: list[list[Piece]] = []
    row = 0
    for text in plain_lines(shown, geometry):
        if text.startswith("-"):
            lines.append([Piece(text, "border")])
            continue
        line, at = [], 0
        for c in range(side):
            cell = row * side + c
            start = c * (width + 1) + 2 * (c // cols) + width - len(shown[cell])
            kind = "empty" if not texts[cell] else kinds[cell] if kinds is not None else "given"
            line += [Piece(text[at:start], "border"), Piece(shown[cell], kind, cell)]
            at = start + len(shown[cell])
        lines.append(line)
        row += 1
    return lines


def drawing_pieces(geometry: Geometry, texts: Sequence[str], kinds: Sequence[str] | None = None,
                   empty: str = ".") -> list[list[Piece]]:
    """The drawing of any geometry as lines of pieces: :func:`plain_pieces` for plain
    geometries (the drawing that reads back), :func:`layout_pieces` for the others (regions,
    cages, parity, layouts). ``texts`` holds one text per cell, ``""`` for empty cells."""
    if geometry.is_plain:
        return plain_pieces(geometry, texts, kinds, empty)
    return layout_pieces(geometry, texts, kinds)


def draw_text(geometry: Geometry, texts: Sequence[str], empty: str = ".") -> str:
    """The drawing of :func:`drawing_pieces` as plain text, each line without trailing blanks
    and ending in a newline.

    >>> print(draw_text(Geometry.of(1, 2), ["1", "", "", "1"]), end="")
    1 .
    ---
    . 1
    """
    if geometry.is_plain:
        return "\n".join(plain_lines([t or empty for t in texts], geometry)) + "\n"
    if len(texts) != geometry.n_cells:
        raise ValueError(f"expected {geometry.n_cells} cell texts, got {len(texts)}")
    width = _cell_width(geometry, texts)
    decor = _decor(geometry)
    out = []
    for frame in _frame(geometry, width):
        out.append("".join("".join(_parts(decor[item], texts[item], width))
                           if isinstance(item, int) else item.text for item in frame).rstrip())
    return "\n".join(out) + "\n"
