"""What the chain, ALS, cycle and forcing kernels read: a board's candidates as arrays
(:func:`board_arrays`, :func:`board_places`, made once per snapshot) and the node shapes of
chains on a grid (:func:`shape_tables`, once per geometry). The grid's own arrays are those of
:func:`sudokit.logic.tables.grid_tables`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...fast.state import jit
from ...model.geometry import Geometry
from ..state import Board
from ..tables import bitsets, per_geometry

__all__ = ["BoardArrays", "ShapeTables", "board_arrays", "board_places", "shape_tables"]


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


class ShapeTables(NamedTuple):
    """The node shapes of chains on one grid: shape ``s < C`` is the single cell ``s``; shapes
    from C on are the grouped nodes, every set of two or more cells of one box-line
    intersection. A chain node is ``shape * N + digit - 1``.

    Attributes:
        ids: dict, cells bitmask -> shape.
        cells: int32[S, W], each shape's cells ascending, padded with -1.
        common: uint8[S, C], 1 where a cell sees every cell of the shape.
        unit_pos: int32[U, C], a cell's position in the unit (-1 outside it).
        seen_bits: int64[S, W], bitset over cells (cell x: bit x % 64 of word x // 64) of the
            cells outside the shape that see every cell of it (``common`` and not in it).
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
    return ShapeTables(ids, cells_arr, common, unit_pos, seen_bits, shape_bits, part,
                       position, part_shape, part_cells, rank)
