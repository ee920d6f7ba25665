"""Kernel of the four rules Sudoku Explainer applies inside a "Dynamic Forcing Chains (+)"
propagation (:mod:`sudokit.logic.chains.advanced`, its Python twin): locked candidates, hidden
pairs, naked pairs and X-Wings on an assumption's working grid, each elimination recorded with
its rule parents at once into the records of
:func:`sudokit.logic.chains._implications_kernel.implications`.

The rules see units ``0..N-1`` as rows, ``N..2N-1`` as columns and ``2N..3N-1`` as boxes, as
:func:`sudokit.logic.chains.advanced._kinds` does; ``tables`` is that kernel's
``(unit_cells, cell_units)``. Eliminations and parents come in the Python rules' order
(ascending cells, digits, units), so every potential gets the same parents.
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits

__all__ = ["plus_offs"]


@jit
def plus_offs(masks0, masks, n, tables, out, hidden, n_all):
    """Record the eliminations of the first of the four rules that has any on ``masks`` (the
    working grid, int64[C]; ``masks0``: the grid before the assumption), as
    :func:`sudokit.logic.chains.advanced.advanced_offs` lists them: each one not reached yet
    whose parents are all reached is recorded in ``out`` (``(order, pstart, pflat, index)``)
    from record ``n_all`` on, parents from ``hidden``
    (int64[2 * (2M + N)] scratch: the parents in its first half, an X-Wing's eliminations in
    its second).

    Returns:
        ``(found, n_all, q)``: whether the rule had eliminations, the new count of records,
        and -1, or an off potential ``q`` whose on potential is reached (a contradiction:
        ``q`` is written at record ``n_all``, its parents readable, but not indexed).
    """
    changed = 0
    for c in range(masks.size):
        changed |= masks0[c] ^ masks[c]
    if changed == 0:
        return False, n_all, -1  # no removal since the assumption: no pattern has a parent
    found, n_all, q = _locked(masks0, masks, n, changed, tables, out, hidden, n_all)
    if not found:
        found, n_all, q = _hidden_pairs(masks0, masks, n, tables, out, hidden, n_all)
    if not found:
        found, n_all, q = _naked_pairs(masks0, masks, n, tables, out, hidden, n_all)
    if not found:
        found, n_all, q = _x_wings(masks0, masks, n, changed, tables, out, hidden, n_all)
    return found, n_all, q


@jit
def _offer(q, hidden, n_h, out, n_all):
    """Record off potential ``q`` with parents ``hidden[:n_h]`` if new and all its parents
    are reached; returns ``(n_all, contradiction)`` (``q`` written, not indexed, if its on
    potential is reached)."""
    order, pstart, pflat, index = out
    if index[q] >= 0:
        return n_all, False
    for i in range(n_h):
        if index[hidden[i]] < 0:
            return n_all, False
    k = pstart[n_all]
    for i in range(n_h):
        pflat[k + i] = hidden[i]
    pstart[n_all + 1] = k + n_h
    order[n_all] = q
    if index[q | 1] >= 0:
        return n_all, True
    index[q] = n_all
    last = index.size - 1
    if index[last] <= n_all:
        index[last] = n_all + 1  # the records to reset (see implications)
    return n_all + 1, False


@jit
def _inside(c, u, cell_units):
    """Whether cell ``c`` is in unit ``u``."""
    for k in range(cell_units.shape[1]):
        if cell_units[c, k] == u:
            return True
        if cell_units[c, k] < 0:
            break
    return False


@jit
def _unit_in(c, lo, hi, cell_units):
    """Cell ``c``'s unit among ``lo..hi-1`` (-1 if none)."""
    for k in range(cell_units.shape[1]):
        u = cell_units[c, k]
        if lo <= u < hi:
            return u
    return -1


@jit
def _locked(masks0, masks, n, changed, tables, out, hidden, n_all):
    """Pointing (box then column, box then row) and claiming (column, row then box)."""
    unit_cells, cell_units = tables
    found = False
    for pair in range(4):
        first = (2 * n, 2 * n, n, 0)[pair]
        lo = (n, 0, 2 * n, 2 * n)[pair]
        for u in range(first, first + n):
            for d0 in range(n):
                if not changed >> d0 & 1:
                    continue
                touched = False
                count = 0
                c1 = -1
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if (masks0[c] ^ masks[c]) >> d0 & 1:
                        touched = True
                    if masks[c] >> d0 & 1:
                        count += 1
                        if c1 < 0:
                            c1 = c
                if not touched or count < 2:
                    continue
                v = _unit_in(c1, lo, lo + n, cell_units)
                inside = v >= 0
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if masks[c] >> d0 & 1 and not _inside(c, v, cell_units):
                        inside = False
                if not inside:
                    continue
                n_h = 0
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if masks0[c] >> d0 & 1 and not masks[c] >> d0 & 1 and not _inside(
                            c, v, cell_units):
                        hidden[n_h] = (c * n + d0) << 1
                        n_h += 1
                if n_h == 0:
                    continue
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[v, j]
                    if c < 0:
                        break
                    if masks[c] >> d0 & 1 and not _inside(c, u, cell_units):
                        found = True
                        n_all, bad = _offer((c * n + d0) << 1, hidden, n_h, out, n_all)
                        if bad:
                            return True, n_all, (c * n + d0) << 1
    return found, n_all, -1


@jit
def _hidden_pairs(masks0, masks, n, tables, out, hidden, n_all):
    """Two digits left in the same two cells of a unit (boxes, rows, then columns)."""
    unit_cells, _cell_units = tables
    found = False
    for kind in range(3):
        first = (2 * n, 0, n)[kind]
        for u in range(first, first + n):
            gone = 0  # digits removed in the unit since the assumption
            for j in range(unit_cells.shape[1]):
                c = unit_cells[u, j]
                if c < 0:
                    break
                gone |= masks0[c] ^ masks[c]
            if gone == 0:
                continue
            for a in range(n):
                where_a = _where(u, a, masks, unit_cells)
                if count_bits(where_a) != 2:
                    continue
                for b in range(a + 1, n):
                    if _where(u, b, masks, unit_cells) != where_a or not (
                            gone >> a & 1 or gone >> b & 1):
                        continue
                    n_h = _pair_parents(u, a, b, where_a, masks0, n, unit_cells, hidden)
                    if n_h:
                        some, n_all, q = _offer_unit(u, where_a, ~((1 << a) | (1 << b)),
                                                     masks, n, unit_cells, out, hidden, n_h,
                                                     n_all)
                        found |= some
                        if q >= 0:
                            return True, n_all, q
    return found, n_all, -1


@jit
def _offer_unit(u, places, digits, masks, n, unit_cells, out, hidden, n_h, n_all):
    """Offer (:func:`_offer`, parents ``hidden[:n_h]``) each candidate among ``digits`` of
    each cell of unit ``u`` among ``places`` (bit j for the unit's j-th cell). Returns
    ``(found, n_all, q)``: whether there was any, the new count of records, and -1 or the
    off potential ``q`` of a contradiction."""
    found = False
    for j in range(unit_cells.shape[1]):
        c = unit_cells[u, j]
        if c < 0:
            break
        rest = masks[c] & digits if places >> j & 1 else 0
        for x in range(n):
            if rest >> x & 1:
                found = True
                q = (c * n + x) << 1
                n_all, bad = _offer(q, hidden, n_h, out, n_all)
                if bad:
                    return True, n_all, q
    return found, n_all, -1


@jit
def _where(u, d0, masks, unit_cells):
    """The places (bit j for the unit's j-th cell) of digit ``d0`` in unit ``u``."""
    out = 0
    for j in range(unit_cells.shape[1]):
        c = unit_cells[u, j]
        if c < 0:
            break
        if masks[c] >> d0 & 1:
            out |= 1 << j
    return out


@jit
def _pair_parents(u, a, b, places, masks0, n, unit_cells, hidden):
    """A hidden pair's parents: digit ``a``'s other places in unit ``u`` before the assumption,
    then ``b``'s (``places``: the pair's cells as unit bits). Returns their count."""
    n_h = 0
    for d0 in (a, b):
        for j in range(unit_cells.shape[1]):
            c = unit_cells[u, j]
            if c < 0:
                break
            if masks0[c] >> d0 & 1 and not places >> j & 1:
                hidden[n_h] = (c * n + d0) << 1
                n_h += 1
    return n_h


@jit
def _naked_pairs(masks0, masks, n, tables, out, hidden, n_all):
    """Two cells of a unit left with the same two candidates (boxes, rows, then columns)."""
    unit_cells, _cell_units = tables
    found = False
    m = unit_cells.shape[1]
    for kind in range(3):
        first = (2 * n, 0, n)[kind]
        for u in range(first, first + n):
            for j1 in range(m):
                c1 = unit_cells[u, j1]
                if c1 < 0:
                    break
                pair = masks[c1]
                if count_bits(pair) != 2:
                    continue
                for j2 in range(j1 + 1, m):
                    c2 = unit_cells[u, j2]
                    if c2 < 0:
                        break
                    if masks[c2] != pair or (masks0[c1] == pair and masks0[c2] == pair):
                        continue
                    n_h = 0
                    for c in (c1, c2):
                        for x in range(n):
                            if (masks0[c] & ~pair) >> x & 1:
                                hidden[n_h] = (c * n + x) << 1
                                n_h += 1
                    if n_h:
                        others = ((1 << m) - 1) & ~(1 << j1) & ~(1 << j2)
                        some, n_all, q = _offer_unit(u, others, pair, masks, n, unit_cells,
                                                     out, hidden, n_h, n_all)
                        found |= some
                        if q >= 0:
                            return True, n_all, q
    return found, n_all, -1


@jit
def _x_wings(masks0, masks, n, changed, tables, out, hidden, n_all):
    """A digit's places in two rows within two columns (then columns and rows)."""
    unit_cells, cell_units = tables
    found = False
    for side in range(2):
        base = n * side  # rows, then columns
        cover = n - base
        for d0 in range(n):
            if not changed >> d0 & 1:
                continue
            for i in range(n):
                ci = _where(base + i, d0, masks, unit_cells)
                if ci == 0 or count_bits(ci) > 2:
                    continue
                for k in range(i + 1, n):
                    ck = _where(base + k, d0, masks, unit_cells)
                    if ck == 0 or count_bits(ck) > 2:
                        continue
                    v1, v2 = _covers(base + i, base + k, d0, masks, cover, n, tables)
                    if v2 < 0:
                        continue
                    n_h = _wing_cells(base + i, base + k, v1, v2, d0, masks0, masks, True, n,
                                      tables, hidden, 0)
                    if n_h == 0:
                        continue
                    at = hidden.size // 2  # the eliminations in the scratch's second half
                    g = _wing_cells(v1, v2, base + i, base + k, d0, masks0, masks, False, n,
                                    tables, hidden, at)
                    for t in range(g):
                        found = True
                        q = hidden[at + t]
                        n_all, bad = _offer(q, hidden, n_h, out, n_all)
                        if bad:
                            return True, n_all, q
    return found, n_all, -1


@jit
def _covers(u1, u2, d0, masks, cover, n, tables):
    """The two cover units (ascending; the second -1 unless exactly two) holding digit
    ``d0``'s places in units ``u1`` and ``u2``."""
    unit_cells, cell_units = tables
    v1 = -1
    v2 = -1
    for u in (u1, u2):
        for j in range(unit_cells.shape[1]):
            c = unit_cells[u, j]
            if c < 0:
                break
            if masks[c] >> d0 & 1:
                v = _unit_in(c, cover, cover + n, cell_units)
                if v == v1 or v == v2:
                    continue
                if v1 < 0:
                    v1 = v
                elif v2 < 0:
                    v2 = v
                else:
                    return -1, -1
    if v2 < 0:
        return -1, -1
    if v2 < v1:
        return v2, v1
    return v1, v2


@jit
def _wing_cells(u1, u2, v1, v2, d0, masks0, masks, removed, n, tables, into, at):
    """The cells of units ``u1`` and ``u2`` (disjoint), ascending, outside ``v1`` and ``v2``
    that lost digit ``d0`` since the assumption (``removed``) or hold it now, as off
    potentials written to ``into`` from ``at`` on; returns their count."""
    unit_cells, cell_units = tables
    m = unit_cells.shape[1]
    j1 = 0
    j2 = 0
    count = 0
    while True:
        a = unit_cells[u1, j1] if j1 < m else -1
        b = unit_cells[u2, j2] if j2 < m else -1
        if a < 0 and b < 0:
            break
        if b < 0 or (0 <= a < b):
            c = a
            j1 += 1
        else:
            c = b
            j2 += 1
        if _inside(c, v1, cell_units) or _inside(c, v2, cell_units):
            continue
        now = masks[c] >> d0 & 1
        if removed:
            keep = (masks0[c] >> d0 & 1) != 0 and now == 0
        else:
            keep = now != 0
        if keep:
            into[at + count] = (c * n + d0) << 1
            count += 1
    return count
