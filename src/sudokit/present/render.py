"""Rich renderings for the terminal: grids, candidates, batch summaries and the method list.

No solving logic here: every function takes finished values and returns a Rich renderable (or
prints one). Plain-text forms that read back as puzzles are in :mod:`sudokit.formats`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..formats.drawing import drawing_pieces
from ..formats.outline import marked_cells
from ..formats.text import DEFAULT_SYMBOLS
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle
from ..model.result import Status

__all__ = [
    "candidates_table",
    "grid_text",
    "methods_table",
    "progress",
    "summary_table",
]


_STYLES = {"border": "dim", "empty": "dim", "sum": "bold yellow", "given": "bold",
           "solved": "cyan", "parity": "magenta", "single": "green", "none": "bold red",
           "candidates": ""}
_MARKED = "on grey23"  # background of diagonal, hyper and extra-unit cells


def _styled(geometry: Geometry, texts: Sequence[str], kinds: Sequence[str]) -> Text:
    """The drawing of :func:`sudokit.formats.drawing.drawing_pieces` as Rich text: borders dim, cage
    totals yellow, even/odd brackets magenta, cells of diagonals, hyper boxes and extra units
    on a grey background; each cell's text in the style of its kind."""
    marked = marked_cells(geometry)
    out = Text()
    for line in drawing_pieces(geometry, texts, kinds):
        text = Text()
        for piece in line:
            style = _STYLES.get(piece.kind, "")
            if piece.cell in marked and piece.kind != "parity":
                style = f"{style} {_MARKED}".strip()
            text.append(piece.text, style)
        text.rstrip()
        out.append_text(text)
        out.append("\n")
    return out


def grid_text(puzzle: Puzzle, solution: Sequence[int] | None = None) -> Text:
    """The puzzle as a drawing: givens bold, solved digits cyan, empty cells as a dim mark.

    The plain text is exactly :func:`sudokit.formats.format_grid`'s: for plain geometries it
    can be pasted back; regions, cages (totals in yellow), even/odd cells and layouts are
    drawn as in :mod:`sudokit.formats.drawing`, and cells of diagonals or hyper boxes get a grey
    background.

    Args:
        puzzle: the puzzle whose givens are drawn.
        solution: one digit per cell filling the empty cells (None: only the givens).
    """
    texts, kinds = [], []
    for cell, given in enumerate(puzzle.givens):
        digit = given or (solution[cell] if solution else 0)
        texts.append(DEFAULT_SYMBOLS[digit - 1] if digit else "")
        kinds.append("given" if given else "solved")
    return _styled(puzzle.geometry, texts, kinds)


def candidates_table(puzzle: Puzzle, candidates: Sequence[Sequence[int]] | None) -> Text:
    """Every cell's candidates (givens bold, forced singles green, no candidate red ``!``),
    drawn like :func:`grid_text`.

    Args:
        puzzle: the puzzle whose givens are marked.
        candidates: per cell, its candidate digits; None when inference proved the puzzle has
            no solution (rendered as one red line).
    """
    if candidates is None:
        return Text("no solution: inference emptied a domain\n", "bold red")
    texts, kinds = [], []
    for cell, digits in enumerate(candidates):
        texts.append("".join(DEFAULT_SYMBOLS[d - 1] for d in digits) or "!")
        kinds.append("given" if puzzle.givens[cell] else "single" if len(digits) == 1
                     else "candidates" if digits else "none")
    return _styled(puzzle.geometry, texts, kinds)


_SUMMARY_ORDER = (Status.SOLVED, Status.MULTIPLE, Status.UNSATISFIABLE, Status.UNKNOWN,
                  Status.INVALID)
_SUMMARY_STYLE = {Status.SOLVED: "green", Status.MULTIPLE: "yellow"}


def summary_table(counts: Mapping[Status, int], seconds: float, startup: float | None = None,
                  title: str = "sudokit solve", resumed: int = 0) -> Table:
    """Counts per status (shown by its word), then start-up (seconds, shown apart), the seconds of solving from
    the first record on, and puzzles per second over those seconds; ``resumed`` of the counted
    records were written by an earlier run (``--resume``) and are not in the rate."""
    total = sum(counts.values())
    table = Table(title=title, title_justify="left", show_edge=False)
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    for status in _SUMMARY_ORDER:
        if counts.get(status):
            style = _SUMMARY_STYLE.get(status, "red")
            table.add_row(Text(status.word, style), f"{counts[status]:,}")
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
    from rich.progress import (  # only on a terminal: ~15 ms of start-up otherwise
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

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
