"""Helpers shared by the technique kernels: those of the compiled ladder (uint64 candidate
masks, bit d - 1 for digit d) and those of the chain kernels (int64 masks).
"""

from __future__ import annotations

import numpy as np

from ...fast.bits import lowest_index
from ...fast.state import ONE, ZERO, jit

__all__ = ["bit_at", "count_bits", "fill_digit_bits", "fill_places", "is_single", "lowest_bit",
           "meet", "next_combination"]


@jit
def bit_at(i):
    return ONE << np.uint64(i)


@jit
def is_single(m):
    return m != ZERO and (m & (m - ONE)) == ZERO


@jit
def meet(a, b, c, d):
    """Whether the bitsets a & b & c & d (uint64[W] each) share a cell."""
    for w in range(a.shape[0]):
        if a[w] & b[w] & c[w] & d[w] != ZERO:
            return True
    return False


@jit
def next_combination(idx, k, n):
    """Advance ``idx[:k]`` (ascending indices below n) to the next combination in the order of
    :func:`itertools.combinations`; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@jit
def fill_places(masks, values, units, places):
    """``places[u, d]``: bitmask over positions of unit u where digit d+1 is an open
    candidate (as :attr:`~sudokit.logic.state.Board.places`)."""
    n_units, side = units.shape
    for u in range(n_units):
        for d in range(side):
            places[u, d] = ZERO
        for i in range(side):
            cell = units[u, i]
            if values[cell] == 0:
                m = masks[cell]
                while m != ZERO:
                    d = lowest_index(m)
                    places[u, d] |= bit_at(i)
                    m &= m - ONE


@jit
def fill_digit_bits(masks, values, dbits):
    """``dbits[d, w]``: word w of the bitset over cells of the open cells holding digit d+1
    (cell c is bit c % 64 of word c // 64)."""
    dbits[:, :] = ZERO
    for cell in range(masks.shape[0]):
        if values[cell] == 0:
            w = cell >> 6
            b = bit_at(cell & 63)
            m = masks[cell]
            while m != ZERO:
                dbits[lowest_index(m), w] |= b
                m &= m - ONE


@jit
def count_bits(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@jit
def lowest_bit(m):
    i = 0
    while not (m >> i) & 1:
        i += 1
    return i
