"""Input bytes as blocks of whole, numbered lines, split with NumPy (the first stage of
:class:`~sudokit.formats.lineform.LineReader`).

Lines end as universal newlines end them: ``\\n``, ``\\r\\n`` or a lone ``\\r`` (old Mac files,
files from some exporters: without it a CR-only file is one line, longer than any puzzle); each
ending is read as ``\\n`` before the split, so lines are numbered as universal newlines number
them. A line longer than :data:`~sudokit.formats.lines.MAX_LINE` is counted, not kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

from .encodings import utf8_stream
from .lines import MAX_LINE

__all__ = ["LineBlock", "LineSplitter"]

_BLOCK = 1 << 20
"""Bytes read at a time."""

_MARK = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark."""


@dataclass
class LineBlock:
    """Complete lines of one block of input: offsets into ``data`` and 1-based numbers."""

    data: np.ndarray  # uint8[B]
    starts: np.ndarray  # int64[L]
    ends: np.ndarray  # int64[L], the line ending excluded
    numbers: np.ndarray  # int64[L]
    overlong: dict[int, int]  # line index -> characters (0: count them), lines over MAX_LINE


class LineSplitter:
    """Split a byte stream into :class:`LineBlock` values, reading about a megabyte at a time (a
    UTF-8 byte order mark at the start is dropped).

    Args:
        stream: a binary stream; read to its end by :meth:`blocks`, not closed.
    """

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = utf8_stream(stream)  # UTF-16 and UTF-32 files read as UTF-8
        self._number = 0  # last line number read
        self._first = True
        self._held_cr = False  # a \r ended the last read: \r\n or a lone \r, seen next read
        self._line_start = True  # the next read starts a line

    def _read(self) -> tuple[bytes, bool]:
        """The next bytes, every line ending as ``\\n`` (a UTF-8 byte order mark at the start
        dropped), and whether the input had more (False: its end)."""
        raw = self.stream.read(_BLOCK)
        data = raw
        if self._first and data:
            self._first = False
            while data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
        held, self._held_cr = self._held_cr, False
        if held:
            data = b"\r" + data
        more = bool(raw) or held
        if b"\r" not in data:
            return data, more
        if raw and data.endswith(b"\r"):  # a \n may start the next read
            data, self._held_cr = data[:-1], True
        return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n"), more

    def _marks_dropped(self, data: bytes) -> bytes:
        """``data`` without the UTF-8 byte-order marks that start a line (files joined with
        ``cat``: the second file's mark starts a later line)."""
        if self._line_start and data.startswith(_MARK):
            data = data[3:]
        if data:
            self._line_start = data.endswith(b"\n")
        return data.replace(b"\n" + _MARK, b"\n") if _MARK in data else data

    def blocks(self) -> Iterator[LineBlock]:
        """Whole lines, about a block at a time (a line longer than MAX_LINE is counted, not
        kept)."""
        carry, skipping, skipped = b"", False, 0
        while True:
            data, more = self._read()
            data = self._marks_dropped(data)
            if not more:
                if skipping:
                    yield self._overlong(skipped + _chars(carry))
                elif carry:
                    yield self._split(carry + b"\n")
                return
            if skipping:
                cut = data.find(b"\n")
                if cut < 0:
                    skipped += _chars(data)
                    continue
                yield self._overlong(skipped + _chars(data[:cut]))
                skipping, data = False, data[cut + 1:]
            data = carry + data
            cut = data.rfind(b"\n") + 1
            carry = data[cut:]
            if cut:
                yield self._split(data[:cut])
            if len(carry) > MAX_LINE * 4:  # no newline in sight: count the line, drop it
                skipping, skipped, carry = True, _chars(carry), b""

    def _overlong(self, chars: int) -> LineBlock:
        self._number += 1
        return LineBlock(np.zeros(1, np.uint8), np.zeros(1, np.int64), np.zeros(1, np.int64),
                      np.array([self._number], np.int64), {0: chars})

    def _split(self, block: bytes) -> LineBlock:
        """Lines of a block of whole lines, each ending in ``\\n``."""
        data = np.frombuffer(block, np.uint8)
        ends = np.flatnonzero(data == 10).astype(np.int64)
        starts = np.empty_like(ends)
        starts[0], starts[1:] = 0, ends[:-1] + 1
        numbers = self._number + 1 + np.arange(len(ends), dtype=np.int64)
        self._number = int(numbers[-1])
        overlong = {int(i): 0 for i in np.flatnonzero(ends - starts >= MAX_LINE)}
        return LineBlock(data, starts, ends, numbers, overlong)


def _chars(data: bytes) -> int:
    """Characters of UTF-8 bytes (bytes that do not continue a character)."""
    array = np.frombuffer(data, np.uint8)
    return int(np.count_nonzero((array & 0xC0) != 0x80))
