"""Numba kernels for the almost-locked-set techniques: ALS enumeration and ALS-XZ (the ALS wings
WXYZ-Wing and VWXYZ-Wing are in :mod:`._als_wings_kernel`, over the same sets).

They repeat, on arrays, the Python searches of :mod:`sudokit.logic.techniques.als` in the same
order and with the same tests, and return only *which* sets (and pivot) the step uses; the
Python side builds the one :class:`~sudokit.logic.step.Step`. An ALS (almost locked set: n cells of one unit holding n + 1
candidates; Hobiwan 2008) is a row of ``cells`` (int32[K, W], ascending cells padded with -1)
and of ``digits`` (int64[K], its candidate mask). Grid arrays are those of
:func:`sudokit.logic.tables.grid_tables`.
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits

__all__ = ["als_xz_first", "enumerate_als"]


@jit
def enumerate_als(masks, values, units, units_of, max_cells, out_cells, out_digits, combo,
                  unions, open_cells):
    """Every ALS of 1 to ``max_cells`` cells, each once (in the first unit holding it), in the
    order of :func:`sudokit.logic.techniques.als.almost_locked_sets`: units in order, then
    size, then the lexicographic order of the unit's open cells. ``combo``, ``unions`` and
    ``open_cells`` (int64[N + 1]) are scratch. Returns the number of sets, or -1 when
    ``out_cells`` is too short."""
    k = 0
    n = units.shape[1]
    for u in range(units.shape[0]):
        m = 0
        for i in range(n):
            c = units[u, i]
            if not values[c]:
                open_cells[m] = c
                m += 1
        top = min(max_cells, m - 1)
        for size in range(1, top + 1):
            # lexicographic size-combinations of the open cells; a prefix whose union has more
            # than top + 1 candidates is not extended (as the Python search)
            depth = 0
            combo[0] = 0
            while depth >= 0:
                if combo[depth] >= m:
                    depth -= 1
                    if depth >= 0:
                        combo[depth] += 1
                    continue
                union = masks[open_cells[combo[depth]]]
                if depth > 0:
                    union |= unions[depth - 1]
                count = count_bits(union)
                if count > top + 1:
                    combo[depth] += 1
                    continue
                unions[depth] = union
                if depth + 1 < size:
                    combo[depth + 1] = combo[depth] + 1
                    depth += 1
                    continue
                if count == size + 1 and not _seen_before(open_cells, combo, size, u, units,
                                                          units_of):
                    if k >= out_cells.shape[0]:
                        return -1
                    for i in range(out_cells.shape[1]):
                        out_cells[k, i] = open_cells[combo[i]] if i < size else -1
                    out_digits[k] = union
                    k += 1
                combo[depth] += 1
    return k


@jit
def _seen_before(open_cells, combo, size, u, units, units_of):
    """Whether a unit before ``u`` holds every cell of the combination (so the set was
    recorded there)."""
    first = open_cells[combo[0]]
    for j in range(units_of.shape[1]):
        v = units_of[first, j]
        if v < 0:
            break
        if v >= u:
            continue
        inside = True
        for i in range(size):
            c = open_cells[combo[i]]
            found = False
            for p in range(units.shape[1]):
                if units[v, p] == c:
                    found = True
                    break
            if not found:
                inside = False
                break
        if inside:
            return True
    return False


@jit
def _disjoint(cells, a, b):
    for i in range(cells.shape[1]):
        x = cells[a, i]
        if x < 0:
            break
        for j in range(cells.shape[1]):
            if cells[b, j] == x:
                return False
    return True


@jit
def _restricted(cells, masks, sees, a, b, x):
    """Whether every cell of set ``a`` holding x sees every cell of set ``b`` holding x."""
    for i in range(cells.shape[1]):
        p = cells[a, i]
        if p < 0:
            break
        if (masks[p] >> x) & 1 and not _sees_places(p, cells, masks, sees, b, x):
            return False
    return True


@jit
def _sees_places(c, cells, masks, sees, a, z):
    """Whether cell ``c`` sees every cell of set ``a`` holding z."""
    for i in range(cells.shape[1]):
        p = cells[a, i]
        if p < 0:
            break
        if (masks[p] >> z) & 1 and not sees[c, p]:
            return False
    return True


@jit
def _inside(cells, a, c):
    for i in range(cells.shape[1]):
        if cells[a, i] == c:
            return True
    return False


@jit
def als_xz_first(cells, digits, k, masks, values, sees, peers, n):
    """The first pair of sets ``i < j`` (in order) and restricted common digit ``x - 1`` that
    eliminates something, as :func:`sudokit.logic.techniques.als.als_xz` finds it; returns
    ``(i, j, x)`` or ``(-1, -1, -1)``. ``peers`` is the grid's int32[C, P] peer lists (see
    :func:`~sudokit.logic.tables.grid_tables`): only peers of a set's places can be
    targets."""
    for a in range(k):
        for b in range(a + 1, k):
            common = digits[a] & digits[b]
            if count_bits(common) < 2 or not _disjoint(cells, a, b):
                continue
            for x in range(n):
                if not (common >> x) & 1 or not _restricted(cells, masks, sees, a, b, x):
                    continue
                for z in range(n):
                    if z == x or not (common >> z) & 1:
                        continue
                    # a target sees every place of z in a, so it is a peer of the first
                    first = _first_place(cells, masks, a, z)
                    for j in range(peers.shape[1]):
                        c = peers[first, j]
                        if c < 0:
                            break
                        if (values[c] or not (masks[c] >> z) & 1 or _inside(cells, a, c)
                                or _inside(cells, b, c)):
                            continue
                        if (_sees_places(c, cells, masks, sees, a, z)
                                and _sees_places(c, cells, masks, sees, b, z)):
                            return a, b, x
    return -1, -1, -1


@jit
def _first_place(cells, masks, a, d):
    """The first cell of set ``a`` holding digit ``d + 1`` (the set holds it)."""
    for i in range(cells.shape[1]):
        p = cells[a, i]
        if p < 0:
            break
        if (masks[p] >> d) & 1:
            return p
    return -1
