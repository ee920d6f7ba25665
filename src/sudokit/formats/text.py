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
* ``#`` comment lines and blank lines are skipped; CRLF and trailing spaces are tolerated;
* a **variant directive** ``# variant: diagonal`` (or ``standard``; case-insensitive, spaces
  optional) makes the puzzles that start after it that variant (Sudoku X: both main diagonals
  are units too), until the next directive; an unknown name is one invalid record. Every name
  of :mod:`sudokit.model.variants` is read (``killer``, ``samurai``, ``diagonal+anti-knight``);
* **Janko files** (``ROWS COLS`` header, rows of tokens, a second grid of region or cage ids;
  :mod:`sudokit.formats.janko`) and the **compact line form** ``GIVENS;IDS;SUMS``
  (:mod:`sudokit.formats.compact`) for jigsaw, killer, even-odd and layouts;
* **f-puzzles and SudokuPad data** (:mod:`sudokit.formats.fpuzzles`,
  :mod:`sudokit.formats.sudokupad`): a file whose first line (after blank and ``#`` lines) is
  JSON (``{`` or ``[``), an f-puzzles or SudokuPad link or payload (``scl...``) or LZ-String
  data (``N4Ig...``) is read as such data throughout: one JSON document, or one puzzle a line.

The grid size comes from the cell count (81 -> 9x9, 256 -> 16x16) unless a box shape is given.
A line of N <= 64 cells may be a whole small puzzle or a row of an N x N grid: it is a row when
the grid is drawn, N is not a square, or the next lines have N cells too and hold a digit too big
for the small puzzle. Pass ``box`` when a grid is so empty that this cannot tell.

Writing: :func:`format_line` (the input's own line form, see :class:`Style`), :func:`format_grid`
(a drawing that reads back; variant geometries are drawn by :mod:`sudokit.formats.drawing`),
:func:`format_candidates` and :func:`format_side_by_side`.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import TextIO

from ..errors import InvalidPuzzle
from ..model.constraints import VARIANT_NAMES, Variant
from ..model.geometry import MAX_SIDE, Geometry
from ..model.integers import integer, shown_token
from ..model.puzzle import Puzzle
from ..model.variants import VariantSpec, parse_spec
from . import fpuzzles
from .drawing import draw_text, plain_lines
from .encodings import encoding_of
from .fpuzzles_stream import is_data_line, read_fpuzzles
from .grouping import Grouper
from .janko import format_janko, spec_of_path
from .lines import (
    DEFAULT_SYMBOLS,
    EMPTY_MARKERS,
    MAX_LINE,
    Kind,
    Line,
    LineStream,
    Record,
    Style,
    scan_lines,
)

__all__ = [
    "DEFAULT_SYMBOLS",
    "EMPTY_MARKERS",
    "Style",
    "Record",
    "parse_box",
    "parse_alphabet",
    "parse_variant",
    "needs_general_reader",
    "read_puzzles",
    "parse_puzzle",
    "format_line",
    "format_grid",
    "format_candidates",
    "format_side_by_side",
    "format_panels",
]


def parse_box(text: str) -> tuple[int, int]:
    """Parse a box shape ``"RxC"`` (e.g. ``"2x3"``) into ``(box_rows, box_cols)``.

    Raises:
        InvalidPuzzle: not two positive integers around an ``x``, or a side above 64.
    """
    match = re.fullmatch(r"\s*([0-9]+)\s*[xX*]\s*([0-9]+)\s*", text)
    rows, cols = (integer(match[1]), integer(match[2])) if match else (None, None)
    if rows is None or cols is None:
        raise InvalidPuzzle("expected a box shape ROWSxCOLS such as 3x3 or 2x3, got "
                            f"{shown_token(text)}")
    Geometry.of(rows, cols)
    return rows, cols


def parse_variant(variant: Variant | str) -> Variant:
    """The :class:`~sudokit.model.constraints.Variant` named by ``variant`` (``"diagonal"``,
    ``"hyper+anti-knight"``, any case).

    Raises:
        InvalidPuzzle: no variant has that name.
    """
    if isinstance(variant, Variant):
        return variant
    try:
        return Variant(variant.strip())
    except ValueError:
        raise InvalidPuzzle(f"expected a variant ({', '.join(VARIANT_NAMES)}, combined with +), "
                            f"got {variant!r}") from None


_SNIFF = 1 << 16
_VARIANT_FORM = re.compile(rb"(?m)^[ \t]*(?:[4-9]|\d{2,3})[ \t]+(?:[4-9]|\d{2,3})[ \t]*\r?$|;")


def needs_general_reader(text: str, variant: Variant | str | VariantSpec) -> bool:
    """Whether INPUT ``text`` (a file, or ``-`` for stdin, peeked, not consumed) must be read
    by :func:`read_puzzles` rather than the array path of :mod:`sudokit.formats.lineform`: the variant
    names a type or a layout, or the input's first 64 KiB hold a Janko header (``ROWS COLS``)
    or a compact line (``;``), or the input is f-puzzles data. (A ``# variant:`` line naming a
    type or layout needs no look here: the array path hands the lines after it to the general
    reader itself.)

    Raises:
        InvalidPuzzle: ``variant`` is no variant name.
    """
    if not parse_spec(variant).is_rules_only:
        return True
    try:
        if text == "-":
            head = sys.stdin.buffer.peek(_SNIFF)[:_SNIFF]  # type: ignore[union-attr]
        else:
            with open(text, "rb") as fh:
                head = fh.read(_SNIFF)
    except (OSError, AttributeError, ValueError):
        return False
    return bool(_VARIANT_FORM.search(head)) or _starts_fpuzzles(head)


def _starts_fpuzzles(head: bytes) -> bool:
    """Whether the first line of ``head`` that is neither blank nor ``#`` starts f-puzzles
    data or the board's pencil-mark link (:func:`~sudokit.formats.fpuzzles_stream.is_data_line`)."""
    for raw in head.splitlines():
        line = raw.decode("utf-8", "replace").strip().lstrip("\ufeff")
        if line and not line.startswith("#"):
            return is_data_line(line)
    return False


class _Replayed:
    """Lines of a stream read ahead: they come again, then the rest of the stream."""

    def __init__(self, head: str, rest: LineStream) -> None:
        self._head, self._rest = io.StringIO(head), rest

    def readline(self, size: int = -1, /) -> str:
        text = self._head.readline(size)
        if not text:  # the lines read ahead are used up: read the stream itself from now on
            self.readline = self._rest.readline  # type: ignore[method-assign]
            return self._rest.readline(size)
        if text.endswith(("\n", "\r")) or (0 <= size == len(text)):
            return text
        return text + self._rest.readline(size - len(text) if size >= 0 else -1)


def _peek_fpuzzles(stream: TextIO) -> tuple[bool, LineStream]:
    """Whether a stream holds f-puzzles data (its first line not blank and not ``#``), and the
    stream to read from (the same stream rewound, or one replaying the lines read ahead)."""
    seen: list[str] = []
    found = False
    while text := stream.readline(MAX_LINE):
        seen.append(text)
        line = text.strip().lstrip("\ufeff")
        if line and not line.startswith("#"):
            found = is_data_line(line)
            break
    try:
        if stream.seekable():
            stream.seek(0)
            return found, stream
    except (OSError, ValueError, AttributeError):
        pass
    return found, _Replayed("".join(seen), stream)


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


def read_puzzles(
    source: str | Path | TextIO,
    *,
    box: tuple[int, int] | str | None = None,
    alphabet: str | None = None,
    name: str | None = None,
    skip_header: bool = False,
    variant: Variant | str | VariantSpec = Variant.STANDARD,
) -> Iterator[Record]:
    """Yield one Record per puzzle (or per piece of bad input) of a file, lazily, in order.

    Memory stays constant in the file size: lines are read one at a time (at most 64 ahead, to
    group the rows of a grid), and a line longer than 256 KiB is skipped as one bad record.

    Args:
        source: a path, or an open text stream (``sys.stdin``), which is not closed.
        box: box shape ``(rows, cols)`` or ``"RxC"`` forcing the grid size (None: inferred).
        alphabet: symbols of digits 1..N for line form, ranges allowed (``"0-9A-Z"``).
        name: the source name in records (default: the path, or the stream's ``name``).
        skip_header: line 1 is a free-text title (``Sudoku puzzles``), not a puzzle: skip it.
        variant: the variant of the puzzles before the first ``# variant:`` directive line
            (a :class:`~sudokit.model.constraints.Variant`, a name of :mod:`sudokit.model.variants`
            such as ``"diagonal"``, ``"killer"`` or ``"samurai"``, or a ``VariantSpec``). A
            Janko file whose variant and directives name no layout or type takes them from
            its folder's name (``SamuraiSudoku/``), see :mod:`sudokit.formats.janko`.

    Raises:
        OSError: the file cannot be opened or read. Bad puzzles never raise: they come as
            records whose ``error`` says where and what was expected.
        InvalidPuzzle: ``box``, ``alphabet`` or ``variant`` themselves are malformed.
    """
    shape = parse_box(box) if isinstance(box, str) else box
    symbols = parse_alphabet(alphabet) if alphabet else None
    rules = parse_spec(variant)

    def lines(stream: LineStream, first: int = 1) -> Iterator[Line]:
        for line in scan_lines(stream, first):
            yield Line(1, Kind.COMMENT) if skip_header and line.number == 1 else line

    def records(opened: TextIO, name: str, folder: VariantSpec | None) -> Iterator[Record]:
        found, stream = _peek_fpuzzles(opened)
        if not found:
            return Grouper(name, lines(stream), shape, symbols, rules, folder).records()

        def rest(after: LineStream, head: str, first: int) -> Iterator[Record]:
            # the lines after f-puzzles data that are none: the general reader, afresh
            return Grouper(name, lines(_Replayed(head, after), first), shape, symbols, rules,
                           folder).records()
        return read_fpuzzles(stream, name, rest)

    if isinstance(source, (str, Path)):
        with open(source, "rb") as raw:
            encoding = encoding_of(raw.read(4))
        with open(source, encoding=encoding, errors="replace", newline=None) as fh:
            yield from records(fh, name or str(source), spec_of_path(source))
    else:
        name = name or getattr(source, "name", "<stream>")
        yield from records(source, name if isinstance(name, str) else "<stream>", None)


_PLAIN_9X9 = re.compile(r"[0-9.]{81}\Z")
"""A 9x9 puzzle in plain line form: digits, ``0`` or ``.`` for an empty cell, nothing else."""


@cache
def _standard_9x9() -> Geometry:
    return Geometry.of(3, 3)


def parse_puzzle(
    text: str,
    *,
    box: tuple[int, int] | str | None = None,
    alphabet: str | None = None,
    source: str = "<string>",
    variant: Variant | str | VariantSpec = Variant.STANDARD,
) -> Puzzle:
    """Parse exactly one puzzle written in any supported form (``variant``: its rules unless
    a ``# variant:`` line in ``text`` says otherwise).

    >>> parse_puzzle("1.3." "3.1." ".1.3" "....").givens[:4]
    (1, 0, 3, 0)

    Raises:
        InvalidPuzzle: the text is not one valid puzzle (the error names source, line, column
            and what was expected), holds no puzzle, or holds more than one.
    """
    if (len(text) == 81 and box is None and alphabet is None and variant is Variant.STANDARD
            and _PLAIN_9X9.match(text)):
        # the commonest form, read without the general reader (the same Puzzle: tested)
        givens = tuple(int(c) if c != "." else 0 for c in text)
        return Puzzle(_standard_9x9(), givens, source, 1)
    records = read_puzzles(io.StringIO(text), box=box, alphabet=alphabet, name=source,
                           variant=variant)
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
    """Write a grid on one line, in ``style`` (default: digits ``1-9A-Z...``, ``.`` empty),
    after the style's order prefix if it has one; a style read from a Janko file writes the
    Janko form instead (header and canvas rows, several lines, no final newline).

    >>> format_line((1, 2, 0, 4) * 4)
    '12.412.412.412.4'
    """
    style = style or Style()
    if style.janko is not None:
        return format_janko(grid, style.janko, style.empty)
    if style.fpuzzles is not None:
        return fpuzzles.format_fpuzzles(grid, style.fpuzzles)
    joiner = "" if style.symbols is not None else style.separator
    return style.prefix + joiner.join(_symbols_for(grid, style))


def format_grid(grid: Sequence[int], geometry: Geometry | None = None,
                style: Style | None = None) -> str:
    """Draw a grid (see :mod:`sudokit.formats.drawing`).

    A plain geometry (one N x N grid with rectangular boxes, any variant) is drawn with ``|``
    between boxes and ``-+-`` lines between bands, and reads back as a puzzle. Jigsaw regions,
    killer cages (with their totals), even/odd cells and multi-grid layouts are drawn on the
    canvas with Unicode box-drawing lines; those drawings are for reading, not for reading back.
    Symbols are one character (``1-9A-Z...``) unless ``style`` writes integers.
    """
    geometry = geometry or Geometry.for_cells(len(grid))
    style = style or Style()
    cells = _symbols_for(grid, style)
    if geometry.is_plain:  # the common case, without the per-cell texts of variant drawings
        return "\n".join(plain_lines(cells, geometry)) + "\n"
    return draw_text(geometry, [s if d else "" for s, d in zip(cells, grid)], empty=style.empty)


def format_candidates(candidates: Sequence[Sequence[int]], geometry: Geometry) -> str:
    """Draw every cell's candidates (``135``) like :func:`format_grid`; ``!`` marks none."""
    symbols = DEFAULT_SYMBOLS
    return draw_text(geometry, ["".join(symbols[d - 1] for d in c) or "!" for c in candidates])


_SIDE_BY_SIDE_COLUMNS = 100
"""Widest pair of variant drawings put side by side; wider ones are written one under the
other (plain drawings are always side by side)."""


def format_side_by_side(puzzle: Puzzle, solution: Sequence[int] | None,
                        style: Style | None = None) -> str:
    """Draw the puzzle and its solution next to each other (the solution side empty if None);
    variant drawings wider than 100 columns together (samurai, 16x16 killer) are written one
    under the other, with a blank line between."""
    left = format_grid(puzzle.givens, puzzle.geometry, style).splitlines()
    right = (format_grid(solution, puzzle.geometry, style).splitlines() if solution
             else [""] * len(left))
    width = max(len(s) for s in left)
    if not puzzle.geometry.is_plain and 2 * width + 4 > _SIDE_BY_SIDE_COLUMNS:
        return "\n".join(left + ([""] + right if solution else [])) + "\n"
    return "\n".join(f"{a.ljust(width)}    {b}".rstrip() for a, b in zip(left, right)) + "\n"


def format_panels(panels: Sequence[tuple[str, Sequence[int] | None]], geometry: Geometry,
                  style: Style | None = None) -> str:
    """Draw titled grids side by side (e.g. the puzzle, the grid after AC-3, the solution).

    Args:
        panels: ``(title, grid)`` pairs; a grid of N**2 ints (0 empty), or None for a panel
            that says ``(none)``.
        geometry: the grid shape of every panel.

    >>> print(format_panels([("a", [1, 0, 0, 1]), ("b", None)], Geometry.of(1, 2)), end="")
    a      b
    1 .    (none)
    ---
    . 1
    """
    drawn = [format_grid(grid, geometry, style).splitlines() if grid is not None else ["(none)"]
             for _title, grid in panels]
    width = [max(len(line) for line in [title, *lines])
             for (title, _grid), lines in zip(panels, drawn)]
    height = max(len(lines) for lines in drawn)
    rows = ["    ".join(title.ljust(w) for (title, _g), w in zip(panels, width)).rstrip()]
    for i in range(height):
        rows.append("    ".join((lines[i] if i < len(lines) else "").ljust(w)
                                for lines, w in zip(drawn, width)).rstrip())
    return "\n".join(rows) + "\n"
