"""Ratings of chains on Sudoku Explainer's scale, and how a chain search ranks the chains it
finds (:func:`chain_key`: rating, nodes, then most placements and eliminations).

The rating is Sudoku Explainer's base for the chain kind plus its length bonus
(:func:`~sudokit.logic.step.length_bonus`); single-digit chains of three to six strong links are
rated as Sukaku Explainer's strong-linked fishes (:func:`chain_rating`).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .links import Node
from ..state import Board
from ..step import length_bonus
from ..units import unit_cells

__all__ = ["SHORT_X", "STRONG_LINKS", "X_NODES", "chain_key", "chain_name",
           "chain_rating", "is_w_wing", "link_shape", "multi_digit_ratings", "path_rating"]


SHORT_X = 6
"""Longest X-chain (nodes) rated as a short chain."""


X_NODES = 12
"""Longest single-digit chain searched by :func:`~sudokit.logic.chains.aic.x_chain`: six
strong links, Sukaku Explainer's largest strong-linked fish. Longer X-chains rate 7.0 and up
and are found with the AICs. The compiled single-digit walks use at least this bound, so the
short X-chains' walks serve X-Chain too
(:func:`~sudokit.logic.chains.walkers.best_single_digit`)."""


STRONG_LINKS = {3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6}
"""Sukaku Explainer's base rating of a single-digit chain of k strong links (its "k Strong-linked
Fishes", ``StrongLinksHint``)."""


def chain_rating(name: str, nodes: int, shape: float = 0.0) -> float:
    """Rating of a chain of ``nodes`` nodes on Sudoku Explainer's scale.

    Sudoku Explainer (Juillerat 2006, ``ForcingChainHint.getDifficulty``): a forcing X-chain
    (one digit) is 6.6, a chain with links inside cells too (XY-Chain, AIC) 7.0, each plus the
    length bonus (:func:`~sudokit.logic.step.length_bonus`) of its length, the count of its
    implications less two (for a chain proving an elimination, the nodes between the assumed
    and the refuted candidate: ``nodes`` here).

    Single-digit chains of three to six strong links are rated as Sukaku Explainer rates its
    strong-linked fishes (SudokuMonster 2019, ``StrongLinksHint``): 5.4, 5.8, 6.2, 6.6 for 3-6
    links, plus ``shape``: 0.3 with a grouped node, else 0.1 when the strong links are not all
    in rows or all in columns and 0.2 when they lie in rows, columns and boxes
    (:func:`link_shape`). Two strong links (Skyscraper, 2-String Kite, Turbot Fish) are 5.2 here,
    as the published ratings of the rated set of ``benchmarks/logic.py`` rate them.
    """
    if name in ("X-Chain", "Grouped X-Chain"):
        links = nodes // 2
        if links <= 2:
            return 4.8 + 0.1 * nodes
        if links in STRONG_LINKS:
            return STRONG_LINKS[links] + shape
        return 6.6 + length_bonus(nodes)
    return 7.0 + length_bonus(nodes)


def link_shape(board: Board, path: list[Node]) -> float:
    """Sukaku Explainer's shape bonus of a single-digit chain (see :func:`chain_rating`)."""
    if any(m & (m - 1) for m, _d in path):
        return 0.3
    kinds = set()
    masks = unit_cells(board.geometry)
    n = board.side
    for i in range(0, len(path) - 1, 2):
        (a, d0), b = path[i], path[i + 1][0]
        both = a | b
        for u in board.geometry.units_of[a.bit_length() - 1]:
            if both & ~masks[u] == 0 and board.cells_of[d0] & masks[u] == both:
                kinds.add(min(u // n, 2))  # 0 row, 1 column, 2 box (and extra units)
                break
    lines = kinds & {0, 1}
    if 2 not in kinds and len(lines) == 1:
        return 0.0
    return 0.2 if 2 in kinds and len(lines) == 2 else 0.1


def path_rating(board: Board, path: list[Node], placements: tuple) -> float:
    """The rating of the chain ``path`` (:func:`chain_rating` of its name, length and, for an
    X-chain, :func:`link_shape`)."""
    name = chain_name(path)
    shape = link_shape(board, path) if name.endswith("X-Chain") else 0.0
    return chain_rating(name, _length(path, placements), shape)


def _length(path: list[Node], placements: tuple) -> int:
    """The chain's length as Sudoku Explainer counts it (implications less two): a chain
    proving a placement starts and ends on the placed candidate, which counts once."""
    return len(path) - 2 if placements else len(path)


def chain_name(path: list[Node]) -> str:
    """X-Chain, Grouped X-Chain (one digit), W-Wing (:func:`is_w_wing`), XY-Chain (every strong
    link inside a cell), AIC or Grouped AIC. The name never changes the rating
    (:func:`chain_rating`: a W-Wing is an AIC of six nodes, 7.1)."""
    digits = {d for _m, d in path}
    grouped = any(m & (m - 1) for m, _d in path)
    if len(digits) == 1:
        return "Grouped X-Chain" if grouped else "X-Chain"
    if not grouped and is_w_wing(path):
        return "W-Wing"
    if not grouped and all(path[i][0] == path[i + 1][0] for i in range(0, len(path) - 1, 2)):
        return "XY-Chain"
    return "Grouped AIC" if grouped else "AIC"


def is_w_wing(path: list[Node]) -> bool:
    """Whether a chain (strong links between nodes 0-1, 2-3, 4-5) is a W-Wing: two bivalue
    cells {x,y} (the strong links inside them), whose x ends a strong link on x between two
    other cells joins, the chain ending on y in both. The W-Wing finder
    (:func:`sudokit.logic.techniques.wings.w_wing`, 7.1) comes after the AICs (7.0) on the
    ladder and finds nothing they have not: the AIC finder's chain of this shape carries the
    name (issue 42: ``generate --needs W-Wing``)."""
    if len(path) != 6:
        return False
    (a, y), (a2, x), (p, x2), (q, x3), (b, x4), (b2, y2) = path
    return (a == a2 and b == b2 and a != b and p != q and not {p, q} & {a, b}
            and y == y2 != x == x2 == x3 == x4)


def chain_key(board: Board, path: list[Node], placements: tuple, eliminations: tuple) -> tuple:
    """How :func:`~sudokit.logic.chains.search.find_chain` ranks a chain (lowest first): rating,
    nodes, then most placements and eliminations."""
    return (path_rating(board, path, placements), len(path) + 2, -len(placements),
            -len(eliminations))


@cache
def multi_digit_ratings(longest: int) -> np.ndarray:
    """float64[longest + 1]: at L, the rating of a chain over several digits of length L
    (:func:`chain_rating`: 7.0 plus the length bonus), for the compiled ranking."""
    return np.asarray([7.0 + length_bonus(k) for k in range(longest + 1)], dtype=np.float64)
