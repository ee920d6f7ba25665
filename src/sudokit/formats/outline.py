"""What every drawing of a geometry shows, whatever draws it: the line between two cells
(:class:`Edge`: box, region, grid and killer-cage borders), the shaded and marked cells of extra
units, and the legend of the rules a drawing cannot show.

The rules, shared by the text drawings of :mod:`sudokit.formats.drawing`, the HTML table of
:func:`sudokit.present.render.grid_html` and the PNG drawing of
:func:`sudokit.present.plots.puzzle_figure`:

* heavy lines between cells of different boxes or jigsaw regions, and around each grid of a
  layout; canvas positions outside every grid have no line between them;
* light lines between the other cells; in a killer puzzle light lines are drawn around cages
  only (cells of one cage are not separated) and a box line crossing a cage is heavy dashed,
  the convention of printed killer Sudoku (janko.at, the WPF GP);
* ``╲``, ``╱`` and ``╳`` mark the diagonals and ``░`` hyper boxes, a layout's extra units
  (clueless Sudoku's tenth grid) and extra regions.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from functools import lru_cache

from ..model.constraints import Variant
from ..model.geometry import Geometry

__all__ = ["Edge", "box_sets", "edge", "edges_of", "legend", "marked_cells", "shaded_cells"]


class Edge(IntEnum):
    """The line between two orthogonally adjacent canvas positions."""

    NONE = 0  # both outside every grid, or two cells of one killer cage inside one box
    LIGHT = 1  # cells of one box (or region): a cell line, or a cage line in killer puzzles
    HEAVY = 2  # a box, region or grid border
    HEAVY_DASHED = 3  # a box border crossing a killer cage


@lru_cache(maxsize=64)  # bounded: a file may hold millions of geometries
def box_sets(geometry: Geometry) -> tuple[frozenset[int], ...]:
    """Per cell, the indices into ``geometry.boxes`` of the boxes (or regions) holding it (two
    for a cell where the boxes of overlapping grids do not coincide)."""
    owners: list[set[int]] = [set() for _ in range(geometry.n_cells)]
    for b, box in enumerate(geometry.boxes):
        for cell in box:
            owners[cell].add(b)
    return tuple(frozenset(o) for o in owners)


def edge(geometry: Geometry, a: int | None, b: int | None, cages: bool = True) -> Edge:
    """The line between two adjacent canvas positions holding cells ``a`` and ``b`` (None for a
    position outside every grid), by the rules of the module docstring; ``cages=False``
    ignores killer cages (the PNG drawing outlines them apart)."""
    return edges_of(geometry, cages)(a, b)


def edges_of(geometry: Geometry, cages: bool = True) -> Callable[[int | None, int | None], Edge]:
    """:func:`edge` for one geometry, its tables looked up once (for drawing every line)."""
    boxes = box_sets(geometry)
    cage_of = geometry.cage_of if cages and geometry.cages else None

    def between(a: int | None, b: int | None) -> Edge:
        if a is None or b is None:
            return Edge.NONE if a is None and b is None else Edge.HEAVY
        same_cage = cage_of is not None and cage_of[a] == cage_of[b] >= 0
        if boxes[a] != boxes[b]:
            return Edge.HEAVY_DASHED if same_cage else Edge.HEAVY
        return Edge.NONE if same_cage else Edge.LIGHT

    return between


@lru_cache(maxsize=64)  # bounded: a file may hold millions of geometries
def shaded_cells(geometry: Geometry) -> frozenset[int]:
    """The cells of hyper boxes, of a layout's extra units (clueless Sudoku's tenth grid) and
    of extra regions (f-puzzles), which drawings shade."""
    extra = geometry.extra_units
    first = len(geometry.diagonals)
    hyper = (geometry.box_rows - 1) ** 2 if Variant.HYPER in geometry.variant else 0
    layout = len(geometry.layout.extra) if geometry.layout is not None else 0
    end = len(extra) - len(geometry.region_units)
    shaded = extra[first:first + hyper] + (extra[end - layout:end] if layout else ())
    shaded += geometry.extra_regions
    return frozenset(cell for unit in shaded for cell in unit)


@lru_cache(maxsize=64)  # bounded: a file may hold millions of geometries
def marked_cells(geometry: Geometry) -> dict[int, str]:
    """Cells of extra units worth marking, with their empty mark: ``╲`` / ``╱`` / ``╳`` on the
    diagonals (Sudoku X, or one diagonal), ``░`` in hyper boxes, a layout's extra units and
    extra regions. Disjoint groups hold every cell and are not marked."""
    marks = dict.fromkeys(shaded_cells(geometry), "░")
    n = geometry.side
    main = Variant.MAIN_DIAGONAL in geometry.variant
    anti = Variant.ANTI_DIAGONAL in geometry.variant
    for i in range(n):
        if main:
            marks[i * n + i] = "╲"
        if anti:
            marks[i * n + n - 1 - i] = "╳" if main and 2 * i == n - 1 else "╱"
    return marks


def legend(geometry: Geometry) -> list[str]:
    """One line per rule a drawing shows by marks or cannot show at all (anti-knight ...), for
    printing under it; empty for classic Sudoku."""
    lines = []
    rules = {
        Variant.DIAGONAL: "diagonal: both main diagonals hold every digit once",
        Variant.MAIN_DIAGONAL: "main-diagonal: the diagonal r1c1..rNcN (╲) holds every digit once",
        Variant.ANTI_DIAGONAL: "anti-diagonal: the diagonal rNc1..r1cN (╱) holds every digit once",
        Variant.HYPER: "hyper: the marked extra boxes hold every digit once",
        Variant.DISJOINT: "disjoint: cells at the same place of every box hold every digit once",
        Variant.ANTI_KNIGHT: "anti-knight: cells a chess knight's move apart differ",
        Variant.ANTI_KING: "anti-king: cells a chess king's move apart (diagonal touch too) differ",
        Variant.NON_CONSECUTIVE: "non-consecutive: orthogonal neighbours never hold "
                                 "consecutive digits",
    }
    lines += [rules[flag] for flag in geometry.variant.parts]
    if geometry.regions is not None:
        lines.append("jigsaw: each heavy-bordered region holds every digit once")
    if geometry.cages:
        lines.append("killer: each cage holds distinct digits adding up to the total at its "
                     "top-left")
    if geometry.extra_regions:
        lines.append(f"extra-region: {len(geometry.extra_regions)} shaded regions, the digits "
                     "of each differ")
    if geometry.parity is not None:
        lines.append("even-odd: [ ] cells hold even digits, ( ) cells odd digits")
    if geometry.layout is not None:
        lines.append(f"multi-grid: {len(geometry.layout.origins)} overlapping "
                     f"{geometry.side}x{geometry.side} grids"
                     + (", marked cells form extra units" if geometry.layout.extra else ""))
    return lines
