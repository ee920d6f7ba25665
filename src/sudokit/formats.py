"""Read and write puzzles in the text forms people actually have.

Reading (:func:`read_puzzles`, :func:`parse_puzzle`) accepts, in one stream and line by line:

* **line form**: one puzzle per line, one symbol per cell. Digits are ``1-9`` then ``A``=10,
  ``B``=11 ... ``Z``=35 (case-insensitive up to 35x35), then ``a-z``, ``@``, ``$``, ``%`` up to 64
  (:data:`DEFAULT_SYMBOLS`). Empty markers: ``. 0 _ - * x`` (a marker that is a digit of the grid's
  alphabet is a digit). An explicit alphabet lists the symbols of digits 1..N in order, with ranges:
  ``alphabet="0-9A-Z"`` makes ``0`` the digit 1 of a 36x36 grid;
* **integers** separated by spaces or commas (``0 . _ -`` empty; ``-1`` empty marks zero-based
  values), the whole grid on one line or N rows, with blank lines and box spacing anywhere;
* **grids of N rows** of symbols, and **drawings** with ``|``, ``+``, ``-`` (or Unicode box)
  separators, such as :func:`format_grid` prints;
* **header lines**: ``N`` alone on a line before the rows, or box rows and box columns on two lines;
* the **order-prefix** form ``3 0004000090209800...`` (order n, then n**4 symbols);
* **Kaggle CSV** ``quizzes,solutions`` (header optional, any column order named in the header,
  byte-order mark allowed) and tdoku's ``puzzle:count[:solution]`` lines: the solution and the
  solution count become :attr:`Record.expected` and :attr:`Record.expected_count`;
* ``#`` comment lines and blank lines are skipped; CRLF and trailing spaces are tolerated.

The grid size comes from the cell count (81 -> 9x9, 256 -> 16x16) unless a box shape is given.
A line of N <= 64 cells may be a whole small puzzle or a row of an N x N grid: it is a row when
the grid is drawn, N is not a square, or the next lines have N cells too and hold a digit too big
for the small puzzle. Pass ``box`` when a grid is so empty that this cannot tell.

Writing: :func:`format_line` (the input's own line form, see :class:`Style`), :func:`format_grid`
(a drawing that reads back), :func:`format_candidates` and :func:`format_side_by_side`.
"""

from __future__ import annotations

import io
import math
import re
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TextIO

from .errors import InvalidPuzzle
from .geometry import MAX_SIDE, Geometry
from ._lines import Kind, Line, as_row, scan_lines
from .puzzle import Grid, Puzzle

__all__ = [
    "DEFAULT_SYMBOLS",
    "EMPTY_MARKERS",
    "Style",
    "Record",
    "parse_box",
    "parse_alphabet",
    "read_puzzles",
    "parse_puzzle",
    "format_line",
    "format_grid",
    "format_candidates",
    "format_side_by_side",
]

DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%"
"""Symbols of digits 1..64 in line form: ``DEFAULT_SYMBOLS[d - 1]`` writes digit d."""

EMPTY_MARKERS = ".0_-*x"
"""Characters that mark an empty cell (unless the grid's alphabet uses them as digits)."""

_INT = re.compile(r"-?\d+\Z")


@dataclass(frozen=True)
class Style:
    """How a puzzle was written, so that its solution can be written back the same way.

    Attributes:
        symbols: one character per digit (``symbols[d - 1]``); None writes integers.
        empty: the empty marker seen in the input (``"."`` when none was seen).
        separator: between integers (``" "`` or ``","``); unused with symbols.
        offset: added to each digit when written (``-1`` for zero-based values).
    """

    symbols: str | None = DEFAULT_SYMBOLS
    empty: str = "."
    separator: str = " "
    offset: int = 0


@dataclass(frozen=True)
class Record:
    """One puzzle of an input stream, or one piece of input that is not a valid puzzle.

    Attributes:
        source: file name, ``"<stdin>"`` or ``"<string>"``.
        line: 1-based line where the puzzle (or the bad input) starts.
        puzzle: the puzzle; None when the input was invalid.
        error: why the input is not a puzzle (with source, line and column); None when valid.
        expected: the solution written next to the puzzle (CSV or tdoku column); None if absent.
        expected_count: the solution count written next to the puzzle (tdoku); None if absent.
        style: how to write the solution back in the input's line form.
    """

    source: str
    line: int
    puzzle: Puzzle | None
    error: InvalidPuzzle | None = None
    expected: Grid | None = None
    expected_count: int | None = None
    style: Style = field(default_factory=Style)


def parse_box(text: str) -> tuple[int, int]:
    """Parse a box shape ``"RxC"`` (e.g. ``"2x3"``) into ``(box_rows, box_cols)``.

    Raises:
        InvalidPuzzle: not two positive integers around an ``x``, or a side above 64.
    """
    match = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", text)
    if not match:
        raise InvalidPuzzle(f"expected a box shape ROWSxCOLS such as 3x3 or 2x3, got {text!r}")
    shape = int(match[1]), int(match[2])
    Geometry.of(*shape)
    return shape


def parse_alphabet(spec: str) -> str:
    """Expand an alphabet spec with ranges (``"0-9A-Z"``) into its symbols, digit 1 first.

    Raises:
        InvalidPuzzle: a repeated symbol, more than 64 symbols, or whitespace in the spec.
    """
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-" and spec[i] < spec[i + 2]:
            out += [chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1)]
            i += 3
        else:
            out.append(spec[i])
            i += 1
    symbols = "".join(out)
    if len(set(symbols)) != len(symbols) or not 1 <= len(symbols) <= MAX_SIDE or any(
        s.isspace() for s in symbols
    ):
        raise InvalidPuzzle(
            f"alphabet {spec!r} must list 1 to {MAX_SIDE} distinct non-space symbols, "
            f"got {len(symbols)} symbols"
        )
    return symbols


@cache
def _symbol_table(side: int, alphabet: str | None) -> dict[str, int]:
    symbols = (alphabet or DEFAULT_SYMBOLS)[:side]
    table = {s: d for d, s in enumerate(symbols, 1)}
    if alphabet is None and side <= 35:
        table.update({s.lower(): d for s, d in list(table.items())})
    table.update({m: 0 for m in EMPTY_MARKERS if m not in table})
    return table


class _Decoder:
    """Turns the tokens of one puzzle's lines into digits for a known geometry."""

    def __init__(self, source: str, geometry: Geometry, alphabet: str | None) -> None:
        self.source = source
        self.geometry = geometry
        self.alphabet = alphabet
        self.table = _symbol_table(geometry.side, alphabet)

    def style(self, lines: Sequence[Line]) -> Style:
        tokens = [t for ln in lines for t, _ in ln.tokens]
        if not lines[0].spaced:
            empty = next((t for t in dict.fromkeys(tokens) if self.table.get(t) == 0), ".")
            return Style(symbols=self.alphabet or DEFAULT_SYMBOLS, empty=empty)
        zero_based = "-1" in tokens
        empty = "-1" if zero_based else next((t for t in tokens if self._is_empty(t)), "0")
        return Style(None, empty, "," if lines[0].commas else " ", -1 if zero_based else 0)

    def _is_empty(self, token: str) -> bool:
        return token == "0" or (not _INT.match(token) and self.table.get(token) == 0)

    def digits(self, lines: Sequence[Line], style: Style, what: str = "") -> Grid:
        """Decode every token; raise InvalidPuzzle at the first bad one (line and column)."""
        if style.symbols is not None:
            get = self.table.get
            values = [get(t) for ln in lines for t, _ in ln.tokens]
            if None not in values:
                return tuple(values)
        side, out = self.geometry.side, []
        for ln in lines:
            for token, column in ln.tokens:
                value = self._value(token, style)
                if value is None or not 0 <= value <= side:
                    cell = self.geometry.label(len(out)) if len(out) < side * side else "cell"
                    raise InvalidPuzzle(
                        f"{what}{cell}: expected {self._expected(style)}, found {token!r}",
                        source=self.source, line=ln.number, column=column,
                    )
                out.append(value)
        return tuple(out)

    def _value(self, token: str, style: Style) -> int | None:
        if style.symbols is None and _INT.match(token):
            return int(token) - style.offset if style.offset else int(token)
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


class _Grouper:
    """Groups scanned lines into puzzles (one line, N rows, headers) and decodes them."""

    def __init__(self, source: str, lines: Iterable[Line], box: tuple[int, int] | None,
                 alphabet: str | None) -> None:
        self.source = source
        self.lines = iter(lines)
        self.ahead: deque[Line] = deque()
        self.box = Geometry.of(*box) if box else None
        self.alphabet = alphabet
        self.csv_columns = (0, 1)

    def _next(self) -> Line | None:
        return self.ahead.popleft() if self.ahead else next(self.lines, None)

    def _peek_content(self, depth: int) -> list[Line]:
        """The next ``depth`` lines that are not blank, comments or separators (not consumed)."""
        found, i = [], 0
        while len(found) < depth:
            while len(self.ahead) <= i:
                nxt = next(self.lines, None)
                if nxt is None:
                    return found
                self.ahead.append(nxt)
            if self.ahead[i].kind not in (Kind.BLANK, Kind.COMMENT, Kind.SEPARATOR):
                found.append(self.ahead[i])
            i += 1
        return found

    def records(self) -> Iterator[Record]:
        while (ln := self._next()) is not None:
            if ln.kind is Kind.ERROR:
                yield self._error(InvalidPuzzle(ln.message, column=ln.column), ln.number)
            elif ln.kind is Kind.CSV_HEADER:
                self.csv_columns = ln.columns
            elif ln.kind is Kind.NUMBER:
                yield self._headed(ln)
            elif ln.kind is Kind.ROW:
                yield self._puzzle(ln)

    def _error(self, exc: InvalidPuzzle, line: int) -> Record:
        return Record(self.source, line, None, exc.located(source=self.source, line=line))

    def _headed(self, first: Line) -> Record:
        """A puzzle after a header: ``N``, or box rows and box columns on two lines."""
        nxt = self._peek_content(1)
        try:
            if nxt and nxt[0].kind is Kind.NUMBER:
                self.ahead.remove(nxt[0])
                geometry = Geometry.of(first.value, nxt[0].value)
            elif first.value == 1:  # not a header: the 1x1 puzzle "1"
                return self._whole(replace(first, kind=Kind.ROW), self.box)
            else:
                geometry = Geometry.for_side(first.value)
        except InvalidPuzzle as exc:
            return self._error(exc, first.number)
        row = self._next_content()
        row = as_row(row) if row is not None else None
        if row is None or row.kind is not Kind.ROW:
            if row is not None:
                self.ahead.appendleft(row)
            return self._error(InvalidPuzzle(
                f"expected the rows of a {geometry.shape_name} grid after its header"), first.number)
        record = self._puzzle(row, self.box or geometry)
        puzzle = record.puzzle and replace(record.puzzle, line=first.number)
        return replace(record, line=first.number, puzzle=puzzle)

    def _next_content(self) -> Line | None:
        while (ln := self._next()) is not None and ln.kind in (Kind.BLANK, Kind.COMMENT,
                                                                 Kind.SEPARATOR):
            pass
        return ln

    def _puzzle(self, first: Line, geometry: Geometry | None = None) -> Record:
        """The puzzle starting at ``first``: a whole line, or the first of N rows."""
        geometry = geometry or self.box or first.geometry
        k = len(first.tokens)
        if first.fields:
            return self._whole(first, geometry)
        if geometry is not None:
            if k == geometry.side and k != geometry.n_cells:
                return self._grid(first, geometry)
            return self._whole(first, geometry)
        if self._is_row(first):
            try:
                return self._grid(first, Geometry.for_side(k))
            except InvalidPuzzle as exc:
                return self._error(exc, first.number)
        return self._whole(first, None)

    def _is_row(self, first: Line) -> bool:
        k = len(first.tokens)
        if k > MAX_SIDE:
            return False
        if first.drawing or math.isqrt(k) ** 2 != k:
            return True
        small = math.isqrt(k)
        run = [first] + self._peek_content(k - 1)
        run = run[: next((i for i, ln in enumerate(run) if len(ln.tokens) != k or ln.fields),
                         len(run))]
        table = _symbol_table(k, self.alphabet)
        return len(run) > 1 and any(
            (int(t) if first.spaced and _INT.match(t) else table.get(t, k)) > small
            for ln in run for t, _ in ln.tokens
        )

    def _grid(self, first: Line, geometry: Geometry) -> Record:
        """Collect N rows of N cells (blank lines, comments and separators may come between)."""
        rows, side = [first], geometry.side
        while len(rows) < side:
            ln = self._next_content()
            ln = as_row(ln) if ln is not None else ln
            if ln is None or ln.kind is not Kind.ROW or ln.fields or len(ln.tokens) > MAX_SIDE:
                if ln is not None:
                    self.ahead.appendleft(ln)
                return self._error(self._short_grid(rows, geometry), first.number)
            rows.append(ln)
        for ln in rows:
            if len(ln.tokens) != side:
                return self._error(InvalidPuzzle(
                    f"expected {side} cells in each row of a {geometry.shape_name} grid, "
                    f"found {len(ln.tokens)}"), ln.number)
        return self._decode(rows, geometry)

    @staticmethod
    def _short_grid(rows: list[Line], geometry: Geometry) -> InvalidPuzzle:
        side = geometry.side
        if len(rows) == 1:
            return InvalidPuzzle(
                f"expected a puzzle: {side} cells are neither a whole grid on one line (a square "
                f"count: 16, 36, 81, 256, ...) nor the first row of {side} rows")
        return InvalidPuzzle(f"the {geometry.shape_name} grid starting here ends after "
                             f"{len(rows)} of {side} rows (line {rows[-1].number})")

    def _whole(self, ln: Line, geometry: Geometry | None) -> Record:
        if ln.fields:
            columns = self.csv_columns if ln.commas else (0, 2)
            return self._with_columns(ln, geometry, columns)
        if geometry is None or len(ln.tokens) != geometry.n_cells:
            try:
                geometry = Geometry.for_cells(len(ln.tokens)) if geometry is None else geometry
            except InvalidPuzzle as exc:
                return self._error(_stray(ln) or exc, ln.number)
            if len(ln.tokens) != geometry.n_cells:
                return self._error(InvalidPuzzle(
                    f"expected {geometry.n_cells} cells for {geometry.shape_name} "
                    f"(or {geometry.side} rows of {geometry.side}), found {len(ln.tokens)}"),
                    ln.number)
        return self._decode([ln], geometry)

    def _with_columns(self, ln: Line, geometry: Geometry | None,
                      columns: tuple[int, int]) -> Record:
        """A CSV row or a tdoku ``puzzle:count:solution`` line."""
        puzzle_col, solution_col = columns
        if puzzle_col >= len(ln.fields):
            return self._error(InvalidPuzzle(f"expected a puzzle in field {puzzle_col + 1}"),
                               ln.number)
        record = self._whole(ln.fields[puzzle_col], geometry)
        if record.puzzle is None:
            return record
        count = None
        if not ln.commas and len(ln.fields) > 1:
            count = ln.fields[1].value
        expected = ln.fields[solution_col] if solution_col < len(ln.fields) else None
        solution = None
        if expected is not None and expected.tokens:
            decoder = _Decoder(self.source, record.puzzle.geometry, self.alphabet)
            try:
                solution = decoder.digits([expected], record.style, "solution column, ")
                if len(solution) != record.puzzle.geometry.n_cells or 0 in solution:
                    raise InvalidPuzzle(
                        f"expected a full solution of {record.puzzle.geometry.n_cells} digits "
                        f"in the solution column", column=expected.tokens[0][1])
            except InvalidPuzzle as exc:
                return self._error(_stray(ln) or exc, ln.number)
        return replace(record, expected=solution, expected_count=count)

    def _decode(self, lines: Sequence[Line], geometry: Geometry) -> Record:
        number = lines[0].number
        try:
            decoder = _Decoder(self.source, geometry, self.alphabet)
            style = decoder.style(lines)
            digits = decoder.digits(lines, style)
            puzzle = Puzzle(geometry, digits, self.source, number)
        except InvalidPuzzle as exc:
            return self._error(exc, number)
        return Record(self.source, number, puzzle, style=style)


def _stray(ln: Line) -> InvalidPuzzle | None:
    """The first token that no grid size could read (binary junk, stray punctuation), if any."""
    table = _symbol_table(MAX_SIDE, None)
    for token, column in ln.tokens:
        if token not in table and not (ln.spaced and _INT.match(token)):
            return InvalidPuzzle(f"expected digit symbols or empty markers, found {token!r}",
                                 column=column)
    return None


def read_puzzles(
    source: str | Path | TextIO,
    *,
    box: tuple[int, int] | str | None = None,
    alphabet: str | None = None,
    name: str | None = None,
) -> Iterator[Record]:
    """Yield one Record per puzzle (or per piece of bad input) of a file, lazily, in order.

    Memory stays constant in the file size: lines are read one at a time (at most 64 ahead, to
    group the rows of a grid), and a line longer than 256 KiB is skipped as one bad record.

    Args:
        source: a path, or an open text stream (``sys.stdin``), which is not closed.
        box: box shape ``(rows, cols)`` or ``"RxC"`` forcing the grid size (None: inferred).
        alphabet: symbols of digits 1..N for line form, ranges allowed (``"0-9A-Z"``).
        name: the source name in records (default: the path, or the stream's ``name``).

    Raises:
        OSError: the file cannot be opened or read. Bad puzzles never raise: they come as
            records whose ``error`` says where and what was expected.
        InvalidPuzzle: ``box`` or ``alphabet`` themselves are malformed.
    """
    shape = parse_box(box) if isinstance(box, str) else box
    symbols = parse_alphabet(alphabet) if alphabet else None
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8-sig", errors="replace", newline=None) as fh:
            yield from _Grouper(name or str(source), scan_lines(fh), shape, symbols).records()
    else:
        name = name or getattr(source, "name", "<stream>")
        name = name if isinstance(name, str) else "<stream>"
        yield from _Grouper(name, scan_lines(source), shape, symbols).records()


def parse_puzzle(
    text: str,
    *,
    box: tuple[int, int] | str | None = None,
    alphabet: str | None = None,
    source: str = "<string>",
) -> Puzzle:
    """Parse exactly one puzzle written in any supported form.

    >>> parse_puzzle("1.3." "3.1." ".1.3" "....").givens[:4]
    (1, 0, 3, 0)

    Raises:
        InvalidPuzzle: the text is not one valid puzzle (the error names source, line, column
            and what was expected), holds no puzzle, or holds more than one.
    """
    records = read_puzzles(io.StringIO(text), box=box, alphabet=alphabet, name=source)
    first = next(records, None)
    if first is None:
        raise InvalidPuzzle("expected a puzzle, found none", source=source)
    if first.error is not None:
        raise first.error
    second = next(records, None)
    if second is not None:
        raise InvalidPuzzle(f"expected one puzzle, found another starting on line {second.line}",
                            source=source, line=second.line)
    assert first.puzzle is not None
    return first.puzzle


def _symbols_for(grid: Sequence[int], style: Style) -> list[str]:
    if style.symbols is None:
        return [str(d + style.offset) if d else style.empty for d in grid]
    return [style.symbols[d - 1] if d else style.empty for d in grid]


def format_line(grid: Sequence[int], geometry: Geometry | None = None,
                style: Style | None = None) -> str:
    """Write a grid on one line, in ``style`` (default: digits ``1-9A-Z...``, ``.`` empty).

    >>> format_line((1, 2, 0, 4) * 4)
    '12.412.412.412.4'
    """
    style = style or Style()
    joiner = "" if style.symbols is not None else style.separator
    return joiner.join(_symbols_for(grid, style))


def format_grid(grid: Sequence[int], geometry: Geometry | None = None,
                style: Style | None = None) -> str:
    """Draw a grid with ``|`` between boxes and ``-+-`` lines between bands (reads back).

    Symbols are one character (``1-9A-Z...``) unless ``style`` writes integers.
    """
    geometry = geometry or Geometry.for_cells(len(grid))
    style = style or Style()
    cells = _symbols_for(grid, style)
    return "\n".join(_draw(cells, geometry)) + "\n"


def _draw(cells: Sequence[str], geometry: Geometry) -> list[str]:
    """Rows of equal-width cells with box separators (shared by every drawing)."""
    side, width = geometry.side, max(len(c) for c in cells)
    rows = []
    for r in range(side):
        row = [c.rjust(width) for c in cells[r * side:(r + 1) * side]]
        boxes = [" ".join(row[b:b + geometry.box_cols]) for b in range(0, side, geometry.box_cols)]
        rows.append(" | ".join(boxes))
    rule = "-+-".join("-" * len(b) for b in rows[0].split(" | "))
    out = []
    for r, text in enumerate(rows):
        if r and r % geometry.box_rows == 0:
            out.append(rule)
        out.append(text)
    return out


def format_candidates(candidates: Sequence[Sequence[int]], geometry: Geometry) -> str:
    """Draw every cell's candidates (``135``) in a box-separated grid; ``!`` marks none."""
    symbols = DEFAULT_SYMBOLS
    cells = ["".join(symbols[d - 1] for d in c) or "!" for c in candidates]
    return "\n".join(_draw(cells, geometry)) + "\n"


def format_side_by_side(puzzle: Puzzle, solution: Sequence[int] | None,
                        style: Style | None = None) -> str:
    """Draw the puzzle and its solution next to each other (the solution side empty if None)."""
    left = format_grid(puzzle.givens, puzzle.geometry, style).splitlines()
    right = (format_grid(solution, puzzle.geometry, style).splitlines() if solution
             else [""] * len(left))
    width = max(len(s) for s in left)
    return "\n".join(f"{a.ljust(width)}    {b}".rstrip() for a, b in zip(left, right)) + "\n"
