"""Line form as arrays: whole chunks of one-puzzle-per-line input decoded and encoded at once.

The array path of ``sudokit solve`` reads bytes, splits them into lines with NumPy, and decodes
every line that is a whole puzzle in one of the fast forms with a byte lookup table:

* line form: N*N symbols (N >= 9: 81, 256, ... cells; ``.0_-*x`` empty);
* the order prefix ``3 000400009...``;
* Kaggle CSV ``puzzle,solution`` (columns as named by a header line, if any);
* tdoku's ``puzzle:count[:solution]``.

Anything else (grid drawings, integer forms, size headers, bad lines) goes, in input order,
through the general reader of :mod:`sudokit.formats`, which gives the same records and errors as
reading the whole file with it. A line that a size header before it could claim goes there too.
A ``# variant: diagonal`` directive line sets the variant of the records starting after it, on
both paths (fast rows are grouped by geometry, variant included).

Lines are split by :class:`~sudokit.formats.lineblocks.LineSplitter` (``\\n``, ``\\r\\n`` and a
lone ``\\r`` end a line, as universal newlines end it); chunks and their arrays are the records
of :mod:`sudokit.formats.linecodec`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

import numpy as np

from ..model.constraints import Variant
from ..model.geometry import MAX_SIDE, Geometry
from ..model.integers import integer
from .grouping import Grouper
from .lineblocks import LineBlock, LineSplitter
from .linecodec import Codec, FastRows, LineChunk, map_bytes
from .lines import MAX_LINE, Directives, Kind, Line, overlong_line, scan_line
from .sukaku import is_cube

__all__ = ["LineReader"]

_CONTEXT = 200
"""Content lines a trailing run of general-reader lines keeps for the next chunk (a record
starting this far before a chunk's end is settled: a grid spans at most 64 rows and a header,
and the reader looks at most 64 rows ahead)."""

_Span = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
              tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]]
"""What :meth:`LineReader._fast_spans` gives for one cell count."""
_NOT_CONTENT = (Kind.BLANK, Kind.COMMENT, Kind.SEPARATOR, Kind.DIRECTIVE)
_COMMENT_LEADS = tuple(ord(c) for c in "# \t")


class LineReader:
    """Read a byte stream as :class:`~sudokit.formats.linecodec.LineChunk` values of a growing
    number of lines.

    Args:
        stream: a binary stream (a file opened ``"rb"``, ``sys.stdin.buffer``); not closed.
        source: the name records carry.
        box: a box shape forcing the geometry (None: from each line's cell count).
        alphabet: symbols of digits 1..N (None: ``1-9A-Z...``).
        sizes: lines per chunk, in turn; the last repeats (small first chunks give an early
            first record and work for every worker).
        skip_header: line 1 is a free-text title, not a puzzle: skip it.
        variant: the variant of the records before the first ``# variant:`` directive line.
    """

    def __init__(self, stream: BinaryIO, source: str, *, box: tuple[int, int] | None = None,
                 alphabet: str | None = None, sizes: Iterable[int] = (256, 1024, 4096),
                 skip_header: bool = False, variant: Variant = Variant.STANDARD) -> None:
        self.stream, self.source = stream, source
        self.directives = Directives(variant)
        self.typed_spec = False  # a directive named a puzzle type or a layout
        self.skip_header = skip_header
        self.box, self.alphabet = box, alphabet
        self.sizes = sizes
        self.codecs = self._codecs()
        self.csv_columns = (0, 1)
        self.carry: list[Line] = []  # general-reader lines kept for context
        self._lines = LineSplitter(stream)

    def _codecs(self) -> dict[int, Codec]:
        """Fast-form widths (cell counts above 64) and their codecs."""
        if self.box is not None:
            geometries = [Geometry.of(*self.box)]
        else:
            geometries = [Geometry.for_side(side) for side in range(9, MAX_SIDE + 1)]
        codecs = {}
        for geometry in geometries:
            codec = Codec.of(geometry, self.alphabet)
            if self.box is None and is_cube(geometry.n_cells):
                continue  # 729 or 4096 characters may be pencil marks (formats/sukaku.py)
            if geometry.n_cells > MAX_SIDE and codec is not None:
                codecs[geometry.n_cells] = codec
        return codecs

    def chunks(self) -> Iterator[LineChunk]:
        """Yield the input as chunks of records, in order, lazily.

        Raises:
            OSError: the stream cannot be read.
        """
        sizes = iter(self.sizes)
        size = next(sizes)
        for lines in self._lines.blocks():
            first = 0
            while first < len(lines.starts):
                last = min(len(lines.starts), first + size)
                yield self._chunk(lines, first, last)
                first = last
                size = next(sizes, size)
        if self.carry:  # the general-reader lines kept for context, at the end of input
            chunk = LineChunk(self.source)
            self._general(chunk, [], final=True)
            yield chunk

    def _chunk(self, lines: LineBlock, first: int, last: int) -> LineChunk:
        """Classify lines [first, last) of ``lines``, decode the fast ones, group the rest."""
        chunk = LineChunk(self.source)
        starts, ends = lines.starts[first:last], lines.ends[first:last]
        chunk.last_line = int(lines.numbers[last - 1])
        width = ends - starts
        lead = lines.data[np.minimum(starts, len(lines.data) - 1)]
        skip = (width == 0) | (lead == ord("#"))
        if self.skip_header:
            skip |= lines.numbers[first:last] == 1
        self._directive_lines(lines, first, lead, skip)
        typed = self._typed(lines.numbers[first:last]) if self.typed_spec else None
        spans = {n: self._fast_spans(lines.data, starts, width, n, self.codecs[n])
                 for n in self._cell_counts(lines.data, starts, width)}
        fast = np.zeros(len(starts), bool)
        for mask, *_ in spans.values():
            fast |= mask
        fast &= ~(skip | _frames(lines.data, starts, width, lead))
        if typed is not None:  # under a directive naming a type or layout: the general reader
            fast &= ~typed
        for index in lines.overlong:
            if first <= index < last:
                fast[index - first], skip[index - first] = False, False
        general = ~fast & ~skip
        self._absorb(lines.data, starts, ends, fast, general, skip)
        self._assemble(chunk, lines, first, fast, general, spans)
        return chunk

    def _directive_lines(self, lines: LineBlock, first: int, lead: np.ndarray,
                         skip: np.ndarray) -> None:
        """Take the ``# variant:`` directives of the chunk's lines (from ``first``; ``lead``:
        their first bytes) into :attr:`directives` and skip them (with other comment lines);
        a bad directive goes to the general reader, whose record says what is wrong, and so do
        directives naming a puzzle type or a layout (and every directive after one), which the
        general reader applies to the lines after them (see :meth:`_typed`)."""
        self.directives.forget_before(self.carry[0].number if self.carry
                                      else int(lines.numbers[first]))
        starts, ends = lines.starts[first:], lines.ends[first:]
        maybe = (lead == _COMMENT_LEADS[0]) | (lead == _COMMENT_LEADS[1])
        maybe |= lead == _COMMENT_LEADS[2]
        for i in np.flatnonzero(maybe).tolist():
            if ends[i] == starts[i]:
                continue
            number = int(lines.numbers[first + i])
            text = bytes(lines.data[starts[i]:ends[i]]).decode("utf-8", "replace")
            if (self.skip_header and number == 1) or not text.lstrip().startswith("#"):
                continue
            line = scan_line(text, number)
            if line.kind is Kind.DIRECTIVE and line.variant is not None and line.spec is not None:
                self.directives.add(number, line.variant, line.spec)
                self.typed_spec |= not line.spec.is_rules_only
                skip[i] = not self.typed_spec
                continue
            skip[i] = line.kind is not Kind.ERROR

    def _typed(self, numbers: np.ndarray) -> np.ndarray:
        """Per line number, whether the directive in force there names a puzzle type or a
        layout (``# variant: killer``, ``samurai``): such lines are read by the general reader,
        which knows those forms (Janko files, the compact form)."""
        typed = np.array([not s.is_rules_only for s in self.directives.specs], bool)
        return typed[np.searchsorted(np.asarray(self.directives.lines), numbers) - 1]

    def _variant_codes(self, numbers: np.ndarray) -> np.ndarray:
        """Per line number, the value of the :class:`Variant` in force there."""
        if len(self.directives.variants) == 1:
            return np.full(len(numbers), self.directives.variants[0].value)
        codes = np.array([v.value for v in self.directives.variants], np.int64)
        return codes[np.searchsorted(np.asarray(self.directives.lines), numbers) - 1]

    def _cell_counts(self, data: np.ndarray, starts: np.ndarray,
                     width: np.ndarray) -> list[int]:
        """The cell counts of :attr:`codecs` that some line could hold in a fast form: its
        width (line form), width - 2 (order prefix), (width - 1) / 2 (CSV), or the offset of
        its first colon (tdoku)."""
        widths = np.flatnonzero(np.bincount(width))  # (np.unique would import numpy.ma)
        found = set(np.concatenate([widths, widths - 2, (widths - 1) // 2]).tolist())
        if not len(starts):
            return []
        low = int(starts[0])  # the chunk's lines only, not the whole block
        colons = np.flatnonzero(data[low:int(starts[-1] + width[-1])] == 58) + low
        if len(colons):
            owner = np.searchsorted(starts, colons, side="right") - 1
            first = np.flatnonzero(np.diff(owner, prepend=-2))  # owner is non-decreasing
            lines = owner[first]
            inside = (lines >= 0) & (colons[first] < starts[lines] + width[lines])
            found |= set((colons[first] - starts[lines])[inside].tolist())
        return sorted(found & self.codecs.keys())

    def _fast_spans(self, data: np.ndarray, starts: np.ndarray, width: np.ndarray,
                    n_cells: int, codec: Codec) -> _Span:
        """Rows of one cell count in a fast form.

        Returns ``(mask, puzzle, other, count, prefix, fields)``: int64 offsets of the puzzle
        field and of the solution field (-1: none), the written solution count (-1: none),
        whether the line has an order prefix (``3 0004...``), and for each
        of the two fields ``(rows, raw, decoded)``: the rows that have it, its bytes and its
        digits (uint8[R, n_cells], gathered once here for :meth:`_decode`). For a CSV row,
        ``puzzle`` is its first field and ``other`` its second: their roles come from the
        header in force (see :meth:`_decode`), and ``count`` is -2.
        """
        size = len(data)
        puzzle = np.full(len(starts), -1, np.int64)
        other = np.full(len(starts), -1, np.int64)
        count = np.full(len(starts), -1, np.int64)
        plain = width == n_cells
        puzzle[plain] = starts[plain]
        side = codec.geometry.side
        order = int(round(side ** 0.5))
        prefix = np.zeros(len(starts), bool)
        if order * order == side and order <= 9 and self.box is None:
            prefix = (width == n_cells + 2) & (data[np.minimum(starts, size - 1)] == 48 + order)
            prefix &= data[np.minimum(starts + 1, size - 1)] == 32
            puzzle[prefix] = starts[prefix] + 2
        long = np.flatnonzero(width > n_cells)
        after = data[starts[long] + n_cells]
        csv = long[(after == 44) & (width[long] == 2 * n_cells + 1)]
        puzzle[csv], other[csv], count[csv] = starts[csv], starts[csv] + n_cells + 1, -2
        for row in long[after == 58].tolist():  # tdoku puzzle:count[:solution]
            start, stop = int(starts[row]), int(starts[row] + width[row])
            parts = bytes(data[start + n_cells + 1:stop]).split(b":")
            written = integer(parts[0].decode("latin-1"), signed=False)
            if len(parts) > 2 or written is None:
                continue
            if len(parts) == 2 and len(parts[1]) != n_cells:
                continue
            puzzle[row], count[row] = start, written
            if len(parts) == 2:
                other[row] = stop - n_cells
        cells, fields = np.arange(n_cells), []
        for offsets in (puzzle, other):  # every field must be symbols of this grid
            rows = np.flatnonzero(offsets >= 0)
            raw = _gather(data, offsets[rows], cells)
            decoded, bad = map_bytes(raw, codec.decode)
            puzzle[rows[bad]] = -1
            fields.append((rows, raw, decoded))
        return puzzle >= 0, puzzle, other, count, prefix, tuple(fields)

    def _absorb(self, data: np.ndarray, starts: np.ndarray, ends: np.ndarray, fast: np.ndarray,
                general: np.ndarray, skip: np.ndarray) -> None:
        """Send to the general reader the content line after each lone number (a size header
        may claim it), also when the number ends the carried lines."""
        def text(i: int) -> bytes:
            return bytes(data[starts[i]:ends[i]]).strip()

        def ignored(i: int) -> bool:  # no content for the reader: blank, comment, separator
            return skip[i] or (general[i] and scan_line(text(i).decode("utf-8", "replace"),
                                                        0).kind in _NOT_CONTENT)

        def next_content(i: int) -> int:
            while i < len(starts) and ignored(i):
                i += 1
            return i

        heads = [-1] if self.carry and self.carry[-1].kind is Kind.NUMBER else []
        for i in heads + np.flatnonzero(general).tolist():
            if i >= 0 and not _is_number(text(i)):
                continue
            j = next_content(i + 1)
            if j < len(starts) and fast[j]:
                fast[j], general[j] = False, True

    def _assemble(self, chunk: LineChunk, lines: LineBlock, first: int, fast: np.ndarray,
                  general: np.ndarray, spans: dict[int, _Span]) -> None:
        """Number the records, run the general reader in order, decode the fast rows."""
        order = np.flatnonzero(fast | general)
        columns = np.empty((len(fast), 2), np.int64)
        columns[:] = self.csv_columns
        if not general.any() and not self.carry:
            self._decode(chunk, lines, first, order, np.arange(len(order)), columns, spans)
            chunk.size = len(order)
            return
        positions = np.full(len(fast), -1, np.int64)
        run: list[Line] = []
        for i in order.tolist():
            if general[i]:
                run += self._scan(lines, first + i)
                continue
            if run or self.carry:
                self._general(chunk, run, final=True)
                run = []
            positions[i], columns[i] = chunk.size, self.csv_columns
            chunk.size += 1
        if run:
            self._general(chunk, run, final=False)
        rows = np.flatnonzero(positions >= 0)
        self._decode(chunk, lines, first, rows, positions[rows], columns, spans)

    def _scan(self, lines: LineBlock, index: int) -> list[Line]:
        """The scanned line of one line (a list of one)."""
        number = int(lines.numbers[index])
        start, end = lines.starts[index], lines.ends[index]
        text = bytes(lines.data[start:end]).decode("utf-8", "replace")
        chars = lines.overlong.get(index)
        if chars is not None and (chars or len(text) >= MAX_LINE):
            return [overlong_line(number, chars or len(text))]
        return [scan_line(text, number)]

    def _general(self, chunk: LineChunk, run: list[Line], final: bool) -> None:
        """Group carried and new general-reader lines into records; unless ``final`` (a fast
        line or the end of input follows), keep the unsettled tail for the next chunk."""
        lines = self.carry + [ln for ln in run if ln.kind not in _NOT_CONTENT[:2]]
        self.carry = []
        if not lines:
            return
        if not final and len(lines) <= _CONTEXT:
            self.carry = lines
            return
        spec = self.directives.spec_at(lines[0].number) if self.typed_spec else Variant.STANDARD
        grouper = Grouper(self.source, lines, self.box, self.alphabet, spec)
        grouper.csv_columns = self.csv_columns
        records = list(grouper.records())
        if not final:
            settled = lines[-_CONTEXT].number
            later = [k for k, r in enumerate(records) if r.line >= settled]
            cut = later[0] if later else max(len(records) - 1, 0)
            start = records[cut].line if records else settled
            self.carry = [ln for ln in lines if ln.number >= start]
            records = records[:cut]
        else:
            self.csv_columns = grouper.csv_columns
        for record in records:
            chunk.general.append((chunk.size, self.directives.apply(record)))
            chunk.size += 1

    def _decode(self, chunk: LineChunk, lines: LineBlock, first: int, rows: np.ndarray,
                positions: np.ndarray, columns: np.ndarray,
                spans: dict[int, _Span]) -> None:
        """Take the fast rows of each cell count (gathered and decoded by :meth:`_fast_spans`);
        a row whose solution field is not a full grid goes to the general reader instead (its
        record or error comes from there)."""
        numbers = lines.numbers[first:]
        for n_cells, (mask, puzzle, other, count, prefix_rows, fields) in spans.items():
            mine = rows[mask[rows]]
            if not len(mine):
                continue
            codec = self.codecs[n_cells]
            puzzle, solution, count = puzzle[mine], other[mine], count[mine]
            source = np.zeros(len(mine), np.int64)  # which field holds the puzzle (-1: none)
            target = np.where(solution >= 0, 1, -1)  # and the solution
            csv = count == -2
            if csv.any():  # roles of a CSV row's two fields: the header in force
                source[csv], target[csv] = columns[mine[csv], 0], columns[mine[csv], 1]
                count[csv] = -1
            raw, givens = _pick(fields, mine, source, n_cells)
            good = source >= 0
            has_expected = target >= 0
            expected = np.zeros_like(givens)
            if has_expected.any():
                expected = _pick(fields, mine, target, n_cells)[1]
                full = ((expected >= 1) & (expected <= codec.geometry.side)).all(axis=1)
                good &= full | ~has_expected
            pos = positions[np.searchsorted(rows, mine)]
            for bad in np.flatnonzero(~good).tolist():
                where = int(mine[bad])
                self._redo(chunk, lines, first + where, int(pos[bad]),
                           (int(columns[where, 0]), int(columns[where, 1])))
            prefixed = prefix_rows[mine] & good
            prefix = f"{codec.geometry.box_rows} ".encode()
            codes = self._variant_codes(numbers[mine])
            single = len(self.directives.variants) == 1
            for kind, text in ((good & ~prefixed, b""), (prefixed, prefix)):
                if single:
                    present = [int(codes[0])] if kind.any() or not text else []
                else:
                    present = np.unique(codes[kind]).tolist() or ([] if text else [0])
                for code in present:  # one group per variant (plain rows: at least one)
                    rows_of: np.ndarray | slice = kind & (codes == code)
                    if rows_of.all():  # type: ignore[union-attr]  # the usual chunk: views
                        rows_of = slice(None)
                    g = codec.geometry
                    chunk.fast.append(FastRows(
                        Codec.of(Geometry.of(g.box_rows, g.box_cols, Variant(code)),
                                 self.alphabet) or codec,
                        pos[rows_of], numbers[mine[rows_of]], raw[rows_of], givens[rows_of],
                        expected[rows_of], has_expected[rows_of], count[rows_of], text))

    def _redo(self, chunk: LineChunk, lines: LineBlock, index: int, position: int,
              columns: tuple[int, int]) -> None:
        """A fast-looking line that does not decode: its record from the general reader."""
        grouper = Grouper(self.source, self._scan(lines, index), self.box, self.alphabet)
        grouper.csv_columns = columns
        for record in grouper.records():
            chunk.general.append((position, self.directives.apply(record)))


def _frames(data: np.ndarray, starts: np.ndarray, width: np.ndarray,
            lead: np.ndarray) -> np.ndarray:
    """bool[L]: lines starting ``.---`` or ``*---``, the frame of a pencil-mark grid (the
    general reader's separator, :mod:`sudokit.formats.lines`), never a fast line of empty
    cells, whatever their width."""
    frame: np.ndarray = ((lead == ord(".")) | (lead == ord("*"))) & (width > 3)
    for k in (1, 2, 3):
        frame &= data[np.minimum(starts + k, len(data) - 1)] == ord("-")
    return frame


def _is_number(text: bytes) -> bool:
    return text.isdigit() and len(text) <= 2


def _pick(fields: tuple[tuple[np.ndarray, ...], ...], rows: np.ndarray, which: np.ndarray,
          n_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The bytes and digits (uint8[M, n_cells]) of field ``which[i]`` of each row ``rows[i]``
    as gathered by ``LineReader._fast_spans`` (zeros where ``which`` is -1)."""
    if (which == 0).all() and len(fields[0][0]) == len(rows):  # the usual case: every row
        return fields[0][1], fields[0][2]
    raw = np.zeros((len(rows), n_cells), np.uint8)
    decoded = np.zeros((len(rows), n_cells), np.uint8)
    for number, (have, field_raw, field_decoded) in enumerate(fields):
        chosen = np.flatnonzero(which == number)
        if len(chosen):
            at = np.searchsorted(have, rows[chosen])
            raw[chosen], decoded[chosen] = field_raw[at], field_decoded[at]
    return raw, decoded


def _gather(data: np.ndarray, offsets: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """uint8[R, n]: the ``n = len(cells)`` bytes at each offset. Lines of one length (the usual
    file) are evenly spaced: then a strided view is copied instead of indexing every byte."""
    if len(offsets) > 1:
        steps = np.diff(offsets)
        step = int(steps[0])
        if step >= len(cells) and (steps == step).all():
            view = np.lib.stride_tricks.as_strided(data[offsets[0]:], (len(offsets), len(cells)),
                                                   (step, 1), writeable=False)
            return view.copy()
    gathered: np.ndarray = data[offsets[:, None] + cells]
    return gathered
