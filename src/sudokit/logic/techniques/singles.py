"""Singles: full house, hidden single (box, then line), naked single.

Ratings on Sudoku Explainer's scale: full house 1.0, hidden single in a box 1.2, in a row or
column 1.5, naked single 2.3 (Juillerat, Sudoku Explainer 1.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from ...model.geometry import Geometry
from ..registry import technique
from ..state import Board
from ..step import Step
from ..units import units_of_kind

__all__ = ["full_house", "full_house_step", "hidden_single_box", "hidden_single_line",
           "hidden_single_step", "naked_single", "naked_single_step", "single_steps"]


def _full_house_text(geometry: Geometry, unit: int, cell: int, digit: int) -> str:
    return (f"{geometry.label(cell)} is the last open cell of {geometry.unit_names[unit]}: "
            f"it is {geometry.symbol(digit)}")


def _hidden_single_text(geometry: Geometry, unit: int, cell: int, digit: int) -> str:
    return (f"{geometry.label(cell)} is the only place for {geometry.symbol(digit)} in "
            f"{geometry.unit_names[unit]}")


def _naked_single_text(geometry: Geometry, unit: int, cell: int, digit: int) -> str:
    return f"{geometry.label(cell)} has one candidate left: {geometry.symbol(digit)}"


_KINDS = (("Full House", _full_house_text), ("Hidden Single", _hidden_single_text),
          ("Hidden Single", _hidden_single_text), ("Naked Single", _naked_single_text))
"""Per single kind (0 full house, 1 hidden single in a box, 2 in a line, 3 naked single):
technique name and text (formatted when the step's text is first read)."""


def full_house_step(geometry: Geometry, unit: int, cell: int, digit: int) -> Step:
    """The step placing ``digit`` in ``cell``, the last open cell of ``unit``."""
    return single_steps(geometry, [(0, unit, cell, digit)])[0]


def hidden_single_step(geometry: Geometry, unit: int, cell: int, digit: int,
                       rating: float) -> Step:
    """The step placing ``digit`` in ``cell``, its only place in ``unit``."""
    return single_steps(geometry, [(1, unit, cell, digit)], (1.0, rating, rating, 2.3))[0]


def naked_single_step(geometry: Geometry, cell: int, digit: int) -> Step:
    """The step placing ``digit``, the last candidate of ``cell``."""
    return single_steps(geometry, [(3, -1, cell, digit)])[0]


def single_steps(geometry: Geometry, found: Sequence[Sequence[int]],
                 ratings: Sequence[float] = (1.0, 1.2, 1.5, 2.3)) -> list[Step]:
    """The steps of many singles at once: ``found`` holds rows (k, unit, cell, digit) with k
    0 full house, 1 hidden single in a box, 2 hidden single in a line, 3 naked single (unit
    unused); ``ratings`` are the four techniques' ratings. Each text is formatted when first
    read.

    Raises:
        IndexError: a k outside 0..3.
    """
    out = []
    for k, unit, cell, digit in found:
        name, text = _KINDS[k]
        out.append(Step(name, ratings[k], partial(text, geometry, unit, cell, digit),
                        ((cell, digit),), (), (cell,), (digit,)))
    return out


@technique("Full House", 1.0)
def full_house(board: Board) -> Step | None:
    """A unit with one open cell: it takes the unit's missing digit."""
    geometry, values = board.geometry, board.values
    for u, unit in enumerate(geometry.units):
        open_cells = [c for c in unit if not values[c]]
        if len(open_cells) == 1:
            cell = open_cells[0]
            mask = board.masks[cell]
            if mask & (mask - 1) or not mask:
                continue  # a contradiction: left to the loop
            return full_house_step(geometry, u, cell, mask.bit_length())
    return None


def _hidden_single(board: Board, units: tuple[int, ...], rating: float) -> Step | None:
    geometry, places = board.geometry, board.places
    for u in units:
        for d0, where in enumerate(places[u]):
            if where and not where & (where - 1):
                cell = geometry.units[u][where.bit_length() - 1]
                return hidden_single_step(geometry, u, cell, d0 + 1, rating)
    return None


@technique("Hidden Single (box)", 1.2)
def hidden_single_box(board: Board) -> Step | None:
    """A digit with one place left in a box."""
    return _hidden_single(board, units_of_kind(board.geometry, True), 1.2)


@technique("Hidden Single (line)", 1.5)
def hidden_single_line(board: Board) -> Step | None:
    """A digit with one place left in a row, column (or extra unit)."""
    return _hidden_single(board, units_of_kind(board.geometry, False), 1.5)


@technique("Naked Single", 2.3)
def naked_single(board: Board) -> Step | None:
    """An open cell with one candidate left."""
    for cell in board.open_cells:
        mask = board.masks[cell]
        if mask and not mask & (mask - 1):
            return naked_single_step(board.geometry, cell, mask.bit_length())
    return None
