"""A long weighted sum rewritten over the complement of its cells in whole units (the 45 rule
applied to a drawn sum, sigh's ISS does the same with its sum handlers' complement cells).

Every unit of an N x N grid sums to ``N(N+1)/2``. When the cells of a weighted sum that share
one coefficient ``k`` (a set S) lie in k_u disjoint units of one family (rows, columns or
boxes) whose union H holds few cells outside S, then ``k * sum(S) = k * (k_u * N(N+1)/2 -
sum(H - S))``: the sum holds exactly when the rewritten one does, over ``H - S`` instead of S.
A pill arrow whose line runs through every other cell of the grid ("the 3-digit number is the
sum of the other 78 cells") becomes ``101 a + 11 b + 2 c = 405`` over the pill's three cells,
which the sum filter solves outright, where the 81-cell sum's bounds say nothing.

The rewritten sum replaces the drawn one in the compiled engine's arrays
(:func:`sudokit.fast.drawn.drawn_for`) when it has at most half its cells. Every solution the
engine finds is still checked against the drawn rule itself (:func:`sudokit.model.puzzle.
rules_ok`).
"""

from __future__ import annotations

from functools import lru_cache

from ..model.geometry import Geometry
from ..model.rules import WeightedSum

__all__ = ["DIFFERENCE_CAP", "complement_sum", "sum_differences"]


@lru_cache(maxsize=64)
def _families(geometry: Geometry) -> tuple[tuple[tuple[frozenset[int], ...], dict[int, int]], ...]:
    """The unit families whose units are pairwise disjoint (rows, columns, boxes; a samurai
    layout's overlapping grids make its rows overlap: that family is left out), each as its
    units and the unit index of each cell it covers (cached per geometry)."""
    found = []
    for family in (geometry.rows, geometry.cols, geometry.boxes):
        units = tuple(frozenset(u) for u in family)
        if sum(map(len, units)) == len(frozenset().union(*units)):
            found.append((units, {c: i for i, u in enumerate(units) for c in u}))
    return tuple(found)


def _rewrite_once(terms: dict[int, int], total: int, geometry: Geometry
                  ) -> tuple[dict[int, int], int] | None:
    """The shortest rewrite of one coefficient group over one family, if shorter.

    Cells of the union H outside the group S keep their coefficient minus k, which is never 0
    (S holds every cell of coefficient k), so the rewrite's length is known before it is made:
    ``len(terms) - |S| + |H - S|`` minus the other terms' cells inside H.
    """
    side = geometry.side
    best, shortest = None, len(terms)
    for k in set(terms.values()):
        group = {c for c, a in terms.items() if a == k}
        for units, owner in _families(geometry):
            if not all(c in owner for c in group):
                continue
            hit = {owner[c] for c in group}
            inside = sum(1 for c in terms if c not in group and owner.get(c, -1) in hit)
            length = len(terms) - 2 * len(group) + side * len(hit) - inside
            if 0 < length < shortest:
                best, shortest = (k, group, units, hit), length
    if best is None:
        return None
    k, group, units, hit = best
    new = {c: a for c, a in terms.items() if c not in group}
    for c in frozenset().union(*(units[i] for i in hit)) - group:
        new[c] = new.get(c, 0) - k
    unit_sum = side * (side + 1) // 2
    return new, total - k * len(hit) * unit_sum


def complement_sum(rule: WeightedSum, geometry: Geometry) -> WeightedSum | None:
    """The rewrite of ``rule`` over the complement of its coefficient groups (module
    docstring), repeated while it shortens the sum; None unless it has at most half the
    rule's cells.

    Args:
        rule: a drawn weighted sum (distinct cells, non-zero integer coefficients).
        geometry: its grid; only its rows, columns and boxes are read (every unit holds the
            digits 1..N once).

    Returns:
        The equivalent ``WeightedSum`` (same name), or None.
    """
    terms, total = dict(zip(rule.cells, rule.coefficients)), rule.total
    while (step := _rewrite_once(terms, total, geometry)) is not None:
        terms, total = step
    if 2 * len(terms) > len(rule.cells):
        return None
    return WeightedSum.of(sorted(terms.items()), total, rule.name)


DIFFERENCE_CAP = 12
"""The most cells a difference of two weighted sums may have to be kept (see
:func:`sum_differences`)."""


def _difference(a: WeightedSum, b: WeightedSum, ka: dict[int, int], kb: dict[int, int]
                ) -> WeightedSum | None:
    """``a - b`` or ``a + b`` (whichever cancels the cells they share with equal or opposite
    coefficients; ``ka``, ``kb``: their coefficients by cell) when it has fewer cells than
    either and at most ``DIFFERENCE_CAP``."""
    same = sum(1 for c, k in ka.items() if kb.get(c) == k)
    opposite = sum(1 for c, k in ka.items() if kb.get(c) == -k)
    if max(same, opposite) < 2:
        return None
    sign = -1 if same >= opposite else 1
    terms = list(ka.items()) + [(c, sign * k) for c, k in kb.items()]
    rule = WeightedSum.of(terms, a.total + sign * b.total, "implied sum")
    size = len(rule.cells)
    if not rule.cells or size > DIFFERENCE_CAP or size >= min(len(ka), len(kb)):
        return None
    return rule


def sum_differences(sums: list[WeightedSum]) -> list[WeightedSum]:
    """Implied sums from pairs of drawn weighted sums that share cells: two arrows ending on
    one long shaft, ``A = S1 + T`` and ``B = S2 + T``, give ``A - S1 - B + S2 = 0`` over the
    cells outside the shared part (kept when shorter than both and at most
    ``DIFFERENCE_CAP`` cells; a linear combination of true equations, so redundant help for
    the sum filter, never checked as a rule). Only pairs sharing two cells or more are
    compared."""
    coefficients = [dict(zip(one.cells, one.coefficients)) for one in sums]
    holding: dict[int, list[int]] = {}
    for i, one in enumerate(sums):
        for c in one.cells:
            holding.setdefault(c, []).append(i)
    shared: dict[tuple[int, int], int] = {}
    for owners in holding.values():
        for x, i in enumerate(owners):
            for j in owners[x + 1:]:
                shared[i, j] = shared.get((i, j), 0) + 1
    found: dict[tuple[tuple[int, ...], tuple[int, ...], int], WeightedSum] = {}
    for (i, j), count in sorted(shared.items()):
        if count < 2:
            continue
        rule = _difference(sums[i], sums[j], coefficients[i], coefficients[j])
        if rule is not None:
            if rule.coefficients[0] < 0:
                rule = WeightedSum(rule.cells, tuple(-k for k in rule.coefficients),
                                   -rule.total, rule.name)
            found.setdefault((rule.cells, rule.coefficients, rule.total), rule)
    return list(found.values())
