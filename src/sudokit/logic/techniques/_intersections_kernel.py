"""The kernel of locked candidates (pointing and claiming), in the search order of
:mod:`sudokit.logic.techniques.intersections`.
"""

from __future__ import annotations

import numpy as np

from ...fast.state import ZERO, jit

__all__ = ["locked"]


@jit
def locked(places, inter, box_first, out):
    """``inter[i]``: first unit, second unit, first is a box (0/1), positions (in the first
    unit) of the shared cells, positions (in the second) of its cells outside the first. The
    first in the order of ``intersections.pointing``/``claiming``: ``out[1:3]`` = row of
    ``inter``, digit - 1."""
    side = places.shape[1]
    for i in range(inter.shape[0]):
        if (inter[i, 2] == 1) != box_first:
            continue
        first, second = inter[i, 0], inter[i, 1]
        shared = np.uint64(inter[i, 3])
        outside = np.uint64(inter[i, 4])
        for d in range(side):
            inside = places[first, d]
            if inside == ZERO or inside & ~shared != ZERO:
                continue
            if places[second, d] & outside != ZERO:
                out[1] = i
                out[2] = d
                return True
    return False
