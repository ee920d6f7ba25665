"""The inner rule of Sudoku Explainer's nested level 4, "Dynamic Forcing Chains (+ Dynamic
Forcing Chains)" (10.5): SE's level-0 Dynamic Forcing Chains run on an assumption's working
grid when the four "(+)" rules find nothing there.

SE 1.2.1 (``1to9only/SudokuExplainer``, ``diuf/sudoku/solver/rules/chaining/Chaining.java``,
``getAdvancedPotentials``): from level 4 up the static forcing chains of levels 2-3 are
replaced by ``new Chaining(true, true, false, 0)`` ("Dynamic Forcing Chains already cover Simple
and Multiple Forcing Chains"). Every hint of that producer on the working grid (contradiction
and double forcing chains of each candidate said on and off, cell and region forcing chains,
``getMultipleChainsHintList``), sorted by rating, then complexity, then kind, gives its
eliminations to the outer propagation as off potentials whose parents are its *rule parents*
(``ChainingHint.collectRuleParents``: for each on potential of its chains, the removals since
the outer assumption in its cell, for a naked-single link or a cell chain's assumption, or of
its digit in the unit of its hidden-single link or of a region chain), and whose nested chain
adds its complexity to the outer chain's; a hint with no rule parent is dropped, and an
elimination keeps the first hint that gives it.

The inner search runs compiled in one call per working grid
(:func:`~sudokit.logic.chains._nested_dynamic_kernel.inner_hints`: every propagation followed
once and kept, the branches met and each hint's complexity counted there); Python ranks the
hints by complexity, kind and order, and follows only those that give an elimination no better
hint gave, for their rule parents. Its Python reference (:func:`_search`) runs on grids over
:data:`INNER_CELLS` cells or while :func:`sudokit.compiled.use_compiled` says so.
SE's level 5 ("+ Dynamic Forcing Chains (+)" and up, 11.0) is not built: its inner rule is a
whole nested search per assumption.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ...compiled import Kernels, use_compiled
from ...model.geometry import Geometry
from ..state import bits
from .advanced import _digit_cells, _unit_bits
from .implications import Inner, Propagation, chain_implications, reached_by_all
from .kernel_arrays import _work, per_thread, se_units_of

__all__ = ["INNER_CELLS", "dynamic_chain_offs", "inner_search"]

_KEYS = itertools.count(1)
"""Keys of the inner chains (:attr:`Inner.key`), one per hint kept."""

_Offs = list[tuple[int, tuple[int, ...], Inner]]
_End = tuple[Propagation, int, tuple[int, ...] | None]
"""One branch of a hint: its propagation, the potential its chain ends in and that potential's
own parents when the propagation does not hold it (the off side of a contradiction)."""


_Row = tuple[int, int, int, int, int, int]
"""One hint: its complexity, kind (7 contradiction, 1 double, 5 cell, 6 region), order,
conclusion (potential), cause (-2 none, -1 the assumptions' cell, else their unit) and first
assumption (as :func:`~sudokit.logic.chains._nested_dynamic_kernel.inner_hints` writes them)."""


class _Inner:
    """One run of the inner Dynamic Forcing Chains on a working grid ``masks``."""

    def __init__(self, geometry: Geometry, masks0: list[int], masks: list[int]) -> None:
        self.g, self.n = geometry, geometry.side
        self.masks0, self.masks = masks0, masks
        self.cells = _digit_cells(self.n, masks)
        self.memo: dict[int, Propagation] = {}
        self.hints: list[_Row] = []

    def prop(self, start: int) -> Propagation:
        found = self.memo.get(start)
        if found is None:
            found = self.memo[start] = chain_implications(
                self.g, self.masks, start, dynamic=True, y_links=True, cells0=self.cells)
        return found

    def removed(self, q: int) -> list[int]:
        """The candidates of the working grid proving ``q`` removes (off potentials)."""
        cell, d0 = divmod(q >> 1, self.n)
        m = self.masks[cell]
        if q & 1:
            return [(cell * self.n + x) << 1 for x in bits(m & ~(1 << d0))]
        return [q] if m >> d0 & 1 else []

    def offer(self, q: int, kind: int, ends: tuple[_End, ...], cause: int, said: int) -> None:
        """Keep the hint proving ``q`` with branches ``ends`` when it removes something."""
        if self.removed(q):
            complexity = sum(p.ancestors(pot, own) for p, pot, own in ends)
            self.hints.append((complexity, kind, len(self.hints), q, cause, said))

    def label(self, pot: int) -> str:
        cell, d0 = divmod(pot >> 1, self.n)
        return f"{self.g.label(cell)}{'=' if pot & 1 else '<>'}{self.g.symbol(d0 + 1)}"

    def starts(self, kind: int, cause: int, said: int) -> list[int]:
        """The assumptions of a cell (5) or region (6) chain whose first is ``said``."""
        cell, d0 = divmod(said >> 1, self.n)
        if kind == 5:
            return [((cell * self.n + d) << 1) | 1 for d in bits(self.masks[cell])]
        at = self.cells[d0] & _unit_bits(self.g)[cause]
        return [((c * self.n + d0) << 1) | 1 for c in bits(at)]

    def ends(self, kind: int, q: int, cause: int, said: int) -> tuple[_End, ...]:
        """The branches of a hint (row fields)."""
        if kind == 7:
            prop = self.prop(said)
            assert prop.contradiction is not None
            a, b, own = prop.contradiction
            return ((prop, a, None if a in prop.reached() else ()),
                    (prop, b, None if b in prop.reached() else own))
        if kind == 1:
            return (self.prop(said), q, None), (self.prop(said & ~1), q, None)
        return tuple((self.prop(s), q, None) for s in self.starts(kind, cause, said))

    def text(self, kind: int, q: int, cause: int, said: int) -> str:
        """The text of a hint (row fields)."""
        if kind == 7:
            return f"Contradiction Forcing Chain: {self.label(said)} leads to a contradiction"
        if kind == 1:
            return (f"Double Forcing Chain: {self.label(said)} and {self.label(said & ~1)} "
                    f"both imply {self.label(q)}")
        starts = self.starts(kind, cause, said)
        return (f"{'Cell' if kind == 5 else 'Region'} Forcing Chain: "
                f"{' or '.join(self.label(s) for s in starts)} each imply {self.label(q)}")


def _search(run: _Inner) -> None:
    """All hints of SE's ``getMultipleChainsHintList`` (dynamic, multiple) on the working grid,
    cells row by row (the Python reference of
    :func:`~sudokit.logic.chains._nested_dynamic_kernel.inner_hints`)."""
    n, masks, g = run.n, run.masks, run.g
    ub, units_of = _unit_bits(g), se_units_of(g)
    for cell, m in enumerate(masks):
        card = m.bit_count()
        if card < 2:
            continue
        ons = []
        for d0 in bits(m):
            on_pot = ((cell * n + d0) << 1) | 1
            on, off = run.prop(on_pot), run.prop(on_pot & ~1)
            for prop, concl in ((on, on_pot & ~1), (off, on_pot)):
                if prop.contradiction is not None:
                    run.offer(concl, 7, run.ends(7, concl, -2, concl ^ 1), -2, concl ^ 1)
            if card >= 3:
                both = on.reached() & off.reached()
                for q in on.on + on.off if both else ():
                    if q in both and q != on_pot and q != on_pot & ~1:
                        run.offer(q, 1, ((on, q, None), (off, q, None)), -2, on_pot)
            for u in units_of[cell]:
                at = run.cells[d0] & ub[u]
                if at.bit_count() >= 2 and (at & -at).bit_length() - 1 == cell:
                    starts = [((c * n + d0) << 1) | 1 for c in bits(at)]
                    _common(run, [on] + [run.prop(s) for s in starts[1:]], 6, u, on_pot)
            ons.append(on)
        _common(run, ons, 5, -1, ((cell * n + (m & -m).bit_length() - 1) << 1) | 1)


def _common(run: _Inner, branches: list[Propagation], kind: int, cause: int,
            said: int) -> None:
    """Offer each potential every branch reaches (a cell chain, ``cause`` -1, or a region
    chain of unit ``cause``; ``said``: the first assumption)."""
    common = reached_by_all(branches)
    if not common:
        return
    first = branches[0]
    for q in first.on + first.off:
        if q in common:
            run.offer(q, kind, tuple((b, q, None) for b in branches), cause, said)


def _cause(run: _Inner, parents: dict[int, tuple[int, ...]], q: int) -> int:
    """The link that turned the on potential ``q`` on: -1 a naked single (its cell), else the
    unit of its hidden single (the first of SE's box, row, column in which the digit had two
    places when the link was made: in a shared box all its other places are hidden parents)."""
    first, *hidden = parents[q]
    cell, d0 = divmod(q >> 1, run.n)
    pcell = (first >> 1) // run.n
    if pcell == cell:
        return -1
    ub = _unit_bits(run.g)
    shared = [u for u in se_units_of(run.g)[pcell] if ub[u] >> cell & 1]
    gone = set(hidden)
    for u in shared[:-1]:
        others = run.cells[d0] & ub[u] & ~(1 << cell) & ~(1 << pcell)
        if all(((c * run.n + d0) << 1) in gone for c in bits(others)):
            return u
    return shared[-1]


def _rule_parents(run: _Inner, ends: tuple[_End, ...], start_cause: int) -> list[int]:
    """SE's ``getRuleParents`` of a hint: over each branch's chain, the removals (``masks0``
    less ``masks``) of each on potential's cell or of its digit in its link's unit."""
    n, masks0, masks = run.n, run.masks0, run.masks
    ub = _unit_bits(run.g)
    out: dict[int, None] = {}
    for prop, pot, own in ends:
        parents = prop.parents
        for p in sorted(prop.ancestor_set(pot, own)):
            if not p & 1:
                continue
            if parents.get(p):
                where = _cause(run, parents, p)
            elif start_cause == -2:
                continue
            else:
                where = start_cause
            cell, d0 = divmod(p >> 1, n)
            if where < 0:
                for x in bits(masks0[cell] & ~masks[cell]):
                    out[(cell * n + x) << 1] = None
            else:
                for c in bits(ub[where]):
                    if (masks0[c] & ~masks[c]) >> d0 & 1:
                        out[(c * n + d0) << 1] = None
    return list(out)


def dynamic_chain_offs(geometry: Geometry, masks0: list[int], masks: list[int]) -> _Offs:
    """Eliminations ``(off potential, rule parents, inner chain)`` of SE's Dynamic Forcing
    Chains on the working grid ``masks`` whose chains rely on a removal since ``masks0``
    (module docstring), the best hint's first; empty when there is none.

    Args:
        geometry: a classic grid (boxes, rows, columns).
        masks0: per cell its candidates before the outer assumption (bit d-1 for digit d).
        masks: the outer propagation's working grid (``masks0`` less its removals).
    """
    run = _Inner(geometry, masks0, masks)
    found = inner_search(geometry, masks0, masks)
    if found is None:
        found = _python_winners(run)
    given: dict[int, tuple[tuple[int, ...], Inner]] = {}
    for (complexity, kind, _order, q, cause, said), rule in found[1]:
        inner = Inner(next(_KEYS), complexity,
                      f"Dynamic {run.text(kind, q, cause, said)} ({complexity} nodes)")
        for r in run.removed(q):
            given.setdefault(r, (rule, inner))
    return [(r, parents, inner) for r, (parents, inner) in given.items()]


_Found = tuple[np.ndarray | list[_Row], list[tuple[_Row, tuple[int, ...]]]]
"""The hints of an inner search (int64[H, 6] from the kernel, in the order found; best first
from the Python reference) and those kept, best first, with their rule parents."""


def _python_winners(run: _Inner) -> _Found:
    """:func:`inner_search` in Python (the reference)."""
    _search(run)
    rows = sorted(run.hints)
    given: set[int] = set()
    kept = []
    for row in rows:
        removed = run.removed(row[3])
        if all(r in given for r in removed):
            continue
        rule = _rule_parents(run, run.ends(row[1], row[3], row[4], row[5]), row[4])
        if rule:
            kept.append((row, tuple(rule)))
            given.update(removed)
    return rows, kept


def inner_search(geometry: Geometry, masks0: list[int], masks: list[int]) -> _Found | None:
    """The hints of the inner search on the working grid ``masks`` and those kept (each giving
    an elimination no better hint gave), best first, with their rule parents, found in one
    compiled call
    (:func:`~sudokit.logic.chains._nested_dynamic_kernel.inner_hints`); None when the
    propagations run in Python or the grid is over :data:`INNER_CELLS` cells."""
    if not use_compiled(Kernels.LOGIC, geometry.n_cells, INNER_CELLS):
        return None
    from . import _nested_dynamic_kernel as kernel

    work = _inner_work(geometry)
    arrays = np.array(masks0, dtype=np.int64), np.array(masks, dtype=np.int64)
    while True:
        count, kept = kernel.inner_hints(*arrays, work.tables, work.kernel, work.store,
                                         work.out)
        if count != kernel.FULL:
            break
        work.grow()
    rows, winners, starts, flat = work.out[:4]
    rule = flat[:starts[kept]].tolist()
    bounds = starts[:kept + 1].tolist()
    return (rows[:count].copy(),
            [(tuple(rows[w].tolist()), tuple(rule[bounds[i]:bounds[i + 1]]))  # type: ignore[misc]
             for i, w in enumerate(winners[:kept].tolist())])


INNER_CELLS = 81
"""Largest grid (cells) whose inner search runs compiled (its store keeps one record index
per potential and assumption)."""


@dataclass
class _InnerWork:
    """The arrays of :func:`inner_search`'s kernel for one geometry (reused; grown when
    full)."""

    tables: tuple[np.ndarray, np.ndarray]
    kernel: tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]
    store: tuple[np.ndarray, ...]
    out: tuple[np.ndarray, ...]

    def grow(self) -> None:
        """Double the records' store, the rows and the rule parents."""
        slot_of, index, meta, order, _ps, pflat, _tops, _seen, stack, branches, found = self.store
        self.store = (slot_of, index, meta, np.empty(2 * order.size, dtype=np.int64),
                      np.empty(2 * order.size + 1, dtype=np.int64),
                      np.empty(2 * pflat.size, dtype=np.int64), np.zeros(4, dtype=np.int64),
                      np.zeros(slot_of.size, dtype=np.int64), stack, branches, found)
        self.out = _out(2 * self.out[0].shape[0], 2 * self.out[3].size, slot_of.size)


def _out(rows: int, rules: int, size: int) -> tuple[np.ndarray, ...]:
    return (np.empty((rows, 6), dtype=np.int64), np.empty(rows, dtype=np.int64),
            np.empty(rows + 1, dtype=np.int64), np.empty(rules, dtype=np.int64),
            np.empty(size, dtype=np.uint8), np.empty(rows, dtype=np.int64))


def _inner_work(geometry: Geometry) -> _InnerWork:
    return per_thread("inner", geometry, _new_inner_work)


def _new_inner_work(geometry: Geometry) -> _InnerWork:
    work = _work(geometry)
    size = 2 * geometry.n_cells * geometry.side
    m = work.tables[0].shape[1]
    store = (np.full(size, -1, dtype=np.int64), np.full((size, size), -1, dtype=np.int16),
             np.zeros((size, 8), dtype=np.int64), np.empty(1 << 16, dtype=np.int64),
             np.empty((1 << 16) + 1, dtype=np.int64), np.empty(1 << 18, dtype=np.int64),
             np.zeros(4, dtype=np.int64), np.zeros(size, dtype=np.int64),
             np.empty((size + 1) * (m + 1) + 1, dtype=np.int64),
             np.empty(2 * geometry.side, dtype=np.int64), np.empty(size, dtype=np.int64))
    return _InnerWork(work.tables, (work.out, work.masks, work.hidden), store,
                      _out(1 << 10, 1 << 14, size))
