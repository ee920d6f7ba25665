"""Grouping scanned lines into puzzles (the engine of formats; symbols are decoded by
:mod:`sudokit.formats.symbols`).

A line of cells is a whole puzzle or the first row of a grid; :class:`Grouper` decides, with at
most N lines of look-ahead, collects rows across blank lines and separators, honours size
headers, CSV columns and tdoku fields, and turns each group into a :class:`Record`. A
``# variant: diagonal`` directive line sets the variant of the puzzles starting after it.

Variant forms: a ``ROWS COLS`` line (two integers 4..200) followed by a row of COLS tokens
starts a Janko file (:mod:`sudokit.formats.janko`), and a line holding ``;`` is the compact
line form (:mod:`sudokit.formats.compact`). A variant naming a layout (``samurai``) makes a
line of the layout's cell count one puzzle on it; a variant naming ``jigsaw``, ``killer`` or
``even-odd`` makes a puzzle without those constraints one invalid record.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from ..errors import InvalidPuzzle
from ..model.constraints import Variant
from ..model.geometry import MAX_SIDE, Geometry
from ..model.integers import integer
from ..model.layouts import LAYOUTS
from ..model.puzzle import Puzzle
from ..model.variants import VariantSpec
from . import compact, janko
from .lines import Directives, Kind, Line, Record, Style, as_row
from .sukaku import candidate_row, is_cube, marks_puzzle, sukaku_puzzle, sukaku_side
from .symbols import INTEGER_TOKEN, Decoder, count_mismatch, not_square, stray_token, symbol_table

__all__ = ["Grouper"]

_NOT_CONTENT = (Kind.BLANK, Kind.COMMENT, Kind.SEPARATOR, Kind.DIRECTIVE)


class Grouper:
    """Groups scanned lines into puzzles (one line, N rows, headers) and decodes them.

    ``variant`` is the variant of the puzzles before the first directive line (whole-grid
    rules, or a :class:`~sudokit.model.variants.VariantSpec` with types and a layout);
    ``fallback`` is what a Janko file is read as when neither names a layout or type (the
    variant of the folder around the file, see :func:`sudokit.formats.janko.spec_of_path`).
    """

    def __init__(self, source: str, lines: Iterable[Line], box: tuple[int, int] | None,
                 alphabet: str | None, variant: Variant | VariantSpec = Variant.STANDARD,
                 fallback: VariantSpec | None = None) -> None:
        self.source = source
        self.directives = Directives(variant)
        self.fallback = fallback
        self.lines = iter(lines)
        self.ahead: deque[Line] = deque()
        self.box = Geometry.of(*box) if box else None
        self.alphabet = alphabet
        self.csv_columns = (0, 1)

    def _next(self) -> Line | None:
        ln = self.ahead.popleft() if self.ahead else next(self.lines, None)
        if ln is not None and ln.kind is Kind.DIRECTIVE and ln.variant is not None:
            self.directives.add(ln.number, ln.variant, ln.spec)
        return ln

    def _ahead_at(self, i: int) -> Line | None:
        """The i-th line not consumed yet (read ahead as needed), or None past the end."""
        while len(self.ahead) <= i:
            nxt = next(self.lines, None)
            if nxt is None:
                return None
            self.ahead.append(nxt)
        return self.ahead[i]

    def _peek_content(self, depth: int) -> list[Line]:
        """The next ``depth`` lines that are not blank, comments or separators (not consumed)."""
        found, i = list[Line](), 0
        while len(found) < depth:
            if self._ahead_at(i) is None:
                return found
            if self.ahead[i].kind not in _NOT_CONTENT:
                found.append(self.ahead[i])
            i += 1
        return found

    def records(self) -> Iterator[Record]:
        """Yield the records, each puzzle in the variant in force where it starts."""
        for record in self._records():
            yield self._kinds_checked(self.directives.apply(record))
            self.directives.forget_before(record.line)

    def _kinds_checked(self, record: Record) -> Record:
        """The record, or an error when the variant in force names a type (jigsaw, killer,
        even-odd) its puzzle does not have."""
        if record.puzzle is None:
            return record
        missing = self.directives.spec_at(record.line).kinds - record.puzzle.geometry.features
        if not missing:
            return record
        return self._error(InvalidPuzzle(
            f"the variant names {' and '.join(sorted(missing))}, but this puzzle has no "
            f"{' or '.join(_WHAT[k] for k in sorted(missing))} (write them in the compact "
            f"form GIVENS;FIELD... or a Janko file)", column=1), record.line)

    def _records(self) -> Iterator[Record]:
        while (ln := self._next()) is not None:
            if ln.kind is Kind.ERROR:
                yield self._error(InvalidPuzzle(ln.message, column=ln.column), ln.number)
            elif ln.kind is Kind.CSV_HEADER:
                self.csv_columns = ln.columns
            elif ln.kind is Kind.NUMBER:
                yield self._headed(ln)
            elif ln.kind is Kind.COMPACT:
                yield self._compact(ln)
            elif ln.kind is Kind.ROW and self._janko_canvas(ln):
                yield self._janko(ln)
            elif ln.kind is Kind.ROW:
                yield self._puzzle(ln)

    def _error(self, exc: InvalidPuzzle, line: int) -> Record:
        return Record(self.source, line, None, exc.located(source=self.source, line=line))

    def _headed(self, first: Line) -> Record:
        """A puzzle after a header: ``N``, or box rows and box columns on two lines.

        A header is taken only when the line after it fits the grid it names (a whole grid on
        one line, or its first row); otherwise the number line alone is one invalid record and
        what follows is read as if it were not there (a stray ``2`` never swallows a puzzle).
        """
        ahead = self._peek_content(2)
        two = bool(ahead) and ahead[0].kind is Kind.NUMBER
        if not two and first.value == 1:  # not a header: the 1x1 puzzle "1"
            return self._whole(replace(first, kind=Kind.ROW), self.box)
        try:
            geometry = (Geometry.of(first.value, ahead[0].value) if two
                        else Geometry.for_side(first.value))
        except InvalidPuzzle as exc:
            return self._error(exc.located(column=first.tokens[0][1]), first.number)
        row = ahead[1] if two and len(ahead) > 1 else (None if two else next(iter(ahead), None))
        row = as_row(row) if row is not None else None
        fits = (row is not None and row.kind is Kind.ROW and not row.fields
                and len(row.tokens) in (geometry.side, geometry.n_cells))
        if not fits:
            found = ("nothing" if row is None else f"a line of {len(row.tokens)} cells"
                     if row.kind is Kind.ROW and not row.fields else "no grid")
            what = (f"box rows {first.value} and box columns {ahead[0].value}" if two
                    else f"{first.value}")
            return self._error(InvalidPuzzle(
                f"a number alone on a line: as a size header ({what}) it needs a "
                f"{geometry.shape_name} grid after it ({geometry.n_cells} cells on one line or "
                f"rows of {geometry.side}), but {found} follows", column=first.tokens[0][1]),
                first.number)
        if two:
            self.ahead.remove(ahead[0])
        record = self._puzzle(self._next_content_row(), self.box or geometry)
        puzzle = record.puzzle and replace(record.puzzle, source_line=first.number)
        return replace(record, line=first.number, puzzle=puzzle)

    def _next_content_row(self) -> Line:
        ln = self._next_content()
        assert ln is not None  # peeked before
        return as_row(ln)

    def _next_content(self) -> Line | None:
        while (ln := self._next()) is not None and ln.kind in _NOT_CONTENT:
            pass
        return ln

    def _layout_geometry(self, line: int) -> Geometry | None:
        """The geometry of the layout the variant in force names, or None."""
        name = self.directives.spec_at(line).layout
        return None if name is None else Geometry.of(3, 3, layout=LAYOUTS[name])

    def _janko_canvas(self, ln: Line) -> tuple[int, int] | None:
        """The canvas of a Janko header line followed by a row of as many tokens as it
        has columns, else None."""
        canvas = janko.is_janko_header(ln.tokens) if ln.spaced and not ln.fields else None
        if canvas is None:
            return None
        ahead = self._peek_content(1)
        fits = (bool(ahead) and ahead[0].kind in (Kind.ROW, Kind.NUMBER)
                and not ahead[0].fields and len(_tokens(ahead[0])) == canvas[1])
        return canvas if fits else None

    def _janko(self, header: Line) -> Record:
        """A Janko file's puzzle: the header, ROWS rows, and maybe ROWS rows of ids."""
        canvas = janko.is_janko_header(header.tokens)
        assert canvas is not None
        spec = self.directives.spec_at(header.number)
        if self.fallback is not None and spec.layout is None and not spec.kinds:
            spec = VariantSpec(spec.rules, self.fallback.kinds, self.fallback.layout)
        count = canvas[0]
        ahead = self._janko_rows(2 * count if janko.needs_second_grid(canvas, spec) else count,
                                 canvas[1])
        second = ahead[count:2 * count]
        if len(second) == count and janko.is_janko_header(_tokens(second[0])) is None:
            count *= 2
        rows: list[janko.Row] = [(ln.number, _tokens(ln)) for ln in ahead[:count]]
        while rows and self.ahead and self.ahead[0].number <= rows[-1][0]:
            self._next()  # the rows of the grid, even a broken one: what follows is read afresh
        if len(ahead) < canvas[0]:
            return self._error(self._janko_break(header, canvas, len(ahead)), header.number)
        try:
            puzzle = janko.janko_puzzle((header.number, header.tokens), rows, spec, self.source)
        except InvalidPuzzle as exc:
            return self._error(exc, header.number)
        empty = "." if any(t == "." for _, tokens in rows for t, _ in tokens) else "-"
        return Record(self.source, header.number, puzzle,
                      style=Style(janko=puzzle.geometry, empty=empty))

    def _janko_rows(self, depth: int, cols: int) -> list[Line]:
        """The next ``depth`` rows of a Janko file of ``cols`` columns (not consumed): rows of
        ``cols`` cells or ``-``, skipping blank, comment and directive lines; fewer if another
        line comes (a row too short or too long is no row of the grid)."""
        found, i = list[Line](), 0
        while len(found) < depth:
            ln = self._ahead_at(i)
            if ln is None:
                return found
            if _is_janko_row(ln, cols):
                found.append(ln)
            elif ln.kind not in (Kind.BLANK, Kind.COMMENT, Kind.DIRECTIVE):
                return found
            i += 1
        return found

    def _janko_break(self, header: Line, canvas: tuple[int, int], found: int) -> InvalidPuzzle:
        """The error of a Janko grid that ends after ``found`` rows, at the line that follows
        them (not consumed): a row of another length (at its first extra cell, or its end) or
        another line; at the header when the input ends."""
        rows, cols = canvas
        what = (f"expected {rows} rows of {cols} tokens after the Janko header {rows} {cols} "
                f"(line {header.number}), found {found}")
        after = next((ln for ln in self.ahead if ln.kind not in _NOT_CONTENT
                      or (ln.kind is Kind.SEPARATOR and ln.tokens)), None)
        if after is None:
            return InvalidPuzzle(f"{what}, then the end of the input", column=1)
        if after.kind in (Kind.ROW, Kind.NUMBER, Kind.SEPARATOR) and not after.fields:
            row = replace(after, tokens=_tokens(after), spaced=True)
            return count_mismatch(row, cols, f"{what}; this line is no row of the grid: "
                                  f"expected {cols} tokens per row").located(line=after.number)
        return InvalidPuzzle(f"{what}; this line is no row of the grid", line=after.number,
                             column=1)

    def _compact(self, ln: Line) -> Record:
        """A line of the compact form ``GIVENS;FIELD;...``."""
        givens, *rest = ln.fields
        spec = self.directives.spec_at(ln.number)
        first = rest[0].tokens[0][0] if rest and rest[0].tokens else ""
        try:
            if len(first) != len(givens.tokens):
                raise InvalidPuzzle("fields differ")
            shape = (self._layout_geometry(ln.number) or self.box or givens.geometry
                     or Geometry.for_cells(len(givens.tokens)))
        except InvalidPuzzle:  # not a grid and its ids: a stray ';' in another form
            return self._error(stray_token(givens) or InvalidPuzzle(
                f"expected a digit symbol or an empty marker, found ';' (the compact form "
                f"GIVENS;FIELD... has a whole grid of givens, then a field of as many ids or "
                f"marks; here {len(givens.tokens)} givens and {len(first)} characters)",
                column=ln.column), ln.number)
        fields = [f.tokens[0] if f.tokens else ("", 1) for f in rest]
        try:
            regions, cages, parity = compact.constraints(fields, shape)
            geometry = Geometry.of(shape.box_rows, shape.box_cols, spec.rules, regions=regions,
                                   cages=cages, parity=parity, layout=shape.layout)
        except InvalidPuzzle as exc:
            return self._error(exc.located(column=fields[0][1] if fields else None), ln.number)
        if len(givens.tokens) != geometry.n_cells:
            return self._error(count_mismatch(
                givens, geometry.n_cells, f"expected {geometry.n_cells} givens for "
                f"{geometry.shape_name}"), ln.number)
        return self._decode([givens], geometry)

    def _puzzle(self, first: Line, geometry: Geometry | None = None) -> Record:
        """The puzzle starting at ``first``: a whole line, or the first of N rows."""
        geometry = geometry or self._layout_geometry(first.number)
        if first.order_one and geometry is None and self.box is None and not self._pair_row():
            one = Geometry.of(1, 1)
            return self._whole(replace(first, tokens=first.tokens[1:], geometry=one), one)
        if not first.fields and first.geometry is None:
            marks = self._marks(first, geometry or self.box)
            if marks is not None:
                return marks
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

    def _marks(self, first: Line, geometry: Geometry | None) -> Record | None:
        """The candidate grid (pencil marks, :mod:`sudokit.formats.sukaku`) starting at
        ``first``, an error in one, or None when ``first`` starts none.

        A first row with a group of several candidates starts one (a later row that is none
        is an error at its column); a first row of single digits only when the N - 1 rows
        after it are rows of candidate groups too, one of them with several.
        """
        tokens = _tokens(first)
        side = len(tokens)
        if (side < 4 or side > MAX_SIDE or first.commas or (geometry is not None and (
                geometry.side != side or geometry.layout is not None))):
            return None
        table = symbol_table(side, self.alphabet)
        row = candidate_row(tokens, table, side)
        if isinstance(row, tuple) or (side >= 10 and all(
                INTEGER_TOKEN.match(t) and int(t) <= side for t, _ in tokens)):
            return None  # (N >= 10: a row of integers is a spaced integer row)
        ahead = self._peek_content(side - 1)
        rows = [row] + [candidate_row(_tokens(ln), table, side)
                        if ln.kind in (Kind.ROW, Kind.NUMBER) and not (ln.fields or ln.commas)
                        else (f"expected a row of {side} candidate groups", 1) for ln in ahead]
        broken = next((i for i, r in enumerate(rows) if isinstance(r, tuple)), len(rows))
        several = [any(len(c) > 1 for c in r) for r in rows[:broken] if isinstance(r, list)]
        if not several[0] and (broken < side or not any(several)):
            return None
        for _ in ahead[:broken]:
            self._next_content()
        if broken < len(rows):
            self._next_content()
            what, column = next(r for r in rows[broken:] if isinstance(r, tuple))
            return self._error(InvalidPuzzle(f"candidate grid (line {first.number}): {what}",
                                             line=ahead[broken - 1].number, column=column),
                               first.number)
        if broken < side:
            return self._error(InvalidPuzzle(
                f"candidate grid: the {side}x{side} grid of candidate groups starting here ends "
                f"after {broken} of {side} rows", column=1), first.number)
        cells = [c for r in rows if isinstance(r, list) for c in r]
        shape = geometry or Geometry.for_side(side)
        return Record(self.source, first.number,
                      marks_puzzle(cells, shape, source=self.source, line=first.number))

    def _pair_row(self) -> bool:
        """Whether a second row of a 2x2 grid follows: a separator line (a grid drawing), or a
        row of two cells that is not itself an order-1 line ``1 0``; then ``1 0`` before it is
        that grid's first row."""
        ahead = self._peek_content(1)
        if not ahead:
            return False
        before = list(itertools.takewhile(lambda ln: ln is not ahead[0], self.ahead))
        if any(ln.kind is Kind.SEPARATOR for ln in before):
            return True
        return (ahead[0].kind is Kind.ROW and len(ahead[0].tokens) == 2
                and not ahead[0].fields and not ahead[0].order_one)

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
        table = symbol_table(k, self.alphabet)
        return len(run) > 1 and any(
            _value(t, first.spaced, table, k) > small for ln in run for t, _ in ln.tokens)

    def _grid(self, first: Line, geometry: Geometry) -> Record:
        """Collect N rows of N cells (blank lines, comments and separators may come between)."""
        rows, side = [first], geometry.side
        while len(rows) < side:
            ln = self._next_content()
            ln = as_row(ln) if ln is not None else ln
            if ln is None or ln.kind is not Kind.ROW or ln.fields or len(ln.tokens) > MAX_SIDE:
                if ln is not None:
                    self.ahead.appendleft(ln)
                stray = stray_token(first) if len(rows) == 1 else None
                return self._error(stray or self._short_grid(rows, geometry), first.number)
            rows.append(ln)
        for ln in rows:
            if len(ln.tokens) != side:
                return self._error(count_mismatch(
                    ln, side, f"expected {side} cells in each row of a {geometry.shape_name} "
                    f"grid"), ln.number)
        return self._decode(rows, geometry)

    @staticmethod
    def _short_grid(rows: list[Line], geometry: Geometry) -> InvalidPuzzle:
        side = geometry.side
        if len(rows) == 1:
            return InvalidPuzzle(
                f"whole line: expected a puzzle, but {side} cells are neither a whole grid on one "
                f"line (a square count: 16, 36, 81, 256, ...) nor the first row of {side} rows",
                column=1)
        return InvalidPuzzle(f"whole grid: the {geometry.shape_name} grid starting here ends "
                             f"after {len(rows)} of {side} rows (line {rows[-1].number})",
                             column=1)

    def _whole(self, ln: Line, geometry: Geometry | None) -> Record:
        if ln.fields:
            columns = self.csv_columns if ln.commas else (0, 2)
            return self._with_columns(ln, geometry, columns)
        if geometry is None and not ln.spaced and is_cube(len(ln.tokens)):
            symbols = [t for t, _ in ln.tokens]
            side = sukaku_side(symbols)  # pencil marks (Sukaku): formats/sukaku.py
            if side is not None:
                puzzle = sukaku_puzzle(symbols, side, source=self.source, line=ln.number)
                return Record(self.source, ln.number, puzzle)
        if geometry is None or len(ln.tokens) != geometry.n_cells:
            try:
                geometry = Geometry.for_cells(len(ln.tokens)) if geometry is None else geometry
            except InvalidPuzzle:
                return self._error(stray_token(ln) or not_square(ln), ln.number)
            if len(ln.tokens) != geometry.n_cells:
                return self._error(count_mismatch(
                    ln, geometry.n_cells, f"expected {geometry.n_cells} cells for "
                    f"{geometry.shape_name} (or {geometry.side} rows of {geometry.side})"),
                    ln.number)
        return self._decode([ln], geometry)

    def _with_columns(self, ln: Line, geometry: Geometry | None,
                      columns: tuple[int, int]) -> Record:
        """A CSV row or a tdoku ``puzzle:count:solution`` line."""
        puzzle_col, solution_col = columns
        if puzzle_col >= len(ln.fields):
            return self._error(InvalidPuzzle(
                f"whole line: expected a puzzle in field {puzzle_col + 1}, found "
                f"{len(ln.fields)} fields", column=1), ln.number)
        record = self._whole(ln.fields[puzzle_col], geometry)
        if record.puzzle is None:
            return record
        count = None
        if not ln.commas and len(ln.fields) > 1:
            count = ln.fields[1].value
        expected = ln.fields[solution_col] if solution_col < len(ln.fields) else None
        solution = None
        if expected is not None and expected.tokens:
            decoder = Decoder(self.source, record.puzzle.geometry, self.alphabet)
            try:
                solution = decoder.digits([expected], record.style, "solution column, ")
                if len(solution) != record.puzzle.geometry.n_cells or 0 in solution:
                    raise InvalidPuzzle(
                        f"expected a full solution of {record.puzzle.geometry.n_cells} digits "
                        f"in the solution column", column=expected.tokens[0][1])
            except InvalidPuzzle as exc:
                return self._error(stray_token(ln) or exc, ln.number)
        return replace(record, expected=solution, expected_count=count)

    def _decode(self, lines: Sequence[Line], geometry: Geometry) -> Record:
        number = lines[0].number
        try:
            decoder = Decoder(self.source, geometry, self.alphabet)
            style = decoder.style(lines)
            digits = decoder.digits(lines, style)
            puzzle = Puzzle(geometry, digits, self.source, number)
        except InvalidPuzzle as exc:
            return self._error(exc, number)
        return Record(self.source, number, puzzle, style=style)


_WHAT = {"jigsaw": "jigsaw regions", "killer": "killer cages", "even-odd": "even/odd marks"}


def _is_janko_row(ln: Line, cols: int) -> bool:
    """Whether a line can be a row of a Janko grid of ``cols`` columns: ``cols`` tokens of
    cells, or of ``-``."""
    return ((ln.kind in (Kind.ROW, Kind.NUMBER) and not ln.fields)
            or (ln.kind is Kind.SEPARATOR and bool(ln.tokens))) and len(_tokens(ln)) == cols


def _tokens(ln: Line) -> tuple[tuple[str, int], ...]:
    """The space-separated tokens of a row, whole (a row read one character per cell is
    regrouped by its columns: ``ab cd`` -> ``ab``, ``cd``)."""
    if ln.spaced or not ln.tokens:
        return ln.tokens
    out: list[tuple[str, int]] = []
    for ch, column in ln.tokens:
        if out and out[-1][1] + len(out[-1][0]) == column:
            out[-1] = (out[-1][0] + ch, out[-1][1])
        else:
            out.append((ch, column))
    return tuple(out)


def _value(token: str, spaced: bool, table: dict[str, int], unknown: int) -> int:
    """The digit a token stands for in a spaced row (an integer) or a row of symbols; an
    unknown symbol or an integer too long to read counts as ``unknown``."""
    value = integer(token) if spaced and INTEGER_TOKEN.match(token) else table.get(token)
    return unknown if value is None else value
