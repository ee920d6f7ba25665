"""Help texts and argument readers shared by the command modules."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

METHOD_HELP = "Method name (see 'sudokit methods'); default: the fastest available."
PUZZLE_HELP = "A puzzle (any form), a puzzle file or '-' for stdin."
INDEX_HELP = ("Take the K-th puzzle of the input (1-based, bad records counted as 'solve' "
              "prints them); default: the input must hold exactly one puzzle.")




class VariantChoice(str, Enum):
    """The rules a command reads puzzles in (:class:`sudokit.geometry.Variant`)."""

    STANDARD = "standard"
    DIAGONAL = "diagonal"


VariantOption = Annotated[VariantChoice, typer.Option(
    help="Rules of the puzzles: standard, or diagonal (Sudoku X: both main diagonals hold "
    "every digit once). A '# variant: diagonal' line in a file changes it for the puzzles "
    "after it.")]


def one_puzzle(argument: str, *, index: int | None, box: str | None,
               alphabet: str | None = None,
               variant: VariantChoice = VariantChoice.STANDARD) -> Any:
    """The puzzle of a PUZZLE argument (see :func:`sudokit.output.pick_puzzle`), in
    ``variant`` unless a ``# variant:`` line of its file says otherwise."""
    from ..output import pick_puzzle, read_inputs

    records = read_inputs([argument], box=box, alphabet=alphabet, variant=variant.value)
    return pick_puzzle(records, argument, index)


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
