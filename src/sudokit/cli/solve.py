"""``sudokit methods`` and ``sudokit solve``: the main job, streamed block by block."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, BinaryIO, cast

import typer

from ..run.output import OutputFormat
from ._app import STARTED, app
from ._common import (
    JOBS_HELP,
    METHOD_HELP,
    OutputOption,
    Terminated,
    VariantChoice,
    VariantOption,
    dask_address,
    data_on_terminal,
    output_path,
    stopped_by_sigterm,
)
from ._why import WhyOption

if TYPE_CHECKING:
    import numpy as np

    from ..model.result import Status
    from ..run.pipeline import Block, SolveRun
    from ..run.resume import ResumePoint


@app.command("methods")
def methods_command(
    problem: Annotated[str, typer.Option(
        help="The problem type whose methods to list: sudoku or magic.")] = "sudoku",
) -> None:
    """List the solving methods with a one-line summary (a table on a terminal), then the rule
    that picks the default method.

    Described from the registry's catalogue: no method is imported, except for the backends
    column of the terminal table.
    """
    from ..registry import PROBLEMS, default_rule, methods

    if problem not in PROBLEMS:
        raise typer.BadParameter(f"expected one of {', '.join(PROBLEMS)}", param_hint="--problem")
    rule = default_rule() if problem == "sudoku" else None
    if sys.stdout.isatty():
        from rich.console import Console

        from ..present.render import methods_table

        rows = [(i.name, i.summary, i.available, i.backends) for i in methods(problem)]
        console = Console()
        console.print(methods_table(rows))
        if rule:
            console.print(rule, highlight=False, markup=False)
        return
    for info in methods(problem):
        mark = "" if info.available else "  (unavailable: missing optional dependency)"
        print(f"{info.name:<18} {info.summary}{mark}")
    if rule:
        print(f"\n{rule}")


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
    variant: VariantOption = VariantChoice.STANDARD,
    alphabet: Annotated[str | None, typer.Option(
        help="Symbols of digits 1..N in line form, ranges allowed, e.g. 0-9A-Z.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help=JOBS_HELP)] = 1,
    dask: Annotated[str | None, typer.Option(
        help="Run on a Dask cluster: 'local' or HOST:PORT. (pip install 'sudokit[dask]')",
        parser=dask_address, metavar="ADDRESS")]
    = None,
    output: OutputOption = None,
    grid_output: Annotated[Path | None, typer.Option(
        help="Also write each solution as a grid drawing here.", parser=output_path,
        metavar="FILE")] = None,
    skip_header: Annotated[bool, typer.Option(
        help="The first line of each file (and of stdin) is a title, not a puzzle: skip it.")]
    = False,
    resume: Annotated[bool, typer.Option(
        help="Continue an interrupted run: keep the complete records of --output (and "
        "--grid-output), skip their puzzles, append the rest.")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No summary table on stderr (errors are still said).")] = False,
    why: WhyOption = False,
) -> None:
    """Solve every puzzle of the INPUTs; print one record per puzzle, in input order.

    Ctrl-C or SIGTERM stops the run: every record written so far is complete, the summary is
    printed, and the exit code is 130 (143 for SIGTERM); ``--resume`` continues it.

    With ``--why`` each record is instead the puzzle's verdict (unique, none, several) and why
    (a ``why`` field with ``-f jsonl``; text otherwise); exit 0 when every puzzle is unique.
    """
    from ..model.result import Limits
    from ..present.render import progress
    from ..run.output import check_outputs
    from ..run.pipeline import solve_inputs
    from ._common import check_arguments, jobs_cap, show_progress
    from .typed import solve_typed, typing_at_terminal

    # ..render imports Rich (~50 ms): loaded here, in start-up, not in the solving time
    sources = inputs or ["-"]
    if why:
        from ._common import puzzle_records
        from ._why import solve_why

        if output or grid_output or resume or dask or jobs > 1 or fmt is OutputFormat.GRID:
            raise typer.BadParameter("--why writes its records to stdout, as text or -f jsonl, "
                                     "in one process (no --output, --grid-output, --resume, "
                                     "--jobs, --dask or -f grid)", param_hint="--why")

        unique = solve_why(puzzle_records(sources, box=box, alphabet=alphabet,
                                          variant=variant, skip_header=skip_header),
                           fmt is OutputFormat.JSONL, time_limit)
        raise typer.Exit(0 if unique else 1)
    check_outputs(sources, output, grid_output)  # before anything is opened
    options, point = _prepared(sources, option, resume, output, fmt)
    check_arguments(sources, box=box, alphabet=alphabet, variant=variant.value)
    limits, count_limit = Limits(time_limit or None, node_limit), 2 if unique else 1
    with stopped_by_sigterm(exits=True):
        if typing_at_terminal(sources):
            run = solve_typed(method, options, limits, count_limit, box=box, alphabet=alphabet,
                              fmt=fmt, grids=grid_output is not None, variant=variant.value)
        else:
            run = solve_inputs(sources, method, options=options, limits=limits,
                               count_limit=count_limit, jobs=jobs_cap(jobs), dask=dask,
                               box=box, alphabet=alphabet, fmt=fmt,
                               grids=grid_output is not None, resume=point,
                               skip_header=skip_header, variant=variant.value,
                               checked=True, started=_command_start())
        tally = _write_run(run, output, grid_output, point, progress(show_progress(output)))
    _finish(tally, None if quiet else run.ready, point, output, sources)


def _command_start() -> float | None:
    """When the command started, for limits that count from it: the process's start when
    run as the program; None when invoked in a caller's process (its start is not ours)."""
    from . import _background

    return STARTED if _background.AS_PROGRAM else None


def _prepared(inputs: list[str], option: list[str] | None, resume: bool,
              output: Path | None, fmt: OutputFormat) -> tuple[dict[str, str], ResumePoint]:
    """The method options and the point to resume from (none unless ``--resume``); says on
    stderr when puzzles are read from the terminal.

    Raises:
        typer.BadParameter: ``--resume`` without ``--output``, or a malformed ``--option``.
        ResumeError: the output file cannot be resumed.
    """
    from ..run.output import parse_option
    from ..run.resume import ResumePoint, scan_output

    if resume and output is None:
        raise typer.BadParameter("--resume continues the file of --output", param_hint="--resume")
    options = dict(parse_option(text) for text in option or ())
    point = scan_output(output, fmt) if resume and output else ResumePoint()
    if inputs == ["-"] and sys.stdin.isatty():
        print("sudokit: reading puzzles from the terminal, one answer per puzzle; end with "
              "Ctrl-D", file=sys.stderr)
    return options, point


def _write_run(run: SolveRun, output: Path | None, grid_output: Path | None, point: ResumePoint,
               counter: AbstractContextManager[Callable[[int], None]]) -> _Tally:
    """Open the outputs (cut after the complete records when resuming) and write the run's
    blocks to them (:func:`_write_all`)."""
    grid_offset = _grid_offset(grid_output, point.records)  # checked before any cut
    with ExitStack() as stack:
        if output is None:
            sys.stdout.flush()
        out = _opened(stack, output, point.offset) or sys.stdout.buffer
        grids = _opened(stack, grid_output, grid_offset)
        return _write_all(run.blocks, out, grids, point.counts, counter,
                          quiet=data_on_terminal(output))


def _finish(tally: _Tally, ready: float | None, point: ResumePoint, output: Path | None,
            sources: list[str]) -> None:
    """Print the summary (not with ``ready`` None: ``--quiet``), say why a stopped run
    stopped or that the input held no puzzle, and exit with the run's code.

    Raises:
        typer.Exit: always: 0 when every puzzle was solved, 1 when some was not, 130 after
            Ctrl-C, 143 after SIGTERM.
    """
    if ready is not None:
        _summary(tally.by_status(), tally.seconds, ready - STARTED, point.records)
    if not tally.counts.any() and tally.stopped is None:
        names = ", ".join("<stdin>" if s == "-" else s for s in sources)
        print(f"sudokit: no puzzle found in {names}", file=sys.stderr)
    if tally.stopped is not None:
        print(f"sudokit: {tally.stopped}: every record written is complete"
              + (f"; continue with --resume --output {output}" if output else ""),
              file=sys.stderr)
        raise typer.Exit(143 if tally.stopped == "terminated" else 130)
    raise typer.Exit(0 if tally.counts.any() and tally.ok and point.all_ok else 1)


def _opened(stack: ExitStack, path: Path | None, offset: int | None) -> BinaryIO | None:
    """Open an output file: from scratch, or (resuming) cut after ``offset`` bytes of complete
    records and appended to."""
    from ._writing import open_output

    if path is None:
        return None
    # an OutputFile has the methods of a binary file the writers use, its failures named
    if not offset:
        return cast(BinaryIO, stack.enter_context(open_output(path, "wb")))
    stream = stack.enter_context(open_output(path, "r+b"))
    stream.truncate(offset)
    stream.seek(offset)
    return cast(BinaryIO, stream)


def _grid_offset(path: Path | None, records: int) -> int | None:
    """Bytes of the first ``records`` records of a --grid-output file (resuming).

    Raises:
        ResumeError: the file holds fewer records (it is written before --output, so it holds
            at least as many unless it was changed).
    """
    from ..run.output import OutputFormat
    from ..run.resume import ResumeError, scan_output

    if path is None or not records:
        return None
    point = scan_output(path, OutputFormat.GRID, limit=records)
    if point.records < records:
        raise ResumeError(f"--resume: {path} holds {point.records} complete grids, "
                          f"--output {records} records; cannot resume --grid-output")
    return point.offset


@dataclass
class _Tally:
    """What a run wrote: records per status code, all ok, seconds, and why it stopped early
    ('interrupted', 'terminated') or None."""

    counts: np.ndarray  # int64[len(Status)]
    ok: bool = True
    seconds: float = 0.0
    stopped: str | None = None

    def by_status(self) -> dict[Status, int]:
        """The non-zero counts, keyed by :class:`~sudokit.model.result.Status`."""
        from ..model.result import Status

        return {status: int(self.counts[status]) for status in Status if self.counts[status]}


def _write_all(blocks: Iterable[Block], out: BinaryIO, grids: BinaryIO | None,
               before: np.ndarray, counter: AbstractContextManager[Callable[[int], None]],
               quiet: bool = False) -> _Tally:
    """Write and flush each block as it arrives (one write per block, the grid file first);
    report bad input on stderr (unless ``quiet``: the records on the terminal say it); stop
    cleanly on Ctrl-C or SIGTERM.

    Args:
        before: int64[len(Status)] records an earlier run wrote (``--resume``).
        counter: the live counter (:func:`sudokit.present.render.progress`), entered here.
        quiet: the records are on the terminal stderr shows: no second copy of their errors.

    Returns the records per status (``before`` included), whether every new record was ok, the
    seconds from the start of solving to the last record, and why the run stopped early.
    """
    tally, start = _Tally(before.copy()), time.perf_counter()
    try:
        with counter as advance:
            for block in blocks:
                if grids is not None:
                    grids.write(block.grid_text)
                    grids.flush()
                out.write(block.text)
                out.flush()
                for message in () if quiet else block.messages:
                    print(message, file=sys.stderr)
                tally.counts += block.counts
                tally.ok = tally.ok and block.ok
                advance(block.size)
    except KeyboardInterrupt as exc:
        tally.stopped = "terminated" if isinstance(exc, Terminated) else "interrupted"
    tally.seconds = time.perf_counter() - start - getattr(blocks, "waited", 0.0)
    return tally


def _summary(counts: Mapping[Status, int], seconds: float, startup: float, resumed: int) -> None:
    from rich.console import Console

    from ..present.render import summary_table

    Console(stderr=True).print(summary_table(counts, seconds, startup, resumed=resumed))
