"""Why a puzzle has several solutions: two of them, the cells where they differ, the smallest
unavoidable set among those cells, and the single givens that would make it unique.

An **unavoidable set** of a solution A (a "deadly pattern") is a set of cells on which another
solution of the puzzle differs from A and nowhere else: the puzzle needs a given inside it to
tell the two apart (McGuire, Tugemann and Civario 2014, "There is no 16-clue Sudoku", section
3). Starting from where two solutions differ, the set is shrunk while some other solution
differs from A on a strict part of it (each try fixes A's digits on every cell but a part);
the set found is minimal in that sense (no other solution differs from A on fewer of its
cells), not always the smallest of the whole grid.

A single given **fixes** the puzzle when the puzzle with it has exactly one solution. Every
(empty cell, digit allowed by the givens) pair is a candidate; a pool of the solutions met so
far rules out, without a check, every candidate that two known solutions share; each other
candidate is checked by a count to two through the front door, whose solutions join the pool.
The list is complete: every single fixing given is named (within the time limit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import LimitReached
from ..model.puzzle import Grid, Puzzle
from .why_check import Checker

__all__ = ["MAX_FIX_ROUNDS", "Several", "fixing_givens", "several", "unavoidable_set"]

MAX_FIX_ROUNDS = 12
"""The most givens the greedy search of a fixing set adds when no single one fixes."""


@dataclass(frozen=True)
class Several:
    """Why a puzzle has more than one solution.

    Attributes:
        solutions: two solutions (N*N digits each).
        differ: the cells where they differ (0-based, increasing).
        unavoidable: a minimal unavoidable set of the first solution within them (cells).
        alternative: the solution that differs from the first exactly on ``unavoidable``.
        fixes: every single given ``(cell, digit)`` that makes the puzzle unique (empty when
            none does); ``complete`` says whether every candidate was checked.
        fix_set: when no single given fixes, givens that together do (found greedily), else
            empty.
        complete: False when the time limit cut the search of fixes short.
    """

    solutions: tuple[Grid, Grid]
    differ: tuple[int, ...]
    unavoidable: tuple[int, ...]
    alternative: Grid
    fixes: tuple[tuple[int, int], ...]
    fix_set: tuple[tuple[int, int], ...] = ()
    complete: bool = True


def _differ(a: Sequence[int], b: Sequence[int]) -> list[int]:
    return [cell for cell, (x, y) in enumerate(zip(a, b)) if x != y]


def _other(check: Checker, puzzle: Puzzle, givens: Sequence[int], avoid: Grid) -> Grid | None:
    """A solution of ``puzzle``'s grid with ``givens`` other than ``avoid``; None when there is
    none."""
    result = check.count(Puzzle(puzzle.geometry, tuple(givens)), 2)
    return next((s for s in result.solutions if list(s) != list(avoid)), None)


def unavoidable_set(check: Checker, puzzle: Puzzle, first: Grid,
                    second: Grid) -> tuple[list[int], Grid]:
    """A minimal unavoidable set of ``first`` among the cells where ``second`` differs from it.

    Returns:
        ``(cells, alternative)``: the cells (increasing) and a solution differing from ``first``
        exactly there.

    Raises:
        LimitReached: the check's deadline passed.
    """
    cells, alternative = _differ(first, second), second
    shrunk = True
    while shrunk:
        shrunk = False
        for keep in cells:  # fix first's digit on `keep` and every cell outside the set
            fixed = [0 if c in cells and c != keep else d for c, d in enumerate(first)]
            grid = _other(check, puzzle, fixed, first)
            if grid is not None:
                cells, alternative, shrunk = _differ(first, grid), grid, True
                break
    return cells, alternative


def _candidates(puzzle: Puzzle) -> list[tuple[int, int]]:
    g = puzzle.geometry
    return [(cell, digit) for cell in range(g.n_cells) if not puzzle.givens[cell]
            for digit in puzzle.candidates(cell)]


def fixing_givens(check: Checker, puzzle: Puzzle, known: Sequence[Grid],
                  first: Sequence[tuple[int, int]] = ()) -> tuple[list[tuple[int, int]], bool]:
    """Every single given ``(cell, digit)`` that makes ``puzzle`` unique.

    Args:
        check: the solvability check.
        puzzle: a puzzle with several solutions.
        known: solutions already found (at least two).
        first: candidates to check first (the most likely fixes).

    Returns:
        ``(fixes, complete)``: the fixing givens in cell order, and whether every candidate
        was decided before the deadline.
    """
    pool = [list(s) for s in known]
    order = list(dict.fromkeys(list(first) + _candidates(puzzle)))
    fixes: list[tuple[int, int]] = []
    for cell, digit in order:
        if sum(1 for s in pool if s[cell] == digit) >= 2:
            continue  # two known solutions keep this given: it cannot fix
        givens = list(puzzle.givens)
        givens[cell] = digit
        try:
            result = check.count(Puzzle(puzzle.geometry, tuple(givens)), 2)
        except LimitReached:
            return sorted(fixes), False
        pool += [list(s) for s in result.solutions if list(s) not in pool]
        if result.count == 1:
            fixes.append((cell, digit))
    return sorted(fixes), True


def _fix_set(check: Checker, puzzle: Puzzle, first: Grid) -> list[tuple[int, int]]:
    """Givens of ``first`` that together make the puzzle unique: each round adds ``first``'s
    digit on one cell of an unavoidable set of what is left (greedy; empty when cut short)."""
    added: list[tuple[int, int]] = []
    givens = list(puzzle.givens)
    for _ in range(MAX_FIX_ROUNDS):
        other = _other(check, puzzle, givens, first)
        if other is None:
            return added
        cells, _ = unavoidable_set(check, Puzzle(puzzle.geometry, tuple(givens)), first, other)
        cell = cells[0]
        givens[cell] = first[cell]
        added.append((cell, first[cell]))
    return added if _other(check, puzzle, givens, first) is None else []


def several(check: Checker, puzzle: Puzzle, first: Grid, second: Grid) -> Several:
    """Why ``puzzle``, with the two solutions ``first`` and ``second``, is not unique.

    Raises:
        LimitReached: the deadline passed before the unavoidable set was found.
    """
    cells, alternative = unavoidable_set(check, puzzle, first, second)
    likely = [(c, s[c]) for c in cells for s in (first, alternative)]
    fixes, complete = fixing_givens(check, puzzle, [first, second, alternative], likely)
    fix_set: list[tuple[int, int]] = []
    if complete and not fixes:
        try:
            fix_set = _fix_set(check, puzzle, first)
        except LimitReached:
            complete = False
    return Several((first, second), tuple(_differ(first, second)), tuple(cells), alternative,
                   tuple(fixes), tuple(fix_set), complete)
