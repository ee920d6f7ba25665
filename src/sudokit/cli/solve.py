"""``sudokit methods`` and ``sudokit solve``: the main job, streamed block by block."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import typer

from ..output import OutputFormat
from ._app import STARTED, app
from ._common import METHOD_HELP


@app.command("methods")
def methods_command() -> None:
    """List the solving methods with a one-line summary (a table on a terminal)."""
    from ..registry import methods

    if sys.stdout.isatty():
        from rich.console import Console

        from ..render import methods_table

        rows = [(i.name, i.summary, i.available, i.backends) for i in methods()]
        Console().print(methods_table(rows))
        return
    for info in methods():
        mark = "" if info.available else "  (unavailable: missing optional dependency)"
        print(f"{info.name:<18} {info.summary}{mark}")


@app.command("solve")
def solve_command(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Puzzle files, '-' for stdin (the default), or literal puzzles.",
        metavar="INPUT")] = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Record form on stdout.")]
    = OutputFormat.LINE,
    unique: Annotated[bool, typer.Option(help="Count up to 2 solutions: 'multiple' if 2.")] = False,
    method: Annotated[str | None, typer.Option("--method", "-m", help=METHOD_HELP)] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Method option KEY=VALUE (repeatable), e.g. select=mrv.")] = None,
    time_limit: Annotated[float | None, typer.Option(min=0,
        help="Seconds per puzzle (0: no limit); a puzzle over it is 'timeout'.")] = 15.0,
    node_limit: Annotated[int | None, typer.Option(min=0, help="Search nodes per puzzle.")] = None,
    box: Annotated[str | None, typer.Option(help="Box shape RxC, e.g. 2x3 (default: inferred).")]
    = None,
    alphabet: Annotated[str | None, typer.Option(
        help="Symbols of digits 1..N in line form, ranges allowed, e.g. 0-9A-Z.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Parallel workers.")] = 1,
    dask: Annotated[str | None, typer.Option(
        help="Run on a Dask cluster: scheduler address, or 'local' "
        "(pip install 'sudokit\\[dask]').")]
    = None,
    output: Annotated[Path | None, typer.Option(
        "--output", help="Write the records here instead of stdout.")] = None,
    grid_output: Annotated[Path | None, typer.Option(
        help="Also write each solution as a grid drawing here.")] = None,
) -> None:
    """Solve every puzzle of the INPUTs; print one record per puzzle, in input order."""
    from ..blocks import solve_inputs
    from ..output import parse_option
    from ..result import Limits

    options = dict(parse_option(text) for text in option or ())
    if not inputs and sys.stdin.isatty():
        print("sudokit: reading puzzles from the terminal; end with Ctrl-D", file=sys.stderr)
    run = solve_inputs(inputs or ["-"], method, options=options,
                       limits=Limits(time_limit or None, node_limit),
                       count_limit=2 if unique else 1, jobs=jobs, dask=dask, box=box,
                       alphabet=alphabet, fmt=fmt, grids=grid_output is not None)
    with ExitStack() as stack:
        def opened(path: Path | None) -> BinaryIO | None:
            return stack.enter_context(open(path, "wb")) if path else None

        if output is None:
            sys.stdout.flush()
        out, grids = opened(output) or sys.stdout.buffer, opened(grid_output)
        counts, all_ok, seconds = _write_all(run.blocks, out, grids)
    _summary(counts, seconds, run.ready - STARTED)
    raise typer.Exit(0 if counts and all_ok else 1)


def _write_all(blocks: Iterable[Any], out: BinaryIO,
               grids: BinaryIO | None) -> tuple[dict[str, int], bool, float]:
    """Write and flush each block as it arrives (one write per block); report bad input on
    stderr.

    Returns the count of records per status word, whether every record was ok, and the seconds
    from the start of solving to the last record (constant memory in the number of records).
    """
    from ..render import progress
    from ..result import Status

    counts = [0] * len(Status)
    all_ok, start = True, time.perf_counter()
    with progress(sys.stderr.isatty()) as advance:
        for block in blocks:
            out.write(block.text)
            out.flush()
            if grids is not None:
                grids.write(block.grid_text)
                grids.flush()
            for message in block.messages:
                print(message, file=sys.stderr)
            counts = [a + int(b) for a, b in zip(counts, block.counts)]
            all_ok = all_ok and block.ok
            advance(block.size)
    words = {status.word: counts[status] for status in Status if counts[status]}
    return words, all_ok, time.perf_counter() - start


def _summary(counts: dict[str, int], seconds: float, startup: float) -> None:
    from rich.console import Console

    from ..render import summary_table

    Console(stderr=True).print(summary_table(counts, seconds, startup))
