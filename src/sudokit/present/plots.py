"""Matplotlib figures: the AC-3 queue length per step, the time per instance of each method, and
the drawing of a puzzle (any geometry) for ``sudokit show --png``.

Figures are built with :class:`matplotlib.figure.Figure` (Agg canvas), never through pyplot's
global state, so they work headless, in threads and in notebooks (a Figure displays inline).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..formats.outline import Edge, edges_of, shaded_cells
from ..formats.text import DEFAULT_SYMBOLS
from ..model.constraints import Variant
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle
from ..model.result import Status
from ..run.compare import Comparison
from .glyphs import Disc, Glyph, Label, Polygon, RuleGlyphs, Stroke, glyph_extent, rule_glyphs

if TYPE_CHECKING:  # matplotlib is imported when a figure is made
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["puzzle_figure", "queue_figure", "save_figure", "times_figure"]


def _figure(width: float = 8.0, height: float = 4.0) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def queue_figure(trace: Sequence[int], title: str = "AC-3 queue length") -> Figure:
    """Plot the AC-3 queue length after every step (x: step, y: arcs in the queue).

    The line drops to zero where each AC-3 call ends (one call per MAC assignment).

    Args:
        trace: queue lengths, e.g. ``solve(puzzle, "mac", trace=True).stats.trace``.
        title: the axes title.

    Returns:
        A ``matplotlib.figure.Figure``; its one line holds ``trace`` as y data.

    Raises:
        ValueError: an empty trace (the method recorded no AC-3 step).
    """
    if not trace:
        raise ValueError("empty trace: the method recorded no AC-3 step (use an AC-3 method, "
                         "e.g. mac)")
    figure = _figure()
    axes = figure.add_subplot()
    axes.plot(range(len(trace)), trace, linewidth=0.8)
    axes.set_xlabel("AC-3 step (arc revised)")
    axes.set_ylabel("queue length (arcs)")
    axes.set_title(title)
    axes.set_xlim(0, max(1, len(trace) - 1))
    axes.set_ylim(bottom=0)
    return figure


def times_figure(comparison: Comparison, title: str = "time per instance") -> Figure:
    """Plot each method's wall time per instance on a log scale, timeouts marked with x.

    Args:
        comparison: from :func:`sudokit.run.compare.compare`.
        title: the axes title.

    Returns:
        A ``matplotlib.figure.Figure`` with one line per method (x: instance number from 1,
        y: seconds) and, with a time limit, a dashed horizontal line at it.
    """
    from matplotlib.ticker import MaxNLocator

    figure = _figure()
    axes = figure.add_subplot()
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    for row in comparison.rows:
        xs = range(1, len(row.seconds) + 1)
        seconds = [max(s, 1e-6) for s in row.seconds]
        (line,) = axes.plot(xs, seconds, marker=".", linewidth=0.6, label=row.method)
        late = [(x, s) for x, s, st in zip(xs, seconds, row.statuses) if st is Status.UNKNOWN]
        if late:
            late_x, late_s = zip(*late)
            axes.scatter(late_x, late_s, marker="x", s=40, color=line.get_color())
    if comparison.time_limit:
        axes.axhline(comparison.time_limit, linestyle="--", color="grey", linewidth=0.8,
                     label=f"limit {comparison.time_limit:g} s (x: timeout)")
    axes.set_yscale("log")
    axes.set_xlabel("instance")
    axes.set_ylabel("seconds")
    axes.set_title(title)
    axes.legend(fontsize="small")
    return figure


_LINE = {Edge.LIGHT: (0.6, "#999999"), Edge.HEAVY: (2.2, "black")}
_CAGE_INSET = 0.1  # cage outlines sit this far (in cells) inside the cell lines


def puzzle_figure(puzzle: Puzzle, solution: Sequence[int] | None = None,
                  cell_inches: float = 0.45) -> Figure:
    """Draw a puzzle of any geometry as printed puzzles are drawn (janko.at, the WPF GP).

    Thin lines between cells, thick lines around boxes, jigsaw regions and each grid of a
    layout (canvas cells outside every grid are left blank; grids that touch without
    overlapping, as in clueless Sudoku, are outlined thicker still); killer cages as dashed
    outlines inside the cells with the total at the top-left of each cage's first cell; even cells
    shaded grey, odd cells circled; hyper boxes and a layout's extra units shaded blue; the
    diagonals of Sudoku X drawn as thin lines; givens bold, solution digits lighter; the
    rules drawn on the grid (thermometers, arrows, dots, lines, outside clues in a margin) as
    the glyphs of :func:`sudokit.present.glyphs.rule_glyphs`, which the SVG board draws too.

    Args:
        puzzle: the puzzle (its geometry and givens).
        solution: one digit per cell (``puzzle.geometry.n_cells``) filling the empty cells,
            or None for the givens alone.
        cell_inches: the side of a cell in inches (the figure is at most 12 inches wide).

    Returns:
        A ``matplotlib.figure.Figure`` of one axes, canvas columns x rows in data units
        (x to the right, y downwards).

    Raises:
        ValueError: ``solution`` does not hold one digit per cell.
    """
    g = puzzle.geometry
    if solution is not None and len(solution) != g.n_cells:
        raise ValueError(f"expected a solution of {g.n_cells} digits, got {len(solution)}")
    drawn = rule_glyphs(g)
    figure, axes, points = _board(glyph_extent(g, drawn), cell_inches)
    _draw_cells(axes, g)
    _draw_rules(axes, drawn, points, over=False)
    _draw_lines(axes, g)
    _draw_rules(axes, drawn, points, over=True)
    _draw_digits(axes, puzzle, solution, points)
    return figure


def _board(extent: tuple[int, int, int, int], cell_inches: float) -> tuple[Figure, Axes, float]:
    """An empty figure for a canvas of ``extent`` (left, top, right, bottom in cells; at most
    12 inches wide): the figure, its one axes (canvas cells in data units, y downwards) and
    the side of a cell in points."""
    left, top, right, bottom = extent
    rows, cols = bottom - top, right - left
    inches = min(cell_inches, 12.0 / max(rows, cols))
    figure = _figure(cols * inches + 0.2, rows * inches + 0.2)
    figure.set_layout_engine(None)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.set_xlim(left - 0.2, right + 0.2)
    axes.set_ylim(bottom + 0.2, top - 0.2)
    axes.set_aspect("equal")
    axes.axis("off")
    return figure, axes, inches * 72


def _draw_cells(axes: Axes, g: Geometry) -> None:
    """Shade even cells and the cells of extra units, circle odd cells, draw the diagonals."""
    from matplotlib.patches import Circle, Rectangle

    shaded = shaded_cells(g)
    for cell in range(g.n_cells):
        r, c = g.position(cell)
        kind = g.parity_of(cell)
        if kind == "e" or cell in shaded:
            axes.add_patch(Rectangle((c, r), 1, 1, linewidth=0,
                                     facecolor="#d4d4d4" if kind == "e" else "#dce6f4"))
        if kind == "o":
            axes.add_patch(Circle((c + 0.5, r + 0.5), 0.36, fill=False, edgecolor="#8c8c8c",
                                  linewidth=1.0))
    if g.diagonals:
        n = g.side
        if Variant.MAIN_DIAGONAL in g.variant:
            axes.plot([0, n], [0, n], color="#9fb3c8", linewidth=1.0)
        if Variant.ANTI_DIAGONAL in g.variant:
            axes.plot([0, n], [n, 0], color="#9fb3c8", linewidth=1.0)


def _draw_lines(axes: Axes, g: Geometry) -> None:
    """Draw the cage and extra-region outlines, the cell and box lines, and an outline around
    each grid of a layout whose grids do not overlap."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    axes.add_collection(LineCollection(_cage_outlines(g), colors="#333333", linewidths=0.8,
                                       linestyles=(0, (3, 2)), zorder=2))
    if g.extra_regions:  # f-puzzles extra regions: dotted outlines over their shading
        axes.add_collection(LineCollection(_cage_outlines(g, g.extra_regions),
                                           colors="#5b84b1", linewidths=0.9,
                                           linestyles=(0, (1, 1.5)), zorder=2))
    for weight, (width, colour) in _LINE.items():
        axes.add_collection(LineCollection(_grid_lines(g, weight), colors=colour,
                                           linewidths=width, capstyle="projecting",
                                           zorder=2))
    layout, n = g.layout, g.side
    if layout is not None and len(layout.origins) * n * n == g.n_cells:
        for r0, c0 in layout.origins:  # grids side by side (clueless): outline each one
            axes.add_patch(Rectangle((c0, r0), n, n, fill=False, edgecolor="black",
                                     linewidth=3.6, zorder=2))


def _draw_glyph(axes: Axes, glyph: Glyph, points: float, zorder: float) -> None:
    """One primitive of :mod:`sudokit.present.glyphs` (sizes in cells; ``points`` per cell)."""
    from matplotlib.patches import Circle
    from matplotlib.patches import Polygon as Shape

    if isinstance(glyph, Stroke):
        xs, ys = zip(*glyph.points)
        dashes = (glyph.dash / glyph.width,) * 2 if glyph.dash else None
        (line,) = axes.plot(xs, ys, color=glyph.colour, linewidth=glyph.width * points,
                            zorder=zorder, solid_capstyle="round", solid_joinstyle="round",
                            dash_capstyle="round")
        if dashes:
            line.set_dashes(dashes)
    elif isinstance(glyph, (Disc, Polygon)):
        style = {"facecolor": glyph.fill, "edgecolor": glyph.edge or "none",
                 "linewidth": glyph.width * points, "zorder": zorder}
        axes.add_patch(Circle(glyph.centre, glyph.radius, **style) if isinstance(glyph, Disc)
                       else Shape(glyph.points, closed=True, **style))
    elif isinstance(glyph, Label):
        axes.text(*glyph.at, glyph.text, ha="center", va="center_baseline", zorder=zorder,
                  fontsize=glyph.size * points, color=glyph.colour,
                  fontweight="bold" if glyph.bold else "normal")


def _draw_rules(axes: Axes, drawn: Sequence[RuleGlyphs], points: float, over: bool) -> None:
    """The rules drawn over the grid lines (``over``), or under them and the digits."""
    for group in drawn:
        if group.over == over:
            for glyph in group.glyphs:
                _draw_glyph(axes, glyph, points, 2.5 if over else 1.5)


def _draw_digits(axes: Axes, puzzle: Puzzle, solution: Sequence[int] | None,
                 points: float) -> None:
    """Write the givens (bold), the solution's other digits (lighter) and the cage totals
    (``points``: the side of a cell in points)."""
    g = puzzle.geometry
    sums = {cage.cells[0]: cage.total for cage in g.cages}
    for cell, given in enumerate(puzzle.givens):
        r, c = g.position(cell)
        digit = given or (solution[cell] if solution is not None else 0)
        if digit:
            axes.text(c + 0.5, r + 0.54, DEFAULT_SYMBOLS[digit - 1], ha="center", va="center",
                      fontsize=points * 0.55, fontweight="bold" if given else "normal",
                      color="black" if given else "#5b84b1")
        if cell in sums:
            axes.text(c + 0.05, r + 0.04, str(sums[cell]), ha="left", va="top",
                      fontsize=points * 0.22, color="black",
                      bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4})


def _grid_lines(g: Geometry, weight: Edge) -> list[list[tuple[float, float]]]:
    """The unit-length cell lines of ``weight`` (light or heavy, cages ignored), merged into
    runs."""
    rows, cols = g.canvas
    edge = edges_of(g, cages=False)
    found: list[list[tuple[float, float]]] = []
    for r in range(rows + 1):  # horizontal lines, above canvas row r
        for c in range(cols):
            if edge(g.cell_at(r - 1, c), g.cell_at(r, c)) is weight:
                _extend(found, (c, r), (c + 1, r))
    for c in range(cols + 1):  # vertical lines, left of canvas column c
        for r in range(rows):
            if edge(g.cell_at(r, c - 1), g.cell_at(r, c)) is weight:
                _extend(found, (c, r), (c, r + 1))
    return found


def _extend(runs: list[list[tuple[float, float]]], start: tuple[float, float],
            end: tuple[float, float]) -> None:
    """Append a segment, merged with the last run when it continues it."""
    if runs and runs[-1][1] == start:
        runs[-1][1] = end
    else:
        runs.append([start, end])


def _cage_outlines(g: Geometry, groups: Sequence[Sequence[int]] | None = None
                   ) -> list[list[tuple[float, float]]]:
    """Per cage (or per group of cells given, such as extra regions), the segments of its
    outline drawn ``_CAGE_INSET`` inside its cells (concave corners meet; a cage's cells are
    never separated)."""
    m = _CAGE_INSET
    segments: list[list[tuple[float, float]]] = []
    for group in (groups if groups is not None else [cage.cells for cage in g.cages]):
        cells = set(group)

        def inside(r: int, c: int, cells: set[int] = cells) -> bool:
            return g.cell_at(r, c) in cells

        for cell in group:
            r, c = g.position(cell)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if inside(r + dr, c + dc):
                    continue
                if dr:  # a horizontal side: y fixed, running left to right
                    y = r + (m if dr < 0 else 1 - m)
                    x0 = _end(c, -1, inside(r, c - 1), inside(r + dr, c - 1), m)
                    x1 = _end(c + 1, 1, inside(r, c + 1), inside(r + dr, c + 1), m)
                    segments.append([(x0, y), (x1, y)])
                else:  # a vertical side: x fixed, running downwards
                    x = c + (m if dc < 0 else 1 - m)
                    y0 = _end(r, -1, inside(r - 1, c), inside(r - 1, c + dc), m)
                    y1 = _end(r + 1, 1, inside(r + 1, c), inside(r + 1, c + dc), m)
                    segments.append([(x, y0), (x, y1)])
    return segments


def _end(line: int, direction: int, along: bool, beyond: bool, m: float) -> float:
    """Where an inset cage side ends at cell line ``line``: short of it at a convex corner
    (the next cell along is outside the cage), past it at a concave corner (the cell
    diagonally beyond is inside), on it where the side continues in the next cell."""
    if not along:
        return line - direction * m
    return line + direction * m if beyond else float(line)


def save_figure(figure: Figure, path: str | Path, dpi: int = 120) -> Path:
    """Write ``figure`` to ``path`` (PNG, SVG or PDF by extension) and return the path.

    Raises:
        OSError: the file cannot be written.
    """
    path = Path(path)
    figure.savefig(path, dpi=dpi)
    return path
