"""Cells that must differ through the drawn rules: extra peers for the technique engine.

A human sees more than the units: the cells of a renban, of a thermometer or on the two sides
of a Kropki dot never hold the same digit; a zipper line's middle differs from every other
cell of the line (a pair adds up to it); a palindrome's or a clone's cell is equal to its
partner, so it sees its partner's peers too. :func:`rule_peers` lists these pairs, and
:func:`logic_geometry` adds them to a grid as two-cell extra regions, so every classic
technique (basic elimination after a placement, the singles, subsets, fish, wings, chains,
forcing chains) sees them, like the anti-knight rule's peers.

Found from the rules' own filters (:mod:`sudokit.logic.rule_filters`), kind by kind alike:

* a rule keeps two of its cells different when its filter finds no filling with both equal
  to d, for every digit d (the filters are exact on that question);
* a chain of strict order relations (a thermometer: each step increases) keeps apart any two
  cells one of which the chain reaches from the other;
* cells bound equal (palindrome, clone: the relation allows only equal pairs) share their
  peers.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

from ..model.geometry import Geometry
from ..model.rules import Relation
from .rule_filters import filters

__all__ = ["logic_geometry", "rule_peers"]

_MAX_CELLS = 16
"""Rules over more cells are not tested pair by pair (their pairs mostly share a unit)."""


@cache
def logic_geometry(geometry: Geometry) -> Geometry:
    """The grid the technique engine works on: ``geometry`` with :func:`rule_peers` as extra
    two-cell regions (the same grid when the rules add no peer)."""
    pairs = rule_peers(geometry)
    if not pairs:
        return geometry
    return Geometry.of(geometry.box_rows, geometry.box_cols, geometry.variant,
                       regions=geometry.regions, cages=geometry.cages, parity=geometry.parity,
                       layout=geometry.layout, extra_regions=geometry.extra_regions + pairs,
                       constraints=geometry.constraints)


def rule_peers(geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """The pairs ``(a, b)``, ``a < b``, of cells that are not peers but the rules keep
    different (see the module), ascending."""
    peers = [set(p) for p in geometry.peers]
    found = set(_by_filters(geometry, peers)) | set(_by_order(geometry))
    found |= set(_by_equality(geometry, peers, found))
    return tuple(sorted((a, b) for a, b in found if b not in peers[a]))


def _by_filters(geometry: Geometry, peers: list[set[int]]) -> Iterable[tuple[int, int]]:
    side = geometry.side
    full = (1 << (side + 1)) - 2
    for rule, filtered in filters(geometry):
        cells = rule.cells
        if len(cells) > _MAX_CELLS:
            continue
        for i, j in combinations(range(len(cells)), 2):
            a, b = sorted((cells[i], cells[j]))
            if b in peers[a]:
                continue
            domains = [full] * len(cells)
            for d in range(1, side + 1):
                domains[i] = domains[j] = 1 << d
                if filtered(domains) is not None:
                    break
            else:
                yield a, b


def _by_order(geometry: Geometry) -> Iterable[tuple[int, int]]:
    """Cells joined by a path of strict order relations (every pair ``x < y``, or every pair
    ``x > y``): the later cell of the path is larger (smaller) than the earlier."""
    above: dict[int, set[int]] = {}
    for rule in geometry.constraints:
        if not isinstance(rule, Relation) or not rule.pairs:
            continue
        a, b = rule.cells
        if all(x < y for x, y in rule.pairs):
            above.setdefault(a, set()).add(b)
        elif all(x > y for x, y in rule.pairs):
            above.setdefault(b, set()).add(a)
    for start in above:
        reached, todo = set(), list(above[start])
        while todo:
            cell = todo.pop()
            if cell not in reached:
                reached.add(cell)
                todo.extend(above.get(cell, ()))
        yield from ((min(start, c), max(start, c)) for c in reached if c != start)


def _by_equality(geometry: Geometry, peers: list[set[int]],
                 differ: set[tuple[int, int]]) -> Iterable[tuple[int, int]]:
    """Each cell of a class of cells bound equal differs from what any cell of its class
    differs from."""
    root = list(range(geometry.n_cells))

    def find(c: int) -> int:
        while root[c] != c:
            root[c] = root[root[c]]
            c = root[c]
        return c

    for rule in geometry.constraints:
        if isinstance(rule, Relation) and rule.pairs and all(x == y for x, y in rule.pairs):
            root[find(rule.cells[0])] = find(rule.cells[1])
    classes: dict[int, list[int]] = {}
    for c in range(geometry.n_cells):
        classes.setdefault(find(c), []).append(c)
    extra: dict[int, set[int]] = {}
    for a, b in differ:
        extra.setdefault(a, set()).add(b)
        extra.setdefault(b, set()).add(a)
    for members in classes.values():
        if len(members) < 2:
            continue
        seen = set().union(*(peers[c] | extra.get(c, set()) for c in members)) - set(members)
        yield from ((min(c, p), max(c, p)) for c in members for p in seen)
