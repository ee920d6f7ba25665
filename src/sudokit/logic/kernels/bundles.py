"""The argument bundles of the ladder's kernels: NamedTuples of arrays, so that no kernel takes
more than a dozen parameters (as :mod:`sudokit.fast` passes ``tables, state, rules``).

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

__all__ = ["LadderGrid", "LadderMemo", "LadderScratch"]


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
