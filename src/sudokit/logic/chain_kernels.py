"""Numba kernels for the expensive chain techniques: propagation by singles (forcing chains) and
the breadth-first walk of alternating inference chains.

The kernels repeat, on arrays, what the Python code of :mod:`sudokit.logic.dynamic` and
:mod:`sudokit.logic.chains` does, in the same order, so that every step found is the same
(the tests compare both on every state of many solves). They return numbers and paths only; the
Python side builds the one :class:`~sudokit.logic.step.Step` (texts, links, rating).

The grid's arrays (``peers``, ``sees``, ``units``, ``units_of``) are those of
:func:`sudokit.logic.tables.grid_tables`.

Candidate masks are int64 (bit d - 1 for digit d; the chain techniques run up to side 16).
Kernels compile on first use and are cached on disk (:mod:`sudokit.fast.cache` lists this
file's pattern, ``logic/chain_*.py``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..fast.state import jit
from ..model.geometry import Geometry
from .state import Board
from .tables import bitsets, per_geometry

__all__ = ["BoardArrays", "ShapeTables", "board_arrays", "board_places", "digit_forcing_keys",
           "digit_starts", "forcing_best", "group_nodes", "propagate", "rank_starts",
           "shape_tables", "walk_starts"]


class BoardArrays(NamedTuple):
    """A board's candidates as the kernels read them (:func:`board_arrays`).

    Attributes:
        masks: int64[C], candidate masks (a placed cell: its digit's bit).
        values: int64[C], placed digits (0 open).
        open: uint8[C], 1 for an open cell.
        cand: uint8[C, N], 1 where digit d + 1 is a candidate of an open cell.
        places: per digit, its open cells packed as bytes (a dictionary key).
    """

    masks: np.ndarray
    values: np.ndarray
    open: np.ndarray
    cand: np.ndarray
    places: list[bytes]


def board_arrays(board: Board) -> BoardArrays:
    """The :class:`BoardArrays` of ``board`` (made once per snapshot, from its NumPy
    arrays)."""
    arrays = board.memo.get("chain-arrays")
    if arrays is None:
        n, c = board.side, board.geometry.n_cells
        masks, values = np.empty(c, dtype=np.int64), np.empty(c, dtype=np.int64)
        open_, cand = np.empty(c, dtype=np.uint8), np.empty((c, n), dtype=np.uint8)
        packed = np.empty((n, (c + 7) // 8), dtype=np.uint8)
        _fill_arrays(board.array, board.value_array, masks, values, open_, cand, packed)
        arrays = board.memo["chain-arrays"] = BoardArrays(
            masks, values, open_, cand, [row.tobytes() for row in packed])
    return arrays


def board_places(board: Board, units: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The places of each digit on ``board`` (made once per snapshot, shared by the chain
    searches of every mode): ``(place_bits, unit_places)``, int64[N, W] the open cells holding
    digit d + 1 as a bitset (cell x: bit x % 64 of word x // 64), and int64[U, N] per unit of
    ``units`` (int32[U, N], :class:`GridTables`) the positions in the unit of those cells (bit i:
    ``units[u, i]``)."""
    places = board.memo.get("chain-places")
    if places is None:
        arrays = board_arrays(board)
        n, c = board.side, board.geometry.n_cells
        place_bits = np.empty((n, max((c + 63) // 64, 1)), dtype=np.int64)
        unit_places = np.empty((units.shape[0], n), dtype=np.int64)
        _fill_places(arrays.masks, arrays.open, units, place_bits, unit_places)
        places = board.memo["chain-places"] = (place_bits, unit_places)
    return places


@jit
def _fill_places(masks, open_, units, place_bits, unit_places):
    """Fill the arrays of :func:`board_places`."""
    for d in range(place_bits.shape[0]):
        for w in range(place_bits.shape[1]):
            place_bits[d, w] = 0
    for c in range(masks.size):
        if open_[c]:
            m = masks[c]
            while m:
                b = trailing_zeros(m)
                m &= m - 1
                place_bits[b, c >> 6] |= np.int64(1) << (c & 63)
    for u in range(units.shape[0]):
        for d in range(unit_places.shape[1]):
            unit_places[u, d] = 0
        for i in range(units.shape[1]):
            x = units[u, i]
            if open_[x]:
                m = masks[x]
                while m:
                    b = trailing_zeros(m)
                    m &= m - 1
                    unit_places[u, b] |= np.int64(1) << i


@jit
def _fill_arrays(array, value_array, masks, values, open_, cand, packed):
    """Fill :class:`BoardArrays` from a board's uint64 masks and int16 values (``packed[d]``:
    the open cells holding d + 1, eight cells a byte, the first in the high bit, as
    ``numpy.packbits``)."""
    n = cand.shape[1]
    for d in range(n):
        for i in range(packed.shape[1]):
            packed[d, i] = 0
    for c in range(array.size):
        m = np.int64(array[c])
        v = np.int64(value_array[c])
        masks[c] = m
        values[c] = v
        open_[c] = 1 if v == 0 else 0
        for d in range(n):
            bit = 1 if v == 0 and (m >> d) & 1 else 0
            cand[c, d] = bit
            if bit:
                packed[d, c >> 3] |= np.uint8(128 >> (c & 7))


@jit
def _pop(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@jit
def _low(m):
    i = 0
    while not (m >> i) & 1:
        i += 1
    return i


@jit
def propagate(masks0, values0, cell, d0, true, peers, units, units_of, n, masks, values,
              placed_wave, elim_wave, touched, pend_c, pend_d, unit_done):
    """Assume ``cell`` is (``true``) or is not digit ``d0 + 1``; apply basic eliminations,
    naked and hidden singles to a fixpoint, as :func:`sudokit.logic.dynamic.consequences`.

    Fills ``masks``, ``values`` (the fixpoint), ``placed_wave[c]`` (wave of the placement in
    ``c``, -1 if none), ``elim_wave[c * n + d]`` (wave of the elimination, -1 if none).
    ``touched`` (uint8[C]), ``pend_c``/``pend_d`` (int32, room for a wave's singles: C + U * n
    at least) and ``unit_done`` (uint8[U]) are scratch. Returns ``(contradiction, waves)``.
    """
    c_count = masks0.size
    for i in range(c_count):
        masks[i] = masks0[i]
        values[i] = values0[i]
        placed_wave[i] = -1
        touched[i] = 0
    for i in range(c_count * n):
        elim_wave[i] = -1
    n_pend = 0
    if true:
        pend_c[0] = cell
        pend_d[0] = d0
        n_pend = 1
    else:
        masks[cell] &= ~(1 << d0)
        elim_wave[cell * n + d0] = 0
        if masks[cell] == 0:
            return True, 0
    touched[cell] = 1
    wave = 0
    while True:
        wave += 1
        while n_pend > 0:
            n_pend -= 1
            c = pend_c[n_pend]
            d = pend_d[n_pend]
            if values[c]:
                if values[c] != d + 1:
                    return True, wave
                continue
            bit = 1 << d
            if not masks[c] & bit:
                return True, wave
            values[c] = d + 1
            masks[c] = bit
            placed_wave[c] = wave
            for j in range(peers.shape[1]):
                p = peers[c, j]
                if p < 0:
                    break
                if masks[p] & bit:
                    if values[p]:
                        return True, wave
                    masks[p] &= ~bit
                    elim_wave[p * n + d] = wave
                    touched[p] = 1
                    if masks[p] == 0:
                        return True, wave
        # singles among the touched cells and in their units
        for u in range(unit_done.size):
            unit_done[u] = 0
        n_found = 0
        for c in range(c_count):
            if not touched[c]:
                continue
            m = masks[c]
            if not values[c] and m and not m & (m - 1):
                pend_c[n_found] = c
                pend_d[n_found] = _low(m)
                n_found += 1
        for c in range(c_count):
            if not touched[c]:
                continue
            for j in range(units_of.shape[1]):
                u = units_of[c, j]
                if u < 0:
                    break
                unit_done[u] = 1
        for u in range(unit_done.size):
            if unit_done[u]:
                once = 0
                twice = 0
                placed = 0
                for i in range(n):
                    x = units[u, i]
                    if values[x]:
                        placed |= masks[x]
                        continue
                    twice |= once & masks[x]
                    once |= masks[x]
                if _pop(once | placed) != n:
                    return True, wave
                single = once & ~twice & ~placed
                while single:
                    b = _low(single)
                    single &= single - 1
                    for i in range(n):
                        x = units[u, i]
                        if not values[x] and (masks[x] >> b) & 1:
                            pend_c[n_found] = x
                            pend_d[n_found] = b
                            n_found += 1
                            break
        for c in range(c_count):
            touched[c] = 0
        if n_found == 0:
            return False, wave
        n_pend = n_found
        for i in range(n_found):
            touched[pend_c[i]] = 1


@jit
def _common_two(masks0, values0, n, pw_a, val_a, ew_a, pw_b, val_b, ew_b):
    """``(count, waves)`` of what two live branches both imply, as
    :func:`sudokit.logic.techniques.forcing._common` counts it."""
    count = 0
    waves = 0
    c_count = masks0.size
    for c in range(c_count):
        if values0[c]:
            continue
        if pw_a[c] >= 0 and pw_b[c] >= 0 and val_a[c] == val_b[c]:
            count += 1
            waves = max(waves, pw_a[c], pw_b[c])
            continue  # every elimination in a placed cell is left out
        m = masks0[c]
        for d in range(n):
            if not (m >> d) & 1:
                continue
            wa = ew_a[c * n + d]
            wb = ew_b[c * n + d]
            if wa >= 0 and wb >= 0:
                count += 1
                waves = max(waves, wa, wb)
    return count, waves


@jit
def digit_forcing_keys(masks0, values0, peers, units, units_of, n, out_kind, out_waves,
                       out_count, masks, values, pw, ew, masks2, values2, pw2, ew2, touched,
                       pend_c, pend_d, unit_done):
    """For every candidate of every open cell (cells ascending, then digits), what
    :func:`sudokit.logic.techniques.forcing._digit_step` finds: ``out_kind`` 0 nothing,
    1 its truth is contradictory, 2 its falsehood is, 3 both outcomes share facts;
    ``out_waves`` the waves the step needs, ``out_count`` its placements and eliminations.
    Returns the number of candidates."""
    k = 0
    for cell in range(masks0.size):
        if values0[cell]:
            continue
        m = masks0[cell]
        for d in range(n):
            if not (m >> d) & 1:
                continue
            on_bad, on_waves = propagate(masks0, values0, cell, d, True, peers, units,
                                         units_of, n, masks, values, pw, ew, touched, pend_c,
                                         pend_d, unit_done)
            off_bad, off_waves = propagate(masks0, values0, cell, d, False, peers, units,
                                           units_of, n, masks2, values2, pw2, ew2, touched,
                                           pend_c, pend_d, unit_done)
            kind = 0
            waves = 0
            count = 0
            if on_bad and (not off_bad or on_waves <= off_waves):
                kind, waves, count = 1, on_waves, 1
            elif off_bad:
                kind, waves, count = 2, off_waves, 1
            else:
                count, waves = _common_two(masks0, values0, n, pw, values, ew, pw2, values2,
                                           ew2)
                if count:
                    kind = 3
            out_kind[k] = kind
            out_waves[k] = waves
            out_count[k] = count
            k += 1
    return k


class ShapeTables(NamedTuple):
    """The node shapes of chains on one grid: shape ``s < C`` is the single cell ``s``; shapes
    from C on are the grouped nodes, every set of two or more cells of one box-line
    intersection. A chain node is ``shape * N + digit - 1``.

    Attributes:
        ids: dict, cells bitmask -> shape.
        cells: int32[S, W], each shape's cells ascending, padded with -1.
        member: uint8[S, C], 1 where a cell is in the shape.
        common: uint8[S, C], 1 where a cell sees every cell of the shape.
        unit_pos: int32[U, C], a cell's position in the unit (-1 outside it).
        seen_bits: int64[S, W], bitset over cells (cell x: bit x % 64 of word x // 64) of the
            cells outside the shape that see every cell of it (``common`` and not ``member``).
        shape_bits: int64[S, W], bitset of the shape's cells.
        part: int32[C, 2], per cell its (box and row, box and column) intersection index.
        position: int32[C, 2], the cell's position in those intersections.
        part_shape: int32[I, 2**W], the shape of each subset of an intersection (-1 for fewer
            than two cells).
        part_cells: int32[I, W], the cells of each intersection, padded with -1.
        rank: int64[S], each shape's place in the order of the shapes' cell bitmasks.
    """

    ids: dict
    cells: np.ndarray
    member: np.ndarray
    common: np.ndarray
    unit_pos: np.ndarray
    seen_bits: np.ndarray
    shape_bits: np.ndarray
    part: np.ndarray
    position: np.ndarray
    part_shape: np.ndarray
    part_cells: np.ndarray
    rank: np.ndarray


@per_geometry
def shape_tables(geometry: Geometry, grouped: bool) -> ShapeTables:
    """Return the :class:`ShapeTables` of a grid: with ``grouped``, of a grid with rows,
    columns and boxes only (units ``0..N-1`` rows, ``N..2N-1`` columns, ``2N..3N-1`` boxes);
    without, single cells only (any grid)."""
    n, c = geometry.side, geometry.n_cells
    units = geometry.units
    parts: list[tuple[int, ...]] = []
    index: dict[tuple[int, ...], int] = {}
    part = np.zeros((c, 2), dtype=np.int32)
    position = np.zeros((c, 2), dtype=np.int32)
    for cell in range(c if grouped else 0):
        box = set(units[2 * n + geometry.box_of(cell)])
        for k, line in enumerate((units[cell // n], units[n + cell % n])):
            cells = tuple(sorted(box & set(line)))
            if cells not in index:
                index[cells] = len(parts)
                parts.append(cells)
            part[cell, k] = index[cells]
            position[cell, k] = cells.index(cell)
    width = max((len(p) for p in parts), default=1)
    shapes: list[tuple[int, ...]] = [(cell,) for cell in range(c)]
    ids = {1 << cell: cell for cell in range(c)}
    part_shape = np.full((len(parts), 1 << width), -1, dtype=np.int32)
    for i, cells in enumerate(parts):
        for subset in range(1 << len(cells)):
            if subset.bit_count() < 2:
                continue
            chosen = tuple(cells[j] for j in range(len(cells)) if subset >> j & 1)
            mask = sum(1 << x for x in chosen)
            if mask not in ids:
                ids[mask] = len(shapes)
                shapes.append(chosen)
            part_shape[i, subset] = ids[mask]
    s = len(shapes)
    cells_arr = np.full((s, max(width, 1)), -1, dtype=np.int32)
    member = np.zeros((s, c), dtype=np.uint8)
    common = np.zeros((s, c), dtype=np.uint8)
    peers = [set(p) for p in geometry.peers]
    for k, chosen in enumerate(shapes):
        cells_arr[k, :len(chosen)] = chosen
        member[k, list(chosen)] = 1
        seen = set.intersection(*(peers[x] for x in chosen))
        common[k, sorted(seen)] = 1
    unit_pos = np.full((len(units), c), -1, dtype=np.int32)
    for u, unit in enumerate(units):
        unit_pos[u, list(unit)] = np.arange(len(unit))
    seen_bits = bitsets(common & (1 - member)).view(np.int64)
    shape_bits = bitsets(member).view(np.int64)
    part_cells = np.full((len(parts), max(width, 1)), -1, dtype=np.int32)
    for i, cells in enumerate(parts):
        part_cells[i, :len(cells)] = cells
    order = sorted(range(s), key=lambda k: sum(1 << x for x in shapes[k]))
    rank = np.empty(s, dtype=np.int64)
    rank[order] = np.arange(s)
    return ShapeTables(ids, cells_arr, member, common, unit_pos, seen_bits, shape_bits, part,
                       position, part_shape, part_cells, rank)


@jit
def _strong(node, n, shape_cells, unit_pos, units, units_of, unit_places, masks, part, position,
            part_shape, unit_links, cell_links, grouped, out):
    """The strong links of ``node`` in the order of :func:`sudokit.logic.chains._strong_links`
    (written to ``out``; returns their count), from the places of its digit in each unit of
    its cells (``unit_places``, :func:`board_places`)."""
    s = node // n
    d = node % n
    k = 0
    low = shape_cells[s, 0]
    if unit_links:
        for j in range(units_of.shape[1]):
            u = units_of[low, j]
            if u < 0:
                break
            own = 0  # the shape's positions in the unit
            inside = True
            for i in range(shape_cells.shape[1]):
                x = shape_cells[s, i]
                if x < 0:
                    break
                p = unit_pos[u, x]
                if p < 0:
                    inside = False
                    break
                own |= 1 << p
            if not inside:
                continue
            rest = unit_places[u, d] & ~own
            if rest == 0:
                continue
            if rest & (rest - 1) == 0:
                out[k] = units[u, trailing_zeros(rest)] * n + d
                k += 1
            elif grouped:
                # the rest forms a group when it lies in one box-line intersection of its
                # lowest cell
                first = units[u, trailing_zeros(rest)]
                for side in range(2):
                    p = part[first, side]
                    subset = 0
                    fits = True
                    r = rest
                    while r:
                        x = units[u, trailing_zeros(r)]
                        r &= r - 1
                        if part[x, side] != p:
                            fits = False
                            break
                        subset |= 1 << position[x, side]
                    if fits:
                        out[k] = part_shape[p, subset] * n + d
                        k += 1
                        break
    if cell_links and s == low:  # a single cell (shapes of two cells or more come after)
        m = masks[low]
        if _pop(m) == 2:
            out[k] = low * n + _low(m & ~(1 << d))
            k += 1
    return k


@jit
def _weak(node, n, c_count, masks, place_bits, seen_bits, shape_bits, groups, cell_links, out):
    """The weak links of ``node`` in the order of :func:`sudokit.logic.chains._weak_links`
    (written to ``out``; returns their count): the places of its digit (``place_bits``,
    :func:`board_places`) among the cells seeing the node (``seen_bits``), cells ascending, then
    the grouped nodes inside those. ``groups[d]`` lists the grouped nodes' shapes of digit
    d + 1 in the order of their cell bitmasks, padded with -1."""
    s = node // n
    d = node % n
    k = 0
    for w in range(seen_bits.shape[1]):
        m = seen_bits[s, w] & place_bits[d, w]
        while m:
            out[k] = ((w << 6) + trailing_zeros(m)) * n + d
            k += 1
            m &= m - 1
    for j in range(groups.shape[1]):
        g = groups[d, j]
        if g < 0:
            break
        inside = True
        for w in range(seen_bits.shape[1]):
            if shape_bits[g, w] & ~seen_bits[s, w]:
                inside = False
                break
        if inside:
            out[k] = g * n + d
            k += 1
    if cell_links and s < c_count:
        m = masks[s]
        for b in range(n):
            if b != d and (m >> b) & 1:
                out[k] = s * n + b
                k += 1
    return k


@jit
def _useful(a, z, n, c_count, masks, sees, place_bits, seen_bits):
    """Whether "a or z is true" places or eliminates something
    (:func:`sudokit.logic.chains._conclusion` is not empty)."""
    sa, da, sz, dz = a // n, a % n, z // n, z % n
    if a == z:
        return sa < c_count
    if da == dz:  # a place of the digit seeing both ends
        for w in range(seen_bits.shape[1]):
            if seen_bits[sa, w] & seen_bits[sz, w] & place_bits[da, w]:
                return True
        return False
    if sa >= c_count or sz >= c_count:
        return False
    if sa == sz:
        return (masks[sa] & ~((1 << da) | (1 << dz))) != 0
    if sees[sa, sz]:
        return ((masks[sa] >> dz) & 1) == 1 or ((masks[sz] >> da) & 1) == 1
    return False


@jit
def _loop_useful(path, length, n, masks, place_bits, seen_bits):
    """Whether the continuous nice loop ``path[:length]`` eliminates something
    (:func:`sudokit.logic.chains.loop_eliminations` is not empty)."""
    for i in range(1, length, 2):
        u = path[i]
        v = path[(i + 1) % length]
        su, du, sv, dv = u // n, u % n, v // n, v % n
        if du == dv:
            for w in range(seen_bits.shape[1]):
                if seen_bits[su, w] & seen_bits[sv, w] & place_bits[du, w]:
                    return True
        elif su == sv and masks[su] & ~((1 << du) | (1 << dv)):
            return True
    return False


@jit
def _cache_strong(node, n, shape_cells, unit_pos, units, units_of, unit_places, masks, part,
                  position, part_shape, unit_links, cell_links, grouped, links, strong_cache,
                  strong_count):
    count = _strong(node, n, shape_cells, unit_pos, units, units_of, unit_places, masks, part,
                    position, part_shape, unit_links, cell_links, grouped, links)
    for li in range(count):
        strong_cache[node, li] = links[li]
    strong_count[node] = count


@jit
def _path(last, parent_on, parent_off, path):
    """Write the chain ending at ``last`` (reached true) into ``path``; return its nodes."""
    k = 0
    path[k] = last
    k += 1
    node = parent_on[last]
    on = False
    while node != -1:
        path[k] = node
        k += 1
        node = parent_off[node] if not on else parent_on[node]
        on = not on
    for i in range(k // 2):
        path[i], path[k - 1 - i] = path[k - 1 - i], path[i]
    return k


@jit
def _walk_one(start, max_nodes, loop, n, c_count, masks, place_bits, unit_places, sees, seen_bits,
              shape_bits, shape_cells, member, common, unit_pos, units, units_of, part, position,
              part_shape, groups, unit_links, cell_links, cell_weak, grouped, parent_on, parent_off,
              frontier, grown, links, seen, path, strong_cache, strong_count, weak_cache,
              weak_count):
    """The breadth-first walk of :func:`walk_starts` from one start: returns the nodes of the
    chain found, written to ``path`` (0 for none)."""
    sa = start // n
    da = start % n
    found = 0
    if strong_count[start] < 0:
        _cache_strong(start, n, shape_cells, unit_pos, units, units_of, unit_places, masks,
                      part, position, part_shape, unit_links, cell_links, grouped, links,
                      strong_cache, strong_count)
    if strong_count[start] == 0:
        return 0
    parent_off[start] = -1
    n_seen = 0  # seen[i] >= 0: parent_on set; seen[i] < 0: parent_off[-seen[i] - 1]
    n_front = 1
    frontier[0] = start
    length = 1
    while n_front > 0 and length < max_nodes and found == 0:
        n_grown = 0
        if length % 2:
            for fi in range(n_front):
                node = frontier[fi]
                if strong_count[node] < 0:
                    _cache_strong(node, n, shape_cells, unit_pos, units, units_of,
                                  unit_places, masks, part, position, part_shape, unit_links,
                                  cell_links, grouped, links, strong_cache, strong_count)
                for li in range(strong_count[node]):
                    nxt = strong_cache[node, li]
                    if parent_on[nxt] != -2:
                        continue
                    parent_on[nxt] = node
                    seen[n_seen] = nxt
                    n_seen += 1
                    grown[n_grown] = nxt
                    n_grown += 1
                    if loop:
                        if length >= 3:
                            sz = nxt // n
                            if nxt % n == da:
                                closes = sz != sa and common[sz, sa] == 1
                            else:
                                closes = sz == sa and sa < c_count
                            if closes:
                                k = _path(nxt, parent_on, parent_off, path)
                                if _loop_useful(path, k, n, masks, place_bits, seen_bits):
                                    found = k
                    elif _useful(start, nxt, n, c_count, masks, sees, place_bits, seen_bits):
                        found = _path(nxt, parent_on, parent_off, path)
                    if found:
                        break
                if found:
                    break
        else:
            for fi in range(n_front):
                node = frontier[fi]
                if weak_count[node] < 0:
                    count = _weak(node, n, c_count, masks, place_bits, seen_bits,
                                  shape_bits, groups, cell_weak, links)
                    for li in range(count):
                        weak_cache[node, li] = links[li]
                    weak_count[node] = count
                for li in range(weak_count[node]):
                    nxt = weak_cache[node, li]
                    if parent_off[nxt] != -2:
                        continue
                    parent_off[nxt] = node
                    seen[n_seen] = -nxt - 1
                    n_seen += 1
                    grown[n_grown] = nxt
                    n_grown += 1
        for fi in range(n_grown):
            frontier[fi] = grown[fi]
        n_front = n_grown
        length += 1
    for i in range(n_seen):
        x = seen[i]
        if x >= 0:
            parent_on[x] = -2
        else:
            parent_off[-x - 1] = -2
    parent_off[start] = -2
    return found


@jit
def walk_starts(starts, first, max_nodes, loop, fixed, n, c_count, masks, place_bits, unit_places,
                sees, seen_bits, shape_bits, shape_cells, member, common, unit_pos, units, units_of,
                part, position, part_shape, groups, unit_links, cell_links, cell_weak, grouped,
                parent_on, parent_off, frontier, grown, links, seen, path, strong_cache,
                strong_count, weak_cache, weak_count, out_paths, out_lengths):
    """The breadth-first chain search of :func:`sudokit.logic.chains._walk` from each of
    ``starts[first:]`` in turn (nodes ``shape * N + d``), with the acceptance test of
    :func:`~sudokit.logic.chains._search` (or, with ``loop``, of
    :func:`~sudokit.logic.chains._search_loop`), bounded by ``max_nodes`` nodes.

    The chain found from each start goes to ``out_paths[i, :out_lengths[i]]`` (int64[F, S * N],
    int64[F]), in order; the walk goes on to the next start while the chains found are
    ``max_nodes`` long (the caller's bound, the length of its best chain so far, cannot change
    then) and stops after a shorter one (or when ``out_paths`` is full), so that the caller
    can set the next bound; with ``fixed`` (the caller keeps its bound) it stops only when
    ``out_paths`` is full.

    ``place_bits`` and ``unit_places`` are the board's places of each digit
    (:func:`board_places`, shared by the searches of every mode); ``seen_bits``, ``shape_bits``
    and ``unit_pos`` come from :class:`ShapeTables`: a node's links are built from them with a
    few word operations. ``parent_on`` and ``parent_off`` (int32[S * N]) must hold -2 on entry
    and do so again on return; ``frontier``, ``grown``, ``links`` (int64[S * N]) and ``seen``
    (int64[2 * S * N]) are scratch. The links of each node are kept, for the board, in
    ``strong_cache`` and ``weak_cache`` (int32[S * N, K]) with their counts in ``strong_count``
    and ``weak_count`` (int32[S * N], -1 until computed). Returns ``(index of the next start
    to walk, number of chains found)``.
    """
    n_out = 0
    for si in range(first, starts.size):
        found = _walk_one(
            starts[si], max_nodes, loop, n, c_count, masks, place_bits, unit_places, sees,
            seen_bits, shape_bits, shape_cells, member, common, unit_pos, units, units_of, part,
            position, part_shape, groups, unit_links, cell_links, cell_weak, grouped, parent_on,
            parent_off, frontier, grown, links, seen, path, strong_cache, strong_count, weak_cache,
            weak_count)
        if found:
            for i in range(found):
                out_paths[n_out, i] = path[i]
            out_lengths[n_out] = found
            n_out += 1
            if (found < max_nodes and not fixed) or n_out == out_lengths.size:
                return si + 1, n_out
    return starts.size, n_out


@jit
def _chain_counts(path, k, n, c_count, masks, sees, place_bits, seen_bits):
    """``(placements, eliminations)`` of "path[0] or path[k - 1] is true", counted as
    :func:`sudokit.logic.chains._conclusion` lists them."""
    a = path[0]
    z = path[k - 1]
    sa, da, sz, dz = a // n, a % n, z // n, z % n
    if a == z:
        return (1 if sa < c_count else 0), 0
    if da == dz:
        count = 0
        for w in range(seen_bits.shape[1]):
            count += _pop(seen_bits[sa, w] & seen_bits[sz, w] & place_bits[da, w])
        return 0, count
    if sa >= c_count or sz >= c_count:
        return 0, 0
    if sa == sz:
        return 0, _pop(masks[sa] & ~((1 << da) | (1 << dz)))
    if sees[sa, sz]:
        return 0, ((masks[sa] >> dz) & 1) + ((masks[sz] >> da) & 1)
    return 0, 0


@jit
def _loop_count(path, k, n, masks, place_bits, seen_bits, mark, marked):
    """The number of eliminations of the continuous nice loop ``path[:k]``, each once, as
    :func:`sudokit.logic.chains.loop_eliminations` lists them (``mark``: uint8[C * N], zero on
    entry and on return; ``marked``: int64[C * N] scratch)."""
    count = 0
    for i in range(1, k, 2):
        u = path[i]
        v = path[(i + 1) % k]
        su, du, sv, dv = u // n, u % n, v // n, v % n
        if du == dv:
            for w in range(seen_bits.shape[1]):
                m = seen_bits[su, w] & seen_bits[sv, w] & place_bits[du, w]
                while m:
                    x = (w << 6) + trailing_zeros(m)
                    m &= m - 1
                    if not mark[x * n + du]:
                        mark[x * n + du] = 1
                        marked[count] = x * n + du
                        count += 1
        elif su == sv:
            m = masks[su] & ~((1 << du) | (1 << dv))
            for b in range(n):
                if (m >> b) & 1 and not mark[su * n + b]:
                    mark[su * n + b] = 1
                    marked[count] = su * n + b
                    count += 1
    for i in range(count):
        mark[marked[i]] = 0
    return count


@jit
def _one_digit(path, k, n):
    d = path[0] % n
    for i in range(1, k):
        if path[i] % n != d:
            return False
    return True


@jit
def _better(rating, nodes, neg_pl, neg_el, best):
    """Whether the key ``(rating, nodes, -placements, -eliminations)`` is below ``best[1:5]``
    (``best[0]`` 1 when there is a best)."""
    if best[0] == 0:
        return True
    if rating != best[1]:
        return rating < best[1]
    if nodes != best[2]:
        return nodes < best[2]
    if neg_pl != best[3]:
        return neg_pl < best[3]
    return neg_el < best[4]


@jit
def rank_starts(starts, first, max_nodes, loop, bound, ratings, best, best_path, n, c_count, masks,
                place_bits, unit_places, sees, seen_bits, shape_bits, shape_cells, member, common,
                unit_pos, units, units_of, part, position, part_shape, groups, unit_links,
                cell_links, cell_weak, grouped, parent_on, parent_off, frontier, grown, links, seen,
                path, strong_cache, strong_count, weak_cache, weak_count, out_paths, out_lengths,
                mark, marked):
    """The best chain (``loop`` False) or nice loop (True) over ``starts[first:]``, ranked in
    the kernel as :func:`sudokit.logic.chains.find_chain` ranks the chains :func:`walk_starts`
    returns (same walks, order and bounds), for the modes with links inside cells.

    ``ratings[L]`` (float64) is the rating of a chain over several digits of length L
    (Sudoku Explainer's 7.0 + length bonus, computed by the caller). ``best`` (float64[6]:
    has a best, rating, nodes, -placements, -eliminations, path length) and ``best_path``
    (int64) hold the best so far and are updated. A chain is the chain's key; its walk is
    bounded by the best path's length (else ``max_nodes``). A nice loop's key is (rating of
    its nodes less two, nodes, 0, -eliminations), single-digit loops are skipped, a loop
    counts only when its rating is below ``bound``, and its walk is bounded by the best loop's
    length (else ``max_nodes``).

    A chain of one digit (rated in Python: Sukaku Explainer's strong-linked fishes) is not
    ranked here: it is written to ``out_paths[0, :out_lengths[0]]`` and the walk stops;
    returns ``(index of the next start, 1)``, else ``(starts.size, 0)``. ``mark`` (uint8[C *
    N], zeros) and ``marked`` (int64[C * N]) are scratch; the other arrays as
    :func:`walk_starts`.
    """
    for si in range(first, starts.size):
        limit = max_nodes if best[0] == 0 else np.int64(best[5])
        found = _walk_one(
            starts[si], limit, loop, n, c_count, masks, place_bits, unit_places, sees, seen_bits,
            shape_bits, shape_cells, member, common, unit_pos, units, units_of, part, position,
            part_shape, groups, unit_links, cell_links, cell_weak, grouped, parent_on, parent_off,
            frontier, grown, links, seen, path, strong_cache, strong_count, weak_cache, weak_count)
        if not found:
            continue
        if loop:
            if _one_digit(path, found, n):
                continue  # single-digit loops: the X-chain stages
            rating = ratings[found - 2]
            if not rating < bound:
                continue
            neg_pl = 0
            neg_el = -_loop_count(path, found, n, masks, place_bits, seen_bits, mark, marked)
            nodes = found
        else:
            if _one_digit(path, found, n):
                for i in range(found):
                    out_paths[0, i] = path[i]
                out_lengths[0] = found
                return si + 1, 1
            pl, el = _chain_counts(path, found, n, c_count, masks, sees, place_bits,
                                   seen_bits)
            rating = ratings[found - 2 if pl else found]
            neg_pl = -pl
            neg_el = -el
            nodes = found + 2
        if _better(rating, nodes, neg_pl, neg_el, best):
            best[0] = 1
            best[1] = rating
            best[2] = nodes
            best[3] = neg_pl
            best[4] = neg_el
            best[5] = found
            for i in range(found):
                best_path[i] = path[i]
    return starts.size, 0


@jit
def group_nodes(cand, part_cells, part_shape, rank, n, groups, nodes):
    """The grouped nodes of a board (as :func:`sudokit.logic.chains._groups`: two or more places
    of a digit in one box-line intersection): ``groups[d]`` their shapes for digit d + 1 in
    the order of ``rank`` (their cells bitmasks), padded with -1 (``groups`` must hold -1 and
    have a column per intersection); ``nodes`` every grouped node ``shape * N + d``, digits
    ascending. ``cand`` is uint8[C, N] (1: an open cell's candidate). Returns the number of
    nodes."""
    k = 0
    for d in range(n):
        m = 0
        for i in range(part_cells.shape[0]):
            subset = 0
            count = 0
            for j in range(part_cells.shape[1]):
                c = part_cells[i, j]
                if c >= 0 and cand[c, d]:
                    subset |= 1 << j
                    count += 1
            if count >= 2:
                s = part_shape[i, subset]
                # insertion by rank
                p = m
                while p > 0 and rank[groups[d, p - 1]] > rank[s]:
                    groups[d, p] = groups[d, p - 1]
                    p -= 1
                groups[d, p] = s
                m += 1
        for p in range(m):
            nodes[k] = groups[d, p] * n + d
            k += 1
    return k


@jit
def digit_starts(cand, digits, part_cells, part_shape, rank, n, groups, nodes, starts):
    """The start nodes of the single-digit walks of the digits in the mask ``digits``, in the
    order of :meth:`sudokit.logic.chains._Walker.starts` (candidates: cells ascending, then
    digits; then grouped nodes: digits ascending, by rank), written to ``starts`` (int64); fills
    ``groups`` (int32[N, I]) and ``nodes`` (int64, scratch) as :func:`group_nodes` does (every
    digit). Returns the number of starts."""
    for d in range(n):
        for j in range(groups.shape[1]):
            groups[d, j] = -1
    n_nodes = group_nodes(cand, part_cells, part_shape, rank, n, groups, nodes)
    k = 0
    for c in range(cand.shape[0]):
        for d in range(n):
            if cand[c, d] and (digits >> d) & 1:
                starts[k] = c * n + d
                k += 1
    for i in range(n_nodes):
        if (digits >> (nodes[i] % n)) & 1:
            starts[k] = nodes[i]
            k += 1
    return k


@jit
def _common_many(masks0, values0, n, k, bad, pw, val, ew):
    """``(count, waves)`` of what every live branch of ``k`` implies (branch b: ``bad[b]``
    contradiction, ``pw[b]``, ``val[b]``, ``ew[b]`` as :func:`propagate` fills them), as
    :func:`sudokit.logic.techniques.forcing._common` counts it."""
    count = 0
    waves = 0
    live = 0
    for b in range(k):
        if not bad[b]:
            live += 1
    if live == 0:
        return 0, 0
    for c in range(masks0.size):
        if values0[c]:
            continue
        placed = True
        digit = -1
        w = 0
        for b in range(k):
            if bad[b]:
                continue
            if pw[b, c] < 0 or (digit >= 0 and val[b, c] != digit):
                placed = False
                break
            digit = val[b, c]
            w = max(w, pw[b, c])
        if placed:
            count += 1
            waves = max(waves, w)
            continue  # every elimination in a placed cell is left out
        m = masks0[c]
        for d in range(n):
            if not (m >> d) & 1:
                continue
            every = True
            w = 0
            for b in range(k):
                if bad[b]:
                    continue
                if ew[b, c * n + d] < 0:
                    every = False
                    break
                w = max(w, ew[b, c * n + d])
            if every:
                count += 1
                waves = max(waves, w)
    return count, waves


@jit
def forcing_best(by_unit, masks0, values0, peers, units, units_of, n, pw, val, ew, bad,
                 masks, touched, pend_c, pend_d, unit_done):
    """The cell forcing chain (``by_unit`` False: every candidate of a cell) or unit forcing
    chain (True: every place of a digit in a unit) of fewest waves that implies something,
    first in order (cells ascending; units, then digits), as
    :func:`sudokit.logic.techniques.forcing.cell_forcing_chain` and ``unit_forcing_chain``
    find it. ``pw``, ``val`` (int64[N, C]), ``ew`` (int64[N, C * N]), ``bad`` (uint8[N]),
    ``masks`` (int64[C]) and the rest are scratch. Returns ``(cell or unit * N + digit - 1,
    waves)`` or ``(-1, 0)``."""
    best = -1
    best_waves = 0
    if by_unit:
        for u in range(units.shape[0]):
            for d in range(n):
                k = 0
                for i in range(n):
                    c = units[u, i]
                    if not values0[c] and (masks0[c] >> d) & 1:
                        k += 1
                if k < 2:
                    continue
                b = 0
                for i in range(n):
                    c = units[u, i]
                    if not values0[c] and (masks0[c] >> d) & 1:
                        bad[b], _w = propagate(masks0, values0, c, d, True, peers, units,
                                               units_of, n, masks, val[b], pw[b], ew[b],
                                               touched, pend_c, pend_d, unit_done)
                        b += 1
                count, waves = _common_many(masks0, values0, n, k, bad, pw, val, ew)
                if count and (best < 0 or waves < best_waves):
                    best = u * n + d
                    best_waves = waves
    else:
        for c in range(masks0.size):
            if values0[c]:
                continue
            k = 0
            for d in range(n):
                if (masks0[c] >> d) & 1:
                    bad[k], _w = propagate(masks0, values0, c, d, True, peers, units, units_of,
                                           n, masks, val[k], pw[k], ew[k], touched, pend_c,
                                           pend_d, unit_done)
                    k += 1
            count, waves = _common_many(masks0, values0, n, k, bad, pw, val, ew)
            if count and (best < 0 or waves < best_waves):
                best = c
                best_waves = waves
    return best, best_waves
