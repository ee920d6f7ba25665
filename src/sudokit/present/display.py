"""The display methods of model values: what ``str()`` and Jupyter show of a puzzle or result.

:class:`~sudokit.model.puzzle.Puzzle` and :class:`~sudokit.model.result.Result` call these
lazily from their ``__str__`` and ``_repr_html_`` (the model floor does not import the floors
above it at import time; the floor test allow-lists exactly these calls).
Jupyter shows the SVG board of :mod:`sudokit.present.svg`; HTML needs no Rich.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..errors import InvalidOption
from ..formats.outline import Edge, edges_of, marked_cells
from ..formats.text import format_grid, format_line, format_side_by_side
from ..model.geometry import DEFAULT_SYMBOLS
from ..model.puzzle import Puzzle
from ..model.result import Result
from .svg import board_svg, result_svg

__all__ = ["grid_html", "puzzle_html", "puzzle_text", "result_html", "result_text",
           "solution_text"]


def puzzle_text(puzzle: Puzzle) -> str:
    """The grid drawing of :func:`sudokit.formats.format_grid`, without its final newline
    (reads back as a puzzle when the geometry is plain)."""
    return format_grid(puzzle.givens, puzzle.geometry).rstrip("\n")


def result_text(result: Result) -> str:
    """The summary line, then the puzzle and its (first) solution side by side."""
    return f"{result.summary()}\n{format_side_by_side(result.puzzle, result.solution).rstrip()}"


def solution_text(result: Result, form: str = "line") -> str | None:
    """The first solution of ``result`` in line form or as a grid drawing (see
    :meth:`sudokit.model.result.Result.solution_text`); None without a solution.

    Raises:
        InvalidOption: ``form`` is neither ``"line"`` nor ``"grid"``.
    """
    if form not in ("line", "grid"):
        raise InvalidOption(f"solution text form {form!r}: expected 'line' or 'grid'")
    solution = result.solution
    if solution is None:
        return None
    if form == "line":
        return format_line(solution)
    return format_grid(solution, result.puzzle.geometry).rstrip("\n")


def puzzle_html(puzzle: Puzzle) -> str:
    """The puzzle as the SVG board (:func:`~sudokit.present.svg.board_svg`) in HTML, for
    Jupyter (``Puzzle._repr_html_``)."""
    return f'<div style="max-width:480px">{board_svg(puzzle)}</div>'


def result_html(result: Result) -> str:
    """The summary over the SVG board of the solution (givens bold, solved digits blue), as
    HTML for Jupyter (``Result._repr_html_``)."""
    return (f'<div style="max-width:480px"><p>{escape(result.summary())}</p>'
            f"{result_svg(result)}</div>")


def grid_html(puzzle: Puzzle, solution: Sequence[int] | None = None) -> str:
    """The puzzle as an HTML table for Jupyter: thick lines between boxes (or regions, and
    around each grid of a layout), dashed lines around killer cages with their totals at the
    top-left, even cells grey, odd cells with a circle, givens bold, solved digits blue,
    empty cells blank.

    Args:
        puzzle: the puzzle whose givens are drawn.
        solution: one digit per cell filling the empty cells (None: only the givens).
    """
    g = puzzle.geometry
    css = {Edge.NONE: "1px dotted #ddd", Edge.LIGHT: "1px solid #bbb",
           Edge.HEAVY: "2px solid #444", Edge.HEAVY_DASHED: "2px dashed #444"}
    if g.cages:  # light lines are cage lines: draw them darker
        css[Edge.LIGHT] = "1px dashed #444"
    sums = {cage.cells[0]: cage.total for cage in g.cages}
    marked = marked_cells(g)
    edge = edges_of(g)
    rows_, cols_ = g.canvas
    rows = []
    for r in range(rows_):
        cells = []
        for c in range(cols_):
            cell = g.cell_at(r, c)
            if cell is None:
                cells.append('<td style="border:none;width:1.7em;height:1.7em"></td>')
                continue
            given = puzzle.givens[cell]
            digit = given or (solution[cell] if solution else 0)
            top, left = edge(g.cell_at(r - 1, c), cell), edge(g.cell_at(r, c - 1), cell)
            bottom, right = edge(cell, g.cell_at(r + 1, c)), edge(cell, g.cell_at(r, c + 1))
            style = (f"border-top:{css[top]};border-left:{css[left]};"
                     f"border-bottom:{css[bottom]};border-right:{css[right]};"
                     "width:1.7em;height:1.7em;padding:0;text-align:center;"
                     + ("font-weight:bold;" if given else "color:#1f77b4;" if digit else ""))
            parity = g.parity_of(cell)
            if parity == "e" or cell in marked:
                style += "background:#ddd;" if parity == "e" else "background:#eef;"
            text = DEFAULT_SYMBOLS[digit - 1] if digit else "&nbsp;"
            if parity == "o":
                text = f'<span style="border:1px solid #999;border-radius:50%;padding:0 .3em">{text}</span>'
            if cell in sums:
                style += "position:relative;"
                text = (f'<span style="position:absolute;top:0;left:1px;font-size:60%">'
                        f"{sums[cell]}</span>{text}")
            cells.append(f'<td style="{style}">{text}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<table style="border-collapse:collapse;font-family:monospace">'
            + "".join(rows) + "</table>")
