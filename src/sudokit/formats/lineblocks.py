"""Input bytes as blocks of whole, numbered lines, split with NumPy (the first stage of
:class:`~sudokit.formats.lineform.LineReader`).

Lines are split on ``\\n``; a ``\\r`` before it is dropped; a line holding a lone ``\\r`` is
marked, and lines are numbered as universal newlines would number them (a lone ``\\r`` starts a
new line). A line longer than :data:`~sudokit.formats.lines.MAX_LINE` is counted, not kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

import numpy as np

from .lines import MAX_LINE

__all__ = ["LineBlock", "LineSplitter"]

_BLOCK = 1 << 20
"""Bytes read at a time."""


@dataclass
class LineBlock:
    """Complete lines of one block of input: offsets into ``data`` and 1-based numbers."""

    data: np.ndarray  # uint8[B]
    starts: np.ndarray  # int64[L]
    ends: np.ndarray  # int64[L], the \r\n or \n excluded
    numbers: np.ndarray  # int64[L]
    overlong: dict[int, int]  # line index -> characters (0: count them), lines over MAX_LINE
    lone_cr: set[int] = field(default_factory=set)  # line indices holding a lone \r


class LineSplitter:
    """Split a byte stream into :class:`LineBlock` values, reading about a megabyte at a time (a
    UTF-8 byte order mark at the start is dropped).

    Args:
        stream: a binary stream; read to its end by :meth:`blocks`, not closed.
    """

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self._number = 0  # last line number read
        self._first = True

    def blocks(self) -> Iterator[LineBlock]:
        """Whole lines, about a block at a time (a line longer than MAX_LINE is counted, not
        kept)."""
        carry, skipping, skipped = b"", False, 0
        while True:
            data = self.stream.read(_BLOCK)
            if self._first and data:
                self._first = False
                while data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
            if not data:
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
                yield self._overlong(skipped + _chars(data[:cut].rstrip(b"\r")))
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
        """Lines of a block of whole lines, numbered as universal newlines would number them."""
        data = np.frombuffer(block, np.uint8)
        ends = np.flatnonzero(data == 10).astype(np.int64)
        starts = np.empty_like(ends)
        starts[0], starts[1:] = 0, ends[:-1] + 1
        ends -= (ends > starts) & (data[np.maximum(ends - 1, 0)] == 13)  # \r\n
        cr = np.flatnonzero(data == 13)
        if len(cr):  # a lone \r (one that does not end a line as \r\n) starts a new line
            at = np.minimum(np.searchsorted(ends, cr), len(ends) - 1)  # ends is sorted
            lone = cr[ends[at] != cr]
        else:
            lone = cr
        extra = np.bincount(np.searchsorted(ends, lone), minlength=len(ends))
        numbers = self._number + 1 + np.arange(len(ends), dtype=np.int64)
        numbers[1:] += np.cumsum(extra)[:-1]
        self._number = int(numbers[-1] + extra[-1])
        overlong = {int(i): 0 for i in np.flatnonzero(ends - starts >= MAX_LINE)}
        return LineBlock(data, starts, ends, numbers, overlong, set(np.flatnonzero(extra).tolist()))


def _chars(data: bytes) -> int:
    """Characters of UTF-8 bytes (bytes that do not continue a character)."""
    array = np.frombuffer(data, np.uint8)
    return int(np.count_nonzero((array & 0xC0) != 0x80))
