"""Kernels of the uniqueness techniques, Unique Rectangle types 1-4 and BUG+1, in the search
order of their Python finders (:mod:`sudokit.logic.techniques.uniqueness`).
"""

from __future__ import annotations

from ...fast.bits import lowest_index, popcount
from ...fast.state import ONE, ZERO, jit
from ..kernels.common import bit_at, meet, next_combination

__all__ = ["bug_plus_one", "unique_rectangle"]


@jit
def _shared_units(cell_units, units, a, b, shared):
    """Fill ``shared`` with the units holding both cells a and b; return how many."""
    count = 0
    for k in range(cell_units.shape[1]):
        u = cell_units[a, k]
        if u < 0:
            break
        for i in range(units.shape[1]):
            if units[u, i] == b:
                shared[count] = u
                count += 1
                break
    return count


@jit
def _ur_type3(masks, values, units, roof0, roof1, extra, u, idx, others):
    side = units.shape[1]
    n_others = 0
    for i in range(side):
        cell = units[u, i]
        if values[cell] == 0 and cell != roof0 and cell != roof1:
            others[n_others] = cell
            n_others += 1
    for size in range(1, 4):
        if n_others < size:
            break
        for j in range(size):
            idx[j] = j
        while True:
            union = extra
            for j in range(size):
                union |= masks[others[idx[j]]]
            if popcount(union) == size + 1:
                for i in range(n_others):
                    if masks[others[i]] & union == ZERO:
                        continue
                    inside = False
                    for j in range(size):
                        if idx[j] == i:
                            inside = True
                    if not inside:
                        return True
            if not next_combination(idx, size, n_others):
                break
    return False


@jit
def _found3(out, a, b, c):
    out[1] = a
    out[2] = b
    out[3] = c
    return True


@jit
def unique_rectangle(masks, values, grid, places, idx, others, shared, dbits, everywhere, out):
    """The first rectangle of ``grid.rects`` and digit pair (x < y, 0-based) with a Unique
    Rectangle step of type 1, 2, 4 or 3 (tried in that order), as ``uniqueness``'s finder:
    ``out[1:4]`` = (row of ``rects``, x, y). ``grid``: the arrays of
    :class:`~sudokit.logic.ladder.LadderGrid` (units, sees, cell_units, rects, peer_bits);
    ``idx``, ``others``, ``shared``: int64 scratch."""
    units, sees, cell_units = grid.units, grid.sees, grid.cell_units
    rects, peer_bits = grid.rects, grid.peer_bits
    for r in range(rects.shape[0]):
        a, b, c, d = rects[r, 0], rects[r, 1], rects[r, 2], rects[r, 3]
        if values[a] != 0 or values[b] != 0 or values[c] != 0 or values[d] != 0:
            continue
        common = masks[a] & masks[b] & masks[c] & masks[d]
        if popcount(common) < 2:
            continue
        x_bits = common
        while x_bits != ZERO:
            x = lowest_index(x_bits)
            x_bits &= x_bits - ONE
            y_bits = x_bits
            while y_bits != ZERO:
                y = lowest_index(y_bits)
                y_bits &= y_bits - ONE
                pair = bit_at(x) | bit_at(y)
                n_floor = 0
                roof0 = -1
                roof1 = -1
                for k in range(4):
                    cell = rects[r, k]
                    if masks[cell] == pair:
                        n_floor += 1
                    elif roof0 < 0:
                        roof0 = cell
                    else:
                        roof1 = cell
                if n_floor == 3:
                    return _found3(out, r, x, y)
                if n_floor != 2 or sees[roof0, roof1] == 0:
                    continue
                m0, m1 = masks[roof0], masks[roof1]
                extra = (m0 | m1) & ~pair
                if popcount(extra) == 1 and m0 == m1 and meet(  # type 2
                        dbits[lowest_index(extra)], peer_bits[roof0], peer_bits[roof1],
                        everywhere):
                    return _found3(out, r, x, y)
                n_shared = _shared_units(cell_units, units, roof0, roof1, shared)
                for k in range(n_shared):  # type 4
                    u = shared[k]
                    if popcount(places[u, x]) == 2 or popcount(places[u, y]) == 2:
                        return _found3(out, r, x, y)
                for k in range(n_shared):  # type 3
                    if _ur_type3(masks, values, units, roof0, roof1, extra, shared[k], idx,
                                 others):
                        return _found3(out, r, x, y)
    return False


@jit
def bug_plus_one(masks, values, places, cell_units):
    cell = -1
    for c in range(masks.shape[0]):
        if values[c] == 0 and popcount(masks[c]) != 2:
            if cell >= 0:
                return False
            cell = c
    if cell < 0 or popcount(masks[cell]) != 3:
        return False
    m = masks[cell]
    while m != ZERO:
        d = lowest_index(m)
        m &= m - ONE
        every = True
        for k in range(cell_units.shape[1]):
            u = cell_units[cell, k]
            if u < 0:
                break
            if popcount(places[u, d]) != 3:
                every = False
                break
        if every:
            return True
    return False
