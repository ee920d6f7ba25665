"""Input files in UTF-16 and UTF-32 (found by their byte-order mark) read as UTF-8 bytes, so
every reader sees UTF-8 (issue 43, item 11: such files made every puzzle invalid).

A file without one of these marks is read as it is (UTF-8, with or without its own mark).
"""

from __future__ import annotations

import codecs
import io
from typing import BinaryIO

__all__ = ["encoding_of", "utf8_stream", "BOM"]

BOM = "\ufeff"
"""The byte-order mark as a character (a mark at the start of a later line, left by joining
files, is dropped by the line readers)."""

_MARKS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
          (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
"""Marks, the longest first (UTF-32 LE starts with UTF-16 LE's mark)."""


def encoding_of(head: bytes) -> str:
    """The encoding of a file starting with ``head`` (its first 4 bytes at least):
    ``utf-32`` or ``utf-16`` by their mark, else ``utf-8-sig``.

    >>> encoding_of(b"\\xff\\xfe3\\x00"), encoding_of(b"4.....8.")
    ('utf-16', 'utf-8-sig')
    """
    for mark, name in _MARKS:
        if head.startswith(mark):
            return name
    return "utf-8-sig"


def _head(stream: BinaryIO) -> bytes:
    """The first 4 bytes of ``stream``, not consumed (peeked, or read and sought back)."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        head: bytes = peek(4)[:4]
        return head
    if stream.seekable():
        at = stream.tell()
        head = stream.read(4)
        stream.seek(at)
        return head
    return b""


class _Transcoded(io.RawIOBase):
    """The UTF-8 bytes of a UTF-16 or UTF-32 stream (its mark dropped, bad units replaced)."""

    def __init__(self, stream: BinaryIO, encoding: str) -> None:
        super().__init__()
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._pending = b""
        self._done = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._pending and not self._done:
            raw = self._stream.read(1 << 16)
            self._done = not raw
            self._pending = self._decoder.decode(raw, final=self._done).encode("utf-8")
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def utf8_stream(stream: BinaryIO) -> BinaryIO:
    """``stream`` itself, or, when it starts with a UTF-16 or UTF-32 mark, a buffered stream
    of its text as UTF-8 bytes (read lazily: memory stays flat)."""
    encoding = encoding_of(_head(stream))
    if encoding == "utf-8-sig":
        return stream
    return io.BufferedReader(_Transcoded(stream, encoding))  # type: ignore[return-value]
