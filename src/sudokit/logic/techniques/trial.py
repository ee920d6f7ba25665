"""Trial (bifurcation): the last resort, so that every solve finishes.

Take the open cell with the fewest candidates; try its digits in order with a depth-first search
(singles between choices). A digit without a completion is eliminated; if the first digit tried
has a completion and every other digit has none, it is placed. On a grid with several solutions
the first digit with a completion is placed. Rated 10.0 on Sudoku Explainer's scale (above its
forcing chains, below its hardest nested chains), and labelled "Trial". On a classic 9x9 grid
it comes only where Sudoku Explainer's chaining producers built here, up to Dynamic Forcing
Chains (+ Dynamic Forcing Chains) (nested level 4; level 5, 11.0 up, is not built), find
nothing, and its text says so; elsewhere it follows the forcing chains of the ladder.
"""

from __future__ import annotations

from ..chains.dynamic import search_solution
from ..chains.explainer import classic
from ..registry import TechniqueKind, technique
from ..state import Board, bits
from ..step import Step

__all__ = ["trial"]

RATING = 10.0


@technique("Trial", RATING, kind=TechniqueKind.TRIAL)
def trial(board: Board) -> Step | None:
    """Bifurcation on the open cell with the fewest candidates (see module docstring)."""
    if not board.open_cells:
        return None
    g = board.geometry
    cell = min(board.open_cells, key=lambda c: board.masks[c].bit_count())
    digits = [b + 1 for b in bits(board.masks[cell])]
    works = []
    for digit in digits:
        masks = list(board.masks)
        masks[cell] = 1 << (digit - 1)
        if search_solution(board, masks, None) is not None:
            works.append(digit)
            if len(works) > 1:
                break
    past = " after Dynamic Forcing Chains (+ Dynamic Forcing Chains) found nothing" if classic(board) else ""
    if len(works) == 1:
        digit = works[0]
        return Step("Trial", RATING,
                    f"trial on {g.label(cell)}{past}: only {g.symbol(digit)} of "
                    f"{g.symbols(digits, ', ')} leads to a solution (search)",
                    placements=((cell, digit),), cells=(cell,), digits=tuple(digits))
    if works:
        return Step("Trial", RATING,
                    f"trial on {g.label(cell)}{past}: {works[0]} leads to a solution (search; the "
                    f"grid has several)", placements=((cell, works[0]),), cells=(cell,),
                    digits=tuple(digits))
    return None
