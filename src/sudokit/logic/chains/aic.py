"""Chains: single-digit chains of two or three strong links (5.2+), of up to six (5.8+), chains
over every link (XY-Chain, AIC: 7.0+), grouped AICs (7.0+).

Single-digit chains are rated as Sukaku Explainer's strong-linked fishes (grouped nodes allowed);
Sudoku Explainer's static chains use no groups, and among all chains it reports the lowest rated
(a longer forcing X-chain is 6.6 + length bonus, any other chain 7.0 + length bonus: see
:func:`sudokit.logic.chains.rating.chain_rating`). So single-digit chains come first, then chains
over every link between single candidates (named XY-Chain when they run through bivalue cells
only, AIC otherwise), then, last, chains with grouped nodes, which Explainer does not have. See
:mod:`sudokit.logic.chains.search` for the search."""

from __future__ import annotations

from .links import ChainMode
from .rating import SHORT_X, X_NODES
from .search import find_chain
from ..registry import technique
from ..state import Board
from ..step import Step

__all__ = ["X_NODES", "aic", "grouped_aic", "short_x_chain", "x_chain"]


@technique("X-Chain (short)", 5.2, max_side=16)
def short_x_chain(board: Board) -> Step | None:
    """A single-digit chain of two or three strong links (grouped nodes allowed)."""
    return find_chain(board, ChainMode.X_GROUPED, SHORT_X)


@technique("X-Chain", 6.2, max_side=16, order=1)
def x_chain(board: Board) -> Step | None:
    """A single-digit chain of up to six strong links (grouped nodes allowed), tried after the
    VWXYZ-Wing as in Sukaku Explainer."""
    return find_chain(board, ChainMode.X_GROUPED, X_NODES)


@technique("AIC", 7.0, max_side=16)
def aic(board: Board) -> Step | None:
    """An alternating inference chain over any links between single candidates (XY-chains
    included)."""
    return find_chain(board, ChainMode.AIC)


@technique("Grouped AIC", 7.0, max_side=16, order=1)
def grouped_aic(board: Board) -> Step | None:
    """An alternating inference chain with grouped nodes (box-line groups)."""
    return find_chain(board, ChainMode.GROUPED)
