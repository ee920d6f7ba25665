"""Compiled propagators of the rules drawn on a grid (thermometers, arrows, Kropki dots, lines,
outside clues), one per generic kind of :mod:`sudokit.model.rules`, on uint64 candidate masks.

:func:`drawn_rules` wakes the rules of every cell changed since its last call (it reads the
trail from ``Reg.RULES_SEEN``: no hook in :func:`~sudokit.fast.trail.narrow`, so a geometry
without rules pays nothing) and filters each woken rule once; the propagation loop of
:mod:`sudokit.fast.rules` calls it again until nothing changes, so the rules reach a fixpoint
with the unit rules. Per kind:

* **pair relation**: each cell keeps the digits with a support in the other (arc consistency,
  AC-3 of Mackworth 1977, on the precomputed support masks of :mod:`sudokit.fast.drawn`);
* **weighted sum**: bounds first (each term keeps the values the others' smallest and largest
  contributions leave room for, as the killer cage bounds with coefficients, cells that see
  each other counted as distinct digits: :func:`~sudokit.fast.sums.clique_sum_bounds`), then
  domain consistency by the layered filter below over partial sums (the dynamic programme of
  Trick 2003, "A dynamic programming approach for consistency and propagation for knapsack
  constraints", Annals of OR 118) when its layers fit ``SUM_LAYER_LIMIT``; a sum with
  cells that see each other (an arrow in a box, a zipper line's pair, a region sum segment, a
  little killer's diagonal) instead walks its candidate tuples with those cells' digits
  different while they are few (:func:`~sudokit.fast.sums.tuple_filter`), which the layered
  filter cannot know (the center of a zipper whose two ends share a row is at least 3), else
  (a sum with layers, +-1 terms, up to 15 cells) the layered filter over its cliques on bit
  sets of partial sums (:func:`~sudokit.fast.sumsets.sum_sets_filter`), else on byte rows
  (:func:`~sudokit.fast.sums.clique_filter`: cells that all see each other, each clique's
  sums over its tuples of distinct digits);
* **sequence**: Pesant's filtering of the regular constraint (CP 2004): states reachable
  forward from the start over the cells' candidates and backward from an accepting state;
  a digit survives where it takes a live state to a live state;
* **must-contain**: a listed digit with as many places left as it must appear goes to them all;
* **renban**: the windows of consecutive digits every cell can take part in and the cells'
  candidates cover (as cage combinations), distinct digits, a digit of every window with one
  place placed;
* **between / lockout line**: every pair of end digits is tried; a pair is kept when every
  middle cell has a candidate strictly inside (between) or outside and off (lockout) the ends'
  interval, and every cell keeps the digits of some kept pair (domain consistency of the rule);
* **indexing**: the indexing digit keeps the values whose target can hold the value; a fixed
  index puts the value in its target;
* **sandwich clue** over a whole line: the crusts' places and the fillings between them
  (:mod:`sudokit.fast.sandwich`).

A contradiction is False (the rule's first cell's units blamed, for dom/wdeg).
"""

from __future__ import annotations

import numpy as np

from .bits import lowest_index
from .layout import RuleCode
from .sandwich import sandwich_support
from .state import ONE, ZERO, Reg, jit
from .sums import (TUPLE_CELLS, clique_filter, clique_sum_bounds, digits_between, narrow_to,
                   term_bounds, tuple_filter)
from .sumsets import sum_sets_filter
from .trail import blame

__all__ = ["drawn_rules"]


@jit
def _relation(tables, state, rules, r):
    drawn, cand = rules.drawn, state.cand
    a = drawn.cells[drawn.start[r]]
    b = drawn.cells[drawn.start[r] + 1]
    off = drawn.offset[r]
    side = tables.units.shape[1]
    m = cand[a]
    support = ZERO
    while m != ZERO:
        support |= drawn.masks[off + lowest_index(m)]
        m &= m - ONE
    if not narrow_to(tables, state, b, support):
        return False
    m = cand[b]
    support = ZERO
    while m != ZERO:
        support |= drawn.masks[off + side + lowest_index(m)]
        m &= m - ONE
    return narrow_to(tables, state, a, support)


@jit
def _sum(tables, state, rules, r):
    drawn = rules.drawn
    first, last = drawn.start[r], drawn.start[r + 1]
    if not clique_sum_bounds(tables, state, rules, r):
        return False
    if last - first <= TUPLE_CELLS:  # few tuples: the walk is cheaper than the sets
        done = tuple_filter(tables, state, rules, r)
        if done >= 0:
            return done == 1
    if drawn.states[r] == 0:  # bounds only (BOUNDS_ONLY, SUM_LAYER_LIMIT)
        return True
    done = sum_sets_filter(tables, state, rules, r)  # the cliques (their pairs across unseen)
    if done >= 0:
        return done == 1
    done = clique_filter(tables, state, rules, r)
    return done == 1 if done >= 0 else _layered(tables, state, rules, r)


@jit
def _next(drawn, r, i, s, d, side):
    """The layered state after digit ``d`` in the rule's ``i``-th cell from state ``s`` (-1:
    none): an automaton's transition, or a weighted sum's partial sum (offset per layer)."""
    if drawn.kind[r] == RuleCode.AUTOMATON:
        return drawn.trans[drawn.offset[r] + s * side + d - 1]
    k = drawn.coef[drawn.start[r] + i]
    t = s + k * d - min(k, k * side)
    return t if t < drawn.states[r] else -1


@jit
def _accepts(drawn, r, s, side):
    if drawn.kind[r] == RuleCode.AUTOMATON:
        return drawn.trans[drawn.offset[r] + drawn.states[r] * side + s] != 0
    return s == drawn.offset[r]


@jit
def _span(drawn, r, i, lo, hi, m, side):
    """The states of layer ``i + 1`` reachable from states ``lo..hi - 1`` of layer ``i`` with
    the digits of ``m``, as a range: an automaton's layer (:mod:`sudokit.fast.automata`), a
    weighted sum's from the least and largest term."""
    n = drawn.states[r]
    if drawn.kind[r] == RuleCode.AUTOMATON:  # the layer's range after the flags
        at = drawn.offset[r] + n * (side + 1) + 2 * i + 2
        return drawn.trans[at], drawn.trans[at + 1]
    k = drawn.coef[drawn.start[r] + i]
    tmin, tmax = term_bounds(k, m)
    base = min(k, k * side)
    return max(lo + tmin - base, 0), min(hi - 1 + tmax - base + 1, n)


@jit
def _windows(tables, state, rules, r):
    """Write into ``rules.spans`` the range of each layer's partial sums (a weighted sum's)
    from which the total can still be reached by the cells after it, given their candidates:
    the backward half of the layer ranges, so a long sum with a large coefficient (a pill read
    as a number) visits a narrow band of states per layer, not every partial sum."""
    drawn, cand, spans = rules.drawn, state.cand, rules.spans
    first, n, side, goal = drawn.start[r], drawn.states[r], tables.units.shape[1], drawn.offset[r]
    length = drawn.start[r + 1] - first
    low = np.int64(0)
    high = np.int64(0)
    spans[2 * length] = goal
    spans[2 * length + 1] = goal + 1
    for i in range(length - 1, -1, -1):
        k = drawn.coef[first + i]
        tmin, tmax = term_bounds(k, cand[drawn.cells[first + i]])
        base = min(k, k * side)
        low += tmin - base
        high += tmax - base
        spans[2 * i] = max(goal - high, 0)
        spans[2 * i + 1] = min(goal - low + 1, n)


@jit
def _layered(tables, state, rules, r):
    """Pesant's forward-backward filter over the layers (one per cell) of the rule's states:
    an automaton's, or a weighted sum's partial sums (its dynamic programme); each layer's
    states that can be live lie in a range (``rules.spans``), the only ones visited."""
    drawn, cand, live, support, spans = (rules.drawn, state.cand, rules.layers, state.seg_or,
                                         rules.spans)
    first, n, side = drawn.start[r], drawn.states[r], tables.units.shape[1]
    length = drawn.start[r + 1] - first
    summed = drawn.kind[r] == RuleCode.SUM
    if summed:
        _windows(tables, state, rules, r)
    spans[0] = 0 if summed else drawn.value[r]
    spans[1] = spans[0] + 1
    live[spans[0]] = 1
    for i in range(length):
        m0 = cand[drawn.cells[first + i]]
        lo, hi = _span(drawn, r, i, spans[2 * i], spans[2 * i + 1], m0, side)
        if summed:  # and from which the total is still reachable
            lo = max(lo, spans[2 * i + 2])
            hi = min(hi, spans[2 * i + 3])
        spans[2 * i + 2] = lo
        spans[2 * i + 3] = hi
        for t in range(lo, hi):
            live[(i + 1) * n + t] = 0
        for s in range(spans[2 * i], spans[2 * i + 1]):
            m = m0 if live[i * n + s] else ZERO
            while m != ZERO:
                t = _next(drawn, r, i, s, lowest_index(m) + 1, side)
                m &= m - ONE
                if t >= 0:
                    live[(i + 1) * n + t] = 1
    for s in range(spans[2 * length], spans[2 * length + 1]):
        if not _accepts(drawn, r, s, side):
            live[length * n + s] = 0
    for i in range(length - 1, -1, -1):
        m0 = cand[drawn.cells[first + i]]
        keep = ZERO
        for s in range(spans[2 * i], spans[2 * i + 1]):
            if live[i * n + s]:
                alive = False
                m = m0
                while m != ZERO:
                    bit = m & (~m + ONE)
                    t = _next(drawn, r, i, s, lowest_index(m) + 1, side)
                    m ^= bit
                    if t >= 0 and spans[2 * i + 2] <= t < spans[2 * i + 3] and live[
                            (i + 1) * n + t]:
                        keep |= bit
                        alive = True
                if not alive:
                    live[i * n + s] = 0
        support[i] = keep
        if keep == ZERO:
            return False
    for i in range(length):
        if not narrow_to(tables, state, drawn.cells[first + i], support[i]):
            return False
    return True


@jit
def _contains(tables, state, rules, r):
    drawn, cand = rules.drawn, state.cand
    first, last, off = drawn.start[r], drawn.start[r + 1], drawn.offset[r]
    listed = ZERO
    needed = 0
    for d in range(tables.units.shape[1]):
        need = np.int64(drawn.masks[off + d])
        if need == 0:
            continue
        bit = ONE << np.uint64(d)
        listed |= bit
        needed += need
        places = 0
        place = -1
        for i in range(first, last):
            if cand[drawn.cells[i]] & bit:
                places += 1
                place = drawn.cells[i]
        if places < need:
            return False
        if places > need == 1 and not _seen_by_all(tables, state, drawn, first, last, bit,
                                                    place):
            return False
        for i in range(first, last if places == need else first):
            if cand[drawn.cells[i]] & bit and not narrow_to(tables, state, drawn.cells[i], bit):
                return False
    for i in range(first, last if needed == last - first else first):
        if not narrow_to(tables, state, drawn.cells[i], listed):
            return False
    return True


@jit
def _distinct(tables, state, drawn, first, last):
    """The placed digits of a rule whose digits differ leave its other cells."""
    cand = state.cand
    fixed = ZERO
    for i in range(first, last):
        m = cand[drawn.cells[i]]
        if m & (m - ONE) == ZERO:
            if fixed & m:
                return False
            fixed |= m
    for i in range(first, last):
        m = cand[drawn.cells[i]]
        if m & (m - ONE) != ZERO and not narrow_to(tables, state, drawn.cells[i], ~fixed):
            return False
    return True


@jit
def _renban(tables, state, rules, r):
    drawn, cand = rules.drawn, state.cand
    first, last = drawn.start[r], drawn.start[r + 1]
    if not _distinct(tables, state, drawn, first, last):
        return False
    size = last - first
    window = ~ZERO >> np.uint64(64 - size)
    alive = ZERO
    common = ~ZERO
    for s in range(tables.units.shape[1] - size + 1):
        w = window << np.uint64(s)
        cover = ZERO
        for i in range(first, last):
            part = cand[drawn.cells[i]] & w
            if part == ZERO:
                cover = ZERO
                break
            cover |= part
        if cover == w:
            alive |= w
            common &= w
    if alive == ZERO:
        return False
    for i in range(first, last):
        if not narrow_to(tables, state, drawn.cells[i], alive):
            return False
    while common != ZERO:  # a digit of every window left, with one place: put it there
        bit = common & (~common + ONE)
        common ^= bit
        place = -1
        count = 0
        for i in range(first, last):
            if cand[drawn.cells[i]] & bit:
                place = drawn.cells[i]
                count += 1
        if count == 0 or (count == 1 and not narrow_to(tables, state, place, bit)):
            return False
        if count > 1 and not _seen_by_all(tables, state, drawn, first, last, bit, place):
            return False
    return True


@jit
def _sees(tables, a, b):
    """Whether cell ``b`` is a peer of cell ``a``."""
    for k in range(tables.peer_start[a], tables.peer_start[a + 1]):
        if tables.peers[k] == b:
            return True
    return False


@jit
def _seen_by_all(tables, state, drawn, first, last, bit, place):
    """A digit (``bit``) the rule's cells must hold once, in one of its cells that have it
    (``place`` one of them): no cell outside them that sees them all holds it (sigh's ISS
    does the same for its required values)."""
    cand = state.cand
    for k in range(tables.peer_start[place], tables.peer_start[place + 1]):
        q = tables.peers[k]
        if cand[q] & bit == ZERO:
            continue
        ok = True
        for i in range(first, last):
            c = drawn.cells[i]
            if c == q or (c != place and cand[c] & bit and not _sees(tables, c, q)):
                ok = False
                break
        if ok and not narrow_to(tables, state, q, ~bit):
            return False
    return True


@jit
def _allowed(lockout, x, y, full):
    """The middle digits the end digits x, y allow."""
    lo, hi = min(x, y), max(x, y)
    return full & ~digits_between(lo, hi) if lockout else digits_between(lo + 1, hi - 1)


@jit
def _ends(tables, state, rules, r):
    """Between and lockout lines: keep the end pairs every middle cell can live with."""
    drawn, cand, support = rules.drawn, state.cand, state.seg_or
    first, last = drawn.start[r], drawn.start[r + 1]
    lockout, gap = drawn.kind[r] == RuleCode.LOCKOUT, drawn.value[r]
    full = ~ZERO >> np.uint64(64 - tables.units.shape[1])
    a, b = drawn.cells[first], drawn.cells[last - 1]
    for i in range(first, last):
        support[i - first] = ZERO
    ma = cand[a]
    while ma != ZERO:
        x = lowest_index(ma) + 1
        ma &= ma - ONE
        mb = cand[b]
        while mb != ZERO:
            y = lowest_index(mb) + 1
            mb &= mb - ONE
            if lockout and abs(x - y) < gap:
                continue
            allowed = _allowed(lockout, x, y, full)
            ok = True
            for i in range(first + 1, last - 1):
                if cand[drawn.cells[i]] & allowed == ZERO:
                    ok = False
                    break
            if not ok:
                continue
            support[0] |= ONE << np.uint64(x - 1)
            support[last - first - 1] |= ONE << np.uint64(y - 1)
            for i in range(first + 1, last - 1):
                support[i - first] |= cand[drawn.cells[i]] & allowed
    for i in range(first, last):
        if not narrow_to(tables, state, drawn.cells[i], support[i - first]):
            return False
    return True


@jit
def _index(tables, state, rules, r):
    drawn, cand = rules.drawn, state.cand
    first, off, targets, value = drawn.start[r], drawn.offset[r], drawn.states[r], drawn.value[r]
    target_bit = ONE << np.uint64(value - 1)
    m = cand[drawn.cells[first]]
    keep = ZERO
    while m != ZERO:
        d = lowest_index(m) + 1
        m &= m - ONE
        if d > targets:
            continue
        t = np.int64(drawn.masks[off + d - 1])
        if (d == value) if t == 0 else (cand[drawn.cells[first + t]] & target_bit != ZERO):
            keep |= ONE << np.uint64(d - 1)
    if not narrow_to(tables, state, drawn.cells[first], keep):
        return False
    m = cand[drawn.cells[first]]
    if m & (m - ONE) == ZERO:
        t = np.int64(drawn.masks[off + lowest_index(m)])
        return t == 0 or narrow_to(tables, state, drawn.cells[first + t], target_bit)
    return True


@jit
def _sandwich(tables, state, rules, r):
    """A sandwich clue over a whole line: the crusts' places and the fillings left
    (:func:`~sudokit.fast.sandwich.sandwich_support`)."""
    drawn, support = rules.drawn, state.seg_or
    first, off = drawn.start[r], drawn.offset[r]
    n = drawn.start[r + 1] - first
    if not sandwich_support(state.cand, drawn.cells, first, n, drawn.masks, off,
                            off + drawn.states[r], support):
        return False
    for p in range(n):
        if not narrow_to(tables, state, drawn.cells[first + p], support[p]):
            return False
    return True


@jit
def _filter(tables, state, rules, r):
    """Filter rule ``r`` once; False on a contradiction."""
    kind = rules.drawn.kind[r]
    if kind == RuleCode.RELATION:
        return _relation(tables, state, rules, r)
    if kind == RuleCode.SUM:
        return _sum(tables, state, rules, r)
    if kind == RuleCode.AUTOMATON:
        return _layered(tables, state, rules, r)
    if kind == RuleCode.CONTAINS:
        return _contains(tables, state, rules, r)
    if kind == RuleCode.RENBAN:
        return _renban(tables, state, rules, r)
    if kind == RuleCode.INDEX:
        return _index(tables, state, rules, r)
    if kind == RuleCode.SANDWICH:
        return _sandwich(tables, state, rules, r)
    return _ends(tables, state, rules, r)


@jit
def drawn_rules(tables, state, rules):
    """Wake the rules of the cells changed since the last call and filter each woken rule once
    (see the module docstring); False on a contradiction. The caller loops until the trail
    stops growing (``regs[Reg.TRAIL] == regs[Reg.RULES_SEEN]`` after a call)."""
    drawn, regs, dirty = rules.drawn, state.regs, rules.dirty
    for t in range(regs[Reg.RULES_SEEN], regs[Reg.TRAIL]):
        cell = state.trail_cell[t]
        for k in range(drawn.cell_start[cell], drawn.cell_start[cell + 1]):
            dirty[drawn.cell_rules[k]] = 1
    regs[Reg.RULES_SEEN] = regs[Reg.TRAIL]
    for r in range(dirty.shape[0]):
        if dirty[r] == 0:
            continue
        dirty[r] = 0
        if not _filter(tables, state, rules, r):
            blame(tables, state, drawn.cells[drawn.start[r]])
            return False
    return True
