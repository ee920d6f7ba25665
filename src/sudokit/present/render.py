"""Rich renderings for the terminal: grids, candidates, batch summaries and the method list.

No solving logic here: every function takes finished values and returns a Rich renderable (or
prints one). Plain-text forms that read back as puzzles are in :mod:`sudokit.formats`.
"""

from __future__ import annotations

import math
import textwrap
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
from ..model.rules import RuleDrawing

__all__ = [
    "candidates_grid",
    "candidates_table",
    "grid_text",
    "methods_table",
    "progress",
    "rules_legend",
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


def candidates_grid(puzzle: Puzzle, candidates: Sequence[Sequence[int]] | None,
                    width: int) -> Text:
    """The candidates as :func:`candidates_table` draws them, or, when that drawing is wider
    than ``width`` columns on a single grid (no multi-grid layout), as pencil marks: each cell a
    small block with every candidate in its own place (digit d of a 9x9 at row (d-1)//3,
    column (d-1)%3 of the cell), givens in the middle in bold; a 9x9 takes 41 columns, a 16x16
    73, so an 80-column terminal shows the whole grid with no candidate cut."""
    drawn = candidates_table(puzzle, candidates)
    if (candidates is None or puzzle.geometry.layout is not None
            or max(map(len, drawn.plain.splitlines()), default=0) <= width):
        return drawn
    return _pencil_marks(puzzle, candidates)


def _pencil_marks(puzzle: Puzzle, candidates: Sequence[Sequence[int]]) -> Text:
    """Pencil-mark blocks of ``span`` x ``span`` places per cell, boxes ruled (irregular
    regions are not: the drawing of the givens above shows them)."""
    g = puzzle.geometry
    span = math.isqrt(g.side - 1) + 1  # places per side of a cell's block
    ruled = g.regions is None
    out = Text()
    for row in range(g.side):
        if row and not ruled:  # a blank line between rows instead of box rules
            out.append("\n")
        if ruled and row and row % g.box_rows == 0:
            rule = "-+".join("-" * ((span + 1) * g.box_cols) for _ in range(g.side // g.box_cols))
            out.append(rule + "\n", _STYLES["border"])
        for line in range(span):
            text = Text()
            for col in range(g.side):
                if ruled and col and col % g.box_cols == 0:
                    text.append(" |", _STYLES["border"])
                text.append(" ")
                cell = row * g.side + col
                text.append_text(_cell_line(g, puzzle.givens[cell], candidates[cell], line, span))
            text.rstrip()
            out.append_text(text)
            out.append("\n")
    return out


def _cell_line(g: Geometry, given: int, digits: Sequence[int], line: int, span: int) -> Text:
    """Line ``line`` of one cell's block: a given (bold, on the middle line), or the
    candidates of that line in their places (a dot where one is gone; a single green)."""
    if given:
        middle = g.symbol(given).center(span) if line == span // 2 else " " * span
        return Text(middle, _STYLES["given"])
    if not digits:
        return Text(("!" if line == span // 2 else " ").center(span), _STYLES["none"])
    style = _STYLES["single"] if len(digits) == 1 else ""
    have = set(digits)
    places = range(line * span + 1, min((line + 1) * span, g.side) + 1)
    return Text("".join(g.symbol(d) if d in have else "." for d in places).ljust(span), style)


_SUMMARY_ORDER = (Status.SOLVED, Status.MULTIPLE, Status.UNSATISFIABLE, Status.UNKNOWN,
                  Status.INVALID)
_SUMMARY_STYLE = {Status.SOLVED: "green", Status.MULTIPLE: "yellow"}


_CLUES = frozenset({"little killer", "sandwich sum", "X-sum", "skyscraper", "numbered room"})


def _where(d: RuleDrawing, label: Callable[[int], str]) -> str:
    """Where a drawn rule is: its cells (first-last), an arrow's circle, a clue's value."""
    ends = label(d.cells[0]) + (f"-{label(d.cells[-1])}" if len(d.cells) > 1 else "")
    if d.name == "arrow":
        circle = "".join(map(label, d.extra))
        return f"{circle}={ends}" if d.cells else circle
    if d.name == "clone":
        return f"{ends}={label(d.extra[0])}" + (f"-{label(d.extra[-1])}" if d.extra else "")
    if d.name == "quadruple":
        digits = d.value.split()
        return f"{('' if max(map(len, digits)) == 1 else ',').join(digits)}@{label(d.cells[0])}"
    if d.name in _CLUES:
        return f"{d.value}:{ends}"  # the clue, then the cells it reads from its side
    return f"{ends}={d.value}" if d.value and d.value != d.name else ends


def rules_legend(geometry: Geometry, width: int = 80) -> list[str]:
    """The rules drawn on a grid, as lines for the terminal under its drawing: per named rule,
    how many and where (``thermometer (2): r1c1-r1c4, r5c5-r9c5``; an outside clue as
    ``value:cells read from its side``), then the rules drawn by no mark (``no white Kropki dot
    (112 pairs)``); lines wrapped to ``width`` columns; empty without rules."""
    drawn: dict[str, list[str]] = {}
    unmarked: dict[str, int] = {}
    parts = {r.name for r in geometry.constraints if r.drawing is not None}
    for rule in geometry.constraints:
        if rule.drawing is not None:
            drawn.setdefault(rule.drawing.name, []).append(_where(rule.drawing, geometry.label))
        elif rule.name not in parts:  # not a link of a drawn rule (a thermometer's next pair)
            unmarked[rule.name] = unmarked.get(rule.name, 0) + 1
    lines = [f"{name} ({len(places)}): {', '.join(places)}" for name, places in drawn.items()]
    lines += [f"{name} ({count} pairs, drawn by no mark)" for name, count in unmarked.items()]
    return [part for line in lines for part in textwrap.wrap(line, width, subsequent_indent="  ")]


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
def progress(enabled: bool, total: int | None = None,
             unit: str = "puzzles") -> Iterator[Callable[[int], None]]:
    """A live counter on stderr; yields ``advance(n)`` (a no-op when disabled).

    It shows the count (``done/total`` when the total is known), the mean rate since the start
    (count / elapsed seconds, not a short-window estimate), the elapsed time and, with a total,
    the time left at that rate; refreshed ten times a second and cleared when done, so it
    never stays among the data. Whether to show it is the caller's choice (see
    :func:`sudokit.cli._common.show_progress`).
    """
    if not enabled:
        yield lambda n: None
        return
    from rich.progress import (  # only on a terminal: ~15 ms of start-up otherwise
        BarColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    count = "{task.completed:,}" + ("/{task.total:,}" if total is not None else "")
    columns = [SpinnerColumn(), TextColumn(f"{count} {unit}"), TextColumn("{task.fields[rate]}"),
               TimeElapsedColumn()]
    if total is not None:
        columns[1:1] = [BarColumn(bar_width=20)]
        columns.append(TextColumn("{task.fields[left]}"))
    with Progress(*columns, console=Console(stderr=True), transient=True,
                  refresh_per_second=10) as bar:
        task = bar.add_task(unit, total=total, rate="", left="")

        def advance(n: int = 1) -> None:
            bar.advance(task, n)
            state = bar.tasks[0]
            elapsed = state.elapsed or 0.0
            if elapsed > 0 and state.completed:
                rate = state.completed / elapsed
                bar.update(task, rate=_rate_text(rate, unit),
                           left=_left_text(total, state.completed, rate))

        yield advance


def _rate_text(rate: float, unit: str) -> str:
    """``1,234/s`` or ``0.52/s`` (two significant decimals below 10/s)."""
    return f"{rate:,.0f}/s" if rate >= 10 else f"{rate:.2g}/s"


def _left_text(total: int | None, done: float, rate: float) -> str:
    """``~0:01:05 left`` at ``rate`` (empty without a total)."""
    if total is None:
        return ""
    seconds = max(0, int((total - done) / rate + 0.5))
    return f"~{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d} left"
