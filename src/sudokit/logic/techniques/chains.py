"""Chains: X-Chain (6.6+), XY-Chain (6.6+), alternating inference chains with grouped nodes
(7.0+). See :mod:`sudokit.logic.chains` for the search."""

from __future__ import annotations

from ..chains import ChainMode, find_chain
from ..registry import technique
from ..state import Board
from ..step import Step

__all__ = ["aic", "x_chain", "xy_chain"]


@technique("X-Chain", 6.6, max_side=16)
def x_chain(board: Board) -> Step | None:
    """A chain on one digit (strong links in units)."""
    return find_chain(board, ChainMode.X)


@technique("XY-Chain", 6.6, max_side=16, order=1)
def xy_chain(board: Board) -> Step | None:
    """A chain of bivalue cells."""
    return find_chain(board, ChainMode.XY)


@technique("AIC", 7.0, max_side=16, order=1)
def aic(board: Board) -> Step | None:
    """An alternating inference chain over any links, grouped nodes included."""
    return find_chain(board, ChainMode.AIC)
