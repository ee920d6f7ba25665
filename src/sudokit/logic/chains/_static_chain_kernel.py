"""Kernel of Sudoku Explainer's static forcing chain (``Chaining.doForcingChains``):
:func:`static_chain`, the compiled :func:`sudokit.logic.chains.nested.static_chain` (its
Python twin is :func:`sudokit.logic.chains.nested._static_chain_reference`).
"""

from __future__ import annotations

from ...fast.state import jit
from ..kernels.common import count_bits

__all__ = ["static_chain"]


@jit
def static_chain(masks, source, tables, parent, cause, queue, path):
    """Follow ``source`` (``(cell * N + digit - 1) * 2 + on``) on the working grid ``masks``
    (int64[C], read as it is) breadth first, every pending on potential before every pending
    off one, as :func:`sudokit.logic.chains.nested._static_chain_reference` does, until its
    negation is reached.

    Args:
        masks: int64[C] candidates per cell (bit d-1 for digit d), 0 for a placed cell.
        source: the assumed potential.
        tables: ``(unit_cells, cell_units)`` as
            :func:`sudokit.logic.chains._implications_kernel.implications`' ``tables``.
        parent: int64[2CN] scratch: each potential's parent (-1 not reached).
        cause: int64[2CN] filled: for each on potential of the chain, -1 when its cell's
            other candidates forced it (a naked single), else the unit whose other places
            of its digit did (a hidden single); -2 for the others.
        queue: int64[2 * 2CN] scratch (the pending on potentials, then the off ones).
        path: int64[2CN] filled: the chain from the negation of ``source`` back to
            ``source``.

    Returns:
        The length of ``path`` (0 when the negation is not reached).
    """
    unit_cells, cell_units = tables
    size = parent.size
    n = size // (2 * masks.size)
    for i in range(size):
        parent[i] = -1
        cause[i] = -2
    target = source ^ 1
    parent[source] = source
    on_head, on_tail, off_head, off_tail = 0, 0, size, size
    if source & 1:
        queue[0] = source
        on_tail = 1
    else:
        queue[size] = source
        off_tail = size + 1
    while on_head < on_tail or off_head < off_tail:
        while on_head < on_tail:
            p = queue[on_head]
            on_head += 1
            cell = (p >> 1) // n
            d0 = (p >> 1) % n
            for d in range(n):
                if d != d0 and masks[cell] >> d & 1:
                    q = (cell * n + d) << 1
                    if parent[q] < 0:
                        parent[q] = p
                        if q == target:
                            return _path(target, source, parent, path)
                        queue[off_tail] = q
                        off_tail += 1
            for k in range(cell_units.shape[1]):
                u = cell_units[cell, k]
                if u < 0:
                    break
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if c != cell and masks[c] >> d0 & 1:
                        q = (c * n + d0) << 1
                        if parent[q] < 0:
                            parent[q] = p
                            if q == target:
                                return _path(target, source, parent, path)
                            queue[off_tail] = q
                            off_tail += 1
        while off_head < off_tail:
            p = queue[off_head]
            off_head += 1
            cell = (p >> 1) // n
            d0 = (p >> 1) % n
            m = masks[cell]
            if m >> d0 & 1 and count_bits(m) == 2:
                other = 0
                for d in range(n):
                    if d != d0 and m >> d & 1:
                        other = d
                q = ((cell * n + other) << 1) | 1
                if parent[q] < 0:
                    parent[q] = p
                    cause[q] = -1
                    if q == target:
                        return _path(target, source, parent, path)
                    queue[on_tail] = q
                    on_tail += 1
            for k in range(cell_units.shape[1]):
                u = cell_units[cell, k]
                if u < 0:
                    break
                count = 0
                here = False
                other_cell = -1
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if masks[c] >> d0 & 1:
                        count += 1
                        if c == cell:
                            here = True
                        else:
                            other_cell = c
                if here and count == 2:
                    q = ((other_cell * n + d0) << 1) | 1
                    if parent[q] < 0:
                        parent[q] = p
                        cause[q] = u
                        if q == target:
                            return _path(target, source, parent, path)
                        queue[on_tail] = q
                        on_tail += 1
    return 0


@jit
def _path(target, source, parent, path):
    """Write the chain from ``target`` back to ``source`` into ``path``; returns its
    length."""
    k = 0
    p = target
    while p != source:
        path[k] = p
        k += 1
        p = parent[p]
    path[k] = source
    return k + 1
