"""Chains: short X-chains (5.2+), X-chains (6.6+), chains over every link (XY-Chain, AIC: 7.0+),
grouped AICs (7.0+).

Sudoku Explainer's static chains use no groups, and among all chains it reports the lowest
rated (a forcing X-chain is 6.6 + length bonus, any other chain 7.0 + length bonus: see
:func:`sudokit.logic.chains.chain_rating`). So X-chains are searched first as long as they rate
at most 7.0 (16 nodes), then chains over every link between single candidates (named XY-Chain
when they run through bivalue cells only, AIC otherwise), then, last, chains with grouped nodes,
which Explainer does not have. See :mod:`sudokit.logic.chains` for the search."""

from __future__ import annotations

from ..chains import SHORT_X, ChainMode, find_chain
from ..registry import technique
from ..state import Board
from ..step import Step

__all__ = ["aic", "grouped_aic", "short_x_chain", "x_chain"]

X_NODES = 16
"""Longest X-chain searched by :func:`x_chain` (rated 6.6 + 0.4 = 7.0; longer ones rate above
the shortest chains of :func:`aic`, which also finds them)."""


@technique("X-Chain (short)", 5.2, max_side=16)
def short_x_chain(board: Board) -> Step | None:
    """An X-chain of at most six nodes."""
    return find_chain(board, ChainMode.X, SHORT_X)


@technique("X-Chain", 6.6, max_side=16)
def x_chain(board: Board) -> Step | None:
    """A chain on one digit (strong links in units), up to 16 nodes."""
    return find_chain(board, ChainMode.X, X_NODES)


@technique("AIC", 7.0, max_side=16)
def aic(board: Board) -> Step | None:
    """An alternating inference chain over any links between single candidates (XY-chains
    included)."""
    return find_chain(board, ChainMode.AIC)


@technique("Grouped AIC", 7.0, max_side=16, order=1)
def grouped_aic(board: Board) -> Step | None:
    """An alternating inference chain with grouped nodes (box-line groups)."""
    return find_chain(board, ChainMode.GROUPED)
