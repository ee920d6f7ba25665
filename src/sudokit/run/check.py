"""A grid in progress checked against every rule of its puzzle, each break with its cells.

:func:`sudokit.model.puzzle.violations` says why a *full* grid is not a solution, as text. A
player's board needs more: which rules a grid *in progress* already breaks, and on which
cells, to draw them. :func:`grid_violations` checks the filled cells only: a digit twice in a
unit, a given changed, two cells a variant keeps apart holding the same digit, consecutive
neighbours under the non-consecutive rule, a digit of the wrong parity, a killer cage whose
digits already pass its total (or miss it once full), and every drawn rule
(:mod:`sudokit.model.rules`) whose cells are all filled.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..model.puzzle import Puzzle

__all__ = ["Violation", "grid_violations"]


@dataclass(frozen=True)
class Violation:
    """One rule a grid breaks.

    Attributes:
        rule: the rule in the field's words (``"row 3"``, ``"killer cage 15"``,
            ``"thermometer r1c1-r1c4"``).
        cells: the cells that break it (0-based indices).
        text: one line saying how (``"r3c1 and r3c7 both hold 5"``).
    """

    rule: str
    cells: tuple[int, ...]
    text: str

    def as_dict(self) -> dict[str, object]:
        """The JSON form (``/api/check``)."""
        return {"rule": self.rule, "cells": list(self.cells), "text": self.text}


def grid_violations(puzzle: Puzzle, grid: Sequence[int]) -> list[Violation]:
    """Every rule of ``puzzle`` that the filled cells of ``grid`` already break.

    Args:
        puzzle: the puzzle (its givens and geometry, drawn rules included).
        grid: one digit per cell, 0 for an empty cell (the givens may be repeated or 0).

    Returns:
        The broken rules, units first; empty when nothing is broken so far (a full grid with
        no violation is a solution: the same verdict as
        :func:`~sudokit.model.puzzle.is_solution`).

    Raises:
        ValueError: ``grid`` has not one entry per cell.
    """
    g = puzzle.geometry
    if len(grid) != g.n_cells:
        raise ValueError(f"expected {g.n_cells} cells, got {len(grid)}")
    digits = [given or digit for given, digit in zip(puzzle.givens, grid)]
    found = [Violation(g.label(c), (c,), f"{g.label(c)} holds {d}, expected 1..{g.side}")
             for c, d in enumerate(digits) if not 0 <= d <= g.side]
    found += [Violation(f"given {g.label(c)}", (c,),
                        f"{g.label(c)} changes given {given} to {grid[c]}")
              for c, given in enumerate(puzzle.givens) if given and grid[c] not in (0, given)]
    if found:
        return found
    found += _units(puzzle, digits)
    found += _variant(puzzle, digits)
    return found


def _units(puzzle: Puzzle, digits: list[int]) -> Iterator[Violation]:
    """A digit twice in a unit (row, column, box, extra region)."""
    g = puzzle.geometry
    for name, unit in zip(g.unit_names, g.units):
        seen: dict[int, list[int]] = {}
        for cell in unit:
            if digits[cell]:
                seen.setdefault(digits[cell], []).append(cell)
        for digit, cells in seen.items():
            if len(cells) > 1:
                where = " and ".join(g.label(c) for c in cells)
                yield Violation(name, tuple(cells), f"{where} both hold {digit} in {name}")


def _variant(puzzle: Puzzle, digits: list[int]) -> Iterator[Violation]:
    """The variant rules and the drawn rules, on filled cells."""
    g = puzzle.geometry
    label = g.label
    for a, b in g.extra_pairs:
        if digits[a] and digits[a] == digits[b]:
            yield Violation("cells that must differ", (a, b),
                            f"{label(a)} and {label(b)} both hold {digits[a]}")
    for a, b in g.consecutive_pairs:
        if digits[a] and digits[b] and abs(digits[a] - digits[b]) == 1:
            yield Violation("non-consecutive", (a, b), f"{label(a)} and {label(b)} hold "
                            f"consecutive digits {digits[a]} and {digits[b]}")
    for c, kind in enumerate(g.parity or ""):
        if kind != "." and digits[c] and (digits[c] % 2 == 0) != (kind == "e"):
            parity = "even" if kind == "e" else "odd"
            yield Violation(f"{parity} cell", (c,), f"{label(c)} holds {digits[c]} in an "
                            f"{parity} cell")
    for k, cage in enumerate(g.cages):
        total = sum(digits[c] for c in cage.cells)
        empty = sum(1 for c in cage.cells if not digits[c])
        if (empty == 0 and total != cage.total) or total + empty > cage.total:
            yield Violation(f"killer cage {cage.total}", tuple(cage.cells),
                            f"cage {k + 1} ({cage.total}) adds up to {total}"
                            + (f" with {empty} cells open" if empty else ""))
    for rule in g.constraints:
        if all(digits[c] for c in rule.cells):
            why = rule.violation(digits, label)
            if why:
                yield Violation(rule.describe(label), tuple(rule.cells), why)
