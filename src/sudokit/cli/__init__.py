"""The ``sudokit`` command: a thin Typer app over the library.

Each command parses arguments, calls the library and renders; ``SudokuError`` becomes one stderr
message in :func:`main`. Exit codes: 0 all solved; 1 ran, but some puzzle was unsolvable, unknown
or invalid; 2 usage error. One module per group of commands; importing it registers them on
:data:`app`.
"""

from __future__ import annotations

import sys

from ..errors import SudokuError
from ._app import app

# Importing a command module registers its commands, in this order (sudokit --help).
from . import solve, inspect, magic, compare  # noqa: F401  # isort: skip

__all__ = ["app", "main"]


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
