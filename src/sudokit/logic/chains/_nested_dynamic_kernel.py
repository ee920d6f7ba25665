"""Kernel of nested level 4's inner search (:mod:`sudokit.logic.chains.nested_dynamic`): every
hint of Sudoku Explainer's level-0 Dynamic Forcing Chains on one working grid, in one call.

:func:`inner_hints` follows each candidate of the grid said on and off with
:func:`~sudokit.logic.chains._implications_kernel.implications` (each assumption once: the
propagations are kept in a store), meets the branches of each contradiction, double, cell and
region chain, counts each hint's complexity (the ancestors of its conclusion, summed over its
branches) and writes one row per hint that removes something, in the order
:func:`sudokit.logic.chains.nested_dynamic._search` offers them (its Python reference).
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits, lowest_bit
from ._implications_kernel import implications

__all__ = ["inner_hints"]

FULL = -1
"""Returned when the store or the rows are full (the caller grows them and calls again)."""


@jit
def inner_hints(masks0, masks, tables, work, store, out):
    """All hints of SE's ``getMultipleChainsHintList`` (dynamic, multiple) on the working grid
    ``masks``, cells in order, then those that give an elimination no better hint gave, with
    their rule parents (as :func:`sudokit.logic.chains.nested_dynamic.dynamic_chain_offs`).

    Args:
        masks0: int64[C] candidates per cell before the outer assumption.
        masks: int64[C] candidates per cell (bit d-1 for digit d) of the working grid.
        tables: ``(unit_cells, cell_units)`` as
            :func:`~sudokit.logic.chains._implications_kernel.implications` takes them.
        work: ``(out, scratch, hidden)``: that kernel's records, int64[C] and int64[M + N]
            scratch.
        store: ``(slot_of, index, meta, order, pstart, pflat, tops, seen, stack, branches,
            found)``:
            int64[2CN] each potential's propagation (slot) or -1, all -1 on entry and on
            return; int16[2CN, 2CN] per slot each potential's record or -1 (same); int64[2CN,
            8] per slot its first record, records, listed records, contradiction kind, on, off
            and own potentials, assumption; int64[R] the records' potentials; int64[R + 1]
            where each one's parents start in int64[P] ``pflat``; int64[4] scratch; int64[2CN]
            scratch (all below ``tops[3]``); int64[(2CN + 1)(M + 1) + 1], int64[2N] and int64[2CN]
            scratch (the last: the ancestors of the last count, unordered).
        out: ``(rows, winners, rule_start, rule_flat, given, keys)``, filled: int64[H, 6] per
            hint its complexity, kind (7 contradiction, 1 double, 5 cell, 6 region), order,
            conclusion (potential), cause (-2 none, -1 the assumptions' cell, else their unit)
            and first assumption; int64[H] the rows kept, best first, whose rule parents are
            ``rule_flat[rule_start[i]:rule_start[i + 1]]`` (int64[H + 1], int64[F]);
            uint8[2CN] and int64[H] scratch.

    Returns:
        ``(rows, kept)``, or ``(FULL, 0)``.
    """
    slot_of, index, meta, order, _pstart, _pflat, tops, _seen, _stack, _branches, _found = store
    tops[0] = 0
    tops[1] = 0
    tops[2] = 0
    n = slot_of.size // (2 * masks.size)
    h = _search(masks, n, tables, work, store, out[0])
    w = 0
    if h > 0:
        w = _select(masks0, masks, n, tables, store, out, h)
    for s in range(tops[0]):  # leave the store clear
        first = meta[s, 0]
        for k in range(meta[s, 1]):
            index[s, order[first + k]] = -1
        slot_of[meta[s, 7]] = -1
    return (FULL, 0) if h < 0 or w < 0 else (h, w)


@jit
def _select(masks0, masks, n, tables, store, out, h):
    """The rows of the hints kept (see :func:`inner_hints`): their count, or FULL."""
    rows, winners, rule_start, rule_flat, given, keys = out
    for i in range(h):  # rows[i, 2] == i: the key's rest is the row
        keys[i] = (rows[i, 0] * 8 + rows[i, 1]) * h + i
    _sort(keys, h)
    given[:] = 0
    w = 0
    f = 0
    rule_start[0] = 0
    for k in range(h):
        i = keys[k] % h
        q = rows[i, 3]
        cell = (q >> 1) // n
        d0 = (q >> 1) % n
        fresh = False
        for x in range(n):
            r = (cell * n + x) << 1
            if (masks[cell] >> x & 1 and (x != d0 if q & 1 else x == d0)) and not given[r]:
                fresh = True
        if not fresh:
            continue
        kept = _rule_parents(masks0, masks, n, tables, store, rows[i], rule_flat, f)
        if kept < 0:
            return FULL
        if kept == f:
            continue
        for x in range(n):
            if masks[cell] >> x & 1 and (x != d0 if q & 1 else x == d0):
                given[(cell * n + x) << 1] = 1
        winners[w] = i
        f = kept
        w += 1
        rule_start[w] = f
    return w


@jit
def _rule_parents(masks0, masks, n, tables, store, row, rule_flat, f):
    """Append the rule parents of hint ``row`` to ``rule_flat`` from ``f`` (SE's
    ``collectRuleParents``: over each branch's chain, the removals, ``masks0`` less ``masks``,
    of each on potential's cell or of its digit in its link's unit); the new end, or FULL."""
    slot_of, index, meta, _order, _pstart, _pflat, _tops, _seen, _stack, branches, _found = store
    unit_cells = tables[0]
    kind, q, cause, said = row[1], row[3], row[4], row[5]
    count = _ends(masks, n, tables, store, kind, cause, said)
    start = f
    for b in range(count):
        s = branches[b]
        pot, own = q, -1
        if kind == 7:
            pot = meta[s, 4] if b == 0 else meta[s, 5]
            if b == 1 and index[s, pot] < 0 and meta[s, 6] >= 0:
                own = meta[s, 6]  # the off side, not recorded: its parent
        size = _ancestors(s, pot, own, store)
        found = store[10]
        _sort(found, size)
        for p in found[:size]:
            if not p & 1:
                continue
            where = _cause(masks, n, tables, store, s, p)
            if where == -3:
                if cause == -2:
                    continue
                where = cause
            cell = (p >> 1) // n
            d0 = (p >> 1) % n
            for j in range(unit_cells.shape[1] if where >= 0 else n):
                c = cell if where < 0 else unit_cells[where, j]
                if c < 0:
                    break
                d = j if where < 0 else d0
                if (masks0[c] & ~masks[c]) >> d & 1:
                    r = (c * n + d) << 1
                    fresh = True
                    for k in range(start, f):
                        if rule_flat[k] == r:
                            fresh = False
                            break
                    if fresh:
                        if f == rule_flat.size:
                            return FULL
                        rule_flat[f] = r
                        f += 1
    return f


@jit
def _ends(masks, n, tables, store, kind, cause, said):
    """The branches (slots, in ``store``'s ``branches``) of a hint; their count."""
    slot_of, _index, _meta, _order, _pstart, _pflat, _tops, _seen, _stack, branches, _found = store
    unit_cells = tables[0]
    cell = (said >> 1) // n
    d0 = (said >> 1) % n
    if kind == 7:
        branches[0] = slot_of[said]
        branches[1] = slot_of[said]
        return 2
    if kind == 1:
        branches[0] = slot_of[said]
        branches[1] = slot_of[said & ~1]
        return 2
    count = 0
    for j in range(n if kind == 5 else unit_cells.shape[1]):
        c = cell if kind == 5 else unit_cells[cause, j]
        d = j if kind == 5 else d0
        if c < 0:
            break
        if masks[c] >> d & 1:
            branches[count] = slot_of[((c * n + d) << 1) | 1]
            count += 1
    return count


@jit
def _cause(masks, n, tables, store, s, q):
    """The link that turned the on potential ``q`` of slot ``s`` on: -3 none (an assumption),
    -1 a naked single, else the unit of its hidden single (the first of SE's box, row, column
    in which all the digit's other places are hidden parents; else the last shared one)."""
    _slot_of, index, meta, _order, pstart, pflat, _tops, _seen, _stack, _branches, _found = store
    unit_cells, cell_units = tables
    i = index[s, q]
    if i < 0:
        return -3
    r = meta[s, 0] + i
    if pstart[r] == pstart[r + 1]:
        return -3
    cell = (q >> 1) // n
    d0 = (q >> 1) % n
    pcell = (pflat[pstart[r]] >> 1) // n
    if pcell == cell:
        return -1
    last = -1
    for k in range(cell_units.shape[1]):
        u = cell_units[pcell, k]
        if u < 0:
            break
        shared = False
        for j in range(unit_cells.shape[1]):
            if unit_cells[u, j] == cell:
                shared = True
        if not shared:
            continue
        if last >= 0:
            every = True
            for j in range(unit_cells.shape[1]):
                c = unit_cells[last, j]
                if c < 0:
                    break
                if c == cell or c == pcell or not masks[c] >> d0 & 1:
                    continue
                gone = (c * n + d0) << 1
                hidden = False
                for k2 in range(pstart[r] + 1, pstart[r + 1]):
                    if pflat[k2] == gone:
                        hidden = True
                if not hidden:
                    every = False
            if every:
                return last
        last = u
    return last


@jit
def _search(masks, n, tables, work, store, rows):
    """The hints of :func:`inner_hints` (its rows' count or FULL). Long on purpose: one loop
    whose order is the hints' order."""
    _slot_of, index, meta, _order, _pstart, _pflat, _tops, _seen, _stack, branches, _found = store
    unit_cells, cell_units = tables
    h = 0
    for cell in range(masks.size):
        m = masks[cell]
        card = count_bits(m)
        if card < 2:
            continue
        n_ons = 0
        for d0 in range(n):
            if not m >> d0 & 1:
                continue
            on_pot = ((cell * n + d0) << 1) | 1
            son = _prop(on_pot, masks, tables, work, store)
            soff = _prop(on_pot & ~1, masks, tables, work, store)
            if son < 0 or soff < 0:
                return FULL
            for side in range(2):
                s = son if side == 0 else soff
                if meta[s, 3]:
                    a, b = meta[s, 4], meta[s, 5]
                    own_b = meta[s, 6] if index[s, b] < 0 else -2
                    cx = (_ancestors(s, a, -1 if index[s, a] >= 0 else -3, store)
                          + _ancestors(s, b, own_b, store))
                    concl = on_pot & ~1 if side == 0 else on_pot
                    h = _offer(concl, 7, cx, -2, concl ^ 1, masks, n, rows, h)
                    if h < 0:
                        return FULL
            if card >= 3:
                branches[0] = son
                branches[1] = soff
                h = _common(2, 1, -2, on_pot, masks, n, store, rows, h, True)
                if h < 0:
                    return FULL
            for k in range(cell_units.shape[1]):
                u = cell_units[cell, k]
                if u < 0:
                    break
                count = 0
                first = -1
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if masks[c] >> d0 & 1:
                        if count == 0:
                            first = c
                        count += 1
                if count < 2 or first != cell:
                    continue
                count = 0
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if masks[c] >> d0 & 1:
                        s = son if c == cell else _prop(((c * n + d0) << 1) | 1, masks, tables,
                                                        work, store)
                        if s < 0:
                            return FULL
                        branches[count] = s
                        count += 1
                h = _common(count, 6, u, on_pot, masks, n, store, rows, h, False)
                if h < 0:
                    return FULL
            branches[n + n_ons] = son
            n_ons += 1
        for i in range(n_ons):
            branches[i] = branches[n + i]
        h = _common(n_ons, 5, -1, ((cell * n + lowest_bit(m)) << 1) | 1, masks, n, store, rows, h,
                    False)
        if h < 0:
            return FULL
    return h


@jit
def _common(count, kind, cause, said, masks, n, store, rows, h, double):
    """Offer each potential the first branch lists (on ones first, then off ones) that every
    one of the ``count`` branches (``store``'s ``branches``) reaches; a double chain
    (``double``) leaves out its two assumptions. Returns the rows' count or FULL."""
    _slot_of, index, meta, order, _pstart, _pflat, _tops, _seen, _stack, branches, _found = store
    s0 = branches[0]
    first = meta[s0, 0]
    for on in (1, 0):
        for k in range(meta[s0, 2]):
            q = order[first + k]
            if q & 1 != on:
                continue
            if double and (q | 1) == said:
                continue
            found = True
            for i in range(1, count):
                if index[branches[i], q] < 0:
                    found = False
                    break
            if not found:
                continue
            cx = 0
            for i in range(count):
                cx += _ancestors(branches[i], q, -1, store)
            h = _offer(q, kind, cx, cause, said, masks, n, rows, h)
            if h < 0:
                return h
    return h


@jit
def _offer(q, kind, cx, cause, said, masks, n, rows, h):
    """Write the hint proving ``q`` when it removes something; the rows' count or FULL."""
    cell = (q >> 1) // n
    d0 = (q >> 1) % n
    if q & 1:
        removes = masks[cell] & ~(1 << d0) != 0
    else:
        removes = masks[cell] >> d0 & 1 != 0
    if not removes:
        return h
    if h == rows.shape[0]:
        return FULL
    rows[h, 0] = cx
    rows[h, 1] = kind
    rows[h, 2] = h
    rows[h, 3] = q
    rows[h, 4] = cause
    rows[h, 5] = said
    return h + 1


@jit
def _prop(pot, masks, tables, work, store):
    """The slot of the propagation of ``pot`` (followed and kept when new), or FULL."""
    slot_of, index, meta, order, pstart, pflat, tops, _seen, _stack, _branches, _found = store
    s = slot_of[pot]
    if s >= 0:
        return s
    out, scratch, hidden = work
    listed, records, kind, on, off, own = implications(masks, pot, 3, tables, scratch, out,
                                                       hidden)
    r_order, r_pstart, r_flat, _r_index = out
    first, flat = tops[1], tops[2]
    size = r_pstart[records]
    if first + records >= order.size or flat + size > pflat.size:
        return FULL
    s = tops[0]
    tops[0] = s + 1
    slot_of[pot] = s
    meta[s, 0] = first
    meta[s, 1] = records
    meta[s, 2] = listed
    meta[s, 3] = kind
    meta[s, 4] = on
    meta[s, 5] = off
    meta[s, 6] = own
    meta[s, 7] = pot
    for k in range(records):
        q = r_order[k]
        order[first + k] = q
        pstart[first + k] = flat + r_pstart[k]
        index[s, q] = k
    pstart[first + records] = flat + size
    for i in range(size):
        pflat[flat + i] = r_flat[i]
    tops[1] = first + records
    tops[2] = flat + size
    return s


@jit
def _ancestors(s, potential, own, store):
    """The number of distinct potentials ``potential`` descends from in slot ``s``, itself
    included, as ``Propagation.ancestors``: its parents are its record's (``own`` -1), none
    (-3, or -1 and not recorded), or the one potential ``own`` (an unrecorded off potential;
    -2: its record's as well), listed unordered in ``store``'s ``found``."""
    _slot_of, index, meta, order, pstart, pflat, tops, seen, stack, _branches, found = store
    tops[3] += 1
    stamp = tops[3]
    seen[potential] = stamp
    found[0] = potential
    count = 1
    top = 0
    first = meta[s, 0]
    if own >= 0:
        stack[0] = own
        top = 1
    elif own != -3 and index[s, potential] >= 0:
        r = first + index[s, potential]
        for k in range(pstart[r], pstart[r + 1]):
            stack[top] = pflat[k]
            top += 1
    while top > 0:
        top -= 1
        q = stack[top]
        if seen[q] == stamp:
            continue
        seen[q] = stamp
        found[count] = q
        count += 1
        i = index[s, q]
        if i >= 0:
            r = first + i
            for k in range(pstart[r], pstart[r + 1]):
                if seen[pflat[k]] != stamp:
                    stack[top] = pflat[k]
                    top += 1
    return count


@jit
def _sort(a, size):
    """Sort ``a[:size]`` ascending in place (heapsort: no allocation)."""
    for start in range(size // 2 - 1, -1, -1):
        _sift(a, start, size)
    for end in range(size - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift(a, 0, end)


@jit
def _sift(a, root, size):
    """Move ``a[root]`` down the max-heap ``a[:size]``."""
    while True:
        child = 2 * root + 1
        if child >= size:
            return
        if child + 1 < size and a[child + 1] > a[child]:
            child += 1
        if a[root] >= a[child]:
            return
        a[root], a[child] = a[child], a[root]
        root = child
