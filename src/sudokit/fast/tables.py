"""Integer tables the kernels read, built once per :class:`~sudokit.geometry.Geometry`.

Everything comes from the geometry's units and peers, so a variant with extra units (the
diagonals of Sudoku X) works unchanged: its units join the hidden-single sweep and its peers the
naked-single eliminations. Locked candidates use the box/line structure: a *segment* is the
intersection of one box with one row (row family) or one column (column family).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ..geometry import Geometry

__all__ = ["Tables", "Segments", "tables_for"]


class Segments(NamedTuple):
    """Box/line intersections of one family (rows or columns), all int32.

    Attributes:
        cells: [S, K] cells of each segment (K = box_cols for rows, box_rows for columns).
        line: [S] the row or column index of each segment.
        box: [S] the box index of each segment.
        line_segments: [N, N // K] segment ids along each line.
        box_segments: [N, K'] segment ids inside each box (K' = box_rows for rows).

    A family whose segments are whole lines (1xN boxes for rows) has no locked candidates;
    its arrays are then empty (S = 0).
    """

    cells: np.ndarray
    line: np.ndarray
    box: np.ndarray
    line_segments: np.ndarray
    box_segments: np.ndarray


class Tables(NamedTuple):
    """The geometry as kernel arguments (int32 arrays).

    Attributes:
        units: [U, N] cells of every unit (rows, columns, boxes, extra units).
        peer_start: [N*N + 1] CSR offsets into ``peers``.
        peers: [sum of peer counts] peers of each cell, cell by cell.
        unit_start: [N*N + 1] CSR offsets into ``cell_units``.
        cell_units: [sum of unit counts] the units of each cell (indices into ``units``).
        rows: locked-candidate segments of rows and boxes.
        cols: locked-candidate segments of columns and boxes.
    """

    units: np.ndarray
    peer_start: np.ndarray
    peers: np.ndarray
    unit_start: np.ndarray
    cell_units: np.ndarray
    rows: Segments
    cols: Segments


def _segments(geometry: Geometry, lines: tuple[tuple[int, ...], ...], size: int) -> Segments:
    """Cut every line into runs of ``size`` cells, one per box it crosses."""
    n = geometry.side
    if size >= n:
        empty = np.zeros((0, max(size, 1)), np.int32)
        return Segments(empty, np.zeros(0, np.int32), np.zeros(0, np.int32),
                        np.zeros((n, 0), np.int32), np.zeros((n, 0), np.int32))
    cells = np.array([line[k:k + size] for line in lines for k in range(0, n, size)], np.int32)
    line = np.repeat(np.arange(n, dtype=np.int32), n // size)
    box = np.array([geometry.box_of(int(seg[0])) for seg in cells], np.int32)
    order = np.argsort(box, kind="stable")
    return Segments(cells, line, box, np.arange(len(cells), dtype=np.int32).reshape(n, n // size),
                    order.astype(np.int32).reshape(n, -1))


def _csr(lists: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Return (offsets int32[len + 1], values int32[total]) of a list of int lists."""
    start = np.zeros(len(lists) + 1, np.int32)
    start[1:] = np.cumsum([len(items) for items in lists])
    return start, np.array([x for items in lists for x in items], np.int32)


@cache
def tables_for(geometry: Geometry) -> Tables:
    """Return the kernel tables of ``geometry`` (cached; treat the arrays as read-only)."""
    units = np.array(geometry.units, np.int32).reshape(len(geometry.units), geometry.side)
    return Tables(units, *_csr(geometry.peers), *_csr(geometry.units_of),
                  _segments(geometry, geometry.rows, geometry.box_cols),
                  _segments(geometry, geometry.cols, geometry.box_rows))
