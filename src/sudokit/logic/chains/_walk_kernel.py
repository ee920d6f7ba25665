"""The breadth-first walk of alternating inference chains from a list of start nodes
(:func:`walk_starts`, the compiled :func:`sudokit.logic.chains.links.walk`), and the start
nodes and grouped nodes of a board (:func:`digit_starts`, :func:`group_nodes`).
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.bundles import ChainBoard, ChainGrid, ChainScratch
from ._links_kernel import cache_strong, chain_counts, chain_path, loop_useful, weak_links

__all__ = ["digit_starts", "group_nodes", "walk_one", "walk_starts"]


@jit
def walk_one(start, max_nodes, loop, grid, board, scratch):
    """The breadth-first walk of :func:`walk_starts` from one start: returns the nodes of the
    chain found, written to ``scratch.path`` (0 for none).

    Long on purpose: the strong and weak half-levels of a walk share its state and caches."""
    n, common = grid.n, grid.common
    parent_on, parent_off, frontier, grown = (scratch.parent_on, scratch.parent_off,
                                              scratch.frontier, scratch.grown)
    links, seen, path = scratch.links, scratch.seen, scratch.path
    strong_cache, strong_count = scratch.strong_cache, scratch.strong_count
    weak_cache, weak_count = scratch.weak_cache, scratch.weak_count
    sa = start // n
    da = start % n
    found = 0
    if strong_count[start] < 0:
        cache_strong(start, grid, board, scratch)
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
                    cache_strong(node, grid, board, scratch)
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
                                closes = sz == sa and sa < grid.c_count
                            if closes:
                                k = chain_path(nxt, parent_on, parent_off, path)
                                if loop_useful(path, k, grid, board):
                                    found = k
                    elif chain_counts(start, nxt, grid, board) != (0, 0):
                        found = chain_path(nxt, parent_on, parent_off, path)
                    if found:
                        break
                if found:
                    break
        else:
            for fi in range(n_front):
                node = frontier[fi]
                if weak_count[node] < 0:
                    count = weak_links(node, grid, board, links)
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
def walk_starts(starts, first, max_nodes, loop, fixed, grid_tuple, board_tuple, scratch_tuple):
    """The breadth-first chain search of :func:`sudokit.logic.chains.links.walk` from each of
    ``starts[first:]`` in turn (nodes ``shape * N + d``), with the acceptance test of
    :func:`~sudokit.logic.chains.links.search_chain` (or, with ``loop``, of
    :func:`~sudokit.logic.chains.links.search_loop`), bounded by ``max_nodes`` nodes.

    The chain found from each start goes to ``out_paths[i, :out_lengths[i]]`` (of the scratch),
    in order; the walk goes on to the next start while the chains found are ``max_nodes`` long
    (the caller's bound, the length of its best chain so far, cannot change then) and stops
    after a shorter one (or when ``out_paths`` is full), so that the caller can set the next
    bound; with ``fixed`` (the caller keeps its bound) it stops only when ``out_paths`` is full.

    ``grid_tuple``, ``board_tuple`` and ``scratch_tuple`` are a
    :class:`~sudokit.logic.kernels.bundles.ChainGrid`, a
    :class:`~sudokit.logic.kernels.bundles.ChainBoard` and a
    :class:`~sudokit.logic.kernels.bundles.ChainScratch` as plain tuples (why:
    :mod:`sudokit.logic.kernels.bundles`; shapes and dtypes there): a node's links are built
    from the board's places and the grid's bitsets with a few word operations, and kept in the
    scratch's link caches for the board. Returns ``(index of the next start to walk, number of
    chains found)``.
    """
    grid = ChainGrid(*grid_tuple)
    board = ChainBoard(*board_tuple)
    scratch = ChainScratch(*scratch_tuple)
    out_paths, out_lengths, path = scratch.out_paths, scratch.out_lengths, scratch.path
    n_out = 0
    for si in range(first, starts.size):
        found = walk_one(starts[si], max_nodes, loop, grid, board, scratch)
        if found:
            for i in range(found):
                out_paths[n_out, i] = path[i]
            out_lengths[n_out] = found
            n_out += 1
            if (found < max_nodes and not fixed) or n_out == out_lengths.size:
                return si + 1, n_out
    return starts.size, n_out


@jit
def group_nodes(cand, part_cells, part_shape, rank, n, groups, nodes):
    """The grouped nodes of a board (as :func:`sudokit.logic.chains.links.group_masks`: two or
    more places of a digit in one box-line intersection): ``groups[d]`` their shapes for digit
    d + 1 in the order of ``rank`` (their cells bitmasks), padded with -1 (``groups`` must hold
    -1 and have a column per intersection); ``nodes`` every grouped node ``shape * N + d``,
    digits ascending. ``cand`` is uint8[C, N] (1: an open cell's candidate). Returns the number
    of nodes."""
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
    order of :meth:`sudokit.logic.chains.walkers.Walker.starts` (candidates: cells ascending, then
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
