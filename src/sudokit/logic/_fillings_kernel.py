"""The compiled fillings search of a rule whose cells include peers (the rule forcing chains
followed further, :mod:`sudokit.logic.rule_filters`): the depth-first search of
:func:`sudokit.logic.rule_filters.fillings` (cells in order, digits ascending, the rule's filter
at every node, the same node budget), with the filters of a weighted sum and of an automaton
written as kernels.

Masks are int64 with bit d for digit d (the filters' convention, digits 1..63). A filter keeps
in a cell the digits some filling of the whole rule supports (generalised arc consistency, which
is unique: the same masks as :mod:`sudokit.csp.rules` gives):

* weighted sum: Trick's dynamic programme (2003), the reachable partial sums (plus an offset
  that makes them non-negative) of each layer as a bit set of W uint64 words;
* automaton: Pesant's filter of the regular constraint (2004): the states reachable layer by
  layer, then those from which an accepting state is reachable.

Every kernel works in scratch arrays given by its caller (no allocation: the kernels run
without Numba's runtime).
"""

from __future__ import annotations

import numpy as np

from ..fast.state import ONE, ZERO, jit

__all__ = ["DONE", "EVERY", "PASSED", "SUM", "AUTOMATON", "fillings"]

DONE, EVERY, PASSED = 0, 1, 2
"""What :func:`fillings` returns: searched to the end (``out`` holds the supported digits),
stopped once every candidate was supported, stopped past the node budget."""

SUM, AUTOMATON = 0, 1
"""The filter :func:`fillings` applies (its ``kind``)."""


@jit
def _shift_or(dst, src, s):
    """dst |= src shifted by ``s`` bits (left when positive), both uint64[W] bit sets."""
    width = src.shape[0]
    if s >= 0:
        q, r = s // 64, np.uint64(s % 64)
        for w in range(width - 1, q - 1, -1):
            v = src[w - q] << r
            if r != ZERO and w - q - 1 >= 0:
                v |= src[w - q - 1] >> (np.uint64(64) - r)
            dst[w] |= v
    else:
        q, r = (-s) // 64, np.uint64((-s) % 64)
        for w in range(width - q):
            v = src[w + q] >> r
            if r != ZERO and w + q + 1 < width:
                v |= src[w + q + 1] << (np.uint64(64) - r)
            dst[w] |= v


@jit
def _sum_filter(doms, n, first, ks, offset, goal, forward, backward, back, reach):
    """The weighted sum's filter on ``doms`` (int64[n], changed in place to what it keeps);
    False when no filling keeps the sum. ``forward``: uint64[n + 1, W], its rows up to
    ``first`` those of ``doms`` already (the cells before ``first`` are placed: only the later
    rows are computed, and only the cells from ``first`` on filtered); ``backward``, ``back``,
    ``reach``: uint64[W] scratch (W * 64 above every partial sum plus offset)."""
    width = forward.shape[1]
    if goal < 0 or goal >= width * 64:
        return False
    forward[0, :] = ZERO
    forward[0, offset // 64] = ONE << np.uint64(offset % 64)
    for i in range(first, n):
        forward[i + 1, :] = ZERO
        dom = doms[i]
        d = 1
        while dom >> d:
            if dom >> d & 1:
                _shift_or(forward[i + 1], forward[i], ks[i] * d)
            d += 1
    if forward[n, goal // 64] >> np.uint64(goal % 64) & ONE == ZERO:
        return False
    backward[:] = ZERO
    backward[goal // 64] = ONE << np.uint64(goal % 64)
    for i in range(n - 1, first - 1, -1):
        reach[:] = ZERO
        dom, keep = doms[i], 0
        d = 1
        while dom >> d:
            if dom >> d & 1:
                back[:] = ZERO
                _shift_or(back, backward, -ks[i] * d)
                meets = False
                for w in range(width):
                    if back[w] & forward[i, w] != ZERO:
                        meets = True
                        break
                if meets:
                    keep |= 1 << d
                    for w in range(width):
                        reach[w] |= back[w]
            d += 1
        doms[i] = keep
        for w in range(width):
            backward[w] = reach[w]
    return True


@jit
def _automaton_filter(doms, n, first, bits, nexts, accepting, start, layer, alive, back):
    """The automaton's filter on ``doms`` (int64[n], changed in place); False when no filling
    is accepted. ``bits``, ``nexts``: int64[Q, M] each state's live moves (digit bit, next
    state), padded with bit 0; ``accepting``: uint8[Q]; ``layer``: uint8[n + 1, Q], its
    rows up to ``first`` those of ``doms`` already (as :func:`_sum_filter`'s ``forward``);
    ``alive``, ``back``: uint8[Q] scratch."""
    states, moves = bits.shape
    layer[0, :] = 0
    layer[0, start] = 1
    for i in range(first, n):
        layer[i + 1, :] = 0
        dom = doms[i]
        for q in range(states):
            if layer[i, q]:
                for k in range(moves):
                    if bits[q, k] & dom:
                        layer[i + 1, nexts[q, k]] = 1
    found = False
    for q in range(states):
        alive[q] = layer[n, q] & accepting[q]
        found = found or alive[q] != 0
    if not found:
        return False
    for i in range(n - 1, first - 1, -1):
        dom, used = doms[i], 0
        back[:] = 0
        for q in range(states):
            if layer[i, q]:
                for k in range(moves):
                    if bits[q, k] & dom and alive[nexts[q, k]]:
                        used |= bits[q, k]
                        back[q] = 1
        doms[i] = used
        for q in range(states):
            alive[q] = back[q]
    return True


@jit
def _filter(kind, doms, n, first, sums, moves):
    if kind == SUM:
        ks, offset, goal, forward, backward, back, reach = sums
        return _sum_filter(doms, n, first, ks, offset, goal, forward, backward, back, reach)
    bits, nexts, accepting, start, layer, alive, states_back = moves
    return _automaton_filter(doms, n, first, bits, nexts, accepting, start, layer, alive,
                             states_back)


@jit
def fillings(kind, domains, later, nodes, stack, rem, out, sums, moves):
    """The fillings search of :func:`sudokit.logic.rule_filters.fillings`, compiled.

    Args:
        kind: :data:`SUM` or :data:`AUTOMATON`, the filter at every node.
        domains: int64[n] the rule's candidates (bit d for digit d), already filtered.
        later: int64[n, n] per cell the later cells that are its peers, padded with -1.
        nodes: the budget of digits tried (:data:`~sudokit.logic.rule_filters.NODES`).
        stack: int64[n + 1, n], rem: int64[n + 1] scratch; out: int64[n], filled.
        sums: the weighted sum's arguments, a tuple ``(ks, offset, goal, forward, backward,
            back, reach)``: int64[n] coefficients, the offset and the goal (the total plus
            the offset), and the scratch of :func:`_sum_filter`.
        moves: the automaton's, ``(bits, nexts, accepting, start, layer, alive, back)`` (see
            :func:`_automaton_filter`). The other kind's are unused (any of the same types).

    Returns:
        :data:`DONE` (``out``: per cell the digits of the fillings that keep the rule with
        peers different), :data:`EVERY` or :data:`PASSED`.
    """
    n = domains.shape[0]
    out[:] = 0
    for k in range(n):
        stack[0, k] = domains[k]
    budget, depth = nodes, 0
    rem[0] = domains[0]
    while depth >= 0:
        if depth == n:
            same = True
            for k in range(n):
                out[k] |= stack[n, k]
                same = same and out[k] == domains[k]
            if same:
                return EVERY
            depth -= 1
            continue
        m = rem[depth]
        if m == 0:
            depth -= 1
            continue
        bit = m & -m
        rem[depth] = m ^ bit
        budget -= 1
        if budget < 0:
            return PASSED
        nxt = stack[depth + 1]
        for k in range(n):
            nxt[k] = stack[depth, k]
        nxt[depth] = bit
        empty = False
        for k in range(n):
            j = later[depth, k]
            if j < 0:
                break
            nxt[j] &= ~bit
            empty = empty or nxt[j] == 0
        if empty or not _filter(kind, nxt, n, depth, sums, moves):
            continue
        depth += 1
        if depth < n:
            rem[depth] = stack[depth, depth]
    return DONE
