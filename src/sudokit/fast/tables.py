"""Integer tables the kernels read, built once per :class:`~sudokit.model.geometry.Geometry`.

Everything comes from the geometry, so every variant runs on the same kernels:

* units (``geometry.units``: rows and columns of every grid of a layout, boxes or jigsaw
  regions, diagonals, hyper boxes, disjoint groups, a layout's extra units) feed the
  hidden-single sweep, and peers (``geometry.peers``: unit mates, cage mates, anti-knight and
  anti-king relations) the naked-single eliminations;
* ``initial``: each cell's candidates before any given (even/odd cells);
* ``near``: orthogonal neighbours under the non-consecutive rule (a placed d removes d - 1 and
  d + 1 from each of them);
* ``cages``: per killer cage, the digit masks of every set of distinct digits reaching its total
  (the "combination" tables of killer solvers; see :func:`combination_masks`);
* locked candidates: on one grid with rectangular boxes a *segment* is the intersection of one
  box with one row (row family) or one column (column family), as before; elsewhere (jigsaw
  regions, overlapping grids) :class:`Intersections` holds every intersection of two or more
  units with at least 2 cells and fewer than N.

Tables of standard geometries (and of any plain one: one grid, rectangular boxes, any
:class:`~sudokit.model.constraints.Variant`) live as long as the process (``functools.cache``);
tables of per-puzzle geometries (jigsaw, killer, even/odd, layouts) sit in a bounded LRU cache,
since a file may hold millions of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np

from ..model.geometry import Geometry

__all__ = [
    "COMBINATION_LIMIT",
    "Cages",
    "Intersections",
    "Segments",
    "Tables",
    "bare_geometry",
    "combination_masks",
    "tables_for",
]

COMBINATION_LIMIT = 1 << 14
"""Most digit combinations tabled per cage; a cage with more (only on large grids, e.g. 8 cells
of a 25x25 killer) is propagated by sum bounds instead (see :func:`sudokit.fast.rules`)."""


class Segments(NamedTuple):
    """Box/line intersections of one family (rows or columns), all int32.

    Attributes:
        cells: [S, K] cells of each segment (K = box_cols for rows, box_rows for columns).
        line: [S] the row or column index of each segment.
        box: [S] the box index of each segment.
        line_segments: [N, N // K] segment ids along each line.
        box_segments: [N, K'] segment ids inside each box (K' = box_rows for rows).

    A family whose segments are whole lines (1xN boxes for rows) has no locked candidates;
    its arrays are then empty (S = 0), as they are on geometries that use
    :class:`Intersections` instead.
    """

    cells: np.ndarray
    line: np.ndarray
    box: np.ndarray
    line_segments: np.ndarray
    box_segments: np.ndarray


class Intersections(NamedTuple):
    """Unit intersections for locked candidates where boxes are not rectangular (int32 CSR).

    A segment is a set of 2..N-1 cells that two or more units share; a *pair* is one segment
    with one unit holding it. A digit that a unit holds only inside the segment leaves the
    other units of the segment outside it (pointing and claiming generalised; Sudopedia,
    "Locked Candidates"; for jigsaw, "Jigsaw Sudoku" intersections).

    Attributes:
        start: [S + 1] offsets into ``cells``.
        cells: the segments' cells, segment by segment.
        pair_start: [S + 1] offsets of each segment's pairs.
        out_start: [P + 1] offsets into ``outside``.
        outside: per pair, the cells of its unit outside the segment.
    """

    start: np.ndarray
    cells: np.ndarray
    pair_start: np.ndarray
    out_start: np.ndarray
    outside: np.ndarray


class Cages(NamedTuple):
    """Killer cages as kernel arrays.

    Attributes:
        start: int32[K + 1] offsets into ``cells``.
        cells: int32 cage cells, cage by cage.
        total: int64[K] cage totals.
        combo_start: int32[K + 1] offsets into ``combos`` (an empty range: more combinations
            than :data:`COMBINATION_LIMIT`; the cage then propagates by sum bounds).
        combos: uint64 digit masks (bit d-1 for digit d) of the combinations of each cage.
        of_cell: int32[C] the cage of each cell, or -1.
    """

    start: np.ndarray
    cells: np.ndarray
    total: np.ndarray
    combo_start: np.ndarray
    combos: np.ndarray
    of_cell: np.ndarray


class Tables(NamedTuple):
    """The geometry as kernel arguments (int32 arrays unless said otherwise; C cells).

    Attributes:
        units: [U, N] cells of every unit (rows, columns, boxes or regions, extra units).
        peer_start: [C + 1] CSR offsets into ``peers``.
        peers: [sum of peer counts] peers of each cell, cell by cell.
        unit_start: [C + 1] CSR offsets into ``cell_units``.
        cell_units: [sum of unit counts] the units of each cell (indices into ``units``).
        rows: locked-candidate segments of rows and boxes.
        cols: locked-candidate segments of columns and boxes.
        initial: uint64[C] candidates of each cell before the givens (parity applied).
        near_start: [C + 1] CSR offsets into ``near``.
        near: non-consecutive neighbours of each cell (empty without the rule).
        inter: :class:`Intersections` (empty on one grid with rectangular boxes).
        cages: :class:`Cages` (K = 0 without cages).
    """

    units: np.ndarray
    peer_start: np.ndarray
    peers: np.ndarray
    unit_start: np.ndarray
    cell_units: np.ndarray
    rows: Segments
    cols: Segments
    initial: np.ndarray
    near_start: np.ndarray
    near: np.ndarray
    inter: Intersections
    cages: Cages


def _empty_segments(n: int, size: int) -> Segments:
    empty = np.zeros((0, max(size, 1)), np.int32)
    return Segments(empty, np.zeros(0, np.int32), np.zeros(0, np.int32),
                    np.zeros((n, 0), np.int32), np.zeros((n, 0), np.int32))


def _segments(geometry: Geometry, lines: tuple[tuple[int, ...], ...], size: int) -> Segments:
    """Cut every line into runs of ``size`` cells, one per box it crosses."""
    n = geometry.side
    if size >= n:
        return _empty_segments(n, size)
    cells = np.array([line[k:k + size] for line in lines for k in range(0, n, size)], np.int32)
    line = np.repeat(np.arange(n, dtype=np.int32), n // size)
    box = np.array([geometry.box_of(int(seg[0])) for seg in cells], np.int32)
    order = np.argsort(box, kind="stable")
    return Segments(cells, line, box, np.arange(len(cells), dtype=np.int32).reshape(n, n // size),
                    order.astype(np.int32).reshape(n, -1))


def _csr(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Return (offsets int32[len + 1], values int32[total]) of a list of int lists."""
    start = np.zeros(len(lists) + 1, np.int32)
    start[1:] = np.cumsum([len(items) for items in lists])
    return start, np.array([x for items in lists for x in items], np.int32)


def _intersections(geometry: Geometry) -> Intersections:
    """Every set of 2..N-1 cells shared by two or more units, with the units holding it."""
    n, units = geometry.side, geometry.units
    common: dict[tuple[int, int], list[int]] = {}
    for cell, owners in enumerate(geometry.units_of):  # cells in increasing order
        for i, u in enumerate(owners):
            for v in owners[i + 1:]:
                common.setdefault((u, v), []).append(cell)
    holders: dict[tuple[int, ...], set[int]] = {}
    for (u, v), shared in common.items():
        if 2 <= len(shared) < n:
            holders.setdefault(tuple(shared), set()).update((u, v))
    segments = sorted(holders)
    pairs = [(set(seg), u) for seg in segments for u in sorted(holders[seg])]
    start, cells = _csr(segments)
    pair_start = np.zeros(len(segments) + 1, np.int32)
    pair_start[1:] = np.cumsum([len(holders[seg]) for seg in segments])
    out_start, outside = _csr([[c for c in units[u] if c not in seg] for seg, u in pairs])
    return Intersections(start, cells, pair_start, out_start, outside)


def _no_intersections() -> Intersections:
    zero = np.zeros(1, np.int32)
    return Intersections(zero, np.zeros(0, np.int32), zero, zero, np.zeros(0, np.int32))


@cache
def combination_masks(size: int, total: int, side: int) -> tuple[int, ...] | None:
    """The digit masks (bit d-1 for digit d) of every set of ``size`` distinct digits of
    1..``side`` adding up to ``total``, in increasing order of their digits; None when there
    are more than :data:`COMBINATION_LIMIT` (the caller then uses sum bounds). The engine's
    table form, pruned by sum bounds and capped; the CSP core lists the same sets as digit
    tuples (:func:`sudokit.csp.cages.cage_combinations`, bit d for digit d in its masks).

    >>> [bin(m) for m in combination_masks(2, 4, 9)], len(combination_masks(3, 15, 9))
    (['0b101'], 8)
    """
    found: list[int] = []

    def extend(low: int, left: int, rest: int, mask: int) -> bool:
        if left == 0:
            if rest == 0:
                found.append(mask)
            return len(found) <= COMBINATION_LIMIT
        for d in range(low, side + 1):
            smallest = d * left + left * (left - 1) // 2  # d, d+1, ..., d+left-1
            if smallest > rest:
                break
            largest = left * (2 * side - left + 1) // 2  # the left largest digits
            if largest < rest:
                return True
            if not extend(d + 1, left - 1, rest - d, mask | 1 << (d - 1)):
                return False
        return True

    if not extend(1, size, total, 0):
        return None
    return tuple(found)


def _cages(geometry: Geometry) -> Cages:
    cages, side = geometry.cages, geometry.side
    start, cells = _csr([cage.cells for cage in cages])
    tables = [combination_masks(len(cage.cells), cage.total, side) or () for cage in cages]
    combo_start = np.zeros(len(cages) + 1, np.int32)
    combo_start[1:] = np.cumsum([len(t) for t in tables])
    combos = np.array([m for t in tables for m in t], np.uint64)
    of_cell = np.array(geometry.cage_of, np.int32) if cages else np.full(
        geometry.n_cells, -1, np.int32)
    return Cages(start, cells, np.array([cage.total for cage in cages], np.int64), combo_start,
                 combos, of_cell)


def _initial(geometry: Geometry) -> np.ndarray:
    side = geometry.side
    full = (1 << side) - 1
    odd = sum(1 << (d - 1) for d in range(1, side + 1, 2))
    masks = {".": full, "o": odd, "e": full & ~odd}
    if geometry.parity is None:
        return np.full(geometry.n_cells, full, np.uint64)
    return np.array([masks[k] for k in geometry.parity], np.uint64)


def _build(geometry: Geometry) -> Tables:
    if geometry.cages and geometry.regions is None and geometry.layout is None and \
            geometry.parity is None and not geometry.extra_regions:
        # a killer grid: its plain grid's tables (shared), its own peers (cage mates) and cages
        plain = _shared_tables(Geometry.of(geometry.box_rows, geometry.box_cols,
                                           geometry.variant))
        if plain.units.shape[0] == len(geometry.units):
            peer_start, peers = _csr(geometry.peers)
            return plain._replace(peer_start=peer_start, peers=peers, cages=_cages(geometry))
    units = np.array(geometry.units, np.int32).reshape(len(geometry.units), geometry.side)
    rectangular = geometry.regions is None and geometry.layout is None
    if rectangular:
        rows = _segments(geometry, geometry.rows, geometry.box_cols)
        cols = _segments(geometry, geometry.cols, geometry.box_rows)
        inter = _no_intersections()
    else:
        rows = _empty_segments(geometry.side, geometry.box_cols)
        cols = _empty_segments(geometry.side, geometry.box_rows)
        inter = _intersections(geometry)
    return Tables(units, *_csr(geometry.peers), *_csr(geometry.units_of), rows, cols,
                  _initial(geometry), *_csr(geometry.neighbours), inter, _cages(geometry))


@cache
def _shared_tables(geometry: Geometry) -> Tables:
    return _build(geometry)


@lru_cache(maxsize=64)
def _puzzle_tables(geometry: Geometry) -> Tables:
    return _build(geometry)


def bare_geometry(geometry: Geometry) -> Geometry:
    """``geometry`` without its drawn rules (``constraints``): the shared geometry of the same
    grid, regions, cages, parity and layout, whose derived tables (units, peers) are those of
    ``geometry`` and are computed once for every puzzle drawn on it."""
    if not geometry.constraints:
        return geometry
    return Geometry.of(geometry.box_rows, geometry.box_cols, geometry.variant,
                       regions=geometry.regions, cages=geometry.cages, parity=geometry.parity,
                       layout=geometry.layout, extra_regions=geometry.extra_regions)


def tables_for(geometry: Geometry) -> Tables:
    """Return the kernel tables of ``geometry`` (cached; treat the arrays as read-only).

    Plain geometries (one grid, rectangular boxes) are cached for the life of the process
    (``functools.cache``); the others (jigsaw, killer, even/odd, layouts, often one per
    puzzle) in an LRU cache of 64 entries, so memory stays bounded over any number of puzzles.
    The drawn rules (``geometry.constraints``) change none of these tables, so a geometry with
    them shares the tables of the same geometry without them (every puzzle of thermometers,
    sandwiches, ... on a plain grid shares one set).
    """
    geometry = bare_geometry(geometry)
    if geometry.is_plain:
        return _shared_tables(geometry)
    return _puzzle_tables(geometry)
