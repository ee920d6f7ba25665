"""The ``sudokit`` command: a thin Typer app over the library.

Each command parses arguments, calls the library and renders; ``SudokuError`` becomes one stderr
message in :func:`main`. Exit codes: 0 all solved; 1 ran, but some puzzle was unsolvable, unknown
or invalid; 2 usage error. One module per group of commands; importing it registers them on
:data:`app`.
"""

from __future__ import annotations

import os

# The command never multiplies matrices: NumPy's OpenBLAS need not start a thread per core at
# import (~0.1 s of CPU taken from the solver at start-up). A user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ._app import app, main  # noqa: E402

# Importing a command module registers its commands, in this order (sudokit --help).
from . import solve, inspect, count, magic, compare, sat, logic, generate, serve  # noqa: F401  # isort: skip

__all__ = ["app", "main"]


if __name__ == "__main__":
    main()
