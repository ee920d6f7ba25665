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
from ._implications_kernel import implications

__all__ = ["inner_hints"]

FULL = -1
"""Returned when the store or the rows are full (the caller grows them and calls again)."""


@jit
def inner_hints(masks, tables, work, store, rows):
    """All hints of SE's ``getMultipleChainsHintList`` (dynamic, multiple) on the working grid
    ``masks``, cells in order.

    Args:
        masks: int64[C] candidates per cell (bit d-1 for digit d) of the working grid.
        tables: ``(unit_cells, cell_units)`` as
            :func:`~sudokit.logic.chains._implications_kernel.implications` takes them.
        work: ``(out, scratch, hidden)``: that kernel's records, int64[C] and int64[M + N]
            scratch.
        store: ``(slot_of, index, meta, order, pstart, pflat, tops, seen, stack, branches)``:
            int64[2CN] each potential's propagation (slot) or -1, all -1 on entry and on
            return; int16[2CN, 2CN] per slot each potential's record or -1 (same); int64[2CN,
            8] per slot its first record, records, listed records, contradiction kind, on, off
            and own potentials, assumption; int64[R] the records' potentials; int64[R + 1]
            where each one's parents start in int64[P] ``pflat``; int64[4] scratch; int64[2CN]
            scratch (all below ``tops[3]``); int64[(2CN + 1)(M + 1) + 1] and int64[2N] scratch.
        rows: int64[H, 6], filled: per hint its complexity, kind (7 contradiction, 1 double,
            5 cell, 6 region), order, conclusion (potential), cause (-2 none, -1 the
            assumptions' cell, else their unit) and first assumption.

    Returns:
        The count of rows, or :data:`FULL`.
    """
    slot_of, index, meta, order, _pstart, _pflat, tops, _seen, _stack, _branches = store
    tops[0] = 0
    tops[1] = 0
    tops[2] = 0
    n = slot_of.size // (2 * masks.size)
    h = _search(masks, n, tables, work, store, rows)
    for s in range(tops[0]):  # leave the store clear
        first = meta[s, 0]
        for k in range(meta[s, 1]):
            index[s, order[first + k]] = -1
        slot_of[meta[s, 7]] = -1
    return h


@jit
def _search(masks, n, tables, work, store, rows):
    """The hints of :func:`inner_hints` (its rows' count or FULL). Long on purpose: one loop
    whose order is the hints' order."""
    _slot_of, index, meta, _order, _pstart, _pflat, _tops, _seen, _stack, branches = store
    unit_cells, cell_units = tables
    h = 0
    for cell in range(masks.size):
        m = masks[cell]
        card = _count(m)
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
        h = _common(n_ons, 5, -1, ((cell * n + _low(m)) << 1) | 1, masks, n, store, rows, h,
                    False)
        if h < 0:
            return FULL
    return h


@jit
def _common(count, kind, cause, said, masks, n, store, rows, h, double):
    """Offer each potential the first branch lists (on ones first, then off ones) that every
    one of the ``count`` branches (``store``'s ``branches``) reaches; a double chain
    (``double``) leaves out its two assumptions. Returns the rows' count or FULL."""
    _slot_of, index, meta, order, _pstart, _pflat, _tops, _seen, _stack, branches = store
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
    slot_of, index, meta, order, pstart, pflat, tops, _seen, _stack, _branches = store
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
    -2: its record's as well)."""
    _slot_of, index, meta, order, pstart, pflat, tops, seen, stack, _branches = store
    tops[3] += 1
    stamp = tops[3]
    seen[potential] = stamp
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
def _count(m):
    """The number of bits of ``m``."""
    count = 0
    while m:
        m &= m - 1
        count += 1
    return count


@jit
def _low(m):
    """The lowest bit's position of ``m`` (> 0)."""
    d = 0
    while not m >> d & 1:
        d += 1
    return d
