"""The Typer app every command module registers on, the start-up timestamp, and ``main``."""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import Annotated

import typer

from ..errors import USAGE, SudokuError


def _process_start() -> float:
    """The :func:`time.perf_counter` value at which this process started (its ``exec``), read
    from ``/proc/self/stat`` (Linux; 10 ms resolution); now if that is unknown or more than
    5 s ago (the CLI imported by a process started for something else, e.g. tests)."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", "rb") as stat:
            ticks = int(stat.read().rsplit(b")", 1)[1].split()[19])  # field 22: starttime
        since = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - since if 0.0 <= since <= 5.0 else now


STARTED = _process_start()
"""When the command started: the process's start, so the start-up it reports includes the
interpreter's own and every import (start-up is reported apart from solving)."""

app = typer.Typer(
    name="sudokit",
    help="Solve Sudoku-family puzzles and related constraint problems by many methods.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
"""The app. ``rich_markup_mode=None``: help and usage errors are Click's plain text, so
``--help`` never imports ``typer.rich_utils`` (with Rich's Markdown and markdown-it: half of the
time of ``sudokit --help``, measured by ``benchmarks/pipeline.py``); help texts are therefore
plain text (no Rich markup or escapes)."""


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


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; a SudokuError becomes one stderr line and its exit code (2 a usage error, 3
    an internal bug: :mod:`sudokit.errors`); Ctrl-C exits 130.

    Run as the program (``argv`` None: the ``sudokit`` script, ``python -m sudokit``), on the
    way out every object is moved to the collector's permanent generation
    (:func:`gc.freeze`), so the interpreter's final collections do not walk Numba's object
    graph: exiting after the compiled engine was loaded took 0.6-0.9 s, 0.06 s frozen (measured
    on this 2-core VM). Nothing is lost: outputs are flushed and closed before, and objects
    still freed by reference counting are freed as before.
    """
    if argv is None:  # the program, not a caller: first-use compiles go to the background
        from ..run.warm import enable
        from . import _background

        enable()
        _background.AS_PROGRAM = True  # a stopped run may end the process at once
    try:
        app(args=argv)
    except SudokuError as exc:
        print(f"sudokit: error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except OSError as exc:  # a write to stdout refused (disk full, ...): one line, no traceback
        from ._writing import stdout_failure

        print(f"sudokit: error: {stdout_failure(exc)}", file=sys.stderr)
        sys.exit(USAGE)
    except KeyboardInterrupt:
        print("sudokit: interrupted (every record written so far is complete)", file=sys.stderr)
        sys.exit(130)
    finally:
        if argv is None:  # the process ends next; a caller passing argv may go on
            gc.freeze()

