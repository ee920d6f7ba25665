"""Numba kernels: depth-first search with an explicit stack, and the batch loop.

Search (after :mod:`sudokit.fast.rules` propagation to a fixpoint) branches on an unfilled cell
with the fewest candidates (MRV, Haralick and Elliott 1980), stopping at the first bivalue cell,
and tries its digits in increasing order; large grids without drawn rules restart by dom/wdeg
after a first run (see ``WDEG_SIDE``); grids with drawn rules branch by decayed conflict scores
(:mod:`sudokit.fast.scores`), without restarts. The choice points
live in the arrays of a :class:`~sudokit.fast.state.State`, so a search can stop (at a
solution or a limit) and resume later; limits are checked inside compiled code (nodes at
every node, the clock every 1,024).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from ..model.result import Status
from .bits import lowest_index, monotonic, popcount
from .rules import full_mask, propagate
from .scores import house_branch, count_conflict, demote, prime_scores, select_scored
from .state import N_COUNTERS, ONE, ZERO, Reg, jit
from .trail import narrow, undo

__all__ = ["Phase", "StopReason", "clock", "start", "run", "run_batch"]


class Phase(IntEnum):
    """Where a stopped search resumes."""

    DESCEND = 0  # at a propagated state: pick a cell (or report a solution)
    BACKTRACK = 1  # try the next digit of the deepest choice point
    DONE = 2  # the search space is exhausted
    START = 3  # givens set, not yet propagated


class StopReason(IntEnum):
    """Why one step of a resumable search (:func:`run`) returned: a solution found, the search
    space exhausted, or a limit reached (the search can be resumed after a limit)."""

    EXHAUSTED = 0
    FOUND = 1  # the requested number of solutions was reached
    NODE_LIMIT = 2
    TIME_LIMIT = 3


@jit
def clock():
    """Return the kernels' clock in seconds (see :func:`~sudokit.fast.bits.monotonic`)."""
    return monotonic()


@jit
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


WDEG_SIDE = 16
"""Grids of this side and larger without drawn rules branch by dom/wdeg
(:func:`_select_weighted`) and restart until the first solution; smaller ones branch by plain
MRV (:func:`_select`) without restarts, and grids with drawn rules by decayed conflict scores
(:func:`~sudokit.fast.scores.select_scored`), without restarts. Chosen by measurement
(``benchmarks/large.py``; ``benchmarks/vs_iss.py`` and ``docs/benchmarks.md``, "Branching by
decayed conflict scores": on the published rule puzzles 0.82x the nodes of the dom/wdeg
restarts they replaced, geometric mean)."""
FIRST_RUN = 2
"""Backtracks (failures) per cell allowed to the first run, plain MRV as on smaller grids (an
empty 64x64 grid takes 6,857 of them, in 0.25 s); a cutoff on failures, not nodes, leaves
long conflict-free descents alone."""
FIRST_RESTART = 100
"""Backtracks allowed to the first dom/wdeg run; each later run ``RESTART_GROWTH`` times more."""
RESTART_GROWTH = 1.2
NEVER = np.iinfo(np.int64).max


@jit
def _restart(state):
    """Go back to the root (the propagated givens), keeping the conflict weights, and set the
    next cutoff (geometric, so the search stays complete: Gomes, Selman and Kautz 1998,
    "Boosting combinatorial search through randomization", AAAI)."""
    regs = state.regs
    undo(state, regs[Reg.ROOT_TRAIL])
    regs[Reg.DEPTH] = 0
    regs[Reg.PHASE] = Phase.DESCEND
    regs[Reg.RESTARTS] += 1
    regs[Reg.RESTART_AT] = regs[Reg.BACKTRACKS] + np.int64(
        FIRST_RESTART * RESTART_GROWTH ** (regs[Reg.RESTARTS] - 1))


@jit
def _select_weighted(tables, state):
    """Return the unfilled cell with the fewest candidates per conflict weight (dom/wdeg:
    candidates / (1 + conflicts of its units), Boussemart et al. 2004), or -1 when none."""
    cand, weight = state.cand, state.weight
    best = -1
    best_count = 1
    best_weight = 0
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if m & (m - ONE) != ZERO:
            count = popcount(m)
            w = 1
            for k in range(tables.unit_start[cell], tables.unit_start[cell + 1]):
                w += weight[tables.cell_units[k]]
            if best < 0 or count * best_weight < best_count * w:
                best = cell
                best_count = count
                best_weight = w
    return best


@jit
def start(tables, state, givens, rules=None):
    """Reset ``state`` to the puzzle ``givens`` (uint8[C], 0 empty; candidates start from the
    geometry's initial masks, e.g. even/odd cells; ``rules`` as in :func:`run`, all woken);
    :func:`run` propagates."""
    cand, regs = state.cand, state.regs
    state.dirty[:] = 1
    if rules is not None:
        rules.dirty[:] = 1
    state.weight[:] = 0
    regs[:] = 0
    if rules is not None:
        prime_scores(tables, rules)
    ok = True
    for cell in range(cand.shape[0]):  # a cell single from the start (parity on tiny grids)
        m = tables.initial[cell]
        cand[cell] = m
        if m & (m - ONE) == ZERO:
            state.queue[regs[Reg.QUEUE_TAIL]] = cell
            regs[Reg.QUEUE_TAIL] += 1
    for cell in range(cand.shape[0]):
        if givens[cell] != 0:
            ok = ok and narrow(tables, state, cell, ONE << np.uint64(givens[cell] - 1))
    regs[Reg.PHASE] = Phase.START if ok else Phase.DONE


@jit
def _descend(tables, state, out, rules):
    """At a propagated state: choose a cell (True: none left, the solution is in ``out``)."""
    cand, regs = state.cand, state.regs
    regs[Reg.PHASE] = Phase.BACKTRACK
    if rules is not None:
        cell = select_scored(cand, rules)
    elif regs[Reg.RESTARTS] > 0:  # the first run is plain MRV: it solves easy grids in order
        cell = _select_weighted(tables, state)
    else:
        cell = _select(cand)
    if cell < 0:
        for c in range(cand.shape[0]):
            out[c] = lowest_index(cand[c]) + 1
        regs[Reg.SOLUTIONS] += 1
        return True
    d = regs[Reg.DEPTH]
    state.frame_cell[d] = cell
    state.frame_untried[d] = cand[cell]
    state.frame_mark[d] = regs[Reg.TRAIL]
    if rules is not None:
        first, second, bit = house_branch(tables.units, cand, rules, cell)
        rules.frame_alt[d] = second
        if first >= 0:
            state.frame_cell[d] = first
            state.frame_untried[d] = bit
    regs[Reg.DEPTH] = d + 1
    return False


@jit
def run(tables, state, limit, node_limit, deadline, locked, out, rules=None):
    """Continue the search until ``limit`` more solutions, exhaustion or a limit.

    Args:
        tables: :class:`~sudokit.fast.tables.Tables` of the geometry.
        state: a :class:`~sudokit.fast.state.State` set up by :func:`start`; modified
            (resumable).
        limit: solutions to find in this call (>= 1); they go to ``out[0..limit-1]``.
        node_limit: stop before the total node count would exceed this.
        deadline: stop when :func:`clock` passes it (read at the first node of the call and
            every 1,024 nodes after).
        locked: apply locked candidates.
        out: uint8[limit, N*N] receiving digits 1..N; modified.
        rules: the drawn rules' :class:`~sudokit.fast.state.RuleState` (None, the default, on
            a geometry without them: that specialisation is compiled without their code).

    Returns:
        A :class:`StopReason` value.
    """
    frame_cell, frame_untried, frame_mark, regs = (
        state.frame_cell, state.frame_untried, state.frame_mark, state.regs)
    full = full_mask(tables)
    found = 0
    tried = 0  # nodes in this call: the clock is read at its first node and every 1,024
    if regs[Reg.PHASE] == Phase.START:
        ok = propagate(tables, state, full, locked, rules)
        regs[Reg.PHASE] = Phase.DESCEND if ok else Phase.DONE
        regs[Reg.ROOT_TRAIL] = regs[Reg.TRAIL]
        big = tables.units.shape[1] >= WDEG_SIDE and rules is None
        regs[Reg.RESTART_AT] = FIRST_RUN * state.cand.shape[0] if big else NEVER
    while regs[Reg.PHASE] != Phase.DONE:
        if regs[Reg.PHASE] == Phase.DESCEND and _descend(tables, state, out[found], rules):
            found += 1
            if found >= limit:
                return StopReason.FOUND
        d = regs[Reg.DEPTH] - 1
        if d < 0:
            regs[Reg.PHASE] = Phase.DONE
            break
        undo(state, frame_mark[d])
        untried = frame_untried[d]
        if untried == ZERO:
            regs[Reg.DEPTH] = d
            regs[Reg.BACKTRACKS] += 1
            continue
        if regs[Reg.BACKTRACKS] >= regs[Reg.RESTART_AT] and regs[Reg.SOLUTIONS] == 0:
            _restart(state)  # only before the first solution: enumeration stays exact
            continue
        if regs[Reg.NODES] >= node_limit:
            return StopReason.NODE_LIMIT
        if tried & 1023 == 0 and (monotonic() > deadline or regs[Reg.STOP] != 0):
            return StopReason.TIME_LIMIT
        tried += 1
        cell = frame_cell[d]
        bit = untried & (~untried + ONE)
        if rules is not None and rules.frame_alt[d] >= 0:  # the digit's other place next
            frame_cell[d] = rules.frame_alt[d]
            rules.frame_alt[d] = -1
        else:
            frame_untried[d] = untried ^ bit
        regs[Reg.NODES] += 1
        narrow(tables, state, cell, bit)
        if propagate(tables, state, full, locked, rules):
            regs[Reg.PHASE] = Phase.DESCEND
            if rules is not None and regs[Reg.TRAIL] - frame_mark[d] == 1:
                demote(rules, cell, untried)
        elif rules is not None:
            count_conflict(rules, cell, bit)
    return StopReason.EXHAUSTED


@jit
def _code(outcome, found):
    """A puzzle's :class:`~sudokit.model.result.Status` code after its last :func:`run`."""
    if outcome == StopReason.NODE_LIMIT or outcome == StopReason.TIME_LIMIT:
        return Status.UNKNOWN
    return Status.SOLVED if found > 0 else Status.UNSATISFIABLE


@jit
def run_batch(tables, state, puzzles, limit, node_limit, time_limit, locked, out, status,
                stats, rules=None):
    """Solve every row of ``puzzles`` (uint8[M, N*N]) in one compiled loop, reusing ``state``.

    Writes ``out`` (uint8[M, limit, N*N]), ``status`` (int8[M], :class:`Code` values) and
    ``stats`` (int64[M, N_COUNTERS + 1]: the counters, then nanoseconds). ``node_limit`` and
    ``time_limit`` (seconds) apply to each puzzle separately; ``rules`` as in :func:`run`.
    """
    regs = state.regs
    for i in range(puzzles.shape[0]):
        t0 = monotonic()
        start(tables, state, puzzles[i], rules)
        outcome = run(tables, state, limit, node_limit, t0 + time_limit, locked, out[i], rules)
        status[i] = _code(outcome, regs[Reg.SOLUTIONS])
        for k in range(N_COUNTERS):
            stats[i, k] = regs[k]
        stats[i, N_COUNTERS] = np.int64((monotonic() - t0) * 1e9)
