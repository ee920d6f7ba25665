"""Kernels of the naked and hidden subsets, in the search order of
:mod:`sudokit.logic.techniques.subsets`, with the unit memo of :func:`~sudokit.logic._ladder_kernel.first_found` (units and digits that found nothing).
"""

from __future__ import annotations

from ...fast.bits import lowest_index, popcount
from ...fast.state import ONE, ZERO, jit
from ..kernels.common import bit_at

__all__ = ["hidden_subset", "naked_subset", "refresh_units"]


@jit
def refresh_units(masks, values, units, unit_memo):
    """Keep ``unit_memo``'s marks (column N) only for the units whose cells are unchanged:
    columns 0..N-1 hold each cell's mask, with bit 63 set when it is placed (sides up to 32)."""
    n_units, side = units.shape
    placed = bit_at(63)
    for u in range(n_units):
        same = True
        for i in range(side):
            cell = units[u, i]
            seen = masks[cell] | placed if values[cell] != 0 else masks[cell]
            if unit_memo[u, i] != seen:
                same = False
                unit_memo[u, i] = seen
        if not same:
            unit_memo[u, side] = ZERO


@jit
def _next_subset(vals, n, size, idx, resume):
    """Advance ``idx[:size]`` (ascending indices below n; ``resume`` False: start) to the next
    combination, in :func:`itertools.combinations` order, whose masks ``vals[idx]`` join into
    exactly ``size`` bits; return that union, or 0 when there is none. Prefixes whose union
    already has more than ``size`` bits are skipped whole (no superset can have ``size``)."""
    if resume:
        depth = size - 1
        idx[depth] += 1
    else:
        depth = 0
        idx[0] = 0
    while depth >= 0:
        if idx[depth] > n - size + depth:
            depth -= 1
            if depth >= 0:
                idx[depth] += 1
            continue
        union = ZERO
        for j in range(depth + 1):
            union |= vals[idx[j]]
        count = popcount(union)
        if count > size or (depth == size - 1 and count != size):
            idx[depth] += 1
            continue
        if depth == size - 1:
            return union
        idx[depth + 1] = idx[depth] + 1
        depth += 1
    return ZERO


@jit
def naked_subset(masks, values, units, size, idx, small, vals, unit_memo, flag, out):
    """The first naked subset in the order of ``subsets.naked_subset``: ``out[1]`` its unit,
    ``out[2:2 + size]`` its cells. Units whose ``unit_memo`` (see :func:`first_found`) has
    ``flag`` are skipped; units without one get it."""
    n_units, side = units.shape
    for u in range(n_units):
        if unit_memo[u, side] & flag != ZERO:
            continue
        n_open = 0
        n_small = 0
        for i in range(side):
            cell = units[u, i]
            if values[cell] == 0:
                n_open += 1
                if popcount(masks[cell]) <= size:
                    small[n_small] = cell
                    vals[n_small] = masks[cell]
                    n_small += 1
        if n_open <= size or n_small < size:
            unit_memo[u, side] |= flag
            continue
        union = _next_subset(vals, n_small, size, idx, False)
        while union != ZERO:
            for i in range(side):
                cell = units[u, i]
                if values[cell] != 0 or masks[cell] & union == ZERO:
                    continue
                inside = False
                for j in range(size):
                    if small[idx[j]] == cell:
                        inside = True
                if not inside:
                    out[1] = u
                    for j in range(size):
                        out[2 + j] = small[idx[j]]
                    return True
            union = _next_subset(vals, n_small, size, idx, True)
        unit_memo[u, side] |= flag
    return False


@jit
def hidden_subset(masks, units, places, size, idx, digits, vals, unit_memo, flag, out):
    """The first hidden subset in the order of ``subsets.hidden_subset``: ``out[1]`` its
    unit, ``out[2:2 + size]`` its digits - 1. Units whose ``unit_memo`` (see
    :func:`first_found`) has ``flag`` are skipped; units without one get it."""
    n_units, side = units.shape
    for u in range(n_units):
        if unit_memo[u, side] & flag != ZERO:
            continue
        n_digits = 0
        for d in range(side):
            count = popcount(places[u, d])
            if 2 <= count <= size:
                digits[n_digits] = d
                vals[n_digits] = places[u, d]
                n_digits += 1
        if n_digits < size:
            unit_memo[u, side] |= flag
            continue
        union = _next_subset(vals, n_digits, size, idx, False)
        while union != ZERO:
            keep = ZERO
            for j in range(size):
                keep |= bit_at(digits[idx[j]])
            m = union
            while m != ZERO:
                if masks[units[u, lowest_index(m)]] & ~keep != ZERO:
                    out[1] = u
                    for j in range(size):
                        out[2 + j] = digits[idx[j]]
                    return True
                m &= m - ONE
            union = _next_subset(vals, n_digits, size, idx, True)
        unit_memo[u, side] |= flag
    return False
