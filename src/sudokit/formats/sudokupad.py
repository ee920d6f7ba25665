"""SudokuPad links and payloads: which format a link holds, and SudokuPad's own puzzle data.

SudokuPad (Sven Neumann's player, https://sudokupad.app, also served as
``app.crackingthecryptic.com/sudoku/``) opens a puzzle from the text after the address, or after
``?puzzleid=``. Its loader (``PuzzleLoader.parsePuzzleData`` and ``PuzzleZipper`` of SudokuPad,
as published in SudokuPad/sudokutools ``src/puzzlezipper_lib.js`` and the SudokuPad-Penpa
importer of marktekfan) reads a format prefix, then LZ-String ``compressToBase64`` data
(read by :func:`~sudokit.formats.bounded.lz_decompress`, at most 4 MiB):

* ``fpuzzles`` / ``fpuz`` + data: f-puzzles JSON (or that JSON zipped as below, which SudokuPad
  unzips too), read by :mod:`sudokit.formats.fpuzzles` (every rule key it knows);
* ``scl`` + data (and ``ctc``, the same format under its older name): SudokuPad's own JSON,
  zipped by ``PuzzleZipper``: keys without quotes and abbreviated (``ce`` cells, ``re``
  regions, ``ca`` cages, ``l`` lines, ``a`` arrows, ``o`` overlays, ``u`` underlays, ``v``
  value, ``t`` title, ``wp`` way points, ...), strings in single quotes, ``t``/``f`` for
  true/false, six hex digits for a colour, and an empty object left out of an array
  (``[,,,]`` is four empty cells). :func:`unzip_scl` reverses it;
* no prefix: a short puzzle id (``sudokupad.app/wsj7iunsg6``) that SudokuPad fetches from its
  server. sudokit reads no network, so such a link is refused with that reason.

What SudokuPad's data states is read by :func:`sudokit.formats.scl.scl_puzzle` (the grid,
givens, regions, killer cages, metadata and solution); its lines, arrows, overlays, underlays and
background images carry no rule in this format and are refused there by name and place, never
solved without. The f-puzzles form of the same puzzle (``fpuzzles`` link) states its rules and
is read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from urllib.parse import unquote

from ..errors import InvalidPuzzle
from ..model.puzzle import Puzzle
from .bounded import (BASE64, URI_SAFE, JSONRefused, JsonObject, JsonValue, json_value,
                      lz_decompress)
from .scl import scl_puzzle

__all__ = ["LZ_START", "SCL_KEYS", "SudokuPadLink", "decompress", "is_link_line", "link_puzzle",
           "split_link", "unzip_scl"]

LZ_START = "N4Ig"
"""How LZ-String ``compressToBase64`` data of any text starting with ``{"`` begins."""

SCL_KEYS = {"c": "color", "ca": "cages", "ct": "center", "c1": "borderColor",
            "c2": "backgroundColor", "ce": "cells", "cs": "cellSize", "a": "arrows",
            "o": "overlays", "u": "underlays", "w": "width", "h": "height", "v": "value",
            "vd": "videos", "l": "lines", "r": "rounded", "re": "regions", "fs": "fontSize",
            "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
            "te": "text", "d": "duration", "d2": "d"}
"""The abbreviated keys of SudokuPad's zipped data and the keys they stand for
(``PuzzleZipper.propMap`` reversed)."""

_LINK = re.compile(r"""(?ix)^(?:
      https?://(?:www\.)?f-puzzles\.com/?\?(?:[^#]*?&)?load=(?P<fp>)
    | https?://(?:[\w-]+\.)*(?:sudokupad\.app|crackingthecryptic\.com)/(?:sudoku/)?
      (?:\?puzzleid=)?)""")
_FORMAT = re.compile(r"(fpuz(?:zles)?|scl|ctc|scf)(?=[A-Za-z0-9+/=%$\-{])")
_BARE = re.compile(r"[A-Za-z0-9+/=%$\-]{4,}")
_SHORT_ID = re.compile(r"[\w/-]{1,64}\Z")
_KEY = re.compile(r"([,{\[])([a-zA-Z0-9]+):")
_HOLE = re.compile(r"([,{\[])(?=[,}\]])")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_MARK = re.compile(r'"\x00(\d+)"')
_LITERAL = re.compile(r":(t|f|#0|#F|[0-9a-fA-F]{6})(?=[,}\]])")


@dataclass(frozen=True)
class SudokuPadLink:
    """One line of f-puzzles or SudokuPad data, split.

    Attributes:
        kind: ``"fpuzzles"`` (f-puzzles JSON, raw or compressed), ``"scl"`` (SudokuPad's own
            data; ``ctc`` links too), ``"scf"`` (SudokuPad's classic-grid code, not read) or
            ``"id"`` (a short puzzle id: SudokuPad's server holds the puzzle).
        prefix: the text before the data (the link and format prefix, ``"N4Ig"`` for bare
            compressed data, ``""`` for JSON).
        data: the payload, URL-decoded (``+`` kept).
    """

    kind: str
    prefix: str
    data: str

    @property
    def column(self) -> int:
        """1-based column of the payload on its line (1 for bare compressed data)."""
        return 1 if self.prefix == LZ_START else len(self.prefix) + 1


def split_link(text: str) -> SudokuPadLink | None:
    """The kind, prefix and payload of one stripped line of f-puzzles or SudokuPad data: a
    JSON object or array, an f-puzzles or SudokuPad link, a bare prefixed payload (``scl...``,
    ``ctc...``, ``fpuzzles...``) or bare compressed f-puzzles data (``N4Ig...``); None for any
    other line."""
    if text[:1] in ("{", "["):
        return SudokuPadLink("fpuzzles", "", text)
    if text.startswith(LZ_START):
        return SudokuPadLink("fpuzzles", LZ_START, text)
    link = _LINK.match(text)
    at = link.end() if link else 0
    if link is not None and link["fp"] is not None:
        return SudokuPadLink("fpuzzles", text[:at], _payload(text[at:]))
    found = _FORMAT.match(text, at)
    if found is not None and link is None and not _BARE.fullmatch(text, found.end()):
        return None  # a word such as "sclerosis": a bare payload is one run of base64
    if found is None:
        rest = text[at:].split("?", 1)[0].split("#", 1)[0]
        return SudokuPadLink("id", text[:at], rest) if link and _SHORT_ID.match(rest) else None
    kind = {"ctc": "scl"}.get(found[1], found[1])
    return SudokuPadLink("fpuzzles" if kind.startswith("fpuz") else kind,
                         text[:found.end()], _payload(text[found.end():]))


def is_link_line(text: str) -> bool:
    """Whether a stripped line is f-puzzles or SudokuPad data (see :func:`split_link`)."""
    return split_link(text) is not None


def _payload(data: str) -> str:
    """A payload without the URL's other parameters, URL-decoded (a space read as ``+``)."""
    return unquote(data.split("&", 1)[0].split("#", 1)[0]).replace(" ", "+")


def decompress(link: SudokuPadLink, what: str) -> str:
    """The text of a link's payload: JSON as is, else LZ-String data decompressed (the
    ``compressToBase64`` alphabet, then the URL-safe one).

    Raises:
        InvalidPuzzle: no text that starts a JSON object (``what`` names the expected data),
            or more than 4 MiB (at the payload's column).
    """
    if link.data.lstrip()[:1] in ("{", "["):
        return link.data
    try:
        found = lz_decompress(link.data, BASE64)
        if not (found or "").lstrip().startswith(("{", "[")) and (
                "-" in link.data or "$" in link.data):
            found = lz_decompress(link.data, URI_SAFE)
    except InvalidPuzzle as exc:
        raise exc.located(column=link.column) from None
    if not found or not found.lstrip().startswith(("{", "[")):
        raise InvalidPuzzle(f"expected {what} compressed with LZ-String (compressToBase64), "
                            "found text that does not decompress to JSON", column=link.column)
    return found


def unzip_scl(text: str) -> JsonObject:
    """SudokuPad's zipped puzzle text (or plain JSON) as the object it stands for, keys
    expanded (:data:`SCL_KEYS`), as SudokuPad's ``PuzzleZipper.unzip`` reads it (text that
    starts ``{"`` is plain JSON: zipped keys have no quotes), bounded as
    :func:`~sudokit.formats.bounded.json_decode`.

    Raises:
        InvalidPuzzle: not a JSON object once unzipped (the JSON error, in the decompressed
            data), nested deeper than 100 levels, or an integer of more than 18 digits.
    """
    try:
        data = json_value(text if text.lstrip().startswith('{"') else _as_json(text))
    except JSONRefused as exc:
        raise InvalidPuzzle(f"SudokuPad data: {exc.msg} (in the decompressed data)") from None
    except json.JSONDecodeError as exc:
        raise InvalidPuzzle(f"expected SudokuPad puzzle data (zipped JSON): {exc.msg} at "
                            f"character {exc.pos + 1} of the decompressed data") from None
    if not isinstance(data, dict):
        raise InvalidPuzzle("expected SudokuPad puzzle data: a JSON object {cells, regions, "
                            "...}")
    return {SCL_KEYS.get(k, k): _expand(v) for k, v in data.items()}


def _as_json(text: str) -> str:
    """Zipped text as JSON: strings set aside, then keys quoted, left-out empty objects put
    back, ``t``/``f`` and bare colours written out, and the strings put back."""
    strings: list[str] = []

    def keep(found: re.Match[str]) -> str:
        strings.append(found[0])
        return f'"\x00{len(strings) - 1}"'

    bare = _STRING.sub(keep, _double_quotes(text))
    bare = _HOLE.sub("\\1\x01", _KEY.sub(r'\1"\2":', bare))
    bare = bare.replace("{\x01}", "{}").replace("\x01", "{}")
    bare = _LITERAL.sub(_literal, bare)
    return _MARK.sub(lambda m: strings[int(m[1])], bare)


def _double_quotes(text: str) -> str:
    """Single-quoted zipped strings in double quotes (``\\'`` is a quote inside a string)."""
    if '"' in text:
        return text
    return text.replace("\\'", "\x02").replace("'", '"').replace("\x02", "'")


def _literal(found: re.Match[str]) -> str:
    value = found[1]
    named = {"t": "true", "f": "false", "#0": '"#000000"', "#F": '"#FFFFFF"'}
    return ":" + named.get(value, f'"#{value}"')


def _expand(value: JsonValue) -> JsonValue:
    """A JSON value with the zipped keys of its objects expanded (:data:`SCL_KEYS`), nested."""
    if isinstance(value, list):
        return [_expand(v) for v in value]
    if isinstance(value, dict):
        return {SCL_KEYS.get(k, k): _expand(v) for k, v in value.items()}
    return value


def link_puzzle(link: SudokuPadLink) -> tuple[Puzzle, tuple[int, ...] | None]:
    """The puzzle and solution of a SudokuPad link of its own format (``scl``, ``ctc``).

    Raises:
        InvalidPuzzle: a short puzzle id (the puzzle is on SudokuPad's server: no network is
            read), the ``scf`` code, or data :func:`unzip_scl` or :func:`scl_puzzle` refuses
            (at the payload's column).
    """
    if link.kind == "id":
        raise InvalidPuzzle(f"SudokuPad puzzle id {link.data!r}: the puzzle is stored on "
                            "SudokuPad's server and sudokit reads no network; use the link "
                            "with the puzzle's data (an scl, ctc or fpuzzles link)", column=1)
    if link.kind != "scl":
        raise InvalidPuzzle(f"SudokuPad {link.kind} data is not read (sudokit reads scl, ctc "
                            "and fpuzzles links)", column=1)
    try:
        return scl_puzzle(unzip_scl(decompress(link, "SudokuPad data")))
    except InvalidPuzzle as exc:
        raise exc.located(column=link.column) from None
