"""The ranking of chains and nice loops in the kernel (:func:`rank_starts`): the walks of
:mod:`sudokit.logic.chains._walk_kernel`, each chain found keyed as
:func:`sudokit.logic.chains.search.find_chain` keys it (rating, nodes, placements, eliminations),
the best kept.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...fast.state import jit
from ..kernels.bundles import ChainBoard, ChainGrid, ChainScratch
from ._links_kernel import chain_counts
from ._walk_kernel import walk_one

__all__ = ["rank_starts"]


@jit
def _loop_count(path, k, grid, board, scratch):
    """The number of eliminations of the continuous nice loop ``path[:k]``, each once, as
    :func:`sudokit.logic.chains.links.loop_eliminations` lists them (with the scratch's
    ``mark`` and ``marked``)."""
    n, seen_bits, masks, place_bits = grid.n, grid.seen_bits, board.masks, board.place_bits
    mark, marked = scratch.mark, scratch.marked
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
def rank_starts(starts, first, max_nodes, loop, bound, ratings, best, best_path, grid_tuple,
                board_tuple, scratch_tuple):
    """The best chain (``loop`` False) or nice loop (True) over ``starts[first:]``, ranked in
    the kernel as :func:`sudokit.logic.chains.search.find_chain` ranks the chains
    :func:`walk_starts` returns (same walks, order and bounds), for the modes with links inside
    cells.

    ``ratings[L]`` (float64) is the rating of a chain over several digits of length L
    (Sudoku Explainer's 7.0 + length bonus, computed by the caller). ``best`` (float64[6]:
    has a best, rating, nodes, -placements, -eliminations, path length) and ``best_path``
    (int64) hold the best so far and are updated. A chain is the chain's key; its walk is
    bounded by the best path's length (else ``max_nodes``). A nice loop's key is (rating of
    its nodes less two, nodes, 0, -eliminations), single-digit loops are skipped, a loop
    counts only when its rating is below ``bound``, and its walk is bounded by the best loop's
    length (else ``max_nodes``).

    A chain of one digit (rated in Python: Sukaku Explainer's strong-linked fishes) is not
    ranked here: it is written to the scratch's ``out_paths[0, :out_lengths[0]]`` and the walk
    stops; returns ``(index of the next start, 1)``, else ``(starts.size, 0)``. The bundles
    as :func:`walk_starts` takes them.

    Long on purpose: each start's walk, acceptance and key in one loop, as Python ranks.
    """
    grid = ChainGrid(*grid_tuple)
    board = ChainBoard(*board_tuple)
    scratch = ChainScratch(*scratch_tuple)
    n, path = grid.n, scratch.path
    for si in range(first, starts.size):
        limit = max_nodes if best[0] == 0 else np.int64(best[5])
        found = walk_one(starts[si], limit, loop, grid, board, scratch)
        if not found:
            continue
        if loop:
            if _one_digit(path, found, n):
                continue  # single-digit loops: the X-chain stages
            rating = ratings[found - 2]
            if not rating < bound:
                continue
            neg_pl = 0
            neg_el = -_loop_count(path, found, grid, board, scratch)
            nodes = found
        else:
            if _one_digit(path, found, n):
                for i in range(found):
                    scratch.out_paths[0, i] = path[i]
                scratch.out_lengths[0] = found
                return si + 1, 1
            pl, el = chain_counts(path[0], path[found - 1], grid, board)
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
