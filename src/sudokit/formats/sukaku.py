"""Pencil-mark (Sukaku) puzzles: a grid written as every cell's candidates, on one line or as a
candidate grid.

A Sukaku line has N characters per cell, N**3 in all, row by row: character ``k`` of a cell is
the symbol of digit ``k + 1`` when that digit is a candidate of the cell, else ``0`` or ``.``
(the form of SukakuExplainer and the enjoysudoku forum's "pencilmark-only sudoku" threads;
``123456789`` is a cell with every candidate). A 9x9 Sukaku is 729 characters.

Some lengths are also a square grid's line form (729 = 27x27, 64 = 8x8, 4096 = 64x64), so a
line is read as Sukaku only when it fits the candidate pattern everywhere: each character is
empty or the symbol of its place's digit, and no cell is left without a candidate. A 27x27
puzzle whose every clue sits where its digit's candidate would (and no nine-character stretch
empty) is read as Sukaku; ``--box 27`` (or any ``--box``) reads such a line as a grid.

A candidate grid (the pencil-mark grid HoDoKu, Sudoku Explainer and SudokuWiki print, and
Sudopedia's Sukaku page shows) has N rows of N candidate groups, with or without ``|`` between
boxes and ``.---.``, ``:---+---:``, ``'---'`` or ``+---+`` lines (those are separators of the
line scanner): each group is the symbols of its cell's candidates, each at most once. A row
is read as one when it has N groups for a side N, no group holds an empty marker or a symbol
outside digits 1..N, and (for N >= 10) not every group is an integer up to N (then the row is
a spaced integer row); :class:`~sudokit.formats.grouping.Grouper` asks :func:`candidate_row`
of each row and builds the puzzle with :func:`marks_puzzle`.

The puzzle read keeps the grid's side N: a cell with one candidate becomes a given, a cell with
some candidates a :func:`~sudokit.model.rulebook.given_candidates` rule (a one-cell sequence
rule every method that reads sequences takes), a cell with all candidates nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..model.geometry import DEFAULT_SYMBOLS, Geometry
from ..model.puzzle import Puzzle
from ..model.rulebook import given_candidates
from ..model.rules import Rule

__all__ = ["EMPTY_MARKS", "candidate_row", "is_cube", "marks_puzzle", "sukaku_puzzle",
           "sukaku_side"]

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

    Givens that clash are a puzzle without a solution, as in any form, not an error here.
    """
    cells = [[place + 1 for place, symbol in enumerate(symbols[cell * side:(cell + 1) * side])
              if symbol not in EMPTY_MARKS] for cell in range(side * side)]
    return marks_puzzle(cells, Geometry.for_side(side), source=source, line=line)


def marks_puzzle(cells: Sequence[Sequence[int]], geometry: Geometry, *,
                 source: str | None = None, line: int | None = None) -> Puzzle:
    """The puzzle of every cell's candidates on a grid.

    Args:
        cells: ``geometry.n_cells`` lists of digits (1..N), row by row; each cell's candidates.
        geometry: the grid (its side N, boxes, rules).
        source, line: where the puzzle came from (kept on the puzzle).

    Returns:
        Givens for cells with one candidate, ``given candidates`` rules for the other
        restricted cells, nothing for a cell with every candidate.
    """
    side = geometry.side
    givens = [0] * geometry.n_cells
    rules: list[Rule] = []
    for cell, digits in enumerate(cells):
        if len(digits) == 1:
            givens[cell] = digits[0]
        elif len(digits) < side:
            rules.extend(given_candidates(cell, sorted(digits), side))
    if rules:
        geometry = geometry.with_constraints(rules)
    return Puzzle(geometry, tuple(givens), source, line)


def candidate_row(tokens: Sequence[tuple[str, int]], table: Mapping[str, int],
                  side: int) -> list[list[int]] | tuple[str, int]:
    """One row of a candidate grid of side ``side``: each group's candidates, or what is wrong.

    Args:
        tokens: ``(group, column)`` per candidate group, columns 1-based.
        table: symbol -> digit (1..N; 0 for an empty marker) of the grid's alphabet.
        side: N, the number of groups a row needs.

    Returns:
        The candidates (digits, in the group's order) of each of the N cells; or, when the row
        is no row of such a grid, ``(what was expected and found, column)`` of the first
        place it breaks (the column after the row when it has too few groups).

    >>> table = {s: d for d, s in enumerate("1234", 1)}
    >>> candidate_row([("12", 1), ("3", 4), ("34", 6), ("1234", 9)], table, 4)
    [[1, 2], [3], [3, 4], [1, 2, 3, 4]]
    >>> candidate_row([("12", 1), ("3", 4), ("35", 6)], table, 4)[1]
    7
    """
    cells: list[list[int]] = []
    for group, column in tokens[:side]:
        digits: list[int] = []
        for offset, symbol in enumerate(group):
            digit = table.get(symbol, -1)
            if not 1 <= digit <= side or digit in digits:
                what = f"{symbol!r} twice" if digit in digits else repr(symbol)
                return (f"expected the candidates of a cell (the symbols of digits 1-{side}, "
                        f"each at most once), found {what} in {group!r}", column + offset)
            digits.append(digit)
        cells.append(digits)
    if len(tokens) != side:
        where = (tokens[side][1] if len(tokens) > side
                 else tokens[-1][1] + len(tokens[-1][0]) if tokens else 1)
        return (f"expected {side} candidate groups in each row of a {side}x{side} candidate "
                f"grid, found {len(tokens)}", where)
    return cells


def is_cube(length: int) -> bool:
    """Whether ``length`` characters could be a Sukaku line (a cube of a side read here)."""
    side = int(round(length ** (1 / 3)))
    return side in _SIDES and side ** 3 == length
