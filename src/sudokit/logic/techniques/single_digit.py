"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle, simple
colouring.

Sudoku Explainer rates none of these by name. Skyscraper, 2-String Kite, Turbot Fish and Empty
Rectangle are four-node X-chains, rated 5.2 as short X-chains are (see
:func:`sudokit.logic.chains.rating.chain_rating`); simple colouring is rated as the forcing X-chain
(6.6) or X-cycle (6.5) it amounts to, plus the length bonus of its component.
"""

from __future__ import annotations

from ..memo import DigitMemo
from ..registry import technique
from ..state import Board, bits
from ..step import Step, eliminations_text, length_bonus
from ..units import UnitKind, unit_cells, unit_kind

__all__ = ["conjugate_pairs", "empty_rectangle", "er_parts", "er_step", "simple_colouring",
           "turbot_fish", "turbot_step"]

RATING = 5.2
"""Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle: a four-node X-chain."""

_EMPTY = DigitMemo()
"""Digits (with their places) where a pattern of this module was not found before."""


def conjugate_pairs(board: Board, d0: int) -> list[tuple[int, int, int]]:
    """``(unit, cell, cell)`` for every unit where digit ``d0 + 1`` has exactly two places."""
    units = board.geometry.units
    out = []
    for u, where in enumerate(p[d0] for p in board.places):
        if where.bit_count() == 2:
            i, j = bits(where)
            out.append((u, units[u][i], units[u][j]))
    return out


def _name(board: Board, u1: int, u2: int, a: int, b: int) -> str:
    g = board.geometry
    k1, k2 = unit_kind(g, u1), unit_kind(g, u2)
    lines = (UnitKind.ROW, UnitKind.COLUMN)
    if k1 == k2 and k1 in lines:
        return "Skyscraper"
    if {k1, k2} == set(lines) and g.box_of(a) == g.box_of(b):
        return "2-String Kite"
    return "Turbot Fish"


@technique("Turbot Fish", RATING, order=-2)
def turbot_fish(board: Board) -> Step | None:
    """Two strong links on a digit whose near ends see each other: one far end holds it
    (Skyscraper or 2-String Kite first, else the first Turbot Fish)."""
    best: Step | None = None
    for d0 in range(board.side):
        if _EMPTY.nothing_for(board, d0, "turbot"):
            continue
        step = _turbot_of_digit(board, d0)
        if step is None:
            _EMPTY.found_nothing(board, d0, "turbot")
        elif step.technique != "Turbot Fish":
            return step
        best = best or step
    return best


def _turbot_of_digit(board: Board, d0: int) -> Step | None:
    best: Step | None = None
    pairs = conjugate_pairs(board, d0)
    for i, (u1, p1, p2) in enumerate(pairs):
        for u2, q1, q2 in pairs[i + 1:]:
            if {p1, p2} & {q1, q2}:
                continue
            for a, far_a in ((p1, p2), (p2, p1)):
                for b, far_b in ((q1, q2), (q2, q1)):
                    if not board.sees(a, b) or board.sees(far_a, far_b):
                        continue
                    if not (board.cells_of[d0] & board.peer_masks[far_a]
                            & board.peer_masks[far_b]):
                        continue
                    step = turbot_step(board, d0, u1, u2, far_a, a, b, far_b)
                    if step.technique != "Turbot Fish":
                        return step
                    best = best or step
    return best


def turbot_step(board: Board, d0: int, u1: int, u2: int, far_a: int, a: int, b: int,
                far_b: int) -> Step:
    """The step of the strong links ``far_a-a`` (in unit ``u1``) and ``b-far_b`` (in ``u2``)
    on digit ``d0 + 1``, ``a`` seeing ``b``: the digit leaves the cells seeing both far ends
    (named Skyscraper, 2-String Kite or Turbot Fish; the ladder kernel's find is built this
    way too)."""
    geometry = board.geometry
    digit = d0 + 1
    seen = board.cells_of[d0] & board.peer_masks[far_a] & board.peer_masks[far_b]
    eliminations = tuple((c, digit) for c in bits(seen))
    return Step(_name(board, u1, u2, a, b), RATING,
                lambda: f"{geometry.symbol(digit)}: strong links {geometry.label(far_a)}-"
                        f"{geometry.label(a)} and {geometry.label(b)}-"
                        f"{geometry.label(far_b)}, {geometry.label(a)} sees "
                        f"{geometry.label(b)}, so {geometry.label(far_a)} or "
                        f"{geometry.label(far_b)} is {geometry.symbol(digit)}: "
                        f"{eliminations_text(geometry, eliminations)}",
                eliminations=eliminations, cells=(far_a, a, b, far_b), digits=(digit,))


@technique("Empty Rectangle", RATING, order=-1)
def empty_rectangle(board: Board) -> Step | None:
    """A box whose places for a digit lie on one row and one column, with a strong link."""
    return _EMPTY.first(board, lambda d0: _er_of_digit(board, d0), "er")


def _er_of_digit(board: Board, d0: int) -> Step | None:
    geometry = board.geometry
    n = geometry.side
    masks = unit_cells(geometry)
    cells = board.cells_of[d0]
    pairs = conjugate_pairs(board, d0)
    for box in range(2 * n, 3 * n):
        inside = cells & masks[box]
        if inside.bit_count() < 2:
            continue
        rows = [r for r in range(n) if inside & masks[r]]
        cols = [c for c in range(n, 2 * n) if inside & masks[c]]
        for row in rows:
            for col in cols:
                row_part, col_part = er_parts(board, d0, box, row, col)
                if not row_part or not col_part or inside & ~(masks[row] | masks[col]):
                    continue
                step = _er_with_pair(board, d0, box, row_part, col_part, pairs)
                if step is None:
                    step = _er_with_pair(board, d0, box, col_part, row_part, pairs)
                if step is not None:
                    return step
    return None


def _er_with_pair(board: Board, d0: int, box: int, near: int, far: int,
                  pairs: list[tuple[int, int, int]]) -> Step | None:
    geometry = board.geometry
    box_mask = unit_cells(geometry)[box]
    for u, p, q in pairs:
        for x, y in ((p, q), (q, p)):
            if (1 << x) & box_mask or (1 << y) & box_mask:
                continue
            if board.common_peers(near) >> x & 1 == 0:
                continue
            if board.cells_of[d0] & board.peer_masks[y] & board.common_peers(far) & ~box_mask:
                return er_step(board, d0, box, near, far, x, y)
    return None


def er_step(board: Board, d0: int, box: int, near: int, far: int, x: int, y: int) -> Step:
    """The Empty Rectangle step of digit ``d0 + 1`` in unit ``box``: its places ``near``
    (bitmask over cells) all see ``x``, the strong link ``x-y`` makes the digit true in ``y``
    or in the box, so it leaves the cells outside the box seeing ``y`` and every ``far``
    place (the ladder kernel's find is built this way too)."""
    geometry = board.geometry
    digit = d0 + 1
    seen = (board.cells_of[d0] & board.peer_masks[y] & board.common_peers(far)
            & ~unit_cells(geometry)[box])
    eliminations = tuple((c, digit) for c in bits(seen))
    return Step("Empty Rectangle", RATING,
                lambda: f"{geometry.symbol(digit)} in {geometry.unit_names[box]} lies on one row "
                        f"and one column; with the strong link {geometry.label(x)}-"
                        f"{geometry.label(y)}: {eliminations_text(geometry, eliminations)}",
                eliminations=eliminations, cells=tuple(bits(near | far)) + (x, y),
                digits=(digit,))


def er_parts(board: Board, d0: int, box: int, row: int, col: int) -> tuple[int, int]:
    """The places of digit ``d0 + 1`` in unit ``box`` on unit ``row`` and those on unit
    ``col`` off ``row`` (bitmasks over cells), as :func:`empty_rectangle` splits them."""
    masks = unit_cells(board.geometry)
    inside = board.cells_of[d0] & masks[box]
    return inside & masks[row], inside & masks[col] & ~masks[row]


def _components(board: Board, d0: int) -> list[dict[int, int]]:
    """Colour each connected component of the conjugate-pair graph of a digit (cell -> 0/1)."""
    graph: dict[int, list[int]] = {}
    for _u, a, b in conjugate_pairs(board, d0):
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, []).append(a)
    seen: set[int] = set()
    out = []
    for start in graph:
        if start in seen:
            continue
        colour = {start: 0}
        stack = [start]
        while stack:
            cell = stack.pop()
            for other in graph[cell]:
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    stack.append(other)
        seen.update(colour)
        if len(colour) > 2:
            out.append(colour)
    return out


@technique("Simple Colouring", 6.6)
def simple_colouring(board: Board) -> Step | None:
    """Colour a digit's conjugate pairs: a colour seeing itself is false (wrap); a cell seeing
    both colours loses the digit (trap)."""
    return _EMPTY.first(board, lambda d0: _colouring_of_digit(board, d0), "colouring")


def _colouring_of_digit(board: Board, d0: int) -> Step | None:
    geometry = board.geometry
    digit = d0 + 1
    for colour in _components(board, d0):
        sides = [[c for c, k in colour.items() if k == side] for side in (0, 1)]
        bonus = length_bonus(len(colour))
        for side in sides:
            if any(board.sees(a, b) for i, a in enumerate(side) for b in side[i + 1:]):
                eliminations = tuple((c, digit) for c in sorted(side))
                return Step("Simple Colouring", 6.5 + bonus,
                            f"colour wrap on {geometry.symbol(digit)}: two cells of one colour "
                            f"see each other, so that colour is false: "
                            f"{eliminations_text(geometry, eliminations)}",
                            eliminations=eliminations, cells=tuple(sorted(colour)),
                            digits=(digit,))
        seen_a = seen_b = 0
        for c in sides[0]:
            seen_a |= board.peer_masks[c]
        for c in sides[1]:
            seen_b |= board.peer_masks[c]
        trap = board.cells_of[d0] & seen_a & seen_b
        for c in colour:
            trap &= ~(1 << c)
        if trap:
            eliminations = tuple((c, digit) for c in bits(trap))
            return Step("Simple Colouring", 6.6 + bonus,
                        f"colour trap on {geometry.symbol(digit)}: these cells see both colours: "
                        f"{eliminations_text(geometry, eliminations)}",
                        eliminations=eliminations, cells=tuple(sorted(colour)),
                        digits=(digit,))
    return None
