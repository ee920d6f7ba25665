"""The kernel of the XY-Wing and XYZ-Wing, in the search order of
:mod:`sudokit.logic.techniques.wings`.
"""

from __future__ import annotations

from ...fast.bits import lowest_index, popcount
from ...fast.state import ONE, ZERO, jit
from ..kernels.common import meet

__all__ = ["wing"]


@jit
def wing(masks, values, peer_bits, dbits, everywhere, pivot_size, wings, out):
    """The first XY-Wing (pivot of 2) or XYZ-Wing (3) in the order of ``wings._wing``:
    ``out[1:4]`` pivot, pincers. ``peer_bits``: uint64[C, W] each cell's peers as a bitset
    (a cell is not its own peer), ``dbits``: see :func:`fill_digit_bits`, ``everywhere``: uint64[W]
    all ones."""
    n_cells = masks.shape[0]
    share = 1 if pivot_size == 2 else 2
    for pivot in range(n_cells):
        pm = masks[pivot]
        if values[pivot] != 0 or popcount(pm) != pivot_size:
            continue
        n_wings = 0
        for w in range(peer_bits.shape[1]):  # the pivot's peers, ascending
            peers = peer_bits[pivot, w]
            while peers != ZERO:
                c = (w << 6) + lowest_index(peers)
                peers &= peers - ONE
                if (values[c] == 0 and popcount(masks[c]) == 2
                        and popcount(masks[c] & pm) == share):
                    wings[n_wings] = c
                    n_wings += 1
        for i in range(n_wings):
            a = wings[i]
            ma = masks[a]
            for j in range(i + 1, n_wings):
                b = wings[j]
                mb = masks[b]
                z = ma & mb
                if popcount(z) != 1 or ma == mb:
                    continue
                if pivot_size == 2:
                    if (ma | mb) & ~(pm | z) != ZERO or z & pm != ZERO:
                        continue
                    third = everywhere  # the pivot lacks z: not among the cells holding it
                else:
                    if (ma | mb) != pm:
                        continue
                    third = peer_bits[pivot]
                # an open cell holding z, other than the pincers (and the pivot), seeing them
                if meet(dbits[lowest_index(z)], peer_bits[a], peer_bits[b], third):
                    out[1] = pivot
                    out[2] = a
                    out[3] = b
                    return True
    return False
