"""Kernel of the rule forcing chains' singles: digits placed, then the singles that follow from
the cells that lost candidates, wave after wave to their fixpoint (:func:`settle`, the compiled
:func:`sudokit.logic.chains.dynamic.settle` without its records).
"""

from __future__ import annotations

from ...fast.state import jit
from ._forcing_kernel import singles

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
        n_found = singles(masks, values, touched, units, units_of, n, pend_c, pend_d,
                          unit_done)
        if n_found < 0:
            return True
        if n_found == 0:
            return False
        n_pend = n_found
        for i in range(n_found):
            touched[pend_c[i]] = 1
