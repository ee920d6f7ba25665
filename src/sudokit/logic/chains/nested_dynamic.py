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

The propagations of the inner search run compiled
(:func:`~sudokit.logic.chains.implications.chain_implications` at level 0, memoised per
working grid); the hints are ranked by their complexity (counted compiled) and only the hints
that give an elimination no better hint gave are followed in Python for their rule parents.
SE's level 5 ("+ Dynamic Forcing Chains (+)" and up, 11.0) is not built: its inner rule is a
whole nested search per assumption.
"""

from __future__ import annotations

import itertools

from ...model.geometry import Geometry
from ..state import bits
from .advanced import _digit_cells, _unit_bits
from .implications import (Inner, Propagation, chain_implications, reached_by_all,
                           se_units_of)

__all__ = ["dynamic_chain_offs"]

_KEYS = itertools.count(1)
"""Keys of the inner chains (:attr:`Inner.key`), one per hint kept."""

_Offs = list[tuple[int, tuple[int, ...], Inner]]
_End = tuple[Propagation, int, tuple[int, ...] | None]
"""One branch of a hint: its propagation, the potential its chain ends in and that potential's
own parents when the propagation does not hold it (the off side of a contradiction)."""


class _Inner:
    """One run of the inner Dynamic Forcing Chains on a working grid ``masks``."""

    def __init__(self, geometry: Geometry, masks0: list[int], masks: list[int]) -> None:
        self.g, self.n = geometry, geometry.side
        self.masks0, self.masks = masks0, masks
        self.cells = _digit_cells(self.n, masks)
        self.memo: dict[int, Propagation] = {}
        self.hints: list[tuple[int, int, int, list[int], tuple[_End, ...], int, int, str]] = []

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

    def offer(self, q: int, kind: int, ends: tuple[_End, ...], start_cause: int,
              text: str) -> None:
        """Keep the hint proving ``q`` with branches ``ends`` when it removes something
        (``start_cause``: -2 none, -1 the assumptions' cell, else their unit)."""
        removed = self.removed(q)
        if removed:
            complexity = sum(p.ancestors(pot, own) for p, pot, own in ends)
            self.hints.append((complexity, kind, len(self.hints), removed, ends, start_cause,
                               q, text))

    def label(self, pot: int) -> str:
        cell, d0 = divmod(pot >> 1, self.n)
        return f"{self.g.label(cell)}{'=' if pot & 1 else '<>'}{self.g.symbol(d0 + 1)}"


def _search(run: _Inner) -> None:
    """All hints of SE's ``getMultipleChainsHintList`` (dynamic, multiple) on the working grid,
    cells row by row."""
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
            for prop, concl, said in ((on, on_pot & ~1, on_pot), (off, on_pot, on_pot & ~1)):
                if prop.contradiction is not None:
                    a, b, own = prop.contradiction
                    ends: tuple[_End, ...] = (
                        (prop, a, None if a in prop.reached() else ()),
                        (prop, b, None if b in prop.reached() else own))
                    run.offer(concl, 7, ends, -2,
                              f"Contradiction Forcing Chain: {run.label(said)} leads to a "
                              "contradiction")
            if card >= 3:
                both = on.reached() & off.reached()
                for q in on.on + on.off if both else ():
                    if q in both and q != on_pot and q != on_pot & ~1:
                        run.offer(q, 1, ((on, q, None), (off, q, None)), -2,
                                  f"Double Forcing Chain: {run.label(on_pot)} and "
                                  f"{run.label(on_pot & ~1)} both imply {run.label(q)}")
            for u in units_of[cell]:
                at = run.cells[d0] & ub[u]
                if at.bit_count() >= 2 and (at & -at).bit_length() - 1 == cell:
                    starts = [((c * n + d0) << 1) | 1 for c in bits(at)]
                    _common(run, [on] + [run.prop(s) for s in starts[1:]], starts, 6, u)
            ons.append(on)
        _common(run, ons, [((cell * n + d0) << 1) | 1 for d0 in bits(m)], 5, -1)


def _common(run: _Inner, branches: list[Propagation], starts: list[int], kind: int,
            cause: int) -> None:
    """Offer each potential every branch reaches (a cell chain, ``cause`` -1, or a region
    chain of unit ``cause``)."""
    common = reached_by_all(branches)
    if not common:
        return
    name = "Cell" if kind == 5 else "Region"
    said = " or ".join(run.label(s) for s in starts)
    first = branches[0]
    for q in first.on + first.off:
        if q in common:
            run.offer(q, kind, tuple((b, q, None) for b in branches), cause,
                      f"{name} Forcing Chain: {said} each imply {run.label(q)}")


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
    _search(run)
    run.hints.sort(key=lambda h: h[:3])
    given: dict[int, tuple[tuple[int, ...], Inner]] = {}
    for complexity, kind, order, removed, ends, start_cause, q, text in run.hints:
        if all(r in given for r in removed):
            continue
        rule = _rule_parents(run, ends, start_cause)
        if not rule:
            continue
        inner = Inner(next(_KEYS), complexity,
                      f"Dynamic {text} ({complexity} nodes)")
        for r in removed:
            given.setdefault(r, (tuple(rule), inner))
    return [(r, parents, inner) for r, (parents, inner) in given.items()]
