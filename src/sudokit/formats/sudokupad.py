"""SudokuPad links and payloads: which format a link holds, and SudokuPad's own puzzle data.

SudokuPad (Sven Neumann's player, https://sudokupad.app, also served as
``app.crackingthecryptic.com/sudoku/``) opens a puzzle from the text after the address, or after
``?puzzleid=``. Its loader (``PuzzleLoader.parsePuzzleData`` and ``PuzzleZipper`` of SudokuPad,
as published in SudokuPad/sudokutools ``src/puzzlezipper_lib.js`` and the SudokuPad-Penpa
importer of marktekfan) reads a format prefix, then LZ-String ``compressToBase64`` data
(read by :func:`~sudokit.formats.bounded.lz_decompress`, at most 4 MiB):

* ``fpuzzles`` / ``fpuz`` + data: f-puzzles JSON, read by :mod:`sudokit.formats.fpuzzles`
  (every rule key it knows);
* ``scl`` + data (and ``ctc``, the same format under its older name): SudokuPad's own JSON,
  zipped by ``PuzzleZipper``: keys without quotes and abbreviated (``ce`` cells, ``re``
  regions, ``ca`` cages, ``l`` lines, ``a`` arrows, ``o`` overlays, ``u`` underlays, ``v``
  value, ``t`` title, ``wp`` way points, ...), strings in single quotes, ``t``/``f`` for
  true/false, six hex digits for a colour, and an empty object left out of an array
  (``[,,,]`` is four empty cells). :func:`unzip_scl` reverses it;
* no prefix: a short puzzle id (``sudokupad.app/wsj7iunsg6``) that SudokuPad fetches from its
  server. sudokit reads no network, so such a link is refused with that reason.

What SudokuPad's data can say, :func:`scl_puzzle` reads: the grid (``cells``, N rows of N cells,
N <= 16; a cell's ``value`` is a given), the ``regions`` (the boxes, or jigsaw regions), the
``cages`` (a number is a killer sum, the cage's digits distinct; a cage without a number is an
extra region of distinct digits), and the metadata (``metadata`` object, or cages without cells
holding ``"title: ..."``, ``"solution: ..."`` lines): the title, author and rules text, and the
solution, which becomes :attr:`~sudokit.formats.lines.Record.expected`.

Lines, arrows, overlays, underlays and a background image are only drawings in this format: a
grey line is a thermometer, a palindrome or nothing, a dot a Kropki dot or a parity mark, as the
rules text says in words. sudokit does not guess from colours and words: a puzzle holding any
of them is refused by name and place (``line from r3c2 to r7c2: its rule is not stated``),
never solved without it. The f-puzzles form of the same puzzle (``fpuzzles`` link) states its
rules and is read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ..errors import InvalidPuzzle
from ..model.constraints import Cage, cage_totals
from ..model.geometry import Geometry, box_shape_for_side
from ..model.puzzle import Puzzle
from .bounded import BASE64, URI_SAFE, JSONRefused, json_value, lz_decompress

__all__ = ["LZ_START", "SCL_KEYS", "SudokuPadLink", "decompress", "is_link_line", "link_puzzle",
           "scl_puzzle", "split_link", "unzip_scl"]

MAX_SIZE = 16
"""Largest grid read (as f-puzzles)."""

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
_META = re.compile(r"([^: ]+):\s*(.+)", re.DOTALL)
_READ = frozenset({"id", "cellSize", "cells", "regions", "cages", "metadata", "title", "author",
                   "rules", "solution"})
_DRAWN = {"lines": "line", "arrows": "arrow", "overlays": "overlay", "underlays": "underlay"}
_TEXT_META = frozenset({"title", "author", "rules", "solution", "source", "msgcorrect",
                        "msgincorrect", "copyright", "date", "difficulty", "youtube", "video",
                        "videos", "id", "sourcepuzzle", "puzzlelink"})


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


def unzip_scl(text: str) -> dict[str, Any]:
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
    return _expand(data)


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


def _expand(value: Any) -> Any:
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


# -- the puzzle -------------------------------------------------------------------------------

def scl_puzzle(data: dict[str, Any]) -> tuple[Puzzle, tuple[int, ...] | None]:
    """The puzzle of SudokuPad data (:func:`unzip_scl`) and the solution it carries (None if
    none).

    Raises:
        InvalidPuzzle: the grid is not N x N cells (N <= 16), the regions do not split it into
            N regions of N cells, a cage or given is malformed, or the data holds a drawn
            element or setting whose rule is not stated (named with its place).
    """
    cells = data.get("cells")
    n = len(cells) if isinstance(cells, list) else 0
    if not (1 <= n <= MAX_SIZE and all(isinstance(r, list) and len(r) == n for r in cells)):
        raise InvalidPuzzle(f"SudokuPad cells: expected N rows of N cells (N = 1..{MAX_SIZE}), "
                            "found another shape")
    _refuse_unstated(data)
    meta = _metadata(data)
    givens = [_given(cell, k, n) for k, cell in enumerate(c for row in cells for c in row)]
    regions = _regions(data.get("regions"), n)
    cages, extra = _cages(data.get("cages") or [], n)
    try:
        geometry = Geometry.of(*box_shape_for_side(n), regions=regions, cages=cages,
                               extra_regions=extra)
        puzzle = Puzzle(geometry, tuple(givens))
    except InvalidPuzzle as exc:
        raise InvalidPuzzle(f"SudokuPad data: {exc.reason}") from None
    return puzzle, _solution(meta.get("solution"), n)


def _refuse_unstated(data: dict[str, Any]) -> None:
    """Refuse every drawn element (its rule is not stated) and every key that is not read,
    naming the first element with its place and counting the others."""
    drawn = [(name, items) for key, name in _DRAWN.items()
             if isinstance(items := data.get(key) or [], list) and items]
    unknown = sorted(k for k, v in data.items() if k not in _READ and k not in _DRAWN
                     and v not in (None, False, "", [], {}))
    if drawn:
        name, items = drawn[0]
        counts = ", ".join(f"{len(found)} {kind}{'s' * (len(found) > 1)}"
                           for kind, found in drawn)
        image = isinstance(data.get("metadata"), dict) and data["metadata"].get("bgimage")
        also = "".join([f"; also the key {', '.join(map(repr, unknown))}" if unknown else "",
                        "; also a background image" if image else ""])
        raise InvalidPuzzle(f"SudokuPad {name} {_where(items[0])}: its rule is not stated in "
                            f"the data ({counts} in all{also}); drawn elements carry no rule in "
                            "SudokuPad's format, so the puzzle is refused rather than solved "
                            "without them (an f-puzzles link of the puzzle states its rules)")
    if unknown:
        raise InvalidPuzzle(f"SudokuPad key {', '.join(map(repr, unknown))} is not read (sudokit "
                            "reads cells, regions, cages and metadata); the puzzle is refused "
                            "rather than solved without it")


def _where(item: Any) -> str:
    """The place of a drawn element: ``at r4c8``, ``between r4c8 and r4c9``, ``from r3c2 to
    r7c2`` (rows and columns past the grid's edge are 0 and N + 1)."""
    if not isinstance(item, dict):
        return "(malformed)"
    points = item.get("wayPoints")
    if isinstance(points, list) and points:
        return f"from {_place(points[0])} to {_place(points[-1])}"
    return _place(item.get("center"), "at ")


def _place(point: Any, at: str = "") -> str:
    """A point of SudokuPad's grid (cell centres at x.5) in row/column words."""
    if not (isinstance(point, list) and len(point) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)):
        return "at an unknown place"
    lines = []
    for v in point:
        whole = abs(v - round(v)) < 0.25
        lines.append([int(round(v)), int(round(v)) + 1] if whole else [int(v // 1) + 1])
    cells = [f"r{r}c{c}" for r in lines[0] for c in lines[1]]
    if len(cells) == 1:
        return at + cells[0]
    if len(cells) == 2:
        return f"between {cells[0]} and {cells[1]}"
    return "at the corner of " + ", ".join(cells)


def _metadata(data: dict[str, Any]) -> dict[str, Any]:
    """The metadata: the ``metadata`` object, top-level title/author/rules/solution, and cages
    without cells holding ``"key: value"``; a key that may carry a rule is refused."""
    meta = dict(data.get("metadata") or {}) if isinstance(data.get("metadata"), dict) else {}
    for key in ("title", "author", "rules", "solution"):
        if data.get(key) is not None:
            meta.setdefault(key, data[key])
    for cage in data.get("cages") or []:
        if isinstance(cage, dict) and not cage.get("cells"):
            found = _META.fullmatch(str(cage.get("value", "")))
            if found:
                meta.setdefault(found[1].lower(), found[2])
    refused = sorted(k for k, v in meta.items() if k.lower() not in _TEXT_META
                     and v not in (None, False, "", [], {}) and not k.startswith("bgimageopac"))
    if refused:
        what = ("a background image (bgimage) that may draw clues" if "bgimage" in refused
                else f"metadata {', '.join(map(repr, refused))}")
        raise InvalidPuzzle(f"SudokuPad puzzle with {what}: not read; the puzzle is refused "
                            "rather than solved without it")
    return meta


def _given(cell: Any, k: int, n: int) -> int:
    """The given digit of a cell object (index ``k``), 0 for none."""
    where = f"r{k // n + 1}c{k % n + 1}"
    if not isinstance(cell, dict):
        raise InvalidPuzzle(f"SudokuPad cell {where}: expected a cell object")
    other = sorted(key for key, v in cell.items() if key not in ("value", "given")
                   and v not in (None, False, "", [], {}))
    if other:
        raise InvalidPuzzle(f"SudokuPad cell {where}: {', '.join(map(repr, other))} (given "
                            "pencil marks or other cell settings) not read; refused")
    value = cell.get("value")
    if value in (None, ""):
        return 0
    digit = _number(value)
    if digit is None or not 1 <= digit <= n:
        raise InvalidPuzzle(f"SudokuPad cell {where}: value {value!r}, expected a digit 1..{n}")
    return digit


def _number(value: Any) -> int | None:
    """A whole number written as a number or as digits; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip() if isinstance(value, (str, float)) else ""
    return int(text) if text.isdigit() and len(text) <= 6 else None


def _cell_of(pair: Any, n: int, what: str) -> int:
    if not (isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in pair)):
        raise InvalidPuzzle(f"SudokuPad {what}: expected cells [row, column] 0..{n - 1}, "
                            f"found {pair!r}")
    return pair[0] * n + pair[1]


def _regions(found: Any, n: int) -> list[list[int]] | None:
    """The jigsaw regions, or None when the regions are the usual boxes."""
    if not isinstance(found, list) or not found:
        raise InvalidPuzzle("SudokuPad data without regions (no boxes): a grid without boxes "
                            "is not read")
    groups = [sorted(_cell_of(p, n, "region") for p in (g if isinstance(g, list) else [g]))
              for g in found]
    if sorted(k for g in groups for k in g) != list(range(n * n)) or len(groups) != n:
        raise InvalidPuzzle(f"SudokuPad regions: expected {n} regions of {n} cells covering "
                            f"the grid once, found {len(groups)} regions of "
                            f"{sum(map(len, groups))} cells")
    br, bc = box_shape_for_side(n)
    boxes = sorted(sorted(k for k in range(n * n)
                          if (k // n // br) * (n // bc) + k % n // bc == b) for b in range(n))
    return None if sorted(groups) == boxes else groups


def _cages(found: Sequence[Any], n: int) -> tuple[list[Cage], list[list[int]]]:
    """The killer cages (a number) and the extra regions (no number) of the ``cages`` list;
    a cage with another clue, or whose digits may repeat, is refused."""
    cages: list[Cage] = []
    extra: list[list[int]] = []
    for cage in found:
        if not isinstance(cage, dict) or not cage.get("cells"):
            continue  # metadata (read by _metadata) or nothing drawn
        cells = sorted(_cell_of(p, n, "cage") for p in cage["cells"])
        at = f"r{cells[0] // n + 1}c{cells[0] % n + 1}"
        value = cage.get("value", cage.get("sum"))
        total = _number(value)
        if cage.get("unique") is False or cage.get("hidden"):
            raise InvalidPuzzle(f"SudokuPad cage at {at}: a cage whose digits may repeat "
                                "(unique false, or hidden) is not read; refused")
        if value in (None, ""):
            extra.append(cells)
        elif total is None:
            raise InvalidPuzzle(f"SudokuPad cage at {at} with clue {str(value)!r}: its rule is "
                                "not stated (only a number, the sum, is read); refused")
        else:
            low, high = cage_totals(len(cells), n)
            if len(set(cells)) != len(cells) or not low <= total <= high:
                raise InvalidPuzzle(f"SudokuPad cage at {at} of {len(cells)} cells cannot add "
                                    f"up to {total} (expected {low}..{high})")
            cages.append(Cage(total, tuple(cells)))
    return cages, extra


def _solution(text: Any, n: int) -> tuple[int, ...] | None:
    """The solution metadata as N*N digits (two characters a digit past 9), None when absent
    or partial."""
    text = str(text or "").strip()
    width = 1 if len(text) == n * n else 2 if len(text) == 2 * n * n else 0
    if not width or not text.isdigit():
        return None
    digits = tuple(int(text[i:i + width]) for i in range(0, len(text), width))
    return digits if all(1 <= d <= n for d in digits) else None
