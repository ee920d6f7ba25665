"""The kernels of the candidates state (:mod:`sudokit.logic.state`): the givens placed with
their peers' candidates removed, and the cells of each candidate.
"""

from __future__ import annotations

import numpy as np

from ..fast.bits import lowest_index
from ..fast.state import ONE, ZERO, jit
from .kernels.common import bit_at

__all__ = ["digit_cells", "place_givens"]


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
