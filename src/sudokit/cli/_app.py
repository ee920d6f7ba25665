"""The Typer app and the start-up timestamp every command module shares."""

from __future__ import annotations

import time
from typing import Annotated

import typer

STARTED = time.perf_counter()
"""When the command started (start-up is reported apart from solving)."""

app = typer.Typer(
    name="sudokit",
    help="Solve Sudoku-family puzzles and related constraint problems by many methods.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__

        print(f"sudokit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and exit.")] = False,
) -> None:
    """Solve Sudoku-family puzzles and related constraint problems by many methods."""
