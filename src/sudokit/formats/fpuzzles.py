"""f-puzzles data: the JSON that the f-puzzles.com editor exports, raw or compressed in links.

f-puzzles (Eric Fox's editor, https://www.f-puzzles.com) saves a puzzle as one JSON object and
shares it as LZ-String ``compressToBase64`` text (Pieroxy's lz-string; read by
:mod:`sudokit.formats.bounded`, at most 4 MiB of text per puzzle, and written with the PyPI
package ``lzstring``; the URL-safe ``compressToEncodedURIComponent`` alphabet is read too),
usually in a link ``https://www.f-puzzles.com/?load=DATA``. SudokuPad
(https://sudokupad.app) opens the same data as ``https://sudokupad.app/fpuzzlesDATA`` (also
``fpuzDATA``, ``?puzzleid=fpuzzlesDATA`` and the crackingthecryptic.com addresses; the links
are split by :func:`sudokit.formats.sudokupad.split_link`). The format has no formal
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
  doublearrow, xsum, skyscraper, rowindexer, columnindexer, boxindexer): read into
  :mod:`sudokit.model.rules` by :mod:`sudokit.formats.fpuzzles_keys`;
* ``killercage`` and ``cage``: ``{"cells": ["R1C1", ...], "value": "23"}``; a cage without a
  value is an all-different cage (an extra region); ``extraregion``: ``{"cells": [...]}``;
* ``odd`` and ``even``: ``{"cell": "R1C1"}``;
* ``givenPencilMarks`` of a grid cell (a list of digits): the candidates an empty cell starts
  with, read as a rule (:func:`~sudokit.model.rulebook.given_candidates`); moot on a given cell;
* ``solution``: N*N digits the setter attached; it becomes :attr:`Record.expected`;
* ``title``, ``author``, ``ruleset`` and the editor's settings (``highlightConflicts``,
  ``activeConstraints``, ``disabledlogic``, ``truecandidatesoptions``) are not constraints.

Every other key holding something (``sum``, a ``negative`` entry other than
difference, ratio and xv, and the cosmetic ``text``, ``line``, ``rectangle``, ``circle``, which
setters use to draw rules the editor lacks) makes the puzzle invalid with a message naming the
key, the file and where: a constraint is never ignored. Cosmetic entries marked
``fromConstraint`` that only draw a rule held by its own key are skipped first
(:func:`~sudokit.formats.fpuzzles_keys.without_drawings`). SudokuPad's own format (``scl``/``ctc``
links) is read by :mod:`sudokit.formats.sudokupad`; files of these lines by
:mod:`sudokit.formats.fpuzzles_stream`.

Solutions are written back in the input's form (:func:`format_fpuzzles`): the same JSON (one
line, compact) with every cell's ``value`` filled, compressed again and behind the same link
prefix when the input was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypedDict, cast

from ..errors import InvalidPuzzle
from ..model import rulebook as rb
from ..model.constraints import Cage, Variant, cage_totals
from ..model.geometry import Geometry, box_shape_for_side
from ..model.integers import integer, shown_token
from ..model.puzzle import Puzzle
from ..model.rules import Rule
from .bounded import JsonObject, JsonValue, json_value
from .fpuzzles_keys import (
    NEGATIVE_KINDS,
    RULE_KEYS,
    RuleKeyError,
    fpuzzles_rules,
    without_drawings,
)
from .lines import FPuzzlesForm
from .sudokupad import LZ_START, SudokuPadLink, decompress, split_link, unzip_scl

if TYPE_CHECKING:
    from lzstring import LZString

__all__ = ["FPuzzlesForm", "KeyLocator", "decode_fpuzzles", "format_fpuzzles",
           "fpuzzles_puzzle", "located_puzzle"]

MAX_SIZE = 16
"""Largest grid f-puzzles draws."""

_CELL = re.compile(r"(?i)R(\d+)C(\d+)\Z")
_FLAGS = {"diagonal-": Variant.MAIN_DIAGONAL, "diagonal+": Variant.ANTI_DIAGONAL,
          "antiknight": Variant.ANTI_KNIGHT, "antiking": Variant.ANTI_KING,
          "nonconsecutive": Variant.NON_CONSECUTIVE, "disjointgroups": Variant.DISJOINT}
_SETTINGS = frozenset({"size", "grid", "title", "author", "ruleset", "solution", "negative",
                       "highlightConflicts", "activeConstraints", "disabledlogic",
                       "truecandidatesoptions"})
_READ = frozenset({*_FLAGS, "killercage", "cage", "extraregion", "odd", "even", *RULE_KEYS})
_KNOWN = _SETTINGS | _READ
"""Every key read or allowed (the test of each key, not rebuilt per key)."""


def _lz() -> LZString:
    try:
        import lzstring
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise InvalidPuzzle("writing compressed f-puzzles data needs the lzstring package "
                            "(pip install lzstring)") from exc
    return lzstring.LZString()


def decode_fpuzzles(text: str) -> tuple[str, str]:
    """The JSON text and the :attr:`FPuzzlesForm.prefix` of one line of f-puzzles data (JSON,
    compressed data, an f-puzzles link, or a SudokuPad ``fpuzzles``/``fpuz`` link or payload;
    see :func:`~sudokit.formats.sudokupad.split_link`).

    Raises:
        InvalidPuzzle: a SudokuPad link of another format (``scl``, ``ctc``, ``scf``, a short
            puzzle id), or data that does not decompress to JSON text (at the data's column).
    """
    text = text.strip()
    link = split_link(text) or SudokuPadLink("fpuzzles", LZ_START, text)
    if link.kind != "fpuzzles":
        raise InvalidPuzzle(f"expected f-puzzles data, found a SudokuPad {link.kind} link "
                            "(read by sudokit.formats.sudokupad)", column=1)
    if not link.prefix:
        return link.data, ""
    found = decompress(link, "f-puzzles data")
    if link.prefix.endswith(("fpuz", "fpuzzles")) and not found.lstrip().startswith('{"'):
        found = json.dumps(unzip_scl(found))  # zipped by SudokuPad's PuzzleZipper, as it reads
    return found, link.prefix


class Place(TypedDict):
    """Where in a file: line and column, 1-based (keywords of :class:`InvalidPuzzle`)."""

    line: int
    column: int


class KeyLocator:
    """Locates keys of one JSON object for error messages: the object is ``text[start:end]``
    of a text whose first line is file line ``line``."""

    def __init__(self, text: str, line: int, compressed: bool, start: int = 0,
                 end: int | None = None) -> None:
        self.text, self.line, self.compressed = text, line, compressed
        self.start, self.end = start, len(text) if end is None else end

    def __call__(self, key: str | None) -> Place:
        at = -1 if self.compressed else self.start
        if key is not None and at >= 0:
            at = self.text.find(f'"{key}"', self.start, self.end)
        if at < 0:
            return {"line": self.line, "column": 1}
        before = self.text[:at]
        return {"line": self.line + before.count("\n"), "column": at - before.rfind("\n")}


def _cell(name: object, n: int, key: str) -> int:
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


def _entries(data: JsonObject, key: str) -> list[JsonObject]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise _Bad(key, f"{key}: expected a list of objects")
    return cast("list[JsonObject]", value)


def _names(entry: JsonObject, key: str) -> list[JsonValue]:
    """The cell names of an entry's ``cells`` (none if it has none)."""
    names = entry.get("cells") or []
    if not isinstance(names, list):
        raise _Bad(key, f"{key}: expected a list of cells, found {names!r}")
    return names


def _present(value: object) -> bool:
    return value not in (None, False, "", [], {}, 0)


def _build(data: JsonValue) -> tuple[Puzzle, tuple[int, ...] | None]:
    """The puzzle of one f-puzzles object and the solution it carries (None if none), checked
    in the order of the object's parts: size and keys, grid, whole-grid rules, rule keys,
    then cages, extra regions and parity.

    Raises:
        _Bad: at the key of the first part that is wrong or not supported.
    """
    if not isinstance(data, dict):
        raise _Bad(None, "expected an f-puzzles object {\"size\": N, \"grid\": [...], ...}")
    data = without_drawings(data)  # the editor's pictures of rules held by their own keys
    n = _size(data)
    givens, regions = _grid(data, n)
    rules, negative = _rules(data, regions is not None)
    cages, extra = _cages(data, n)
    parity = _parity(data, n)
    br, bc = box_shape_for_side(n)
    try:  # what the rule keys read (side, boxes or regions): shared by every puzzle with boxes
        grid = Geometry.of(br, bc, rules, regions=regions)
    except InvalidPuzzle as exc:
        raise _located(exc, data) from None
    try:
        drawn = fpuzzles_rules(data, grid, negative) + tuple(_pencil_marks(data, givens, n))
    except RuleKeyError as exc:
        raise _Bad(exc.key, exc.message) from None
    try:  # the puzzle's geometry, built and checked once
        puzzle = Puzzle(Geometry.of(br, bc, rules, regions=regions, cages=cages, parity=parity,
                                    extra_regions=extra, constraints=drawn), tuple(givens))
    except InvalidPuzzle as exc:
        raise _located(exc, data) from None
    solution = data.get("solution")
    expected = None
    if isinstance(solution, list):
        digits = tuple(d for d in solution if isinstance(d, int) and 1 <= d <= n)
        if len(digits) == len(solution) == n * n:
            expected = digits
    return puzzle, expected


def _size(data: JsonObject) -> int:
    """The grid side of an f-puzzles object, after checking it holds no unsupported key."""
    n = data.get("size")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_SIZE:
        raise _Bad("size", f"size: expected a grid side 1..{MAX_SIZE}, found {n!r}")
    unknown = sorted(k for k, v in data.items() if k not in _KNOWN and _present(v))
    if unknown:
        key = unknown[0]
        raise _Bad(key, f"f-puzzles constraint {', '.join(map(repr, unknown))} is not supported "
                        "(sudokit reads givens, regions, diagonals, anti-knight, anti-king, "
                        "non-consecutive, disjoint groups, killer cages, extra regions, "
                        "odd/even cells and the rule keys "
                        f"{', '.join(sorted(RULE_KEYS))}); the puzzle is refused rather than "
                        "solved without it")
    return n


def _grid(data: JsonObject, n: int) -> tuple[list[int], list[list[int]] | None]:
    """The givens (N*N, 0 empty) and the jigsaw regions (None when every cell is in its box)
    of the ``grid`` rows. ``"region": null`` puts a cell in no region: on every cell it is a
    grid without boxes (read as regions = rows, which adds nothing to the rows' rule); on
    some cells only it is refused."""
    rows = data.get("grid")
    if (not isinstance(rows, list) or len(rows) != n
            or not all(isinstance(r, list) and len(r) == n for r in rows)):
        raise _Bad("grid", f"grid: expected {n} rows of {n} cell objects")
    givens, owner, regional, loose = [0] * (n * n), [0] * (n * n), False, []
    br, bc = box_shape_for_side(n)
    for r, row in enumerate(cast("list[list[JsonObject]]", rows)):  # _given refuses non-objects
        for c, cell in enumerate(row):
            k = r * n + c
            if not isinstance(cell, dict) or cell.get("given"):  # else no given: 0
                givens[k] = _given(cell, r, c, n)
            region = cell.get("region")
            if region is None and "region" in cell:
                loose.append(k)
            elif region is None:
                owner[k] = (r // br) * (n // bc) + c // bc
            elif isinstance(region, int) and 0 <= region < n:
                owner[k], regional = region, True
            else:
                raise _Bad("region", f"grid: R{r + 1}C{c + 1} has region {region!r}, expected "
                                     f"0..{n - 1}")
    if loose:
        if len(loose) < n * n:
            raise _Bad("region", f"grid: R{loose[0] // n + 1}C{loose[0] % n + 1} is in no region "
                                 "(\"region\": null) while other cells are; not supported")
        return givens, [list(range(r * n, r * n + n)) for r in range(n)]
    if not regional or all(owner[k] == (k // n // br) * (n // bc) + k % n // bc
                           for k in range(n * n)):
        return givens, None
    groups: list[list[int]] = [[] for _ in range(n)]
    for k, g in enumerate(owner):
        groups[g].append(k)
    return givens, groups


def _given(cell: object, r: int, c: int, n: int) -> int:
    """The given digit of a cell object at row ``r``, column ``c`` (0-based), 0 for none."""
    if not isinstance(cell, dict):
        raise _Bad("grid", f"grid: R{r + 1}C{c + 1} is not a cell object")
    value = 0
    if cell.get("given") and cell.get("value") is not None:
        value = cell["value"]
        if not isinstance(value, int) or not 1 <= value <= n:
            raise _Bad("grid", f"grid: R{r + 1}C{c + 1} holds {value!r}, expected a "
                               f"digit 1..{n}")
    return value


def _pencil_marks(data: JsonObject, givens: Sequence[int], n: int) -> list[Rule]:
    """The given candidates (``givenPencilMarks``) of the empty cells, one rule each; on a
    given cell they are moot (the editor hides them under the digit)."""
    found: list[Rule] = []
    rows = cast("list[list[JsonObject]]", data["grid"])  # read by _grid
    for k, cell in enumerate(c for row in rows for c in row):
        marks = cell.get("givenPencilMarks")
        if marks is None or givens[k] or not _present(marks):
            continue
        if not (isinstance(marks, list) and all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= n for d in marks)):
            raise _Bad("givenPencilMarks", f"grid: R{k // n + 1}C{k % n + 1} has "
                                           f"givenPencilMarks {marks!r}, expected digits 1..{n}")
        found += rb.given_candidates(k, cast("list[int]", marks), n)
    return found


def _rules(data: JsonObject, jigsaw: bool) -> tuple[Variant, set[str]]:
    """The whole-grid rules the object's flags switch on, and the kinds of ``negative``
    constraints left to :func:`~sudokit.formats.fpuzzles_keys.fpuzzles_rules` (with Kropki
    dots on the grid, "no dot" is not the plain non-consecutive rule: dotted pairs are exempt).
    """
    rules = Variant.STANDARD
    for key, flag in _FLAGS.items():
        if data.get(key):
            rules |= flag
    found = data.get("negative") or []
    if not isinstance(found, list) or not all(isinstance(k, str) for k in found):
        raise _Bad("negative", f"negative: expected a list of names, found {found!r}")
    negative = cast("list[str]", found)
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


def _cages(data: JsonObject, n: int) -> tuple[list[Cage], list[list[int]]]:
    """The killer cages (``killercage`` then ``cage`` entries) and the extra regions (cages
    without a value, then ``extraregion`` entries)."""
    cages: list[Cage] = []
    extra: list[list[int]] = []
    for key in ("killercage", "cage"):
        for entry in _entries(data, key):
            names = _names(entry, key)
            cells = [_cell(name, n, key) for name in names]
            if not cells:
                raise _Bad(key, f"{key}: a cage without cells")
            value = str(entry.get("value") or "").strip()
            if not value:
                extra.append(cells)
            elif (total := integer(value, signed=False)) is None:
                raise _Bad(key, f"{key}: cage value {shown_token(value)} at {names[0]} "
                                "is not a sum (other cage rules are not supported)")
            else:
                low, high = cage_totals(len(cells), n)
                if len(set(cells)) != len(cells) or not low <= total <= high:
                    raise _Bad(key, f"{key}: cage at {names[0]} of {len(cells)} cells "
                                    f"cannot add up to {total} (expected {low}..{high})")
                cages.append(Cage(total, tuple(cells)))
    for entry in _entries(data, "extraregion"):
        extra.append([_cell(name, n, "extraregion") for name in _names(entry, "extraregion")])
    return cages, extra


def _parity(data: JsonObject, n: int) -> str | None:
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


def _located(exc: InvalidPuzzle, data: JsonObject) -> _Bad:
    """A geometry's error about a constraint, at the f-puzzles key that holds it."""
    message = str(exc.args[0] if exc.args else exc)
    key = {"extra_regions": "extraregion", "regions": "grid",
           "parity": "odd" if data.get("odd") else "even",
           "cages": "killercage" if data.get("killercage") else "cage"}.get(exc.constraint or "")
    if exc.constraint == "cages" and data.get("killercage") and data.get("cage"):
        message += " (killercage entries first, then cage entries)"
    return _Bad(key, message)


def fpuzzles_puzzle(data: JsonObject | str, source: str = "<string>",
                    line: int = 1) -> Puzzle:
    """The puzzle of one f-puzzles object (a dict, or JSON text).

    Raises:
        InvalidPuzzle: the data is no f-puzzles puzzle, or holds a constraint sudokit cannot
            express (the message names the key; see the module docstring).
    """
    if isinstance(data, str):
        return located_puzzle(data, source, line, compressed=False)[0]
    # already decoded: not decoded again, nor encoded unless an error needs a place
    return located_puzzle("", source, line, compressed=False, data=data,
                          where=_EncodedLocator(data, line))[0]


class _EncodedLocator:
    """A :class:`KeyLocator` of an object given decoded: its text is encoded only when an
    error message needs a key's place (line 1, column 1 when it does not encode)."""

    def __init__(self, data: object, line: int) -> None:
        self.data, self.line = data, line

    def __call__(self, key: str | None) -> Place:
        try:
            text = json.dumps(self.data)
        except (TypeError, ValueError):
            return {"line": self.line, "column": 1}
        return KeyLocator(text, self.line, False)(key)


def located_puzzle(text: str, source: str, line: int, compressed: bool, data: JsonValue = None,
                   where: Callable[[str | None], Place] | None = None
                   ) -> tuple[Puzzle, tuple[int, ...] | None]:
    """The puzzle and solution of f-puzzles JSON text, errors located in the file: at the key
    (``where``) in JSON as written, at the line for compressed data.

    Raises:
        InvalidPuzzle: see :func:`fpuzzles_puzzle`.
    """
    where = where or KeyLocator(text, line, compressed)
    try:
        data = json_value(text) if data is None else data
    except json.JSONDecodeError as exc:
        at = Place(line=line + exc.lineno - 1, column=exc.colno) if not compressed else \
            Place(line=line, column=1)
        raise InvalidPuzzle(f"expected f-puzzles JSON: {exc.msg}"
                            + (" (in the decompressed data)" if compressed else ""),
                            source=source, **at) from None
    try:
        return _build(data)
    except _Bad as bad:
        note = " (in the decompressed data)" if compressed else ""
        raise InvalidPuzzle(bad.message + note, source=source, **where(bad.key)) from None


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
    packed = str(_lz().compressToBase64(text))
    return packed if form.prefix == LZ_START else form.prefix + packed
