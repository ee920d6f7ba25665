"""Bounded decoding of untrusted data: LZ-String text with a cap on its output, JSON with a cap
on its nesting and on the digits of its integers.

A link of 27 KB can hold LZ-String data that expands to 80 MB (LZ-String's dictionary entries
grow by one character per code, so the output grows with the square of the input), JSON nested
100,000 deep exhausts the recursion of :mod:`json` (RecursionError), and a JSON integer of more
than 4,300 digits makes ``json.loads`` raise ValueError. The readers of f-puzzles data decode
through this module, so each of these is one bad record with a clear error instead.

The decompressor is Pieroxy's LZ-String ``decompressFromBase64`` /
``decompressFromEncodedURIComponent`` (https://github.com/pieroxy/lz-string, the algorithm of
the PyPI package ``lzstring``, which is used for compression): that package decodes without a
bound, so the loop is written here with one.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Union

import numpy as np

from ..errors import InvalidPuzzle
from ..model.integers import MAX_DIGITS, integer

__all__ = ["BASE64", "URI_SAFE", "MAX_DECODED", "MAX_DEPTH", "JSONRefused", "JsonObject",
           "JsonValue", "lz_decompress", "json_decode", "json_value"]

JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]
"""A decoded JSON value (what :func:`json.loads` returns): null, a boolean, a number, a string,
an array or an object, nested."""
JsonObject = dict[str, JsonValue]
"""A decoded JSON object (an f-puzzles puzzle, one entry of its rule keys)."""

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
"""The alphabet of LZ-String's ``compressToBase64`` (``=`` pads)."""
URI_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
"""The alphabet of LZ-String's ``compressToEncodedURIComponent``."""

MAX_DECODED = 4 << 20
"""Most characters decompressed from one piece of LZ-String data (4 MiB; an f-puzzles puzzle
of 16x16 with every constraint is well under 1 MiB)."""

MAX_DEPTH = 100
"""Deepest nesting of JSON arrays and objects read (f-puzzles data nests 4 deep)."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: twice as fast
_LONG_INTEGER = re.compile(r"-?[0-9]{%d,}" % (MAX_DIGITS + 1))
_LONG_RUN = re.compile(r"[0-9]{%d}" % (MAX_DIGITS + 1))
"""What every too long integer holds (digits in strings too): 6x faster to search for than
:data:`_LONG_INTEGER`, whose optional sign and open length are tried at every digit."""


@cache
def _values(alphabet: str) -> dict[str, int]:
    return {ch: i for i, ch in enumerate(alphabet)}


_SIX = [format(v & 63, "06b") for v in range(128)]
"""Each code's low 6 bits as text, highest first: the data's bits in reading order are one
string, a field of it one reversed slice read by ``int`` (a fifth of the time of a loop over
single bits)."""


def _field(bits: str, at: int, count: int) -> int | None:
    """The ``count`` bits from position ``at`` (1-based) on, the first read as the lowest;
    None past the end."""
    end = at + count
    return int(bits[end - 1:at - 1:-1], 2) if end <= len(bits) else None


def lz_decompress(data: str, alphabet: str = BASE64, limit: int = MAX_DECODED) -> str | None:
    """Decompress LZ-String data written with a 6-bit alphabet (:data:`BASE64` or
    :data:`URI_SAFE`).

    Returns:
        The text, or None when ``data`` is no LZ-String data of that alphabet.

    Raises:
        InvalidPuzzle: the text would be longer than ``limit`` characters (it is not built).

    >>> import lzstring
    >>> lz_decompress(lzstring.LZString().compressToBase64('{"size": 9}'))
    '{"size": 9}'
    """
    values = _values(alphabet)
    if not data or any(ch not in values for ch in data):
        return None
    bits = " " + "".join([_SIX[values[ch]] for ch in data])  # position 1: the first bit
    size, first = len(bits), _field(bits, 1, 2)
    if first is None or first == 2:
        return "" if first == 2 else None
    char = _field(bits, 3, 8 if first == 0 else 16)
    if char is None:
        return None
    at = 11 if first == 0 else 19
    words, out = ["", "", "", chr(char)], [chr(char)]
    word, total, width, enlarge = chr(char), 1, 3, 4
    while True:
        if at + width > size:
            return None
        code, at = int(bits[at + width - 1:at - 1:-1], 2), at + width
        if code == 2:
            return "".join(out)
        if code < 2:
            char = _field(bits, at, 8 if code == 0 else 16)
            if char is None:
                return None
            at += 8 if code == 0 else 16
            words.append(chr(char))
            code, enlarge = len(words) - 1, enlarge - 1
            if enlarge == 0:
                enlarge, width = 1 << width, width + 1
        if code > len(words):
            return None
        entry = words[code] if code < len(words) else word + word[0]
        total += len(entry)
        if total > limit:
            raise InvalidPuzzle(f"compressed data expands to more than {limit:,} characters "
                                f"({limit >> 20} MiB, the most read); no puzzle is that long")
        out.append(entry)
        words.append(word + entry[0])
        word, enlarge = entry, enlarge - 1
        if enlarge == 0:
            enlarge, width = 1 << width, width + 1


class JSONRefused(json.JSONDecodeError):
    """JSON refused before or while decoding: nested too deep, or an integer too long."""


class _LongInteger(ValueError):
    """A JSON integer with more digits than :data:`~sudokit.model.integers.MAX_DIGITS`."""


def _parse_int(text: str) -> int:
    value = integer(text)
    if value is None:
        raise _LongInteger(text)
    return value


_DECODER = json.JSONDecoder(parse_int=_parse_int)
_PLAIN = json.JSONDecoder()


def json_decode(text: str, at: int = 0, *, nesting_checked: bool = False
                ) -> tuple[JsonValue, int]:
    """Decode the JSON value that starts at index ``at`` of ``text`` (like
    :meth:`json.JSONDecoder.raw_decode`): the value and the index after it.

    Args:
        nesting_checked: the nesting of ``text`` from ``at`` on was checked by an earlier call
            (the items of an array, decoded one by one after the whole): not scanned again.

    Raises:
        json.JSONDecodeError: no JSON there (with its position: ``lineno``, ``colno``).
        JSONRefused: nesting deeper than :data:`MAX_DEPTH`, or an integer of more than 18
            digits (a JSONDecodeError with the position of the bracket or the integer).
    """
    deep = None if nesting_checked else _too_deep(text, at)
    if deep is not None:
        raise JSONRefused(f"arrays and objects nested deeper than {MAX_DEPTH} levels",
                                   text, deep)
    if _LONG_RUN.search(text, at) is None:  # no integer too long: the decoder's C path
        return _PLAIN.raw_decode(text, at)
    try:
        return _DECODER.raw_decode(text, at)
    except _LongInteger as exc:
        found = _LONG_INTEGER.search(text, at)
        where = found.start() if found else at
        raise JSONRefused(f"an integer of {len(str(exc).lstrip('-')):,} digits (at "
                                   f"most {MAX_DIGITS} read)", text, where) from None


def json_value(text: str) -> JsonValue:
    """The one JSON value of ``text`` (spaces around it allowed), bounded as
    :func:`json_decode`.

    Raises:
        json.JSONDecodeError: no JSON value, or text after it (JSONRefused: too deep, or an
            integer too long).
    """
    value, end = json_decode(text, len(text) - len(text.lstrip()))
    if text[end:].strip():
        raise json.JSONDecodeError("extra data after the value", text, end)
    return value


def _depth(bare: str) -> int:
    """The deepest nesting of brackets in ``bare`` (JSON text without its strings)."""
    codes = np.frombuffer(bare.encode("latin-1", "replace"), np.uint8)
    steps = (codes == ord("[")).view(np.int8) + (codes == ord("{")).view(np.int8) \
        - (codes == ord("]")).view(np.int8) - (codes == ord("}")).view(np.int8)
    return int(np.cumsum(steps, dtype=np.int64).max(initial=0))


def _too_deep(text: str, at: int) -> int | None:
    """The index in ``text`` (from ``at``) of the first bracket nested deeper than
    :data:`MAX_DEPTH`, strings skipped; None if there is none."""
    if text.count("[", at) + text.count("{", at) <= MAX_DEPTH:
        return None
    if _depth(_STRING.sub("", text[at:])) <= MAX_DEPTH:  # strings dropped: no place to map
        return None
    bare = _STRING.sub(lambda m: "_" * len(m[0]), text[at:])
    codes = np.frombuffer(bare.encode("latin-1", "replace"), np.uint8)
    opening = (codes == ord("[")) | (codes == ord("{"))
    places = np.flatnonzero(opening | (codes == ord("]")) | (codes == ord("}")))
    depth = np.cumsum(np.where(opening[places], 1, -1), dtype=np.int64)
    over = np.flatnonzero(depth > MAX_DEPTH)
    return at + int(places[over[0]]) if len(over) else None
