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
from typing import Annotated, Any, BinaryIO

import typer

_STARTED = time.perf_counter()
"""When the command started (start-up is reported apart from solving)."""

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


def _print_version(value: bool) -> None:
    if value:
        from . import __version__

        print(f"sudokit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and exit.")] = False,
) -> None:
    """Solve Sudoku-family puzzles and related constraint problems by many methods."""


@app.command("methods")
def methods_command() -> None:
    """List the solving methods with a one-line summary (a table on a terminal)."""
    from .registry import methods

    if sys.stdout.isatty():
        from rich.console import Console

        from .render import methods_table

        rows = [(i.name, i.summary, i.available, i.backends) for i in methods()]
        Console().print(methods_table(rows))
        return
    for info in methods():
        mark = "" if info.available else "  (unavailable: missing optional dependency)"
        print(f"{info.name:<18} {info.summary}{mark}")


_METHOD_HELP = "Method name (see 'sudokit methods'); default: the fastest available."


@app.command("solve")
def solve_command(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Puzzle files, '-' for stdin (the default), or literal puzzles.",
        metavar="INPUT")] = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Record form on stdout.")]
    = OutputFormat.LINE,
    unique: Annotated[bool, typer.Option(help="Count up to 2 solutions: 'multiple' if 2.")] = False,
    method: Annotated[str | None, typer.Option("--method", "-m", help=_METHOD_HELP)] = None,
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
    from .blocks import solve_inputs
    from .output import parse_option
    from .result import Limits

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
    _summary(counts, seconds, run.ready - _STARTED)
    raise typer.Exit(0 if counts and all_ok else 1)


def _write_all(blocks: Iterable[Any], out: BinaryIO,
               grids: BinaryIO | None) -> tuple[dict[str, int], bool, float]:
    """Write and flush each block as it arrives (one write per block); report bad input on
    stderr.

    Returns the count of records per status word, whether every record was ok, and the seconds
    from the start of solving to the last record (constant memory in the number of records).
    """
    from .render import progress
    from .result import Status

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

    from .render import summary_table

    Console(stderr=True).print(summary_table(counts, seconds, startup))


_PUZZLE_HELP = "A puzzle (any form), a puzzle file or '-' for stdin."
_INDEX_HELP = ("Take the K-th puzzle of the input (1-based, bad records counted as 'solve' "
               "prints them); default: the input must hold exactly one puzzle.")


@app.command("show")
def show_command(
    puzzle: Annotated[str, typer.Argument(help=_PUZZLE_HELP)],
    after: Annotated[Inference, typer.Option(help="Inference applied before listing candidates.")]
    = Inference.NONE,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
    index: Annotated[int | None, typer.Option(min=1, metavar="K", help=_INDEX_HELP)] = None,
) -> None:
    """Draw a puzzle and the candidates of every cell (after optional inference)."""
    from rich.console import Console

    from .render import candidates_table, grid_text

    parsed = _one_puzzle(puzzle, index=index, box=box)
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
    index: Annotated[int | None, typer.Option(min=1, metavar="K", help=_INDEX_HELP)] = None,
) -> None:
    """Write a puzzle as DIMACS CNF on stdout, or decode a SAT solver's model into a grid."""
    from .formats import format_line
    from .sat.dimacs import decode_answer, write_sudoku_cnf

    if decode:
        if index is not None:
            raise typer.BadParameter("--index picks a puzzle; --decode reads a CNF and a model",
                                     param_hint="--index")
        if len(paths) != 2:
            raise typer.BadParameter("--decode takes CNF_FILE MODEL_FILE", param_hint="PATHS")
        texts = [_read_argument(path)[0] for path in paths]
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
    write_sudoku_cnf(sys.stdout, _one_puzzle(paths[0], index=index, box=box, alphabet=alphabet),
                     encoding)


def _one_puzzle(argument: str, *, index: int | None, box: str | None,
                alphabet: str | None = None) -> Any:
    """The puzzle of a PUZZLE argument (see :func:`sudokit.output.pick_puzzle`)."""
    from .output import pick_puzzle, read_inputs

    return pick_puzzle(read_inputs([argument], box=box, alphabet=alphabet), argument, index)


def _read_argument(argument: str) -> tuple[str, str]:
    """Return the text of a file argument ('-' is stdin) and its source name.

    Raises:
        typer.BadParameter: not a readable file.
        InvalidPuzzle: the file is not UTF-8 text (the error names the line and column of the
            first bad byte).
    """
    from .errors import InvalidPuzzle
    from .output import names_file

    if argument == "-":
        data, source = sys.stdin.buffer.read(), "<stdin>"
    elif names_file(argument):
        data, source = Path(argument).read_bytes(), argument
    else:
        raise typer.BadParameter(f"no such file: {argument}")
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InvalidPuzzle(f"expected UTF-8 text, found byte 0x{data[exc.start]:02x}",
                            source=source, line=line, column=column) from None


@app.command("magic")
def magic_command(
    n: Annotated[int, typer.Argument(min=1, help="Order of the square (side), e.g. 4.")],
    method: Annotated[list[str] | None, typer.Option(
        "--method", "-m", help="Magic method (repeatable with --compare): backtracking, "
        "forward-checking (default), mac, sat, lines (default with --count).")] = None,
    count: Annotated[bool, typer.Option(help="Count every square (print the number).")] = False,
    all_squares: Annotated[bool, typer.Option("--all", help="Print every square.")] = False,
    givens: Annotated[Path | None, typer.Option(
        help="File of n rows of n entries: 1..n² given, 0 or '.' empty.")] = None,
    symmetry: Annotated[bool, typer.Option(
        help="Only the canonical square of each rotation/reflection class.")] = False,
    time_limit: Annotated[float, typer.Option(min=0, help="Seconds (0: no limit).")] = 60.0,
    node_limit: Annotated[int | None, typer.Option(min=0, help="Search nodes.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Method option KEY=VALUE, e.g. select=static.")] = None,
    construct: Annotated[bool, typer.Option(
        help="Build one square directly (Siamese, doubly even or LUX), no search.")] = False,
    compare: Annotated[bool, typer.Option(
        help="Compare the methods (nodes, backtracks, time) on this instance.")] = False,
) -> None:
    """Find, count, complete, construct or compare magic squares of order N."""
    from . import magic
    from .output import parse_option
    from .result import Status

    if construct:
        square = magic.construct(n)
        print(f"order {n}, magic constant {magic.magic_constant(n)} (constructed, verified: "
              f"{magic.is_magic(square)})\n{magic.format_square(square)}")
        return
    problem = magic.MagicProblem(n, magic.read_givens(givens, n) if givens else (), symmetry)
    options = dict(parse_option(text) for text in option or ())
    limit = time_limit or None
    if compare:
        if options:
            raise typer.BadParameter("options apply to one method, not to --compare",
                                     param_hint="--option")
        from rich.console import Console

        from .compare import comparison_table

        comparison = magic.compare_methods(problem, method or None, time_limit=limit,
                                           node_limit=node_limit)
        Console(width=None if sys.stdout.isatty() else 160).print(
            comparison_table(comparison, f"magic squares of order {n}: first square"))
        return
    if method and len(method) > 1:
        raise typer.BadParameter("several methods need --compare", param_hint="--method")
    name = (method or [magic.COUNT_METHOD if count else magic.DEFAULT_METHOD])[0]
    result = magic.solve_magic(problem, name, count_limit=None if count or all_squares else 1,
                               time_limit=limit, node_limit=node_limit, **options)
    for square in result.squares if all_squares or not count else ():
        print(f"order {n}, magic constant {problem.constant}\n{magic.format_square(square)}\n")
    if count:
        print(f"{'at least ' if result.status is Status.UNKNOWN else ''}{result.count} magic "
              f"square{'' if result.count == 1 else 's'} of order {n}"
              f"{' up to rotation and reflection' if symmetry else ''}")
    print(magic.summary_line(result), file=sys.stderr)
    raise typer.Exit(0 if result.status is Status.SOLVED else 1)


@app.command("trace")
def trace_command(
    puzzle: Annotated[str, typer.Argument(help=_PUZZLE_HELP)],
    method: Annotated[str, typer.Option("--method", "-m", help="An AC-3 method (mac).")] = "mac",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Method option KEY=VALUE (repeatable), e.g. select=mrv.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Write the AC-3 queue-length plot here (PNG, SVG or PDF); for several puzzles, "
        "one per puzzle: PLOT-1.png, PLOT-2.png, ...")] = None,
    data: Annotated[Path | None, typer.Option(
        help="Write the queue lengths here, one step per line (numbered like --plot).")] = None,
    time_limit: Annotated[float, typer.Option(min=0, help="Seconds (0: no limit).")] = 15.0,
    box: Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")] = None,
    index: Annotated[int | None, typer.Option(
        min=1, metavar="K", help="Trace only the K-th puzzle of the input (1-based); default: "
        "every puzzle, one plot each.")] = None,
) -> None:
    """Solve puzzles with the per-step trace on: print the outcome and the counters, and
    optionally plot the AC-3 queue length (x: step, y: arcs queued)."""
    from itertools import chain, islice

    from .output import parse_option, pick_puzzle, read_inputs

    options = dict(parse_option(item) for item in option or ())
    if index is not None:
        parsed = _one_puzzle(puzzle, index=index, box=box)
        ok = _trace_one(parsed, method, options, time_limit, plot, data)
        raise typer.Exit(0 if ok else 1)
    records = read_inputs([puzzle], box=box)
    head = list(islice(records, 2))
    if len(head) < 2:  # one puzzle: plain file names
        ok = _trace_one(pick_puzzle(head, puzzle), method, options, time_limit, plot, data)
        raise typer.Exit(0 if ok else 1)
    all_ok = True
    for number, record in enumerate(chain(head, records), 1):
        if record.error is not None:
            print(f"sudokit: {record.error}", file=sys.stderr)
            all_ok = False
            continue
        print(f"# {number}: {record.source}:{record.line}")
        all_ok &= _trace_one(record.puzzle, method, options, time_limit,
                             _numbered(plot, number), _numbered(data, number))
    raise typer.Exit(0 if all_ok else 1)


def _numbered(path: Path | None, number: int) -> Path | None:
    """``queue.png`` -> ``queue-3.png`` for the third puzzle of a file."""
    return path and path.with_name(f"{path.stem}-{number}{path.suffix}")


def _trace_one(puzzle: Any, method: str, options: dict[str, Any], time_limit: float,
               plot: Path | None, data: Path | None) -> bool:
    """Solve one puzzle with the trace on, print its outcome and counters, write the plot and
    the data; return whether it was solved."""
    from .api import solve
    from .formats import format_line
    from .plots import queue_figure, save_figure
    from .result import Status

    result = solve(puzzle, method, time_limit=time_limit or None, trace=True, **options)
    trace = result.stats.trace or []
    if (plot or data) and not trace:
        raise typer.BadParameter(f"method {method!r} records no AC-3 queue trace; use mac",
                                 param_hint="--method")
    solution = format_line(result.solution, puzzle.geometry) if result.solution else ""
    print(f"{str(result.label)} {solution}".rstrip())
    for name, value in result.stats.as_dict().items():
        if value is not None:
            print(f"{name:<13} {value}")
    print(f"{'ac3_steps':<13} {len(trace)}\n{'seconds':<13} {result.seconds:.4f}")
    if data:
        data.write_text("".join(f"{n}\n" for n in trace), encoding="utf-8")
    if plot:
        where = f"{puzzle.source}:{puzzle.source_line}" if puzzle.source else "the puzzle"
        save_figure(queue_figure(trace, f"AC-3 queue length, {result.method} on {where}"), plot)
    return result.status is Status.SOLVED


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

    from .compare import check_supported, compare, comparison_table, sudoku_runners
    from .formats import read_puzzles
    from .plots import save_figure, times_figure
    from .render import progress

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


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; a SudokuError becomes one stderr line and exit code 2; Ctrl-C exits 130."""
    try:
        app(args=argv)
    except SudokuError as exc:
        print(f"sudokit: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("sudokit: interrupted (every record written so far is complete)", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
