"""The compact line form: one variant puzzle per line, fields separated by ``;``.

``GIVENS;FIELD;FIELD...`` where GIVENS is the puzzle in line form (one symbol per cell,
``1-9A-Z...``, ``.`` or ``0`` empty; the cells of a layout in canvas row-major order) and each
FIELD after it is one of

* **parity**: one character per cell, ``e`` (even digit), ``o`` (odd digit) or ``.`` (either);
  a field of only these characters (and at least one ``e`` or ``o``) is parity;
* **ids**: one character per cell (any character but ``;`` and whitespace): jigsaw region ids
  (N ids of N cells each), unless a sums field follows it;
* **sums**: comma-separated cage totals (``3,15,22``; not one character per cell) after a
  field of ids, which are then killer
  cage ids: the totals are those of the cages in the order their ids first appear (row-major);
  the id ``.`` marks cells in no cage.

For example a 4x4 killer: ``1...........4...;aabbccdd.eeff.gg;3,7,7,3,5,7,3``. A jigsaw:
``GIVENS;111222333...``. Jigsaw and killer together: ``GIVENS;REGIONS;CAGES;SUMS``.
:func:`format_compact` writes fields in that order (parity, regions, cages and sums) with ids
``1-9A-Za-z...``, so a puzzle round-trips. Solutions are written back in plain line form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import InvalidPuzzle
from ..model.constraints import Cage, cage_totals
from ..model.geometry import DEFAULT_SYMBOLS, Geometry
from ..model.integers import integer, shown_token
from ..model.puzzle import Puzzle

__all__ = ["ID_SYMBOLS", "Field", "constraints", "format_compact"]

Field = tuple[str, int]
"""One field after the givens: its text and 1-based column."""

ID_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%&*+=?!<>^~"
"""Ids :func:`format_compact` writes (up to 73 regions or cages)."""

_SUMS = re.compile(r"\d+(,\d+)*\Z")
_PARITY = set("eoEO.")


def _error(text: str, column: int) -> InvalidPuzzle:
    return InvalidPuzzle(text, column=column)


def constraints(fields: Sequence[Field], shape: Geometry
                ) -> tuple[list[list[int]] | None, list[Cage], str | None]:
    """Read the fields after the givens into regions, cages and parity.

    Args:
        fields: the fields after the givens, ``(text, column)``.
        shape: the grid they describe (its cell count and side).

    Returns:
        ``(regions or None, cages, parity or None)``.

    Raises:
        InvalidPuzzle: a field of the wrong length, a region that is not N cells, a cage without
            a total or a total its cells cannot reach, a sums field with no ids before it,
            or a constraint given twice (the error has the column of the field or the cell).
    """
    n, side = shape.n_cells, shape.side
    regions, cages, parity = None, list[Cage](), None
    i = 0
    def is_sums(k: int) -> bool:
        return k < len(fields) and len(fields[k][0]) != n and bool(_SUMS.match(fields[k][0]))

    while i < len(fields):
        text, column = fields[i]
        if is_sums(i):
            raise _error("cage totals must follow a field of cage ids", column)
        if len(text) != n:
            raise _error(f"expected {n} characters (one per cell) in this field, found "
                         f"{len(text)}", column + min(len(text), n))
        if is_sums(i + 1):
            if cages:
                raise _error("a second field of cage ids", column)
            cages = _cages(text, fields[i + 1], side)
            i += 2
            continue
        if set(text) <= _PARITY and set(text.lower()) & set("eo"):
            if parity is not None:
                raise _error("a second parity field", column)
            parity = text.lower()
        else:
            if regions is not None:
                raise _error("a second field of region ids (cage ids need totals after them)",
                             column)
            regions = _regions(text, column, side)
        i += 1
    return regions, cages, parity


def _groups(text: str) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for cell, ch in enumerate(text):
        groups.setdefault(ch, []).append(cell)
    return groups


def _regions(text: str, column: int, side: int) -> list[list[int]]:
    groups = _groups(text)
    for ch, cells in groups.items():
        if len(cells) != side:
            raise _error(f"region {ch!r} has {len(cells)} cells, expected {side}",
                         column + cells[0])
    if len(groups) != side:
        raise _error(f"expected {side} regions, found {len(groups)}", column)
    return list(groups.values())


def _cages(text: str, totals: Field, side: int) -> list[Cage]:
    groups = {ch: cells for ch, cells in _groups(text).items() if ch != "."}
    sums_text, sums_column = totals
    values = _totals(sums_text, sums_column)
    if len(values) != len(groups):
        raise _error(f"expected {len(groups)} cage totals (one per cage id), found "
                     f"{len(values)}", sums_column)
    cages, offset = [], 0
    for (ch, cells), total in zip(groups.items(), values):
        low, high = cage_totals(len(cells), side)
        if len(cells) > side or not low <= total <= high:
            expected = f"{low}..{high}" if len(cells) <= side else f"at most {side} cells"
            raise _error(f"cage {ch!r} of {len(cells)} cells: total {total} is impossible, "
                         f"expected {expected}", sums_column + offset)
        cages.append(Cage(total, tuple(cells)))
        offset += len(str(total)) + 1
    return cages


def _totals(text: str, column: int) -> list[int]:
    """The comma-separated cage totals of a sums field that starts at ``column``."""
    values, offset = [], 0
    for part in text.split(","):
        value = integer(part, signed=False)
        if value is None:
            raise _error(f"expected a cage total (a whole number), found {shown_token(part)}",
                         column + offset)
        values.append(value)
        offset += len(part) + 1
    return values


def format_compact(puzzle: Puzzle, empty: str = ".") -> str:
    """Write a puzzle in the compact line form (see the module docstring; reads back equal).

    >>> from sudokit.model.geometry import Geometry
    >>> g = Geometry.of(1, 2, cages=[(3, (0, 1)), (3, (2, 3))])
    >>> format_compact(Puzzle(g, (1, 0, 0, 0)))
    '1...;1122;3,3'

    Raises:
        ValueError: more regions or cages than :data:`ID_SYMBOLS` has, or extra regions
            (f-puzzles), which the form cannot hold.
    """
    g = puzzle.geometry
    if g.extra_regions:
        raise ValueError("the compact form holds no extra regions (write f-puzzles data)")
    fields = ["".join(DEFAULT_SYMBOLS[d - 1] if d else empty for d in puzzle.givens)]
    if g.parity is not None:
        fields.append(g.parity)
    parts = [(list(map(tuple, g.regions or ())), False), ([c.cells for c in g.cages], True)]
    for groups, caged in parts:
        if not groups:
            continue
        if len(groups) > len(ID_SYMBOLS):
            raise ValueError(f"at most {len(ID_SYMBOLS)} regions or cages have ids")
        ids = ["."] * g.n_cells
        order = sorted(range(len(groups)), key=lambda k: min(groups[k]))
        for symbol, k in zip(ID_SYMBOLS, order):
            for cell in groups[k]:
                ids[cell] = symbol
        fields.append("".join(ids))
        if caged:
            fields.append(",".join(str(g.cages[k].total) for k in order))
    return ";".join(fields)
