"""The text layer of :mod:`sudokit.formats`: its value types and the scanning of input lines.

:class:`Style` and :class:`Record` are re-exported by :mod:`sudokit.formats` (import them from
there). A line is scanned on its own (no context): blank, comment, separator of a drawing, a lone
integer (a size header), a CSV header, an error (too long), or a row of cell tokens with their
1-based columns. Grouping rows into puzzles is the job of :mod:`sudokit.formats.grouping`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple, Protocol

from ..errors import InvalidPuzzle
from ..model.constraints import Variant
from ..model.geometry import DEFAULT_SYMBOLS, MAX_SIDE, Geometry
from ..model.integers import MAX_DIGITS, integer
from ..model.puzzle import Grid, Puzzle
from ..model.variants import ALL_NAMES, VariantSpec, parse_spec

__all__ = ["DEFAULT_SYMBOLS", "EMPTY_MARKERS", "FPuzzlesForm", "Style", "Record", "Kind", "Line",
           "MAX_LINE", "LineStream", "scan_line", "scan_lines", "as_row", "overlong_line",
           "Directives"]

EMPTY_MARKERS = ".0_-*x"
"""Characters that mark an empty cell (unless the grid's alphabet uses them as digits)."""

class FPuzzlesForm(NamedTuple):
    """How an f-puzzles puzzle was written, to write its solution the same way.

    Attributes:
        data: the JSON text of the puzzle (decompressed).
        prefix: ``""`` for JSON as is, ``"N4Ig"`` for bare compressed data, else the link
            before the compressed data (``"https://www.f-puzzles.com/?load="``).
    """

    data: str
    prefix: str


@dataclass(frozen=True)
class Style:
    """How a puzzle was written, so that its solution can be written back the same way.

    Attributes:
        symbols: one character per digit (``symbols[d - 1]``); None writes integers.
        empty: the empty marker seen in the input (``"."`` when none was seen).
        separator: between integers (``" "`` or ``","``); unused with symbols.
        offset: added to each digit when written (``-1`` for zero-based values).
        prefix: written before the line form: the order prefix (``"3 "`` for a line read as
            ``3 0004...``), or empty.
        janko: the geometry of a puzzle read from a Janko file (``ROWS COLS`` header): its
            solution is written in that form on that canvas; None for line form.
        fpuzzles: the f-puzzles data a puzzle was read from
            (:class:`FPuzzlesForm`): its solution is written as that
            data with the values filled; None otherwise.
    """

    symbols: str | None = DEFAULT_SYMBOLS
    empty: str = "."
    separator: str = " "
    offset: int = 0
    prefix: str = ""
    janko: Geometry | None = None
    fpuzzles: FPuzzlesForm | None = None


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


MAX_LINE = 1 << 18
"""Longest line read (characters); a longer one is skipped as one error (the 64x64 forms fit)."""

_BOX_CHARS = re.compile("[|\u2500-\u257f]")
_SEPARATOR = re.compile("[-+=|\u2500-\u257f ]+")
_FRAME = re.compile("[.:'*][-.:'*+|=\u2500-\u257f ]*")
"""A frame line of a pencil-mark grid (``.---.``, ``:---+---:``, ``'---'``, ``*---*``) when it
holds ``---``: a separator."""
_CELL_LIKE = re.compile(r"-?\d{1,2}\Z")
_TOKEN = re.compile(r"\S+")
_HEADER_FIELD = re.compile(r"[A-Za-z_][A-Za-z_ ]*")
_DIRECTIVE = re.compile(r"\s*#\s*variant\s*:\s*", re.IGNORECASE)
_PUZZLE_NAMES = ("quizzes", "quiz", "puzzle", "puzzles", "question", "board", "grid", "sudoku")
_SOLUTION_NAMES = ("solutions", "solution", "answer", "answers", "solved")


class Kind(Enum):
    """What a scanned line is."""

    BLANK = "blank"
    COMMENT = "comment"
    SEPARATOR = "separator"
    NUMBER = "number"
    CSV_HEADER = "csv header"
    DIRECTIVE = "directive"
    COMPACT = "compact"
    ROW = "row"
    ERROR = "error"


@dataclass(frozen=True)
class Line:
    """One scanned line (or one field of a CSV or tdoku line).

    Attributes:
        number: 1-based line number.
        kind: what the line is.
        tokens: ``(symbol, column)`` per cell, columns 1-based.
        spaced: cells are separated by spaces or commas (integers allowed), not one per character.
        commas: the line is comma-separated (CSV row or comma-separated integers).
        drawing: the line had ``|`` or box-drawing characters (so it is a row of a grid).
        fields: the columns of a CSV row, or ``(puzzle, count, solution)`` of a tdoku line.
        geometry: the grid of an order-prefix line (``3 0004...``); None otherwise.
        order_one: the line is ``1 0``, ``1 1`` or ``1 .``: an order-1 prefix line, unless a
            row of a 2x2 grid follows it.
        value: the integer of a NUMBER line.
        columns: ``(puzzle, solution)`` field indices named by a CSV header.
        variant: the whole-grid rules a DIRECTIVE line (``# variant: diagonal``) sets.
        spec: the whole variant a DIRECTIVE line names (rules, puzzle types, layout).
        message, column: what is wrong with an ERROR line, and where.
    """

    number: int
    kind: Kind
    tokens: tuple[tuple[str, int], ...] = ()
    spaced: bool = False
    commas: bool = False
    drawing: bool = False
    fields: tuple[Line, ...] = ()
    geometry: Geometry | None = None
    order_one: bool = False
    value: int = 0
    columns: tuple[int, int] = (0, 1)
    variant: Variant | None = None
    spec: VariantSpec | None = None
    message: str = ""
    column: int | None = None


class LineStream(Protocol):
    """What the readers read lines from: an open text stream, or lines read ahead and then the
    rest of a stream; ``readline(size)`` returns at most ``size`` characters, "" at the end."""

    def readline(self, size: int = -1, /) -> str: ...


def scan_lines(stream: LineStream, first: int = 1) -> Iterator[Line]:
    """Scan a text stream line by line (at most :data:`MAX_LINE` characters held at once);
    its first line is line ``first`` of the input."""
    number = first - 1
    while text := stream.readline(MAX_LINE):
        number += 1
        if len(text) >= MAX_LINE and not text.endswith(("\n", "\r")):
            size = len(text)
            while chunk := stream.readline(MAX_LINE):
                size += len(chunk.rstrip("\r\n"))
                if chunk.endswith(("\n", "\r")):
                    break
            yield overlong_line(number, size)
            continue
        yield scan_line(text.lstrip("\ufeff") if number == first else text, number)


def overlong_line(number: int, size: int) -> Line:
    """The error line for a line of ``size`` characters, longer than :data:`MAX_LINE`."""
    return Line(number, Kind.ERROR, message=(
        f"line of {size:,} characters is longer than any puzzle form "
        f"(at most {MAX_LINE:,} read)"), column=1)


def scan_line(text: str, number: int) -> Line:
    """Scan one line of text (its newline and trailing spaces are ignored, and a byte-order
    mark starting it: files joined with ``cat``)."""
    raw = text.rstrip().removeprefix("\ufeff")
    stripped = raw.strip()
    if not stripped:
        return Line(number, Kind.BLANK)
    if stripped.startswith("#"):
        return _directive(raw, number) or Line(number, Kind.COMMENT)
    if _SEPARATOR.fullmatch(stripped):
        # "- - - -": a separator, or an empty row of a Janko file (its tokens kept for that)
        dashes = tuple((m.group(), m.start() + 1) for m in _TOKEN.finditer(raw))
        rows = len(dashes) >= 2 and all(t == "-" for t, _ in dashes)
        return Line(number, Kind.SEPARATOR, dashes if rows else ())
    if _FRAME.fullmatch(stripped) and "---" in stripped:
        return Line(number, Kind.SEPARATOR)
    if ";" in raw:
        return _compact(raw, number)
    if "," in raw:
        return _csv(raw, number)
    if ":" in raw:
        return _colon(raw, number)
    return _row(raw, number)


def _directive(raw: str, number: int) -> Line | None:
    """A ``# variant: NAME`` line (case-insensitive, spaces optional) as a DIRECTIVE line, or an
    ERROR line naming the variants if NAME is none; None for any other comment."""
    match = _DIRECTIVE.match(raw)
    if match is None:
        return None
    try:
        spec = parse_spec(raw[match.end():])
    except InvalidPuzzle as exc:
        names = ", ".join(ALL_NAMES) + " (combined with +)"
        text = raw[match.end():].strip()
        why = exc.reason if "layout" in exc.reason else f"expected {names}, found {text!r}"
        return Line(number, Kind.ERROR, column=match.end() + 1,
                    message=f"variant directive: {why}")
    return Line(number, Kind.DIRECTIVE, variant=spec.rules, spec=spec)


class Directives:
    """Which variant is in force at each line of one input: the default, then the variant of
    each ``# variant:`` directive for the lines after it (until the next directive).

    Args:
        variant: the variant before any directive (the command line's ``--variant``).
    """

    def __init__(self, variant: Variant | VariantSpec = Variant.STANDARD) -> None:
        spec = parse_spec(variant)
        self.lines: list[int] = [0]
        self.variants: list[Variant] = [spec.rules]
        self.specs: list[VariantSpec] = [spec]

    def add(self, line: int, variant: Variant, spec: VariantSpec | None = None) -> None:
        """A directive on ``line`` (1-based; lines are added in increasing order): its rules
        and, when it names puzzle types or a layout, its whole ``spec``."""
        self.lines.append(line)
        self.variants.append(variant)
        self.specs.append(spec or VariantSpec(variant))

    def at(self, line: int) -> Variant:
        """The variant in force for a puzzle starting on ``line``."""
        return self.variants[bisect_left(self.lines, line) - 1]

    def spec_at(self, line: int) -> VariantSpec:
        """The whole variant (rules, types, layout) in force for a puzzle starting on
        ``line``."""
        return self.specs[bisect_left(self.lines, line) - 1]

    def forget_before(self, line: int) -> None:
        """Drop the directives no puzzle starting on ``line`` or later can need."""
        keep = max(bisect_left(self.lines, line) - 1, 0)
        del self.lines[:keep], self.variants[:keep], self.specs[:keep]

    def apply(self, record: Record) -> Record:
        """The record with its puzzle in the variant in force at its first line."""
        puzzle = record.puzzle
        if puzzle is None:
            return record
        variant = self.at(record.line)
        geometry = puzzle.geometry
        if geometry.variant is variant:
            return record
        geometry = geometry.with_variant(variant)
        return replace(record, puzzle=replace(puzzle, geometry=geometry))


def _row(raw: str, number: int, offset: int = 0, commas: bool = False) -> Line:
    """A row of cells: spaced tokens, or one cell per character."""
    masked = _BOX_CHARS.sub(" ", raw)
    drawing = masked != raw
    if commas:
        masked = masked.replace(",", " ")
    tokens = tuple((m.group(), m.start() + 1 + offset) for m in _TOKEN.finditer(masked))
    order = integer(tokens[0][0], signed=False) if len(tokens) == 2 and not commas else None
    if order is not None and len(tokens[0][0]) == 1:
        if order >= 2 and len(tokens[1][0]) == order**4:
            return Line(number, Kind.ROW, _chars(tokens[1:]), geometry=Geometry.of(order, order))
        if order == 1 and not drawing and (tokens[1][0] in ("0", "1")
                                           or tokens[1][0] in EMPTY_MARKERS):
            # "1 0", "1 1": order 1 (1 <= N), or the first row of a spaced 2x2 grid: the
            # grouper decides by the next line
            return Line(number, Kind.ROW, tokens, spaced=True, order_one=True)
    if len(tokens) == 1 and not (drawing or commas) and len(tokens[0][0]) <= 2:
        value = integer(tokens[0][0], signed=False)
        if value is not None and 1 <= value <= MAX_SIDE:
            return Line(number, Kind.NUMBER, tokens, value=value)
    spaced = commas or _integer_layout(tokens)
    cells = tokens if spaced else _chars(tokens)
    return Line(number, Kind.ROW, cells, spaced=spaced, commas=commas, drawing=drawing)


def _integer_layout(tokens: tuple[tuple[str, int], ...]) -> bool:
    """Whether spaced tokens are one cell each (integers such as ``0 11 9``), not runs of
    one-character cells: all are cell-like (``-1``, ``16``, ``.``), or at least 4 of 5 are, so
    that a typo (``x1``, ``1.5``) among integers is reported at its column instead of making
    the line read one character per cell."""
    if len(tokens) < 2:
        return False
    odd = sum(1 for t, _ in tokens if not (len(t) == 1 or _CELL_LIKE.match(t)))
    return odd == 0 or (len(tokens) >= 5 and 5 * odd <= len(tokens))


def as_row(line: Line) -> Line:
    """A NUMBER line read as a row of one-character cells (``"22"`` in a 2x2 grid)."""
    if line.kind is not Kind.NUMBER:
        return line
    return Line(line.number, Kind.ROW, _chars(line.tokens))


def _chars(tokens: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    if len(tokens) == 1 and "+" not in tokens[0][0]:
        text, column = tokens[0]
        return tuple(zip(text, range(column, column + len(text))))
    return tuple((ch, col + i) for tok, col in tokens for i, ch in enumerate(tok) if ch != "+")


def _compact(raw: str, number: int) -> Line:
    """The compact line form ``GIVENS;FIELD;...`` (:mod:`sudokit.formats.compact`): a
    COMPACT line whose first field is the givens row and the others one token each; its
    ``column`` is that of the first ``;``."""
    parts = raw.split(";")
    fields, offset = [], 0
    for k, part in enumerate(parts):
        if k == 0:
            fields.append(_row(part, number))
        else:
            stripped = part.strip()
            column = offset + len(part) - len(part.lstrip()) + 1
            fields.append(Line(number, Kind.ROW, ((stripped, column),)))
        offset += len(part) + 1
    return Line(number, Kind.COMPACT, fields=tuple(fields), column=len(parts[0]) + 1)


def _csv(raw: str, number: int) -> Line:
    """A CSV header, a CSV row (``quizzes,solutions``) or comma-separated integers."""
    parts = raw.split(",")
    if all(_CELL_LIKE.match(p.strip()) or len(p.strip()) <= 1 for p in parts):
        return _row(raw, number, commas=True)
    names = [p.strip().lower() for p in parts]
    if all(_HEADER_FIELD.fullmatch(n) for n in names):
        puzzle = next((i for i, n in enumerate(names) if n in _PUZZLE_NAMES), 0)
        solution = next((i for i, n in enumerate(names) if n in _SOLUTION_NAMES), len(names))
        return Line(number, Kind.CSV_HEADER, columns=(puzzle, solution))
    fields, offset = [], 0
    for part in parts:
        fields.append(_row(part, number, offset))
        offset += len(part) + 1
    return Line(number, Kind.ROW, commas=True, fields=tuple(fields))


def _colon(raw: str, number: int) -> Line:
    """tdoku's ``puzzle:count[:solution]``."""
    parts = raw.split(":")
    count = integer(parts[1].strip(), signed=False)
    if count is None or len(parts) > 3:
        column = len(parts[0]) + 2
        return Line(number, Kind.ERROR, column=column, message=(
            "expected 'puzzle:count' or 'puzzle:count:solution' with a whole-number count "
            f"(at most {MAX_DIGITS} digits)"))
    fields = [_row(parts[0], number), Line(number, Kind.NUMBER, value=count)]
    if len(parts) == 3:
        fields.append(_row(parts[2], number, len(parts[0]) + len(parts[1]) + 2))
    return Line(number, Kind.ROW, fields=tuple(fields))
