"""Numba kernels: bitmask propagation and depth-first search with an explicit stack.

State of one search (arrays only, so kernels release the GIL and never touch Python objects):
each cell holds its candidates as a uint64 mask (bit ``d - 1`` for digit d, so sides up to 64).
Propagation runs to a fixpoint:

* **naked single**: a cell left with one candidate removes it from every peer (Norvig 2006);
* **hidden single**: a digit with one place left in a unit goes there; a digit with none is a
  contradiction (one ``once``/``twice`` sweep over every unit, extra units of variants included);
* **locked candidates**: a digit of a line confined to one box segment leaves the rest of the box
  (claiming) and a digit of a box confined to one line segment leaves the rest of the line
  (pointing), see Sudopedia, "Locked Candidates"; optional.

Search branches on an unfilled cell with the fewest candidates (MRV, Haralick and Elliott 1980),
stopping at the first bivalue cell, and tries its digits in increasing order. Every candidate
change is pushed on a trail ``(cell, old mask)`` and undone by popping it; the stack of choice
points lives in arrays, so a search can stop (at a solution or a limit) and resume later.
A contradiction is a return value (False / -1), never an exception.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np
from numba import njit

from .bits import lowest_index, monotonic, popcount

__all__ = ["Reg", "Phase", "Outcome", "Code", "State", "N_REGS", "N_COUNTERS", "clock",
           "new_state", "start", "run", "solve_batch"]

# No Numba runtime (NRT) in the kernels: they never allocate, and without it passing arrays
# costs no atomic reference counting (a 10x difference on the hot helpers).
_jit = njit(cache=True, nogil=True, _nrt=False)
ZERO = np.uint64(0)
ONE = np.uint64(1)


class Reg(IntEnum):
    """Index of each scalar register in ``state.regs`` (counters first, in Stat order)."""

    NODES = 0
    BACKTRACKS = 1
    PROPAGATIONS = 2
    HIDDEN_SINGLES = 3
    LOCKED_ELIMINATIONS = 4
    SOLUTIONS = 5
    DEPTH = 6
    TRAIL = 7
    QUEUE_HEAD = 8
    QUEUE_TAIL = 9
    PHASE = 10


N_REGS = 11
N_COUNTERS = 6  # registers 0..5 are the per-puzzle counters


class Phase(IntEnum):
    """Where a stopped search resumes."""

    DESCEND = 0  # at a propagated state: pick a cell (or report a solution)
    BACKTRACK = 1  # try the next digit of the deepest choice point
    DONE = 2  # the search space is exhausted
    START = 3  # givens set, not yet propagated


class Outcome(IntEnum):
    """Why :func:`run` returned."""

    EXHAUSTED = 0
    FOUND = 1  # the requested number of solutions was reached
    NODE_LIMIT = 2
    TIME_LIMIT = 3


class Code(IntEnum):
    """Per-puzzle status of the batch API (int8 in its ``status`` array)."""

    UNSATISFIABLE = 0
    SOLVED = 1
    NODE_LIMIT = 2
    TIME_LIMIT = 3


@_jit
def clock():
    """Return the kernels' clock in seconds (see :func:`~sudokit.fast.bits.monotonic`)."""
    return monotonic()


class State(NamedTuple):
    """The arrays of one search (C = N*N cells, T = C*N + 1 trail entries, U units).

    Attributes:
        cand: uint64[C] candidate masks.
        trail_cell, trail_mask: int32[T], uint64[T]: changed cells and their old masks.
        queue: int32[C] cells that became single and still have to leave their peers.
        frame_cell, frame_untried, frame_mark: int32[C], uint64[C], int64[C]: the choice points
            (cell, digits not yet tried, trail length when chosen).
        seg_or: uint64[C + 1] scratch for locked candidates.
        dirty: uint8[U] units changed since their last hidden-single sweep.
        regs: int64[N_REGS] scalars, indexed by :class:`Reg`.
    """

    cand: np.ndarray
    trail_cell: np.ndarray
    trail_mask: np.ndarray
    queue: np.ndarray
    frame_cell: np.ndarray
    frame_untried: np.ndarray
    frame_mark: np.ndarray
    seg_or: np.ndarray
    dirty: np.ndarray
    regs: np.ndarray


def new_state(n_cells: int, side: int, n_units: int) -> State:
    """Allocate one :class:`State` (in Python: the kernels never allocate)."""
    trail = n_cells * side + 1
    return State(np.zeros(n_cells, np.uint64), np.zeros(trail, np.int32),
                 np.zeros(trail, np.uint64), np.zeros(n_cells, np.int32),
                 np.zeros(n_cells, np.int32), np.zeros(n_cells, np.uint64),
                 np.zeros(n_cells, np.int64), np.zeros(n_cells + 1, np.uint64),
                 np.zeros(n_units, np.uint8), np.zeros(N_REGS, np.int64))


@_jit
def _narrow(tables, state, cell, keep):
    """Keep only the ``keep`` bits of a cell's candidates (trailed; its units marked dirty;
    queued if single). Returns False, changing nothing, when no candidate would be left."""
    cand, regs = state.cand, state.regs
    old = cand[cell]
    new = old & keep
    if new == old:
        return True
    if new == ZERO:
        return False
    t = regs[Reg.TRAIL]
    state.trail_cell[t] = cell
    state.trail_mask[t] = old
    regs[Reg.TRAIL] = t + 1
    cand[cell] = new
    regs[Reg.PROPAGATIONS] += popcount(old ^ new)
    for k in range(tables.unit_start[cell], tables.unit_start[cell + 1]):
        state.dirty[tables.cell_units[k]] = 1
    if new & (new - ONE) == ZERO:
        state.queue[regs[Reg.QUEUE_TAIL]] = cell
        regs[Reg.QUEUE_TAIL] += 1
    return True


@_jit
def _undo(state, mark):
    """Restore every candidate change made since the trail had length ``mark``."""
    cand, trail_cell, trail_mask, regs = state.cand, state.trail_cell, state.trail_mask, state.regs
    t = regs[Reg.TRAIL]
    while t > mark:
        t -= 1
        cand[trail_cell[t]] = trail_mask[t]
    regs[Reg.TRAIL] = t


@_jit
def _naked_singles(tables, state):
    """Remove each queued single's digit from its peers; False on a contradiction."""
    cand, queue, regs = state.cand, state.queue, state.regs
    peer_start, peers = tables.peer_start, tables.peers
    while regs[Reg.QUEUE_HEAD] < regs[Reg.QUEUE_TAIL]:
        cell = queue[regs[Reg.QUEUE_HEAD]]
        regs[Reg.QUEUE_HEAD] += 1
        bit = cand[cell]
        for k in range(peer_start[cell], peer_start[cell + 1]):
            if cand[peers[k]] & bit and not _narrow(tables, state, peers[k], ~bit):
                return False
    regs[Reg.QUEUE_HEAD] = 0
    regs[Reg.QUEUE_TAIL] = 0
    return True


@_jit
def _hidden_singles(tables, state, full):
    """Place every digit with one place left in a unit; -1 if a digit has no place, else the
    number placed."""
    units, cand, dirty, regs = tables.units, state.cand, state.dirty, state.regs
    side = units.shape[1]
    placed = 0
    for u in range(units.shape[0]):
        if dirty[u] == 0:
            continue
        dirty[u] = 0
        once = ZERO
        twice = ZERO
        fixed = ZERO
        for k in range(side):
            m = cand[units[u, k]]
            if m & (m - ONE) == ZERO:
                fixed |= m
            twice |= once & m
            once |= m
        if once != full:
            return -1
        hidden = once & ~twice & ~fixed
        while hidden != ZERO:
            bit = hidden & (~hidden + ONE)
            hidden ^= bit
            cell = -1
            for k in range(side):
                if cand[units[u, k]] & bit:
                    cell = units[u, k]
                    break
            if cell < 0:  # its only cell took another hidden single of this unit
                return -1
            _narrow(tables, state, cell, bit)
            placed += 1
    regs[Reg.HIDDEN_SINGLES] += placed
    return placed


@_jit
def _confine(tables, groups, others, owner, cells, seg_or, state):
    """For each group (line or box), a digit found in one of its segments only leaves the other
    segments of that segment's owner (box or line); -1 on a contradiction, else eliminations."""
    cand, regs = state.cand, state.regs
    removed = 0
    for g in range(groups.shape[0]):  # index loops: iterating rows would make array views
        once = ZERO
        twice = ZERO
        for j in range(groups.shape[1]):
            m = seg_or[groups[g, j]]
            twice |= once & m
            once |= m
        confined = once & ~twice
        if confined == ZERO:
            continue
        for j in range(groups.shape[1]):
            s = groups[g, j]
            digits = seg_or[s] & confined
            if digits == ZERO:
                continue
            for i in range(others.shape[1]):
                t = others[owner[s], i]
                for k in range(cells.shape[1] if t != s else 0):
                    hit = cand[cells[t, k]] & digits
                    if hit != ZERO:
                        if not _narrow(tables, state, cells[t, k], ~digits):
                            return -1
                        removed += popcount(hit)
    regs[Reg.LOCKED_ELIMINATIONS] += removed
    return removed


@_jit
def _locked_family(tables, segments, state):
    """Pointing and claiming over one family of box/line segments; -1 on a contradiction."""
    cells, seg_or, cand = segments.cells, state.seg_or, state.cand
    if cells.shape[0] == 0:
        return 0
    for s in range(cells.shape[0]):
        acc = ZERO
        for k in range(cells.shape[1]):
            m = cand[cells[s, k]]
            if m & (m - ONE) != ZERO:
                acc |= m
        seg_or[s] = acc
    claimed = _confine(tables, segments.line_segments, segments.box_segments, segments.box, cells,
                       seg_or, state)
    if claimed < 0:
        return -1
    pointed = _confine(tables, segments.box_segments, segments.line_segments, segments.line, cells,
                       seg_or, state)
    return -1 if pointed < 0 else claimed + pointed


@_jit
def _propagate(tables, state, full, locked):
    """Apply the rules to a fixpoint; False on a contradiction (the queue is then cleared)."""
    regs = state.regs
    while True:
        ok = _naked_singles(tables, state)
        if ok:
            found = _hidden_singles(tables, state, full)
            if found > 0:
                continue
            ok = found == 0
        if ok and locked:
            removed = _locked_family(tables, tables.rows, state)
            if removed == 0:  # columns only from a drained queue, as the sweep assumes
                removed = _locked_family(tables, tables.cols, state)
            if removed > 0:
                continue
            ok = removed == 0
        if not ok:
            regs[Reg.QUEUE_HEAD] = 0
            regs[Reg.QUEUE_TAIL] = 0
        return ok


@_jit
def _select(cand):
    """Return an unfilled cell with the fewest candidates (the first bivalue one), or -1."""
    best = -1
    best_count = 65
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if m & (m - ONE) != ZERO:
            count = popcount(m)
            if count < best_count:
                best = cell
                best_count = count
                if count == 2:
                    break
    return best


@_jit
def _full_mask(tables):
    return ~ZERO >> np.uint64(64 - tables.units.shape[1])


@_jit
def start(tables, state, givens):
    """Reset ``state`` to the puzzle ``givens`` (uint8[N*N], 0 empty); :func:`run` propagates."""
    cand, regs = state.cand, state.regs
    full = _full_mask(tables)
    cand[:] = full
    state.dirty[:] = 1
    regs[:] = 0
    ok = True
    for cell in range(cand.shape[0]):
        if givens[cell] != 0:
            ok = ok and _narrow(tables, state, cell, ONE << np.uint64(givens[cell] - 1))
    regs[Reg.PHASE] = Phase.START if ok else Phase.DONE


@_jit
def _push_choice(state, cell):
    regs = state.regs
    d = regs[Reg.DEPTH]
    state.frame_cell[d] = cell
    state.frame_untried[d] = state.cand[cell]
    state.frame_mark[d] = regs[Reg.TRAIL]
    regs[Reg.DEPTH] = d + 1


@_jit
def run(tables, state, limit, node_limit, deadline, locked, out):
    """Continue the search until ``limit`` more solutions, exhaustion or a limit.

    Args:
        tables: :class:`~sudokit.fast.tables.Tables` of the geometry.
        state: a :class:`State` from :func:`new_state`, set up by :func:`start`; modified
            (resumable).
        limit: solutions to find in this call (>= 1); they go to ``out[0..limit-1]``.
        node_limit: stop before the total node count would exceed this.
        deadline: stop when :func:`clock` passes it (read at the first node of the call and
            every 1,024 nodes after).
        locked: apply locked candidates.
        out: uint8[limit, N*N] receiving digits 1..N; modified.

    Returns:
        An :class:`Outcome` value.
    """
    cand, frame_cell, frame_untried, frame_mark, regs = (
        state.cand, state.frame_cell, state.frame_untried, state.frame_mark, state.regs)
    full = _full_mask(tables)
    found = 0
    tried = 0  # nodes in this call: the clock is read at its first node and every 1,024
    if regs[Reg.PHASE] == Phase.START:
        ok = _propagate(tables, state, full, locked)
        regs[Reg.PHASE] = Phase.DESCEND if ok else Phase.DONE
    while regs[Reg.PHASE] != Phase.DONE:
        if regs[Reg.PHASE] == Phase.DESCEND:
            regs[Reg.PHASE] = Phase.BACKTRACK
            cell = _select(cand)
            if cell >= 0:
                _push_choice(state, cell)
            else:
                for c in range(cand.shape[0]):
                    out[found, c] = lowest_index(cand[c]) + 1
                found += 1
                regs[Reg.SOLUTIONS] += 1
                if found >= limit:
                    return Outcome.FOUND
        d = regs[Reg.DEPTH] - 1
        if d < 0:
            regs[Reg.PHASE] = Phase.DONE
            break
        _undo(state, frame_mark[d])
        untried = frame_untried[d]
        if untried == ZERO:
            regs[Reg.DEPTH] = d
            regs[Reg.BACKTRACKS] += 1
            continue
        if regs[Reg.NODES] >= node_limit:
            return Outcome.NODE_LIMIT
        if tried & 1023 == 0 and monotonic() > deadline:
            return Outcome.TIME_LIMIT
        tried += 1
        bit = untried & (~untried + ONE)
        frame_untried[d] = untried ^ bit
        regs[Reg.NODES] += 1
        _narrow(tables, state, frame_cell[d], bit)
        if _propagate(tables, state, full, locked):
            regs[Reg.PHASE] = Phase.DESCEND
    return Outcome.EXHAUSTED


@_jit
def _code(outcome, found):
    if outcome == Outcome.NODE_LIMIT:
        return Code.NODE_LIMIT
    if outcome == Outcome.TIME_LIMIT:
        return Code.TIME_LIMIT
    return Code.SOLVED if found > 0 else Code.UNSATISFIABLE


@_jit
def solve_batch(tables, state, puzzles, limit, node_limit, time_limit, locked, out, status,
                stats):
    """Solve every row of ``puzzles`` (uint8[M, N*N]) in one compiled loop, reusing ``state``.

    Writes ``out`` (uint8[M, limit, N*N]), ``status`` (int8[M], :class:`Code` values) and
    ``stats`` (int64[M, N_COUNTERS + 1]: the counters, then nanoseconds). ``node_limit`` and
    ``time_limit`` (seconds) apply to each puzzle separately.
    """
    regs = state.regs
    for i in range(puzzles.shape[0]):
        t0 = monotonic()
        start(tables, state, puzzles[i])
        outcome = run(tables, state, limit, node_limit, t0 + time_limit, locked, out[i])
        status[i] = _code(outcome, regs[Reg.SOLUTIONS])
        for k in range(N_COUNTERS):
            stats[i, k] = regs[k]
        stats[i, N_COUNTERS] = np.int64((monotonic() - t0) * 1e9)
