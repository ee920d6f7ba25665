"""The f-puzzles keys of the rules drawn on a grid, read into :mod:`sudokit.model.rules`.

f-puzzles (and SudokuPad, which opens its data) stores each drawn rule as a list under one key.
The shapes and meanings follow the editor and the importers that solve them (Rangsk's
SudokuSolver and its TypeScript port SudokuVariantSolverJS, ``FPuzzlesInterfaces.ts``):

* lines ``{"lines": [["R1C1", "R1C2", ...], ...]}``, each line one rule: ``thermometer`` and
  ``slowthermometer`` (from the bulb), ``palindrome``, ``renban``, ``whispers`` (``value``: the
  least difference, default ``ceil(N / 2)``), ``betweenline``, ``lockout`` (ends at least
  ``N // 2`` apart), ``entropicline``, ``modularline``, ``nabner``, ``regionsumline`` (box or
  region borders cut the segments), ``zipperline``, ``doublearrow``;
* ``arrow``: ``{"cells": circle or pill cells, "lines": [[circle cell, arrow cells...], ...]}``,
  each line one arrow whose cells after the first add up to the circle (a pill of 2-3 cells is
  read as a number);
* dots and signs ``{"cells": [a, b], "value": ...}``: ``difference`` (default 1), ``ratio``
  (default 2), ``xv`` (``"X"`` or ``"V"``); ``negative`` lists the kinds whose absence is a
  clue: ``difference`` and ``ratio`` (orthogonal neighbours with no Kropki dot are not 1 apart /
  not in ratio 2, nor in any other dot value given), ``xv`` (neighbours with no X or V do not add
  up to 10 or 5);
* outside clues ``{"cell": "R0C3", "value": "10"}`` on a row 0 or N+1 or column 0 or N+1,
  reading the row or column away from the clue: ``sandwichsum``, ``xsum``, ``skyscraper``;
  ``littlekillersum`` (``cells``: the diagonal; without it, ``direction`` UR/UL/DR/DL from
  ``cell``);
* single cells ``{"cell": "R1C1"}``: ``minimum``, ``maximum`` (below / above each orthogonal
  neighbour not marked the same way: a fortress of adjacent maxima); ``quadruple``
  ``{"cells": [4 cells], "values": [...]}``; ``clone`` ``{"cells": [...], "cloneCells": [...]}``;
  ``rowindexer``, ``columnindexer``, ``boxindexer`` ``{"cells": [...]}``: each listed cell is
  an indexer (the digit d in a row-indexer cell at row r, column c puts r in row d of column
  c; a column indexer puts c in column d of row r; a box indexer at place p of its region, in
  reading order, puts p in the d-th cell of that region).

An entry whose clue is empty (no value written) is no rule. Anything else malformed raises
:class:`RuleKeyError` naming the key and the entry.

The editor draws the constraints it added late (renban, whispers, region-sum and entropic
lines, X-sums, indexers...) with cosmetic entries too (``line``, ``cage``, ``text``,
``rectangle``, ``circle``) marked ``"fromConstraint": "Region Sum Line"``: the picture of a rule
that its own key already holds. :func:`without_drawings` drops those whose named rule is a key
of the same object (the name, lower-cased without spaces, is the key, or names its variant:
"Dutch Whispers" draws a ``whispers`` line, "Lockout Line" a ``lockout``; the editor marks its
lockout lines and end diamonds ``"isLLConstraint": true`` instead), and the unmarked ``line``s
that lie exactly on lines of the object's rule keys (older editors drew renban lines again in
grey); any other cosmetic entry is left for the reader to refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from typing import cast, overload

from ..errors import InvalidPuzzle
from ..model import rulebook as rb
from ..model.geometry import Geometry
from ..model.rules import Relation, Rule, check_rules
from .bounded import JsonObject

__all__ = ["NEGATIVE_KINDS", "RULE_KEYS", "RuleKeyError", "fpuzzles_rules",
           "without_drawings"]

_CELL = re.compile(r"(?i)R(\d+)C(\d+)\Z")
_DIAGONAL = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}
NEGATIVE_KINDS = frozenset({"difference", "ratio", "xv"})
"""The ``negative`` entries understood (any other is refused by name); :func:`fpuzzles_rules`
also takes ``"nonconsecutive"`` (the flag, on a grid with Kropki dots)."""


class RuleKeyError(Exception):
    """A malformed entry of a rule key (``key``: where, ``message``: what)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key, self.message = key, message


_NAMES: dict[str, tuple[int, int]] = {}
"""Cell names read so far -> their (row, column) numbers, 1-based (a puzzle names each cell
of its lines, dots and cages several times; the pattern is matched once per name)."""


def _numbers(name: object) -> tuple[int, int] | None:
    """The (row, column) numbers of a cell name ``R<row>C<column>`` (any case), None if it
    is not one."""
    if not isinstance(name, str):
        return None
    found = _NAMES.get(name)
    if found is None:
        match = _CELL.match(name)
        if match is None:
            return None
        found = (int(match[1]), int(match[2]))
        if len(name) <= 12:  # a cell's name, not a long run of zeros
            if len(_NAMES) > 65536:
                _NAMES.clear()
            _NAMES[name] = found
    return found


@dataclass(frozen=True)
class _Grid:
    """What the builders need: the geometry (regions, neighbours) and the key being read."""

    geometry: Geometry
    key: str
    marked: frozenset[int] = frozenset()  # the cells of every entry of the key (min/max)

    @property
    def n(self) -> int:
        return self.geometry.side

    def bad(self, message: str) -> RuleKeyError:
        return RuleKeyError(self.key, f"{self.key}: {message}")

    def cell(self, name: object, outside: bool = False) -> tuple[int, int]:
        """The 0-based (row, column) of a cell name (one step outside with ``outside``)."""
        at = _numbers(name)
        n = self.geometry.side
        low, high = (0, n + 1) if outside else (1, n)
        if at is None or not (low <= at[0] <= high and low <= at[1] <= high):
            raise self.bad(f"expected a cell R{low}C{low}..R{high}C{high}, found {name!r}")
        return at[0] - 1, at[1] - 1

    def index(self, name: object) -> int:
        r, c = self.cell(name)
        return r * self.geometry.side + c

    def cells(self, names: object, least: int = 1) -> list[int]:
        if not isinstance(names, list) or len(names) < least:
            raise self.bad(f"expected a list of at least {least} cells, found {names!r}")
        return [self.index(name) for name in names]

    @overload
    def number(self, value: object, default: int) -> int: ...
    @overload
    def number(self, value: object, default: None = None) -> int | None: ...

    def number(self, value: object, default: int | None = None) -> int | None:
        """An integer clue (None for an empty clue when there is no default)."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return default
        if isinstance(value, bool) or not (isinstance(value, int) or (
                isinstance(value, str) and value.strip().lstrip("-").isdigit())):
            raise self.bad(f"expected a whole number, found {value!r}")
        return int(value)

    def neighbours(self, cell: int) -> list[int]:
        n = self.geometry.side
        r, c = divmod(cell, n)
        near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return [i * n + j for i, j in near if 0 <= i < n and 0 <= j < n]

    def outside(self, name: object) -> list[int]:
        """The row or column read away from an outside clue cell."""
        r, c = self.cell(name, outside=True)
        n, last = self.n, self.n
        if r == -1 and 0 <= c < n:
            return [i * n + c for i in range(n)]
        if r == last and 0 <= c < n:
            return [i * n + c for i in range(n - 1, -1, -1)]
        if c == -1 and 0 <= r < n:
            return [r * n + j for j in range(n)]
        if c == last and 0 <= r < n:
            return [r * n + j for j in range(n - 1, -1, -1)]
        raise self.bad(f"{name!r} is not beside the grid (row 0 or {n + 1}, column 0 or {n + 1})")


def _lines(entry: JsonObject, g: _Grid) -> list[list[int]]:
    lines = entry.get("lines")
    if not isinstance(lines, list) or not lines:
        raise g.bad("expected \"lines\": a list of lines of cells")
    return [g.cells(line) for line in lines]


def _per_line(build: Callable[[list[int], _Grid, JsonObject], tuple[Rule, ...]]
              ) -> Callable[[JsonObject, _Grid], tuple[Rule, ...]]:
    def read(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
        return tuple(r for line in _lines(entry, g) for r in build(line, g, entry))
    return read


def _arrow(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
    circle = g.cells(entry.get("cells"))
    if len(circle) > 1 and g.n > 9:
        raise g.bad(f"a pill of {len(circle)} cells on a {g.n}x{g.n} grid (digits above 9 "
                    "do not read as one number) is not supported")
    return tuple(r for line in _lines(entry, g) for r in rb.arrow(circle, line[1:]))


def _pair(entry: JsonObject, g: _Grid) -> tuple[int, int]:
    cells = g.cells(entry.get("cells"), 2)
    if len(cells) != 2:
        raise g.bad(f"expected two cells, found {entry.get('cells')!r}")
    return cells[0], cells[1]


def _difference(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
    return rb.difference_dot(*_pair(entry, g), g.n, g.number(entry.get("value"), 1))


def _ratio(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
    return rb.ratio_dot(*_pair(entry, g), g.n, g.number(entry.get("value"), 2))


def _xv(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
    total = {"X": 10, "V": 5}.get(str(entry.get("value", "")).upper())
    if total is None:
        raise g.bad(f"expected value \"X\" or \"V\", found {entry.get('value')!r}")
    return rb.sum_pair(*_pair(entry, g), g.n, total)


def _clue(entry: JsonObject, g: _Grid,
          build: Callable[[list[int], int, int], tuple[Rule, ...]]) -> tuple[Rule, ...]:
    value = g.number(entry.get("value"))
    return () if value is None else build(g.outside(entry.get("cell")), value, g.n)


def _little_killer(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
    total = g.number(entry.get("value"))
    if total is None:
        return ()
    if entry.get("cells"):
        return rb.little_killer(g.cells(entry["cells"]), total)
    step = _DIAGONAL.get(str(entry.get("direction", "")).upper())
    if step is None:
        raise g.bad(f"expected \"cells\" or a direction UR, UL, DR or DL, found "
                    f"{entry.get('direction')!r}")
    r, c = g.cell(entry.get("cell"), outside=True)
    cells = []
    while True:
        r, c = r + step[0], c + step[1]
        if not (0 <= r < g.n and 0 <= c < g.n):
            break
        cells.append(r * g.n + c)
    if not cells:
        raise g.bad(f"the diagonal from {entry.get('cell')!r} misses the grid")
    return rb.little_killer(cells, total)


def _quadruple(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
    values = entry.get("values") or []
    found = [g.number(v) for v in values] if isinstance(values, list) else [None]
    digits = [d for d in found if d is not None and 1 <= d <= g.n]
    if len(digits) < len(found):
        raise g.bad(f"expected digits 1..{g.n}, found {values!r}")
    return rb.quadruple(g.cells(entry.get("cells"), 2), digits)


def _extreme(build: Callable[[int, Sequence[int], int], tuple[Rule, ...]]
             ) -> Callable[[JsonObject, _Grid], tuple[Rule, ...]]:
    def read(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
        cell = g.index(entry.get("cell"))
        return build(cell, [c for c in g.neighbours(cell) if c not in g.marked], g.n)
    return read


def _clone(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
    return rb.clone(g.cells(entry.get("cells")), g.cells(entry.get("cloneCells")), g.n)


def _indexer(unit: str) -> Callable[[JsonObject, _Grid], tuple[Rule, ...]]:
    """The reader of ``rowindexer``, ``columnindexer`` or ``boxindexer``: a cell at place p
    (1-based) of its column, row or region (reading order) holding d puts p in the d-th cell
    of that unit (Rangsk's SudokuSolver ``IndexerConstraint``)."""
    def read(entry: JsonObject, g: _Grid) -> tuple[Rule, ...]:
        n, found = g.n, list[Rule]()
        for cell in g.cells(entry.get("cells")):
            r, c = divmod(cell, n)
            if unit == "row":  # digit d: row d of this column holds r + 1
                targets = [i * n + c for i in range(n)]
            elif unit == "column":  # digit d: column d of this row holds c + 1
                targets = [r * n + j for j in range(n)]
            else:
                box = g.geometry.box_of(cell)
                targets = [k for k in range(n * n) if g.geometry.box_of(k) == box]
            found += rb.indexer(cell, targets, targets.index(cell) + 1, f"{unit} indexer")
        return tuple(found)
    return read


_READERS: dict[str, Callable[[JsonObject, _Grid], tuple[Rule, ...]]] = {
    "thermometer": _per_line(lambda line, g, e: rb.thermometer(line, g.n)),
    "slowthermometer": _per_line(lambda line, g, e: rb.slow_thermometer(line, g.n)),
    "palindrome": _per_line(lambda line, g, e: rb.palindrome(line, g.n)),
    "renban": _per_line(lambda line, g, e: rb.renban(line)),
    "whispers": _per_line(lambda line, g, e: rb.whispers(line, g.n, g.number(e.get("value")))),
    "betweenline": _per_line(lambda line, g, e: rb.between_line(line)),
    "lockout": _per_line(lambda line, g, e: rb.lockout_line(line, g.n, g.n // 2)),
    "entropicline": _per_line(lambda line, g, e: rb.entropic_line(line, g.n)),
    "modularline": _per_line(lambda line, g, e: rb.modular_line(line, g.n)),
    "nabner": _per_line(lambda line, g, e: rb.nabner(line, g.n)),
    "regionsumline": _per_line(lambda line, g, e: rb.region_sum_line(line, g.geometry.box_of)),
    "zipperline": _per_line(lambda line, g, e: rb.zipper_line(line)),
    "doublearrow": _per_line(lambda line, g, e: rb.double_arrow(line)),
    "arrow": _arrow,
    "difference": _difference,
    "ratio": _ratio,
    "xv": _xv,
    "sandwichsum": lambda e, g: _clue(e, g, rb.sandwich),
    "xsum": lambda e, g: _clue(e, g, rb.x_sum),
    "skyscraper": lambda e, g: _clue(e, g, rb.skyscraper),
    "littlekillersum": _little_killer,
    "quadruple": _quadruple,
    "minimum": _extreme(rb.minimum),
    "maximum": _extreme(rb.maximum),
    "clone": _clone,
    "rowindexer": _indexer("row"),
    "columnindexer": _indexer("column"),
    "boxindexer": _indexer("box"),
}

RULE_KEYS = frozenset(_READERS)
"""Every f-puzzles key read into rules (with ``negative``, read by :func:`fpuzzles_rules`)."""


def _entries(data: JsonObject, key: str) -> list[JsonObject]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise RuleKeyError(key, f"{key}: expected a list of objects")
    return cast("list[JsonObject]", value)


def _negative(data: JsonObject, geometry: Geometry,
              kinds: Set[str]) -> tuple[Rule, ...]:
    """The negative rules: every orthogonal pair without a dot of the group breaks the dots'
    relations (Rangsk's grouping: Kropki dots of both colours mark a pair for ``difference``
    and ``ratio``; X and V for ``xv``). ``nonconsecutive`` is the non-consecutive rule on a grid
    with Kropki dots: the dotted pairs are exempt."""
    g = _Grid(geometry, "negative")
    n, found = geometry.side, []
    groups = {"difference": ("difference", "ratio"), "ratio": ("difference", "ratio"),
              "nonconsecutive": ("difference", "ratio"), "xv": ("xv",)}
    defaults = {"difference": 1, "ratio": 2}
    for kind in sorted(kinds):
        marked = {frozenset(_pair(e, _Grid(geometry, k))) for k in groups[kind]
                  for e in _entries(data, k)}
        make: Callable[[int, int, int, int], tuple[Rule, ...]]
        if kind in ("xv", "nonconsecutive"):
            values = [10, 5] if kind == "xv" else [1]
            make = rb.sum_pair if kind == "xv" else rb.difference_dot
        else:
            values = sorted({g.number(e.get("value"), defaults[kind])
                             for e in _entries(data, kind)} | {defaults[kind]})
            make = rb.difference_dot if kind == "difference" else rb.ratio_dot
        shapes = [rb.negated(r, n) for v in values for r in make(0, 1, n, v)
                  if isinstance(r, Relation)] if n > 1 else []
        for a in range(n * n):
            for b in g.neighbours(a):
                if a < b and frozenset((a, b)) not in marked:
                    found += [Relation((a, b), r.pairs, r.name) for r in shapes]
    return tuple(found)


def fpuzzles_rules(data: JsonObject, geometry: Geometry,
                   negative: Set[str] = frozenset()) -> tuple[Rule, ...]:
    """The rules of every rule key of an f-puzzles object, in key order, on ``geometry`` (the
    puzzle's grid, regions included), with the negative rules of ``negative`` (kinds of
    :data:`NEGATIVE_KINDS`).

    Raises:
        RuleKeyError: a malformed entry, or a rule that does not fit the grid (the key named).
    """
    found: list[Rule] = []
    for key, read in _READERS.items():
        if not data.get(key):  # absent or empty: no entry (most keys of most puzzles)
            continue
        g = _Grid(geometry, key)
        if key in ("minimum", "maximum"):  # a group of marked cells compares with its rim
            g = _Grid(geometry, key, frozenset(g.index(e.get("cell"))
                                               for e in _entries(data, key)))
        for k, entry in enumerate(_entries(data, key)):
            try:
                rules = read(entry, g)
                check_rules(rules, geometry.side, geometry.n_cells, geometry.label)
            except InvalidPuzzle as exc:
                raise RuleKeyError(key, f"{key} entry {k + 1}: {exc.reason}") from None
            found += rules
    return tuple(found) + _negative(data, geometry, negative)


_COSMETIC = ("line", "cage", "text", "rectangle", "circle")
"""The editor's drawing keys: a picture, a rule only by what the setter's text says."""
_DRAWN_KEY = {"dutchwhispers": "whispers", "germanwhispers": "whispers",
              "lockoutline": "lockout", "nabnerline": "nabner"}
"""``fromConstraint`` names (lower-cased, no spaces) that are not their rule's key."""


def without_drawings(data: JsonObject) -> JsonObject:
    """``data`` without the cosmetic entries that only draw a rule it holds under its own key
    (``"fromConstraint": "Renban"`` beside a non-empty ``renban``), and the cosmetic ``line``s
    lying exactly on lines of its rule keys (older editors drew renban lines again in grey, with
    no mark); a key left empty is removed. Other entries (no mark and a line of their own, or
    naming a rule the object lacks) are kept."""
    if not isinstance(data, dict) or not any(data.get(key) for key in _COSMETIC):
        return data
    lines = data.get("line")
    kept = dict(data)
    ruled = _ruled_lines(data) if isinstance(lines, list) and lines else set()
    for key in _COSMETIC:
        entries = data.get(key)
        if not isinstance(entries, list):
            continue
        rest = [e for e in entries if not (isinstance(e, dict) and (
            data.get(_drawn_key(e)) or key == "line" and _on_lines(e, ruled)))]
        if rest:
            kept[key] = rest
        else:
            del kept[key]
    return kept


def _ruled_lines(data: JsonObject) -> set[tuple[str, ...]]:
    """The lines (cell names, upper case, both directions) of the object's rule keys."""
    found: set[tuple[str, ...]] = set()
    for key in RULE_KEYS:
        entries = data.get(key)
        for entry in entries if isinstance(entries, list) else []:
            lines = entry.get("lines") if isinstance(entry, dict) else None
            for cells in map(_line_cells, lines if isinstance(lines, list) else []):
                found |= {cells, cells[::-1]} if cells else set()
    return found


def _on_lines(entry: JsonObject, ruled: set[tuple[str, ...]]) -> bool:
    """Whether every line of a cosmetic ``line`` entry is a line of a rule key."""
    lines = entry.get("lines")
    return isinstance(lines, list) and bool(lines) and all(
        _line_cells(line) in ruled for line in lines)


def _line_cells(line: object) -> tuple[str, ...] | None:
    """A line's cell names in upper case, None if it is not a list of names."""
    if not isinstance(line, list) or not all(isinstance(c, str) for c in line):
        return None
    return tuple(c.upper() for c in line)


def _drawn_key(entry: JsonObject) -> str:
    """The rule key a cosmetic entry draws: of its ``fromConstraint`` name ("Region Sum Line"
    -> ``regionsumline``), ``lockout`` for the editor's lockout lines and diamonds (marked
    ``"isLLConstraint": true``), "" for none."""
    name = entry.get("fromConstraint")
    if isinstance(name, str):
        short = name.replace(" ", "").lower()
        return _DRAWN_KEY.get(short, short)
    return "lockout" if entry.get("isLLConstraint") is True else ""
