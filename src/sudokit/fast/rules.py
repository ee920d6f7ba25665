"""Propagation rules on uint64 candidate masks, applied to a fixpoint.

* **naked single**: a cell left with one candidate removes it from every peer (Norvig 2006),
  and under the non-consecutive rule the digits next to it from its orthogonal neighbours;
* **hidden single**: a digit with one place left in a unit goes there; a digit with none is a
  contradiction (one ``once``/``twice`` sweep over every unit changed since its last sweep,
  extra units of variants included);
* **cage sums** (killer): each changed cage keeps the digit combinations reaching its total
  (precomputed masks, :func:`sudokit.fast.tables.combination_masks`) that every cell can take
  part in and that its cells' candidates cover, narrows each cell to the union of those left,
  and places a digit common to all of them that fits one cell only (the combination method of
  killer solvers; Sudopedia, "Killer Sudoku", "Cage combinations"); cages with too many
  combinations use sum bounds instead;
* **locked candidates**: a digit of a line confined to one box segment leaves the rest of the box
  (claiming) and a digit of a box confined to one line segment leaves the rest of the line
  (pointing); see Sudopedia, "Locked Candidates"; on jigsaw regions and overlapping grids, the
  same over every intersection of units (:class:`~sudokit.fast.tables.Intersections`); optional.

* **drawn rules** (thermometers, arrows, dots, lines, outside clues: :mod:`sudokit.fast.lines`)
  on a geometry that has them (``rules``; without them the kernels are compiled without
  that code).

Every change goes through :func:`~sudokit.fast.trail.narrow`, which records it on the trail
``(cell, old mask)`` so :func:`~sudokit.fast.trail.undo` can restore it. A contradiction is a
return value (False / -1), never an exception.
"""

from __future__ import annotations

import numpy as np

from .bits import highest_index, lowest_index, popcount
from .lines import drawn_rules
from .state import ONE, ZERO, Reg, jit
from .trail import blame, narrow, undo

__all__ = [
    "blame",
    "cage_sums",
    "full_mask",
    "locked_family",
    "locked_intersections",
    "narrow",
    "propagate",
    "undo",
]


@jit
def _naked_singles(tables, state):
    """Remove each queued single's digit from its peers (and the digits next to it from its
    non-consecutive neighbours); False on a contradiction."""
    cand, queue, regs = state.cand, state.queue, state.regs
    peer_start, peers = tables.peer_start, tables.peers
    near_start, near = tables.near_start, tables.near
    while regs[Reg.QUEUE_HEAD] < regs[Reg.QUEUE_TAIL]:
        cell = queue[regs[Reg.QUEUE_HEAD]]
        regs[Reg.QUEUE_HEAD] += 1
        bit = cand[cell]
        for k in range(peer_start[cell], peer_start[cell + 1]):
            if cand[peers[k]] & bit and not narrow(tables, state, peers[k], ~bit):
                blame(tables, state, peers[k])
                return False
        if near_start[cell] != near_start[cell + 1]:
            close = (bit << ONE) | (bit >> ONE)
            for k in range(near_start[cell], near_start[cell + 1]):
                if cand[near[k]] & close and not narrow(tables, state, near[k], ~close):
                    blame(tables, state, near[k])
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
    regs = state.regs
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
                    gone = _remove(tables, state, cells[t, k], digits)
                    if gone < 0:
                        return -1
                    removed += gone
    regs[Reg.LOCKED_ELIMINATIONS] += removed
    return removed


@jit
def _remove(tables, state, cell, digits):
    """Remove ``digits`` from a cell's candidates: how many went, or -1 (the cell's units
    blamed) when none would be left."""
    hit = state.cand[cell] & digits
    if hit == ZERO:
        return 0
    if not narrow(tables, state, cell, ~digits):
        blame(tables, state, cell)
        return -1
    return popcount(hit)


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
def locked_intersections(tables, state):
    """Locked candidates over every unit intersection of :class:`~sudokit.fast.tables.
    Intersections` (jigsaw regions, overlapping grids): a digit a unit holds only inside a
    segment leaves the segment's other units outside it; -1 on a contradiction, else the
    eliminations."""
    inter, cand, regs = tables.inter, state.cand, state.regs
    out_start, outside = inter.out_start, inter.outside
    removed = 0
    for s in range(inter.start.shape[0] - 1):
        seg = ZERO
        for i in range(inter.start[s], inter.start[s + 1]):
            m = cand[inter.cells[i]]
            if m & (m - ONE) != ZERO:
                seg |= m
        if seg == ZERO:
            continue
        first, last = inter.pair_start[s], inter.pair_start[s + 1]
        for p in range(first, last):
            rest = ZERO
            for i in range(out_start[p], out_start[p + 1]):
                rest |= cand[outside[i]]
            confined = seg & ~rest
            if confined == ZERO:
                continue
            for q in range(first, last):
                for i in range(out_start[q], out_start[q + 1] if q != p else out_start[q]):
                    gone = _remove(tables, state, outside[i], confined)
                    if gone < 0:
                        return -1
                    removed += gone
    regs[Reg.LOCKED_ELIMINATIONS] += removed
    return removed


@jit
def _cage_bounds(tables, state, k):
    """Sum bounds of cage ``k`` (no combination table): each cell keeps the digits the others'
    smallest and largest candidates leave room for; False on a contradiction."""
    cages, cand = tables.cages, state.cand
    first, last = cages.start[k], cages.start[k + 1]
    total = cages.total[k]
    low = 0
    high = 0
    for i in range(first, last):
        m = cand[cages.cells[i]]
        low += lowest_index(m) + 1
        high += highest_index(m) + 1
    if low > total or high < total:
        return False
    for i in range(first, last):
        m = cand[cages.cells[i]]
        least = total - (high - highest_index(m) - 1)  # the others at their largest
        most = total - (low - lowest_index(m) - 1)  # the others at their smallest
        if most < 1 or least > 64:
            return False
        keep = ~ZERO if most >= 64 else (ONE << np.uint64(most)) - ONE
        if least > 1:
            keep &= ~((ONE << np.uint64(least - 1)) - ONE)
        if m & ~keep != ZERO and not narrow(tables, state, cages.cells[i], keep):
            return False
    return True


@jit
def cage_sums(tables, state):
    """Check every cage changed since its last check against its digit combinations (see the
    module docstring); False on a contradiction (the conflict is blamed on the cage's cells)."""
    cages, cand, dirty = tables.cages, state.cand, state.dirty
    cells, combos = cages.cells, cages.combos
    base = tables.units.shape[0]
    for k in range(cages.total.shape[0]):
        if dirty[base + k] == 0:
            continue
        dirty[base + k] = 0
        first, last = cages.start[k], cages.start[k + 1]
        if cages.combo_start[k] == cages.combo_start[k + 1]:
            if not _cage_bounds(tables, state, k):
                blame(tables, state, cells[first])
                return False
            continue
        alive = ZERO
        common = ~ZERO
        for j in range(cages.combo_start[k], cages.combo_start[k + 1]):
            combo = combos[j]
            cover = ZERO
            for i in range(first, last):
                part = cand[cells[i]] & combo
                if part == ZERO:
                    cover = ZERO
                    break
                cover |= part
            if cover == combo:
                alive |= combo
                common &= combo
        if alive == ZERO:
            blame(tables, state, cells[first])
            return False
        for i in range(first, last):
            if cand[cells[i]] & ~alive != ZERO and not narrow(tables, state, cells[i], alive):
                blame(tables, state, cells[i])
                return False
        while common != ZERO:  # a digit of every combination left, with one place: put it there
            bit = common & (~common + ONE)
            common ^= bit
            place = -1
            count = 0
            for i in range(first, last):
                if cand[cells[i]] & bit:
                    place = cells[i]
                    count += 1
            if count == 0:
                blame(tables, state, cells[first])
                return False
            if count == 1 and cand[place] != bit:
                narrow(tables, state, place, bit)
    return True


@jit
def propagate(tables, state, full, locked, rules=None):
    """Apply the rules to a fixpoint; False on a contradiction (the queue is then cleared).
    ``rules``: the drawn rules' :class:`~sudokit.fast.state.RuleState`, or None (the default)
    on a geometry without them, a specialisation compiled without their code."""
    regs = state.regs
    has_cages = tables.cages.total.shape[0] > 0
    while True:
        ok = _naked_singles(tables, state)
        if ok:
            found = _hidden_singles(tables, state, full)
            if found > 0:
                continue
            ok = found == 0
        if ok and has_cages:
            before = regs[Reg.TRAIL]
            ok = cage_sums(tables, state)
            if ok and regs[Reg.TRAIL] != before:
                continue
        if rules is not None:
            if ok:
                ok = drawn_rules(tables, state, rules)
                if ok and regs[Reg.TRAIL] != regs[Reg.RULES_SEEN]:
                    continue
        if ok and locked:
            removed = locked_family(tables, tables.rows, state)
            if removed == 0:  # columns only from a drained queue, as the sweep assumes
                removed = locked_family(tables, tables.cols, state)
            if removed == 0:
                removed = locked_intersections(tables, state)
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
