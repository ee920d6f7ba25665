"""The trail of candidate changes: every change goes through :func:`narrow`, which records
``(cell, old mask)`` so :func:`undo` can restore it, and wakes what reads the cell (its units
and cage marked dirty, a single queued; drawn rules see the trail itself, see
:func:`sudokit.fast.lines.drawn_rules`).
"""

from __future__ import annotations

from .bits import popcount
from .state import ONE, ZERO, Reg, jit

__all__ = ["blame", "narrow", "undo"]


@jit
def blame(tables, state, cell):
    """Count a conflict against each unit of ``cell`` (a candidate wipe-out there): the weights
    of dom/wdeg (Boussemart, Hemery, Lecoutre and Sais 2004, "Boosting systematic search by
    weighting constraints", ECAI)."""
    for k in range(tables.unit_start[cell], tables.unit_start[cell + 1]):
        state.weight[tables.cell_units[k]] += 1


@jit
def narrow(tables, state, cell, keep):
    """Keep only the ``keep`` bits of a cell's candidates (trailed; its units and cage marked
    dirty; queued if single). Returns False, changing nothing, when no candidate would be
    left."""
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
    cage = tables.cages.of_cell[cell]
    if cage >= 0:
        state.dirty[tables.units.shape[0] + cage] = 1
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
    if regs[Reg.RULES_SEEN] > t:  # the changes the drawn rules saw are gone
        regs[Reg.RULES_SEEN] = t
