"""The constraints a geometry carries beside rows, columns and boxes, as records, and their
checks against a grid (the rules of Otto Janko's puzzle site, janko.at, and of the World Puzzle
Federation's Sudoku GP):

* :class:`Variant` flags, combinable: ``DIAGONAL`` (Sudoku X; ``MAIN_DIAGONAL`` or
  ``ANTI_DIAGONAL`` alone for one of its diagonals), ``HYPER`` (windoku: four more
  boxes), ``DISJOINT`` (cells at the same place of every box form a unit), ``ANTI_KNIGHT``,
  ``ANTI_KING``, ``NON_CONSECUTIVE`` (orthogonal neighbours never hold consecutive digits);
* jigsaw regions that replace the boxes (:func:`check_regions`);
* killer cages (:class:`Cage`), each a set of cells with distinct digits adding up to its total;
* extra regions: further sets of 1..N cells whose digits differ (f-puzzles' extra regions and
  killer cages without a total); one of N cells is a unit, a smaller one adds peers only;
* parity: even/odd cells (one character per cell: ``e``, ``o`` or ``.``).

Overlapping layouts are :class:`~sudokit.model.layouts.Layout` records; the
:class:`~sudokit.model.geometry.Geometry` holds all of them and derives its tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Flag
from functools import cache
from typing import NamedTuple

from ..errors import InvalidPuzzle

__all__ = [
    "RULE_NAMES",
    "VARIANT_NAMES",
    "Cage",
    "Variant",
    "cage_totals",
    "check_cages",
    "check_extra_regions",
    "check_parity",
    "check_regions",
]


class Variant(Flag):
    """Rules over the whole grid besides rows, columns and boxes; combine them with ``|``.

    ``Variant("diagonal+anti-knight")`` (or ``"diagonal,anti-knight"``, any case, ``_`` or
    ``-``) parses a name; :attr:`text` writes one back. ``STANDARD`` is no extra rule.

    >>> v = Variant("Diagonal+anti-knight")
    >>> v.text, Variant.DIAGONAL in v, Variant("standard") is Variant.STANDARD
    ('diagonal+anti-knight', True, True)
    """

    STANDARD = 0
    MAIN_DIAGONAL = 1  # the diagonal r1c1..rNcN is a unit (f-puzzles "diagonal-")
    ANTI_DIAGONAL = 2  # the diagonal rNc1..r1cN is a unit (f-puzzles "diagonal+")
    DIAGONAL = 3  # Sudoku X: both main diagonals are units (MAIN_DIAGONAL | ANTI_DIAGONAL)
    HYPER = 4  # windoku: four (in general (b-1)**2) more boxes, one cell apart
    DISJOINT = 8  # the cells at the same place of every box form a unit
    ANTI_KNIGHT = 16  # cells a chess knight's move apart differ
    ANTI_KING = 32  # cells a chess king's move apart (diagonal touch included) differ
    NON_CONSECUTIVE = 64  # orthogonal neighbours never hold consecutive digits

    @classmethod
    def _missing_(cls, value: object) -> Variant | None:
        if not isinstance(value, str):
            found: Variant | None = super()._missing_(value)  # an int: Flag's own composite
            return found
        result = cls.STANDARD
        for part in value.replace(",", "+").split("+"):
            name = part.strip().lower().replace("_", "-")
            if name in ("standard", ""):
                continue
            member = _BY_NAME.get(name)
            if member is None:
                return None
            result |= member
        return result

    @property
    def text(self) -> str:
        """The name: ``"standard"``, ``"diagonal"``, ``"diagonal+anti-knight"`` ..."""
        return "+".join(self.names) or "standard"

    @property
    def parts(self) -> tuple[Variant, ...]:
        """The rules this variant combines, in declaration order; both diagonals are the one
        rule ``DIAGONAL``, a single one ``MAIN_DIAGONAL`` or ``ANTI_DIAGONAL``."""
        found, rest = list[Variant](), self
        for member in _ORDER:
            if member in rest:
                found.append(member)
                rest &= ~member
        return tuple(found)

    @property
    def names(self) -> tuple[str, ...]:
        """The names of :attr:`parts` (``("diagonal", "anti-knight")``; none for standard)."""
        return tuple(_NAME_OF[m] for m in self.parts)


_ORDER = (Variant.DIAGONAL, *(m for m in Variant if m is not Variant.DIAGONAL))
_NAME_OF = {m: (m.name or "").lower().replace("_", "-") for m in _ORDER}
_BY_NAME = {name: m for m, name in _NAME_OF.items()}

RULE_NAMES = tuple(_NAME_OF.values())
"""The name of every single whole-grid rule (``"diagonal"``, ``"main-diagonal"``, ...,
``"non-consecutive"``): the rule part of :attr:`Geometry.features
<sudokit.model.geometry.Geometry.features>`."""

VARIANT_NAMES = ("standard", *RULE_NAMES)
"""Every single variant name ``Variant(...)`` reads (combine them with ``+``)."""


class Cage(NamedTuple):
    """A killer cage: its cells hold distinct digits whose sum is ``total``.

    Attributes:
        total: the sum written in the cage (>= 1).
        cells: the cage's cells (cell indices, increasing).
    """

    total: int
    cells: tuple[int, ...]


@cache
def cage_totals(size: int, side: int) -> tuple[int, int]:
    """The smallest and largest total of ``size`` distinct digits of 1..``side``."""
    return size * (size + 1) // 2, size * (2 * side - size + 1) // 2


def _malformed(constraint: str, reason: str) -> InvalidPuzzle:
    """The error for a malformed constraint of a geometry (``constraint``: its field name)."""
    return InvalidPuzzle(reason, constraint=constraint)


def check_regions(regions: Sequence[Sequence[int]], side: int, n_cells: int) -> None:
    """Check jigsaw regions: ``side`` regions of ``side`` cells, covering every cell once.

    Raises:
        InvalidPuzzle: (``constraint="regions"``) they do not.
    """
    seen = [0] * n_cells
    if len(regions) != side:
        raise _malformed("regions", f"expected {side} regions, got {len(regions)}")
    for k, region in enumerate(regions):
        if len(region) != side:
            raise _malformed("regions", f"region {k + 1} has {len(region)} cells, expected {side}")
        for cell in region:
            if not 0 <= cell < n_cells or seen[cell]:
                raise _malformed("regions", f"region {k + 1}: cell {cell} is outside "
                                           "the grid or in two regions")
            seen[cell] = 1


def check_cages(cages: Sequence[Cage], side: int, n_cells: int,
                label: Callable[[int], str]) -> None:
    """Check killer cages: 1..N cells each, inside the grid, disjoint, with a total that
    distinct digits reach (``label`` names a cell in the messages).

    Raises:
        InvalidPuzzle: (``constraint="cages"``) a cage that is not so.
    """
    owner: dict[int, int] = {}
    for k, cage in enumerate(cages):
        low, high = cage_totals(len(cage.cells), side)
        if not cage.cells or len(cage.cells) > side:
            raise _malformed("cages", f"cage {k + 1} has {len(cage.cells)} cells, "
                                     f"expected 1..{side}")
        if not low <= cage.total <= high:
            raise _malformed("cages", f"cage {k + 1} ({len(cage.cells)} cells at "
                                     f"{label(cage.cells[0])}): total {cage.total} is "
                                     f"impossible, expected {low}..{high}")
        for cell in cage.cells:
            if not 0 <= cell < n_cells:
                raise _malformed("cages", f"cage {k + 1}: cell {cell} is outside the grid")
            if cell in owner:
                raise _malformed("cages", f"cages {owner[cell] + 1} and {k + 1} overlap at "
                                         f"{label(cell)}")
            owner[cell] = k


def check_extra_regions(regions: Sequence[Sequence[int]], side: int, n_cells: int) -> None:
    """Check extra regions: each 1..N distinct cells of the grid.

    Raises:
        InvalidPuzzle: (``constraint="extra_regions"``) one that is not so.
    """
    for k, region in enumerate(regions):
        if not 1 <= len(region) <= side or len(set(region)) != len(region):
            raise _malformed("extra_regions",
                            f"extra region {k + 1} has {len(region)} cells "
                            f"({len(set(region))} distinct), expected 1..{side} distinct cells")
        if not all(0 <= cell < n_cells for cell in region):
            raise _malformed("extra_regions", f"extra region {k + 1}: a cell is outside the grid")


def check_parity(parity: str, n_cells: int) -> None:
    """Check parity marks: one of ``e``, ``o`` or ``.`` per cell.

    Raises:
        InvalidPuzzle: (``constraint="parity"``) a wrong length or another character.
    """
    if len(parity) != n_cells or set(parity) - set("eo."):
        raise _malformed("parity", f"parity: expected {n_cells} characters e, o or '.'")
