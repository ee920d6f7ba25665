"""Numba kernels of the generator: the reduction of a grid to a puzzle whose uniqueness every
removal is checked for in compiled code, over a batch of seeds (the random stream and the random
solution grids are in :mod:`sudokit.generator.grids`).

Both engines of :mod:`sudokit.fast` are driven from here: the 9x9 bitboard engine
(:mod:`sudokit.fast.nine`) for standard 9x9 grids, the generic candidate-mask engine
(:mod:`sudokit.fast.kernels`) for every other box shape, size and variant. One call handles a
whole batch of puzzles, each from its own four-word seed, so the Python side pays its overhead
once per batch and the output of a puzzle depends on its seed only.

Uniqueness of a removal. The grid ``S`` being the unique solution of the current givens, the
puzzle without the givens of the cells ``R`` is still unique exactly when no solution differs
from ``S`` on ``R``. For one cell ``c`` that is one satisfiability search: forbid ``S[c]`` in
``c`` and look for any solution (none: unique). For several cells the search counts to two.

Removal order and minimality. Orbits (a cell and its images under the chosen symmetry) are tried
in a random order, each once. A removal refused at some point stays refused later, since
removing more givens keeps the second solution a solution; so one pass leaves a puzzle from
which no orbit can be removed. Runs of orbits are first tried together (group testing): a run
that keeps the puzzle unique is accepted at the cost of one search, one that does not is halved
and tried again, down to single orbits, so the outcome is that of trying the orbits one by one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..fast import kernels as gk
from ..fast import nine
from ..fast.kernels import Phase, StopReason
from ..fast.rules import full_mask, narrow
from ..fast.state import ONE, ZERO, Reg, jit
from .grids import random_grid, seed_state, shuffle

__all__ = ["INFO", "Reduction", "generate_batch"]

_NOLIMIT = np.iinfo(np.int64).max

INFO = ("givens", "checks", "nodes", "attempts", "grid_nodes", "accepted", "unproven")
"""Columns of the int64 ``info`` array the batch kernels fill, one row per puzzle:

* ``givens``: givens left in the puzzle (-1 when no solution grid was found at all);
* ``checks``: uniqueness searches run (group tests included);
* ``nodes``: search nodes of those checks;
* ``attempts``: grids made (more than one when a givens range rejected a puzzle);
* ``grid_nodes``: search nodes spent making the solution grids;
* ``accepted``: 1 when the puzzle meets the givens range, 0 when ``max_attempts`` ran out;
* ``unproven``: orbits of givens kept without a proof that they are needed (a check over its
  node budget, the givens floor, or a stop at the target): 0 means the puzzle is minimal.

``checks`` and ``nodes`` count the last (accepted) grid's reduction only.
"""



class Reduction(NamedTuple):
    """What a batch keeps (the scalars of :class:`sudokit.generator.engine.Plan`).

    Attributes:
        minimal: checks have no node limit (else ``node_budget``; a check over it keeps the
            orbit, so the puzzle stays unique but may not be minimal).
        node_budget: search nodes per uniqueness check when not ``minimal``.
        floor: never go below this many givens.
        lo, hi: accept a puzzle only with ``lo..hi`` givens.
        stop_at: stop once at most this many givens are left (-1: try every orbit).
        batch: the first group size (1: no group testing).
        locked: the generic engine's searches use locked candidates.
        max_attempts: grids tried per puzzle for the givens range.
    """

    minimal: bool
    node_budget: int
    floor: int
    lo: int
    hi: int
    stop_at: int
    batch: int
    locked: bool
    max_attempts: int


# -- uniqueness checks -------------------------------------------------------------------------

@jit
def _forced(tables, givens, grid, removed, n_removed, unit_mask):
    """Whether every removed cell is a naked or hidden single of the givens left (its peers'
    givens show every digit but its own, or in one of its units every other empty cell sees its
    digit). The givens left then force every removed cell back, so uniqueness needs no search.
    ``unit_mask`` (uint64[units]) is scratch."""
    units, unit_start, cell_units = tables.units, tables.unit_start, tables.cell_units
    full = full_mask(tables)
    for u in range(units.shape[0]):
        m = ZERO
        for k in range(units.shape[1]):
            d = givens[units[u, k]]
            if d != 0:
                m |= ONE << np.uint64(d - 1)
        unit_mask[u] = m
    for t in range(n_removed):
        cell = removed[t]
        bit = ONE << np.uint64(grid[cell] - 1)
        seen = ZERO
        for k in range(unit_start[cell], unit_start[cell + 1]):
            seen |= unit_mask[cell_units[k]]
        if seen & bit != ZERO:
            return False  # cannot happen for a solution grid; be safe
        if seen | bit == full:
            continue  # naked single
        hidden = False
        for k in range(unit_start[cell], unit_start[cell + 1]):
            u = cell_units[k]
            blocked = True
            for j in range(units.shape[1]):
                e = units[u, j]
                if e == cell or givens[e] != 0:
                    continue
                sees = False
                for q in range(unit_start[e], unit_start[e + 1]):
                    if unit_mask[cell_units[q]] & bit != ZERO:
                        sees = True
                        break
                if not sees:
                    blocked = False
                    break
            if blocked:
                hidden = True
                break
        if not hidden:
            return False
    return True


@jit
def _check(engines, givens, grid, n_removed, node_limit, locked, scratch):
    """Whether the puzzle ``givens`` (the cells ``scratch.removed[:n_removed]`` already
    cleared) still has ``grid`` as its only solution: 1 yes, 0 no, -1 unknown (the search
    reached ``node_limit``).

    ``engines`` (an :class:`~sudokit.generator.grids.Engines`) names the engine: 0 runs the 9x9
    one, 1 the generic one (with locked candidates when ``locked``). One removed cell: forbid
    its digit and look for any solution; several: count to two. ``scratch.counters``
    accumulates the checks and their nodes.
    """
    engine, tables, state, nstate = engines
    removed, out2, counters = scratch.removed, scratch.out2, scratch.counters
    if _forced(tables, givens, grid, removed, n_removed, scratch.unit_mask):
        return 1
    counters[0] += 1
    single = n_removed == 1
    limit = 1 if single else 2
    if engine == 0:
        nine.start(nstate, givens)
        if single:  # forbid the solution's digit: any solution left is a second one
            cell = removed[0]
            d = np.int64(grid[cell]) - 1
            b = cell // 27
            nstate.s[3 * d + b] &= ~(np.int64(1) << (cell - 27 * b))
            nstate.s[nine.DIRTY] |= np.int64(1) << d
        outcome = nine.run(nstate, limit, node_limit, np.inf, out2)
        regs = nstate.regs
    else:
        gk.start(tables, state, givens)
        if single and state.regs[Reg.PHASE] != Phase.DONE:
            cell = removed[0]
            narrow(tables, state, cell, ~(ONE << np.uint64(grid[cell] - 1)))
        outcome = gk.run(tables, state, limit, node_limit, np.inf, locked, out2)
        regs = state.regs
    counters[1] += regs[Reg.NODES]
    if outcome != StopReason.EXHAUSTED and outcome != StopReason.FOUND:
        return -1
    return 1 if regs[Reg.SOLUTIONS] == (0 if single else 1) else 0


# -- reduction ---------------------------------------------------------------------------------

@jit
def _reduce(engines, limits, orbit_start, orbit_cells, n_orbits, grid, givens, scratch):
    """Remove givens from ``givens`` (a copy of ``grid`` on entry) while ``grid`` stays the only
    solution; return the number of givens left.

    Args:
        engines: an :class:`~sudokit.generator.grids.Engines`.
        limits: a :class:`Reduction` (``minimal``, ``node_budget``, ``floor``, ``stop_at``,
            ``batch`` and ``locked`` are read).
        orbit_start, orbit_cells: CSR lists of the cell orbits of the symmetry.
        n_orbits: the orbits tried, in the random order ``scratch.order[:n_orbits]``.
        scratch: a :class:`~sudokit.generator.grids.Scratch`.
    """
    order, removed, counters = scratch.order, scratch.removed, scratch.counters
    floor, stop_at, batch = limits.floor, limits.stop_at, limits.batch
    count = _count_givens(givens)
    limit = _NOLIMIT if limits.minimal else limits.node_budget
    i = 0
    size = batch
    while i < n_orbits and count > stop_at:
        n_removed = 0  # the next run of `size` orbits, cut where the floor would be crossed
        j = i
        while j < n_orbits and j < i + size:
            o = order[j]
            if count - n_removed - (orbit_start[o + 1] - orbit_start[o]) < floor:
                break
            if stop_at >= 0 and count - n_removed <= stop_at:
                break
            for t in range(orbit_start[o], orbit_start[o + 1]):
                removed[n_removed] = orbit_cells[t]
                n_removed += 1
            j += 1
        if j == i:  # this orbit alone would cross the floor: keep it
            counters[2] += 1
            i += 1
            continue
        for t in range(n_removed):
            givens[removed[t]] = 0
        verdict = _check(engines, givens, grid, n_removed, limit, limits.locked, scratch)
        if verdict == 1:
            count -= n_removed
            i = j
            if size < batch:
                size *= 2
            continue
        for t in range(n_removed):
            givens[removed[t]] = grid[removed[t]]
        if j - i == 1:
            if verdict < 0:
                counters[2] += 1  # kept without proof that it is needed
            i += 1
        else:
            size = (j - i) // 2
    counters[2] += n_orbits - i  # orbits never tried (stopped at `stop_at`)
    return count


@jit
def _count_givens(givens):
    count = 0
    for c in range(givens.shape[0]):
        count += 1 if givens[c] != 0 else 0
    return count


@jit
def generate_batch(engines, shape, limits, orbit_start, orbit_cells, table, seeds, scratch,
                   puzzles, solutions, info):
    """Make one puzzle per row of ``seeds`` (uint64[M, 4]), each from its own stream.

    For each: a random solution grid of ``shape`` (:func:`~sudokit.generator.grids.random_grid`:
    from ``table``, uint8[K, N*N], when it is not empty, else by a random search and a random
    transformation); then a random order of the orbits (``orbit_start``, ``orbit_cells``: CSR
    int32 lists) and :func:`_reduce` (never below ``limits.floor`` givens, stopping at
    ``limits.stop_at``); repeated (at most ``limits.max_attempts`` grids) until the givens left
    are in ``limits.lo..limits.hi``. Writes ``puzzles`` and ``solutions`` (uint8[M, N*N]) and
    ``info`` (int64[M, len(INFO)]). ``engines``, ``shape`` and ``scratch`` are an
    :class:`~sudokit.generator.grids.Engines`, a :class:`~sudokit.generator.grids.Shape` and a
    :class:`~sudokit.generator.grids.Scratch`; ``limits`` a :class:`Reduction`.
    """
    n_cells = shape.side * shape.side
    n_orbits = orbit_start.shape[0] - 1
    order, counters = scratch.order, scratch.counters
    for i in range(seeds.shape[0]):
        seed_state(scratch.rng, seeds[i])
        givens = puzzles[i]
        grid = solutions[i]
        attempts = 0
        grid_nodes = 0
        accepted = 0
        count = 0
        while attempts < limits.max_attempts:
            counters[:] = 0
            attempts += 1
            made = random_grid(engines, shape, table, grid, scratch)
            if made < 0:  # no grid in RESTARTS searches: this attempt fails
                count = -1
                continue
            grid_nodes += made
            for c in range(n_cells):
                givens[c] = grid[c]
            for k in range(n_orbits):
                order[k] = k
            shuffle(scratch.rng, order, n_orbits)
            count = _reduce(engines, limits, orbit_start, orbit_cells, n_orbits, grid, givens,
                            scratch)
            if limits.lo <= count <= limits.hi:
                accepted = 1
                break
        info[i, 0] = count
        info[i, 1] = counters[0]
        info[i, 2] = counters[1]
        info[i, 3] = attempts
        info[i, 4] = grid_nodes
        info[i, 5] = accepted
        info[i, 6] = counters[2]
