"""Unit tables the techniques share: kinds of units, box-line intersections (cached per grid)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from ..model.geometry import Geometry

__all__ = ["Intersection", "UnitKind", "intersections", "unit_cells", "unit_kind"]


class UnitKind(Enum):
    ROW = "row"
    COLUMN = "column"
    BOX = "box"
    EXTRA = "extra"


def unit_kind(geometry: Geometry, unit: int) -> UnitKind:
    """The kind of unit ``unit`` (an index into ``geometry.units``)."""
    n = geometry.side
    return (UnitKind.ROW, UnitKind.COLUMN, UnitKind.BOX, UnitKind.EXTRA)[min(unit // n, 3)]


@cache
def units_of_kind(geometry: Geometry, box: bool) -> tuple[int, ...]:
    """Indices of the boxes (``box``) or of every other unit."""
    return tuple(u for u in range(len(geometry.units))
                 if (unit_kind(geometry, u) is UnitKind.BOX) == box)


@cache
def unit_cells(geometry: Geometry) -> tuple[int, ...]:
    """Per unit, a bitmask over cells of its members."""
    return tuple(sum(1 << c for c in unit) for unit in geometry.units)


@dataclass(frozen=True)
class Intersection:
    """Two units sharing two or more cells (a box and a line, or any other overlap).

    Attributes:
        first, second: unit indices.
        cells: bitmask over cells of the shared cells.
    """

    first: int
    second: int
    cells: int


@cache
def intersections(geometry: Geometry) -> tuple[Intersection, ...]:
    """Every ordered pair of distinct units sharing at least two cells."""
    masks = unit_cells(geometry)
    out = []
    for a, ma in enumerate(masks):
        for b, mb in enumerate(masks):
            if a != b and (ma & mb).bit_count() >= 2 and ma != mb:
                out.append(Intersection(a, b, ma & mb))
    return tuple(out)
