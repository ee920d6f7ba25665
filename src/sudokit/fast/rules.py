"""Propagation rules on uint64 candidate masks, applied to a fixpoint.

* **naked single**: a cell left with one candidate removes it from every peer (Norvig 2006);
* **hidden single**: a digit with one place left in a unit goes there; a digit with none is a
  contradiction (one ``once``/``twice`` sweep over every unit changed since its last sweep,
  extra units of variants included);
* **locked candidates**: a digit of a line confined to one box segment leaves the rest of the box
  (claiming) and a digit of a box confined to one line segment leaves the rest of the line
  (pointing); see Sudopedia, "Locked Candidates"; optional.

Every change goes through :func:`narrow`, which records it on the trail ``(cell, old mask)`` so
:func:`undo` can restore it. A contradiction is a return value (False / -1), never an exception.
"""

from __future__ import annotations

import numpy as np

from .bits import popcount
from .state import ONE, ZERO, Reg, jit

__all__ = ["narrow", "undo", "propagate", "locked_family", "full_mask", "blame"]


@jit
def blame(tables, state, cell):
    """Count a conflict against each unit of ``cell`` (a candidate wipe-out there): the weights
    of dom/wdeg (Boussemart, Hemery, Lecoutre and Sais 2004, "Boosting systematic search by
    weighting constraints", ECAI)."""
    for k in range(tables.unit_start[cell], tables.unit_start[cell + 1]):
        state.weight[tables.cell_units[k]] += 1


@jit
def narrow(tables, state, cell, keep):
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


@jit
def undo(state, mark):
    """Restore every candidate change made since the trail had length ``mark``."""
    cand, trail_cell, trail_mask, regs = state.cand, state.trail_cell, state.trail_mask, state.regs
    t = regs[Reg.TRAIL]
    while t > mark:
        t -= 1
        cand[trail_cell[t]] = trail_mask[t]
    regs[Reg.TRAIL] = t


@jit
def _naked_singles(tables, state):
    """Remove each queued single's digit from its peers; False on a contradiction."""
    cand, queue, regs = state.cand, state.queue, state.regs
    peer_start, peers = tables.peer_start, tables.peers
    while regs[Reg.QUEUE_HEAD] < regs[Reg.QUEUE_TAIL]:
        cell = queue[regs[Reg.QUEUE_HEAD]]
        regs[Reg.QUEUE_HEAD] += 1
        bit = cand[cell]
        for k in range(peer_start[cell], peer_start[cell + 1]):
            if cand[peers[k]] & bit and not narrow(tables, state, peers[k], ~bit):
                blame(tables, state, peers[k])
                return False
    regs[Reg.QUEUE_HEAD] = 0
    regs[Reg.QUEUE_TAIL] = 0
    return True


@jit
def _hidden_singles(tables, state, full):
    """Place every digit with one place left in a dirty unit, draining the naked-single queue
    after each unit that placed one; -1 on a contradiction, else the number placed."""
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
            state.weight[u] += 1
            return -1
        hidden = once & ~twice & ~fixed
        found = hidden != ZERO
        while hidden != ZERO:
            bit = hidden & (~hidden + ONE)
            hidden ^= bit
            cell = -1
            for k in range(side):
                if cand[units[u, k]] & bit:
                    cell = units[u, k]
                    break
            if cell < 0:  # its only cell took another hidden single of this unit
                state.weight[u] += 1
                return -1
            narrow(tables, state, cell, bit)
            placed += 1
        if found and not _naked_singles(tables, state):
            return -1  # units swept later see the consequences: fewer rounds to the fixpoint
    regs[Reg.HIDDEN_SINGLES] += placed
    return placed


@jit
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
                        if not narrow(tables, state, cells[t, k], ~digits):
                            blame(tables, state, cells[t, k])
                            return -1
                        removed += popcount(hit)
    regs[Reg.LOCKED_ELIMINATIONS] += removed
    return removed


@jit
def locked_family(tables, segments, state):
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


@jit
def propagate(tables, state, full, locked):
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
            removed = locked_family(tables, tables.rows, state)
            if removed == 0:  # columns only from a drained queue, as the sweep assumes
                removed = locked_family(tables, tables.cols, state)
            if removed > 0:
                continue
            ok = removed == 0
        if not ok:
            regs[Reg.QUEUE_HEAD] = 0
            regs[Reg.QUEUE_TAIL] = 0
        return ok


@jit
def full_mask(tables):
    return ~ZERO >> np.uint64(64 - tables.units.shape[1])
