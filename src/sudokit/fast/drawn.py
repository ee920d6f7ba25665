"""The rules drawn on a grid (:mod:`sudokit.model.rules`) lowered into flat arrays the compiled
propagators of :mod:`sudokit.fast.lines` read.

Every rule of ``Geometry.constraints`` becomes one row: its kind code (:class:`RuleCode`), its cells
(CSR: ``start``/``cells``), per-cell integers aligned with the cells (``coef``: a weighted
sum's coefficients, an index rule's targets), one integer parameter (``value``: a sum's total,
a lockout gap, an index value, an automaton's start state) and an offset into ``masks``
(uint64: pair-relation supports, must-contain counts) or ``trans`` (int32: automaton
transitions, then one accepting flag per state). ``cell_start``/``cell_rules`` list the rules
of each cell, so a changed cell wakes only its rules.

A sandwich clue over a whole line becomes a :attr:`RuleCode.SANDWICH` row (its clue in
``value``, its fillings in ``masks``: :mod:`sudokit.fast.sandwich`) instead of its automaton.
A weighted sum whose complement in whole units is at most half as long is lowered as that
complement (:mod:`sudokit.fast.complement`). The killer cages' implied sums
(:func:`sudokit.model.implied.implied_sums`: innies and outies) follow the drawn rules as
redundant weighted-sum rows, and so do the sums that cover a unit
(:func:`sudokit.fast.intersections.sum_intersections`).

The kind codes and the arrays' layout live in :mod:`sudokit.fast.layout` (the one part of the
lowering the kernels compile in), so an edit here keeps everyone's compiled kernels.

A geometry without rules has no such arrays at all: its search passes ``rules=None`` (see
:func:`sudokit.fast.state.rule_state`), so it runs kernels compiled without the rules' code.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate, combinations

import numpy as np

from ..model.geometry import Geometry
from ..model.implied import implied_sums
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
from ..model.rulebook import sandwich
from .automata import automaton_table, lines_distinct
from .complement import complement_sum, sum_differences
from .intersections import sum_intersections
from .layout import Drawn, RuleCode
from .tables import bare_geometry

__all__ = ["BOUNDS_ONLY", "ENGINE_KINDS", "SUM_LAYER_LIMIT", "Drawn", "RuleCode", "drawn_for",
           "peer_sets", "sandwich_combinations", "sandwich_total", "sum_cliques"]


SUM_LAYER_LIMIT = 1 << 11
"""Most layered states (partial sums x (cells + 1)) of a weighted sum filtered to domain
consistency; a larger one (a sum read as numbers, a long implied sum, long sums of a large
grid) keeps its bounds over cliques only. A 9x9 sum of up to 12 digits fits (Hailstone's two
12-cell sums: 1,261). Lowered from 65,536: count to 2, same process, the same nodes on every
published puzzle of ``benchmarks/vs_iss.py`` but Triple digits (96 -> 122 nodes, 31 -> 6 ms)
and little_killer's 33-cell implied sum (210 nodes, 8.1 -> 4.6 ms)."""

BOUNDS_ONLY = frozenset({"little killer"})
"""Weighted sums (by name) of fewer than N cells never given the layered filter: their bounds
over cliques, and the walk over their candidate tuples while those are few
(:func:`~sudokit.fast.sums.tuple_filter`), as sigh's ISS filters sums by ranges over exclusion
groups. A short little killer's diagonal crosses two or three boxes (cliques of 1-3 cells) and
its filter over cliques visits thousands of (clique, digits, partial sum) states a call for
little gain. Count to 2, same process: "Hailstone - little killer" 10,257 nodes and 569 ms
with it, 10,465 nodes and 247 ms without; Orbit 1,124 / 23 ms -> 1,104 / 15 ms;
disjoint_little_killer (two full diagonals keep it) 30,455 / 463 ms -> 30,314 / 437 ms; the
same nodes on every other published puzzle of ``benchmarks/vs_iss.py``."""


_CODES: dict[type[Rule], RuleCode] = {
    Relation: RuleCode.RELATION, WeightedSum: RuleCode.SUM, Automaton: RuleCode.AUTOMATON,
    Contains: RuleCode.CONTAINS, Renban: RuleCode.RENBAN, Between: RuleCode.BETWEEN,
    Lockout: RuleCode.LOCKOUT, Index: RuleCode.INDEX}

ENGINE_KINDS = frozenset(cls.kind for cls in _CODES)
"""The feature names of the rule kinds the compiled engine propagates (every kind of
:data:`~sudokit.model.rules.RULE_KINDS`)."""


def _bit(d: int) -> int:
    return 1 << (d - 1)


_RELATION_MASKS: dict[tuple[int, int], tuple[object, np.ndarray]] = {}
"""Support masks by (id of a relation's pair set, side) -> (that set, kept alive; the masks):
the model shares one pair set among the rules of one test (:func:`~sudokit.model.rulebook.
pair_rule`), so a puzzle's 280 "no X" pairs lower one table."""


def _relation_masks(rule: Relation, side: int) -> np.ndarray:
    """uint64[2N]: per digit of the first cell the digits of the second it allows, then the
    reverse."""
    key = (id(rule.pairs), side)
    found = _RELATION_MASKS.get(key)
    if found is not None and found[0] is rule.pairs:
        return found[1]
    forward = [0] * side
    backward = [0] * side
    for a, b in rule.pairs:
        forward[a - 1] |= _bit(b)
        backward[b - 1] |= _bit(a)
    masks = np.array(forward + backward, np.uint64)
    if len(_RELATION_MASKS) > 4096:
        _RELATION_MASKS.clear()
    _RELATION_MASKS[key] = (rule.pairs, masks)
    return masks


def _contains_masks(rule: Contains, side: int) -> list[int]:
    counts = [0] * side
    for d in rule.digits:
        counts[d - 1] += 1
    return counts


class _Chunks:
    """A growing flat array kept as chunks (NumPy arrays or lists), joined once."""

    def __init__(self) -> None:
        self.parts: list = []
        self.size = 0

    def add(self, part) -> int:
        """Append ``part``; return where it starts."""
        at = self.size
        self.parts.append(part)
        self.size += len(part)
        return at

    def join(self, dtype) -> np.ndarray:
        arrays = [np.asarray(p, dtype) for p in self.parts]
        return np.concatenate(arrays) if arrays else np.zeros(0, dtype)


def _row(rule: Rule, geometry: Geometry, masks: _Chunks, trans: _Chunks,
         near: list[frozenset[int]]) -> tuple[RuleCode, list[int], int, int, int]:
    """Append a rule's table data; return (kind code, per-cell integers, value, offset,
    states)."""
    code = _CODES[type(rule)]
    coef = [0] * len(rule.cells)
    side = geometry.side
    if isinstance(rule, Relation):
        return code, coef, 0, masks.add(_relation_masks(rule, side)), 0
    if isinstance(rule, Contains):
        return code, coef, 0, masks.add(_contains_masks(rule, side)), 0
    if isinstance(rule, Automaton):
        total = sandwich_total(rule, geometry, near)
        if total is not None:
            fillings = sandwich_combinations(total, side)
            return RuleCode.SANDWICH, coef, total, masks.add(fillings), len(fillings)
        table, first, states = automaton_table(rule, geometry, near)
        return code, coef, first, trans.add(table), states
    if isinstance(rule, WeightedSum):
        width = sum(abs(k) for k in rule.coefficients) * (side - 1) + 1
        floor = sum(min(k, k * side) for k in rule.coefficients)
        layered = width * (len(rule.cells) + 1) <= SUM_LAYER_LIMIT and not (
            rule.name in BOUNDS_ONLY and len(rule.cells) < side)
        return (code, list(rule.coefficients), rule.total, rule.total - floor,
                width if layered else 0)
    if isinstance(rule, Lockout):
        return code, coef, rule.gap, 0, 0
    if isinstance(rule, Index):  # target positions (they may outnumber the cells)
        return code, coef, rule.value, masks.add(list(rule.targets)), len(rule.targets)
    return code, coef, 0, 0, 0


@lru_cache(maxsize=512)
def sandwich_combinations(total: int, side: int) -> tuple[int, ...]:
    """The fillings of a sandwich clue: the sets of digits from 2..``side``-1 that add up to
    ``total``, as masks (bit d-1 for digit d), fewest digits first (empty when none does).

    >>> [bin(c) for c in sandwich_combinations(5, 9)]
    ['0b10000', '0b110']
    """
    found = []
    for k in range(side - 1):
        for digits in combinations(range(2, side), k):
            if sum(digits) == total:
                found.append(sum(1 << (d - 1) for d in digits))
    return tuple(found)


def sandwich_total(rule: Automaton, geometry: Geometry,
                   near: list[frozenset[int]] | None = None) -> int | None:
    """The clue of a sandwich rule the engine filters with its own propagator
    (:mod:`sudokit.fast.sandwich`), or None for any other sequence rule: the rule is drawn as
    a sandwich sum, its automaton is the one :func:`~sudokit.model.rulebook.sandwich` builds
    for that clue, and it reads N cells that see each other (a whole row or column)."""
    drawing = rule.drawing
    side = geometry.side
    if (rule.name != "sandwich sum" or drawing is None or len(rule.cells) != side
            or rule.start != 0 or not drawing.value.isdigit() or side < 3):
        return None
    total = int(drawing.value)
    transitions, accepting = _sandwich_automaton(total, side)
    if not (transitions is rule.transitions or transitions == rule.transitions) \
            or accepting != rule.accepting:
        return None
    return total if lines_distinct(rule, geometry, near) else None


@lru_cache(maxsize=512)
def _sandwich_automaton(total: int, side: int) -> tuple[tuple[tuple[int, ...], ...],
                                                        frozenset[int]]:
    """The transitions and accepting states of the automaton of a sandwich clue over a whole
    line (shared with the model's, :meth:`~sudokit.model.rules.Automaton.build`)."""
    built = sandwich(range(side), total, side)[0]
    assert isinstance(built, Automaton)
    return built.transitions, built.accepting


def _build(geometry: Geometry) -> Drawn:
    rules = tuple(_shortest(rule, geometry) for rule in geometry.constraints)
    rules += implied_sums(geometry)  # the implied sums: redundant rows
    rules += tuple(sum_differences([r for r in geometry.constraints
                                    if isinstance(r, WeightedSum) and len(r.cells) > 2]))
    rules += sum_intersections(geometry)
    kind: list[int] = []
    start: list[int] = [0]
    cells: list[int] = []
    coef: list[int] = []
    value, offset, states = [], [], []
    masks, trans = _Chunks(), _Chunks()
    seen: list[int] = []
    block: list[int] = []
    near = peer_sets(bare_geometry(geometry))  # set look-ups for _order and _seen
    side = geometry.side
    layer = 0
    relation = RuleCode.RELATION.value
    for rule in rules:
        if type(rule) is Relation:  # the common case: two cells, one support table
            a, b = rule.cells
            kind.append(relation)
            cells += (a, b)
            coef += (0, 0)
            block += (1, 1)
            seen += (0, int(a in near[b]))
            value.append(0)
            offset.append(masks.add(_relation_masks(rule, side)))
            states.append(0)
            start.append(len(cells))
            continue
        code, row, v, off, n = _row(rule, geometry, masks, trans, near)
        kind.append(int(code))
        size = len(rule.cells)
        if code is RuleCode.SUM:  # cells stored clique by clique
            order, starts = _order(rule, geometry, near)
            if len(starts) < size:  # a sum with cliques: their filter's rows
                layer = max(layer, n * (3 * len(starts) + 2))
            ordered = [rule.cells[i] for i in order]
            coef += [row[i] for i in order]
            block += [int(i in starts) for i in range(size)]
        else:  # as drawn, each cell its own block
            ordered = list(rule.cells)
            coef += row
            block += [1] * size
        if code is RuleCode.SUM or code is RuleCode.AUTOMATON:
            layer = max(layer, n * (size + 1))
        cells += ordered
        seen += _seen(ordered, near)
        start.append(len(cells))
        value.append(v)
        offset.append(off)
        states.append(n)
    first_cell, where = np.array(start, np.int32), np.array(cells, np.int32)
    cell_start, cell_rules = _rules_of_cells(first_cell, where, geometry.n_cells)
    return Drawn(np.array(kind, np.int32), first_cell, where, np.array(coef, np.int64),
                 np.array(value, np.int64), np.array(offset, np.int64),
                 np.array(states, np.int32), masks.join(np.uint64), trans.join(np.int32),
                 cell_start, cell_rules, layer, np.array(seen, np.uint64),
                 np.array(block, np.uint8))


def _rules_of_cells(start: np.ndarray, cells: np.ndarray,
                    n_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """(int32[C + 1] offsets, int32[...] rules): each cell's rules in rule order (a rule
    twice where it holds the cell twice), from the rules' CSR ``start``/``cells``."""
    owner = np.repeat(np.arange(start.size - 1, dtype=np.int32), np.diff(start))
    cell_start = np.zeros(n_cells + 1, np.int32)
    np.cumsum(np.bincount(cells, minlength=n_cells), out=cell_start[1:])
    return cell_start, owner[np.argsort(cells, kind="stable")]


def _shortest(rule: Rule, geometry: Geometry) -> Rule:
    """A weighted sum over the complement of its cells in whole units when that has at most
    half its cells (:func:`~sudokit.fast.complement.complement_sum`), else the rule."""
    if isinstance(rule, WeightedSum) and len(rule.cells) > 2 * geometry.side // 3:
        return complement_sum(rule, geometry) or rule
    return rule


def _order(rule: Rule, geometry: Geometry,
           near: list[frozenset[int]] | None = None) -> tuple[list[int], set[int]]:
    """The order a rule's cells are stored in and the positions where a clique starts: a
    weighted sum's cliques (:func:`sum_cliques`) one after the other; other rules as drawn."""
    if not isinstance(rule, WeightedSum):
        return list(range(len(rule.cells))), set(range(len(rule.cells)))
    cliques = sum_cliques(rule.cells, geometry, near, rule.coefficients)
    order = [i for clique in cliques for i in clique]
    starts = set(accumulate([len(c) for c in cliques[:-1]], initial=0))
    return order, starts


def sum_cliques(cells: tuple[int, ...], geometry: Geometry,
                near: list[frozenset[int]] | None = None,
                coefficients: tuple[int, ...] | None = None) -> list[list[int]]:
    """Split ``cells`` (positions 0..len-1) into cliques of cells that all see each other
    (peers of the geometry, extra units included): each clique's digits are distinct, which
    the clique filter and the bounds of a weighted sum use.

    Greedily, as sigh's ISS forms its exclusion groups (``HandlerUtil.
    findExclusionGroupsGreedy``): each clique starts from the cell that sees most of the
    cells left and grows by the cell that sees most of the candidates left (ties: the first);
    a shaft along a column and a row makes one clique of each, where first fit in drawn order
    split them (Triple digits: 6,041 -> 96 nodes). Each clique lists its positions by
    ``coefficients`` (when given), then in order, so the cells of one weight follow each other
    (:func:`sudokit.fast.sums.clique_sum_bounds` counts them as one group). ``near``: the geometry's
    peers as sets, when the caller has them."""
    peers = geometry.peers if near is None else near
    n = len(cells)
    bits = [1 << j for j in range(n)]
    sees = []
    for i, c in enumerate(cells):
        seen_by, mask = peers[c], 0
        for j, d in enumerate(cells):
            if d in seen_by:
                mask |= bits[j]
        sees.append(mask & ~bits[i])
    left = (1 << n) - 1
    cliques: list[list[int]] = []
    while left:
        candidates, clique = left, []
        while candidates:
            best, most, m = -1, -1, candidates
            while m:
                i = (m & -m).bit_length() - 1
                m &= m - 1
                count = (sees[i] & candidates).bit_count()
                if count > most:
                    best, most = i, count
            clique.append(best)
            candidates &= sees[best]
            left &= ~(1 << best)
        key = (lambda i: (coefficients[i], i)) if coefficients else None
        cliques.append(sorted(clique, key=key))
    return cliques


def _seen(cells: list[int], near: list[frozenset[int]]) -> list[int]:
    """Per cell, the bits of the earlier cells (the first 64) it sees (``near``: per cell of
    the geometry, its peers as a set)."""
    if len(cells) == 2:  # a pair relation: the common case
        return [0, int(cells[0] in near[cells[1]])]
    found: list[int] = []
    earlier: dict[int, int] = {}  # the earlier cells (of the first 64) -> their bits
    for i, c in enumerate(cells):
        bits = 0
        for d in near[c].intersection(earlier):
            bits |= earlier[d]
        found.append(bits)
        if i < 64:
            earlier[c] = earlier.get(c, 0) | 1 << i
    return found


@lru_cache(maxsize=64)
def peer_sets(geometry: Geometry) -> list[frozenset[int]]:
    """Each cell's peers as a set (cached per geometry; the caller passes the geometry without
    drawn rules, :func:`~sudokit.fast.tables.bare_geometry`, so puzzles of one grid share
    them)."""
    return [frozenset(p) for p in geometry.peers]


@lru_cache(maxsize=256)
def drawn_for(geometry: Geometry) -> Drawn:
    """The :class:`Drawn` arrays of a geometry's rules (cached per geometry)."""
    return _build(geometry)
