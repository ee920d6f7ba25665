"""Naked and hidden subsets (pairs, triples, quads) in one unit.

Naked: k open cells of a unit whose candidates together are k digits; those digits leave the
unit's other cells. Hidden: k digits whose places in a unit are k cells; other digits leave those
cells. Ratings (Sudoku Explainer): naked pair 3.0, hidden pair 3.4, naked triple 3.6, hidden
triple 4.0, naked quad 5.0, hidden quad 5.4.
"""

from __future__ import annotations

from itertools import combinations

from ..registry import technique
from ..state import Board, bits, digits_of
from ..step import Step, cells_text, eliminations_text

__all__ = ["hidden_subset", "hidden_subset_step", "naked_subset", "naked_subset_step"]

_NAMES = {2: "Pair", 3: "Triple", 4: "Quad"}


def naked_subset(board: Board, size: int, rating: float) -> Step | None:
    """Find a naked subset of ``size`` cells (see module docstring)."""
    masks, values = board.masks, board.values
    for u, unit in enumerate(board.geometry.units):
        open_cells = [c for c in unit if not values[c]]
        if len(open_cells) <= size:
            continue
        small = [c for c in open_cells if masks[c].bit_count() <= size]
        for group in combinations(small, size):
            step = naked_subset_step(board, u, group, rating)
            if step is not None:
                return step
    return None


def naked_subset_step(board: Board, u: int, group: tuple[int, ...], rating: float
                      ) -> Step | None:
    """The step of the naked subset ``group`` (cells of unit ``u``, in unit order), or None
    when their candidates are not ``len(group)`` digits or remove nothing."""
    geometry, masks, values = board.geometry, board.masks, board.values
    size = len(group)
    union = 0
    for c in group:
        union |= masks[c]
    if union.bit_count() != size:
        return None
    eliminations = tuple((c, d + 1) for c in geometry.units[u] if not values[c]
                         and c not in group for d in bits(masks[c] & union))
    if not eliminations:
        return None
    digits = tuple(digits_of(union))
    return Step(f"Naked {_NAMES[size]}", rating,
                lambda: f"{cells_text(geometry, group)} hold only "
                        f"{geometry.symbols(digits, ', ')} in {geometry.unit_names[u]}: "
                        f"{eliminations_text(geometry, eliminations)}",
                eliminations=eliminations, cells=group, digits=digits)


def hidden_subset(board: Board, size: int, rating: float) -> Step | None:
    """Find a hidden subset of ``size`` digits (see module docstring)."""
    places = board.places
    for u in range(len(board.geometry.units)):
        digits = [d for d in range(board.side) if 2 <= places[u][d].bit_count() <= size]
        if len(digits) < size:
            continue
        for group in combinations(digits, size):
            step = hidden_subset_step(board, u, group, rating)
            if step is not None:
                return step
    return None


def hidden_subset_step(board: Board, u: int, group: tuple[int, ...], rating: float
                       ) -> Step | None:
    """The step of the hidden subset ``group`` (digits - 1, ascending) in unit ``u``, or None
    when their places are not ``len(group)`` cells or nothing is removed."""
    geometry, masks, places = board.geometry, board.masks, board.places
    size = len(group)
    union = 0
    for d in group:
        union |= places[u][d]
    if union.bit_count() != size:
        return None
    keep = sum(1 << d for d in group)
    unit = geometry.units[u]
    cells = tuple(unit[p] for p in bits(union))
    eliminations = tuple((c, d + 1) for c in cells for d in bits(masks[c] & ~keep))
    if not eliminations:
        return None
    shown = tuple(d + 1 for d in group)
    return Step(f"Hidden {_NAMES[size]}", rating,
                lambda: f"{geometry.symbols(shown, ', ')} fit only in "
                        f"{cells_text(geometry, cells)} in {geometry.unit_names[u]}: "
                        f"{eliminations_text(geometry, eliminations)}",
                eliminations=eliminations, cells=cells, digits=shown)


def _register(name: str, rating: float, size: int, naked: bool, max_side: int = 64) -> None:
    def find(board: Board) -> Step | None:
        return (naked_subset if naked else hidden_subset)(board, size, rating)

    find.__doc__ = f"{name} (see module docstring)."
    technique(name, rating, max_side=max_side)(find)


_register("Naked Pair", 3.0, 2, True)
_register("Hidden Pair", 3.4, 2, False)
_register("Naked Triple", 3.6, 3, True)
_register("Hidden Triple", 4.0, 3, False)
_register("Naked Quad", 5.0, 4, True, max_side=25)
_register("Hidden Quad", 5.4, 4, False, max_side=25)
