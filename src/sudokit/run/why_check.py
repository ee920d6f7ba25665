"""The parts of a puzzle a "why" names, and the one solvability check every search of
:mod:`sudokit.run.why` repeats.

A puzzle is split into **members**: each given (a cell and its digit), each drawn rule (a
thermometer, an arrow, a Kropki dot ...: the rules of one named rule together) and each killer
cage. The grid's own rules (rows, columns, boxes, regions, whole-grid variants, parity) are the
**background**, never dropped. A sub-puzzle keeps some members and the whole background; the
:class:`Checker` asks the front door (:func:`~sudokit.run.doors.count_solutions`, the default
method, every grid verified) whether it has a solution, within one deadline for the whole "why".
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import LimitReached
from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle
from ..model.result import Result, Status
from ..model.rules import Rule

__all__ = ["Checker", "Member", "members", "sub_puzzle"]


@dataclass(frozen=True)
class Member:
    """One given, drawn rule or killer cage of a puzzle.

    Attributes:
        kind: ``"given"``, ``"rule"`` or ``"cage"``.
        index: for a given, its cell (0-based ``row * N + column``); for a rule, the position
            of its first rule in ``Geometry.constraints``; for a cage, its position in
            ``Geometry.cages``.
        text: the member in the field's words: ``"r4c5=3"``, ``"thermometer r2c1-r2c5"``,
            ``"killer cage 15 r1c1-r1c3"``.
        cells: the cells it covers (0-based).
        digit: a given's digit (0 for a rule or a cage).
        rules: a rule member's positions in ``Geometry.constraints`` (a named rule may be
            several kinds, e.g. a thermometer's pairs).
    """

    kind: str
    index: int
    text: str
    cells: tuple[int, ...]
    digit: int = 0
    rules: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The member as a JSON object (``kind``, ``text``, ``cells``, ``digit`` for a given)."""
        row: dict[str, object] = {"kind": self.kind, "text": self.text, "cells": list(self.cells)}
        if self.kind == "given":
            row["digit"] = self.digit
        return row


def _span(g: Geometry, cells: Sequence[int]) -> str:
    """Cells as ``r1c1`` (one), ``r1c1-r1c3`` (a line from its first to its last cell)."""
    if not cells:
        return ""
    if len(cells) == 1:
        return g.label(cells[0])
    if len(cells) == 2:
        return f"{g.label(cells[0])},{g.label(cells[1])}"
    return f"{g.label(cells[0])}-{g.label(cells[-1])}"


def _rule_groups(rules: Sequence[Rule]) -> list[list[int]]:
    """The positions of each named rule's rules: a rule carrying its drawing starts a group,
    the undrawn rules after it belong to it (:func:`~sudokit.model.rules.drawn_as`); an undrawn
    rule with no drawn rule before it stands alone."""
    groups: list[list[int]] = []
    for position, rule in enumerate(rules):
        if rule.drawing is None and groups and rules[groups[-1][0]].drawing is not None:
            groups[-1].append(position)
        else:
            groups.append([position])
    return groups


def _rule_member(g: Geometry, group: list[int]) -> Member:
    first = g.constraints[group[0]]
    drawing = first.drawing
    cells = drawing.cells if drawing is not None else first.cells
    name = drawing.name if drawing is not None else first.name
    value = (f" {drawing.value}" if drawing is not None and drawing.value
             and drawing.value != name else "")
    covered = sorted({c for p in group for c in g.constraints[p].cells})
    return Member("rule", group[0], f"{name}{value} {_span(g, cells)}", tuple(covered),
                  rules=tuple(group))


def members(puzzle: Puzzle) -> list[Member]:
    """Split a puzzle into its members: givens (in cell order), then drawn rules, then cages.

    Returns:
        The :class:`Member` list; the grid's own rules are not members.
    """
    g = puzzle.geometry
    found = [Member("given", cell, f"{g.label(cell)}={g.symbol(digit)}", (cell,), digit)
             for cell, digit in enumerate(puzzle.givens) if digit]
    found += [_rule_member(g, group) for group in _rule_groups(g.constraints)]
    found += [Member("cage", i, f"killer cage {cage.total} {_span(g, cage.cells)}", cage.cells)
              for i, cage in enumerate(g.cages)]
    return found


def sub_puzzle(puzzle: Puzzle, kept: Iterable[Member]) -> Puzzle:
    """The puzzle with only the ``kept`` members and its whole background.

    Returns:
        A new :class:`Puzzle` (same source); its geometry is the puzzle's own when every rule
        and cage is kept.
    """
    kept = list(kept)
    givens = [0] * len(puzzle.givens)
    rules: set[int] = set()
    cages: set[int] = set()
    for member in kept:
        if member.kind == "given":
            givens[member.index] = member.digit
        elif member.kind == "rule":
            rules.update(member.rules)
        else:
            cages.add(member.index)
    g = puzzle.geometry
    if len(rules) < len(g.constraints) or len(cages) < len(g.cages):
        g = Geometry.of(g.box_rows, g.box_cols, g.variant, regions=g.regions,
                        cages=[c for i, c in enumerate(g.cages) if i in cages],
                        parity=g.parity, layout=g.layout, extra_regions=g.extra_regions,
                        constraints=[r for i, r in enumerate(g.constraints) if i in rules])
    return Puzzle(g, tuple(givens), puzzle.source, puzzle.source_line)


class Checker:
    """Solvability checks of sub-puzzles through the front door, under one deadline.

    A "why" asks hundreds of small checks of one grid, so with no method named every check
    goes to :func:`~sudokit.registry.default_method` (the compiled engine raced against CDCL),
    not to the default path of one small input (``propagate`` for 0.05 s, then CDCL: built for
    one answer, it made "why" 20-40 times slower: ``benchmarks/why.py``).

    Args:
        method: registry name of the method (None: the default method).
        time_limit: seconds for every check together (None: no limit).

    Attributes:
        method: the method named (None: the default).
        checks: the number of checks made so far.
    """

    def __init__(self, method: str | None = None, time_limit: float | None = None) -> None:
        from ..registry import default_method

        self.method = method
        self.solver = method or default_method()
        self.deadline = None if not time_limit else time.perf_counter() + time_limit
        self.checks = 0

    def left(self) -> float | None:
        """Seconds left before the deadline (None: no limit).

        Raises:
            LimitReached: the deadline has passed.
        """
        if self.deadline is None:
            return None
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise LimitReached("the time limit of the explanation was reached")
        return left

    def count(self, puzzle: Puzzle, limit: int) -> Result:
        """Up to ``limit`` verified solutions of ``puzzle``.

        Raises:
            LimitReached: the deadline passed before the count was complete.
        """
        from .doors import count_solutions

        self.checks += 1
        result = count_solutions(puzzle, self.solver, limit=limit, time_limit=self.left())
        if result.status is Status.UNKNOWN:
            raise LimitReached("the time limit of the explanation was reached")
        return result

    def solution(self, puzzle: Puzzle) -> Grid | None:
        """A verified solution of ``puzzle``, or None when it has none.

        Raises:
            LimitReached: as :meth:`count`.
        """
        result = self.count(puzzle, 1)
        return result.solutions[0] if result.solutions else None
