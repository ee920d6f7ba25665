"""The givens of a 9x9 puzzle placed word-wise: the start state of :mod:`sudokit.fast.nine`.

Placed one at a time, each given clears its digit from its row, column and box and its cell
from the other digits, behind a branch on every cell. Here one pass over the 81 cells collects,
per digit, the band words of the cells given that digit (bit ``9 * row_in_band + col``, as in
:mod:`sudokit.fast.nine`), and each digit's words follow at once: the empty cells outside the
rows, boxes and columns of its givens, plus its givens. A digit given twice in a unit shows as
fewer rows, boxes or columns touched than givens. The state is the one the placements one at a
time give (380 -> 155 ns a puzzle; docs/benchmarks.md, "Hard 9x9").
"""

from __future__ import annotations

import numpy as np

from .bits import lowest_index, popcount
from .state import jit

__all__ = ["start_words"]

_BAND = (1 << 27) - 1
_BOX = np.array([sum(7 << (9 * r + 3 * k) for r in range(3)) for k in range(3)], np.int64)


@jit
def _count(x):
    return popcount(np.uint64(x))


@jit
def _lines(g):
    """Return the rows and boxes of a band word that hold one of its cells (27-bit mask) and
    their cells counted (9 per row and per box)."""
    rows = boxes = 0
    for r in range(3):
        rows |= (511 << (9 * r)) * (((g >> (9 * r)) & 511) != 0)
    for k in range(3):
        boxes |= _BOX[k] * ((g & _BOX[k]) != 0)
    return rows | boxes, _count(rows) + _count(boxes)


@jit
def start_words(s, scratch, givens):
    """Write the state of the puzzle ``givens`` before any propagation into ``s``.

    Args:
        s: int64[>= 30] a state of :mod:`sudokit.fast.nine`: words ``3 * d + b`` (digit d + 1,
            band b) and ``27 + b`` (unsolved cells of band b) are written, no other.
        scratch: int64[>= 82] work space (overwritten).
        givens: uint8[81], 0 for an empty cell.

    Returns:
        The number of candidates the givens remove (of 729), or -1 if a digit is given twice
        in a row, column or box or a given is above 9 (``s`` is then meaningless).
    """
    for k in range(30):
        scratch[k] = 0  # scratch[3 * v + b]: cells of band b given v (v = 0: empty)
    top = 0
    for b in range(3):
        empty = 0
        for i in range(27):
            empty |= np.int64(givens[27 * b + i] == 0) << i
        scratch[b] = empty
        x = _BAND & ~empty
        while x != 0:
            i = lowest_index(np.uint64(x))
            x &= x - 1
            v = np.int64(givens[27 * b + i])
            top = max(top, v)
            scratch[min(3 * v + b, 81)] |= np.int64(1) << i
    e0, e1, e2 = scratch[0], scratch[1], scratch[2]
    s[27], s[28], s[29] = e0, e1, e2
    ok = top <= 9
    left = 0
    for d in range(9):
        g0, g1, g2 = scratch[3 * d + 3], scratch[3 * d + 4], scratch[3 * d + 5]
        c = (g0 | g1 | g2 | (g0 | g1 | g2) >> 9 | (g0 | g1 | g2) >> 18) & 511  # its columns
        cols = c | c << 9 | c << 18
        n = _count(g0) + _count(g1) + _count(g2)
        l0, k0 = _lines(g0)
        l1, k1 = _lines(g1)
        l2, k2 = _lines(g2)
        ok &= (k0 + k1 + k2 == 18 * n) & (_count(c) == n)  # one given per row, box, column
        w0 = e0 & ~(l0 | cols) | g0
        w1 = e1 & ~(l1 | cols) | g1
        w2 = e2 & ~(l2 | cols) | g2
        s[3 * d], s[3 * d + 1], s[3 * d + 2] = w0, w1, w2
        left += _count(w0) + _count(w1) + _count(w2)
    return 729 - left if ok else -1
