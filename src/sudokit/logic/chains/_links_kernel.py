"""The links of a chain node and the tests of a chain's end, for the compiled walks
(:mod:`sudokit.logic.chains._walk_kernel`): nodes are ``shape * N + digit - 1`` over the shapes of
:func:`~sudokit.logic.kernels.arrays.shape_tables`; the links come in the order of the Python
search's (:func:`sudokit.logic.chains.links.strong_links`, ``weak_links``). The grid's tables,
the board's arrays and the work arrays come as the bundles of :mod:`sudokit.logic.kernels.bundles`
(``grid``: :class:`~sudokit.logic.kernels.bundles.ChainGrid`, ``board``:
:class:`~sudokit.logic.kernels.bundles.ChainBoard`, ``scratch``:
:class:`~sudokit.logic.kernels.bundles.ChainScratch`).
"""

from __future__ import annotations

from numba.cpython.unsafe.numbers import trailing_zeros

from ...fast.state import jit
from ..kernels.common import count_bits, lowest_bit

__all__ = ["cache_strong", "chain_counts", "chain_path", "loop_useful", "strong_links",
           "weak_links"]


@jit
def strong_links(node, grid, board, out):
    """The strong links of ``node`` in the order of :func:`sudokit.logic.chains.links.strong_links`
    (written to ``out``; returns their count), from the places of its digit in each unit of
    its cells (``board.unit_places``)."""
    n, shape_cells, unit_pos, units, units_of = (grid.n, grid.cells, grid.unit_pos, grid.units,
                                                 grid.units_of)
    part, position, part_shape = grid.part, grid.position, grid.part_shape
    unit_places = board.unit_places
    s = node // n
    d = node % n
    k = 0
    low = shape_cells[s, 0]
    if board.unit_links:
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
            elif board.grouped:
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
    if board.cell_links and s == low:  # a single cell (shapes of two or more cells come after)
        m = board.masks[low]
        if count_bits(m) == 2:
            out[k] = low * n + lowest_bit(m & ~(1 << d))
            k += 1
    return k


@jit
def weak_links(node, grid, board, out):
    """The weak links of ``node`` in the order of :func:`sudokit.logic.chains.links.weak_links`
    (written to ``out``; returns their count): the places of its digit (``board.place_bits``)
    among the cells seeing the node (``grid.seen_bits``), cells ascending, then the grouped
    nodes inside those (``board.groups``), then, with ``board.cell_weak``, the other digits of
    its cell."""
    n, seen_bits, shape_bits = grid.n, grid.seen_bits, grid.shape_bits
    place_bits, groups = board.place_bits, board.groups
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
    if board.cell_weak and s < grid.c_count:
        m = board.masks[s]
        for b in range(n):
            if b != d and (m >> b) & 1:
                out[k] = s * n + b
                k += 1
    return k


@jit
def chain_counts(a, z, grid, board):
    """``(placements, eliminations)`` of "a or z is true", counted as
    :func:`sudokit.logic.chains.links.conclusion` lists them (a chain is useful when either
    is not 0)."""
    n, c_count, seen_bits = grid.n, grid.c_count, grid.seen_bits
    masks, place_bits = board.masks, board.place_bits
    sa, da, sz, dz = a // n, a % n, z // n, z % n
    if a == z:
        return (1 if sa < c_count else 0), 0
    if da == dz:
        count = 0
        for w in range(seen_bits.shape[1]):
            count += count_bits(seen_bits[sa, w] & seen_bits[sz, w] & place_bits[da, w])
        return 0, count
    if sa >= c_count or sz >= c_count:
        return 0, 0
    if sa == sz:
        return 0, count_bits(masks[sa] & ~((1 << da) | (1 << dz)))
    if grid.sees[sa, sz]:
        return 0, ((masks[sa] >> dz) & 1) + ((masks[sz] >> da) & 1)
    return 0, 0


@jit
def loop_useful(path, length, grid, board):
    """Whether the continuous nice loop ``path[:length]`` eliminates something
    (:func:`sudokit.logic.chains.links.loop_eliminations` is not empty)."""
    n, seen_bits, masks, place_bits = grid.n, grid.seen_bits, board.masks, board.place_bits
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
def cache_strong(node, grid, board, scratch):
    """Compute the strong links of ``node`` into ``scratch.strong_cache[node]`` and their count
    into ``scratch.strong_count[node]``."""
    links = scratch.links
    count = strong_links(node, grid, board, links)
    for li in range(count):
        scratch.strong_cache[node, li] = links[li]
    scratch.strong_count[node] = count


@jit
def chain_path(last, parent_on, parent_off, path):
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
