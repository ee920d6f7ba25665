"""Results of single-digit searches kept across board snapshots.

A single-digit technique (fish, Skyscraper and its kin, Empty Rectangle, simple colouring,
X-chains) reads only the places of its digit: what it finds for digit d is a function of the
grid and of ``board.cells_of[d - 1]`` alone. The solve loop restarts from the easiest technique
after every step (Sudoku Explainer's rule, Juillerat 2006), so each such technique searches the
same digit patterns again and again while other digits change. A :class:`DigitMemo` keeps what
a search found (usually: that it found nothing) keyed by the digit and its places, so a repeat
is one dictionary look-up and the solve is step for step the same.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from .state import Board

__all__ = ["DigitMemo"]

T = TypeVar("T")


class DigitMemo:
    """A dictionary per solve keyed by ``(d0, places, ...)`` (``places`` the bitmask
    ``board.cells_of[d0]``), kept in ``board.history`` (so it lives as long as the solve's
    :class:`~sudokit.logic.state.Candidates`) and emptied when it holds more than ``limit``
    entries.

    Args:
        limit: most entries kept per solve (memory stays bounded on large grids).
    """

    def __init__(self, limit: int = 1 << 15) -> None:
        self.limit = limit

    def table(self, board: Board) -> dict[Any, Any]:
        """The dictionary for ``board``'s solve (a fresh one once the old one is full)."""
        table = board.history.get(self)
        if table is None or len(table) > self.limit:
            table = board.history[self] = {}
        return table

    def nothing_for(self, board: Board, d0: int, *extra: Hashable) -> bool:
        """Whether the search found nothing for digit ``d0 + 1`` with its present places (and
        the same ``extra`` parameters) earlier in this solve."""
        return (d0, board.cells_of[d0], *extra) in self.table(board)

    def found_nothing(self, board: Board, d0: int, *extra: Hashable) -> None:
        """Record that the search found nothing for digit ``d0 + 1`` with its present places."""
        self.table(board)[(d0, board.cells_of[d0], *extra)] = None

    def first(self, board: Board, search: Callable[[int], T | None], *extra: Hashable) -> T | None:
        """The first result of ``search(d0)`` over the digits in order, skipping digits it
        found nothing for earlier in this solve (and recording the new ones); None if none."""
        for d0 in range(board.side):
            if self.nothing_for(board, d0, *extra):
                continue
            found = search(d0)
            if found is not None:
                return found
            self.found_nothing(board, d0, *extra)
        return None
