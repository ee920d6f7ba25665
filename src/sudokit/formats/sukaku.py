"""Pencil-mark (Sukaku) lines: a grid written as every cell's candidates.

A Sukaku line has N characters per cell, N**3 in all, row by row: character ``k`` of a cell is
the symbol of digit ``k + 1`` when that digit is a candidate of the cell, else ``0`` or ``.``
(the form of SukakuExplainer and the enjoysudoku forum's "pencilmark-only sudoku" threads;
``123456789`` is a cell with every candidate). A 9x9 Sukaku is 729 characters.

Some lengths are also a square grid's line form (729 = 27x27, 64 = 8x8, 4096 = 64x64), so a
line is read as Sukaku only when it fits the candidate pattern everywhere: each character is
empty or the symbol of its place's digit, and no cell is left without a candidate. A 27x27
puzzle whose every clue sits where its digit's candidate would (and no nine-character stretch
empty) is read as Sukaku; ``--box 27`` (or any ``--box``) reads such a line as a grid.

The puzzle read keeps the grid's side N: a cell with one candidate becomes a given, a cell with
some candidates a :func:`~sudokit.model.rulebook.given_candidates` rule (a one-cell sequence
rule every method that reads sequences takes), a cell with all candidates nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.geometry import DEFAULT_SYMBOLS, Geometry
from ..model.puzzle import Puzzle
from ..model.rulebook import given_candidates
from ..model.rules import Rule

__all__ = ["EMPTY_MARKS", "is_cube", "sukaku_puzzle", "sukaku_side"]

EMPTY_MARKS = "0."
"""The characters that mark a digit that is not a candidate."""

_SIDES = (4, 6, 8, 9, 10, 12, 15, 16)
"""Grid sides a Sukaku line may have (N**3 characters each)."""


def sukaku_side(symbols: Sequence[str]) -> int | None:
    """The side N of a Sukaku line of one-character ``symbols``, or None when it is none.

    Args:
        symbols: the line's characters (spaces removed), one per candidate place.

    Returns:
        N when ``len(symbols) == N**3`` for a side N the module reads and every character fits
        the candidate pattern with no cell left empty; else None.

    >>> sukaku_side("1234" * 16), sukaku_side("1.3." * 15 + "...."), sukaku_side("12" * 32)
    (4, None, None)
    """
    side = int(round(len(symbols) ** (1 / 3)))
    if side not in _SIDES or side ** 3 != len(symbols):
        return None
    marks = DEFAULT_SYMBOLS[:side]
    for start in range(0, len(symbols), side):
        cell = symbols[start:start + side]
        seen = False
        for place, symbol in enumerate(cell):
            if symbol == marks[place]:
                seen = True
            elif symbol not in EMPTY_MARKS:
                return None
        if not seen:
            return None
    return side


def sukaku_puzzle(symbols: Sequence[str], side: int, *, source: str | None = None,
                  line: int | None = None) -> Puzzle:
    """The puzzle of a Sukaku line whose side :func:`sukaku_side` found.

    Args:
        symbols: the line's characters, ``side**3`` of them.
        side: N.
        source, line: where the line came from (kept on the puzzle).

    Returns:
        A puzzle on the N x N grid with the usual boxes: givens for cells with one candidate,
        ``given candidates`` rules for the other restricted cells.

    Raises:
        InvalidPuzzle: ``side`` is no grid side (givens that clash are a puzzle without a
            solution, as in any form, not an error here).
    """
    geometry = Geometry.for_side(side)
    givens = [0] * geometry.n_cells
    rules: list[Rule] = []
    for cell in range(geometry.n_cells):
        part = symbols[cell * side:(cell + 1) * side]
        digits = [place + 1 for place, symbol in enumerate(part) if symbol not in EMPTY_MARKS]
        if len(digits) == 1:
            givens[cell] = digits[0]
        elif len(digits) < side:
            rules.extend(given_candidates(cell, digits, side))
    if rules:
        geometry = geometry.with_constraints(rules)
    return Puzzle(geometry, tuple(givens), source, line)


def is_cube(length: int) -> bool:
    """Whether ``length`` characters could be a Sukaku line (a cube of a side read here)."""
    side = int(round(length ** (1 / 3)))
    return side in _SIDES and side ** 3 == length
