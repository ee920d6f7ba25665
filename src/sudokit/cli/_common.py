"""Help texts and argument readers shared by the command modules."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

METHOD_HELP = "Method name (see 'sudokit methods'); default: the fastest available."
PUZZLE_HELP = "A puzzle (any form), a puzzle file or '-' for stdin."
INDEX_HELP = ("Take the K-th puzzle of the input (1-based, bad records counted as 'solve' "
              "prints them); default: the input must hold exactly one puzzle.")


def one_puzzle(argument: str, *, index: int | None, box: str | None,
                alphabet: str | None = None) -> Any:
    """The puzzle of a PUZZLE argument (see :func:`sudokit.output.pick_puzzle`)."""
    from ..output import pick_puzzle, read_inputs

    return pick_puzzle(read_inputs([argument], box=box, alphabet=alphabet), argument, index)


def read_argument(argument: str) -> tuple[str, str]:
    """Return the text of a file argument ('-' is stdin) and its source name.

    Raises:
        typer.BadParameter: not a readable file.
        InvalidPuzzle: the file is not UTF-8 text (the error names the line and column of the
            first bad byte).
    """
    from ..errors import InvalidPuzzle
    from ..output import names_file

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
