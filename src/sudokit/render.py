"""Rich renderings for the terminal: grids, candidates, batch summaries and the method list.

No solving logic here: every function takes finished values and returns a Rich renderable (or
prints one). Plain-text forms that read back as puzzles are in :mod:`sudokit.formats`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from .formats import DEFAULT_SYMBOLS
from .geometry import Geometry
from .puzzle import Puzzle

__all__ = ["grid_text", "grid_html", "candidates_table", "summary_table", "methods_table",
           "progress"]


def _boxed(cells: Sequence[Text], geometry: Geometry) -> Text:
    """Lay out equal-width cell texts with ``|`` between boxes and rules between bands."""
    side = geometry.side
    width = max(len(c.plain) for c in cells)
    out = Text()
    for r in range(side):
        if r and r % geometry.box_rows == 0:
            out.append("-+-".join("-" * ((width + 1) * geometry.box_cols - 1)
                                  for _ in range(side // geometry.box_cols)) + "\n", "dim")
        for c in range(side):
            if c % geometry.box_cols == 0 and c:
                out.append(" | ", "dim")
            elif c:
                out.append(" ")
            cell = cells[r * side + c]
            out.append(" " * (width - len(cell.plain)))
            out.append_text(cell)
        out.append("\n")
    return out


def grid_text(puzzle: Puzzle, solution: Sequence[int] | None = None) -> Text:
    """The puzzle as a drawing: givens bold, solved digits cyan, empty cells as a dim dot.

    The plain text is exactly :func:`sudokit.formats.format_grid`'s, so it can be pasted back.
    """
    cells = []
    for cell, given in enumerate(puzzle.givens):
        digit = given or (solution[cell] if solution else 0)
        if not digit:
            cells.append(Text(".", "dim"))
        else:
            cells.append(Text(DEFAULT_SYMBOLS[digit - 1], "bold" if given else "cyan"))
    return _boxed(cells, puzzle.geometry)


def grid_html(puzzle: Puzzle, solution: Sequence[int] | None = None) -> str:
    """The puzzle as an HTML table for Jupyter: thick lines between boxes, givens bold, solved
    digits blue, empty cells blank.

    Args:
        puzzle: the puzzle whose givens are drawn.
        solution: N**2 digits filling the empty cells (None: only the givens).
    """
    g = puzzle.geometry
    side, thick, thin = g.side, "2px solid #444", "1px solid #bbb"
    rows = []
    for r in range(side):
        cells = []
        for c in range(side):
            given = puzzle.givens[r * side + c]
            digit = given or (solution[r * side + c] if solution else 0)
            style = (f"border-top:{thick if r % g.box_rows == 0 else thin};"
                     f"border-left:{thick if c % g.box_cols == 0 else thin};"
                     f"border-bottom:{thick if r == side - 1 else thin};"
                     f"border-right:{thick if c == side - 1 else thin};"
                     "width:1.7em;height:1.7em;padding:0;text-align:center;"
                     + ("font-weight:bold;" if given else "color:#1f77b4;" if digit else ""))
            text = DEFAULT_SYMBOLS[digit - 1] if digit else "&nbsp;"
            cells.append(f'<td style="{style}">{text}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<table style="border-collapse:collapse;font-family:monospace">'
            + "".join(rows) + "</table>")


def candidates_table(puzzle: Puzzle, candidates: Sequence[Sequence[int]] | None) -> Text:
    """Every cell's candidates (givens bold, forced singles green, no candidate red ``!``).

    Args:
        puzzle: the puzzle whose givens are marked.
        candidates: per cell, its candidate digits; None when inference proved the puzzle has
            no solution (rendered as one red line).
    """
    if candidates is None:
        return Text("no solution: inference emptied a domain\n", "bold red")
    cells = []
    for cell, digits in enumerate(candidates):
        text = "".join(DEFAULT_SYMBOLS[d - 1] for d in digits)
        style = "bold" if puzzle.givens[cell] else "green" if len(digits) == 1 else ""
        cells.append(Text(text or "!", style or ("bold red" if not digits else "")))
    return _boxed(cells, puzzle.geometry)


def summary_table(counts: Mapping[str, int], seconds: float, startup: float | None = None,
                  title: str = "sudokit solve", resumed: int = 0) -> Table:
    """Counts per status word, then start-up (seconds, shown apart), the seconds of solving from
    the first record on, and puzzles per second over those seconds; ``resumed`` of the counted
    records were written by an earlier run (``--resume``) and are not in the rate."""
    total = sum(counts.values())
    table = Table(title=title, title_justify="left", show_edge=False)
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    for label in ("solved", "multiple", "unsolvable", "timeout", "invalid"):
        if counts.get(label):
            style = "green" if label == "solved" else "yellow" if label == "multiple" else "red"
            table.add_row(Text(label, style), f"{counts[label]:,}")
    table.add_row("total", f"{total:,}", end_section=not resumed)
    if resumed:
        table.add_row("resumed", f"{resumed:,}", end_section=True)
    if startup is not None:
        table.add_row("start-up s", f"{startup:.3f}")
    rate = (total - resumed) / seconds if seconds > 0 else float("inf")
    table.add_row("solving s", f"{seconds:.3f}")
    table.add_row("puzzles/s", f"{rate:,.1f}")
    return table


def methods_table(rows: Iterable[tuple[str, str, bool, Sequence[str]]]) -> Table:
    """The method list: name, summary, backends and whether it can run here."""
    table = Table(show_edge=False)
    for name in ("method", "summary", "backends", "available"):
        table.add_column(name)
    for name, summary, available, backends in rows:
        table.add_row(name, summary, ", ".join(backends) or "—",
                      Text("yes", "green") if available else Text("no (missing dependency)", "red"))
    return table


@contextmanager
def progress(enabled: bool) -> Iterator[Callable[[int], None]]:
    """A live puzzle counter with rate on stderr; yields ``advance(n)`` (a no-op when disabled).

    The total is unknown (inputs are streamed), so it shows the count, puzzles/s and elapsed
    time, refreshed ten times a second.
    """
    if not enabled:
        yield lambda n=1: None
        return
    columns = (SpinnerColumn(), TextColumn("{task.completed:,} puzzles"),
               TextColumn("{task.fields[rate]}"),
               TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True,
                  refresh_per_second=10) as bar:
        task = bar.add_task("solve", total=None, rate="")

        def advance(n: int = 1) -> None:
            bar.advance(task, n)
            speed = bar.tasks[0].speed
            if speed:
                bar.update(task, rate=f"{speed:,.0f}/s")

        yield advance
