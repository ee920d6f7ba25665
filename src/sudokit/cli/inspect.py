"""``sudokit show``, ``cnf`` and ``trace``: look inside one puzzle (or each of a file)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..run.inspect import PropagationChoice
from ..sat.encoding import Encoding
from ._app import app
from ._common import (
    INDEX_HELP,
    METHOD_HELP,
    PUZZLE_HELP,
    VariantChoice,
    VariantOption,
    image_path,
    one_puzzle,
    output_path,
    puzzle_records,
    read_argument,
    writing,
)

if TYPE_CHECKING:
    from ..model.puzzle import Puzzle


class TraceFormat(str, Enum):
    """What ``sudokit trace`` prints per puzzle."""

    TEXT = "text"  # outcome, counters, whether AC-3 alone solved it
    REPORT = "report"  # the same, then the puzzle, the grid after AC-3 and the solution


@app.command("show")
def show_command(
    puzzle: Annotated[str, typer.Argument(help=PUZZLE_HELP)],
    after: Annotated[PropagationChoice, typer.Option(
        help="Inference applied before listing candidates: none (the givens alone, every "
        "digit in empty cells), eliminate (one pass), only-choice "
        "(one elimination pass, then one only-choice pass), propagate (all rules to a "
        "fixpoint) or ac3.")]
    = PropagationChoice.NONE,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
    variant: VariantOption = VariantChoice.STANDARD,
    index: Annotated[int | None, typer.Option(min=1, metavar="K", help=INDEX_HELP)] = None,
    png: Annotated[Path | None, typer.Option(
        help="Also draw the puzzle (and with --solve its solution, lighter) as a PNG here "
        "(Matplotlib; SVG or PDF by the extension).", parser=image_path, metavar="FILE")]
    = None,
    solve: Annotated[bool, typer.Option(
        "--solve", help="Solve the puzzle and draw the verified solution digits (cyan in the "
        "terminal, lighter than the givens in the PNG).")] = False,
    method: Annotated[str | None, typer.Option(
        "--method", "-m", help=METHOD_HELP + " Used with --solve.")] = None,
) -> None:
    """Draw a puzzle and the candidates of every cell (after optional inference): regions,
    killer cages with their totals, even/odd cells and multi-grid layouts included; the rules
    drawn on the grid (thermometers, arrows, dots, lines, outside clues) are listed under the
    grid and drawn in the PNG."""
    from rich.console import Console

    from ..formats.outline import legend
    from ..present.render import candidates_grid, grid_text, rules_legend
    from ..run.inspect import candidates_after

    parsed = one_puzzle(puzzle, index=index, box=box, variant=variant)
    console = Console()
    solution = _solution(parsed, method) if solve else None
    # soft_wrap: a line wider than the terminal (a samurai canvas, candidates) is never cut
    console.print(grid_text(parsed, solution), end="", soft_wrap=True)
    for line in legend(parsed.geometry) + rules_legend(parsed.geometry, console.width):
        console.print(line, style="dim", highlight=False)
    console.print(f"\ncandidates ({after.value}):")
    console.print(candidates_grid(parsed, candidates_after(parsed, after), console.width),
                  end="", soft_wrap=True)
    if png is not None:
        from ..present.plots import puzzle_figure, save_figure

        with writing(png, "--png"):
            save_figure(puzzle_figure(parsed, solution), png)
    if solve and solution is None:
        raise typer.Exit(1)


def _solution(puzzle: Puzzle, method: str | None) -> tuple[int, ...] | None:
    """The verified solution of ``sudokit show --solve``, or None after saying on stderr why
    there is none (unsolvable, or the method gave up)."""
    from ..run.doors import solve

    result = solve(puzzle, method)
    if result.solution:
        return result.solution
    reason = f": {result.message}" if result.message else ""
    print(f"sudokit: {result.label.word}{reason}", file=sys.stderr)
    return None


@app.command("cnf")
def cnf_command(
    paths: Annotated[list[str], typer.Argument(
        help="A puzzle (any form), a puzzle file or '-' for stdin; with --decode: the CNF "
        "file and the solver's output or model file.", metavar="PUZZLE | CNF MODEL")],
    encoding: Annotated[Encoding, typer.Option(help="Clause families (see README, SAT).")]
    = Encoding.EXTENDED,
    decode: Annotated[bool, typer.Option(
        "--decode", help="Turn a solver's answer for a CNF written here back into a grid.")]
    = False,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
    alphabet: Annotated[str | None, typer.Option(
        help="Symbols of digits 1..N in line form, ranges allowed, e.g. 0-9A-Z.")] = None,
    variant: VariantOption = VariantChoice.STANDARD,
    index: Annotated[int | None, typer.Option(min=1, metavar="K", help=INDEX_HELP)] = None,
) -> None:
    """Write a puzzle as DIMACS CNF on stdout, or decode a SAT solver's model into a grid."""
    from ..formats.text import format_line
    from ..sat.dimacs import decode_answer, sat_word, write_sudoku_cnf

    if decode:
        if index is not None:
            raise typer.BadParameter("--index picks a puzzle; --decode reads a CNF and a model",
                                     param_hint="--index")
        if len(paths) != 2:
            raise typer.BadParameter("--decode takes CNF_FILE MODEL_FILE", param_hint="PATHS")
        texts = [read_argument(path)[0] for path in paths]
        puzzle, output, grid = decode_answer(*texts, cnf_source=paths[0], answer_source=paths[1])
        if grid is None:
            print(f"sudokit: {paths[1]}: the solver answered {sat_word(output.outcome)}",
                  file=sys.stderr)
            raise typer.Exit(1)
        print(format_line(grid, puzzle.geometry))
        return
    if len(paths) != 1:
        raise typer.BadParameter("expected one PUZZLE (or --decode CNF_FILE MODEL_FILE)",
                                 param_hint="PATHS")
    write_sudoku_cnf(sys.stdout, one_puzzle(paths[0], index=index, box=box, alphabet=alphabet,
                                            variant=variant), encoding)


@app.command("trace")
def trace_command(
    puzzle: Annotated[str, typer.Argument(help=PUZZLE_HELP)],
    method: Annotated[str, typer.Option("--method", "-m", help="An AC-3 method (mac).")] = "mac",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Method option KEY=VALUE (repeatable), e.g. select=mrv.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Write the AC-3 queue-length plot here (PNG, SVG or PDF); for several puzzles, "
        "one per puzzle: PLOT-1.png, PLOT-2.png, ...", parser=image_path, metavar="FILE")]
    = None,
    data: Annotated[Path | None, typer.Option(
        help="Write the queue lengths here, one step per line (numbered like --plot).",
        parser=output_path, metavar="FILE")] = None,
    time_limit: Annotated[float, typer.Option(min=0, help="Seconds (0: no limit).")] = 15.0,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
    variant: VariantOption = VariantChoice.STANDARD,
    index: Annotated[int | None, typer.Option(
        min=1, metavar="K", help="Trace only the K-th puzzle of the input (1-based); default: "
        "every puzzle, one plot each.")] = None,
    fmt: Annotated[TraceFormat, typer.Option(
        "--format", "-f", help="report: also draw the puzzle, the grid after AC-3 alone and "
        "the solution side by side.")] = TraceFormat.TEXT,
) -> None:
    """Solve puzzles with the per-step trace on: print the outcome, the counters and whether
    AC-3 alone solved the puzzle or search was needed, and optionally plot the AC-3 queue
    length (x: step, y: arcs queued)."""
    from itertools import chain, islice

    from ..run.output import parse_option, pick_puzzle

    options = dict(parse_option(item) for item in option or ())
    if index is not None:
        parsed = one_puzzle(puzzle, index=index, box=box, variant=variant)
        ok = _trace_one(parsed, method, options, time_limit, plot, data, fmt)
        raise typer.Exit(0 if ok else 1)
    records = puzzle_records([puzzle], box=box, variant=variant)
    head = list(islice(records, 2))
    if len(head) < 2:  # one puzzle: plain file names
        ok = _trace_one(pick_puzzle(head, puzzle), method, options, time_limit, plot, data,
                        fmt)
        raise typer.Exit(0 if ok else 1)
    all_ok = True
    for number, record in enumerate(chain(head, records), 1):
        if record.puzzle is None:  # an invalid record (its error says why)
            print(f"sudokit: {record.error}", file=sys.stderr)
            all_ok = False
            continue
        print(f"# {number}: {record.source}:{record.line}")
        all_ok &= _trace_one(record.puzzle, method, options, time_limit,
                             _numbered(plot, number), _numbered(data, number), fmt)
    raise typer.Exit(0 if all_ok else 1)


def _ac3_verdict(after: list[tuple[int, ...]] | None, n_cells: int) -> str:
    """Whether AC-3 alone solved the puzzle, proved it unsolvable, or left search to do."""
    if after is None:
        return "unsolvable (AC-3 alone emptied a domain)"
    decided = sum(len(ds) == 1 for ds in after)
    if decided == n_cells:
        return "solved (AC-3 alone decided every cell; the search only confirmed them)"
    return f"search needed ({decided} of {n_cells} cells decided by AC-3 alone)"


def _numbered(path: Path | None, number: int) -> Path | None:
    """``queue.png`` -> ``queue-3.png`` for the third puzzle of a file."""
    return path and path.with_name(f"{path.stem}-{number}{path.suffix}")


def _trace_one(puzzle: Puzzle, method: str, options: dict[str, Any], time_limit: float,
               plot: Path | None, data: Path | None, fmt: TraceFormat = TraceFormat.TEXT) -> bool:
    """Solve one puzzle with the trace on, print its outcome and counters, write the plot and
    the data; return whether it was solved."""
    from ..formats.text import format_line, format_panels
    from ..model.result import Status
    from ..present.plots import queue_figure, save_figure
    from ..run.doors import solve
    from ..run.inspect import PropagationChoice, candidates_after

    result = solve(puzzle, method, time_limit=time_limit or None, trace=True, **options)
    trace = result.stats.trace or []
    if (plot or data) and not trace:
        raise typer.BadParameter(f"method {method!r} records no AC-3 queue trace; use mac",
                                 param_hint="--method")
    solution = format_line(result.solution, puzzle.geometry) if result.solution else ""
    print(f"{result.label!s} {solution}".rstrip())
    for name, value in result.stats.as_dict().items():
        if value is not None:
            print(f"{name:<13} {value}")
    print(f"{'ac3_steps':<13} {len(trace)}\n{'seconds':<13} {result.seconds:.4f}")
    after = candidates_after(puzzle, PropagationChoice.AC3)
    print(f"{'ac3_alone':<13} {_ac3_verdict(after, puzzle.geometry.n_cells)}")
    if fmt is TraceFormat.REPORT:
        ac3_grid = tuple(ds[0] if len(ds) == 1 else 0 for ds in after) if after else None
        print(format_panels([("puzzle", puzzle.givens), ("after AC-3", ac3_grid),
                             ("solution", result.solution)], puzzle.geometry), end="")
    if data:
        with writing(data, "--data"):
            data.write_text("".join(f"{n}\n" for n in trace), encoding="utf-8")
    if plot:
        where = f"{puzzle.source}:{puzzle.source_line}" if puzzle.source else "the puzzle"
        with writing(plot, "--plot"):
            save_figure(queue_figure(trace, f"AC-3 queue length, {result.method} on {where}"),
                        plot)
    return result.status is Status.SOLVED
