"""A specialised engine for standard 9x9 Sudoku: digit-major bitboards in band words.

The grid is kept per digit rather than per cell, as in JCZSolve (zhouyundong_2012) and fsss2
(M. Dobrichev), both benchmarked by tdoku (T. Dillon, 2019): for each digit ``d`` and band ``b``
(three rows) one int64 word holds the 27 cells of the band where ``d`` is still possible, bit
``9 * row_in_band + col``. With three words of unsolved cells, a state is 30 integers, so
backtracking copies the state (no trail). Rules, to a fixpoint:

* **placing** a digit clears it from the cell's row, column and box and the cell from the other
  digits (naked-single elimination, Norvig 2006);
* **band and stack permutations**: in a band a digit takes one cell per row and per box, so its
  3x3 pattern of (row, box) mini-rows must contain a permutation matrix; a table maps each
  pattern to the union of the permutations inside it (JCZSolve's ``TblComplexMask``), and the
  same holds for (box, column) mini-columns of a stack. This subsumes pointing and claiming
  (Sudopedia, "Locked Candidates"); no permutation left is a contradiction;
* **hidden singles** of a digit in rows, boxes and columns; **naked singles** of a cell;
* at each fixpoint, **triads** (T. Dillon, "Fast Sudoku solvers", 2019, in tdoku's docs): the
  three cells of a mini-row or mini-column hold exactly three digits, so a triad with three
  possible digits holds each of them, one with three required digits (locked there by their
  line or box) holds no other, and fewer possible or more required is a contradiction.

At a choice point, once a search has tried ``TEMPLATE_NODES`` nodes, **digit templates**
(:mod:`sudokit.fast.templates`) run to a fixpoint with the rules above (small trees do not
repay them); search then branches on the bivalue cell whose two digits clear the most peers
(else MRV, Haralick and Elliott 1980; see :func:`_pick`), digits in increasing order, with the
phases, limits and counters of :mod:`sudokit.fast.kernels`, so
:class:`~sudokit.fast.engine.ResumableSearch` and the batch API drive either engine alike.
"""

from __future__ import annotations

from itertools import permutations
from typing import NamedTuple

import numpy as np
from numba import njit

from .bits import lowest_index, monotonic, popcount
from .givens import start_words
from .kernels import Phase, StopReason, _code
from .state import N_COUNTERS, N_REGS, Reg, jit
from .templates import digit_templates

__all__ = ["NineState", "new_nine_state", "start", "run", "run_batch"]

BAND = (1 << 27) - 1
U = 27  # s[U + b]: unsolved cells of band b
DIRTY = 30  # s[DIRTY]: digits changed since their last update (bit d)
TEMPLATED = 31  # s[TEMPLATED]: 1 at a choice point where templates ran
TEMPLATE_NODES = 16  # templates only from this many nodes on (docs/benchmarks.md, Hard 9x9)
PICK = (0, 3)  # _pick's (spread, extra) in the search (docs/benchmarks.md, Hard 9x9)
WIDTH = 32  # words per state
TRIADS = (1 << 54) - 1  # the 54 triads: 27 mini-rows, 27 mini-columns

_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")  # type: ignore[call-overload]
"""The decorator of the helpers that take the state arrays: Numba inlines them into their
callers, which LLVM did not do on its own (``perf`` showed each as a function of its own,
called with two array structs); 1.29x on forum-hardest (docs/benchmarks.md, "Hard 9x9")."""


def _tables() -> tuple[np.ndarray, ...]:
    """Build the lookup tables (int64) from the band structure."""
    row_boxes = np.array([sum(1 << k for k in range(3) if v >> 3 * k & 7) for v in range(512)],
                         np.int64)  # [512]: boxes a 9-bit row pattern touches
    perm = np.zeros(512, np.int64)  # [512]: 3x3 pattern -> union of the permutations inside it
    for pattern in range(512):
        for p in permutations(range(3)):
            if all(pattern >> (3 * r + p[r]) & 1 for r in range(3)):
                perm[pattern] |= sum(1 << (3 * r + p[r]) for r in range(3))
    complex_mask = np.array([sum(7 << (9 * (j // 3) + 3 * (j % 3)) for j in range(9) if m >> j & 1)
                             for m in perm], np.int64)  # [512]: the same in band cells
    box = np.array([sum(7 << (9 * r + 3 * k) for r in range(3)) for k in range(3)], np.int64)
    col = np.array([(1 | 1 << 9 | 1 << 18) << c for c in range(9)], np.int64)
    line = [511 << 9 * (i // 9) | box[i % 9 // 3] for i in range(27)]  # row and box of bit i
    seen = np.array([col[cell % 9] | (line[cell % 27] if b == cell // 27 else 0)  # [4 * cell + b]:
                     for cell in range(81) for b in range(4)], np.int64)  # band b's peers + cell
    keep = np.array([BAND & ~seen[4 * cell + b] | (1 << cell % 27 if b == cell // 27 else 0)
                     for cell in range(81) for b in range(4)], np.int64)  # those its digit keeps
    return row_boxes, perm, complex_mask, box, seen, keep


def _above(k: int) -> tuple[int, int]:
    """Return the bits of 27 at offset ``>= k``, ``>= 2 * k`` in their field of ``3 * k``."""
    return (sum(1 << p for p in range(27) if p % (3 * k) >= k),
            sum(1 << p for p in range(27) if p % (3 * k) >= 2 * k))


ROW_BOXES, PERM, COMPLEX, BOX, SEEN, KEEP = _tables()
EVERY3 = sum(1 << 3 * j for j in range(9))  # the first cell of each mini-row of a band word
ABOVE1, ABOVE3, ABOVE9 = _above(1), _above(3), _above(9)


class NineState(NamedTuple):
    """The arrays of one 9x9 search (depth at most 81).

    Attributes:
        s: int64[WIDTH] the current state: 27 digit-band words (index ``3 * d + b``), three
            unsolved-cell words, the dirty-digit mask, whether templates ran (1 or 0).
        stack: int64[82, WIDTH] the state at each choice point.
        frame_cell, frame_untried: int64[82] the cell of each choice point and its digits (bit
            d for digit d + 1) not yet tried.
        regs: int64[N_REGS] scalars indexed by :class:`~sudokit.fast.state.Reg` (counters
            first, in Stat order; DEPTH and PHASE; the others unused).
    """

    s: np.ndarray
    stack: np.ndarray
    frame_cell: np.ndarray
    frame_untried: np.ndarray
    regs: np.ndarray


def new_nine_state() -> NineState:
    """Allocate one :class:`NineState` (in Python: the kernels never allocate)."""
    return NineState(np.zeros(WIDTH, np.int64), np.zeros((82, WIDTH), np.int64),
                     np.zeros(82, np.int64), np.zeros(82, np.int64), np.zeros(N_REGS, np.int64))


@jit
def _count(x):
    return popcount(np.uint64(x))


@jit
def _low(x):
    return lowest_index(np.uint64(x))


@_inline
def _assign(s, regs, d, cell):
    """Place digit ``d`` (0..8) in ``cell``; False if the cell cannot take it."""
    cell &= 127  # 0..80 as it was, but known non-negative: no index wraparound below
    b, i = cell // 27, cell % 27
    bit = np.int64(1) << i
    if s[U + b] & bit == 0:  # solved already: fine only if with this digit
        return s[3 * d + b] & bit != 0
    if s[3 * d + b] & bit == 0:
        return False
    removed = 0
    for bb in range(3):
        w = s[3 * d + bb]
        nw = w & KEEP[4 * cell + bb]
        removed += _count(w ^ nw)
        s[3 * d + bb] = nw
    others = 0  # digits other than d that lose the cell (branch-free)
    for e in range(9):
        w = s[3 * e + b]
        others |= ((w >> i) & 1) << e
        s[3 * e + b] = w & ~bit
    others &= ~(1 << d)
    s[3 * d + b] |= bit
    s[DIRTY] |= others | (1 << d)
    removed += _count(others)
    s[U + b] ^= bit
    regs[Reg.PROPAGATIONS] += removed
    return True


@jit
def _band(w):
    """Keep the cells of a digit's band word that lie on a (row, box) permutation."""
    return w & COMPLEX[_pattern(w)]


@jit
def _fold(w):
    """Return the columns (9 bits) where a band word has a cell."""
    return (w | w >> 9 | w >> 18) & 511


@jit
def _stacks(occupied):
    """Return the subset of ``occupied`` (bit ``9 * b + c``: column c of band b holds the digit)
    on a (box, column) permutation of every stack, 0 for a contradiction."""
    allowed = 0
    for k in range(3):
        pattern = 0
        for b in range(3):
            pattern |= ((occupied >> (9 * b + 3 * k)) & 7) << (3 * b)
        keep = PERM[pattern]
        if keep == 0:
            return 0
        for b in range(3):
            allowed |= ((keep >> (3 * b)) & 7) << (9 * b + 3 * k)
    return allowed


@jit
def _singles(w, in_cols, unsolved):
    """Return the unsolved cells of a band word alone in their row, box or marked column."""
    hidden = w & in_cols
    for r in range(3):
        v = w & (511 << (9 * r))
        if v & (v - 1) == 0:
            hidden |= v
    for k in range(3):
        v = w & BOX[k]
        if v & (v - 1) == 0:
            hidden |= v
    return hidden & unsolved


@_inline
def _update_digit(s, regs, d):
    """Apply the band and stack permutation rules and hidden singles to digit ``d``; False on
    a contradiction."""
    base = 3 * d
    w0, w1, w2 = s[base], s[base + 1], s[base + 2]
    u0, u1, u2 = s[U], s[U + 1], s[U + 2]
    if (w0 & u0) | (w1 & u1) | (w2 & u2) == 0:  # only placed cells left: all nine?
        return _count(w0) + _count(w1) + _count(w2) == 9
    n0, n1, n2 = _band(w0), _band(w1), _band(w2)
    if n0 == 0 or n1 == 0 or n2 == 0:
        return False
    occupied = _fold(n0) | _fold(n1) << 9 | _fold(n2) << 18
    allowed = _stacks(occupied)
    if allowed == 0:
        return False
    if allowed != occupied:
        c = allowed & 511
        n0 &= c | c << 9 | c << 18
        c = (allowed >> 9) & 511
        n1 &= c | c << 9 | c << 18
        c = allowed >> 18
        n2 &= c | c << 9 | c << 18
        s[DIRTY] |= 1 << d  # the bands may narrow further
    if n0 != w0 or n1 != w1 or n2 != w2:
        k = _count(w0 ^ n0) + _count(w1 ^ n1) + _count(w2 ^ n2)
        regs[Reg.LOCKED_ELIMINATIONS] += k
        regs[Reg.PROPAGATIONS] += k
        s[base], s[base + 1], s[base + 2] = n0, n1, n2
    once = 0
    twice = 0
    for w in (n0, n1, n2):
        for r in range(3):
            v = (w >> (9 * r)) & 511
            twice |= once & v
            once |= v
    if once != 511:  # a column without the digit
        return False
    single = once & ~twice
    in_cols = single | single << 9 | single << 18
    h0 = _singles(n0, in_cols, u0)
    h1 = _singles(n1, in_cols, u1)
    h2 = _singles(n2, in_cols, u2)
    if h0 | h1 | h2 == 0:
        return True
    regs[Reg.HIDDEN_SINGLES] += _count(h0) + _count(h1) + _count(h2)
    for first, hidden in ((0, h0 | h1 << 27), (54, h2)):  # bit i: cell first + i
        while hidden != 0:
            if not _assign(s, regs, d, first + _low(hidden)):
                return False
            hidden &= hidden - 1
    return True


@_inline
def _naked_singles(s, regs):
    """Place every unsolved cell's only candidate: 1 placed some, 0 none, -1 contradiction."""
    placed = 0
    for b in range(3):
        u = s[U + b]
        if u == 0:
            continue
        once = 0
        twice = 0
        d0 = d1 = d2 = d3 = 0  # bits of the digit of the cells with one candidate
        for d in range(9):
            w = s[3 * d + b]
            twice |= once & w
            once |= w
            d0 |= w & -(d & 1)
            d1 |= w & -((d >> 1) & 1)
            d2 |= w & -((d >> 2) & 1)
            d3 |= w & -(d >> 3)
        if u & ~once != 0:
            return -1
        single = u & ~twice
        while single != 0:
            i = _low(single)
            single &= single - 1
            d = ((d0 >> i) & 1) | ((d1 >> i) & 1) << 1 | ((d2 >> i) & 1) << 2 | ((d3 >> i) & 1) << 3
            if not _assign(s, regs, d, 27 * b + i):
                return -1
            placed = 1
    return placed


@jit
def _pattern(w):
    """Return the 3x3 (row, box) pattern of a band word: bit ``3 * r + k``, mini-row (r, k)."""
    return (ROW_BOXES[w & 511] | ROW_BOXES[(w >> 9) & 511] << 3
            | ROW_BOXES[(w >> 18) & 511] << 6) & 511


@jit
def _alone(x, k, above):
    """Return the bits of the 27-bit ``x`` alone in their group: offsets ``p``, ``p + k``,
    ``p + 2 * k`` modulo ``3 * k`` in a field of ``3 * k`` bits (``above``: :func:`_above`)."""
    hi1, hi2 = above
    others = (x << k) & hi1 | (x >> 2 * k) & ~hi1 | (x << 2 * k) & hi2 | (x >> k) & ~hi2
    return x & ~others


@_inline
def _triad_masks(s, d):
    """Return, for digit ``d``, the triads that may hold it, those it must occupy by its line
    (row or column) and those it must occupy by its box (54 bits: mini-row (r, k) of band b
    at bit ``9 * r + 3 * k + b``, the mini-column of column c in band b at ``27 + 9 * b + c``),
    with bit operations only (a triad alone in its row, column or box by :func:`_alone`)."""
    w0, w1, w2 = s[3 * d], s[3 * d + 1], s[3 * d + 2]
    rows = ((w0 | w0 >> 1 | w0 >> 2) & EVERY3 | ((w1 | w1 >> 1 | w1 >> 2) & EVERY3) << 1
            | ((w2 | w2 >> 1 | w2 >> 2) & EVERY3) << 2)
    cols = _fold(w0) | _fold(w1) << 9 | _fold(w2) << 18
    line = _alone(rows, 3, ABOVE3) | _alone(cols, 9, ABOVE9) << 27
    box = _alone(rows, 9, ABOVE9) | _alone(cols, 1, ABOVE1) << 27
    return rows | cols << 27, line, box


@_inline
def _narrow(s, d, whole, clear):
    """Digit ``d`` must sit in the triads ``whole`` and not in ``clear`` (54-bit masks as
    :func:`_triad_masks`): clear the cells that contradict it; return the count cleared."""
    removed = 0
    for b in range(3):
        w = s[3 * d + b]
        nw = w
        x = (whole >> b) & EVERY3  # the mini-rows' first cells
        while x != 0:
            p = _low(x)
            x &= x - 1
            nw &= ~(511 << 9 * (p // 9)) | 7 << p
        nw &= ~(((clear >> b) & EVERY3) * 7)
        c = (clear >> (27 + 9 * b)) & 511
        c |= (whole >> (27 + 9 * ((b + 1) % 3))) & 511 | (whole >> (27 + 9 * ((b + 2) % 3))) & 511
        nw &= ~(c | c << 9 | c << 18)
        removed += _count(w ^ nw)
        s[3 * d + b] = nw
    return removed


@_inline
def _triads(s, regs):
    """Triads (T. Dillon, "Fast Sudoku solvers", 2019): the three cells of a mini-row or
    mini-column hold exactly three digits. A triad with three possible digits holds each of
    them (cleared from the rest of its line); one with three digits that must sit there (locked
    by their line or box) holds no other. Return -1 on a contradiction (fewer than three
    possible or more than three required), else the number of candidates removed."""
    p0 = p1 = p2 = p3 = 0  # bit-sliced counts over the digits, per triad
    m0 = m1 = m2 = m3 = 0
    free = 0  # triads some possible digit is not locked into by its line
    loose = 0  # triads some possible digit is not required in
    for d in range(9):
        poss, line, box = _triad_masks(s, d)
        must = line | box
        free |= poss & ~line
        loose |= poss & ~must
        carry = p0 & poss
        p0 ^= poss
        carry2 = p1 & carry
        p1 ^= carry
        p3 |= p2 & carry2
        p2 ^= carry2
        carry = m0 & must
        m0 ^= must
        carry2 = m1 & carry
        m1 ^= carry
        m3 |= m2 & carry2
        m2 ^= carry2
    if ~(p3 | p2) & ~(p1 & p0) & TRIADS or (m3 | m2) != 0:
        return -1
    full = ~(p3 | p2) & p1 & p0 & free
    locked = ~(m3 | m2) & m1 & m0 & loose
    if full | locked == 0:
        return 0
    removed = 0
    for d in range(9):
        poss, line, box = _triad_masks(s, d)
        k = _narrow(s, d, poss & full & ~line, poss & locked & ~(line | box))
        if k != 0:
            removed += k
            s[DIRTY] |= 1 << d
    regs[Reg.LOCKED_ELIMINATIONS] += removed
    regs[Reg.PROPAGATIONS] += removed
    return removed


@jit
def _propagate(s, regs):
    """Apply the rules to a fixpoint; False on a contradiction."""
    while True:
        dirty = s[DIRTY]
        s[DIRTY] = 0
        while dirty != 0:
            d = _low(dirty)
            dirty &= dirty - 1
            if not _update_digit(s, regs, d):
                return False
        placed = _naked_singles(s, regs)
        if placed < 0:
            return False
        if placed == 0 and s[DIRTY] == 0:
            found = _triads(s, regs)
            if found < 0:
                return False
            if found == 0:
                return True


@jit
def _digits(s, cell):
    """Return the candidates of ``cell`` as a digit mask (bit d for digit d + 1)."""
    cell &= 127  # known non-negative: no index wraparound
    b = cell // 27
    i = cell - 27 * b
    mask = 0
    for d in range(9):
        mask |= ((s[3 * d + b] >> i) & 1) << d
    return mask


@jit
def _peers_with(s, d, cell, bivalue, extra):
    """Return how many cells of ``cell``'s row, column and box still hold digit ``d``, counting
    ``1 + extra`` times those among ``bivalue`` (three band words: cells that placing d would
    solve)."""
    cell &= 127  # known non-negative: no index wraparound
    n = 0
    for bb in range(3):
        w = s[3 * d + bb] & SEEN[4 * cell + bb]
        n += _count(w) + extra * _count(w & bivalue[bb])
    return n


@jit
def _bivalue(s, b):
    """Return the unsolved cells of band ``b`` with exactly two candidates."""
    once = twice = thrice = 0
    for d in range(9):
        w = s[3 * d + b]
        thrice |= twice & w
        twice |= once & w
        once |= w
    return s[U + b] & twice & ~thrice


@jit
def _pick(s, spread, extra):
    """Return the bivalue cell whose placement clears the most, else one with the fewest
    candidates (MRV). A bivalue cell's score: over its two digits, ``spread`` times the smaller
    plus the sum of the peers holding the digit, bivalue peers counted ``1 + extra`` times. The
    search uses :data:`PICK`, (0, 3); ``generator.grids.nine_grid`` uses (64, 2), the score its
    seeds' grids were made with (docs/benchmarks.md, "Hard 9x9")."""
    best = best_score = -1
    bivalue = (_bivalue(s, 0), _bivalue(s, 1), _bivalue(s, 2))
    for first, pairs in ((0, bivalue[0] | bivalue[1] << 27), (54, bivalue[2])):
        while pairs != 0:  # bit i: cell first + i
            cell = first + _low(pairs)
            pairs &= pairs - 1
            m = _digits(s, cell)
            a1 = _peers_with(s, _low(m), cell, bivalue, extra)
            a2 = _peers_with(s, _low(m & (m - 1)), cell, bivalue, extra)
            score = min(a1, a2) * spread + a1 + a2
            if score > best_score:
                best_score = score
                best = cell
    if best >= 0:
        return best
    best_count = 10
    for b in range(3):
        u = s[U + b]
        while u != 0:
            i = _low(u)
            u &= u - 1
            count = _count(_digits(s, 27 * b + i))
            if count < best_count:
                best = 27 * b + i
                best_count = count
    return best


@jit
def start(state, givens):
    """Reset ``state`` to the puzzle ``givens`` (uint8[81], 0 empty; a value above 9 makes the
    puzzle unsatisfiable), placed word-wise (:mod:`sudokit.fast.givens`); :func:`run`
    propagates."""
    s, regs = state.s, state.regs
    regs[:] = 0
    s[TEMPLATED] = 0
    removed = start_words(s, state.frame_cell, givens)  # no choice point yet: scratch
    regs[Reg.PROPAGATIONS] = removed
    s[DIRTY] = 511 if removed > 0 else 0  # a given makes every digit lose a candidate
    ok = removed >= 0
    if not ok:  # one at a time, as far as they go: the same counters as always
        for k in range(30):
            s[k] = BAND  # every digit everywhere, every cell unsolved
        regs[:] = 0
        ok = True
        for cell in range(81):
            if givens[cell] != 0 and ok:
                ok = givens[cell] <= 9 and _assign(s, regs, givens[cell] - 1, cell)
    regs[Reg.PHASE] = Phase.START if ok else Phase.DONE


@jit
def _descend(state, out):
    """At a propagated state: templates, then choose a cell (True: solved, the grid in ``out``)."""
    s, regs, stack = state.s, state.regs, state.stack
    regs[Reg.PHASE] = Phase.BACKTRACK
    depth = regs[Reg.DEPTH]
    prev = stack[max(depth - 1, 0)]  # the choice point above: templated if prev[TEMPLATED]
    fresh = depth == 0 or prev[TEMPLATED] == 0
    s[TEMPLATED] = regs[Reg.NODES] >= TEMPLATE_NODES
    while True:
        if s[U] | s[U + 1] | s[U + 2] == 0:
            for d in range(9):
                for b in range(3):
                    w = s[3 * d + b]
                    while w != 0:
                        out[27 * b + _low(w)] = d + 1
                        w &= w - 1
            regs[Reg.SOLUTIONS] += 1
            return True
        removed = narrowed = 0
        if s[TEMPLATED]:
            removed, narrowed = digit_templates(s, s[U], s[U + 1], s[U + 2], prev, fresh)
        if removed <= 0:
            break
        s[DIRTY] |= narrowed
        regs[Reg.LOCKED_ELIMINATIONS] += removed
        regs[Reg.PROPAGATIONS] += removed
        for k in range(27):  # the digits as templated: propagation may change some
            stack[depth + 1, k] = s[k]
        if not _propagate(s, regs):
            return False
        prev, fresh = stack[depth + 1], False
    if removed < 0:
        return False
    cell = _pick(s, PICK[0], PICK[1])
    for k in range(WIDTH):
        stack[depth, k] = s[k]
    state.frame_cell[depth] = cell
    state.frame_untried[depth] = _digits(s, cell)
    regs[Reg.DEPTH] = depth + 1
    return False


@jit
def run(state, limit, node_limit, deadline, out):
    """Continue the search until ``limit`` more solutions, exhaustion or a limit.

    Args and Returns as :func:`sudokit.fast.kernels.run` (without tables and ``locked``: the
    band-permutation rule is always on); ``out`` is uint8[limit, 81].
    """
    s, stack, frame_cell, frame_untried, regs = state
    found = 0
    tried = 0  # nodes in this call: the clock is read at its first node and every 1,024
    if regs[Reg.PHASE] == Phase.START:
        regs[Reg.PHASE] = Phase.DESCEND if _propagate(s, regs) else Phase.DONE
    while regs[Reg.PHASE] != Phase.DONE:
        if regs[Reg.PHASE] == Phase.DESCEND and _descend(state, out[found]):
            found += 1
            if found >= limit:
                return StopReason.FOUND
        d = regs[Reg.DEPTH] - 1
        if d < 0:
            regs[Reg.PHASE] = Phase.DONE
            break
        untried = frame_untried[d]
        if untried == 0:
            regs[Reg.DEPTH] = d
            regs[Reg.BACKTRACKS] += 1
            continue
        if regs[Reg.NODES] >= node_limit:
            return StopReason.NODE_LIMIT
        if tried & 1023 == 0 and monotonic() > deadline:
            return StopReason.TIME_LIMIT
        tried += 1
        frame_untried[d] = untried & (untried - 1)
        regs[Reg.NODES] += 1
        for k in range(WIDTH):
            s[k] = stack[d, k]
        if _assign(s, regs, _low(untried), frame_cell[d]) and _propagate(s, regs):
            regs[Reg.PHASE] = Phase.DESCEND
    return StopReason.EXHAUSTED


@jit
def run_batch(state, puzzles, limit, node_limit, time_limit, out, status, stats):
    """Solve every row of ``puzzles`` (uint8[M, 81]) in one compiled loop, reusing ``state``;
    outputs as :func:`sudokit.fast.kernels.run_batch`."""
    regs = state.regs
    for i in range(puzzles.shape[0]):
        t0 = monotonic()
        start(state, puzzles[i])
        outcome = run(state, limit, node_limit, t0 + time_limit, out[i])
        status[i] = _code(outcome, regs[Reg.SOLUTIONS])
        for k in range(N_COUNTERS):
            stats[i, k] = regs[k]
        stats[i, N_COUNTERS] = np.int64((monotonic() - t0) * 1e9)
