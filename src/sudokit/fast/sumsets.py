"""Domain consistency of a sum of +-1 terms split into cliques, on bit sets of partial sums.

A weighted sum whose coefficients are all 1 or -1 (a little killer, a cage-like sum, an implied
sum, a zipper line's pair) stored clique by clique (:func:`sudokit.fast.drawn.sum_cliques`:
cells that all see each other hold distinct digits) is filtered here when its states fit 128
bits (N cells x (side - 1) < 128: 15 cells of a 9x9 grid). Each term's value is read as
``k * d`` less its least (``d - 1`` for ``k = 1``, ``side - d`` for ``k = -1``), so a clique's
partial sums and the sums before and after each clique are sets of 0..127, kept as two uint64
words:

* ``S_j``: the partial sums of clique ``j`` over its tuples of distinct digits (one walk; a
  clique of one cell is its candidate mask itself, reversed for ``k = -1``);
* forward ``F_{j+1} = F_j (+) S_j`` (each bit of ``S_j`` a shift of ``F_j``) and backward
  ``B_j = B_{j+1} (-) S_j`` from the target, as the layered filter of Trick (2003) over the
  cliques (:func:`sudokit.fast.sums.clique_filter`, with byte rows) but word-wide;
* the sums of clique ``j`` on a path, ``t`` with ``(F_j << t) & B_{j+1}``; when every sum of a
  clique is on one, its cells keep the digits of the tuples the first walk met, else a second
  walk keeps the digits of the tuples whose sum is.

The same supports as the tuple walk (:func:`sudokit.fast.sums.tuple_filter`) when no two cells
of different cliques see each other (a little killer's diagonal), as sigh's ISS reads a sum by
its exclusion groups (``sum_handler.js``) but exact; :mod:`sudokit.fast.lines` runs it on a sum
with layers (not bounds-only) the tuple walk declines (more than 9 cells or 4,096 tuples),
instead of the byte rows of :func:`sudokit.fast.sums.clique_filter`. :func:`clique_sums_reference` is the plain
Python twin (``tests/test_twins.py``, "sum cliques").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from ..compiled import Kernels, twin, use_compiled
from .bits import lowest_index, popcount
from .state import ONE, ZERO, jit
from .sums import narrow_to

__all__ = ["SET_BITS", "SET_CLIQUE_LIMIT", "clique_sums", "clique_sums_reference",
           "sum_sets_filter", "sum_sets_support"]

SET_BITS = 128
"""Partial sums a bit set holds (two uint64 words): a sum is filtered here when
N cells x (side - 1) < ``SET_BITS``."""
SET_CLIQUE_LIMIT = 1024
"""Most candidate tuples (the product of its cells' candidate counts) of one clique walked."""


@jit
def _shl(lo, hi, t):
    """The 128-bit set (lo, hi) shifted up by t (0 <= t < 128)."""
    if t == 0:
        return lo, hi
    if t >= 64:
        return ZERO, lo << np.uint64(t - 64)
    return lo << np.uint64(t), (hi << np.uint64(t)) | (lo >> np.uint64(64 - t))


@jit
def _shr(lo, hi, t):
    """The 128-bit set (lo, hi) shifted down by t (0 <= t < 128)."""
    if t == 0:
        return lo, hi
    if t >= 64:
        return hi >> np.uint64(t - 64), ZERO
    return (lo >> np.uint64(t)) | (hi << np.uint64(64 - t)), hi >> np.uint64(t)


@jit
def _term(m, k, side):
    """The term values (bit u for value u) of a cell of candidates ``m`` and coefficient
    ``k`` (+-1): ``d - 1`` for k = 1, ``side - d`` for k = -1."""
    if k > 0:
        return m
    out = ZERO
    while m != ZERO:
        out |= ONE << np.uint64(side - 1 - lowest_index(m))
        m &= m - ONE
    return out


@jit
def _walk(cand, cells, coef, at, n, side, stack, sets, s, keep, out, base):
    """Walk the tuples of distinct digits of the clique of ``n`` cells stored from ``at``.
    With ``keep`` False: set each tuple's partial sum in ``sets[s], sets[s + 1]`` and OR its
    digits into ``out`` (from ``out[base]`` for the sum's first cell); else OR into ``out``
    the digits of the tuples whose sum is in ``sets[s], sets[s + 1]``."""
    left, chosen = stack, stack[n:]
    level = 0
    left[0] = cand[cells[at]]
    while level >= 0:
        m = left[level]
        if m == ZERO:
            level -= 1
            continue
        bit = m & (~m + ONE)
        left[level] = m ^ bit
        chosen[level] = bit
        if level < n - 1:
            used = ZERO
            for i in range(level + 1):
                used |= chosen[i]
            level += 1
            left[level] = cand[cells[at + level]] & ~used
            continue
        t = 0
        for i in range(n):
            d = lowest_index(chosen[i]) + 1
            t += d - 1 if coef[at + i] > 0 else side - d
        w = s if t < 64 else s + 1
        b = ONE << np.uint64(t & 63)
        if not keep:
            sets[w] |= b
        elif sets[w] & b == ZERO:
            continue
        for i in range(n):
            out[at - base + i] |= chosen[i]


@jit
def sum_sets_support(cand, cells, coef, block, first, last, side, target, scratch, out):
    """The digits each cell of a +-1 sum keeps (see the module docstring).

    Args:
        cand: uint64[C] the candidates of the grid's cells (bit d-1 for digit d).
        cells: int32[...] the cells of the rules; the sum's are ``cells[first:last]``,
            clique by clique.
        coef: int64[...] each stored cell's coefficient (1 or -1 here).
        block: uint8[...] 1 where a clique starts.
        first, last: the sum's stored cells.
        side: N, the digits 1..N.
        target: the total less the least value of the sum (``Drawn.offset``).
        scratch: uint64[>= 6 * (last - first) + 2] working words.
        out: uint64[>= last - first] where each stored cell's supported digits go.

    Returns:
        1: filtered (``out`` set), 0: the sum cannot be met, -1: not applicable (a
        coefficient other than +-1, ``SET_BITS`` states or more, a clique with more than
        ``SET_CLIQUE_LIMIT`` tuples or too little scratch).
    """
    n = last - first
    if n * (side - 1) >= SET_BITS or 6 * n + 2 > scratch.shape[0]:
        return -1
    size = 1
    for i in range(first, last):
        if coef[i] != 1 and coef[i] != -1:
            return -1
        if block[i]:
            size = 1
        size *= popcount(cand[cells[i]])
        if size > SET_CLIQUE_LIMIT:
            return -1
    if target < 0 or target > n * (side - 1):
        return 0
    stack, sets, fw = scratch, scratch[2 * n:], scratch[4 * n:]
    m = 0  # the cliques' sum sets and the forward sets
    fw[0], fw[1] = ONE, ZERO
    top_lo, top_hi = _shl(ONE, ZERO, target + 1)  # the sums 0..target
    top_lo, top_hi = top_lo - ONE, top_hi - (ONE if top_lo == ZERO else ZERO)
    at = first
    while at < last:
        k = _clique_size(block, at, last)
        out[at - first:at - first + k] = ZERO
        if k == 1:
            out[at - first] = cand[cells[at]]
            sets[2 * m], sets[2 * m + 1] = _term(out[at - first], coef[at], side), ZERO
        else:
            sets[2 * m] = ZERO
            sets[2 * m + 1] = ZERO
            _walk(cand, cells, coef, at, k, side, stack, sets, 2 * m, False, out, first)
        lo, hi = _spread(fw[2 * m], fw[2 * m + 1], sets[2 * m], sets[2 * m + 1], True)
        fw[2 * m + 2], fw[2 * m + 3] = lo & top_lo, hi & top_hi
        m += 1
        at += k
    if (fw[2 * m + (target >> 6)] >> np.uint64(target & 63)) & ONE == ZERO:
        return 0
    blo, bhi = _shl(ONE, ZERO, target)
    at = last
    for j in range(m - 1, -1, -1):
        k = 1
        while not block[at - k]:
            k += 1
        at -= k
        keep_lo, keep_hi = _on_path(fw[2 * j], fw[2 * j + 1], sets[2 * j], sets[2 * j + 1],
                                    blo, bhi)
        if keep_lo != sets[2 * j] or keep_hi != sets[2 * j + 1]:
            sets[2 * j], sets[2 * j + 1] = keep_lo, keep_hi
            out[at - first:at - first + k] = ZERO
            if k == 1:
                out[at - first] = _term(keep_lo, coef[at], side) & cand[cells[at]]
            else:
                _walk(cand, cells, coef, at, k, side, stack, sets, 2 * j, True, out, first)
        blo, bhi = _spread(blo, bhi, keep_lo, keep_hi, False)
    return 1


@jit
def _clique_size(block, at, last):
    """The number of cells of the clique stored from ``at`` (to the next start or ``last``)."""
    k = 1
    while at + k < last and block[at + k] == 0:
        k += 1
    return k


@jit
def _spread(lo, hi, slo, shi, up):
    """The set (lo, hi) shifted by every value of (slo, shi): up (a Minkowski sum) or down."""
    rlo = ZERO
    rhi = ZERO
    for w in range(2):
        bits = slo if w == 0 else shi
        while bits != ZERO:
            t = lowest_index(bits) + 64 * w
            bits &= bits - ONE
            a, b = _shl(lo, hi, t) if up else _shr(lo, hi, t)
            rlo |= a
            rhi |= b
    return rlo, rhi


@jit
def _on_path(flo, fhi, slo, shi, blo, bhi):
    """The values t of (slo, shi) with some s of (flo, fhi) and s + t in (blo, bhi)."""
    rlo = ZERO
    rhi = ZERO
    for w in range(2):
        bits = slo if w == 0 else shi
        while bits != ZERO:
            low = lowest_index(bits)
            bits &= bits - ONE
            a, b = _shl(flo, fhi, low + 64 * w)
            if (a & blo) | (b & bhi) != ZERO:
                if w == 0:
                    rlo |= ONE << np.uint64(low)
                else:
                    rhi |= ONE << np.uint64(low)
    return rlo, rhi


def clique_sums_reference(masks: Sequence[int], coefs: Sequence[int], starts: Sequence[int],
                          total: int) -> list[int]:
    """What :func:`sum_sets_support` keeps, in plain Python: per cell, the digits of the
    assignments (distinct digits within each clique, cliques starting at the positions
    ``starts``) whose weighted sum is ``total``, by the sets of sums reachable before each clique
    and those that reach the total after it; all 0 when none.

    >>> clique_sums_reference([0b111, 0b111, 0b111], [1, 1, 1], [0, 2], 4)
    [3, 3, 1]
    """
    n = len(masks)
    bounds = sorted(set(starts) | {0, n})
    parts = list(pairwise(bounds))
    tuples = [[(sum(k * d for k, d in zip(coefs[a:b], tup)), tup) for tup in _distinct_tuples(
        [[d for d in range(1, 65) if m >> (d - 1) & 1] for m in masks[a:b]])] for a, b in parts]
    before = [{0}]
    for options in tuples:
        before.append({s + t for s in before[-1] for t, _ in options})
    after = {total}
    kept = [0] * n
    for (a, _), options, reach in reversed(list(zip(parts, tuples, before))):
        for t, tup in options:
            if any(s + t in after for s in reach):
                for i, d in enumerate(tup):
                    kept[a + i] |= 1 << (d - 1)
        after = {s - t for s in after for t, _ in options}
    return kept if total in before[-1] else [0] * n


def _distinct_tuples(digits: list[list[int]]) -> list[tuple[int, ...]]:
    """The tuples of distinct digits, one from each list."""
    found: list[tuple[int, ...]] = [()]
    for options in digits:
        found = [t + (d,) for t in found for d in options if d not in t]
    return found


@twin(Kernels.ENGINE, "sudokit.fast.sumsets:sum_sets_support",
      "sudokit.fast.sumsets:clique_sums_reference", "sum cliques")
def clique_sums(masks: Sequence[int], coefs: Sequence[int], starts: Sequence[int],
                total: int, side: int = 9) -> list[int]:
    """The digits each cell of a +-1 sum split into cliques keeps (:func:`sum_sets_support`
    where :func:`sudokit.compiled.use_compiled` says so and it applies, else
    :func:`clique_sums_reference`).

    Args:
        masks: the cells' candidates (bit d-1 for digit d <= ``side``).
        coefs: each cell's coefficient, 1 or -1.
        starts: the positions where a clique starts (0 included or implied).
        total: the sum.
        side: N.

    Returns:
        Per cell, the digits it keeps; all 0 when the sum cannot be met.
    """
    n = len(masks)
    if use_compiled(Kernels.ENGINE, n * n):
        floor = sum(min(k, k * side) for k in coefs)
        out = np.zeros(n, np.uint64)
        block = np.array([int(i == 0 or i in starts) for i in range(n)], np.uint8)
        done = sum_sets_support(np.array(masks, np.uint64), np.arange(n, dtype=np.int32),
                                np.array(coefs, np.int64), block, 0, n, side, total - floor,
                                np.zeros(8 * n + 4, np.uint64), out)
        if done >= 0:
            return [int(m) for m in out] if done else [0] * n
    return clique_sums_reference(masks, coefs, starts, total)


@jit
def sum_sets_filter(tables, state, rules, r):
    """Filter weighted sum ``r`` by :func:`sum_sets_support` and narrow its cells. 1:
    filtered, 0: a contradiction, -1: not applicable."""
    drawn, support = rules.drawn, state.seg_or
    first, last = drawn.start[r], drawn.start[r + 1]
    done = sum_sets_support(state.cand, drawn.cells, drawn.coef, drawn.block, first, last,
                            tables.units.shape[1], drawn.offset[r], rules.picks, support)
    if done != 1:
        return done
    for i in range(last - first):
        if not narrow_to(tables, state, drawn.cells[first + i], support[i]):
            return 0
    return 1
