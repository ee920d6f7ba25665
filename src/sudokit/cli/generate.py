"""``sudokit generate``: new puzzles, streamed as they are made, in the forms ``solve`` writes."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, BinaryIO, cast

import typer

from ..generator.symmetry import Symmetry
from ..run.output import OutputFormat
from ._app import app
from ._common import (
    JOBS_HELP,
    OutputOption,
    RulesOption,
    Terminated,
    VariantChoice,
    stopped_by_sigterm,
)

if TYPE_CHECKING:
    from ..generator import Generated


def format_generated(item: Generated, fmt: OutputFormat, with_solution: bool) -> str:
    """One output record (ending in a newline) for a :class:`~sudokit.generator.Generated`.

    Line form: the puzzle in line form, or with ``with_solution`` tdoku's
    ``puzzle:1:solution`` (``sudokit solve`` reads it back and checks the solution). Grid form:
    a ``#`` header (index, givens, rating), the puzzle drawn (beside its solution with
    ``with_solution``) and a blank line. JSON lines: the fields of ``Generated.as_dict`` (the
    solution only with ``with_solution``).
    """
    from ..formats.text import format_grid, format_line, format_side_by_side

    if fmt is OutputFormat.JSONL:
        record = item.as_dict()
        if not with_solution:
            del record["solution"]
        return json.dumps(record) + "\n"
    if fmt is OutputFormat.LINE:
        if with_solution:
            return f"{item.line}:1:{format_line(item.solution)}\n"
        return item.line + "\n"
    header = f"# puzzle {item.index + 1}: {item.givens} givens"  # counted from 1, as --start
    if item.symmetry.value != "none":
        header += f", {item.symmetry.value}"
    header += ", minimal" if item.minimal else ""
    if item.rating is not None:
        header += f", rating {item.rating:g} ({item.rater})"
        header += f", {item.level}" if item.level else ""
    if item.hardest is not None:
        header += f", hardest step: {item.hardest}"
    drawing = (format_side_by_side(item.puzzle, item.solution) if with_solution
               else format_grid(item.puzzle.givens, item.puzzle.geometry))
    return f"{header}\n{drawing}\n"


MAX_START = 2**63 - 2**32
"""The largest ``--start``: puzzle numbers are 64-bit stream keys."""


@app.command("generate")
def generate_command(
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="Puzzles to make.")] = 1,
    size: Annotated[int | None, typer.Option(
        "--size", "-s", min=1, max=64, help="Grid side N (default 9; usual box shape).")] = None,
    box: Annotated[str | None, typer.Option(
        help="Box shape RxC, e.g. 2x3 or 3x4 (sets the size).")] = None,
    variant: RulesOption = VariantChoice.STANDARD,
    symmetry: Annotated[Symmetry, typer.Option(
        help="Symmetry of the givens pattern.")] = Symmetry.NONE,
    minimal: Annotated[bool, typer.Option(
        help="Prove every given necessary (no given can be removed).")] = False,
    givens: Annotated[str | None, typer.Option(
        help="Number of givens: 30, or a range 22-25.")] = None,
    level: Annotated[str | None, typer.Option(
        help="Difficulty: easy, medium, hard, expert or extreme, the levels 'sudokit rate' "
        "prints (bands of Sudoku Explainer's scale; rated with --rater se).")] = None,
    rating: Annotated[str | None, typer.Option(
        help="Rating band LOW-HIGH of the rater, e.g. 2-3.5.")] = None,
    rater: Annotated[str | None, typer.Option(
        help="Difficulty rater: nodes (search nodes; the default) or se (Sudoku Explainer's "
             "scale by human techniques; the default with --level).")] = None,
    needs: Annotated[str | None, typer.Option(
        help="A technique the puzzle's hardest step must be (e.g. X-Wing, XY-Wing, "
             "'Unique Rectangle'), or a family: singles, intersections, subsets, fish, "
             "single-digit, wings, chains, als, uniqueness, forcing, rules.")] = None,
    uses: Annotated[str | None, typer.Option(
        help="A technique (or family) some step of the puzzle's logical solve must be.")]
    = None,
    rate: Annotated[bool, typer.Option(
        help="Rate every puzzle (grid and jsonl records always carry the rating).")] = False,
    seed: Annotated[int | None, typer.Option(
        min=0, help="Seed (0 or more): the same seed and options give the same puzzles "
        "(default: fresh, printed).")] = None,
    start: Annotated[int, typer.Option(
        min=1, max=MAX_START, help="Number of the first puzzle of the seed's sequence, from 1 "
        "(to continue a run: the number after the last header).")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1,
                                      help=JOBS_HELP + " Threads; output identical for any "
                                      "number.")] = 1,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Record form on stdout.")]
    = OutputFormat.LINE,
    with_solution: Annotated[bool, typer.Option(
        help="Write each solution too (line form: puzzle:1:solution).")] = False,
    node_budget: Annotated[int | None, typer.Option(
        min=0, help="Search nodes per removal check without --minimal (default 100 up to 9x9, 10 "
             "above).")] = None,
    max_tries: Annotated[int, typer.Option(
        min=1, help="Grids per puzzle before giving up on a givens or rating band.")] = 10_000,
    output: OutputOption = None,
    time_limit: Annotated[float | None, typer.Option(
        min=0, help="Seconds for the whole run (0: no limit); past it the run stops with its "
        "records complete (exit code 1).")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No summary table (and no seed line) on stderr.")] = False,
) -> None:
    """Make new puzzles with exactly one solution; print one record per puzzle as it is made.

    The summary on stderr (for more than one puzzle; --quiet: none) gives the mean givens, the
    time and the seed; a fresh seed is printed even for one puzzle, so it can be made again.
    Exit code 1 when no grid satisfies the rules, or no puzzle met a givens or rating band
    within --max-tries grids, or --time-limit passed; Ctrl-C and SIGTERM stop the run within
    a second with its records complete (130, 143)."""
    from ..generator import GenerationError
    from ..generator.engine import new_seed
    from ..run.generate import generate
    from ._background import TimeLimit, exit_now_if_busy, in_background
    from ._common import jobs_cap, show_progress
    from ._writing import open_output

    run_seed = new_seed() if seed is None else seed
    began = time.perf_counter()
    tally = _Tally()
    try:
        with stopped_by_sigterm():
            made = in_background(lambda: generate(
                count, size=size, box=box, variant=variant.value, symmetry=symmetry.value,
                minimal=minimal, givens=givens, level=level, rating=rating, rater=rater,
                rate=rate or fmt is not OutputFormat.LINE, seed=run_seed, start=start - 1,
                jobs=jobs_cap(jobs, count), node_budget=node_budget, max_tries=max_tries,
                needs=needs, uses=uses),
                time_limit or None)
            made = _first(made)  # options checked (and a grid proved) before a file is opened
            if output is None:
                sys.stdout.flush()
            with open_output(output) if output else _stdout() as out:
                _write_all(made, cast(BinaryIO, out), fmt, with_solution,
                           count if show_progress(output) else None, tally)
    except GenerationError as exc:
        tally.stopped = f"error: {exc}"
    except TimeLimit as exc:
        tally.stopped = f"error: {exc}: every record written is complete"
    except KeyboardInterrupt as exc:
        tally.stopped = "terminated" if isinstance(exc, Terminated) else "interrupted"
    if not quiet and (tally.total > 1 or (tally.total and (needs or uses))):
        _summary(tally, time.perf_counter() - began, run_seed, seed is None)
    elif not quiet and seed is None and tally.total:
        print(f"sudokit: seed {run_seed} (pass --seed {run_seed} to make it again)",
              file=sys.stderr)
    if tally.stopped is not None:
        print(f"sudokit: {tally.stopped}" + ("" if tally.stopped.startswith("error")
              else ": every record written is complete"), file=sys.stderr)
        code = {"terminated": 143, "interrupted": 130}.get(tally.stopped, 1)
        exit_now_if_busy(code)  # kernels still running on abandoned threads: do not wait
        raise typer.Exit(code)


def _first(made: Iterator[Generated]) -> Iterator[Generated]:
    """``made`` with its first item (or its error) already waited for: bad options and
    impossible rules raise here, before the output is opened."""
    import itertools

    first = next(made, None)
    return made if first is None else itertools.chain([first], made)


@dataclass
class _Tally:
    """What a run wrote, and why it stopped early (None: it did not)."""

    total: int = 0
    givens: int = 0
    minimal: int = 0
    stopped: str | None = None


class _stdout:
    """``sys.stdout.buffer`` as a context manager that does not close it."""

    def __enter__(self) -> BinaryIO:
        return sys.stdout.buffer

    def __exit__(self, *exc: object) -> None:
        sys.stdout.flush()


def _write_all(made: Iterator[Generated], out: BinaryIO, fmt: OutputFormat, with_solution: bool,
               counted: int | None, tally: _Tally) -> None:
    """Write each puzzle as it is made, counting it in ``tally``; ``counted``: the total of the
    live counter (None: no counter, see :func:`sudokit.cli._common.show_progress`)."""
    from ..present.render import progress

    with progress(counted is not None, total=counted) as advance:
        for item in made:
            out.write(format_generated(item, fmt, with_solution).encode())
            out.flush()
            tally.total += 1
            tally.givens += item.givens
            tally.minimal += item.minimal
            advance(1)


def _summary(tally: _Tally, seconds: float, seed: int, fresh: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="sudokit generate", title_justify="left", show_edge=False)
    table.add_column("")
    table.add_column("", justify="right")
    total = tally.total
    table.add_row("puzzles", f"{total:,}")
    if total:
        table.add_row("mean givens", f"{tally.givens / total:.1f}")
        table.add_row("proven minimal", f"{tally.minimal:,}")
    table.add_row("seconds", f"{seconds:.3f}")
    table.add_row("puzzles/s", f"{total / seconds:,.1f}" if seconds > 0 else "-")
    table.add_row("puzzles/min", f"{60 * total / seconds:,.1f}" if seconds > 0 else "-")
    table.add_row("seed", f"{seed}" + (" (fresh: pass --seed to repeat)" if fresh else ""))
    Console(stderr=True).print(table)
