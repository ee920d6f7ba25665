"""``sudokit magic``: find, count, complete, construct or compare magic squares."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ._app import app

if TYPE_CHECKING:
    from ..magic.model import MagicProblem


@app.command("magic")
def magic_command(
    n: Annotated[int, typer.Argument(min=1, help="Order of the square (side), e.g. 4.")],
    method: Annotated[list[str] | None, typer.Option(
        "--method", "-m", help="Magic method: backtracking, forward-checking (default up to "
        "order 6; larger orders are constructed unless a method is named), mac, sat "
        "(sat:glucose4 ...), lines (default with --count). Repeatable with --compare, with "
        "options as NAME[KEY=VALUE,...], e.g. 'forward-checking[bounds=false]'.")] = None,
    count: Annotated[bool, typer.Option(help="Count every square (print the number).")] = False,
    all_squares: Annotated[bool, typer.Option("--all", help="Print every square.")] = False,
    givens: Annotated[Path | None, typer.Option(
        help="File of n rows of n entries: 1..n² given, 0 or '.' empty.")] = None,
    symmetry: Annotated[bool, typer.Option(
        help="Only the canonical square of each rotation/reflection class.")] = False,
    time_limit: Annotated[float, typer.Option(min=0, help="Seconds (0: no limit).")] = 60.0,
    node_limit: Annotated[int | None, typer.Option(min=0, help="Search nodes.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Method option KEY=VALUE, e.g. select=static, bounds=false "
        "(forward checking that removes values only, as the Prolog report's).")] = None,
    construct: Annotated[bool, typer.Option(
        help="Build one square directly (Siamese, doubly even or LUX), no search.")] = False,
    compare: Annotated[bool, typer.Option(
        help="Compare the methods (nodes, backtracks, time) on this instance.")] = False,
) -> None:
    """Find, count, complete, construct or compare magic squares of order N.

    Orders above 6 are constructed unless a method (-m) is named (stderr says so)."""
    from .. import magic
    from ..model.result import Limits, Status
    from ..registry import MAGIC
    from ..run import magic as door
    from ..run.output import parse_option
    from ..run.request import Request

    searching = method or count or all_squares or givens or symmetry or compare or option
    if construct or (not searching and n > door.SEARCH_UP_TO and n != 2):
        _print_construction(n, asked=construct)
        return
    problem = magic.MagicProblem(n, magic.read_givens(givens, n) if givens else (), symmetry)
    options = dict(parse_option(text) for text in option or ())
    limit = time_limit or None
    if compare:
        _print_comparison(problem, method or None, limit, node_limit, options)
        return
    if method and len(method) > 1:
        raise typer.BadParameter("several methods need --compare", param_hint="--method")
    name = (method or [door.COUNT_METHOD if count else door.DEFAULT_METHOD])[0]
    request = Request.build(name, options, Limits(limit, node_limit),
                            None if count or all_squares else 1, problem=MAGIC)
    result = door.solve_magic(problem, request=request)
    for square in result.squares if all_squares or not count else ():
        print(f"order {n}, magic constant {problem.constant}\n{magic.format_square(square)}\n")
    if count:
        print(f"{'at least ' if result.status is Status.UNKNOWN else ''}{result.count} magic "
              f"square{'' if result.count == 1 else 's'} of order {n}"
              f"{' up to rotation and reflection' if symmetry else ''}")
    print(magic.summary_line(result), file=sys.stderr)
    raise typer.Exit(0 if result.status is Status.SOLVED else 1)


def _print_comparison(problem: MagicProblem, methods: list[str] | None, time_limit: float | None,
                      node_limit: int | None, options: dict[str, Any]) -> None:
    """Print the comparison table of ``methods`` (None: every one that fits) on ``problem``."""
    from rich.console import Console

    from ..run.compare import comparison_table
    from ..run.magic import compare_magic

    comparison = compare_magic(problem, methods, time_limit=time_limit, node_limit=node_limit,
                               **options)
    Console(width=None if sys.stdout.isatty() else 160).print(
        comparison_table(comparison, f"magic squares of order {problem.n}: first square"))


def _print_construction(n: int, *, asked: bool) -> None:
    """Print a constructed square (verified) and, unless asked for, say why on stderr."""
    from .. import magic
    from ..run.magic import SEARCH_UP_TO

    square = magic.construct(n)
    how = ("Siamese method" if n % 2 else "doubly even method" if n % 4 == 0
           else "LUX method")
    print(f"order {n}, magic constant {magic.magic_constant(n)} (constructed, verified: "
          f"{magic.is_magic(square)})\n{magic.format_square(square)}")
    if not asked:
        print(f"order {n}: constructed by the {how}, no search (searching is slow above order "
              f"{SEARCH_UP_TO}; name a method with -m to search)", file=sys.stderr)
