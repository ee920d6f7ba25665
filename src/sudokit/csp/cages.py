"""Killer cages as digit combinations: which digit sets reach a total, and which candidates of a
cage's cells some assignment of the whole cage supports (generalised arc consistency).

A cage of k cells with total T holds k distinct digits adding up to T, so its digits form one of
the k-subsets of 1..N with sum T (:func:`cage_combinations`). The conjunction "all different and
sum T" over the cage is made generalised arc consistent (GAC: every value left in a domain
belongs to some assignment of the whole cage that satisfies it) by :func:`cage_supports`, a
dynamic programme over the cells in order whose states are the sets of digits placed so far
(the layered graph of a multi-valued decision diagram; Régin 1994 for GAC of all-different,
Trick 2003 for sums by dynamic programming, Bessiere 2006 "Constraint propagation" in the
Handbook of Constraint Programming for GAC of n-ary constraints). A cage has at most N cells,
so its states are digit sets reachable from the domains: 2**9 at most on 9x9.

Masks follow the CSP core's convention: bit ``d`` is digit ``d`` (bit 0 unused).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

__all__ = ["cage_combinations", "cage_masks", "cage_supports"]


@lru_cache(maxsize=4096)
def cage_combinations(size: int, total: int, side: int) -> tuple[tuple[int, ...], ...]:
    """Every set of ``size`` distinct digits of 1..``side`` adding up to ``total``, increasing.

    >>> cage_combinations(2, 4, 9), len(cage_combinations(3, 15, 9))
    (((1, 3),), 8)
    """
    if size > side or size < 0:
        return ()
    return tuple(c for c in combinations(range(1, side + 1), size) if sum(c) == total)


@lru_cache(maxsize=4096)
def cage_masks(size: int, total: int, side: int) -> frozenset[int]:
    """The digit sets of :func:`cage_combinations` as masks (bit d for digit d)."""
    return frozenset(sum(1 << d for d in c) for c in cage_combinations(size, total, side))


def cage_supports(domains: Sequence[int], total: int, side: int) -> tuple[int, ...] | None:
    """Return the GAC domains of a cage: per cell, the digits of its domain that some assignment
    of distinct digits, one per cell from its domain, adding up to ``total`` uses.

    Args:
        domains: per cage cell, its candidates as a mask (bit d for digit d).
        total: the cage's sum.
        side: N (digits 1..N).

    Returns:
        The supported masks, parallel to ``domains`` (each a subset of its domain), or None when
        no assignment of the cage exists.

    >>> cage_supports([0b1110, 0b1110], 4, 9)  # two cells of {1, 2, 3} adding up to 4
    (10, 10)
    """
    k = len(domains)
    finals = cage_masks(k, total, side)
    if not finals:
        return None
    # backward: the digit sets of cells 0..i-1 from which cells i..k-1 can complete a final set
    union = 0
    for d in domains:
        union |= d
    need: list[set[int]] = [set() for _ in range(k + 1)]
    need[k] = {m for m in finals if m & union == m}
    for i in range(k - 1, -1, -1):
        dom, out, below = domains[i], set(), need[i + 1]
        for m in below:
            bits = m & dom
            while bits:
                b = bits & -bits
                bits ^= b
                out.add(m ^ b)
        need[i] = out
    if 0 not in need[0]:
        return None
    # forward: from the reachable sets that can complete, the digits each cell uses
    supports = [0] * k
    layer = {0}
    for i in range(k):
        dom, nxt, keep, used = domains[i], set(), need[i + 1], 0
        for m in layer:
            bits = dom & ~m
            while bits:
                b = bits & -bits
                bits ^= b
                if m | b in keep:
                    nxt.add(m | b)
                    used |= b
        supports[i] = used
        layer = nxt
    return tuple(supports)
