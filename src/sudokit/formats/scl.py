"""SudokuPad's own puzzle data (``scl``/``ctc`` links, unzipped by
:func:`sudokit.formats.sudokupad.unzip_scl`) read into a puzzle: what the data states, and every
drawn element whose rule it does not state refused by name and place.

Read: the grid (``cells``, N rows of N cells, N <= 16; a cell's ``value`` is a given), the
``regions`` (the boxes, or jigsaw regions), the ``cages`` (a number is a killer sum, the cage's
digits distinct; a cage without a number is an extra region of distinct digits) and the
metadata (the ``metadata`` object, top-level keys, or cages without cells holding
``"title: ..."`` / ``"solution: ..."``, as SudokuPad's f-puzzles loader writes them): title,
author, rules text and the solution (N*N digits, two characters a digit past 9).

Refused, by name: ``lines``, ``arrows``, ``overlays``, ``underlays`` (in SudokuPad's format they
are only drawings: a grey line is a thermometer, a palindrome or nothing, a dot a Kropki dot or a
parity mark, as the rules text says in words; sudokit does not guess from colours and words), a
background image, cages drawn for another constraint or whose digits may repeat, given pencil
marks, and any other key: the message names the first element and its place (``line from r3c2
to r7c2: its rule is not stated``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from ..errors import InvalidPuzzle
from ..model.constraints import Cage, cage_totals
from ..model.geometry import Geometry, box_shape_for_side
from ..model.puzzle import Puzzle
from .bounded import JsonObject, JsonValue

__all__ = ["scl_puzzle"]

MAX_SIZE = 16
"""Largest grid read (as f-puzzles)."""

_META = re.compile(r"([^: ]+):\s*(.+)", re.DOTALL)
_READ = frozenset({"id", "cellSize", "cells", "regions", "cages", "metadata", "title", "author",
                   "rules", "solution"})
_DRAWN = {"lines": "line", "arrows": "arrow", "overlays": "overlay", "underlays": "underlay"}
_TEXT_META = frozenset({"title", "author", "rules", "solution", "source", "msgcorrect",
                        "msgincorrect", "copyright", "date", "difficulty", "youtube", "video",
                        "videos", "id", "sourcepuzzle", "puzzlelink"})


def scl_puzzle(data: JsonObject) -> tuple[Puzzle, tuple[int, ...] | None]:
    """The puzzle of SudokuPad data (:func:`~sudokit.formats.sudokupad.unzip_scl`) and the
    solution it carries (None if none).

    Raises:
        InvalidPuzzle: the grid is not N x N cells (N <= 16), the regions do not split it into
            N regions of N cells, a cage or given is malformed, or the data holds a drawn
            element or setting whose rule is not stated (named with its place).
    """
    cells = found if isinstance(found := data.get("cells"), list) else []
    n = len(cells)
    if not (1 <= n <= MAX_SIZE and all(isinstance(r, list) and len(r) == n for r in cells)):
        raise InvalidPuzzle(f"SudokuPad cells: expected N rows of N cells (N = 1..{MAX_SIZE}), "
                            "found another shape")
    _refuse_unstated(data)
    meta = _metadata(data)
    rows = cast("list[list[JsonValue]]", cells)
    givens = [_given(cell, k, n) for k, cell in enumerate(c for row in rows for c in row)]
    regions = _regions(data.get("regions"), n)
    cages, extra = _cages(_list(data.get("cages"), "cages"), n)
    try:
        geometry = Geometry.of(*box_shape_for_side(n), regions=regions, cages=cages,
                               extra_regions=extra)
        puzzle = Puzzle(geometry, tuple(givens))
    except InvalidPuzzle as exc:
        raise InvalidPuzzle(f"SudokuPad data: {exc.reason}") from None
    return puzzle, _solution(meta.get("solution"), n)


def _refuse_unstated(data: JsonObject) -> None:
    """Refuse every drawn element (its rule is not stated) and every key that is not read,
    naming the first element with its place and counting the others."""
    drawn = [(name, items if isinstance(items, list) else [items])
             for key, name in _DRAWN.items() if (items := data.get(key))]
    unknown = sorted(k for k, v in data.items() if k not in _READ and k not in _DRAWN
                     and v not in (None, False, "", [], {}))
    if drawn:
        name, first = drawn[0][0], drawn[0][1][0]
        counts = ", ".join(f"{len(found)} {kind}{'s' * (len(found) > 1)}"
                           for kind, found in drawn)
        meta = data.get("metadata")
        image = isinstance(meta, dict) and meta.get("bgimage")
        also = "".join([f"; also the key {', '.join(map(repr, unknown))}" if unknown else "",
                        "; also a background image" if image else ""])
        raise InvalidPuzzle(f"SudokuPad {name} {_where(first)}: its rule is not stated in "
                            f"the data ({counts} in all{also}); drawn elements carry no rule in "
                            "SudokuPad's format, so the puzzle is refused rather than solved "
                            "without them (an f-puzzles link of the puzzle states its rules)")
    if unknown:
        raise InvalidPuzzle(f"SudokuPad key {', '.join(map(repr, unknown))} is not read (sudokit "
                            "reads cells, regions, cages and metadata); the puzzle is refused "
                            "rather than solved without it")


def _where(item: object) -> str:
    """The place of a drawn element: ``at r4c8``, ``between r4c8 and r4c9``, ``from r3c2 to
    r7c2`` (rows and columns past the grid's edge are 0 and N + 1)."""
    if not isinstance(item, dict):
        return "(malformed)"
    points = item.get("wayPoints")
    if isinstance(points, list) and points:
        return f"from {_place(points[0])} to {_place(points[-1])}"
    return _place(item.get("center"), "at ")


def _place(point: object, at: str = "") -> str:
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


def _metadata(data: JsonObject) -> JsonObject:
    """The metadata: the ``metadata`` object, top-level title/author/rules/solution, and cages
    without cells holding ``"key: value"``; a key that may carry a rule is refused."""
    meta = data.get("metadata") or {}
    if not isinstance(meta, dict):
        raise InvalidPuzzle(f"SudokuPad metadata: expected an object, found {meta!r:.40}")
    meta = dict(meta)
    for key in ("title", "author", "rules", "solution"):
        if data.get(key) is not None:
            meta.setdefault(key, data[key])
    for cage in _list(data.get("cages"), "cages"):
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


def _given(cell: object, k: int, n: int) -> int:
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


def _number(value: object) -> int | None:
    """A whole number written as a number or as digits; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip() if isinstance(value, (str, float)) else ""
    return int(text) if text.isdigit() and len(text) <= 6 else None


def _cell_of(pair: object, n: int, what: str) -> int:
    if not (isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in pair)):
        raise InvalidPuzzle(f"SudokuPad {what}: expected cells [row, column] 0..{n - 1}, "
                            f"found {pair!r}")
    return int(pair[0]) * n + int(pair[1])


def _list(value: object, what: str) -> list[JsonValue]:
    """A list value (an absent one is empty)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidPuzzle(f"SudokuPad {what}: expected a list, found {value!r:.40}")
    return value


def _regions(found: object, n: int) -> list[list[int]] | None:
    """The jigsaw regions, or None when the regions are the usual boxes."""
    listed = _list(found, "regions")
    if not listed:
        raise InvalidPuzzle("SudokuPad data without regions (no boxes): a grid without boxes "
                            "is not read")
    groups = [sorted(_cell_of(p, n, "region") for p in _list(g, "region")) for g in listed]
    if sorted(k for g in groups for k in g) != list(range(n * n)) or len(groups) != n:
        raise InvalidPuzzle(f"SudokuPad regions: expected {n} regions of {n} cells covering "
                            f"the grid once, found {len(groups)} regions of "
                            f"{sum(map(len, groups))} cells")
    br, bc = box_shape_for_side(n)
    boxes = sorted(sorted(k for k in range(n * n)
                          if (k // n // br) * (n // bc) + k % n // bc == b) for b in range(n))
    return None if sorted(groups) == boxes else groups


def _cages(found: Sequence[JsonValue], n: int) -> tuple[list[Cage], list[list[int]]]:
    """The killer cages (a number) and the extra regions (no number) of the ``cages`` list;
    a cage with another clue, or whose digits may repeat, is refused."""
    cages: list[Cage] = []
    extra: list[list[int]] = []
    for cage in found:
        if not isinstance(cage, dict):
            raise InvalidPuzzle(f"SudokuPad cages: expected cage objects, found {cage!r:.40}")
        if not cage.get("cells"):
            continue  # metadata (read by _metadata) or nothing drawn
        cells = sorted(_cell_of(p, n, "cage") for p in _list(cage["cells"], "cage cells"))
        at = f"r{cells[0] // n + 1}c{cells[0] % n + 1}"
        value = cage.get("value", cage.get("sum"))
        total = _number(value)
        drawn_for = cage.get("fromConstraint") or cage.get("style")
        if drawn_for:
            raise InvalidPuzzle(f"SudokuPad cage at {at} drawn for {str(drawn_for)!r}: its rule "
                                "is not stated in the data; refused")
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
            if len(set(cells)) != len(cells):
                raise InvalidPuzzle(f"SudokuPad cage at {at} lists a cell twice")
            if not low <= total <= high:
                raise InvalidPuzzle(f"SudokuPad cage at {at} of {len(cells)} cells cannot add "
                                    f"up to {total} (expected {low}..{high})")
            cages.append(Cage(total, tuple(cells)))
    return cages, extra


def _solution(value: object, n: int) -> tuple[int, ...] | None:
    """The solution metadata as N*N digits (two characters a digit past 9), None when absent
    or partial."""
    text = str(value or "").strip()
    width = 1 if len(text) == n * n else 2 if len(text) == 2 * n * n else 0
    if not width or not text.isdigit():
        return None
    digits = tuple(int(text[i:i + width]) for i in range(0, len(text), width))
    return digits if all(1 <= d <= n for d in digits) else None
