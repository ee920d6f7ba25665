"""WXYZ-Wing: a bent naked subset of four cells.

n cells, not all in one unit, whose candidates are n digits. Every digit but one is
*restricted*: all the cells holding it see each other, so it is placed at most once in the set.
Then the set holds the remaining digit z at least once, and z leaves every cell seeing all the
set's z cells (XY-Wing and XYZ-Wing are the three-cell case). Ratings follow Sukaku Explainer's
published ratings of such puzzles: 5.5, plus 0.1 when one cell of the set holds z and sees all
the others (as XYZ-Wing is rated above XY-Wing); fitted to the rated set of
``benchmarks/logic.py``, not taken from Sukaku Explainer's source. (Five-cell sets, VWXYZ-Wing,
were tried and left out: they fired where Sukaku Explainer needs forcing chains, rated 7.1.)
"""

from __future__ import annotations

from ..registry import technique
from ..state import Board, bits, digits_of
from ..step import Step, cells_text, eliminations_text

__all__ = ["bent_set", "wxyz_wing"]

_BASE = {4: 5.5}
_NAMES = {4: "WXYZ-Wing"}


def _grow(board: Board, size: int, cells: list[int], union: int, loose: int,
          candidates: list[int], start: int) -> Step | None:
    """Depth-first over sets in increasing candidate order, pruned while the union of digits
    exceeds ``size`` or more than one digit is unrestricted (``loose``: digits whose cells in
    the set do not all see each other; neither can be undone by adding cells)."""
    if len(cells) == size:
        return _conclude(board, cells, union) if union.bit_count() == size else None
    masks, cells_of, peers = board.masks, board.cells_of, board.peer_masks
    chosen = sum(1 << c for c in cells)
    for i in range(start, len(candidates)):
        cell = candidates[i]
        mask = masks[cell]
        merged = union | mask
        if merged.bit_count() > size or not mask & union:
            continue
        blocked = chosen & ~peers[cell]
        grown_loose = loose
        if blocked:
            for d in bits(mask):
                if cells_of[d] & blocked:
                    grown_loose |= 1 << d
        if grown_loose.bit_count() > 1:
            continue
        step = _grow(board, size, cells + [cell], merged, grown_loose, candidates, i + 1)
        if step is not None:
            return step
    return None


def _conclude(board: Board, cells: list[int], union: int) -> Step | None:
    masks = board.masks
    chosen = sum(1 << c for c in cells)
    if any(chosen & ~m == 0 for m in board.unit_masks):
        return None  # a naked subset, not a wing
    loose: list[tuple[int, list[int]]] = []
    for d in bits(union):
        holders = [c for c in cells if masks[c] >> d & 1]
        if any(not board.sees(a, b) for i, a in enumerate(holders) for b in holders[i + 1:]):
            loose.append((d, holders))
    if len(loose) != 1:
        return None
    d, holders = loose[0]
    where = sum(1 << c for c in holders)
    targets = board.cells_of[d] & board.common_peers(where) & ~chosen
    if not targets:
        return None
    size = len(cells)
    pivot = any(all(board.sees(h, c) for c in cells if c != h) for h in holders)
    digit = d + 1
    eliminations = tuple((c, digit) for c in bits(targets))
    g = board.geometry
    return Step(_NAMES[size], _BASE[size] + (0.1 if pivot else 0.0),
                f"{cells_text(g, sorted(cells))} hold only "
                f"{''.join(map(str, digits_of(union)))}, each digit but {digit} at most once: "
                f"one of them is {digit}: {eliminations_text(g, eliminations)}",
                eliminations=eliminations, cells=tuple(sorted(cells)),
                digits=tuple(digits_of(union)))


def bent_set(board: Board, size: int) -> Step | None:
    """Find a wing of ``size`` cells (see module docstring); the easiest (no pivot) first."""
    candidates = [c for c in board.open_cells if 2 <= board.masks[c].bit_count() <= size]
    found = None
    for i, start in enumerate(candidates):
        step = _grow(board, size, [start], board.masks[start], 0, candidates, i + 1)
        if step is not None:
            if step.rating == _BASE[size]:
                return step
            found = found or step
    return found


@technique("WXYZ-Wing", 5.5, max_side=16)
def wxyz_wing(board: Board) -> Step | None:
    """Four cells, four digits, one unrestricted digit."""
    return bent_set(board, 4)
