"""``sudokit compare``: several methods on the same puzzles, side by side."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ._app import app


@app.command("compare")
def compare_command(
    file: Annotated[str, typer.Argument(help="A puzzle file ('-' for stdin).")],
    methods: Annotated[str, typer.Option(help="Comma-separated method names.")]
    = "backtracking,forward-checking,mac,propagate",
    time_limit: Annotated[float, typer.Option(min=0,
        help="Seconds per puzzle and method (0: no limit); over it counts as unknown.")] = 15.0,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first K puzzles.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Write the time-per-puzzle plot here (log scale, timeouts marked).")] = None,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
) -> None:
    """Run several methods on the same puzzles; print a table per method: solved, unknown,
    nodes, backtracks, checks, total and median time. Exit code 1 when an input record is
    invalid (reported on stderr; the others are compared)."""
    from itertools import islice

    from rich.console import Console

    from ..compare import check_supported, compare, comparison_table, sudoku_runners
    from ..formats import read_puzzles
    from ..plots import save_figure, times_figure
    from ..render import progress

    names = [name.strip() for name in methods.split(",") if name.strip()]
    runners = sudoku_runners(names, time_limit=time_limit or None)
    records = list(islice(read_puzzles(sys.stdin if file == "-" else file, box=box), limit))
    for bad in (r for r in records if r.puzzle is None):
        print(f"sudokit: {bad.error}", file=sys.stderr)
    puzzles = check_supported(names, [r.puzzle for r in records if r.puzzle is not None])
    with progress(sys.stderr.isatty()) as advance:
        comparison = compare(puzzles, runners, time_limit=time_limit or None,
                             progress=lambda _method, _index: advance())
    Console(width=None if sys.stdout.isatty() else 160).print(
        comparison_table(comparison, f"{file}: {len(puzzles)} puzzles"))
    if plot:
        save_figure(times_figure(comparison, f"time per puzzle, {file}"), plot)
    raise typer.Exit(1 if len(puzzles) < len(records) else 0)
