"""Filters of a weighted sum whose cells see each other (so hold different digits, which the
layered filter of :mod:`sudokit.fast.lines` does not know), and the helpers every drawn-rule
propagator shares.

* :func:`clique_sum_bounds`: the sum's bounds with each clique's cells of one weight counted as
  distinct digits, and each cell's values within them (every wake, before the filters below);
* :func:`tuple_filter`: a depth-first walk over the sum's candidate tuples with the digits of
  cells that see each other different, while they are few (``TUPLE_LIMIT``): domain
  consistency of the sum with those differences;
* :func:`clique_filter`: the sum's cells split into cliques (cells that all see each other:
  :func:`sudokit.fast.drawn.sum_cliques`), each clique's partial sums over its tuples of
  distinct digits, then the layered filter (Trick 2003) over the cliques: a little killer's
  diagonal through three boxes is filtered as three sums of distinct digits.
"""

from __future__ import annotations

import numpy as np

from .bits import highest_index, lowest_index, popcount
from .state import ONE, ZERO, jit
from .trail import narrow

__all__ = ["CLIQUE_LIMIT", "TUPLE_CELLS", "TUPLE_LIMIT", "clique_filter", "clique_sum_bounds",
           "digits_between", "narrow_to", "term_bounds", "tuple_filter"]


@jit
def narrow_to(tables, state, cell, digits):
    """Narrow ``cell`` to ``digits`` (False when nothing would be left)."""
    return state.cand[cell] & ~digits == ZERO or narrow(tables, state, cell, digits)


@jit
def term_bounds(k, m):
    """The least and largest of ``k * d`` over the digits d of mask ``m``."""
    lo = np.int64(lowest_index(m) + 1)
    hi = np.int64(highest_index(m) + 1)
    return (k * lo, k * hi) if k > 0 else (k * hi, k * lo)


@jit
def digits_between(lo, hi):
    """The mask of digits lo..hi (clipped to 1..64; ZERO when empty)."""
    lo = max(lo, 1)
    hi = min(hi, 64)
    if lo > hi:
        return ZERO
    return (~ZERO >> np.uint64(64 - hi)) & ~((ONE << np.uint64(lo - 1)) - ONE)


@jit
def _group_size(drawn, at, last):
    """The cells from ``at`` in one clique with ``at``'s coefficient (a group of distinct
    digits with one weight)."""
    n = 1
    while at + n < last and drawn.block[at + n] == 0 and drawn.coef[at + n] == drawn.coef[at]:
        n += 1
    return n


@jit
def _distinct(cand, cells, at, n, side):
    """The least and the largest set of ``n`` distinct digits the group's cells can take,
    each cell at least its smallest (largest at most its largest) candidate: greedily, each
    cell takes the smallest (largest) digit not yet taken (ZERO, ZERO when there are not
    enough digits)."""
    least = ZERO
    most = ZERO
    for i in range(n):
        m = cand[cells[at + i]]
        free = ~(least | ((m & (~m + ONE)) - ONE))
        top = ONE << np.uint64(highest_index(m))
        room = (top | (top - ONE)) & ~most
        if free == ZERO or room == ZERO:
            return ZERO, ZERO
        least |= free & (~free + ONE)
        most |= ONE << np.uint64(highest_index(room))
    if highest_index(least) >= side:
        return ZERO, ZERO
    return least, most


@jit
def _digit_sum(m):
    """The sum of the digits of mask ``m``."""
    t = np.int64(0)
    while m != ZERO:
        t += lowest_index(m) + 1
        m &= m - ONE
    return t


@jit
def clique_sum_bounds(tables, state, rules, r):
    """Bounds of a weighted sum, cells that see each other counted as distinct digits (False:
    a contradiction).

    The sum's least and largest value count each group of cells with one coefficient inside
    a clique (:func:`_group_size`) as its least and largest set of distinct digits
    (:func:`_distinct`), any other cell as its smallest and largest candidate. Then a cell
    alone keeps the values the others' bounds leave room for; a cell of a group keeps the
    digits up to its group's largest least digit plus the slack (the group's sum with that
    cell at ``d`` is at least its least sum less that digit plus ``d``), and down to its
    largest set's smallest digit less the slack on the other side (the range reasoning of
    sigh's ISS over its exclusion groups, ``sum_handler.js``). The groups' sets are kept in
    ``rules.picks`` for the second pass.
    """
    drawn, cand, picks = rules.drawn, state.cand, rules.picks
    first, last, total = drawn.start[r], drawn.start[r + 1], drawn.value[r]
    side = tables.units.shape[1]
    low = np.int64(0)
    high = np.int64(0)
    at = first
    j = 0
    while at < last:
        n = _group_size(drawn, at, last)
        k = drawn.coef[at]
        if n == 1:
            tmin, tmax = term_bounds(k, cand[drawn.cells[at]])
        else:
            least, most = _distinct(cand, drawn.cells, at, n, side)
            if least == ZERO:
                return False
            picks[2 * j] = least
            picks[2 * j + 1] = most
            a, b = k * _digit_sum(least), k * _digit_sum(most)
            tmin, tmax = (a, b) if k > 0 else (b, a)
        low += tmin
        high += tmax
        at += n
        j += 1
    if low > total or high < total:
        return False
    at = first
    j = 0
    while at < last:
        n = _group_size(drawn, at, last)
        k = drawn.coef[at]
        if n == 1:
            tmin, tmax = term_bounds(k, cand[drawn.cells[at]])
            least = total - (high - tmax)  # the others at their largest
            most = total - (low - tmin)  # the others at their smallest
            if k > 0:
                keep = digits_between(-((-least) // k), most // k)
            else:
                keep = digits_between(-((-most) // k), least // k)
        else:
            up, down = (total - low, high - total) if k > 0 else (high - total, total - low)
            a = abs(k)
            keep = digits_between(lowest_index(picks[2 * j + 1]) + 1 - down // a,
                                  highest_index(picks[2 * j]) + 1 + up // a)
        for i in range(at, at + n):
            if not narrow_to(tables, state, drawn.cells[i], keep):
                return False
        at += n
        j += 1
    return True


TUPLE_CELLS = 9
"""Longest weighted sum whose cells that see each other are filtered by :func:`tuple_filter` (a
little killer's diagonal of a 9x9 grid)."""
TUPLE_LIMIT = 1 << 12
"""Most candidate tuples (the product of the cells' candidate counts) :func:`tuple_filter` visits.
Measured on the published rule puzzles (``docs/benchmarks.md``): 6 cells and 1,024 tuples
took the disjoint little killer 46,055 nodes, 9 cells and 4,096 tuples 28,617, 16,384 tuples
22,209, 65,536 tuples 15,933 (the same CPU time on the whole set). Once the search branched by
conflict scores, 4,096 tuples against 65,536: the same nodes (geometric mean 1.02x) and CPU
(1.03x) over the set, the disjoint little killer 37,676 -> 27,382 nodes, and Hailstone and
Triple digits solved in 5 and 8 s CPU where 65,536 did not finish in 20-60 s (a long walk on
every wake of 8 little killers)."""


@jit
def tuple_filter(tables, state, rules, r):
    """Domain consistency of a short sum whose cells include two that see each other (so
    hold different digits, which the layered filter does not know): a depth-first walk over
    its candidate tuples, pruned by the sum bounds of the cells left, collects each cell's
    supported digits. 1: filtered, 0: a contradiction, -1: not applicable (no two cells see
    each other, or more than ``TUPLE_LIMIT`` tuples)."""
    drawn, cand, support, spans = rules.drawn, state.cand, state.seg_or, rules.spans
    first, last, total = drawn.start[r], drawn.start[r + 1], drawn.value[r]
    n = last - first
    left, chosen = rules.picks, rules.picks[n:]
    partial, low, high = spans, spans[n + 1:], spans[2 * n + 2:]
    size = 1
    seen = ZERO
    for i in range(n):
        size *= popcount(cand[drawn.cells[first + i]])
        seen |= drawn.seen[first + i]
    if seen == ZERO or size > TUPLE_LIMIT or 3 * (n + 1) > spans.shape[0]:
        return -1
    low[n] = 0
    high[n] = 0
    for i in range(n - 1, -1, -1):
        tmin, tmax = term_bounds(drawn.coef[first + i], cand[drawn.cells[first + i]])
        low[i] = low[i + 1] + tmin
        high[i] = high[i + 1] + tmax
        support[i] = ZERO
    level = 0
    partial[0] = 0
    left[0] = cand[drawn.cells[first]]
    while level >= 0:
        m = left[level]
        if m == ZERO:
            level -= 1
            continue
        bit = m & (~m + ONE)
        left[level] = m ^ bit
        s = partial[level] + drawn.coef[first + level] * np.int64(lowest_index(bit) + 1)
        if s + low[level + 1] > total or s + high[level + 1] < total:
            continue
        chosen[level] = bit
        if level == n - 1:
            for i in range(n):
                support[i] |= chosen[i]
            continue
        level += 1
        partial[level] = s
        m = cand[drawn.cells[first + level]]
        peers = drawn.seen[first + level]
        while peers != ZERO:
            m &= ~chosen[lowest_index(peers)]
            peers &= peers - ONE
        left[level] = m
    for i in range(n):
        if not narrow_to(tables, state, drawn.cells[first + i], support[i]):
            return 0
    return 1


CLIQUE_LIMIT = 1024
"""Most candidate tuples (the product of its cells' candidate counts) of one clique
:func:`clique_filter` walks; a sum with a larger clique is left to the layered filter."""


@jit
def _clique_walk(drawn, cand, picks, at, n, side, sums, mark, support):
    """Walk the tuples of distinct digits of the clique of ``n`` cells stored from ``at``:
    with ``mark``, set ``sums[t]`` for each tuple's weighted partial sum ``t`` (each term
    ``k * d`` less its least, as the layered filter's states); else OR the digits of each tuple
    whose ``sums[t]`` is set into ``support`` (one mask per cell)."""
    left, chosen = picks, picks[n:]
    level = 0
    left[0] = cand[drawn.cells[at]]
    while level >= 0:
        m = left[level]
        if m == ZERO:
            level -= 1
            continue
        bit = m & (~m + ONE)
        left[level] = m ^ bit
        chosen[level] = bit
        if level < n - 1:
            used = ZERO
            for i in range(level + 1):
                used |= chosen[i]
            level += 1
            left[level] = cand[drawn.cells[at + level]] & ~used
            continue
        t = np.int64(0)
        for i in range(n):
            k = drawn.coef[at + i]
            t += k * np.int64(lowest_index(chosen[i]) + 1) - min(k, k * side)
        if mark:
            sums[t] = 1
        elif sums[t]:
            for i in range(n):
                support[i] |= chosen[i]


@jit
def clique_filter(tables, state, rules, r):
    """Domain consistency of a weighted sum split into cliques (cells that all see each
    other: :func:`sudokit.fast.drawn.sum_cliques`), each holding distinct digits: every
    clique's partial sums over its tuples of distinct digits, then the layered filter over the
    cliques (forward reach, backward to the total), then each cell keeps the digits of the
    tuples whose partial sum lies on a path to the total. Stronger than the layered filter over
    cells, which lets cells of a box or a diagonal's disjoint group repeat a digit. 1: filtered,
    0: a contradiction, -1: not applicable (no clique of two cells or more, or a clique with
    more than ``CLIQUE_LIMIT`` tuples)."""
    drawn, cand, rows, support = rules.drawn, state.cand, rules.layers, state.seg_or
    first, last, width = drawn.start[r], drawn.start[r + 1], drawn.states[r]
    side = tables.units.shape[1]
    m = 0
    size = 1
    for i in range(first, last):
        if drawn.block[i]:
            m += 1
            size = 1
        size *= popcount(cand[drawn.cells[i]])
        if size > CLIQUE_LIMIT:
            return -1
    if m == last - first:
        return -1
    rows[:(3 * m + 2) * width] = 0  # cliques' sums, reach m + 1, back m + 1 (offsets below)
    reach, back, bounds = m * width, (2 * m + 1) * width, rules.spans
    rows[reach] = 1
    at = first
    for j in range(m):
        n = _clique_size(drawn, at, last)
        _clique_walk(drawn, cand, rules.picks, at, n, side, rows[j * width:], True, support)
        tlo, thi = _clique_span(drawn, at, n, cand, side)
        bounds[2 * j] = tlo
        bounds[2 * j + 1] = thi
        lo, hi = _reach_range(bounds, j, width)
        for s in range(lo, hi + 1):
            if rows[reach + j * width + s]:
                for t in range(tlo, min(thi, width - 1 - s) + 1):
                    if rows[j * width + t]:
                        rows[reach + (j + 1) * width + s + t] = 1
        at += n
    rows[back + m * width + drawn.offset[r]] = 1
    for j in range(m - 1, -1, -1):  # the sums of clique j on a path: into reach row j + 1
        tlo, thi = bounds[2 * j], bounds[2 * j + 1]
        lo, hi = _reach_range(bounds, j, width)
        allowed = reach + (j + 1) * width
        rows[allowed:allowed + width] = 0
        for s in range(lo, hi + 1):
            if rows[reach + j * width + s]:
                for t in range(tlo, min(thi, width - 1 - s) + 1):
                    if rows[j * width + t] and rows[back + (j + 1) * width + s + t]:
                        rows[back + j * width + s] = 1
                        rows[allowed + t] = 1
    if rows[back] == 0:
        return 0
    at = first
    for j in range(m):
        n = _clique_size(drawn, at, last)
        for i in range(n):
            support[i] = ZERO
        _clique_walk(drawn, cand, rules.picks, at, n, side, rows[reach + (j + 1) * width:],
                     False, support)
        for i in range(n):
            if not narrow_to(tables, state, drawn.cells[at + i], support[i]):
                return 0
        at += n
    return 1


@jit
def _clique_span(drawn, at, n, cand, side):
    """The least and largest partial sum (as :func:`_clique_walk`'s) of the clique's terms,
    each term independently (a range holding every tuple's sum)."""
    tlo = np.int64(0)
    thi = np.int64(0)
    for i in range(n):
        k = drawn.coef[at + i]
        a, b = term_bounds(k, cand[drawn.cells[at + i]])
        base = min(k, k * side)
        tlo += a - base
        thi += b - base
    return tlo, thi


@jit
def _reach_range(bounds, j, width):
    """The least and largest partial sums before clique ``j`` (clipped to the layer)."""
    lo = np.int64(0)
    hi = np.int64(0)
    for i in range(j):
        lo += bounds[2 * i]
        hi += bounds[2 * i + 1]
    return min(lo, width - 1), min(hi, width - 1)


@jit
def _clique_size(drawn, at, last):
    """The number of cells of the clique stored from ``at`` (to the next start or ``last``)."""
    n = 1
    while at + n < last and drawn.block[at + n] == 0:
        n += 1
    return n
