"""The kernel of the ALS wings (WXYZ-Wing, VWXYZ-Wing), in the search order of
:mod:`sudokit.logic.techniques.als_wings`, over the sets of
:func:`~sudokit.logic.techniques._als_kernel.enumerate_als` (see :mod:`._als_kernel` for
the arrays).
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits
from ._als_kernel import _first_place, _inside, _sees_places

__all__ = ["als_wing_best"]


@jit
def _wing_count(cells, masks, values, sees, peers, a, pivot, x, z, double, digits_a, n):
    """The number of eliminations of an ALS wing (as
    :func:`sudokit.logic.techniques.als_wings._wing_eliminations` lists them). A target sees
    the pivot (x, z) or every place of its digit in the set (the other digits), so only the
    peers of the pivot or of the digit's first place in the set are tried."""
    count = 0
    for d in range(n):
        if not (digits_a >> d) & 1:
            continue
        if d == x or d == z:
            if d == x and not double:
                continue
            by_pivot = True
        elif double:
            by_pivot = False
        else:
            continue
        home = pivot if by_pivot else _first_place(cells, masks, a, d)
        for j in range(peers.shape[1]):
            c = peers[home, j]
            if c < 0:
                break
            if values[c] or not (masks[c] >> d) & 1 or c == pivot or _inside(cells, a, c):
                continue
            if _sees_places(c, cells, masks, sees, a, d):
                count += 1
    return count


@jit
def als_wing_best(cells, digits, k, size, masks, values, sees, peers, ratings, n, bivalue):
    """The ALS wing of :func:`sudokit.logic.techniques.als_wings.als_wing` with ALS of ``size``
    cells: the first of the lowest key (rating, fewest eliminations negated) over the sets in
    order and their pivots ascending. ``ratings[b]`` is the rating when the largest ALS cell
    holds b candidates; ``bivalue`` lists the open cells with two candidates, ascending;
    ``peers`` is the grid's int32[C, P] peer lists.
    Returns ``(set, pivot)`` or ``(-1, -1)``."""
    best_rating = 0.0
    best_count = 0
    best_a = -1
    best_pivot = -1
    for a in range(k):
        if cells[a, size - 1] < 0 or (size < cells.shape[1] and cells[a, size] >= 0):
            continue
        biggest = 0
        for i in range(size):
            biggest = max(biggest, count_bits(masks[cells[a, i]]))
        rating = ratings[biggest]
        if best_a >= 0 and rating > best_rating:
            continue
        for pivot in bivalue:
            m = masks[pivot]
            if m & ~digits[a] or _inside(cells, a, pivot):
                continue
            d1 = 0
            while not (m >> d1) & 1:
                d1 += 1
            d2 = d1 + 1
            while not (m >> d2) & 1:
                d2 += 1
            r1 = _sees_places(pivot, cells, masks, sees, a, d1)
            r2 = _sees_places(pivot, cells, masks, sees, a, d2)
            if not (r1 or r2):
                continue
            x, z = (d1, d2) if r1 else (d2, d1)
            count = _wing_count(cells, masks, values, sees, peers, a, pivot, x, z,
                                r1 and r2, digits[a], n)
            if count == 0:
                continue
            if best_a < 0 or rating < best_rating or (rating == best_rating
                                                      and -count < -best_count):
                best_rating = rating
                best_count = count
                best_a = a
                best_pivot = pivot
    return best_a, best_pivot
