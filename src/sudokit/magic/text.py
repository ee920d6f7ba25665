"""The givens file format of magic squares, and squares as aligned text.

Givens format (one square per file)::

    # a comment runs to the end of its line; blank lines are ignored
    16  .  .  13
     .  .  .   .
     .  .  .   .
     4  .  .   1

n rows of n whitespace-separated entries: an integer 1..n² is a given, ``0``, ``.`` or ``_`` an
empty cell. The order n is the number of entries on the first row (or the one asked for).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InvalidPuzzle
from ..model.integers import integer, shown_token
from .model import MagicResult, Square, format_square

__all__ = ["parse_givens", "read_givens", "format_square", "summary_line", "EMPTY"]

EMPTY = frozenset({"0", ".", "_"})
"""Tokens that mark an empty cell."""


def _tokens(line: str) -> list[tuple[int, str]]:
    """Return ``(1-based column, token)`` for each entry of a line, comments stripped."""
    line = line.split("#", 1)[0]
    out, column = [], 0
    for part in line.split():
        column = line.index(part, column)
        out.append((column + 1, part))
        column += len(part)
    return out


def _value(token: str, size: int, source: str, line: int, column: int) -> int:
    if token in EMPTY:
        return 0
    value = integer(token, signed=False)
    if value is None or not 1 <= value <= size:
        raise InvalidPuzzle(f"expected a value 1..{size} or one of {' '.join(sorted(EMPTY))} "
                            f"for an empty cell, found {shown_token(token)}",
                            source=source, line=line, column=column)
    return value


def parse_givens(text: str, n: int | None = None, *, source: str = "<string>") -> Square:
    """Parse a givens square (module docstring) into n² ints, row-major, 0 for empty.

    Args:
        text: the file's text.
        n: the expected order; None: the number of entries on the first row.
        source: the file name for error messages.

    Returns:
        The givens, flat (n² ints; ``len(result) ** 0.5`` is the order).

    Raises:
        InvalidPuzzle: a bad entry, a row of the wrong length, or the wrong number of rows
            (with the file, line and column of the problem).

    >>> parse_givens("8 . 6\\n. 5 .\\n. . .")
    (8, 0, 6, 0, 5, 0, 0, 0, 0)
    """
    rows: list[tuple[int, list[tuple[int, str]]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        entries = _tokens(line)
        if entries:
            rows.append((number, entries))
    if not rows:
        raise InvalidPuzzle("expected n rows of n entries, found no entries", source=source)
    n = n if n is not None else len(rows[0][1])
    size, givens = n * n, []
    for number, entries in rows[:n]:
        if len(entries) != n:
            column = entries[n][0] if len(entries) > n else len(entries) and entries[-1][0]
            raise InvalidPuzzle(f"expected {n} entries on each row, found {len(entries)}",
                                source=source, line=number, column=column or None)
        givens += [_value(t, size, source, number, col) for col, t in entries]
    if len(rows) != n:  # at the first row too many, or where the next row was expected
        at, column = (rows[n][0], rows[n][1][0][0]) if len(rows) > n else (rows[-1][0] + 1, 1)
        raise InvalidPuzzle(f"expected {n} rows of entries, found {len(rows)}",
                            source=source, line=at, column=column)
    return tuple(givens)


def read_givens(path: str | Path, n: int | None = None) -> Square:
    """Read a givens file (see :func:`parse_givens`).

    Raises:
        InvalidPuzzle: as :func:`parse_givens`, naming the file; or the file cannot be read.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidPuzzle(f"cannot read the givens file: {exc}", source=str(path)) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        raise InvalidPuzzle(f"expected UTF-8 text, found the byte 0x{data[exc.start]:02x}",
                            source=str(path), line=data.count(b"\n", 0, exc.start) + 1,
                            column=len(data[start:exc.start].decode("utf-8", "replace")) + 1
                            ) from exc
    return parse_givens(text, n, source=str(path))


def summary_line(result: MagicResult) -> str:
    """Return one line: method, outcome, squares found, time and the measured counters.

    >>> from sudokit import solve_magic
    >>> from sudokit.magic import MagicProblem
    >>> summary_line(solve_magic(MagicProblem(3), node_limit=5)).split(",")[0]
    'forward-checking: unknown (node limit 5 reached)'
    """
    why = f" ({result.message})" if result.message else ""
    counters = ", ".join(f"{value:,} {name}" for name, value in result.stats.as_dict().items()
                         if isinstance(value, int))
    return (f"{result.method}: {result.status.name.lower()}{why}, {result.count:,} square"
            f"{'' if result.count == 1 else 's'} in {result.seconds:.3f} s"
            + (f", {counters}" if counters else ""))
