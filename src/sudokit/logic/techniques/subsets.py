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

__all__ = ["hidden_subset", "naked_subset"]

_NAMES = {2: "Pair", 3: "Triple", 4: "Quad"}


def naked_subset(board: Board, size: int, rating: float) -> Step | None:
    """Find a naked subset of ``size`` cells (see module docstring)."""
    geometry, masks, values = board.geometry, board.masks, board.values
    for u, unit in enumerate(geometry.units):
        open_cells = [c for c in unit if not values[c]]
        if len(open_cells) <= size:
            continue
        small = [c for c in open_cells if masks[c].bit_count() <= size]
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= masks[c]
            if union.bit_count() != size:
                continue
            eliminations = tuple((c, d + 1) for c in open_cells if c not in group
                                 for d in bits(masks[c] & union))
            if eliminations:
                digits = tuple(digits_of(union))
                name = f"Naked {_NAMES[size]}"
                return Step(name, rating,
                            f"{cells_text(geometry, group)} hold only "
                            f"{', '.join(map(str, digits))} in {geometry.unit_names[u]}: "
                            f"{eliminations_text(geometry, eliminations)}",
                            eliminations=eliminations, cells=group, digits=digits)
    return None


def hidden_subset(board: Board, size: int, rating: float) -> Step | None:
    """Find a hidden subset of ``size`` digits (see module docstring)."""
    geometry, masks, places = board.geometry, board.masks, board.places
    for u, unit in enumerate(geometry.units):
        digits = [d for d in range(geometry.side) if 2 <= places[u][d].bit_count() <= size]
        if len(digits) < size:
            continue
        for group in combinations(digits, size):
            union = 0
            for d in group:
                union |= places[u][d]
            if union.bit_count() != size:
                continue
            keep = sum(1 << d for d in group)
            cells = tuple(unit[p] for p in bits(union))
            eliminations = tuple((c, d + 1) for c in cells for d in bits(masks[c] & ~keep))
            if eliminations:
                shown = tuple(d + 1 for d in group)
                name = f"Hidden {_NAMES[size]}"
                return Step(name, rating,
                            f"{', '.join(map(str, shown))} fit only in "
                            f"{cells_text(geometry, cells)} in {geometry.unit_names[u]}: "
                            f"{eliminations_text(geometry, eliminations)}",
                            eliminations=eliminations, cells=cells, digits=shown)
    return None



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
