"""A Sudoku (any box shape, any extra units) as a CSP: one variable per cell, domain 1..N, one
all-different constraint per unit (so ``!=`` between every pair of peers: 810 constraints and
1,620 directed arcs for 9x9), the givens as the initial assignment.

Variant grids add: ``!=`` between pairs that share no unit (anti-knight and anti-king moves,
cage mates), a :class:`~sudokit.csp.model.NotConsecutive` constraint per pair of orthogonal
neighbours under the non-consecutive rule, a :class:`~sudokit.csp.model.CageSum` per killer
cage (generalised arc consistent by digit combinations), parity as initial domains, and a
:class:`~sudokit.csp.model.Filtered` constraint per rule drawn on the grid (thermometers,
arrows, dots, lines, outside clues: :mod:`sudokit.csp.rules`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from .model import (
    CSP,
    AllDifferent,
    CageSum,
    Constraint,
    Filtered,
    NotConsecutive,
    NotEqual,
    values_of,
)
from .rules import rule_filter
from .search import Inference, Order, Select, ac3_domains, backtracking_search

__all__ = ["ac3_candidates", "givens_of", "sudoku_csp", "sudoku_solutions"]


@lru_cache(maxsize=64)
def sudoku_csp(geometry: Geometry) -> CSP:
    """Return the CSP of an empty grid of this geometry (cached, with its tables; a killer or
    jigsaw geometry is one puzzle's, so the cache is bounded).

    >>> csp = sudoku_csp(Geometry.of(3, 3))
    >>> csp.n_variables, csp.tables.n_binary, csp.name(80)
    (81, 1620, 'r9c9')
    """
    g = geometry
    constraints: list[Constraint] = [AllDifferent(unit) for unit in g.units]
    if not g.is_standard:
        constraints += [NotEqual(a, b) for a, b in g.extra_pairs]
        constraints += [NotConsecutive(a, b) for a, b in g.consecutive_pairs]
        constraints += [CageSum(cage.cells, cage.total, g.side) for cage in g.cages]
        constraints += [Filtered(rule.cells, rule_filter(rule, g.side), rule.holds, rule.name)
                        for rule in g.constraints]
    domains = ([range(1, g.side + 1)] * g.n_cells if g.parity is None else
               [g.allowed(c) for c in range(g.n_cells)])
    return CSP.build(domains, constraints, [g.label(c) for c in range(g.n_cells)])


def givens_of(puzzle: Puzzle) -> dict[int, int]:
    """The initial assignment: cell -> given digit."""
    return {cell: d for cell, d in enumerate(puzzle.givens) if d}


def ac3_candidates(puzzle: Puzzle, stats: Stats | None = None) -> list[tuple[int, ...]] | None:
    """Return each cell's candidates after AC-3 alone, or None when AC-3 proves the puzzle has
    no solution.

    A cell whose candidates are one digit is decided; when every cell is decided AC-3 has solved
    the puzzle by itself.

    Args:
        puzzle: the puzzle.
        stats: counters to fill (revisions, checks, max_queue, propagations; the queue length per
            step when ``stats.trace`` is a list); modified in place.

    Returns:
        N**2 increasing tuples of digits (row-major), or None.
    """
    domains = ac3_domains(sudoku_csp(puzzle.geometry), stats, givens_of(puzzle))
    if domains is None:
        return None
    return [tuple(values_of(d)) for d in domains]


def sudoku_solutions(
    puzzle: Puzzle,
    stats: Stats,
    limits: Limits,
    *,
    select: Select,
    order: Order,
    inference: Inference,
) -> Iterator[Grid]:
    """Yield the solutions of ``puzzle`` found by :func:`~sudokit.csp.search.backtracking_search`.

    Raises:
        LimitReached: from ``limits``.
    """
    csp = sudoku_csp(puzzle.geometry)
    for values in backtracking_search(csp, stats, limits, select=select, order=order,
                                      inference=inference, assignment=givens_of(puzzle)):
        yield tuple(values)
