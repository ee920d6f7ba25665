"""Locked candidates: pointing (box -> line, 2.6) and claiming (line -> box, 2.8).

When every place of a digit in one unit lies inside a second unit, the digit leaves the rest of
the second unit. Any two overlapping units work, so extra units (Sudoku X diagonals) take part.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ...model.geometry import Geometry
from ..registry import technique
from ..state import Board, bits
from ..step import Step, cells_text, eliminations_text
from ..units import Intersection, UnitKind, intersections, unit_cells, unit_kind

__all__ = ["claiming", "locked_step", "pointing"]


@cache
def _overlaps(geometry: Geometry, box_first: bool) -> tuple[tuple[Intersection, int, int], ...]:
    """The intersections whose first unit is a box (``box_first``) or is not, each with the
    cell masks of its first and second unit."""
    masks = unit_cells(geometry)
    return tuple((inter, masks[inter.first], masks[inter.second])
                 for inter in intersections(geometry)
                 if (unit_kind(geometry, inter.first) is UnitKind.BOX) == box_first)


def _locked(board: Board, box_first: bool, name: str, rating: float) -> Step | None:
    geometry = board.geometry
    cells_of = board.cells_of
    digits = range(geometry.side)
    for inter, first, second in _overlaps(geometry, box_first):
        outside = ~inter.cells
        for d0 in digits:
            cells = cells_of[d0]
            inside = cells & first
            if not inside or inside & outside:
                continue
            targets = cells & second & ~first
            if targets:
                return locked_step(geometry, name, rating, inter.first, inter.second, d0 + 1,
                                   bits(inside), bits(targets))
    return None


def locked_step(geometry: Geometry, name: str, rating: float, first: int, second: int,
                digit: int, where: Sequence[int], targets: Sequence[int]) -> Step:
    """The step: ``digit`` lies only in the cells ``where`` (ascending) of unit ``first``,
    inside unit ``second``, so it leaves ``targets`` (ascending cells of ``second``)."""
    eliminations = tuple((c, digit) for c in targets)
    cells = tuple(where)
    return Step(name, rating,
                lambda: f"in {geometry.unit_names[first]}, {geometry.symbol(digit)} lies only in "
                        f"{cells_text(geometry, cells)}, inside {geometry.unit_names[second]}: "
                        f"{eliminations_text(geometry, eliminations)}",
                eliminations=eliminations, cells=cells, digits=(digit,))


@technique("Pointing", 2.6)
def pointing(board: Board) -> Step | None:
    """A box's places for a digit all lie in one line: the digit leaves the rest of the line."""
    return _locked(board, True, "Pointing", 2.6)


@technique("Claiming", 2.8)
def claiming(board: Board) -> Step | None:
    """A line's places for a digit all lie in one box: the digit leaves the rest of the box."""
    return _locked(board, False, "Claiming", 2.8)
