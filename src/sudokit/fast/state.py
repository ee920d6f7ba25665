"""The arrays of one search and the scalar registers the kernels share.

Kernels are compiled without the Numba runtime (``_nrt=False``): they never allocate, so all
state is allocated here in Python, and passing arrays between kernels costs no atomic reference
counting (about ten times faster on the hot helpers than with the runtime).
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np
from numba import njit

from ..model.geometry import Geometry
from .drawn import drawn_for
from .layout import Drawn

__all__ = ["jit", "ZERO", "ONE", "Reg", "N_REGS", "N_COUNTERS", "State", "new_state", "RuleState",
           "rule_state"]

jit = njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: private
"""The decorator of every kernel: disk-cached, releases the GIL, no Numba runtime."""
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
    ROOT_TRAIL = 11  # trail length after the givens' propagation (where a restart returns)
    RESTART_AT = 12  # backtrack count of the next restart (see sudokit.fast.kernels)
    RESTARTS = 13  # restarts so far
    STOP = 14  # set to 1 by another thread to stop a running search (read with the clock)
    RULES_SEEN = 15  # trail length whose changed cells have woken their drawn rules


N_REGS = 16
N_COUNTERS = 6  # registers 0..5 are the per-puzzle counters


class State(NamedTuple):
    """The arrays of one search (C = N*N cells, T = C*N + 1 trail entries, U units).

    Attributes:
        cand: uint64[C] candidate masks.
        trail_cell, trail_mask: int32[T], uint64[T]: changed cells and their old masks.
        queue: int32[C] cells that became single and still have to leave their peers.
        frame_cell, frame_untried, frame_mark: int32[C], uint64[C], int64[C]: the choice points
            (cell, digits not yet tried, trail length when chosen).
        seg_or: uint64[C + 1] scratch for locked candidates.
        dirty: uint8[U + K] units changed since their last hidden-single sweep, then killer
            cages changed since their last sum check (K cages).
        regs: int64[N_REGS] scalars, indexed by :class:`Reg`.
        weight: int64[U] conflicts each unit took part in (the ``wdeg`` of dom/wdeg, reset per
            puzzle; see :func:`sudokit.fast.trail.blame`).

    The drawn rules' arrays are a :class:`RuleState` of their own, passed beside the state only
    to the kernels that read them: every kernel call passes its arguments' arrays one by one,
    so a state carrying them made the search on a grid without rules about 10% slower.
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
    weight: np.ndarray


def new_state(n_cells: int, side: int, n_units: int, n_cages: int | None = None) -> State:
    """Allocate one :class:`State` (in Python: the kernels never allocate).

    Args:
        n_cells: C, the geometry's cell count.
        side: N, the number of digits.
        n_units: U, the number of units.
        n_cages: K, the number of killer cages (None: room for the most a grid of C cells can
            have, C, so a caller that does not know its cages is always safe).
    """
    trail = n_cells * side + 1
    n_marks = n_units + (n_cells if n_cages is None else n_cages)
    return State(np.zeros(n_cells, np.uint64), np.zeros(trail, np.int32),
                 np.zeros(trail, np.uint64), np.zeros(n_cells, np.int32),
                 np.zeros(n_cells, np.int32), np.zeros(n_cells, np.uint64),
                 np.zeros(n_cells, np.int64), np.zeros(n_cells + 1, np.uint64),
                 np.zeros(n_marks, np.uint8), np.zeros(N_REGS, np.int64),
                 np.zeros(n_units, np.int64))


class RuleState(NamedTuple):
    """The drawn rules of one search (R rules, C cells).

    Attributes:
        drawn: the geometry's rules as arrays (:class:`~sudokit.fast.drawn.Drawn`, shared,
            read only).
        dirty: uint8[R] rules woken since their last propagation.
        layers: uint8[L] scratch of the layered filter (``drawn.layer_size``).
        spans: int64[2 * (C + 1)] scratch of the layered filter (each layer's state range).
        picks: uint64[2 * (C + 1)] scratch of the tuple filter of short sums (each level's
            digits left, then the digit chosen there).
        score: int64[C] each cell's conflict score (:mod:`sudokit.fast.scores`).
        value_score: int64[N + 1] each digit's conflict score, then the contradictions left
            before the scores decay.
        frame_alt: int32[C] per choice point, the second cell of a house/digit branch (the
            digit's other place in a unit; :func:`~sudokit.fast.scores.house_branch`) still to
            try, or -1 for a branch on one cell's digits.
    """

    drawn: Drawn
    dirty: np.ndarray
    layers: np.ndarray
    spans: np.ndarray
    picks: np.ndarray
    score: np.ndarray
    value_score: np.ndarray
    frame_alt: np.ndarray


def rule_state(geometry: Geometry) -> RuleState | None:
    """Allocate the :class:`RuleState` of a geometry's drawn rules, or None when it has none:
    the kernels then take ``rules=None`` and are compiled without the rules' code (Numba prunes
    the ``rules is None`` branches of that specialisation)."""
    if not geometry.constraints:
        return None
    drawn = drawn_for(geometry)
    return RuleState(drawn, np.ones(drawn.kind.shape[0], np.uint8),
                     np.zeros(drawn.layer_size, np.uint8),
                     np.zeros(2 * (geometry.n_cells + 1), np.int64),
                     np.zeros(2 * (geometry.n_cells + 1), np.uint64),
                     np.zeros(geometry.n_cells, np.int64), np.zeros(geometry.side + 1, np.int64),
                     np.full(geometry.n_cells, -1, np.int32))
