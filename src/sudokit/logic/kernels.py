"""Numba kernels for the cheap techniques of the solve ladder: which one finds a step first.

The solve loop restarts from the easiest technique after every step (Sudoku Explainer's rule,
Juillerat 2006), so the cheap techniques (singles, locked candidates, subsets, basic fish,
XY/XYZ-Wing, Unique Rectangle, BUG+1, Turbot Fish, Empty Rectangle, simple colouring) run dozens of times per puzzle, nearly always finding
nothing. :func:`first_found` runs a run of consecutive cheap techniques of the ladder on the
candidate masks in compiled code and returns the position of the first one that has a step
(and, for the singles, the step itself: unit, cell and digit, found in the same order as the
Python finders of :mod:`sudokit.logic.techniques.singles`). The Python finder of that technique
then builds the :class:`~sudokit.logic.step.Step`, so steps, texts and their order are those of
the Python ladder; the kernels only decide *whether* each technique applies, with the same
conditions as its Python finder (tests compare the two on every state of many solves).

Technique codes are the ``T_*`` constants; :data:`CODES` maps technique names to them.
Kernels compile on first use and are cached on disk (see :mod:`sudokit.fast.cache`; this file
matches its ``*/kernels.py`` pattern).
"""

from __future__ import annotations

import numpy as np

from ..fast.bits import lowest_index, popcount
from ..fast.state import ONE, ZERO, jit

__all__ = ["CODES", "digit_cells", "first_found", "place_givens", "singles_chain"]

T_FULL_HOUSE = 1
T_HIDDEN_BOX = 2
T_HIDDEN_LINE = 3
T_NAKED_SINGLE = 4
T_POINTING = 5
T_CLAIMING = 6
T_NAKED_2 = 7
T_NAKED_3 = 8
T_NAKED_4 = 9
T_HIDDEN_2 = 10
T_HIDDEN_3 = 11
T_HIDDEN_4 = 12
T_FISH_2 = 13
T_FISH_3 = 14
T_FISH_4 = 15
T_XY_WING = 16
T_XYZ_WING = 17
T_UNIQUE_RECTANGLE = 18
T_BUG_PLUS_ONE = 19
T_TURBOT_FISH = 20
T_EMPTY_RECTANGLE = 21
T_SIMPLE_COLOURING = 22

CODES = {
    "Full House": T_FULL_HOUSE,
    "Hidden Single (box)": T_HIDDEN_BOX,
    "Hidden Single (line)": T_HIDDEN_LINE,
    "Naked Single": T_NAKED_SINGLE,
    "Pointing": T_POINTING,
    "Claiming": T_CLAIMING,
    "Naked Pair": T_NAKED_2,
    "Naked Triple": T_NAKED_3,
    "Naked Quad": T_NAKED_4,
    "Hidden Pair": T_HIDDEN_2,
    "Hidden Triple": T_HIDDEN_3,
    "Hidden Quad": T_HIDDEN_4,
    "X-Wing": T_FISH_2,
    "Swordfish": T_FISH_3,
    "Jellyfish": T_FISH_4,
    "XY-Wing": T_XY_WING,
    "XYZ-Wing": T_XYZ_WING,
    "Unique Rectangle": T_UNIQUE_RECTANGLE,
    "BUG+1": T_BUG_PLUS_ONE,
    "Turbot Fish": T_TURBOT_FISH,
    "Empty Rectangle": T_EMPTY_RECTANGLE,
    "Simple Colouring": T_SIMPLE_COLOURING,
}
"""Registered technique name -> kernel code, for the techniques :func:`first_found` decides."""

KIND_BOX = 2
"""``ukind`` of a box (0 row, 1 column, 2 box, 3 extra unit: :class:`~.units.UnitKind`)."""


@jit
def _bit(i):
    return ONE << np.uint64(i)


@jit
def _single(m):
    return m != ZERO and (m & (m - ONE)) == ZERO


@jit
def _digit_bits(masks, values, dbits):
    """``dbits[d, w]``: word w of the bitset over cells of the open cells holding digit d+1
    (cell c is bit c % 64 of word c // 64)."""
    dbits[:, :] = ZERO
    for cell in range(masks.shape[0]):
        if values[cell] == 0:
            w = cell >> 6
            b = _bit(cell & 63)
            m = masks[cell]
            while m != ZERO:
                dbits[lowest_index(m), w] |= b
                m &= m - ONE


@jit
def _refresh_units(masks, values, units, unit_memo):
    """Keep ``unit_memo``'s marks (column N) only for the units whose cells are unchanged:
    columns 0..N-1 hold each cell's mask, with bit 63 set when it is placed (sides up to 32)."""
    n_units, side = units.shape
    placed = _bit(63)
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
def _meet(a, b, c, d):
    """Whether the bitsets a & b & c & d (uint64[W] each) share a cell."""
    for w in range(a.shape[0]):
        if a[w] & b[w] & c[w] & d[w] != ZERO:
            return True
    return False


@jit
def _next_combination(idx, k, n):
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
def _places(masks, values, units, places):
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
                    places[u, d] |= _bit(i)
                    m &= m - ONE


@jit
def _full_house(masks, values, units, out):
    n_units, side = units.shape
    for u in range(n_units):
        count = 0
        last = -1
        for i in range(side):
            if values[units[u, i]] == 0:
                count += 1
                last = units[u, i]
        if count == 1 and _single(masks[last]):
            out[1] = u
            out[2] = last
            out[3] = lowest_index(masks[last]) + 1
            return True
    return False


@jit
def _hidden_single(units, ukind, places, box, out):
    n_units, side = units.shape
    for u in range(n_units):
        if (ukind[u] == KIND_BOX) != box:
            continue
        for d in range(side):
            where = places[u, d]
            if _single(where):
                out[1] = u
                out[2] = units[u, lowest_index(where)]
                out[3] = d + 1
                return True
    return False


@jit
def _naked_single(masks, values, out):
    for cell in range(masks.shape[0]):
        if values[cell] == 0 and _single(masks[cell]):
            out[1] = -1
            out[2] = cell
            out[3] = lowest_index(masks[cell]) + 1
            return True
    return False


@jit
def _locked(places, inter, box_first, out):
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
def _naked_subset(masks, values, units, size, idx, small, vals, unit_memo, flag, out):
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
def _hidden_subset(masks, units, places, size, idx, digits, vals, unit_memo, flag, out):
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
                keep |= _bit(digits[idx[j]])
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


@jit
def _fish(places, size, idx, bases, memo, flag, out):
    """The first fish in the order of ``fish._fish_of_digit`` over the digits: ``out[1]``
    digit - 1, ``out[2]`` cover offset (N: columns, 0: rows), ``out[3:3 + size]`` base lines.
    Rows are units 0..N-1 and columns N..2N-1; position i of column p is row i. Digits whose
    ``memo`` (see :func:`first_found`) has ``flag`` are skipped; digits without a fish get it."""
    side = places.shape[1]
    done = memo.shape[1] - 1
    for d in range(side):
        if memo[d, done] & flag != ZERO:
            continue
        for base_offset in (0, side):
            cover_offset = side - base_offset
            n_bases = 0
            for line in range(side):
                count = popcount(places[base_offset + line, d])
                if 2 <= count <= size:
                    bases[n_bases] = line
                    n_bases += 1
            if n_bases < size:
                continue
            for j in range(size):
                idx[j] = j
            while True:
                union = ZERO
                group = ZERO
                for j in range(size):
                    union |= places[base_offset + bases[idx[j]], d]
                    group |= _bit(bases[idx[j]])
                if popcount(union) == size:
                    m = union
                    while m != ZERO:
                        if places[cover_offset + lowest_index(m), d] & ~group != ZERO:
                            out[1] = d
                            out[2] = cover_offset
                            for j in range(size):
                                out[3 + j] = base_offset + bases[idx[j]]
                            return True
                        m &= m - ONE
                if not _next_combination(idx, size, n_bases):
                    break
        memo[d, done] |= flag
    return False


@jit
def _wing(masks, values, peer_bits, dbits, everywhere, pivot_size, wings, out):
    """The first XY-Wing (pivot of 2) or XYZ-Wing (3) in the order of ``wings._wing``:
    ``out[1:4]`` pivot, pincers. ``peer_bits``: uint64[C, W] each cell's peers as a bitset
    (a cell is not its own peer), ``dbits``: see :func:`_digit_bits`, ``everywhere``: uint64[W]
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
                if _meet(dbits[lowest_index(z)], peer_bits[a], peer_bits[b], third):
                    out[1] = pivot
                    out[2] = a
                    out[3] = b
                    return True
    return False


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
            if not _next_combination(idx, size, n_others):
                break
    return False


@jit
def _found3(out, a, b, c):
    out[1] = a
    out[2] = b
    out[3] = c
    return True


@jit
def _unique_rectangle(masks, values, units, places, sees, cell_units, rects, idx, others,
                      shared, peer_bits, dbits, everywhere, out):
    """The first rectangle of ``rects`` and digit pair (x < y, 0-based) with a Unique
    Rectangle step of type 1, 2, 4 or 3 (tried in that order), as ``uniqueness``'s finder:
    ``out[1:4]`` = (row of ``rects``, x, y)."""
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
                pair = _bit(x) | _bit(y)
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
                if popcount(extra) == 1 and m0 == m1 and _meet(  # type 2
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
def _bug_plus_one(masks, values, places, cell_units):
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


@jit
def _conjugate_pairs(units, places, d, pairs):
    """Fill ``pairs[k] = (unit, cell, cell)`` for the units where digit d+1 has exactly two
    places, in unit order; return how many."""
    count = 0
    for u in range(units.shape[0]):
        where = places[u, d]
        if popcount(where) == 2:
            pairs[count, 0] = u
            pairs[count, 1] = units[u, lowest_index(where)]
            pairs[count, 2] = units[u, lowest_index(where & (where - ONE))]
            count += 1
    return count


@jit
def _cells_with(masks, values, d, cells):
    """Fill ``cells`` with the open cells holding digit d+1, ascending; return how many."""
    bit = _bit(d)
    count = 0
    for cell in range(masks.shape[0]):
        if values[cell] == 0 and masks[cell] & bit != ZERO:
            cells[count] = cell
            count += 1
    return count


@jit
def _turbot_fish(units, ukind, places, sees, box_of, pairs, peer_bits, dbits, everywhere,
                 memo, flag, out):
    """Two strong links on a digit whose near ends see each other and whose far ends do not,
    with a cell holding the digit that sees both far ends (as ``single_digit.turbot_fish``):
    the first Skyscraper (two rows or two columns) or 2-String Kite (a row and a column whose
    near ends share a box), else the first Turbot Fish, digits ascending. Fills ``out[1:8]``
    with (digit - 1, first unit, second unit, far end, near end, near end, far end). Digits
    whose ``memo`` (see :func:`first_found`) has ``flag`` are skipped; digits without any of
    these patterns get it."""
    found = False
    done = memo.shape[1] - 1
    for d in range(units.shape[1]):
        if memo[d, done] & flag != ZERO:
            continue
        n_pairs = _conjugate_pairs(units, places, d, pairs)
        if n_pairs < 2:
            memo[d, done] |= flag
            continue
        seen_here = False
        for i in range(n_pairs):
            p1, p2 = pairs[i, 1], pairs[i, 2]
            for j in range(i + 1, n_pairs):
                q1, q2 = pairs[j, 1], pairs[j, 2]
                if p1 == q1 or p1 == q2 or p2 == q1 or p2 == q2:
                    continue
                k1, k2 = ukind[pairs[i, 0]], ukind[pairs[j, 0]]
                for ea in range(2):
                    a, far_a = (p1, p2) if ea == 0 else (p2, p1)
                    for eb in range(2):
                        b, far_b = (q1, q2) if eb == 0 else (q2, q1)
                        if sees[a, b] == 0 or sees[far_a, far_b] != 0:
                            continue
                        if not _meet(dbits[d], peer_bits[far_a], peer_bits[far_b],
                                     everywhere):
                            continue
                        seen_here = True
                        named = ((k1 == k2 and k1 <= 1)
                                 or (k1 + k2 == 1 and box_of[a] == box_of[b]))
                        if named or not found:
                            out[1] = d
                            out[2] = pairs[i, 0]
                            out[3] = pairs[j, 0]
                            out[4] = far_a
                            out[5] = a
                            out[6] = b
                            out[7] = far_b
                            found = True
                        if named:
                            return True
        if not seen_here:
            memo[d, done] |= flag
    return found


@jit
def _er_with_pair(cell_units, box, near, n_near, far, n_far, pairs, n_pairs, peer_bits,
                  digit_bits, ends, outside, targets, seeing, everywhere, out):
    """``cell_units[c, 2]`` is the box of cell c (units are rows, columns, boxes, ...);
    ``digit_bits``: the digit's open cells, ``ends``: the ends of its strong links,
    ``outside``: the cells outside the box (bitsets, uint64[W]); ``targets``, ``seeing``:
    uint64[W] scratch (the digit's cells outside the box seeing every far cell; the link ends
    outside it seeing every near cell). The strong link found goes to ``out[6:8]`` (its end seeing the near
    cells, its other end)."""
    some_end = False
    some_target = False
    for w in range(targets.shape[0]):
        # the digit's cells outside the box seeing every far cell; the cells seeing every near
        targets[w] = digit_bits[w] & outside[w]
        for k in range(n_far):
            targets[w] &= peer_bits[far[k], w]
        seeing[w] = ends[w] & outside[w]
        for k in range(n_near):
            seeing[w] &= peer_bits[near[k], w]
        some_target = some_target or targets[w] != ZERO
        some_end = some_end or seeing[w] != ZERO
    if not (some_end and some_target):
        return False
    for k in range(n_pairs):
        p, q = pairs[k, 1], pairs[k, 2]
        if seeing[p >> 6] & _bit(p & 63) == ZERO and seeing[q >> 6] & _bit(q & 63) == ZERO:
            continue  # neither end sees the near cells
        if cell_units[p, 2] == box or cell_units[q, 2] == box:
            continue
        for e in range(2):
            x, y = (p, q) if e == 0 else (q, p)
            if seeing[x >> 6] & _bit(x & 63) == ZERO:
                continue
            if _meet(targets, peer_bits[y], everywhere, everywhere):
                out[6] = x
                out[7] = y
                return True
    return False


@jit
def _empty_rectangle(units, places, cell_units, pairs, near, far, line_places, peer_bits,
                     unit_bits, dbits, everywhere, bitsets, memo, flag, out):
    """A box whose places for a digit lie on one row and one column, with a strong link
    outside the box (as ``single_digit.empty_rectangle``); boxes are units 2N..3N-1. Fills
    ``out[1:8]`` with (digit - 1, box, row, column, whether the near cells are the column's,
    strong link's ends). Digits whose ``memo`` (see :func:`first_found`) has ``flag`` are
    skipped; digits without an Empty Rectangle get it."""
    side = units.shape[1]
    done = memo.shape[1] - 1
    for d in range(side):
        if memo[d, done] & flag != ZERO:
            continue
        n_pairs = _conjugate_pairs(units, places, d, pairs)
        if n_pairs == 0:
            memo[d, done] |= flag
            continue
        ends = bitsets[0]
        ends[:] = ZERO
        for k in range(n_pairs):
            for e in range(1, 3):
                ends[pairs[k, e] >> 6] |= _bit(pairs[k, e] & 63)
        for box in range(2 * side, 3 * side):
            inside = places[box, d]
            if popcount(inside) < 2:
                continue
            outside = bitsets[1]
            for w in range(outside.shape[0]):
                outside[w] = ~unit_bits[box, w]
            lines = ZERO  # rows (bits 0..N-1) and columns (bits N..2N-1) the places lie on
            m = inside
            while m != ZERO:
                i = lowest_index(m)
                m &= m - ONE
                on_row = cell_units[units[box, i], 0]
                on_col = cell_units[units[box, i], 1]
                if lines & _bit(on_row) == ZERO:
                    line_places[on_row] = 0
                if lines & _bit(on_col) == ZERO:
                    line_places[on_col] = 0
                lines |= _bit(on_row) | _bit(on_col)
                line_places[on_row] |= np.int64(1) << i  # places (positions in the box) on lines
                line_places[on_col] |= np.int64(1) << i
            row_bits = lines & (_bit(side) - ONE)
            while row_bits != ZERO:  # the rows, then the columns, of the places, ascending
                row = lowest_index(row_bits)
                row_bits &= row_bits - ONE
                on_row = line_places[row]
                col_bits = lines >> np.uint64(side)
                while col_bits != ZERO:
                    col = lowest_index(col_bits)
                    col_bits &= col_bits - ONE
                    on_col = line_places[side + col] & ~on_row
                    if on_col == 0 or (on_row | on_col) != np.int64(inside):
                        continue  # near cells: on the row; far: on the column, off the row
                    n_row = 0
                    n_col = 0
                    for i in range(side):
                        if (on_row >> i) & 1 != 0:
                            near[n_row] = units[box, i]
                            n_row += 1
                        elif (on_col >> i) & 1 != 0:
                            far[n_col] = units[box, i]
                            n_col += 1
                    out[1] = d
                    out[2] = box
                    out[3] = row
                    out[4] = col
                    out[5] = 0
                    if _er_with_pair(cell_units, box, near, n_row, far, n_col, pairs,
                                     n_pairs, peer_bits, dbits[d], ends, outside,
                                     bitsets[2], bitsets[3], everywhere, out):
                        return True
                    out[5] = 1
                    if _er_with_pair(cell_units, box, far, n_col, near, n_row, pairs,
                                     n_pairs, peer_bits, dbits[d], ends, outside,
                                     bitsets[2], bitsets[3], everywhere, out):
                        return True
        memo[d, done] |= flag
    return False


@jit
def _simple_colouring(masks, values, units, places, sees, pairs, colour, stack, cells):
    """A component (over two cells) of a digit's conjugate-pair graph, two-coloured, with two
    cells of one colour seeing each other (wrap) or a cell outside it holding the digit that
    sees both colours (trap), as ``single_digit.simple_colouring``. On a consistent state the
    graph is bipartite, so the colouring (up to a swap) does not depend on the search order."""
    n_cells = masks.shape[0]
    for d in range(units.shape[1]):
        n_pairs = _conjugate_pairs(units, places, d, pairs)
        if n_pairs < 2:
            continue
        n_with = _cells_with(masks, values, d, cells)
        for c in range(n_cells):
            colour[c] = -1
        for k in range(n_pairs):
            start = pairs[k, 1]
            if colour[start] >= 0:
                continue
            colour[start] = 0
            stack[0] = start
            depth = 1
            size = 1
            while depth > 0:
                depth -= 1
                cell = stack[depth]
                for j in range(n_pairs):
                    if pairs[j, 1] == cell:
                        other = pairs[j, 2]
                    elif pairs[j, 2] == cell:
                        other = pairs[j, 1]
                    else:
                        continue
                    if colour[other] < 0:
                        colour[other] = 1 - colour[cell]
                        stack[depth] = other
                        depth += 1
                        size += 1
            if size > 2 and _wrap_or_trap(sees, colour, cells, n_with):
                return True
            for c in range(n_with):  # done: colours 2, 3 (earlier components)
                if colour[cells[c]] == 0 or colour[cells[c]] == 1:
                    colour[cells[c]] += 2
    return False


@jit
def _wrap_or_trap(sees, colour, cells, n_with):
    """Whether the component coloured 0/1 (among the digit's ``cells``) has a wrap or a
    trap (see :func:`_simple_colouring`)."""
    for c in range(n_with):
        a = cells[c]
        if colour[a] == 0 or colour[a] == 1:
            for e in range(c + 1, n_with):
                b = cells[e]
                if colour[b] == colour[a] and sees[a, b] != 0:
                    return True
    for c in range(n_with):
        cell = cells[c]
        if colour[cell] == 0 or colour[cell] == 1:
            continue
        seen0 = False
        seen1 = False
        for e in range(n_with):
            other = cells[e]
            if colour[other] == 0 and sees[cell, other] != 0:
                seen0 = True
            elif colour[other] == 1 and sees[cell, other] != 0:
                seen1 = True
        if seen0 and seen1:
            return True
    return False


@jit
def first_found(codes, masks, values, units, ukind, inter, sees, cell_units, rects, swappable,
                box_of, peer_bits, unit_bits, places, work, vals, pairs, bitsets, memo,
                unit_memo, out):
    """Run the techniques ``codes`` (``T_*``, ladder order) on a candidates state; return the
    position in ``codes`` of the first that has a step, or -1.

    Args:
        codes: int64[K] technique codes.
        masks: uint64[C] candidate masks (a placed cell: its digit's bit); values: int16[C]
            placed digits (0 open).
        units: int64[U, N] cells of each unit (rows, columns, boxes, extra units);
            ukind: int64[U] 0 row, 1 column, 2 box, 3 extra.
        inter: int64[I, 5] unit intersections (see :func:`_locked`), sees: uint8[C, C] peer
            matrix, cell_units: int64[C, K] units of each cell padded with -1, rects: int64[R, 4]
            unique-rectangle corners, swappable: whether uniqueness techniques apply,
            box_of: int64[C] the box (or jigsaw region) of each cell, peer_bits: uint64[C, W]
            each cell's peers as a bitset over cells (cell c: bit c % 64 of word c // 64,
            W = ceil(C / 64); a cell is not its own peer), unit_bits: uint64[U, W] each unit's
            cells.
        places: uint64[U, N] scratch, filled with the digits' places per unit.
        work: int64[4 + max(C, N) + K + 2N + 2C], vals: uint64[N], pairs: int64[U, 3],
            bitsets: uint64[N + 5, W]: scratch.
        memo: uint64[N, W + 1], kept between calls (zeros at first): per digit, its open cells
            (as a bitset) when last seen, and a bit ``1 << code`` for each single-digit
            technique (fish, Turbot Fish, Empty Rectangle) that found nothing on that digit
            with those cells. Their answer on a digit depends on its cells alone, so a digit
            whose cells did not change is skipped by the techniques marked; a digit whose cells
            changed has its marks cleared.
        unit_memo: uint64[U, N + 1], kept between calls (zeros at first): the same for the
            subsets, per unit: its cells' masks (bit 63 set on a placed cell) and a bit per
            naked or hidden subset size that found nothing in it.
        out: int64[8] filled for a single: (position, unit or -1, cell, digit); for locked
            candidates: (position, row of ``inter``, digit - 1); for a subset: (position,
            unit, its cells or digits - 1); for a wing: (position, pivot, pincers); for a
            fish: (position, digit - 1, cover offset, base lines); for a Turbot Fish:
            (position, digit - 1, unit, unit, far end, near end, near end, far end); for an
            Empty Rectangle: (position, digit - 1, box, row, column - N, flipped, strong
            link's ends); for a Unique Rectangle: (position, row of ``rects``, x - 1, y - 1).
    """
    n_cells = masks.shape[0]
    side = units.shape[1]
    _places(masks, values, units, places)
    width = max(n_cells, side)
    idx = work[:4]
    scratch = work[4:4 + width]
    shared = work[4 + width:4 + width + cell_units.shape[1]]
    near = work[4 + width + cell_units.shape[1]:4 + width + cell_units.shape[1] + side]
    far = work[4 + width + cell_units.shape[1] + side:4 + width + cell_units.shape[1] + 2 * side]
    rest = 4 + width + cell_units.shape[1] + 2 * side
    colour_stack = work[rest:rest + n_cells]
    cells = work[rest + n_cells:rest + 2 * n_cells]
    dbits = bitsets[:side]  # the digits' open cells
    everywhere = bitsets[side]
    er_bits = bitsets[side + 1:side + 5]  # Empty Rectangle's scratch bitsets
    everywhere[:] = ~ZERO
    _digit_bits(masks, values, dbits)
    n_words = dbits.shape[1]
    for d in range(side):  # the memo's marks hold for a digit whose cells are unchanged
        same = True
        for w in range(n_words):
            if memo[d, w] != dbits[d, w]:
                same = False
                memo[d, w] = dbits[d, w]
        if not same:
            memo[d, n_words] = ZERO
    units_fresh = False
    out[0] = -1
    for k in range(codes.shape[0]):
        code = codes[k]
        found = False
        if code == T_FULL_HOUSE:
            found = _full_house(masks, values, units, out)
        elif code == T_HIDDEN_BOX:
            found = _hidden_single(units, ukind, places, True, out)
        elif code == T_HIDDEN_LINE:
            found = _hidden_single(units, ukind, places, False, out)
        elif code == T_NAKED_SINGLE:
            found = _naked_single(masks, values, out)
        elif code == T_POINTING:
            found = _locked(places, inter, True, out)
        elif code == T_CLAIMING:
            found = _locked(places, inter, False, out)
        elif T_NAKED_2 <= code <= T_HIDDEN_4:
            if not units_fresh:
                _refresh_units(masks, values, units, unit_memo)
                units_fresh = True
            if code <= T_NAKED_4:
                found = _naked_subset(masks, values, units, code - T_NAKED_2 + 2, idx, scratch,
                                      vals, unit_memo, _bit(code), out)
            else:
                found = _hidden_subset(masks, units, places, code - T_HIDDEN_2 + 2, idx,
                                       scratch, vals, unit_memo, _bit(code), out)
        elif T_FISH_2 <= code <= T_FISH_4:
            found = _fish(places, code - T_FISH_2 + 2, idx, scratch, memo, _bit(code), out)
        elif code == T_XY_WING or code == T_XYZ_WING:
            found = _wing(masks, values, peer_bits, dbits, everywhere,
                          2 if code == T_XY_WING else 3, scratch, out)
        elif code == T_UNIQUE_RECTANGLE:
            found = _unique_rectangle(masks, values, units, places, sees, cell_units, rects,
                                      idx, scratch, shared, peer_bits, dbits, everywhere, out)
        elif code == T_BUG_PLUS_ONE:
            found = swappable and _bug_plus_one(masks, values, places, cell_units)
        elif code == T_TURBOT_FISH:
            found = _turbot_fish(units, ukind, places, sees, box_of, pairs, peer_bits, dbits,
                                 everywhere, memo, _bit(code), out)
        elif code == T_SIMPLE_COLOURING:
            found = _simple_colouring(masks, values, units, places, sees, pairs, scratch,
                                      colour_stack, cells)
        elif code == T_EMPTY_RECTANGLE:
            found = _empty_rectangle(units, places, cell_units, pairs, near, far, scratch,
                                     peer_bits, unit_bits, dbits, everywhere, er_bits, memo,
                                     _bit(code), out)
        if found:
            out[0] = k
            return k
    return -1


@jit
def singles_chain(masks, values, units, ukind, sees, places, seq):
    """Follow the singles from a state: repeatedly take the first of full house, hidden single
    (box), hidden single (line), naked single, in that order (codes 1-4 of a ladder run), and
    place it as :meth:`~sudokit.logic.state.Candidates.place` does (the digit leaves the
    cell's peers); stop where no single applies or the grid is full.

    Args:
        masks: uint64[C], values: int16[C]: a copy of the state (modified).
        units, ukind, sees: as for :func:`first_found`; places: uint64[U, N] scratch.
        seq: int64[C, 4] filled with (code - 1, unit or -1, cell, digit) per single.

    Returns:
        the number of singles found.
    """
    n_cells = masks.shape[0]
    count = 0
    out = seq[0]
    while count < n_cells:
        _places(masks, values, units, places)
        out = seq[count]
        if _full_house(masks, values, units, out):
            out[0] = 0
        elif _hidden_single(units, ukind, places, True, out):
            out[0] = 1
        elif _hidden_single(units, ukind, places, False, out):
            out[0] = 2
        elif _naked_single(masks, values, out):
            out[0] = 3
        else:
            break
        count += 1
        cell = out[2]
        bit = _bit(out[3] - 1)
        values[cell] = out[3]
        masks[cell] = bit
        for other in range(n_cells):
            if sees[cell, other] != 0:
                masks[other] &= ~bit
        full = True
        for other in range(n_cells):
            if values[other] == 0:
                full = False
                break
        if full:
            break
    return count


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
        bit = _bit(d - 1)
        values[cell] = d
        masks[cell] = bit
        for k in range(peers.shape[1]):
            other = peers[cell, k]
            if other < 0:
                break
            masks[other] &= ~bit
