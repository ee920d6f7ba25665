"""The named overlapping-grid layouts of variant Sudoku (samurai, butterfly, sumo ...).

Each layout is a :class:`Layout`: the canvas size and the canvas ``(row,
column)`` of the top-left cell of each 9x9 grid (0-based), plus, for clueless Sudoku, the extra
units of its tenth grid. The cells of a puzzle are the canvas cells some grid covers, in
row-major order (:attr:`sudokit.model.geometry.Geometry.positions`).

Every layout was derived from the solution files of Otto Janko's puzzles (janko.at, as copied in
SmilingWayne/PuzzleSolver ``assets/Sudoku/``, MIT; see ``tests/data/SOURCES.md``): the grids are
the 9x9 blocks, on box boundaries, whose covered cells hold a solved Sudoku, and together they
cover exactly the canvas cells that hold digits. The tenth grid of clueless Sudoku was checked
against every solution the same way:

* clueless-1: the centre cells of the 81 boxes (canvas ``(3i + 1, 3j + 1)``) form a tenth 9x9
  Sudoku (its rows, columns and boxes are extra units);
* clueless-2: the centre boxes of the nine grids form a tenth 9x9 Sudoku (its boxes are boxes
  of the grids already, so its rows and columns are the extra units).

Three layouts share the 21x21 canvas (samurai, windmill, sohei) and two the 27x27 one (the
clueless pair), so a file's canvas size alone does not always name its layout
(:func:`layouts_for_canvas`).
"""

from __future__ import annotations

from collections.abc import Container
from typing import NamedTuple

from ..errors import InvalidPuzzle

__all__ = ["GRID_SIDE", "LAYOUTS", "LAYOUT_NAMES", "Layout", "check_layout", "layout_named",
           "layouts_for_canvas"]

GRID_SIDE = 9
"""The side of every grid of the named layouts (9x9 grids with 3x3 boxes)."""

Position = tuple[int, int]


class Layout(NamedTuple):
    """Overlapping N x N grids on a canvas (samurai, butterfly, sumo, windmill, gattai-8 ...).

    Attributes:
        rows: canvas rows.
        cols: canvas columns.
        origins: the canvas ``(row, column)`` of each grid's top-left cell (0-based).
        extra: further units as canvas positions (e.g. the tenth grid of clueless Sudoku, made
            of the centre cells of the other grids' boxes, given as its rows, columns and boxes).
    """

    rows: int
    cols: int
    origins: tuple[Position, ...]
    extra: tuple[tuple[Position, ...], ...] = ()


def check_layout(layout: Layout, side: int, covered: Container[Position]) -> None:
    """Check that every grid of side N fits on the canvas and every extra unit holds N cells of
    the grids (``covered``: the canvas positions the grids cover).

    Raises:
        InvalidPuzzle: a grid or an extra unit that does not.
    """
    for r0, c0 in layout.origins:
        if r0 < 0 or c0 < 0 or r0 + side > layout.rows or c0 + side > layout.cols:
            raise InvalidPuzzle(f"grid at row {r0 + 1}, column {c0 + 1} does not fit on "
                                f"the {layout.rows}x{layout.cols} canvas")
    for unit in layout.extra:
        if len(unit) != side or any(p not in covered for p in unit):
            raise InvalidPuzzle(f"an extra unit must hold {side} cells of the grids")


def _tenth_grid(at: dict[Position, Position], boxes: bool) -> tuple[tuple[Position, ...], ...]:
    """Rows, columns (and boxes, if ``boxes``) of a 9x9 grid whose cell ``(i, j)`` sits at
    canvas position ``at[(i, j)]``."""
    n = GRID_SIDE
    rows = [tuple(at[(i, j)] for j in range(n)) for i in range(n)]
    cols = [tuple(at[(i, j)] for i in range(n)) for j in range(n)]
    units = rows + cols
    if boxes:
        units += [tuple(at[(top + i, left + j)] for i in range(3) for j in range(3))
                  for top in range(0, n, 3) for left in range(0, n, 3)]
    return tuple(units)


_NINE = tuple((r, c) for r in (0, 9, 18) for c in (0, 9, 18))
_CENTRE_CELLS = {(i, j): (3 * i + 1, 3 * j + 1) for i in range(9) for j in range(9)}
_CENTRE_BOXES = {(i, j): (9 * (i // 3) + 3 + i % 3, 9 * (j // 3) + 3 + j % 3)
                 for i in range(9) for j in range(9)}

LAYOUTS: dict[str, Layout] = {
    "samurai": Layout(21, 21, ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12))),
    "butterfly": Layout(12, 12, ((0, 0), (0, 3), (3, 0), (3, 3))),
    "sumo": Layout(33, 33, ((0, 0), (0, 12), (0, 24), (6, 6), (6, 18), (12, 0), (12, 12),
                            (12, 24), (18, 6), (18, 18), (24, 0), (24, 12), (24, 24))),
    "windmill": Layout(21, 21, ((0, 3), (3, 12), (6, 6), (9, 0), (12, 9))),
    "gattai-8": Layout(21, 33, ((0, 0), (0, 12), (0, 24), (6, 6), (6, 18), (12, 0), (12, 12),
                                (12, 24))),
    "shogun": Layout(21, 45, ((0, 0), (0, 12), (0, 24), (0, 36), (6, 6), (6, 18), (6, 30),
                              (12, 0), (12, 12), (12, 24), (12, 36))),
    "sohei": Layout(21, 21, ((0, 6), (6, 0), (6, 12), (12, 6))),
    "clueless-1": Layout(27, 27, _NINE, _tenth_grid(_CENTRE_CELLS, boxes=True)),
    "clueless-2": Layout(27, 27, _NINE, _tenth_grid(_CENTRE_BOXES, boxes=False)),
}
"""Every named layout of 9x9 grids (3x3 boxes), by name."""

LAYOUT_NAMES = tuple(LAYOUTS)
"""The names of :data:`LAYOUTS`, in a fixed order."""


def layout_named(name: str) -> Layout:
    """The layout called ``name`` (case-insensitive; ``_`` or space for ``-``, ``gattai8`` for
    ``gattai-8``).

    Raises:
        InvalidPuzzle: no layout has that name (the message lists the names).
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = {"gattai8": "gattai-8", "clueless1": "clueless-1", "clueless2": "clueless-2"}.get(key,
                                                                                             key)
    if key not in LAYOUTS:
        raise InvalidPuzzle(f"expected a layout ({', '.join(LAYOUT_NAMES)}), got {name!r}")
    return LAYOUTS[key]


def layouts_for_canvas(rows: int, cols: int) -> tuple[str, ...]:
    """The names of the layouts drawn on a ``rows`` x ``cols`` canvas (several for 21x21 and
    27x27; none for other sizes).

    >>> layouts_for_canvas(12, 12), layouts_for_canvas(21, 21)
    (('butterfly',), ('samurai', 'windmill', 'sohei'))
    """
    return tuple(name for name, layout in LAYOUTS.items()
                 if (layout.rows, layout.cols) == (rows, cols))
