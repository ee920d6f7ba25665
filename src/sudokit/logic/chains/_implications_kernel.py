"""Kernel of Sudoku Explainer's chaining propagation: :func:`implications`, the compiled
:func:`sudokit.logic.chains.implications.chain_implications` (Nishio, multiple and dynamic
forcing chains; the "(+)" rules of level 1 and up from :mod:`._plus_kernel`; at level 2 and up
it stops for the nested rule, run in Python, and :func:`follow` goes on).
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits
from ._plus_kernel import plus_offs

__all__ = ["ancestors", "contradicted", "follow", "implications", "reached_all"]


@jit
def implications(masks0, start, flags, tables, masks, out, hidden):
    """Follow the potential ``start`` (``(cell * N + digit - 1) * 2 + on``) as
    :func:`sudokit.logic.chains.implications.chain_implications` does at level 0, or at level
    1 and up with ``flags`` bit 2, in the same order, so that every potential gets the same
    parents.

    Args:
        masks0: int64[C] candidates per cell (bit d-1 for digit d), 0 for a placed cell.
        start: the assumed potential.
        flags: bit 0 dynamic (removals seen by later links), bit 1 links inside cells, bit 2
            the four "(+)" rules when nothing is pending (:mod:`._plus_kernel`), bit 3 stop
            for the nested rule when they find nothing (kind 4; :func:`follow` goes on).
        tables: ``(unit_cells, cell_units)``: int64[U, M] the cells of each unit ascending,
            int64[C, K] each cell's units in Sudoku Explainer's order, both padded with -1.
        masks: int64[C] scratch (the working grid).
        out: ``(order, pstart, pflat, index)``, filled: int64[2CN + 1] the potentials reached
            in order; int64[2CN + 2] where each one's parents start in int64[(2CN + 1) * (M +
            N + 1)] ``pflat``; int64[2CN + 1] each potential's place in ``order`` or -1, and
            last the count of records written since the last reset, kept by every write
            (the next call resets only those: -1 and 0 before the first call).
        hidden: int64[2 * (2M + N)] scratch.

    Returns:
        ``(listed, records, kind, on, off, own)``: the potentials reached (the first ``listed``
        records; one more is recorded when an on potential ends in a contradiction), the kind
        of contradiction (0 none; 1 an off potential, not recorded, whose parent is ``own``; 2
        an on potential, recorded; 3 an off potential of a "(+)" rule, written at record
        ``listed`` with its parents but not indexed; 4 none yet, stopped for the nested rule),
        the candidate's on and off potentials.
    """
    order, pstart, _pflat, index = out
    last = index.size - 1
    for i in range(index[last]):
        index[order[i]] = -1
    for i in range(masks0.size):
        masks[i] = masks0[i]
    pstart[0] = 0
    index[start] = 0
    index[last] = 1
    order[0] = start
    pstart[1] = 0  # the assumption has no parents
    return follow(masks0, flags, tables, masks, out, hidden, 0, 1)


@jit
def follow(masks0, flags, tables, masks, out, hidden, first, n_all):
    """Go on with :func:`implications`' propagation from record ``first`` (every record
    before it followed) with ``n_all`` records: after the nested rule's eliminations were
    recorded (kind 4). Records written past ``n_all`` are dropped first (unindexed). Returns
    as :func:`implications`.

    Long on purpose: one breadth-first loop whose order decides every parent.
    """
    order, _pstart, _pflat, index = out
    last = index.size - 1
    for i in range(n_all, index[last]):  # records past n_all are dropped
        if index[order[i]] == i:
            index[order[i]] = -1
    index[last] = n_all
    c_count = masks0.size
    n = index.size // (2 * c_count)
    dynamic = flags & 1
    y_links = flags & 2
    next_on = first  # records before these are done (ons and offs are two queues, in order)
    next_off = first
    while True:
        while next_on < n_all and not order[next_on] & 1:
            next_on += 1
        if next_on < n_all:
            p = order[next_on]
            next_on += 1
        else:
            while next_off < n_all and order[next_off] & 1:
                next_off += 1
            if next_off == n_all:
                if not flags & 4:
                    break
                before = n_all
                found, n_all, q = plus_offs(masks0, masks, n, tables, out, hidden, n_all)
                if q >= 0:
                    return n_all, n_all, 3, q | 1, q, -1
                if n_all > before:
                    continue
                if found or not flags & 8:
                    break  # eliminations, none new: Sudoku Explainer's queue stays empty
                return n_all, n_all, 4, -1, -1, -1
            p = order[next_off]
            next_off += 1
        cell = (p >> 1) // n
        d0 = (p >> 1) % n
        if p & 1:
            n_all, q = _on_to_off(p, cell, d0, n, y_links, tables, masks, n_all, out)
            if q >= 0:
                return n_all, n_all, 1, q | 1, q, p
        else:
            n_all, kind, q = _off_to_on(p, cell, d0, n, y_links, tables, masks0, masks, n_all,
                                        out, hidden)
            if kind:
                return n_all, n_all + (1 if index[q] == n_all else 0), 2, q, q & ~1, -1
            if dynamic:
                masks[cell] &= ~(1 << d0)
    return n_all, n_all, 0, -1, -1, -1


@jit
def _on_to_off(p, cell, d0, n, y_links, tables, masks, n_all, out):
    """The off potentials of on potential ``p``: its cell's other candidates, then the
    digit's other places in the cell's units. Returns the new count of records (those before
    a contradiction kept, as Sudoku Explainer does) and -1, or an off potential ``q`` whose on
    potential is reached (a contradiction)."""
    unit_cells, cell_units = tables
    index = out[3]
    none = out[0]  # no hidden parents
    bit = 1 << d0
    if y_links:
        rest = masks[cell] & ~bit
        for d in range(n):
            if rest >> d & 1:
                q = (cell * n + d) << 1
                if index[q | 1] >= 0:
                    return n_all, q
                if index[q] < 0:
                    n_all = _record(q, p, none, 0, n_all, out)
    for k in range(cell_units.shape[1]):
        u = cell_units[cell, k]
        if u < 0:
            break
        for j in range(unit_cells.shape[1]):
            c = unit_cells[u, j]
            if c < 0:
                break
            if c != cell and masks[c] & bit:
                q = (c * n + d0) << 1
                if index[q | 1] >= 0:
                    return n_all, q
                if index[q] < 0:
                    n_all = _record(q, p, none, 0, n_all, out)
    return n_all, -1


@jit
def _off_to_on(p, cell, d0, n, y_links, tables, masks0, masks, n_all, out, hidden):
    """The on potentials of off potential ``p`` (a bivalue cell's other candidate, then the
    other place of a digit left twice in a unit), each with its hidden parents (the removals
    the link relies on). Returns ``(records, contradiction, q)``: when an on potential ``q``
    meets its off one, it is recorded if new (past the listed records) and True is returned."""
    unit_cells, cell_units = tables
    index = out[3]
    bit = 1 << d0
    m = masks[cell]
    if y_links and m & bit and count_bits(m) == 2:
        other = 0
        n_h = 0
        for d in range(n):
            if d != d0 and m >> d & 1:
                other = d
            if masks0[cell] >> d & 1 and not m >> d & 1:
                hidden[n_h] = (cell * n + d) << 1
                n_h += 1
        q = ((cell * n + other) << 1) | 1
        if index[q & ~1] >= 0:
            if index[q] < 0:
                _record(q, p, hidden, n_h, n_all, out)
            return n_all, True, q
        if index[q] < 0:
            n_all = _record(q, p, hidden, n_h, n_all, out)
    for k in range(cell_units.shape[1]):
        u = cell_units[cell, k]
        if u < 0:
            break
        count = 0
        other_cell = -1
        here = False
        n_h = 0
        for j in range(unit_cells.shape[1]):
            c = unit_cells[u, j]
            if c < 0:
                break
            if masks[c] & bit:
                if c == cell:
                    here = True
                else:
                    count += 1
                    other_cell = c
            elif masks0[c] & bit:
                hidden[n_h] = (c * n + d0) << 1
                n_h += 1
        if here and count == 1:
            q = ((other_cell * n + d0) << 1) | 1
            if index[q & ~1] >= 0:
                if index[q] < 0:
                    _record(q, p, hidden, n_h, n_all, out)
                return n_all, True, q
            if index[q] < 0:
                n_all = _record(q, p, hidden, n_h, n_all, out)
    return n_all, False, -1


@jit
def _record(q, parent, hidden, n_hidden, n_all, out):
    """Record potential ``q`` reached with parents ``parent`` then ``hidden[:n_hidden]``;
    returns the new count of records."""
    order, pstart, pflat, index = out
    index[q] = n_all
    last = index.size - 1
    if index[last] <= n_all:
        index[last] = n_all + 1  # the records to reset (see implications)
    order[n_all] = q
    k = pstart[n_all]
    pflat[k] = parent
    for i in range(n_hidden):
        pflat[k + 1 + i] = hidden[i]
    pstart[n_all + 1] = k + 1 + n_hidden
    return n_all + 1


@jit
def ancestors(potential, own, use_own, out, seen, stack):
    """The number of distinct potentials ``potential`` descends from, itself included, in
    the records ``out`` of :func:`implications` (its parents: ``own[:]`` if ``use_own``, else
    its record's, none if it has none), as
    :func:`sudokit.logic.chains.implications.ancestor_count`. ``seen`` (uint8[2CN]) and
    ``stack`` (int64[2CN + N]) are scratch."""
    _order, pstart, pflat, index = out
    seen[:] = 0
    seen[potential] = 1
    count = 1
    top = 0
    if use_own:
        for i in range(own.size):
            stack[top] = own[i]
            top += 1
    elif index[potential] >= 0:
        r = index[potential]
        for k in range(pstart[r], pstart[r + 1]):
            stack[top] = pflat[k]
            top += 1
    while top > 0:
        top -= 1
        q = stack[top]
        if seen[q]:
            continue
        seen[q] = 1
        count += 1
        r = index[q]
        if r >= 0:
            for k in range(pstart[r], pstart[r + 1]):
                if not seen[pflat[k]]:
                    stack[top] = pflat[k]
                    top += 1
    return count


@jit
def contradicted(masks0, starts, flags, tables, masks, out, hidden, found):
    """For each potential of ``starts`` (int64[S]), whether :func:`implications` of it ends in
    a contradiction: ``found`` (uint8[S]) filled with 1 or 0; the other arguments as
    :func:`implications`'. Returns the count of contradictions."""
    count = 0
    for i in range(starts.size):
        kind = implications(masks0, starts[i], flags, tables, masks, out, hidden)[2]
        found[i] = 1 if kind else 0
        count += found[i]
    return count


@jit
def reached_all(masks0, starts, flags, tables, masks, out, hidden, reached):
    """For each potential of ``starts`` (int64[S]), the potentials :func:`implications` of it
    reaches: row i of ``reached`` (uint8[S, 2CN], cleared here) gets 1 at each; the other
    arguments as :func:`implications`'. Returns the total count of potentials reached."""
    total = 0
    for i in range(starts.size):
        for q in range(reached.shape[1]):
            reached[i, q] = 0
        records = implications(masks0, starts[i], flags, tables, masks, out, hidden)[1]
        order = out[0]
        for k in range(records):
            reached[i, order[k]] = 1
        total += records
    return total
