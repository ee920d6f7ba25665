"""The final check of the drawn rules (:attr:`Geometry.constraints
<sudokit.model.geometry.Geometry.constraints>`) in compiled code: the same verdict as
:func:`sudokit.model.puzzle.rules_ok` (its declared twin), rule by rule, on any integer grid.

Each rule of the geometry, exactly as drawn (no complement rewrite, no product automaton, no
implied sums: those of :mod:`sudokit.fast.drawn` assume a solved grid's all-different units,
which a grid being checked need not keep), becomes one row of :class:`RuleCheck`: its kind code
(:class:`~sudokit.fast.layout.RuleCode`), its cells in order (CSR), per-cell coefficients, one
integer parameter and an offset into ``data``. The arrays are built once per geometry (an LRU
cache); the tables shared among rules (a relation's pair set, an automaton's transitions) are
lowered once per table.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import numba as nb
import numpy as np

from ..compiled import Kernels, twin, use_compiled
from ..model.geometry import Geometry
from ..model.puzzle import rules_ok
from ..model.rules import (
    Automaton,
    Between,
    Contains,
    Index,
    Lockout,
    Relation,
    Renban,
    Rule,
    WeightedSum,
)

__all__ = ["RuleCheck", "check_arrays", "rules_hold", "rules_hold_into"]

_RELATION, _SUM, _AUTOMATON, _CONTAINS, _RENBAN, _BETWEEN, _LOCKOUT, _INDEX = range(8)
"""The kind codes, equal to :class:`~sudokit.fast.layout.RuleCode`'s (a test checks)."""


class RuleCheck(NamedTuple):
    """A geometry's drawn rules as arrays for the check (R rules; all int64 but ``kind``).

    Attributes:
        kind: int32[R] kind codes (:class:`~sudokit.fast.layout.RuleCode`).
        start: [R + 1] offsets into ``cells`` and ``coef``.
        cells: [sum of rule lengths] each rule's cells in drawn order.
        coef: [same] a weighted sum's coefficients (0 for other kinds).
        value: [R] a sum's total, a lockout gap, an index value, an automaton's start state.
        offset: [R] where the rule's table starts in ``data``.
        size: [R] an automaton's state count, an index rule's target count (else 0).
        data: [...] a relation's N x N allowed flags (row: first digit - 1), a must-contain
            rule's N digit counts, an automaton's S x N transitions (-1 dead) then S accepting
            flags, an index rule's target positions (in its cells).
    """

    kind: np.ndarray
    start: np.ndarray
    cells: np.ndarray
    coef: np.ndarray
    value: np.ndarray
    offset: np.ndarray
    size: np.ndarray
    data: np.ndarray


_TABLES: dict[tuple[int, int], tuple[object, object, np.ndarray]] = {}
"""Lowered shared tables by (id of a relation's pair set or an automaton's transitions, side)
-> (that table, kept alive so the id stays its own; an automaton's accepting states; its int64
data)."""


def _shared(table: object, side: int, lower: Callable[[], np.ndarray],
            extra: object = None) -> np.ndarray:
    """``lower()``, once per shared ``table`` (and ``extra``) and side."""
    key = (id(table), side)
    found = _TABLES.get(key)
    if found is not None and found[0] is table and found[1] == extra:
        return found[2]
    data = lower()
    if len(_TABLES) > 4096:
        _TABLES.clear()
    _TABLES[key] = (table, extra, data)
    return data


def _relation(rule: Relation, side: int) -> np.ndarray:
    flags = np.zeros((side, side), np.int64)
    for a, b in rule.pairs:
        flags[a - 1, b - 1] = 1
    return flags.ravel()


def _automaton(rule: Automaton, side: int) -> np.ndarray:
    states = len(rule.transitions)
    moves = np.array(rule.transitions, np.int64).reshape(states, side)
    accepting = np.zeros(states, np.int64)
    accepting[list(rule.accepting)] = 1
    return np.concatenate([moves.ravel(), accepting])


def _table(rule: Rule, side: int) -> tuple[np.ndarray | list[int] | None, int, int]:
    """A rule's data in ``data`` (None: none), its integer parameter and its size."""
    if isinstance(rule, Relation):
        return _shared(rule.pairs, side, lambda: _relation(rule, side)), 0, 0
    if isinstance(rule, Automaton):
        return (_shared(rule.transitions, side, lambda: _automaton(rule, side), rule.accepting),
                rule.start, len(rule.transitions))
    if isinstance(rule, Contains):
        counts = [0] * side
        for d in rule.digits:
            counts[d - 1] += 1
        return counts, 0, 0
    if isinstance(rule, WeightedSum):
        return None, rule.total, 0
    if isinstance(rule, Lockout):
        return None, rule.gap, 0
    if isinstance(rule, Index):
        return list(rule.targets), rule.value, len(rule.targets)
    return None, 0, 0


_CODES = {Relation: _RELATION, WeightedSum: _SUM, Automaton: _AUTOMATON, Contains: _CONTAINS,
          Renban: _RENBAN, Between: _BETWEEN, Lockout: _LOCKOUT, Index: _INDEX}


@lru_cache(maxsize=256)
def check_arrays(geometry: Geometry) -> RuleCheck:
    """The :class:`RuleCheck` arrays of a geometry's drawn rules (cached per geometry; about
    1 µs per rule to build, a few times one Python check of the rule: a geometry checked once
    loses that much, one checked again gains)."""
    side = geometry.side
    kind: list[int] = []
    start: list[int] = [0]
    cells: list[int] = []
    coef: list[int] = []
    value: list[int] = []
    offset: list[int] = []
    size: list[int] = []
    parts: list = []
    placed: dict[int, int] = {}  # id of a shared table -> its offset in ``data``
    used = 0
    for rule in geometry.constraints:
        kind.append(_CODES[type(rule)])
        cells += rule.cells
        coef += list(rule.coefficients) if isinstance(rule, WeightedSum) else [0] * len(rule.cells)
        start.append(len(cells))
        part, v, n = _table(rule, side)
        value.append(v)
        size.append(n)
        if isinstance(part, np.ndarray) and id(part) in placed:  # a shared table, once
            offset.append(placed[id(part)])
            continue
        offset.append(used)
        if part is not None:
            if isinstance(part, np.ndarray):
                placed[id(part)] = used
            parts.append(np.asarray(part, np.int64))
            used += len(part)
    data = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    start_, cells_, coef_, value_, offset_, size_ = (
        np.array(a, np.int64) for a in (start, cells, coef, value, offset, size))
    return RuleCheck(np.array(kind, np.int32), start_, cells_, coef_, value_, offset_, size_, data)


# -- the kernel ---------------------------------------------------------------------------------
# The helpers take the arrays they read, not the RuleCheck tuple: a tuple passed to a called
# function costs a reference count per array per call (measured: 20x the work of a pair rule).


@nb.njit(cache=True, nogil=True)
def _automaton_holds(g: np.ndarray, cells: np.ndarray, lo: int, hi: int, data: np.ndarray,
                     off: int, states: int, state: int, side: int) -> bool:
    """Whether the automaton at ``data[off:]`` (``states`` x N transitions, then accepting
    flags), read from ``state`` over the digits of ``cells[lo:hi]``, accepts (a digit outside
    1..N or a dead transition refuses)."""
    for j in range(lo, hi):
        d = g[cells[j]]
        if d < 1 or d > side:
            return False
        state = data[off + state * side + d - 1]
        if state < 0:
            return False
    return data[off + states * side + state] != 0


@nb.njit(cache=True, nogil=True)
def _contains_holds(g: np.ndarray, cells: np.ndarray, lo: int, hi: int, data: np.ndarray,
                    off: int, side: int) -> bool:
    """Whether ``cells[lo:hi]`` hold each digit at least as often as ``data[off:off + N]``."""
    for d in range(1, side + 1):
        need = data[off + d - 1]
        if need:
            have = 0
            for j in range(lo, hi):
                if g[cells[j]] == d:
                    have += 1
            if have < need:
                return False
    return True


@nb.njit(cache=True, nogil=True)
def _renban_holds(g: np.ndarray, cells: np.ndarray, lo: int, hi: int) -> bool:
    """Whether the digits of ``cells[lo:hi]`` are distinct and span as many values as cells."""
    low = high = g[cells[lo]]
    for j in range(lo, hi):
        d = g[cells[j]]
        low, high = min(low, d), max(high, d)
        for k in range(lo, j):
            if g[cells[k]] == d:
                return False
    return high - low == hi - lo - 1


@nb.njit(cache=True, nogil=True)
def _line_holds(g: np.ndarray, cells: np.ndarray, lo: int, hi: int, lockout: bool,
                gap: int) -> bool:
    """A between line (every middle digit strictly between the ends) or a lockout line (ends
    at least ``gap`` apart, no middle digit between them or equal to either)."""
    a, b = g[cells[lo]], g[cells[hi - 1]]
    low, high = min(a, b), max(a, b)
    if lockout and high - low < gap:
        return False
    for j in range(lo + 1, hi - 1):
        d = g[cells[j]]
        if lockout and low <= d <= high:
            return False
        if not lockout and not low < d < high:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def _check(grids: np.ndarray, t: RuleCheck, side: int, partial: bool,
           out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Clear ``out[i]`` where grid i (int64[M, C]) breaks a rule of ``t`` (with ``partial``, a
    rule with an empty cell (0) is skipped)."""
    kinds, start, cells, coef, value = t.kind, t.start, t.cells, t.coef, t.value
    offset, size, data = t.offset, t.size, t.data
    for i in range(grids.shape[0]):
        if not out[i]:
            continue
        g = grids[i]
        for r in range(kinds.shape[0]):
            kind, lo, hi = kinds[r], start[r], start[r + 1]
            if partial:
                full = True
                for j in range(lo, hi):
                    full &= g[cells[j]] != 0
                if not full:
                    continue
            if kind == _RELATION:
                a, b = g[cells[lo]], g[cells[lo + 1]]
                ok = 1 <= a <= side and 1 <= b <= side and data[
                    offset[r] + (a - 1) * side + b - 1] != 0
            elif kind == _SUM:
                total = 0
                for j in range(lo, hi):
                    total += coef[j] * g[cells[j]]
                ok = total == value[r]
            elif kind == _AUTOMATON:
                ok = _automaton_holds(g, cells, lo, hi, data, offset[r], size[r], value[r], side)
            elif kind == _CONTAINS:
                ok = _contains_holds(g, cells, lo, hi, data, offset[r], side)
            elif kind == _RENBAN:
                ok = _renban_holds(g, cells, lo, hi)
            elif kind == _BETWEEN or kind == _LOCKOUT:
                ok = _line_holds(g, cells, lo, hi, kind == _LOCKOUT, value[r])
            else:  # an index rule: the first digit d points at its d-th target
                d = g[cells[lo]]
                ok = 1 <= d <= size[r] and g[cells[lo + data[offset[r] + d - 1]]] == value[r]
            if not ok:
                out[i] = False
                break


def rules_hold_into(grids: np.ndarray, geometry: Geometry, out: np.ndarray,
                    partial: bool = False) -> None:
    """Clear ``out[i]`` where grid i breaks a drawn rule, in compiled code (the compiled
    verification's step: :func:`sudokit.fast.verify.solves`).

    Args:
        grids: integer ``(M, C)`` grids; not modified.
        geometry: their geometry (its ``constraints`` are checked).
        out: bool ``(M,)``, cleared where a rule breaks (grids already refused are skipped).
        partial: 0 is an empty cell; a rule is checked only where all its cells are filled.
    """
    if geometry.constraints and len(grids):
        _check(np.ascontiguousarray(grids, np.int64), check_arrays(geometry), geometry.side,
               partial, out)


@twin(Kernels.VERIFY, "sudokit.fast.rulecheck:_check", "sudokit.model.puzzle:rules_ok",
      "rule grids")
def rules_hold(grids: np.ndarray, geometry: Geometry, partial: bool = False) -> np.ndarray:
    """:func:`sudokit.model.puzzle.rules_ok` in compiled code where
    :func:`sudokit.compiled.use_compiled` says so (the compiled verification is loaded).

    Args:
        grids: integer ``(M, C)`` grids; not modified.
        geometry: their geometry.
        partial: 0 is an empty cell; a rule is checked only where all its cells are filled.

    Returns:
        bool ``(M,)``: True where every (filled) drawn rule holds.
    """
    if not use_compiled(Kernels.VERIFY, geometry.n_cells):
        return rules_ok(grids, geometry, partial)
    out = np.ones(len(grids), np.bool_)
    rules_hold_into(grids, geometry, out, partial)
    return out
