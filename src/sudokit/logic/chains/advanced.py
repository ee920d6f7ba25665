"""The four rules Sudoku Explainer applies inside a "Dynamic Forcing Chains (+)" propagation:
locked candidates, hidden pairs, naked pairs and X-Wings, on the working grid of an assumption
(:func:`~sudokit.logic.chains.implications.chain_implications` at ``level`` 1).

Each elimination is returned with its *rule parents*: the off potentials (removals since the
assumption) the pattern relies on, as SE's ``getRuleParents`` of ``LockingHint``,
``HiddenSetHint`` and ``NakedSetHint`` name them (``Chaining.getAdvancedPotentials``, SE 1.2.1).
A pattern relying on no removal is left out (it was there before the assumption). The rules are
tried in SE's order and the first one with eliminations gives all of them.
"""

from __future__ import annotations

from itertools import combinations

from ...model.geometry import Geometry
from ..state import bits

__all__ = ["advanced_offs"]

Offs = list[tuple[int, tuple[int, ...]]]


def advanced_offs(geometry: Geometry, masks0: list[int], masks: list[int],
                  before: list[int] | None = None, now: list[int] | None = None) -> Offs:
    """Eliminations ``(off potential, parents)`` of the first of the four rules that has any
    on ``masks`` (the working grid; ``masks0``: the grid before the assumption).

    ``before`` and ``now``: per digit (0-based) the cells holding it in ``masks0`` and in
    ``masks`` (bit c for cell c), when the caller keeps them (computed otherwise)."""
    n = geometry.side
    cells = (_digit_cells(n, masks0) if before is None else before,
             _digit_cells(n, masks) if now is None else now)
    if cells[0] == cells[1]:
        return []  # no removal since the assumption: no pattern has a parent
    for rule in (_locked, _hidden_pairs, _naked_pairs, _x_wings):
        found = rule(geometry, masks0, masks, cells)
        if found:
            return found
    return []


def _kinds(geometry: Geometry) -> tuple[range, range, range]:
    n = geometry.side
    return range(2 * n, 3 * n), range(0, n), range(n, 2 * n)  # boxes, rows, columns


_UNIT_BITS: dict[int, list[int]] = {}


def _unit_bits(geometry: Geometry) -> list[int]:
    """Per unit, its cells as one int (bit c for cell c)."""
    found = _UNIT_BITS.get(id(geometry))
    if found is None:
        found = _UNIT_BITS[id(geometry)] = [sum(1 << c for c in u) for u in geometry.units]
    return found


def _digit_cells(n: int, masks: list[int]) -> list[int]:
    """Per digit (0-based), the cells holding it as a candidate, as one int."""
    out = [0] * n
    for c, m in enumerate(masks):
        while m:
            low = m & -m
            out[low.bit_length() - 1] |= 1 << c
            m ^= low
    return out


def _offs(n: int, d0: int, cells: int) -> list[int]:
    return [(c * n + d0) << 1 for c in bits(cells)]


Cells = tuple[list[int], list[int]]
"""Per digit (0-based), the cells holding it before the assumption and now (bit c for cell c)."""


def _locked(geometry: Geometry, masks0: list[int], masks: list[int], cells: Cells) -> Offs:
    """Pointing (box then column, box then row) and claiming (column, row then box)."""
    n = geometry.side
    ub = _unit_bits(geometry)
    before, now = cells
    boxes, rows, cols = _kinds(geometry)
    out: Offs = []
    changed = [d0 for d0 in range(n) if before[d0] != now[d0]]  # no removal: no parent
    for first, second in ((boxes, cols), (boxes, rows), (cols, boxes), (rows, boxes)):
        for u in first:
            for d0 in changed:
                if not (before[d0] ^ now[d0]) & ub[u]:
                    continue
                places = now[d0] & ub[u]
                if places & (places - 1) == 0:
                    continue
                for v in second:
                    if places & ~ub[v]:
                        continue
                    gone = now[d0] & ub[v] & ~ub[u]
                    parents = tuple(_offs(n, d0, before[d0] & ~now[d0] & ub[u] & ~ub[v]))
                    if gone and parents:
                        out += [(q, parents) for q in _offs(n, d0, gone)]
    return out


def _hidden_pairs(geometry: Geometry, masks0: list[int], masks: list[int], at: Cells) -> Offs:
    n = geometry.side
    ub = _unit_bits(geometry)
    before, now = at
    out: Offs = []
    for kind in _kinds(geometry):
        for u in kind:
            gone_here = [(before[d0] ^ now[d0]) & ub[u] for d0 in range(n)]
            if not any(gone_here):
                continue  # no removal in the unit: no parent
            where = [now[d0] & ub[u] for d0 in range(n)]
            for a, b in combinations(range(n), 2):
                cells = where[a]
                if cells.bit_count() != 2 or where[b] != cells or not (
                        gone_here[a] | gone_here[b]):
                    continue
                keep = (1 << a) | (1 << b)
                gone = [((c * n + x) << 1) for c in bits(cells) for x in range(n)
                        if (masks[c] & ~keep) >> x & 1]
                parents = tuple(_offs(n, a, before[a] & ub[u] & ~cells)
                                + _offs(n, b, before[b] & ub[u] & ~cells))
                if gone and parents:
                    out += [(q, parents) for q in gone]
    return out


def _naked_pairs(geometry: Geometry, masks0: list[int], masks: list[int], _cells: Cells) -> Offs:
    n, units = geometry.side, geometry.units
    out: Offs = []
    for kind in _kinds(geometry):
        for u in kind:
            pairs = [c for c in units[u] if masks[c].bit_count() == 2]
            for c1, c2 in combinations(pairs, 2):
                pair = masks[c1]
                if masks[c2] != pair or (masks0[c1] == pair and masks0[c2] == pair):
                    continue  # not a pair, or one that relies on no removal
                gone = [((c * n + x) << 1) for c in units[u] if c not in (c1, c2)
                        for x in range(n) if (masks[c] & pair) >> x & 1]
                parents = tuple(((c * n + x) << 1) for c in (c1, c2) for x in range(n)
                                if (masks0[c] & ~pair) >> x & 1)
                if gone and parents:
                    out += [(q, parents) for q in gone]
    return out


def _x_wings(geometry: Geometry, masks0: list[int], masks: list[int], cells: Cells) -> Offs:
    n = geometry.side
    ub = _unit_bits(geometry)
    before, now = cells
    _boxes, rows, cols = _kinds(geometry)
    out: Offs = []
    for base, cover in ((rows, cols), (cols, rows)):
        for d0 in range(n):
            if before[d0] == now[d0]:
                continue  # no removal: no parent
            spots = [now[d0] & ub[u] for u in base]
            lines = [i for i, s in enumerate(spots) if 0 < s.bit_count() <= 2]  # else 3 covers
            for i, j in combinations(lines, 2):
                both = spots[i] | spots[j]
                covers = [v for v in cover if both & ub[v]]
                if len(covers) != 2:
                    continue
                inside = ub[covers[0]] | ub[covers[1]]
                bases = ub[base[i]] | ub[base[j]]
                gone = now[d0] & inside & ~bases
                parents = tuple(_offs(n, d0, before[d0] & ~now[d0] & bases & ~inside))
                if gone and parents:
                    out += [(q, parents) for q in _offs(n, d0, gone)]
    return out
