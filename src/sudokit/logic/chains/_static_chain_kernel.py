"""Kernels of Sudoku Explainer's static forcing chains on a working grid: :func:`static_chain`
(``Chaining.doForcingChains``), the compiled :func:`sudokit.logic.chains.nested.static_chain`
(its Python twin is :func:`sudokit.logic.chains.nested._static_chain_reference`), and
:func:`static_closure`, what every potential implies over the same links, from which
:func:`sudokit.logic.chains.implications.contradictions` and
:func:`~sudokit.logic.chains.implications.static_reach` read their static answers.
"""

from __future__ import annotations

import numpy as np

from ...fast.state import jit
from ..kernels.common import count_bits

__all__ = ["static_chain", "static_closure"]


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
                    off_tail = _visit((cell * n + d) << 1, p, -2, parent, cause, queue, off_tail)
                    if parent[target] >= 0:
                        return _path(target, source, parent, path)
            for k in range(cell_units.shape[1]):
                u = cell_units[cell, k]
                if u < 0:
                    break
                for j in range(unit_cells.shape[1]):
                    c = unit_cells[u, j]
                    if c < 0:
                        break
                    if c != cell and masks[c] >> d0 & 1:
                        off_tail = _visit((c * n + d0) << 1, p, -2, parent, cause, queue,
                                          off_tail)
                        if parent[target] >= 0:
                            return _path(target, source, parent, path)
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
                on_tail = _visit(((cell * n + other) << 1) | 1, p, -1, parent, cause, queue,
                                 on_tail)
                if parent[target] >= 0:
                    return _path(target, source, parent, path)
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
                    on_tail = _visit(((other_cell * n + d0) << 1) | 1, p, u, parent, cause,
                                     queue, on_tail)
                    if parent[target] >= 0:
                        return _path(target, source, parent, path)
    return 0


@jit
def _visit(q, p, why, parent, cause, queue, tail):
    """Reach potential ``q`` from ``p`` for the reason ``why`` (``cause``'s code) if it is
    new: record them and put it at ``queue[tail]``; returns the queue's new tail."""
    if parent[q] >= 0:
        return tail
    parent[q] = p
    cause[q] = why
    queue[tail] = q
    return tail + 1


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


@jit
def static_closure(masks, tables, node_of, pots, adj, deg, comp, scratch, reach):
    """What every potential of the working grid ``masks`` (int64[C]) implies over the static
    links (those of :func:`static_chain`: an on potential turns off its cell's other
    candidates and its digit's other places in the cell's units; an off potential turns on a
    bivalue cell's other candidate and a bilocal digit's other place), as a transitive
    closure: the graph's strongly connected components (Tarjan), each one's reach the union
    of its members and its successors' reach.

    Args:
        masks: int64[C] candidates per cell (bit d-1 for digit d), 0 for a placed cell.
        tables: ``(unit_cells, cell_units)`` as :func:`static_chain`'s.
        node_of: int64[2CN] filled: each potential's node (-1 when not a candidate).
        pots: int64[2CN] filled: each node's potential (the first P).
        adj: int64[2CN, N + K * M] filled: each node's links (nodes), ``deg``: int64[2CN]
            their counts.
        comp: int64[2CN] filled: each node's component, a component's successors first.
        scratch: int64[6, 2CN + 1] scratch.
        reach: uint64[2CN, ceil(2CN / 64)] filled: each component's reach (bit v: node v).

    Returns:
        ``(P, K)``: the counts of nodes and components.
    """
    unit_cells, cell_units = tables
    size = node_of.size
    n = size // (2 * masks.size)
    for p in range(size):
        node_of[p] = -1
    count = 0
    for c in range(masks.size):
        for d in range(n):
            if masks[c] >> d & 1:
                for on in range(2):
                    node_of[((c * n + d) << 1) | on] = count
                    pots[count] = ((c * n + d) << 1) | on
                    count += 1
    for v in range(count):
        deg[v] = _links(pots[v], masks, n, unit_cells, cell_units, node_of, adj[v])
    ncomp = _components(adj, deg, count, comp, scratch)
    _reach(adj, deg, comp, count, ncomp, scratch, reach)
    return count, ncomp


@jit
def _links(p, masks, n, unit_cells, cell_units, node_of, into):
    """The nodes potential ``p`` links to (static links), written to ``into``; their count."""
    cell = (p >> 1) // n
    d0 = (p >> 1) % n
    k = 0
    if p & 1:
        for d in range(n):
            if d != d0 and masks[cell] >> d & 1:
                into[k] = node_of[(cell * n + d) << 1]
                k += 1
    elif count_bits(masks[cell]) == 2:
        for d in range(n):
            if d != d0 and masks[cell] >> d & 1:
                into[k] = node_of[((cell * n + d) << 1) | 1]
                k += 1
    for i in range(cell_units.shape[1]):
        u = cell_units[cell, i]
        if u < 0:
            break
        places = 0
        other = -1
        for j in range(unit_cells.shape[1]):
            c = unit_cells[u, j]
            if c < 0:
                break
            if c != cell and masks[c] >> d0 & 1:
                places += 1
                other = c
                if p & 1:
                    into[k] = node_of[(c * n + d0) << 1]
                    k += 1
        if not p & 1 and places == 1:
            into[k] = node_of[((other * n + d0) << 1) | 1]
            k += 1
    return k


@jit
def _components(adj, deg, count, comp, scratch):
    """Tarjan's strongly connected components of the first ``count`` nodes of ``adj``/``deg``,
    iteratively: ``comp`` filled (a component's successors numbered first); returns their
    count. ``scratch``: int64[6, 2CN + 1]."""
    index, low, held, stack, calls, edge = (scratch[0], scratch[1], scratch[2], scratch[3],
                                            scratch[4], scratch[5])
    for v in range(count):
        index[v] = -1
        held[v] = 0
    counter = 0
    ncomp = 0
    sp = 0
    for root in range(count):
        if index[root] >= 0:
            continue
        top = 0
        calls[0] = root
        edge[0] = 0
        index[root] = counter
        low[root] = counter
        counter += 1
        stack[sp] = root
        sp += 1
        held[root] = 1
        while top >= 0:
            v = calls[top]
            e = edge[top]
            if e < deg[v]:
                edge[top] = e + 1
                w = adj[v, e]
                if index[w] < 0:
                    index[w] = counter
                    low[w] = counter
                    counter += 1
                    stack[sp] = w
                    sp += 1
                    held[w] = 1
                    top += 1
                    calls[top] = w
                    edge[top] = 0
                elif held[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            if low[v] == index[v]:
                while True:
                    sp -= 1
                    w = stack[sp]
                    held[w] = 0
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
            top -= 1
            if top >= 0 and low[v] < low[calls[top]]:
                low[calls[top]] = low[v]
    return ncomp


@jit
def _reach(adj, deg, comp, count, ncomp, scratch, reach):
    """Each component's reach (rows of ``reach``, bit v for node v): its members, and the
    reach of every component one of its members links to (numbered before it). ``scratch``
    rows 0-2 used."""
    words = (count + 63) // 64
    first, members, fill = scratch[0], scratch[1], scratch[2]
    for k in range(ncomp + 1):
        first[k] = 0
    for k in range(ncomp):
        for x in range(words):
            reach[k, x] = 0
    for v in range(count):
        first[comp[v] + 1] += 1
    for k in range(ncomp):
        first[k + 1] += first[k]
        fill[k] = first[k]
    for v in range(count):
        members[fill[comp[v]]] = v
        fill[comp[v]] += 1
        reach[comp[v], v >> 6] |= np.uint64(1) << np.uint64(v & 63)
    for k in range(ncomp):
        for i in range(first[k], first[k + 1]):
            v = members[i]
            for e in range(deg[v]):
                t = comp[adj[v, e]]
                if t != k:
                    for x in range(words):
                        reach[k, x] |= reach[t, x]
