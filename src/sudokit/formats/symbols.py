"""Symbols -> digits: the symbol tables of line form, the decoding of one puzzle's tokens for a
known geometry, and the errors that point at the token or cell count no grid can read.

Used by :class:`~sudokit.formats.grouping.Grouper` (which decides which lines form a puzzle)
and by the byte tables of :mod:`sudokit.formats.linecodec`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache

from ..errors import InvalidPuzzle
from ..model.geometry import MAX_SIDE, Geometry
from ..model.integers import integer, shown_token
from ..model.puzzle import Grid
from .lines import DEFAULT_SYMBOLS, EMPTY_MARKERS, Line, Style

__all__ = ["INTEGER_TOKEN", "Decoder", "count_mismatch", "not_square", "stray_token",
           "symbol_table"]

INTEGER_TOKEN = re.compile(r"-?[0-9]+\Z")
"""A token that is an integer (of the integer forms: ``0`` or ``-1`` empty, else a digit)."""


@cache
def symbol_table(side: int, alphabet: str | None) -> dict[str, int]:
    """Digit of each symbol of line form for a side and alphabet (empty markers give 0)."""
    symbols = (alphabet or DEFAULT_SYMBOLS)[:side]
    table = {s: d for d, s in enumerate(symbols, 1)}
    if alphabet is None and side <= 35:
        table.update({s.lower(): d for s, d in list(table.items())})
    table.update({m: 0 for m in EMPTY_MARKERS if m not in table})
    return table


class Decoder:
    """Turn the tokens of one puzzle's lines into digits for a known geometry.

    Args:
        source: the input's name (for errors).
        geometry: the grid the tokens fill, row-major.
        alphabet: symbols of digits 1..N (None: ``1-9A-Z...``, either case up to 35x35).
    """

    def __init__(self, source: str, geometry: Geometry, alphabet: str | None) -> None:
        self.source = source
        self.geometry = geometry
        self.alphabet = alphabet
        self.table = symbol_table(geometry.side, alphabet)

    def style(self, lines: Sequence[Line]) -> Style:
        """How to write this puzzle's solution back: symbols for line form and drawings of
        one-character cells, integers for integer layouts (zero-based if ``-1`` appears)."""
        tokens = [t for ln in lines for t, _ in ln.tokens]
        drawn = any(ln.drawing for ln in lines) and all(len(t) == 1 for t in tokens)
        order = lines[0].geometry  # an order-prefix line is written back with its prefix
        prefix = f"{order.box_rows} " if len(lines) == 1 and order is not None else ""
        if not lines[0].spaced or drawn:
            empty = next((t for t in dict.fromkeys(tokens) if self.table.get(t) == 0), ".")
            return Style(symbols=self.alphabet or DEFAULT_SYMBOLS, empty=empty, prefix=prefix)
        zero_based = "-1" in tokens
        empty = "-1" if zero_based else next((t for t in tokens if self._is_empty(t)), "0")
        return Style(None, empty, "," if lines[0].commas else " ", -1 if zero_based else 0,
                     prefix)

    def _is_empty(self, token: str) -> bool:
        return token == "0" or (not INTEGER_TOKEN.match(token) and self.table.get(token) == 0)

    def digits(self, lines: Sequence[Line], style: Style, what: str = "") -> Grid:
        """Decode every token; raise InvalidPuzzle at the first bad one (line and column)."""
        if style.symbols is not None:
            get = self.table.get
            values = [get(t, -1) for ln in lines for t, _ in ln.tokens]
            if -1 not in values:
                return tuple(values)
        side, out = self.geometry.side, list[int]()
        for ln in lines:
            for token, column in ln.tokens:
                value = self._value(token, style)
                if value is None or not 0 <= value <= side:
                    cell = self.geometry.label(len(out)) if len(out) < side * side else "cell"
                    raise InvalidPuzzle(
                        f"{what}{cell}: expected {self._expected(style)}, "
                        f"found {shown_token(token)}",
                        source=self.source, line=ln.number, column=column,
                    )
                out.append(value)
        return tuple(out)

    def _value(self, token: str, style: Style) -> int | None:
        if style.symbols is None and INTEGER_TOKEN.match(token):
            value = integer(token)
            return None if value is None else value - style.offset
        return self.table.get(token)

    def _expected(self, style: Style) -> str:
        side = self.geometry.side
        if style.symbols is None:
            low, high = (-1, side - 1) if style.offset else (0, side)
            return f"an integer {low}..{high} or an empty marker"
        symbols = (self.alphabet or DEFAULT_SYMBOLS)[:side]
        shown = symbols if side <= 12 else f"{symbols[0]}..{symbols[-1]}"
        markers = " ".join(m for m in EMPTY_MARKERS if self.table.get(m) == 0)
        return f"a digit symbol ({shown}) or an empty marker ({markers})"


def stray_token(ln: Line) -> InvalidPuzzle | None:
    """The first token that no grid size could read (binary junk, stray punctuation), if any."""
    table = symbol_table(MAX_SIDE, None)
    for token, column in ln.tokens:
        if token not in table and not (ln.spaced and INTEGER_TOKEN.match(token)):
            return InvalidPuzzle("expected digit symbols or empty markers, found "
                                 f"{shown_token(token)}",
                                 column=column)
    return None


def count_mismatch(ln: Line, expected: int, what: str) -> InvalidPuzzle:
    """Wrong number of cells on a line: point at the first extra cell, or at the line's end."""
    found = len(ln.tokens)
    if found > expected:
        column = ln.tokens[expected][1]
        return InvalidPuzzle(f"{what}, found {found}: cell {expected + 1} and after are extra",
                             column=column)
    column = _end_column(ln)
    return InvalidPuzzle(f"{what}, found {found}: the line ends here, "
                         f"{expected - found} cell(s) short", column=column)


def not_square(ln: Line) -> InvalidPuzzle:
    """A cell count that is no grid's: say so for the whole line, with the nearest sizes."""
    found = len(ln.tokens)
    below = math.isqrt(found)
    near = []
    if 2 <= below <= MAX_SIDE:
        near.append(f"{found - below * below} more than {below * below} ({below}x{below})")
    if below + 1 <= MAX_SIDE:
        above = (below + 1) ** 2
        near.append(f"{above - found} fewer than {above} ({below + 1}x{below + 1})")
    hint = f": {' or '.join(near)}" if near else ""
    return InvalidPuzzle(f"whole line: expected a square number of cells (16, 36, 81, 256, "
                         f"... up to 4096), got {found}{hint}", column=1)


def _end_column(ln: Line) -> int:
    """The column just after the line's last cell (1-based)."""
    if not ln.tokens:
        return 1
    token, column = ln.tokens[-1]
    return column + (len(token) if ln.spaced else 1)
