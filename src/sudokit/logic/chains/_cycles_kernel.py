"""The Numba kernel of the Y-cycle (loops of bivalue cells): the search of
:func:`sudokit.logic.chains.cycles.y_cycle` in the same order and with the same tests,
returning the loop only (the Python side builds the :class:`~sudokit.logic.step.Step`).
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits

__all__ = ["y_cycle_best"]


@jit
def y_cycle_best(masks, values, sees, bivalue, max_cells, loop, links, best_loop, best_links,
                 nxt_index):
    """The Y-cycle of :func:`sudokit.logic.chains.cycles.y_cycle`: fewest cells, then most
    eliminations, then first in the order of :func:`~sudokit.logic.chains.cycles._loops`
    (start cell, direction, then the cells of the loop in the order of ``bivalue``, which a
    depth-first walk follows for loops of one length). ``bivalue`` lists the bivalue cells
    ascending; ``loop``, ``links`` and ``nxt_index`` (int64[max_cells + 1]) are scratch.
    Returns the number of cells of the best loop, written to ``best_loop`` and ``best_links``
    (the digit each cell shares with the next), or 0.

    Long on purpose: an explicit-stack depth-first search in the Python generator's order."""
    best_len = 0
    best_count = 0
    nb = bivalue.size
    for si in range(nb):
        start = bivalue[si]
        m = masks[start]
        first = 0
        while not (m >> first) & 1:
            first += 1
        last = first + 1
        while not (m >> last) & 1:
            last += 1
        for direction in range(2):
            out_d0 = first if direction == 0 else last
            home = last if direction == 0 else first
            loop[0] = start
            links[0] = out_d0
            depth = 1  # cells on the path
            nxt_index[1] = si + 1
            while depth >= 1:
                if depth > max_cells - 1 or (best_len and depth + 1 > best_len):
                    depth -= 1
                    continue
                here = loop[depth - 1]
                d0 = links[depth - 1]
                advanced = False
                while nxt_index[depth] < nb:
                    ni = nxt_index[depth]
                    nxt_index[depth] += 1
                    nxt = bivalue[ni]
                    if not sees[here, nxt] or not (masks[nxt] >> d0) & 1:
                        continue
                    inside = False
                    for i in range(depth):
                        if loop[i] == nxt:
                            inside = True
                            break
                    if inside:
                        continue
                    other = 0
                    rest = masks[nxt] & ~(1 << d0)
                    while not (rest >> other) & 1:
                        other += 1
                    loop[depth] = nxt
                    links[depth] = other
                    if other == home and depth >= 2 and sees[nxt, start]:
                        count = _cycle_count(masks, values, sees, loop, links, depth + 1)
                        if count and (best_len == 0 or depth + 1 < best_len
                                      or (depth + 1 == best_len and count > best_count)):
                            best_len = depth + 1
                            best_count = count
                            for i in range(depth + 1):
                                best_loop[i] = loop[i]
                                best_links[i] = links[i]
                    nxt_index[depth + 1] = si + 1
                    depth += 1
                    advanced = True
                    break
                if not advanced:
                    depth -= 1
    return best_len


@jit
def _cycle_count(masks, values, sees, loop, links, k):
    """The number of distinct eliminations of the loop ``loop[:k]`` (as
    :func:`sudokit.logic.chains.cycles._eliminations` lists them)."""
    count = 0
    for c in range(masks.size):
        if values[c]:
            continue
        inside = False
        for i in range(k):
            if loop[i] == c:
                inside = True
                break
        if inside:
            continue
        found = 0
        for i in range(k):
            d0 = links[i]
            a = loop[i]
            b = loop[(i + 1) % k]
            if (masks[c] >> d0) & 1 and sees[c, a] and sees[c, b]:
                found |= 1 << d0
        count += count_bits(found)
    return count
