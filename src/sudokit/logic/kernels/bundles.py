"""The argument bundles of the logic kernels (the ladder's, the chain walks'): NamedTuples of
arrays, so that no kernel takes more than a dozen parameters (as :mod:`sudokit.fast` passes
``tables, state, rules``).

A bundle crosses into compiled code as a plain tuple in field order and the kernel names it
again (``LadderGrid(*grid)``): Numba's dispatcher types a plain tuple in C but a NamedTuple in
Python, which cost about 4 us more per call, measured on a 10-array bundle (the ladder's kernel
is called dozens of times per solve). Inside compiled code the NamedTuple costs nothing. No
Numba here: the Python side imports these classes; they live under ``logic/kernels/`` so that
the disk cache's digest (:data:`sudokit.fast.cache.KERNEL_SOURCES`) covers their fields.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["ChainBoard", "ChainGrid", "ChainScratch", "LadderGrid", "LadderMemo",
           "LadderScratch"]


class LadderGrid(NamedTuple):
    """A grid's arrays for :func:`~sudokit.logic._ladder_kernel.first_found` (made once per
    geometry: :func:`sudokit.logic.ladder.ladder_tables`; C cells, U units of N cells, W words
    of 64 cells).

    Attributes:
        units: int64[U, N] cells of each unit (rows, columns, boxes, extra units).
        ukind: int64[U] 0 row, 1 column, 2 box, 3 extra.
        inter: int64[I, 5] unit intersections: first unit, second unit, first is a box, shared
            positions in the first, positions in the second outside the first (bitmasks).
        sees: uint8[C, C] peer matrix.
        cell_units: int64[C, K] units of each cell padded with -1.
        rects: int64[R, 4] unique-rectangle corners.
        box_of: int64[C] the box (or jigsaw region) of each cell.
        peer_bits: uint64[C, W] each cell's peers as a bitset over cells (cell c: bit c % 64 of
            word c // 64; a cell is not its own peer).
        unit_bits: uint64[U, W] each unit's cells.
        swappable: whether the uniqueness techniques apply.
    """

    units: np.ndarray
    ukind: np.ndarray
    inter: np.ndarray
    sees: np.ndarray
    cell_units: np.ndarray
    rects: np.ndarray
    box_of: np.ndarray
    peer_bits: np.ndarray
    unit_bits: np.ndarray
    swappable: bool


class LadderScratch(NamedTuple):
    """The work arrays of one :func:`~sudokit.logic._ladder_kernel.first_found` call.

    Attributes:
        places: uint64[U, N], filled with the digits' places per unit (kept by the board).
        work: int64[4 + max(C, N) + K + 2N + 2C] scratch.
        vals: uint64[N] scratch.
        pairs: int64[U, 3] scratch (a digit's strong links).
        bitsets: uint64[N + 5, W] scratch (the digits' open cells, all cells, four more).
    """

    places: np.ndarray
    work: np.ndarray
    vals: np.ndarray
    pairs: np.ndarray
    bitsets: np.ndarray


class LadderMemo(NamedTuple):
    """What :func:`~sudokit.logic._ladder_kernel.first_found` remembers through one solve
    (zeros at first).

    Attributes:
        memo: uint64[N, W + 1] per digit: its open cells (as a bitset) when last seen, and a bit
            ``1 << code`` for each single-digit technique (fish, Turbot Fish, Empty Rectangle)
            that found nothing on that digit with those cells.
        unit_memo: uint64[U, N + 1] the same for the subsets, per unit: its cells' masks (bit
            63 set on a placed cell) and a bit per naked or hidden subset size that found
            nothing in it.
    """

    memo: np.ndarray
    unit_memo: np.ndarray


class ChainGrid(NamedTuple):
    """A grid's tables for the chain walks (:mod:`sudokit.logic.chains._walk_kernel`; made once
    per geometry and grouping: :class:`sudokit.logic.chains.walkers.Walker`'s kit). Nodes are
    ``shape * N + digit - 1`` over S node shapes (:class:`~.arrays.ShapeTables`: C cells, then
    the grouped nodes); W words of 64 cells, U units, I box-line intersections.

    Attributes:
        n: the side N.
        c_count: the cells C (the shapes below C are single cells).
        sees: uint8[C, C] peer matrix.
        seen_bits: int64[S, W] cells outside each shape that see all of it, as a bitset.
        shape_bits: int64[S, W] each shape's cells as a bitset.
        cells: int32[S, W'] each shape's cells ascending, padded with -1.
        common: uint8[S, C] 1 where a cell sees every cell of the shape.
        unit_pos: int32[U, C] a cell's position in a unit (-1 outside it).
        units: int32[U, N] the cells of each unit.
        units_of: int32[C, K] the units of each cell, padded with -1.
        part: int32[C, 2] per cell its (box and row, box and column) intersection.
        position: int32[C, 2] the cell's position in those intersections.
        part_shape: int32[I, 2**W'] the shape of each subset of an intersection.
    """

    n: int
    c_count: int
    sees: np.ndarray
    seen_bits: np.ndarray
    shape_bits: np.ndarray
    cells: np.ndarray
    common: np.ndarray
    unit_pos: np.ndarray
    units: np.ndarray
    units_of: np.ndarray
    part: np.ndarray
    position: np.ndarray
    part_shape: np.ndarray


class ChainBoard(NamedTuple):
    """A board's arrays and the links a chain mode walks (one per board and mode).

    Attributes:
        masks: int64[C] candidate masks (a placed cell: its digit's bit).
        place_bits: int64[N, W] the open cells holding each digit, as a bitset
            (:func:`~.arrays.board_places`).
        unit_places: int64[U, N] per unit and digit, the positions in the unit of those cells.
        groups: int32[N, I] per digit its grouped nodes' shapes in the order of their cells
            bitmasks, padded with -1 (one column of -1 when the mode has no groups).
        unit_links: strong links between the places of a digit in a unit (all modes but XY).
        cell_links: strong links inside bivalue cells (all modes but the single-digit ones).
        cell_weak: weak links between the digits of a cell (AIC and grouped AIC).
        grouped: grouped nodes (box-line groups) as well as single candidates.
    """

    masks: np.ndarray
    place_bits: np.ndarray
    unit_places: np.ndarray
    groups: np.ndarray
    unit_links: bool
    cell_links: bool
    cell_weak: bool
    grouped: bool


class ChainScratch(NamedTuple):
    """One thread's work arrays of the chain walks (M = S * N nodes; reused by every walk, the
    link caches emptied when another board's walker takes them).

    Attributes:
        parent_on, parent_off: int32[M] each node's parent reached true and false; -2 on entry
            to a walk and again on return.
        frontier, grown, links: int64[M] scratch.
        seen: int64[2 * M] scratch (the parents set, to undo).
        path: int64[M] the chain found.
        strong_cache: int32[M, K] each node's strong links, ``strong_count`` int32[M] their
            number (-1 until computed).
        weak_cache: int32[M, K'] each node's weak links, ``weak_count`` int32[M] likewise.
        out_paths: int64[F, L] the chains found by one call, ``out_lengths`` int64[F] their
            nodes.
        mark: uint8[C * N] zeros on entry and on return; marked: int64[C * N] scratch (the
            eliminations of a nice loop counted once each).
    """

    parent_on: np.ndarray
    parent_off: np.ndarray
    frontier: np.ndarray
    grown: np.ndarray
    links: np.ndarray
    seen: np.ndarray
    path: np.ndarray
    strong_cache: np.ndarray
    strong_count: np.ndarray
    weak_cache: np.ndarray
    weak_count: np.ndarray
    out_paths: np.ndarray
    out_lengths: np.ndarray
    mark: np.ndarray
    marked: np.ndarray
