"""The compiled chain searches, driven from Python: per grid the kernels' tables and work arrays
(:class:`_Kit`), per board the arrays of a walk (:class:`Walker`, ranking chains and nice loops
in the kernel), and the single-digit searches replayed from the walks of earlier snapshots of
the solve (:func:`best_single_digit`). The walks (:mod:`sudokit.logic.chains._walk_kernel`,
:mod:`sudokit.logic.chains._rank_kernel`) have the same starts, order and bounds as the Python
search of :mod:`sudokit.logic.chains.links`, so the same chain is found.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import cache

import numpy as np

from ...model.geometry import Geometry
from .links import GROUPED, SINGLE_DIGIT, ChainMode, Node, conclusion
from .rating import X_NODES, chain_key, multi_digit_ratings
from ...compiled import Kernels, use_compiled
from ..kernels.bundles import ChainBoard, ChainGrid, ChainScratch
from ..memo import DigitMemo
from ..state import Board
from ..tables import grid_tables, per_geometry

__all__ = ["KERNEL_CELLS", "MAX_COMPILED_NODES", "Walker", "best_single_digit", "compiled_mode"]


KERNEL_CELLS = 256
"""Largest grid (cells) whose chains are searched by the compiled walk (sides up to 16)."""

MAX_COMPILED_NODES = 64
"""Longest chain (nodes, nice loops included) the compiled walk returns."""


def compiled_mode(board: Board, mode: ChainMode) -> bool:
    """Whether the compiled walk handles ``mode`` on this grid."""
    geometry = board.geometry
    if not use_compiled(Kernels.LOGIC, geometry.n_cells, KERNEL_CELLS):
        return False
    return mode not in GROUPED or (not geometry.features
                                   and len(geometry.units) == 3 * geometry.side)


class _Kit:
    """What the walks of one grid share (:func:`_kit`, once per geometry and grouping): its
    tables, the node shapes' cells bitmasks, the kernels' grid bundle (a
    :class:`~sudokit.logic.kernels.bundles.ChainGrid` as a plain tuple), and per thread the
    walk's work arrays."""

    def __init__(self, geometry: Geometry, grouped: bool) -> None:
        from ..kernels.arrays import shape_tables  # loads Numba: on first use

        t = self.tables = grid_tables(geometry)
        sh = self.shapes = shape_tables(geometry, grouped)
        n = self.n = geometry.side
        self.n_cells = geometry.n_cells
        self.size = len(sh.cells) * n
        self.group_width = max(len(sh.part_cells), 1) if grouped else 1
        self.no_groups = np.full((n, 1), -1, dtype=np.int32)
        self.no_nodes = np.empty(0, dtype=np.int64)
        self.shape_masks = tuple(sum(1 << int(x) for x in row if x >= 0) for row in sh.cells)
        self.rank = sh.rank.tolist()
        self.grid = tuple(ChainGrid(n, self.n_cells, t.sees, sh.seen_bits, sh.shape_bits,
                                    sh.cells, sh.common, sh.unit_pos, t.units, t.units_of,
                                    sh.part, sh.position, sh.part_shape))
        self.local = threading.local()

    def digit_buffers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """This thread's ``groups``, ``nodes`` and ``starts`` arrays of
        :func:`~sudokit.logic.chains._walk_kernel.digit_starts` (refilled by each call)."""
        buffers = getattr(self.local, "digit", None)
        if buffers is None:
            sh = self.shapes
            buffers = self.local.digit = (
                np.full((self.n, self.group_width), -1, dtype=np.int32),
                np.empty(max(len(sh.part_cells), 1) * self.n, dtype=np.int64),
                np.empty(self.size, dtype=np.int64))
        return buffers

    def scratch(self, owner: object) -> ChainScratch:
        """This thread's work arrays of the walk (shared by the walkers of one thread: the
        kernel restores ``parent_*`` and ``mark``; the link caches are emptied when another
        walker than ``owner`` used them last)."""
        entry = getattr(self.local, "entry", None)
        if entry is None:
            t, n, size = self.tables, self.n, self.size
            entry = self.local.entry = [None, ChainScratch(
                np.full(size, -2, dtype=np.int32), np.full(size, -2, dtype=np.int32),
                np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
                np.empty(size, dtype=np.int64), np.empty(2 * size, dtype=np.int64),
                np.empty(size, dtype=np.int64),
                np.empty((size, t.units_of.shape[1] + 1), dtype=np.int32),
                np.full(size, -1, dtype=np.int32),
                np.empty((size, t.peers.shape[1] + self.group_width + n), dtype=np.int32),
                np.full(size, -1, dtype=np.int32),
                np.empty((64, MAX_COMPILED_NODES), dtype=np.int64),
                np.empty(64, dtype=np.int64),
                np.zeros(self.n_cells * n, dtype=np.uint8),
                np.empty(self.n_cells * n, dtype=np.int64))]
        if entry[0] is not owner:
            entry[1].strong_count.fill(-1)
            entry[1].weak_count.fill(-1)
            entry[0] = owner
        return entry[1]


_kit: Callable[[Geometry, bool], _Kit] = per_geometry(_Kit)
"""The :class:`_Kit` of ``(geometry, grouped)`` (made once)."""


_WALKER_KEYS = {mode: "chains-walker-" + mode.value for mode in ChainMode}


class Walker:
    """The arrays of one board for :func:`~sudokit.logic.chains._rank_kernel.rank_starts` (the modes
    with links inside cells; the single-digit modes walk through :func:`_digit_walks`)."""

    def __init__(self, board: Board, mode: ChainMode) -> None:
        from ..kernels.arrays import board_arrays, board_places

        geometry = board.geometry
        grouped = mode in GROUPED
        kit = self.kit = _kit(geometry, grouped)
        self.board = board
        n = self.n = kit.n
        arrays = board_arrays(board)
        self.cand = arrays.cand
        groups, self.group_nodes = kit.no_groups, kit.no_nodes
        if grouped:
            from ._walk_kernel import group_nodes

            sh = kit.shapes
            groups = np.full((n, kit.group_width), -1, dtype=np.int32)
            nodes = np.empty(len(sh.part_cells) * n, dtype=np.int64)
            k = group_nodes(self.cand, sh.part_cells, sh.part_shape, sh.rank, n, groups, nodes)
            self.group_nodes = nodes[:k]
        place_bits, unit_places = board_places(board, kit.tables.units)
        self.bundle = tuple(ChainBoard(  # the kernel's ChainBoard as a plain tuple
            arrays.masks, place_bits, unit_places, groups, mode is not ChainMode.XY,
            mode not in SINGLE_DIGIT, mode in (ChainMode.AIC, ChainMode.GROUPED), grouped))

    @classmethod
    def of(cls, board: Board, mode: ChainMode) -> Walker:
        """The walker of ``board`` and ``mode`` (made once per snapshot)."""
        key = _WALKER_KEYS[mode]
        walker = board.memo.get(key)
        if walker is None:
            walker = board.memo[key] = cls(board, mode)
        return walker

    def starts(self, mode: ChainMode) -> np.ndarray:
        """The start nodes (int64) in the order of the Python search: every candidate (cells
        ascending, then digits; only bivalue cells for XY-chains), then the grouped nodes."""
        cand = self.cand
        if mode is ChainMode.XY:
            cand = cand & (cand.sum(axis=1) == 2)[:, None]
        nodes = np.flatnonzero(cand.ravel())
        if self.group_nodes.size:
            nodes = np.concatenate([nodes, self.group_nodes])
        return nodes

    def best(self, starts: np.ndarray, loop: bool, max_nodes: int,
             bound: float = float("inf")) -> tuple[tuple, list[Node]] | None:
        """The best chain (``loop`` False) or nice loop (True) from ``starts``, ranked in the
        kernel (:func:`~sudokit.logic.chains._rank_kernel.rank_starts`) as
        :func:`~sudokit.logic.chains.search.find_chain` ranks chains and nice loops, for the
        modes with links inside cells: ``(key, path)`` or None. Single-digit chains come back to
        Python to be rated (:func:`~sudokit.logic.chains.rating.chain_key`)."""
        from ._rank_kernel import rank_starts

        nodes = np.ascontiguousarray(starts, dtype=np.int64)
        scratch = self.kit.scratch(self)
        out_paths, out_lengths, plain = scratch.out_paths, scratch.out_lengths, tuple(scratch)
        best = np.zeros(6, dtype=np.float64)
        best_path = np.empty(MAX_COMPILED_NODES, dtype=np.int64)
        ratings = multi_digit_ratings(MAX_COMPILED_NODES)
        masks, n = self.kit.shape_masks, self.n
        first = 0
        while first < len(nodes):
            first, count = rank_starts(nodes, first, max_nodes, loop, bound, ratings, best,
                                       best_path, self.kit.grid, self.bundle, plain)
            if count:  # a single-digit chain, rated here
                found = out_paths[0, :out_lengths[0]]
                path = [(masks[v // n], v % n) for v in found.tolist()]
                placements, eliminations = conclusion(self.board, path[0], path[-1])
                key = chain_key(self.board, path, placements, eliminations)
                if not best[0] or key < _best_key(best):
                    best[:] = (1, *key, len(path))
                    best_path[:len(path)] = found
        if not best[0]:
            return None
        return _best_key(best), [(masks[v // n], v % n)
                                 for v in best_path[:int(best[5])].tolist()]


def _best_key(best: np.ndarray) -> tuple[float, int, int, int]:
    """The key held in a :func:`~sudokit.logic.chains._rank_kernel.rank_starts` ``best`` array."""
    rating, nodes, placements, eliminations = best[1:5].tolist()
    return rating, int(nodes), int(placements), int(eliminations)


_FOUND = DigitMemo()
"""Single-digit chain searches of the compiled walk done earlier in the solve: per (digit, its
places, mode), the bound walked with and every chain found from a start of that digit, as a
list ``[order of the start (_start_order), nodes, the kernel's path, details]``, the details
(rank key, path, placements, eliminations) made when a replay first needs them and kept. Such
a search reads only the places of its digit."""


def _start_order(kit: _Kit, node: int) -> tuple[int, ...]:
    """The order of :meth:`Walker.starts` as a sort key of a start node: single candidates
    (cells ascending, then digits), then grouped nodes (digits ascending, then by cells)."""
    n = kit.n
    shape = node // n
    if shape < kit.n_cells:
        return (0, node)
    return (1, node % n, kit.rank[shape])


def best_single_digit(board: Board, mode: ChainMode, max_nodes: int) -> tuple | None:
    """The best single-digit chain of ``mode`` (compiled walk), as
    :func:`~sudokit.logic.chains.search.find_chain` picks it: ``(nodes, key, path, placements,
    eliminations)`` or None.

    The breadth-first walk from a start finds its shortest chain whatever the bound, and returns
    it when it is short enough (fewer than ``bound + 1`` nodes). So each digit's starts are
    walked once per places with the bound ``max_nodes`` or :data:`X_NODES` if larger (kept in
    :data:`_FOUND`, and used for any bound up to it), and the search over all starts, each
    bounded by the best chain found before it, is replayed on those results in the order of
    the starts: the same chain is picked.
    """
    n = board.side
    table = _FOUND.table(board)
    places = _walk_kernels()[0](board).places  # board_arrays: the key of _FOUND
    found: list[list] = []  # [start order, nodes, path, details or None], details set once
    missing: list[int] = []
    name = mode.value
    for d0 in range(n):
        entry = table.get((d0, places[d0], name))
        if entry is None or entry[0] < max_nodes:
            missing.append(d0)
        else:
            found += entry[1]
    kit = _kit(board.geometry, mode in GROUPED)
    if missing:
        walked = max(max_nodes, X_NODES)  # the short X-chains' walk serves X-Chain too
        new: dict[int, list[list]] = {d0: [] for d0 in missing}
        for nodes in _digit_walks(board, mode, sum(1 << d0 for d0 in missing), walked):
            new[nodes[0] % n].append([_start_order(kit, nodes[0]), len(nodes), nodes, None])
        for d0, chains_found in new.items():
            table[d0, places[d0], name] = (walked, tuple(chains_found))
            found += chains_found
    if not found:
        return None
    if len(found) > 1:
        found.sort(key=lambda f: f[0])
    best: tuple | None = None
    masks = kit.shape_masks
    for entry in found:
        length = entry[1]
        if length - 1 >= (best[0] if best else max_nodes):
            continue  # the walk bounded by the best chain so far stops before it
        details = entry[3]
        if details is None:  # ranked the first time a replay reaches it
            path = [(masks[v // n], v % n) for v in entry[2]]
            placements, eliminations = conclusion(board, path[0], path[-1])
            details = entry[3] = (chain_key(board, path, placements, eliminations), path,
                                  placements, eliminations)
        if best is None or details[0] < best[1]:
            best = (length, *details)
    return best


@cache
def _walk_kernels() -> tuple[Callable, ...]:
    """``board_arrays``, ``board_places``, ``digit_starts``, ``walk_starts``, imported once, on
    first use (they load Numba; a search walks digits many times per solve)."""
    from ..kernels.arrays import board_arrays, board_places
    from ._walk_kernel import digit_starts, walk_starts

    return board_arrays, board_places, digit_starts, walk_starts


def _digit_walks(board: Board, mode: ChainMode, digits: int, bound: int) -> Iterator[list[int]]:
    """The compiled walks of a single-digit ``mode`` from every start of the digits in the mask
    ``digits`` (the order of :meth:`Walker.starts`), each bounded by ``bound`` nodes: yield
    the path (the kernel's node numbers, ``shape * N + d``) of the chain found from each start
    that finds one. The starts and grouped nodes are made in the kernel
    (:func:`~sudokit.logic.chains._walk_kernel.digit_starts`), the walks run in as few calls as the
    output room allows."""
    board_arrays, board_places, digit_starts, walk_starts = _walk_kernels()

    grouped = mode in GROUPED
    kit = _kit(board.geometry, grouped)
    arrays = board_arrays(board)
    key = _WALKER_KEYS[mode]
    owner = board.memo.get(key)  # the link caches of the work arrays belong to it
    if owner is None:
        owner = board.memo[key] = object()
    groups, group_buffer, starts = kit.digit_buffers()
    sh = kit.shapes
    k = digit_starts(arrays.cand, digits, sh.part_cells, sh.part_shape, sh.rank, kit.n, groups,
                     group_buffer, starts)
    scratch = kit.scratch(owner)
    out_paths, out_lengths = scratch.out_paths, scratch.out_lengths
    place_bits, unit_places = board_places(board, kit.tables.units)
    chain_board = tuple(ChainBoard(arrays.masks, place_bits, unit_places, groups, True, False,
                                   False, grouped))
    nodes = starts[:k]
    first = 0
    while first < k:
        first, count = walk_starts(nodes, first, bound, False, True, kit.grid, chain_board,
                                   tuple(scratch))
        for i in range(count):
            yield out_paths[i, :out_lengths[i]].tolist()
