"""The ``sudokit`` command: a thin Typer app over the library.

Each command parses arguments, calls the library and renders; ``SudokuError`` becomes one stderr
message in :func:`main`. Exit codes: 0 all solved; 1 ran, but some puzzle was unsolvable, unknown
or invalid; 2 usage error.
"""

from __future__ import annotations

import sys

import typer

from .errors import SudokuError

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


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; a SudokuError becomes one stderr line and exit code 2."""
    try:
        app(args=argv)
    except SudokuError as exc:
        print(f"sudokit: error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
