"""Chains: X-Chain, XY-Chain, alternating inference chains with grouped nodes (7.0+).

Short X- and XY-chains are tried first (rated from 5.2 and 5.3, see
:func:`sudokit.logic.chains.chain_rating`), long ones later (6.6+ and 7.0+). See
:mod:`sudokit.logic.chains` for the search."""

from __future__ import annotations

from ..chains import SHORT_X, SHORT_XY, ChainMode, find_chain
from ..registry import technique
from ..state import Board
from ..step import Step

__all__ = ["aic", "x_chain", "xy_chain"]


@technique("X-Chain (short)", 5.2, max_side=16)
def short_x_chain(board: Board) -> Step | None:
    """An X-chain of at most six nodes."""
    return find_chain(board, ChainMode.X, SHORT_X)


@technique("XY-Chain (short)", 5.3, max_side=16)
def short_xy_chain(board: Board) -> Step | None:
    """An XY-chain of at most four cells."""
    return find_chain(board, ChainMode.XY, SHORT_XY)


@technique("X-Chain", 6.6, max_side=16)
def x_chain(board: Board) -> Step | None:
    """A chain on one digit (strong links in units)."""
    return find_chain(board, ChainMode.X)


@technique("XY-Chain", 6.9, max_side=16)
def xy_chain(board: Board) -> Step | None:
    """A chain of bivalue cells."""
    return find_chain(board, ChainMode.XY)


@technique("AIC", 7.0, max_side=16, order=1)
def aic(board: Board) -> Step | None:
    """An alternating inference chain over any links, grouped nodes included."""
    return find_chain(board, ChainMode.AIC)
