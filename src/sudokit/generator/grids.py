"""Numba kernels of the generator's randomness: a seeded random stream (xoshiro256**) and
random solution grids, made by a randomised search on either engine of :mod:`sudokit.fast` (the
9x9 bitboard engine for standard 9x9 grids, the generic one otherwise) and a random
validity-preserving transformation, or drawn exactly uniformly from a table of small grids.

Everything is integer arithmetic on a four-word state, so a seed gives the same grids on every
machine. Reference: D. Blackman and S. Vigna, "Scrambled linear pseudorandom number generators",
ACM TOMS 47, 2021 (xoshiro256**); D. Lemire, "Fast random integer generation in an interval",
ACM TOMACS 29, 2019.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..fast import kernels as gk
from ..fast import nine
from ..fast.bits import lowest_index, popcount
from ..fast.kernels import Phase
from ..fast.rules import full_mask, narrow, propagate, undo
from ..fast.state import ONE, ZERO, Reg, jit

if TYPE_CHECKING:
    from ..fast.nine import NineState
    from ..fast.state import State
    from ..fast.tables import Tables

__all__ = ["RESTARTS", "Engines", "Scratch", "Shape", "below", "generic_grid", "next_u64",
           "nine_grid", "random_grid", "seed_state", "shuffle", "transform"]

RESTARTS = 64
"""Stuck searches (each of ``20 * N*N`` nodes, 5,000 for 9x9) :func:`random_grid` restarts before
it gives up on a grid."""



class Engines(NamedTuple):
    """The search engines a generator kernel runs on (one thread's, reused from puzzle to
    puzzle).

    Attributes:
        engine: 0 for the 9x9 bitboard engine (on ``nstate``), 1 for the generic one (on
            ``tables`` and ``state``).
        tables: the geometry's :class:`~sudokit.fast.tables.Tables`.
        state: the generic engine's :class:`~sudokit.fast.state.State`.
        nstate: the 9x9 engine's state (:func:`sudokit.fast.nine.new_nine_state`).
    """

    engine: int
    tables: Tables
    state: State
    nstate: NineState


class Shape(NamedTuple):
    """The grid a generator kernel makes (side N, boxes of ``box_rows`` x ``box_cols`` cells)
    and whether the whole random transformation keeps its rules (``full``: standard rules;
    else only the relabelling and the transposition, see :func:`transform`)."""

    side: int
    box_rows: int
    box_cols: int
    full: bool


class Scratch(NamedTuple):
    """The work arrays of one thread's generator kernels (C = N*N cells, U units), all reused.

    Attributes:
        rng: uint64[4], the xoshiro256** state of the current puzzle's stream.
        zeros: uint8[C] of 0 (the empty grid a random search starts from).
        tmp: uint8[C + 1], a transformed grid, then the group order of :func:`_line_order`.
        rows, cols: int32[N], the line orders of :func:`transform`.
        labels: uint8[N + 1], a relabelling of the digits (``labels[0]`` is 0).
        order: int32[C], the random order in which orbits are tried (the first ``orbits``).
        removed: int32[C], the cells removed together in one uniqueness check.
        out2: uint8[2, C], the solutions a check finds.
        counters: int64[3], the checks, their nodes and the orbits kept without proof.
        unit_mask: uint64[U], the digits of the givens of each unit.
    """

    rng: np.ndarray
    zeros: np.ndarray
    tmp: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    labels: np.ndarray
    order: np.ndarray
    removed: np.ndarray
    out2: np.ndarray
    counters: np.ndarray
    unit_mask: np.ndarray


_MASK32 = np.uint64(0xFFFFFFFF)
_S17 = np.uint64(17)
_S45 = np.uint64(45)


# -- random stream: xoshiro256** (Blackman and Vigna 2018), integer arithmetic only -----------

@jit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit
def next_u64(rng):
    """Advance the xoshiro256** state ``rng`` (uint64[4], not all zero); return 64 random bits."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << _S17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    return result


@jit
def seed_state(rng, words):
    """Set ``rng`` from four uint64 seed words (an all-zero seed is replaced)."""
    for k in range(4):
        rng[k] = words[k]
    if rng[0] | rng[1] | rng[2] | rng[3] == ZERO:
        rng[0] = np.uint64(0x9E3779B97F4A7C15)


@jit
def below(rng, n):
    """Return a uniform integer in ``0..n-1`` (1 <= n < 2**32; Lemire 2019, exact)."""
    bound = np.uint64(n)
    m = (next_u64(rng) >> np.uint64(32)) * bound
    low = m & _MASK32
    if low < bound:
        threshold = (np.uint64(1) << np.uint64(32)) % bound
        while low < threshold:
            m = (next_u64(rng) >> np.uint64(32)) * bound
            low = m & _MASK32
    return np.int64(m >> np.uint64(32))


@jit
def shuffle(rng, values, n):
    """Shuffle the first ``n`` entries of ``values`` in place (Fisher-Yates)."""
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        values[i], values[j] = values[j], values[i]


@jit
def _random_bit(rng, mask):
    """Return one set bit of a non-zero uint64 mask, each with equal probability."""
    k = below(rng, popcount(mask))
    for _ in range(k):
        mask &= mask - ONE
    return mask & (~mask + ONE)


# -- random solution grids ---------------------------------------------------------------------

@jit
def nine_grid(state, rng, out, node_limit):
    """Fill ``out`` (uint8[81]) with a random 9x9 solution grid: depth-first search on the 9x9
    engine from the empty grid, trying the digits of each chosen cell in a random order.

    Returns the search nodes used, or -1 when ``node_limit`` was hit (``out`` is then unset).
    """
    s, stack, frame_cell, frame_untried, regs = state
    for k in range(27):
        s[k] = nine.BAND
    for b in range(3):
        s[nine.U + b] = nine.BAND
    s[nine.DIRTY] = 0
    regs[:] = 0
    depth = 0
    nodes = 0
    descend = True
    while True:
        if descend:
            if s[nine.U] | s[nine.U + 1] | s[nine.U + 2] == 0:
                for d in range(9):
                    for b in range(3):
                        w = s[3 * d + b]
                        while w != 0:
                            out[27 * b + nine._low(w)] = d + 1
                            w &= w - 1
                return nodes
            cell = nine._pick(s, 64, 2)  # the score these seeds' grids were made with
            for k in range(nine.WIDTH):
                stack[depth, k] = s[k]
            frame_cell[depth] = cell
            frame_untried[depth] = nine._digits(s, cell)
            depth += 1
        d = depth - 1
        if d < 0:
            return -1  # cannot happen: the empty grid has solutions
        untried = frame_untried[d]
        if untried == 0:
            depth = d
            descend = False
            continue
        if nodes >= node_limit:
            return -1
        nodes += 1
        bit = np.int64(_random_bit(rng, np.uint64(untried)))
        frame_untried[d] = untried ^ bit
        for k in range(nine.WIDTH):
            s[k] = stack[d, k]
        descend = nine._assign(s, regs, nine._low(bit), frame_cell[d]) and nine._propagate(s, regs)


@jit
def generic_grid(tables, state, rng, givens, out, node_limit):
    """Fill ``out`` (uint8[N*N]) with a random solution of ``givens`` (all zero for a random
    grid) on the generic engine: depth-first search, each chosen cell's digits in a random
    order, naked and hidden singles after every choice (locked candidates off: they cost more
    than they save when almost every branch succeeds).

    Returns the search nodes used, or -1 when ``node_limit`` was hit or there is no solution.
    """
    cand, regs = state.cand, state.regs
    frame_cell, frame_untried, frame_mark = state.frame_cell, state.frame_untried, state.frame_mark
    full = full_mask(tables)
    gk.start(tables, state, givens)
    if regs[Reg.PHASE] == Phase.DONE or not propagate(tables, state, full, False):
        return -1
    nodes = 0
    descend = True
    while True:
        if descend:
            cell = gk._select(cand)
            if cell < 0:
                for c in range(cand.shape[0]):
                    out[c] = lowest_index(cand[c]) + 1
                return nodes
            d = regs[Reg.DEPTH]
            frame_cell[d] = cell
            frame_untried[d] = cand[cell]
            frame_mark[d] = regs[Reg.TRAIL]
            regs[Reg.DEPTH] = d + 1
        d = regs[Reg.DEPTH] - 1
        if d < 0:
            return -1
        undo(state, frame_mark[d])
        untried = frame_untried[d]
        if untried == ZERO:
            regs[Reg.DEPTH] = d
            descend = False
            continue
        if nodes >= node_limit:
            return -1
        nodes += 1
        bit = _random_bit(rng, untried)
        frame_untried[d] = untried ^ bit
        narrow(tables, state, frame_cell[d], bit)
        descend = propagate(tables, state, full, False)


@jit
def _line_order(rng, order, tmp, groups, size):
    """Set ``order[i]`` to the source line of line ``i``: the ``groups`` groups of ``size``
    lines (bands of rows, or stacks of columns) in a random order, then the lines inside each
    group. ``tmp`` is scratch."""
    for i in range(groups):
        tmp[i] = i
    shuffle(rng, tmp, groups)
    for b in range(groups):
        for r in range(size):
            order[b * size + r] = tmp[b] * size + r
        shuffle(rng, order[b * size:(b + 1) * size], size)


@jit
def transform(grid, shape, ordered, scratch):
    """Apply a random validity-preserving transformation to ``grid`` in place.

    With ``shape.full`` (``shape`` a :class:`Shape`): a random relabelling, band order, stack
    order, row order inside each band, column order inside each stack, and (square boxes only)
    a transposition with probability 1/2. Without it (variants whose extra units those moves
    would break): relabelling and, for square boxes, the transposition only. With
    ``ordered`` (the non-consecutive rule, which a relabelling breaks unless it keeps the
    differences of digits) the relabelling is the identity or the reversal d -> N + 1 - d,
    each with probability 1/2. The random stream and the work arrays are ``scratch``'s (a
    :class:`Scratch`).
    """
    rng, tmp, labels = scratch.rng, scratch.tmp, scratch.labels
    rows, cols = scratch.rows, scratch.cols
    n, box_rows, box_cols, full = shape
    for d in range(n + 1):
        labels[d] = d
    if not ordered:
        shuffle(rng, labels[1:], n)
    elif below(rng, 2) == 1:
        for d in range(1, n + 1):
            labels[d] = n + 1 - d
    for i in range(n):
        rows[i] = i
        cols[i] = i
    if full:
        _line_order(rng, rows, tmp, n // box_rows, box_rows)  # bands, then rows in each band
        _line_order(rng, cols, tmp, n // box_cols, box_cols)  # stacks, then columns in each
    flip = box_rows == box_cols and below(rng, 2) == 1
    for r in range(n):
        for c in range(n):
            src = rows[r] * n + cols[c]
            if flip:
                src = rows[c] * n + cols[r]
            tmp[r * n + c] = labels[grid[src]]
    for k in range(n * n):
        grid[k] = tmp[k]


@jit
def random_grid(engines, shape, table, grid, scratch):
    """Fill ``grid`` (uint8[N*N]) with the next random solution grid of the stream
    ``scratch.rng``: a uniformly chosen row of ``table`` (uint8[K, N*N]) uniformly relabelled
    when the table is not empty, else a random search (:func:`nine_grid` when
    ``engines.engine`` is 0, else :func:`generic_grid`, restarted from the stream's next state
    when stuck) and a random :func:`transform` of the grid ``shape``. ``engines``, ``shape``
    and ``scratch`` are an :class:`Engines`, a :class:`Shape` and a :class:`Scratch`.

    Returns the search nodes spent (0 from the table), or -1 when :data:`RESTARTS` searches
    in a row got stuck (``grid`` is then unset): a bound for variants where no grid exists
    (the door proves existence first, so it is hardly ever reached).
    """
    engine, tables, state, nstate = engines
    rng, labels = scratch.rng, scratch.labels
    side = shape.side
    n_cells = side * side
    if table.shape[0] > 0:
        row = below(rng, table.shape[0])
        for d in range(side + 1):
            labels[d] = d
        shuffle(rng, labels[1:], side)
        for c in range(n_cells):
            grid[c] = labels[table[row, c]]
        return 0
    grid_limit = 5000 if engine == 0 else 20 * n_cells
    grid_nodes = 0
    made = -1
    for _ in range(RESTARTS):  # a stuck search restarts from the stream's next state
        if engine == 0:
            made = nine_grid(nstate, rng, grid, grid_limit)
        else:
            made = generic_grid(tables, state, rng, scratch.zeros, grid, grid_limit)
        if made >= 0:
            break
        grid_nodes += grid_limit
    if made < 0:
        return -1
    grid_nodes += made
    transform(grid, shape, tables.near.shape[0] > 0, scratch)
    return grid_nodes
