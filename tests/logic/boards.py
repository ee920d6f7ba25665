"""Hand-made 9x9 pencil-mark boards for technique tests."""

from __future__ import annotations

from sudokit.logic.state import Board
from sudokit.model.geometry import Geometry

G = Geometry.of(3, 3)


def cell(row: int, col: int) -> int:
    """The cell of 1-based ``row`` and ``col``."""
    return (row - 1) * 9 + col - 1


def board(marks: dict[tuple[int, int], str]) -> Board:
    """A board whose cells ``(row, col)`` hold the given candidates (digits as a string), every
    other cell all nine."""
    masks = [0x1FF] * 81
    for (r, c), digits in marks.items():
        masks[cell(r, c)] = sum(1 << (int(d) - 1) for d in digits)
    return Board(G, masks, [0] * 81)
