"""``sudokit compare``: several methods on the same puzzles, side by side."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ._app import app
from ._common import PUZZLE_HELP, VariantChoice, VariantOption, image_path, writing

if TYPE_CHECKING:
    from ..formats.lines import Record
    from ..model.puzzle import Puzzle

AUTO_INSTANCES = 50
"""Up to this many puzzles the per-instance table is printed unless --no-instances."""


@app.command("compare")
def compare_command(
    file: Annotated[str, typer.Argument(help=PUZZLE_HELP, metavar="PUZZLES")],
    methods: Annotated[str, typer.Option(
        help="Comma-separated method names; NAME[KEY=VALUE,...] gives one method its own "
        "options, e.g. 'mac,mac[order=natural,select=mrv]'.")]
    = "backtracking,forward-checking,mac,propagate",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Method option KEY=VALUE (repeatable), given to every compared "
        "method that has it, e.g. select=mrv.")] = None,
    time_limit: Annotated[float, typer.Option(min=0,
        help="Seconds per puzzle and method (0: no limit); over it counts as unknown.")] = 15.0,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first K puzzles.")] = None,
    instances: Annotated[bool | None, typer.Option(
        "--instances/--no-instances", help="Print the per-instance table (puzzle, each "
        f"method's time and status); default: for up to {AUTO_INSTANCES} puzzles.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Write the time-per-puzzle plot here (log scale, timeouts marked; PNG, SVG or "
        "PDF by the extension).", parser=image_path, metavar="FILE")] = None,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
    variant: VariantOption = VariantChoice.STANDARD,
) -> None:
    """Run several methods on the same puzzles; print the per-instance table (each method's
    time and status per puzzle) and a table per method: solved, unknown, nodes, backtracks,
    checks, total and median time. Exit code 1 when an input record is invalid (reported on
    stderr; the others are compared)."""
    from itertools import islice

    from rich.console import Console

    from ..present.plots import save_figure, times_figure
    from ..present.render import progress
    from ..run.compare import (
        check_supported,
        compare,
        comparison_table,
        instance_table,
        puzzle_name,
        sudoku_runners,
    )
    from ..run.output import names_file, parse_option
    from ._common import puzzle_records

    names = _labels(methods)
    options = dict(parse_option(text) for text in option or ())
    runners = sudoku_runners(names, time_limit=time_limit or None, **options)
    records = islice(puzzle_records([file], box=box, variant=variant), limit)
    found, puzzles = _puzzles(records)
    puzzles = check_supported(names, puzzles)
    if not puzzles:
        print(f"sudokit: no puzzle to compare in {file}", file=sys.stderr)
        raise typer.Exit(1)
    # the tables come after the counter is cleared: it may share the terminal
    with progress(sys.stderr.isatty(), total=len(puzzles) * len(runners),
                  unit="runs") as advance:
        comparison = compare(puzzles, runners, time_limit=time_limit or None,
                             progress=lambda _method, _index: advance(1), names=puzzle_name)
    console = Console(width=None if sys.stdout.isatty() else 160)
    name = file if file == "-" or names_file(file) else "<argument 1>"  # not a whole literal
    if instances or (instances is None and len(puzzles) <= AUTO_INSTANCES):
        console.print(instance_table(comparison, f"{name}: per puzzle"))
    console.print(comparison_table(comparison, f"{name}: {len(puzzles)} puzzles"))
    if plot:
        with writing(plot, "--plot"):
            save_figure(times_figure(comparison, f"time per puzzle, {name}"), plot)
    raise typer.Exit(1 if len(puzzles) < found else 0)


def _puzzles(records: Iterable[Record]) -> tuple[int, list[Puzzle]]:
    """The number of records and the puzzles among them; each invalid record is reported on
    stderr as it is read, and not kept (a file of a million bad lines held them all: 650 bytes
    each, issue 43 item 8).

    Returns:
        (records read, the puzzles of the valid ones in input order).
    """
    found, puzzles = 0, []
    for found, record in enumerate(records, 1):
        if record.puzzle is None:
            print(f"sudokit: {record.error}", file=sys.stderr)
        else:
            puzzles.append(record.puzzle)
    return found, puzzles


def _labels(methods: str) -> list[str]:
    """Split the --methods list on the commas outside brackets."""
    labels, depth, current = [], 0, ""
    for ch in methods:
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            labels.append(current.strip())
            current = ""
        else:
            current += ";" if ch == "," else ch
    labels.append(current.strip())
    return [label.replace(";", ",") for label in labels if label]
