"""Kernel of the rule forcing chains' singles: digits placed, then the singles that follow from
the cells that lost candidates, wave after wave to their fixpoint (:func:`settle`, the compiled
:func:`sudokit.logic.chains.dynamic.settle` without its records).
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits, lowest_bit

__all__ = ["settle"]


@jit
def settle(masks, values, touched, n_pend, grid, scratch):
    """Place the ``n_pend`` first pending singles of ``scratch``, then the naked and hidden
    singles that follow from the ``touched`` cells, wave after wave to their fixpoint, as
    :func:`sudokit.logic.chains.dynamic.settle`.

    Args:
        masks: int64[C] candidates (bit d for digit d+1), changed in place.
        values: int64[C] placed digits (0 open), changed in place.
        touched: uint8[C] 1 for each cell that lost candidates (changed: used up).
        n_pend: how many (cell, digit) of ``scratch``'s pending arrays to place first.
        grid: a :class:`~sudokit.logic.chains._forcing_kernel.ForcingGrid` as a plain tuple.
        scratch: a :class:`~sudokit.logic.chains._forcing_kernel.SinglesScratch` as a plain
            tuple (its ``touched`` unused); the pending digits 0-based.

    Returns:
        whether a contradiction comes (a cell without a candidate, a digit placed twice in a
        unit or a unit without a place for a digit). Singles only remove candidates, so the
        fixpoint and whether a contradiction comes do not depend on the order they are taken.
    """
    peers, units, units_of, n = grid
    _unused, pend_c, pend_d, unit_done = scratch
    while True:
        while n_pend > 0:
            n_pend -= 1
            c = pend_c[n_pend]
            d = pend_d[n_pend]
            if values[c]:
                if values[c] != d + 1:
                    return True
                continue
            bit = 1 << d
            if not masks[c] & bit:
                return True
            values[c] = d + 1
            masks[c] = bit
            for j in range(peers.shape[1]):
                p = peers[c, j]
                if p < 0:
                    break
                if masks[p] & bit:
                    if values[p]:
                        return True
                    masks[p] &= ~bit
                    touched[p] = 1
                    if masks[p] == 0:
                        return True
        n_found = _singles(masks, values, touched, units, units_of, n, pend_c, pend_d,
                           unit_done)
        if n_found < 0:
            return True
        if n_found == 0:
            return False
        n_pend = n_found
        for i in range(n_found):
            touched[pend_c[i]] = 1


@jit
def _singles(masks, values, touched, units, units_of, n, pend_c, pend_d, unit_done):
    """Naked singles among the touched cells, then hidden singles in their units, into the
    pending arrays; the touched cells cleared. Returns how many, or -1 on a unit without a place
    for a digit."""
    c_count = masks.size
    for u in range(unit_done.size):
        unit_done[u] = 0
    n_found = 0
    for c in range(c_count):
        if not touched[c]:
            continue
        m = masks[c]
        if not values[c] and m and not m & (m - 1):
            pend_c[n_found] = c
            pend_d[n_found] = lowest_bit(m)
            n_found += 1
        for j in range(units_of.shape[1]):
            u = units_of[c, j]
            if u < 0:
                break
            unit_done[u] = 1
        touched[c] = 0
    for u in range(unit_done.size):
        if not unit_done[u]:
            continue
        once = 0
        twice = 0
        placed = 0
        for i in range(n):
            x = units[u, i]
            if values[x]:
                placed |= masks[x]
                continue
            twice |= once & masks[x]
            once |= masks[x]
        if count_bits(once | placed) != n:
            return -1
        single = once & ~twice & ~placed
        while single:
            b = lowest_bit(single)
            single &= single - 1
            for i in range(n):
                x = units[u, i]
                if not values[x] and (masks[x] >> b) & 1:
                    pend_c[n_found] = x
                    pend_d[n_found] = b
                    n_found += 1
                    break
    return n_found
