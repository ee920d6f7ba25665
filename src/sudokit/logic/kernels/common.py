"""Helpers of the compiled ladder (uint64 candidate masks, bit d - 1 for digit d) and of the
chain kernels (int64 masks), and the two kernels of the candidates state itself: placing the
givens and the places of each digit.
"""

from __future__ import annotations

import numpy as np

from ...fast.bits import lowest_index
from ...fast.state import ONE, ZERO, jit

__all__ = ["bit_at", "count_bits", "digit_cells", "fill_digit_bits", "fill_places", "is_single",
           "lowest_bit", "meet", "next_combination", "place_givens"]


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
def digit_cells(masks, values, out):
    """Per digit, the open cells holding it as a little-endian bitset over cells.

    Args:
        masks: uint64[C] candidate masks; values: int16[C] placed digits (0 open).
        out: uint8[N, B] with B >= ceil(C / 8), filled: bit c of row d-1 (byte c // 8, bit
            c % 8) is set when cell c is open and holds digit d (N at most 64).
    """
    out[:] = 0
    for cell in range(masks.shape[0]):
        if values[cell] != 0:
            continue
        byte = cell >> 3
        bit = np.uint8(1 << (cell & 7))
        m = masks[cell]
        while m != ZERO:
            d = lowest_index(m)
            m &= m - ONE
            if d < out.shape[0]:
                out[d, byte] |= bit


@jit
def place_givens(masks, values, givens, peers):
    """Place every given in cell order as :meth:`~sudokit.logic.state.Candidates.place` does
    (the digit's bit alone in the cell, the digit removed from the cell's peers).

    Args:
        masks: uint64[C] candidate masks, values: int16[C] placed digits (both modified).
        givens: int16[C], 0 for an empty cell; peers: int32[C, P] each cell's peers padded
            with -1 (:func:`~sudokit.logic.tables.grid_tables`).
    """
    for cell in range(givens.shape[0]):
        d = givens[cell]
        if d == 0:
            continue
        bit = bit_at(d - 1)
        values[cell] = d
        masks[cell] = bit
        for k in range(peers.shape[1]):
            other = peers[cell, k]
            if other < 0:
                break
            masks[other] &= ~bit


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
