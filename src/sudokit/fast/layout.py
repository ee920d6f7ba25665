"""The layout of the drawn rules' arrays that the compiled kernels are built on: the rule kind
codes (:class:`RuleCode`) and the :class:`Drawn` arrays (read by field position).

Kept apart from the lowering (:mod:`sudokit.fast.drawn`), so that only an edit of these
(listed in :data:`sudokit.fast.cache.COMPILED_IN`) recompiles the kernels.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

__all__ = ["Drawn", "RuleCode"]


class RuleCode(IntEnum):
    """The code of each rule kind in :attr:`Drawn.kind`."""

    RELATION = 0
    SUM = 1
    AUTOMATON = 2
    CONTAINS = 3
    RENBAN = 4
    BETWEEN = 5
    LOCKOUT = 6
    INDEX = 7
    SANDWICH = 8  # a sandwich clue over a whole line (lowered from its automaton)


class Drawn(NamedTuple):
    """A geometry's rules as arrays (R rules over C cells; see :mod:`sudokit.fast.drawn`).

    Attributes:
        kind: int32[R] :class:`RuleCode` codes.
        start: int32[R + 1] offsets into ``cells`` and ``coef``.
        cells: int32[sum of rule lengths] each rule's cells in order.
        coef: int64[same] per-cell integers (sum coefficients; index targets).
        value: int64[R] one parameter per rule (a sandwich's clue).
        offset: int64[R] where the rule's data starts in ``masks`` or ``trans``; for a weighted
            sum, its accepting partial-sum state (the total minus the least sum).
        states: int32[R] an automaton's state count, a weighted sum's partial-sum states (0:
            bounds only), an index rule's target count, a sandwich's filling count (else 0).
        masks: uint64[...] relation supports (N forward, then N backward), must-contain
            counts (N, one per digit), index target positions (in the rule's cells), a
            sandwich's fillings (digit masks, :mod:`sudokit.fast.sandwich`).
        trans: int32[...] per automaton (see :func:`~sudokit.fast.automata.automaton_table`):
            transitions (states x N, -1 dead), accepting flags, then each layer's state range.
        cell_start: int32[C + 1] offsets into ``cell_rules``.
        cell_rules: int32[...] the rules of each cell.
        layer_size: the scratch (uint8) the layered filter of an automaton or a sum needs at most.
        seen: uint64[same as ``cells``] per cell of a rule, the earlier positions (bit j for
            the rule's j-th cell, j < 64) of the cells it sees (peers: they hold different
            digits), so a short sum can be filtered with its cells' differences.
        block: uint8[same as ``cells``] 1 where a clique of a weighted sum starts: a sum's
            cells are stored clique by clique (cells that all see each other, so hold distinct
            digits; :func:`sum_cliques`), each clique's cells in a row; 1 on every cell of
            other rules.
    """

    kind: np.ndarray
    start: np.ndarray
    cells: np.ndarray
    coef: np.ndarray
    value: np.ndarray
    offset: np.ndarray
    states: np.ndarray
    masks: np.ndarray
    trans: np.ndarray
    cell_start: np.ndarray
    cell_rules: np.ndarray
    layer_size: int
    seen: np.ndarray
    block: np.ndarray
