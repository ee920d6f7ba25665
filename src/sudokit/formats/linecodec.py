"""Line form as byte tables: a geometry's symbol <-> digit tables, the arrays a chunk of line-form
input decodes to, and the encoding of solved grids back to line-form bytes.

:class:`~sudokit.formats.lineform.LineReader` fills :class:`LineChunk` values (fast-form rows as
:class:`FastRows` arrays, the other records as :class:`~sudokit.formats.lines.Record` values);
:func:`encode_rows` writes grids with a :class:`Codec`, and :func:`map_bytes` is the byte-table
look-up both directions use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ..compiled import Kernels, twin, use_compiled
from ..model.geometry import Geometry
from .lines import DEFAULT_SYMBOLS, Record, Style
from .symbols import symbol_table

__all__ = ["Codec", "FastRows", "LineChunk", "encode_rows", "load_lookup", "map_bytes"]

_INVALID = 255
"""A decode table's value for a byte that is no symbol (as
:data:`sudokit.formats.lookup.INVALID`)."""


@dataclass(frozen=True)
class Codec:
    """Byte tables of one geometry's line form.

    Attributes:
        geometry: the grid.
        decode: uint8[256]: digit of each byte (0 for an empty marker, 255 for no symbol).
        encode: uint8[N + 1]: the byte of each digit (index 0: ``.``).
        symbols: the alphabet, symbols of digits 1, 2, ... (``Style.symbols`` of records).
    """

    geometry: Geometry
    decode: np.ndarray
    encode: np.ndarray
    symbols: str

    @staticmethod
    @cache
    def of(geometry: Geometry, alphabet: str | None) -> Codec | None:
        """The codec of a geometry and alphabet; None if a symbol is not one ASCII byte."""
        table = symbol_table(geometry.side, alphabet)
        symbols = alphabet or DEFAULT_SYMBOLS
        if any(len(s.encode()) != 1 or ord(s) > 127 for s in table) or len(symbols) < geometry.side:
            return None
        decode = np.full(256, _INVALID, np.uint8)
        for symbol, digit in table.items():
            decode[ord(symbol)] = digit
        encode = np.frombuffer(("." + symbols[:geometry.side]).encode(), np.uint8)
        return Codec(geometry, decode, encode, symbols)


def encode_rows(grids: np.ndarray, codec: Codec, prefix: bytes = b"") -> np.ndarray:
    """Write grids (uint8[M, N*N], digits 1..N) as line-form records: uint8[M, P + N*N + 1],
    each row the ``prefix`` (P bytes: an order prefix such as ``b"3 "``, or none), its symbols
    and a newline (``.tobytes()`` is the text to write)."""
    width = len(prefix)
    out = np.empty((len(grids), width + grids.shape[1] + 1), np.uint8)
    out[:, :width] = np.frombuffer(prefix, np.uint8)
    map_bytes(grids, codec.encode, out[:, width:-1])
    out[:, -1] = 10
    return out


@dataclass
class FastRows:
    """The fast-form records of one geometry in a chunk, as arrays.

    Attributes:
        codec: the geometry's byte tables.
        positions: int64[M] each record's index among the chunk's records.
        lines: int64[M] 1-based source line numbers.
        raw: uint8[M, N*N] the puzzle field's bytes (for the empty marker of a record's style).
        givens: uint8[M, N*N] digits, 0 empty.
        expected: uint8[M, N*N] the solution written beside the puzzle (zeros where none).
        has_expected: bool[M] a solution was written beside the puzzle.
        expected_count: int64[M] the solution count written beside the puzzle; -1 where none.
        prefix: the order prefix the rows were written with (``b"3 "``), written back before
            their solutions; empty for plain lines.
    """

    codec: Codec
    positions: np.ndarray
    lines: np.ndarray
    raw: np.ndarray
    givens: np.ndarray
    expected: np.ndarray
    has_expected: np.ndarray
    expected_count: np.ndarray
    prefix: bytes = b""

    def record(self, row: int, source: str) -> Record:
        """The row as a :class:`Record` (for the object path of unusual outcomes)."""
        from ..model.puzzle import Puzzle

        line = int(self.lines[row])
        empty = next((chr(b) for b in self.raw[row].tolist() if self.codec.decode[b] == 0), ".")
        puzzle = Puzzle(self.codec.geometry, tuple(self.givens[row].tolist()), source, line)
        expected = tuple(self.expected[row].tolist()) if self.has_expected[row] else None
        count = int(self.expected_count[row])
        style = Style(symbols=self.codec.symbols, empty=empty, prefix=self.prefix.decode())
        return Record(source, line, puzzle, None, expected, count if count >= 0 else None, style)


@dataclass
class LineChunk:
    """A chunk of input records: fast-form rows as arrays, the others as Records.

    Attributes:
        source: the input's name.
        size: number of records.
        fast: fast-form rows, one group per geometry.
        general: ``(position, record)`` of the records read by the general reader.
        last_line: the last source line the chunk covers.
    """

    source: str
    size: int = 0
    fast: list[FastRows] = field(default_factory=list)
    general: list[tuple[int, Record]] = field(default_factory=list)
    last_line: int = 0

    def __len__(self) -> int:
        return self.size


@twin(Kernels.LOOKUP, "sudokit.formats.lookup:lookup", "numpy:take", "rows")
def map_bytes(values: np.ndarray, table: np.ndarray,
              out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``table[values]`` and bool[R], rows holding a byte the table maps to 255 (no symbol):
    compiled (:mod:`sudokit.formats.lookup`) where :func:`sudokit.compiled.use_compiled` says
    so, once the compiled engine is loaded (never loaded for this alone), else NumPy's
    ``take`` (2x faster than indexing)."""
    if use_compiled(Kernels.LOOKUP):
        from .lookup import lookup

        return lookup(values, table, out)
    mapped = table.take(values)
    if out is not None:
        out[...] = mapped
    return mapped, (mapped == _INVALID).any(axis=1)


def load_lookup(n_cells: int) -> None:
    """Load the compiled look-up :func:`map_bytes` runs on rows of ``n_cells`` bytes, as the
    array path decodes (whole rows) and encodes (into a column range of a record array), so
    that a timed run does not pay the loading; nothing when :func:`map_bytes` uses NumPy."""
    if not use_compiled(Kernels.LOOKUP):
        return
    from .lookup import lookup

    blank = np.zeros((1, n_cells), np.uint8)
    table = np.zeros(256, np.uint8)
    lookup(blank, table)  # decoding: whole rows
    lookup(blank, table, np.empty((1, n_cells + 1), np.uint8)[:, :-1])  # encoding
