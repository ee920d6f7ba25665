"""Wings: XY-Wing (4.2), XYZ-Wing (4.4) and W-Wing.

XY-Wing: a pivot {x,y} sees pincers {x,z} and {y,z}: z leaves every cell seeing both pincers.
XYZ-Wing: a pivot {x,y,z} sees pincers {x,z} and {y,z}: z leaves every cell seeing all three.
W-Wing: two unlinked cells {x,y} whose x ends are the two ends of a strong link on x: y leaves
every cell seeing both. Sudoku Explainer has no W-Wing rule: it finds the deduction as a forcing
chain of six nodes between the refuted and the assumed candidate, rated 7.0 + 0.1 = 7.1
(:func:`sudokit.logic.chains.rating.chain_rating`), and so is the W-Wing here, tried after the
chains. On the whole ladder the AIC finder (7.0) comes first and finds every W-Wing as a chain,
which it names W-Wing (:func:`sudokit.logic.chains.rating.is_w_wing`): the same step at the same
rating, so Explainer's order and ratings are kept. This finder takes the W-Wing steps of a solve
whose chosen techniques leave the AICs out (``explain --exclude AIC``, ``hint --techniques``,
the board's technique choice); it is kept for those (issue 42 item 3). Moving it below the AICs
would rate puzzles differently from Explainer, which has no such rule.
"""

from __future__ import annotations

from itertools import combinations

from ..registry import technique
from ..state import Board, bits, digits_of
from ..step import Step, cells_text, eliminations_text

__all__ = ["w_wing", "wing_step", "xy_wing", "xyz_wing"]

RATING_W = 7.1
"""A W-Wing is a six-node chain with links inside cells: 7.0 + length bonus 0.1."""


def _targets(board: Board, cells: tuple[int, ...], digit: int) -> tuple[tuple[int, int], ...]:
    seen = board.cells_of[digit - 1]
    for c in cells:
        seen &= board.peer_masks[c]
    return tuple((c, digit) for c in bits(seen))


def _wing(board: Board, pivot_size: int, name: str, rating: float) -> Step | None:
    masks = board.masks
    bivalue = [c for c in board.open_cells if masks[c].bit_count() == 2]
    for pivot in board.open_cells:
        pm = masks[pivot]
        if pm.bit_count() != pivot_size:
            continue
        wings = [c for c in bivalue if c != pivot and board.sees(pivot, c)
                 and (masks[c] & pm).bit_count() == (1 if pivot_size == 2 else 2)]
        for a, b in combinations(wings, 2):
            ma, mb = masks[a], masks[b]
            z = ma & mb
            if z.bit_count() != 1 or ma == mb:
                continue
            if pivot_size == 2 and (ma | mb) & ~(pm | z):
                continue
            if pivot_size == 2 and z & pm:
                continue
            if pivot_size == 3 and ((ma | mb) != pm):
                continue
            step = wing_step(board, pivot, a, b, name, rating)
            if step is not None:
                return step
    return None


def wing_step(board: Board, pivot: int, a: int, b: int, name: str, rating: float
              ) -> Step | None:
    """The XY-Wing or XYZ-Wing step (``name``) of a pivot and its pincers a, b, whose one
    common digit z leaves the cells seeing both pincers (and the pivot, for an XYZ-Wing);
    None if there are none."""
    masks = board.masks
    pm, ma, mb = masks[pivot], masks[a], masks[b]
    digit = (ma & mb).bit_length()
    cells = (pivot, a, b) if pm.bit_count() == 3 else (a, b)
    eliminations = tuple(e for e in _targets(board, cells, digit) if e[0] not in (pivot, a, b))
    if not eliminations:
        return None
    g = board.geometry
    return Step(name, rating,
                lambda: f"pivot {g.label(pivot)} {{{g.symbols(digits_of(pm))}}} with "
                        f"{g.label(a)}, {g.label(b)}: one of them is {g.symbol(digit)}: "
                        f"{eliminations_text(g, eliminations)}",
                eliminations=eliminations, cells=(pivot, a, b),
                digits=tuple(digits_of(pm | ma | mb)))


@technique("XY-Wing", 4.2)
def xy_wing(board: Board) -> Step | None:
    """Pivot {x,y}, pincers {x,z} and {y,z}."""
    return _wing(board, 2, "XY-Wing", 4.2)


@technique("XYZ-Wing", 4.4)
def xyz_wing(board: Board) -> Step | None:
    """Pivot {x,y,z}, pincers {x,z} and {y,z}."""
    return _wing(board, 3, "XYZ-Wing", 4.4)


@technique("W-Wing", RATING_W, order=2)
def w_wing(board: Board) -> Step | None:
    """Two equal bivalue cells joined by a strong link on one of their digits."""
    geometry, masks, places = board.geometry, board.masks, board.places
    bivalue = [c for c in board.open_cells if masks[c].bit_count() == 2]
    for a, b in combinations(bivalue, 2):
        if masks[a] != masks[b] or board.sees(a, b):
            continue
        for x, y in (digits_of(masks[a]), digits_of(masks[a])[::-1]):
            for u, unit in enumerate(geometry.units):
                where = places[u][x - 1]
                if where.bit_count() != 2:
                    continue
                p, q = (unit[i] for i in bits(where))
                if p in (a, b) or q in (a, b):
                    continue
                if not ((board.sees(p, a) and board.sees(q, b))
                        or (board.sees(p, b) and board.sees(q, a))):
                    continue
                eliminations = tuple(e for e in _targets(board, (a, b), y) if e[0] not in (a, b))
                if eliminations:
                    return Step("W-Wing", RATING_W,
                                f"{cells_text(geometry, (a, b))} are "
                                f"{{{geometry.symbols((x, y))}}} and the strong link on "
                                f"{geometry.symbol(x)} in {geometry.unit_names[u]} "
                                f"({cells_text(geometry, (p, q))}) makes one of them "
                                f"{geometry.symbol(y)}: "
                                f"{eliminations_text(geometry, eliminations)}",
                                eliminations=eliminations, cells=(a, b, p, q), digits=(x, y))
    return None
