"""Basic fish: X-Wing (3.2), Swordfish (3.8), Jellyfish (5.2).

For a digit, k base lines (rows, or columns) whose places for it fall in k cover lines of the
other direction: the digit leaves the cover lines outside the base lines.
"""

from __future__ import annotations

from itertools import combinations

from ..memo import DigitMemo
from ..registry import technique
from ..state import Board, bits
from ..step import Step, eliminations_text
from ..units import unit_cells

__all__ = ["fish", "fish_step"]

_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


_EMPTY = DigitMemo()
"""Digits (with their places) where a fish of a given size was not found before."""


def fish(board: Board, size: int, rating: float) -> Step | None:
    """Find a basic fish with ``size`` base lines (see module docstring); digits searched
    in vain before with the same places are skipped (:class:`~sudokit.logic.memo.DigitMemo`)."""
    return _EMPTY.first(board, lambda d0: _fish_of_digit(board, d0, size, rating), size)


def _fish_of_digit(board: Board, d0: int, size: int, rating: float) -> Step | None:
    places = board.places
    n = board.side
    for base_offset, cover_offset in ((0, n), (n, 0)):
        bases = [u for u in range(base_offset, base_offset + n)
                 if 2 <= places[u][d0].bit_count() <= size]
        for group in combinations(bases, size):
            step = fish_step(board, d0, group, cover_offset, rating)
            if step is not None:
                return step
    return None


def fish_step(board: Board, d0: int, group: tuple[int, ...], cover_offset: int,
              rating: float) -> Step | None:
    """The fish step of digit d0 + 1 on the base lines ``group`` (unit indices, ascending),
    covered by the lines from ``cover_offset`` (0 rows, N columns); None when the bases' places
    are not ``len(group)`` cover lines or nothing is removed."""
    geometry, places = board.geometry, board.places
    masks = unit_cells(geometry)
    size = len(group)
    union = 0
    for u in group:
        union |= places[u][d0]
    if union.bit_count() != size:
        return None
    covers = [cover_offset + p for p in bits(union)]
    base_cells = 0
    for u in group:
        base_cells |= masks[u]
    targets = 0
    for u in covers:
        targets |= masks[u]
    targets &= board.cells_of[d0] & ~base_cells
    if not targets:
        return None
    digit = d0 + 1
    eliminations = tuple((c, digit) for c in bits(targets))
    names = geometry.unit_names
    bases = tuple(group)
    return Step(_NAMES[size], rating,
                lambda: f"{geometry.symbol(digit)} in {', '.join(names[u] for u in bases)} "
                        f"lies only in "
                        f"{', '.join(names[u] for u in covers)}: "
                        f"{eliminations_text(geometry, eliminations)}",
                eliminations=eliminations,
                cells=tuple(bits(base_cells & board.cells_of[d0])), digits=(digit,))



def _register(name: str, rating: float, size: int, max_side: int = 64) -> None:
    def find(board: Board) -> Step | None:
        return fish(board, size, rating)

    find.__doc__ = f"{name}: a fish of {size} base lines (see module docstring)."
    technique(name, rating, max_side=max_side)(find)


_register("X-Wing", 3.2, 2)
_register("Swordfish", 3.8, 3)
_register("Jellyfish", 5.2, 4, max_side=25)
