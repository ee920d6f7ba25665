"""``sudokit count`` and ``sudokit candidates``: setters' tools, thin over
:mod:`sudokit.run.candidates` and :func:`sudokit.count_solutions`."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ._app import app
from ._common import (
    INDEX_HELP,
    METHOD_HELP,
    PUZZLE_HELP,
    VariantChoice,
    VariantOption,
    one_puzzle,
)
from ._why import WhyOption

if TYPE_CHECKING:
    from ..csp.estimate import SolutionEstimate
    from ..run.candidates import TrueCandidates


class CountFormat(str, Enum):
    TEXT = "text"
    JSON = "json"


BoxOption = Annotated[str | None, typer.Option(help="Box shape RxC (default: inferred).")]
FormatOption = Annotated[CountFormat, typer.Option("--format", "-f", help="Output form.")]
MethodOption = Annotated[str | None, typer.Option("--method", "-m", help=METHOD_HELP)]
IndexOption = Annotated[int | None, typer.Option(min=1, metavar="K", help=INDEX_HELP)]


def scientific(n: int) -> str:
    """``n`` with thousands separators below a million, else as ``6.67e+21`` (exact ints of
    any size, beyond the range of floats)."""
    if n < 10**6:
        return f"{n:,}"
    digits = str(n)
    mantissa = round(int(digits[:4]) / 1000, 2)
    exponent = len(digits) - 1
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.2f}e+{exponent}"


@app.command("count")
def count_command(
    puzzle: Annotated[str, typer.Argument(help=PUZZLE_HELP)],
    limit: Annotated[int, typer.Option(
        min=1, help="Stop counting at this many solutions ('at least N').")] = 100_000,
    estimate: Annotated[bool, typer.Option(
        "--estimate", help="Estimate the number of solutions by Knuth's random probing "
        "instead of counting them (for puzzles with too many to count).")] = False,
    probes: Annotated[int, typer.Option(
        min=1, help="With --estimate: random root-to-leaf paths; the error falls as "
        "1/sqrt(probes).")] = 1000,
    seed: Annotated[int, typer.Option(min=0, help="With --estimate: seed of the paths.")] = 0,
    time_limit: Annotated[float, typer.Option(
        min=0, help="Seconds (0: no limit); a count stops with 'at least N', an estimate "
        "covers the probes done.")] = 60.0,
    method: MethodOption = None,
    fmt: FormatOption = CountFormat.TEXT,
    index: IndexOption = None,
    box: BoxOption = None,
    variant: VariantOption = VariantChoice.STANDARD,
    say_why: WhyOption = False,
) -> None:
    """Count the solutions of PUZZLE (up to --limit), or estimate them with --estimate.
    Exit 0 when the count is complete (or the estimate made), 1 otherwise. With --why, a
    count other than one says why."""
    chosen = one_puzzle(puzzle, index=index, box=box, variant=variant)
    if estimate:
        from ..run.candidates import estimate_solutions

        found = estimate_solutions(chosen, probes=probes, seed=seed,
                                   time_limit=time_limit or None)
        _print(fmt, {"estimate": found.estimate, "standard_error": found.standard_error,
                     "probes": found.probes, "solution_leaves": found.solution_leaves,
                     "nodes": found.nodes, "exact": found.exhausted, "seed": seed,
                     "seconds": round(found.seconds, 6)}, _estimate_text(found, seed))
        return
    from ..model.result import Status
    from ..run.doors import count_solutions

    result = count_solutions(chosen, method, limit=limit, time_limit=time_limit or None)
    complete = result.status is Status.UNSATISFIABLE or (
        result.status is Status.SOLVED and result.count < limit)
    why = "" if complete else (" (the time limit came first)" if result.status is Status.UNKNOWN
                               else " (--limit reached; --estimate estimates the total)")
    text = (f"{scientific(result.count)} solution{'s' * (result.count != 1)}" if complete else
            f"at least {scientific(result.count)} solutions{why}")
    row = {"solutions": result.count, "complete": complete, "status": result.label.word,
           "method": result.method, "seconds": round(result.seconds, 6)}
    text = f"{text} ({result.method}, {result.seconds:.2f} s)"
    if say_why and result.count != 1 and result.status is not Status.UNKNOWN:
        from ._why import explained

        row["why"], said = explained(chosen, time_limit)
        text += "\n" + said
    _print(fmt, row, text)
    raise typer.Exit(0 if complete else 1)


def _estimate_text(found: SolutionEstimate, seed: int) -> str:
    """One line: the estimate, its standard error and how it was made."""
    if found.exhausted:
        return f"exactly {found.estimate} (propagation decides the puzzle)"
    error = found.relative_error
    spread = f", {error:.0%}" if error is not None else ""
    return (f"about {scientific(found.estimate)} solutions (standard error "
            f"{scientific(found.standard_error)}{spread}; Knuth estimate from {found.probes} "
            f"probes, {found.solution_leaves} ending in a solution, seed {seed}, "
            f"{found.seconds:.2f} s)")


@app.command("candidates")
def candidates_command(
    puzzle: Annotated[str, typer.Argument(help=PUZZLE_HELP)],
    cap: Annotated[int, typer.Option(
        min=1, help="Count the solutions of each candidate up to this many (1: only whether "
        "it is possible).")] = 1,
    time_limit: Annotated[float, typer.Option(
        min=0, help="Seconds (0: no limit); past it the undecided candidates are listed.")]
    = 60.0,
    method: MethodOption = None,
    fmt: FormatOption = CountFormat.TEXT,
    index: IndexOption = None,
    box: BoxOption = None,
    variant: VariantOption = VariantChoice.STANDARD,
) -> None:
    """Print the true candidates of PUZZLE: the digits each cell holds in some solution, with
    the number of solutions of each up to --cap. Exit 0 when complete, 1 when the puzzle has
    no solution or the time limit left candidates undecided."""
    from ..run.candidates import true_candidates

    chosen = one_puzzle(puzzle, index=index, box=box, variant=variant)
    found = true_candidates(chosen, cap=cap, method=method, time_limit=time_limit or None)
    if fmt is CountFormat.JSON:
        print(json.dumps(found.as_dict()))
    else:
        _print_candidates(found)
    raise typer.Exit(0 if found.complete and found.solutions_found else 1)


def _print_candidates(found: TrueCandidates) -> None:
    """The grid of true candidates, the counts below the cap, and a summary line."""
    from rich.console import Console

    from ..present.render import candidates_grid

    puzzle, console = found.puzzle, Console()
    if not found.solutions_found:
        print("no solution: no cell has a true candidate")
        return
    console.print(candidates_grid(puzzle, found.candidates, console.width), end="",
                  soft_wrap=True)
    g = puzzle.geometry
    if found.cap > 1:
        print(f"\nsolutions per candidate (up to {found.cap}; {found.cap}+ not shown):")
        for cell, counts in enumerate(found.counts):
            shown = [f"{g.symbol(d)}:{n}" for d, n in sorted(counts.items()) if n < found.cap]
            if shown and not puzzle.givens[cell]:
                print(f"  {g.label(cell)}  " + "  ".join(shown))
    empty = [c for c in range(g.n_cells) if not puzzle.givens[c]]
    fixed = sum(1 for c in empty if len(found.counts[c]) == 1)
    total = sum(len(found.counts[c]) for c in empty)
    state = "complete" if found.complete else (
        f"INCOMPLETE: {len(found.unsettled)} candidates undecided at the time limit")
    print(f"\n{total} true candidates in {len(empty)} empty cells, {fixed} cells with one; "
          f"{scientific(found.solutions_found)} solutions found ({found.method}, "
          f"{found.seconds:.2f} s), {state}")


def _print(fmt: CountFormat, row: dict[str, object], text: str) -> None:
    """One JSON object or one line of text on stdout."""
    print(json.dumps(row) if fmt is CountFormat.JSON else text)
    sys.stdout.flush()
