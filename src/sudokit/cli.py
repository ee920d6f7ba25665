"""The ``sudokit`` command: a thin Typer app over the library.

Each command parses arguments, calls the library and renders; ``SudokuError`` becomes one stderr
message in :func:`main`. Exit codes: 0 all solved; 1 ran, but some puzzle was unsolvable, unknown
or invalid; 2 usage error.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from contextlib import ExitStack
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from .errors import SudokuError
from .output import OutputFormat
from .sat.encoding import Encoding


class Inference(str, Enum):
    """What ``sudokit show --after`` applies before listing candidates."""

    NONE = "none"
    PROPAGATE = "propagate"
    AC3 = "ac3"

app = typer.Typer(
    name="sudokit",
    help="Solve Sudoku-family puzzles and related constraint problems by many methods.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Solve Sudoku-family puzzles and related constraint problems by many methods."""


@app.command("methods")
def methods_command() -> None:
    """List the solving methods with a one-line summary."""
    from .registry import methods

    for info in methods():
        mark = "" if info.available else "  (unavailable: missing optional dependency)"
        print(f"{info.name:<18} {info.summary}{mark}")


_METHOD_HELP = "Method name (see 'sudokit methods'); default: the fastest available."


@app.command("solve")
def solve_command(
    inputs: Annotated[list[str], typer.Argument(
        help="Puzzle files, '-' for stdin, or literal puzzles.", metavar="[INPUT]...")],
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Record form on stdout.")]
    = OutputFormat.LINE,
    unique: Annotated[bool, typer.Option(help="Count up to 2 solutions: 'multiple' if 2.")] = False,
    method: Annotated[str | None, typer.Option("--method", "-m", help=_METHOD_HELP)] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Method option KEY=VALUE (repeatable), e.g. select=mrv.")] = None,
    time_limit: Annotated[float | None, typer.Option(
        help="Seconds per puzzle (0: no limit); a puzzle over it is 'timeout'.")] = 15.0,
    node_limit: Annotated[int | None, typer.Option(help="Search nodes per puzzle.")] = None,
    box: Annotated[str | None, typer.Option(help="Box shape RxC, e.g. 2x3 (default: inferred).")]
    = None,
    alphabet: Annotated[str | None, typer.Option(
        help="Symbols of digits 1..N in line form, ranges allowed, e.g. 0-9A-Z.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Parallel workers.")] = 1,
    output: Annotated[Path | None, typer.Option(
        "--output", help="Write the records here instead of stdout.")] = None,
    grid_output: Annotated[Path | None, typer.Option(
        help="Also write each solution as a grid drawing here.")] = None,
) -> None:
    """Solve every puzzle of the INPUTs; print one record per puzzle, in input order."""
    from .batch import solve_records
    from .output import parse_option, read_inputs

    options = dict(parse_option(text) for text in option or ())
    records = read_inputs(inputs, box=box, alphabet=alphabet)
    outcomes = solve_records(records, method, count_limit=2 if unique else 1,
                             time_limit=time_limit or None, node_limit=node_limit, jobs=jobs,
                             **options)
    with ExitStack() as stack:
        out = stack.enter_context(open(output, "w", encoding="utf-8")) if output else sys.stdout
        grids = stack.enter_context(open(grid_output, "w", encoding="utf-8")) if grid_output else None
        labels, seconds = _write_all(outcomes, fmt, out, grids)
    _summary(labels, seconds)
    raise typer.Exit(0 if labels and all(ok for _, ok in labels) else 1)


def _write_all(outcomes: Iterable[Any], fmt: OutputFormat, out: TextIO,
               grids: TextIO | None) -> tuple[list[tuple[str, bool]], float]:
    """Write and flush each record as it arrives; report bad input on stderr."""
    from .output import format_outcome, solution_grid
    from .render import progress

    labels, start = [], time.perf_counter()
    with progress(sys.stderr.isatty()) as advance:
        for outcome in outcomes:
            out.write(format_outcome(outcome, fmt))
            out.flush()
            if grids is not None:
                grids.write(solution_grid(outcome))
                grids.flush()
            if outcome.error and outcome.label.value in ("invalid", "solved", "multiple"):
                print(f"sudokit: {outcome.record.source}:{outcome.record.line}: {outcome.error}"
                      if outcome.label.value != "invalid" else f"sudokit: {outcome.error}",
                      file=sys.stderr)
            labels.append((outcome.label.value, outcome.ok))
            advance()
    return labels, time.perf_counter() - start


def _summary(labels: list[tuple[str, bool]], seconds: float) -> None:
    from rich.console import Console

    from .render import summary_table

    Console(stderr=True).print(summary_table((label for label, _ in labels), seconds))


@app.command("show")
def show_command(
    puzzle: Annotated[str, typer.Argument(help="A puzzle (any form) or a file holding one.")],
    after: Annotated[Inference, typer.Option(help="Inference applied before listing candidates.")]
    = Inference.NONE,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
) -> None:
    """Draw a puzzle and the candidates of every cell (after optional inference)."""
    from rich.console import Console

    from .formats import parse_puzzle
    from .render import candidates_table, grid_text

    path = Path(puzzle)
    text, source = (path.read_text(encoding="utf-8-sig"), puzzle) if path.is_file() else (
        puzzle, "<argument>")
    parsed = parse_puzzle(text, box=box, source=source)
    console = Console()
    console.print(grid_text(parsed), end="")
    console.print(f"\ncandidates ({after.value}):")
    console.print(candidates_table(parsed, _candidates(parsed, after)), end="")


def _candidates(puzzle: Any, after: Inference) -> list[tuple[int, ...]] | None:
    if after is Inference.AC3:
        from .csp.sudoku import ac3_candidates

        return ac3_candidates(puzzle)
    if after is Inference.PROPAGATE:
        from .propagation import PropagationState

        state = PropagationState(puzzle)
        return state.candidates() if state.assign_givens() else None
    return [puzzle.candidates(cell) for cell in range(puzzle.geometry.n_cells)]


@app.command("cnf")
def cnf_command(
    paths: Annotated[list[str], typer.Argument(
        help="A puzzle (any form), a file holding one or '-' for stdin; with --decode: the CNF "
        "file and the solver's output or model file.", metavar="PUZZLE | CNF MODEL")],
    encoding: Annotated[Encoding, typer.Option(help="Clause families (see README, SAT).")]
    = Encoding.EXTENDED,
    decode: Annotated[bool, typer.Option(
        "--decode", help="Turn a solver's answer for a CNF written here back into a grid.")]
    = False,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
    alphabet: Annotated[str | None, typer.Option(
        help="Symbols of digits 1..N in line form, ranges allowed, e.g. 0-9A-Z.")] = None,
) -> None:
    """Write a puzzle as DIMACS CNF on stdout, or decode a SAT solver's model into a grid."""
    from .formats import format_line, parse_puzzle
    from .sat.dimacs import decode_answer, write_sudoku_cnf

    if decode:
        if len(paths) != 2:
            raise typer.BadParameter("--decode takes CNF_FILE MODEL_FILE", param_hint="PATHS")
        texts = [_read_argument(path, literal=False)[0] for path in paths]
        puzzle, output, grid = decode_answer(*texts, cnf_source=paths[0], answer_source=paths[1])
        if grid is None:
            print(f"sudokit: {paths[1]}: the solver answered {output.outcome.value}",
                  file=sys.stderr)
            raise typer.Exit(1)
        print(format_line(grid, puzzle.geometry))
        return
    if len(paths) != 1:
        raise typer.BadParameter("expected one PUZZLE (or --decode CNF_FILE MODEL_FILE)",
                                 param_hint="PATHS")
    text, source = _read_argument(paths[0], literal=True)
    write_sudoku_cnf(sys.stdout, parse_puzzle(text, box=box, alphabet=alphabet, source=source),
                     encoding)


def _read_argument(argument: str, *, literal: bool) -> tuple[str, str]:
    """Return the text of a file argument ('-' is stdin) and its source name.

    A non-file argument is the text itself when ``literal`` (a puzzle typed on the command line).

    Raises:
        typer.BadParameter: not a readable file (and not literal text).
    """
    if argument == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(argument)
    if path.is_file():
        return path.read_text(encoding="utf-8-sig"), argument
    if literal:
        return argument, "<argument>"
    raise typer.BadParameter(f"no such file: {argument}")


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; a SudokuError becomes one stderr line and exit code 2."""
    try:
        app(args=argv)
    except SudokuError as exc:
        print(f"sudokit: error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
