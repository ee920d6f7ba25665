"""f-puzzles data: the JSON that the f-puzzles.com editor exports, raw or compressed in links.

f-puzzles (Eric Fox's editor, https://www.f-puzzles.com) saves a puzzle as one JSON object and
shares it as LZ-String ``compressToBase64`` text (Pieroxy's lz-string; read by
:mod:`sudokit.formats.bounded`, at most 4 MiB of text per puzzle, and written with the PyPI
package ``lzstring``; the URL-safe ``compressToEncodedURIComponent`` alphabet is read too),
usually in a link ``https://www.f-puzzles.com/?load=DATA``. SudokuPad
(https://sudokupad.app) opens the same data as ``https://sudokupad.app/fpuzzlesDATA`` (also
``?puzzleid=fpuzzlesDATA`` and the crackingthecryptic.com addresses). The format has no formal
specification; the keys read here are those the editor writes and other importers read
(SudokuSolver by David Clamage, the ``FPuzzlesBoard`` class; the sudoku-formats package of
lisudoku), checked against exported puzzles:

* ``size`` N (1..16) and ``grid``: N rows of N cell objects ``{"value": 5, "given": true,
  "region": 3, ...}``; a value with ``given`` true is a given (other values are a solver's
  entries and are not read); ``region`` (0-based) moves a cell into another region: the
  regions then replace the boxes (jigsaw). Boxes are the usual shape (:func:`box_shape_for_side`:
  6 -> 2x3, 8 -> 2x4, 12 -> 3x4);
* ``diagonal-`` (the main diagonal, r1c1..rNcN), ``diagonal+`` (the anti-diagonal, rNc1..r1cN),
  ``antiknight``, ``antiking``, ``nonconsecutive``, ``disjointgroups``: booleans; ``negative``
  listing ``difference`` with no Kropki dots is the non-consecutive rule too;
* the drawn rules (thermometer, arrow, difference, ratio, xv, negative, littlekillersum,
  sandwichsum, palindrome, renban, whispers, betweenline, quadruple, minimum, maximum, clone,
  lockout, entropicline, modularline, nabner, regionsumline, zipperline, slowthermometer,
  doublearrow, xsum, skyscraper, rowindexer, columnindexer): read into
  :mod:`sudokit.model.rules` by :mod:`sudokit.formats.fpuzzles_keys`;
* ``killercage`` and ``cage``: ``{"cells": ["R1C1", ...], "value": "23"}``; a cage without a
  value is an all-different cage (an extra region); ``extraregion``: ``{"cells": [...]}``;
* ``odd`` and ``even``: ``{"cell": "R1C1"}``;
* ``solution``: N*N digits the setter attached; it becomes :attr:`Record.expected`;
* ``title``, ``author``, ``ruleset`` and the editor's settings (``highlightConflicts``,
  ``activeConstraints``, ``disabledlogic``, ``truecandidatesoptions``) are not constraints.

Every other key holding something (``boxindexer``, ``sum``, a ``negative`` entry other than
difference, ratio and xv, and the cosmetic ``text``, ``line``, ``rectangle``, ``circle``, which
setters use to draw rules the editor lacks) makes the puzzle invalid with a message naming the
key, the file and where: a constraint is never ignored. Cosmetic entries marked
``fromConstraint`` that only draw a rule held by its own key are skipped first
(:func:`~sudokit.formats.fpuzzles_keys.without_drawings`). SudokuPad's own compressed format (``scl``/``ctc`` links) is not documented and not
read; short puzzle ids need the network and are not read either.

Solutions are written back in the input's form (:func:`format_fpuzzles`): the same JSON (one
line, compact) with every cell's ``value`` filled, compressed again and behind the same link
prefix when the input was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TextIO
from urllib.parse import unquote

from ..errors import InvalidPuzzle
from ..model.constraints import Cage, Variant, cage_totals
from ..model.geometry import Geometry, box_shape_for_side
from ..model.integers import integer, shown_token
from ..model.puzzle import Puzzle
from .bounded import (
    BASE64,
    MAX_DECODED,
    URI_SAFE,
    JSONRefused,
    json_decode,
    lz_decompress,
)
from .fpuzzles_keys import (
    NEGATIVE_KINDS,
    RULE_KEYS,
    RuleKeyError,
    fpuzzles_rules,
    without_drawings,
)
from .lines import FPuzzlesForm, Record, Style

__all__ = ["FPuzzlesForm", "decode_fpuzzles", "format_fpuzzles", "fpuzzles_puzzle",
           "is_fpuzzles_line", "read_fpuzzles"]

MAX_SIZE = 16
"""Largest grid f-puzzles draws."""

_LINK = re.compile(r"""(?ix)^(?P<prefix>
      https?://(?:www\.)?f-puzzles\.com/?\?(?:[^#]*?&)?load=
    | https?://(?:[\w-]+\.)*(?:sudokupad\.app|crackingthecryptic\.com)/(?:[\w/-]*?/)?
      (?:\?puzzleid=)?(?P<kind>fpuzzles|scl|ctc)?)""")
_LZ_START = "N4Ig"  # compressToBase64 of any text starting with '{"'
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_CELL = re.compile(r"(?i)R(\d+)C(\d+)\Z")
_FLAGS = {"diagonal-": Variant.MAIN_DIAGONAL, "diagonal+": Variant.ANTI_DIAGONAL,
          "antiknight": Variant.ANTI_KNIGHT, "antiking": Variant.ANTI_KING,
          "nonconsecutive": Variant.NON_CONSECUTIVE, "disjointgroups": Variant.DISJOINT}
_SETTINGS = frozenset({"size", "grid", "title", "author", "ruleset", "solution", "negative",
                       "highlightConflicts", "activeConstraints", "disabledlogic",
                       "truecandidatesoptions"})
_READ = frozenset({*_FLAGS, "killercage", "cage", "extraregion", "odd", "even", *RULE_KEYS})


def _lz() -> Any:
    try:
        import lzstring
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise InvalidPuzzle("writing compressed f-puzzles data needs the lzstring package "
                            "(pip install lzstring)") from exc
    return lzstring.LZString()


def is_fpuzzles_line(text: str) -> bool:
    """Whether a line (stripped) starts f-puzzles data: a JSON object or array, an f-puzzles
    or SudokuPad link, or compressed data (``N4Ig...``)."""
    return (text[:1] in ("{", "[") or text.startswith(_LZ_START)
            or _LINK.match(text) is not None)


def decode_fpuzzles(text: str) -> tuple[str, str]:
    """The JSON text and the :attr:`FPuzzlesForm.prefix` of one line of f-puzzles data.

    Raises:
        InvalidPuzzle: a SudokuPad link of another format (``scl``, ``ctc``, a short puzzle
            id), or data that does not decompress to JSON text (column 1 of the data).
    """
    text = text.strip()
    if text[:1] in ("{", "["):
        return text, ""
    prefix, data = "", text
    link = _LINK.match(text)
    if link is not None:
        prefix, data = link["prefix"], text[link.end():]
        if "f-puzzles" not in prefix.lower() and (link["kind"] or "").lower() != "fpuzzles":
            raise InvalidPuzzle("expected a SudokuPad link to f-puzzles data (.../fpuzzles"
                                    "DATA); SudokuPad's own scl/ctc formats and short puzzle "
                                    "ids are not read (export the puzzle from f-puzzles)",
                                    column=1)
        data = unquote(data.split("&", 1)[0].split("#", 1)[0]).replace(" ", "+")
    else:
        prefix = _LZ_START
    column = len(prefix) + 1 if link is not None else 1
    try:
        found = lz_decompress(data, BASE64)
        if not (found or "").lstrip().startswith(("{", "[")) and ("-" in data or "$" in data):
            found = lz_decompress(data, URI_SAFE)  # the URL-safe alphabet
    except InvalidPuzzle as exc:
        raise exc.located(column=column) from None
    if not found or not found.lstrip().startswith(("{", "[")):
        raise InvalidPuzzle("expected f-puzzles data compressed with LZ-String "
                            "(compressToBase64), found text that does not decompress to JSON",
                            column=column)
    return found, prefix


class _Where:
    """Locates keys of one JSON object for error messages: the object is ``text[start:end]``
    of a text whose first line is file line ``line``."""

    def __init__(self, text: str, line: int, compressed: bool, start: int = 0,
                 end: int | None = None) -> None:
        self.text, self.line, self.compressed = text, line, compressed
        self.start, self.end = start, len(text) if end is None else end

    def __call__(self, key: str | None) -> dict[str, int]:
        at = -1 if self.compressed else self.start
        if key is not None and at >= 0:
            at = self.text.find(f'"{key}"', self.start, self.end)
        if at < 0:
            return {"line": self.line, "column": 1}
        before = self.text[:at]
        return {"line": self.line + before.count("\n"), "column": at - before.rfind("\n")}


def _cell(name: Any, n: int, key: str) -> int:
    match = _CELL.match(name) if isinstance(name, str) else None
    row, col = (integer(match[1]), integer(match[2])) if match else (None, None)
    if row is None or col is None or not (1 <= row <= n and 1 <= col <= n):
        shown = shown_token(name) if isinstance(name, str) else repr(name)
        raise _Bad(key, f"{key}: expected a cell R1C1..R{n}C{n}, found {shown}")
    return (row - 1) * n + col - 1


class _Bad(Exception):
    """An error at a key, located by the caller."""

    def __init__(self, key: str | None, message: str) -> None:
        super().__init__(message)
        self.key, self.message = key, message


def _entries(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise _Bad(key, f"{key}: expected a list of objects")
    return value


def _present(value: Any) -> bool:
    return value not in (None, False, "", [], {}, 0)


def _build(data: Any) -> tuple[Puzzle, tuple[int, ...] | None]:
    """The puzzle of one f-puzzles object and the solution it carries (None if none), checked
    in the order of the object's parts: size and keys, grid, rules, cages, parity.

    Raises:
        _Bad: at the key of the first part that is wrong or not supported.
    """
    data = without_drawings(data)  # the editor's pictures of rules held by their own keys
    n = _size(data)
    givens, regions = _grid(data, n)
    rules, negative = _rules(data, regions is not None)
    cages, extra = _cages(data, n)
    parity = _parity(data, n)
    br, bc = box_shape_for_side(n)
    try:
        geometry = Geometry.of(br, bc, rules, regions=regions, cages=cages, parity=parity,
                               extra_regions=extra)
    except InvalidPuzzle as exc:
        raise _located(exc, data) from None
    try:
        drawn = fpuzzles_rules(data, geometry, negative)
    except RuleKeyError as exc:
        raise _Bad(exc.key, exc.message) from None
    try:
        puzzle = Puzzle(geometry.with_constraints(drawn) if drawn else geometry, tuple(givens))
    except InvalidPuzzle as exc:
        raise _located(exc, data) from None
    solution = data.get("solution")
    expected = None
    if (isinstance(solution, list) and len(solution) == n * n
            and all(isinstance(d, int) and 1 <= d <= n for d in solution)):
        expected = tuple(solution)
    return puzzle, expected


def _size(data: Any) -> int:
    """The grid side of an f-puzzles object, after checking it holds no unsupported key."""
    if not isinstance(data, dict):
        raise _Bad(None, "expected an f-puzzles object {\"size\": N, \"grid\": [...], ...}")
    n = data.get("size")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_SIZE:
        raise _Bad("size", f"size: expected a grid side 1..{MAX_SIZE}, found {n!r}")
    unknown = sorted(k for k, v in data.items() if k not in _SETTINGS | _READ and _present(v))
    if unknown:
        key = unknown[0]
        raise _Bad(key, f"f-puzzles constraint {', '.join(map(repr, unknown))} is not supported "
                        "(sudokit reads givens, regions, diagonals, anti-knight, anti-king, "
                        "non-consecutive, disjoint groups, killer cages, extra regions, "
                        "odd/even cells and the rule keys "
                        f"{', '.join(sorted(RULE_KEYS))}); the puzzle is refused rather than "
                        "solved without it")
    return n


def _grid(data: dict[str, Any], n: int) -> tuple[list[int], list[list[int]] | None]:
    """The givens (N*N, 0 empty) and the jigsaw regions (None when every cell is in its box)
    of the ``grid`` rows."""
    rows = data.get("grid")
    if (not isinstance(rows, list) or len(rows) != n
            or not all(isinstance(r, list) and len(r) == n for r in rows)):
        raise _Bad("grid", f"grid: expected {n} rows of {n} cell objects")
    givens, owner, regional = [0] * (n * n), [0] * (n * n), False
    br, bc = box_shape_for_side(n)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            k = r * n + c
            givens[k] = _given(cell, r, c, n)
            region = cell.get("region")
            if region is None:
                owner[k] = (r // br) * (n // bc) + c // bc
            elif isinstance(region, int) and 0 <= region < n:
                owner[k], regional = region, True
            else:
                raise _Bad("region", f"grid: R{r + 1}C{c + 1} has region {region!r}, expected "
                                     f"0..{n - 1}")
    if not regional or all(owner[k] == (k // n // br) * (n // bc) + k % n // bc
                           for k in range(n * n)):
        return givens, None
    groups: list[list[int]] = [[] for _ in range(n)]
    for k, g in enumerate(owner):
        groups[g].append(k)
    return givens, groups


def _given(cell: Any, r: int, c: int, n: int) -> int:
    """The given digit of a cell object at row ``r``, column ``c`` (0-based), 0 for none."""
    if not isinstance(cell, dict):
        raise _Bad("grid", f"grid: R{r + 1}C{c + 1} is not a cell object")
    value = 0
    if cell.get("given") and cell.get("value") is not None:
        value = cell["value"]
        if not isinstance(value, int) or not 1 <= value <= n:
            raise _Bad("grid", f"grid: R{r + 1}C{c + 1} holds {value!r}, expected a "
                               f"digit 1..{n}")
    if _present(cell.get("givenPencilMarks")):
        raise _Bad("givenPencilMarks", f"givenPencilMarks at R{r + 1}C{c + 1} (given "
                                       "candidates) are not supported; refused")
    return value


def _rules(data: dict[str, Any], jigsaw: bool) -> tuple[Variant, set[str]]:
    """The whole-grid rules the object's flags switch on, and the kinds of ``negative``
    constraints left to :func:`~sudokit.formats.fpuzzles_keys.fpuzzles_rules` (with Kropki
    dots on the grid, "no dot" is not the plain non-consecutive rule: dotted pairs are exempt).
    """
    rules = Variant.STANDARD
    for key, flag in _FLAGS.items():
        if data.get(key):
            rules |= flag
    negative = data.get("negative") or []
    if not isinstance(negative, list) or not all(isinstance(k, str) for k in negative):
        raise _Bad("negative", f"negative: expected a list of names, found {negative!r}")
    unknown = sorted(set(negative) - NEGATIVE_KINDS)
    if unknown:
        raise _Bad("negative", f"negative constraint {', '.join(map(repr, unknown))} is not "
                               f"supported (sudokit reads {', '.join(sorted(NEGATIVE_KINDS))}); "
                               "the puzzle is refused rather than solved without it")
    kinds = set(negative)
    if data.get("difference") or data.get("ratio"):  # dotted pairs are exempt
        if Variant.NON_CONSECUTIVE in rules:
            rules &= ~Variant.NON_CONSECUTIVE
            kinds.add("nonconsecutive")
    elif "difference" in kinds:
        rules |= Variant.NON_CONSECUTIVE
        kinds.discard("difference")
    if jigsaw and Variant.DISJOINT in rules:
        raise _Bad("disjointgroups", "disjointgroups with irregular regions are not supported")
    return rules, kinds


def _cages(data: dict[str, Any], n: int) -> tuple[list[Cage], list[list[int]]]:
    """The killer cages (``killercage`` then ``cage`` entries) and the extra regions (cages
    without a value, then ``extraregion`` entries)."""
    cages: list[Cage] = []
    extra: list[list[int]] = []
    for key in ("killercage", "cage"):
        for entry in _entries(data, key):
            cells = [_cell(name, n, key) for name in entry.get("cells") or []]
            if not cells:
                raise _Bad(key, f"{key}: a cage without cells")
            value = str(entry.get("value") or "").strip()
            if not value:
                extra.append(cells)
            elif (total := integer(value, signed=False)) is None:
                raise _Bad(key, f"{key}: cage value {shown_token(value)} at {entry['cells'][0]} "
                                "is not a sum (other cage rules are not supported)")
            else:
                low, high = cage_totals(len(cells), n)
                if len(set(cells)) != len(cells) or not low <= total <= high:
                    raise _Bad(key, f"{key}: cage at {entry['cells'][0]} of {len(cells)} cells "
                                    f"cannot add up to {total} (expected {low}..{high})")
                cages.append(Cage(total, tuple(cells)))
    for entry in _entries(data, "extraregion"):
        extra.append([_cell(name, n, "extraregion") for name in entry.get("cells") or []])
    return cages, extra


def _parity(data: dict[str, Any], n: int) -> str | None:
    """The parity marks of the ``odd`` and ``even`` entries (one ``o``, ``e`` or ``.`` per
    cell), or None for neither."""
    if not (data.get("odd") or data.get("even")):
        return None
    marks = ["."] * (n * n)
    for key, mark in (("odd", "o"), ("even", "e")):
        for entry in _entries(data, key):
            cell = _cell(entry.get("cell"), n, key)
            if marks[cell] not in (".", mark):
                raise _Bad(key, f"{key}: {entry['cell']} is marked both odd and even")
            marks[cell] = mark
    return "".join(marks)


def _located(exc: InvalidPuzzle, data: dict[str, Any]) -> _Bad:
    """A geometry's error about a constraint, at the f-puzzles key that holds it."""
    message = str(exc.args[0] if exc.args else exc)
    key = {"extra_regions": "extraregion", "regions": "grid",
           "parity": "odd" if data.get("odd") else "even",
           "cages": "killercage" if data.get("killercage") else "cage"}.get(exc.constraint)
    if exc.constraint == "cages" and data.get("killercage") and data.get("cage"):
        message += " (killercage entries first, then cage entries)"
    return _Bad(key, message)


def fpuzzles_puzzle(data: dict[str, Any] | str, source: str = "<string>",
                    line: int = 1) -> Puzzle:
    """The puzzle of one f-puzzles object (a dict, or JSON text).

    Raises:
        InvalidPuzzle: the data is no f-puzzles puzzle, or holds a constraint sudokit cannot
            express (the message names the key; see the module docstring).
    """
    text = data if isinstance(data, str) else json.dumps(data)
    return _puzzle(text, source, line, compressed=False)[0]


def _puzzle(text: str, source: str, line: int, compressed: bool,
            data: Any = None, where: _Where | None = None) -> tuple[Puzzle, tuple[int, ...] | None]:
    where = where or _Where(text, line, compressed)
    try:
        data = _whole(text) if data is None else data
    except json.JSONDecodeError as exc:
        at = {"line": line + exc.lineno - 1, "column": exc.colno} if not compressed else \
            {"line": line, "column": 1}
        raise InvalidPuzzle(f"expected f-puzzles JSON: {exc.msg}"
                            + (" (in the decompressed data)" if compressed else ""),
                            source=source, **at) from None
    try:
        return _build(data)
    except _Bad as bad:
        note = " (in the decompressed data)" if compressed else ""
        raise InvalidPuzzle(bad.message + note, source=source, **where(bad.key)) from None


_Rest = Callable[[TextIO, str, int], Iterator[Record]]
"""How the lines after f-puzzles data are read: ``rest(stream, head, number)`` gives the
records of line ``head`` (file line ``number``) and of the rest of ``stream``."""


def read_fpuzzles(stream: TextIO, source: str, rest: _Rest | None = None,
                  first: int = 1) -> Iterator[Record]:
    """Records of a file of f-puzzles data: JSON documents (an object, or an array of
    objects, over any number of lines), or lines of JSON objects, links or compressed data
    (``#`` comment lines and blank lines skipped). Bad input comes as records with an error;
    a document that does not decode is one error and the reading goes on at its next line.

    Args:
        stream: the text, read from its current line, which is file line ``first``.
        rest: where a line that is no f-puzzles data is read, with the comment and directive
            lines just before it (``# variant:`` lines hold there) and all the lines after it
            (None: each such line is one error record).
    """
    number, held = first - 1, []
    while text := stream.readline():
        number += 1
        line = text.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):  # kept for the general reader (directives)
            held.append(text)
            continue
        if rest is not None and not is_fpuzzles_line(line):
            yield from rest(stream, "".join(held) + text, number - len(held))
            return
        held.clear()
        if line[:1] in ("{", "["):
            stream, number = yield from _json_line(stream, text, source, number)
        else:
            yield _compressed(line, source, number)


def _json_line(stream: TextIO, text: str, source: str,
               number: int) -> Generator[Record, None, tuple[Any, int]]:
    """The records of a JSON document starting on line ``number`` (``text``): the line, or
    when it ends inside the value, the lines up to where its brackets close (at most 4 MiB);
    returns the stream of the lines after the document and the number of its last line. A
    document that does not decode is one error; reading goes on at the line of the error."""
    line = text.strip().lstrip("\ufeff")
    try:
        yield from _records(line, source, number, _items(line))
        return stream, number
    except JSONRefused as exc:
        yield _json_error(exc, source, number, len(text) - len(text.lstrip()))
        return stream, number
    except json.JSONDecodeError as exc:
        if exc.pos < len(line):  # wrong within the line: no document over several lines
            yield _json_error(exc, source, number, len(text) - len(text.lstrip()))
            return stream, number
    lines = _document_lines(line, stream)
    whole = "".join(lines)
    try:
        _, end = json_decode(whole)
    except json.JSONDecodeError as exc:
        yield _json_error(exc, source, number, 0)
        used = max(exc.lineno - 1, 1)  # the lines before the error's (at least the first)
    else:
        yield from _records(whole[:end], source, number, _items(whole[:end]))
        used = whole.count("\n", 0, end) + 1
    return _Chained(lines[used:], stream), number + used - 1


def _json_error(exc: json.JSONDecodeError, source: str, line: int, indent: int) -> Record:
    """The record of JSON that does not decode, at the place of the error."""
    return Record(source, line, None, InvalidPuzzle(
        f"expected f-puzzles JSON: {exc.msg}", source=source, line=line + exc.lineno - 1,
        column=exc.colno + (indent if exc.lineno == 1 else 0)))


def _document_lines(first: str, stream: TextIO) -> list[str]:
    """The first line of a document over several lines and the lines after it, up to the
    one where its arrays and objects close, or 4 MiB, or the end of the stream."""
    lines, size = [first + "\n"], len(first)
    depth = _depth(first)
    while depth > 0 and size < MAX_DECODED and (text := stream.readline()):
        lines.append(text)
        size += len(text)
        depth += _depth(text)
    return lines


def _depth(text: str) -> int:
    """Brackets a line opens minus those it closes (strings skipped)."""
    bare = _STRING.sub("", text)
    return bare.count("{") + bare.count("[") - bare.count("}") - bare.count("]")


class _Chained:
    """Lines read ahead, then the rest of a stream (what :func:`read_fpuzzles` reads on)."""

    def __init__(self, lines: list[str], rest: TextIO) -> None:
        self.lines, self.rest = lines[::-1], rest

    def readline(self, size: int = -1) -> str:
        if not self.lines:
            return self.rest.readline(size)
        text = self.lines.pop()
        if 0 <= size < len(text):
            self.lines.append(text[size:])
            return text[:size]
        return text


def _compressed(line: str, source: str, number: int) -> Record:
    """The record of a line of compressed data or a link."""
    try:
        data, prefix = decode_fpuzzles(line)
        puzzle, expected = _puzzle(data, source, number, compressed=True)
    except InvalidPuzzle as exc:
        return Record(source, number, None, exc.located(source=source, line=number))
    return Record(source, number, puzzle, expected=expected,
                  style=Style(fpuzzles=FPuzzlesForm(data, prefix)))


def _items(text: str) -> list[tuple[Any, int, int]]:
    """The objects of a JSON document (one object, or an array of them) with the span of
    each in ``text``.

    Raises:
        json.JSONDecodeError: the text is no JSON.
    """
    at = len(text) - len(text.lstrip())
    if not text.startswith("[", at):
        value, end = json_decode(text, at)
        if text[end:].strip():
            raise json.JSONDecodeError("extra data after the object", text, end)
        return [(value, at, end)]
    _whole(text)  # the whole array is valid: its items decode one by one below
    found, at = [], at + 1
    while True:
        while text[at] in " \t\r\n,":
            at += 1
        if text[at] == "]":
            return found
        value, end = json_decode(text, at, nesting_checked=True)
        found.append((value, at, end))
        at = end


def _whole(text: str) -> Any:
    """The one JSON value of ``text`` (spaces around it allowed), bounded
    (:func:`~sudokit.formats.bounded.json_decode`)."""
    value, end = json_decode(text, len(text) - len(text.lstrip()))
    if text[end:].strip():
        raise json.JSONDecodeError("extra data after the value", text, end)
    return value


def _records(text: str, source: str, line: int,
             items: list[tuple[Any, int, int]]) -> Iterator[Record]:
    """A record per object of :func:`_items` (already decoded: each is parsed once)."""
    for item, start, end in items:
        where = _Where(text, line, False, start, end)
        at = where(None)["line"]
        try:
            puzzle, expected = _puzzle(text, source, line, False, item, where)
        except InvalidPuzzle as exc:
            yield Record(source, at, None, exc)
            continue
        yield Record(source, at, puzzle, expected=expected,
                     style=Style(fpuzzles=FPuzzlesForm(text[start:end], "")))


def format_fpuzzles(grid: Sequence[int], form: FPuzzlesForm) -> str:
    """The puzzle's f-puzzles data with every cell's value filled from ``grid`` (givens kept),
    as the input was written: one line of JSON, compressed data, or a link."""
    data = json.loads(form.data)
    n = data["size"]
    for r, row in enumerate(data["grid"]):
        for c, cell in enumerate(row):
            if grid[r * n + c] and not cell.get("given"):
                cell["value"] = grid[r * n + c]
    text = json.dumps(data, separators=(",", ":"))
    if not form.prefix:
        return text
    packed = _lz().compressToBase64(text)
    return packed if form.prefix == _LZ_START else form.prefix + packed
