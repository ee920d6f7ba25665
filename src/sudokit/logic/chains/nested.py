"""Nested forcing chains: the inner rule Sudoku Explainer runs inside a propagation of
"Dynamic Forcing Chains (+ Forcing Chains)" (level 2, 9.5) when nothing else is pending.

SE 1.2.1 (``1to9only/SudokuExplainer``, ``diuf/sudoku/solver/rules/chaining/Chaining.java``,
``getAdvancedPotentials``): at level 2 and up, when the four "(+)" rules (:mod:`.advanced`)
find nothing on the working grid of an assumption, the static "Forcing Chains" producer
(``new Chaining(false, false, false, 0)``) is run on that working grid. Each of its hints whose
chain relies on a removal made since the assumption (its *rule parents*,
``ChainingHint.getRuleParents``: for each on potential of the chain, the candidates of its
cell (a naked-single link) or the places of its digit in its unit (a hidden-single link) that
the working grid lost) gives its eliminations to the outer propagation, as off potentials
whose parents are those removals; the outer chain's complexity then adds the inner chain's
(``ChainingHint.getNestedComplexity``).

A static forcing chain (``Chaining.doForcingChains``) follows an assumption over links that
read the working grid as it is (no removal while it runs) and ends where it reaches its own
negation: "p on implies p off" removes p, "p off implies p on" places p (the cell's other
candidates go). Its links come in contrapositive pairs, so an assumption implies its own
negation exactly when its propagation meets any candidate both on and off; those assumptions
are found for every candidate in one compiled call
(:func:`~sudokit.logic.chains.implications.contradictions`) and only they are followed again
(:func:`static_chain`, compiled too) to SE's target with its parents. Differences from SE,
none of which changes what is proved: SE's X-only pass and its cycles (whose eliminations the XY forcing chains
also make, as "p on implies p off") are not run separately, so an elimination may come with
the parents of another of SE's chains; inner hints are ordered by complexity, then cell.
"""

from __future__ import annotations

import types
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from ...compiled import Kernels, twin, use_compiled
from ...csp.model import values_of
from ...model.geometry import Geometry
from ..state import bits
from .advanced import _unit_bits
from .implications import (KERNEL_CELLS, Inner, InnerRule, Propagation, chain_implications,
                           compile_outer, contradictions, static_reach)
from .kernel_arrays import implications_tables, per_thread, se_units_of
from .nested_dynamic import dynamic_chain_offs

__all__ = ["compile_nested", "forcing_chain_offs", "multiple_chain_offs", "nested_rule",
           "static_chain"]

NestedOffs = list[tuple[int, tuple[int, ...], Inner]]
T = TypeVar("T")


def forcing_chain_offs(geometry: Geometry, masks0: list[int], masks: list[int]) -> NestedOffs:
    """Eliminations ``(off potential, rule parents, inner chain)`` of SE's static forcing
    chains on the working grid ``masks`` whose chains rely on a removal since ``masks0``
    (module docstring); empty when there is none.

    Args:
        geometry: a classic grid (boxes, rows, columns).
        masks0: per cell its candidates before the outer assumption (bit d-1 for digit d).
        masks: the outer propagation's working grid (``masks0`` less its removals).
    """
    chains = _memoised("static chains", geometry, masks, _static_chains)
    hints = []
    for s, chain in chains:
        if chain is not None:
            hint = _hint(geometry, masks0, masks, s, chain)
            if hint is not None:
                hints.append(hint)
    hints.sort(key=lambda h: h[2].complexity)
    return [(q, parents, inner) for removed, parents, inner in hints for q in removed]


MEMO_GRIDS = 512
"""Working grids whose static forcing chains (and static reach) are kept, per thread and
geometry, the oldest dropped first: the same working grid comes back in later steps' searches,
and its chains depend on it alone. On an 11.5 puzzle (level 3) 4096 grids took 558 MB of
memory at most against 263 MB with 512, for 17.4 against 18.8 s of CPU (22.1 s without)."""

Chain = tuple[tuple[int, int], ...]
"""A static forcing chain, from the negation of its assumption back to the assumption: each
potential with its cause, for an on potential (not the assumption) -1 when its cell's other
candidates forced it (a naked single), else the unit whose other places of its digit did (a
hidden single); -2 for the others."""


def _new_memo(_geometry: Geometry) -> dict[tuple[int, ...], Any]:
    return {}


def _memoised(name: str, geometry: Geometry, masks: list[int],
              compute: Callable[[Geometry, list[int]], T]) -> T:
    """``compute(geometry, masks)``, kept per thread, geometry and working grid under ``name``
    (:data:`MEMO_GRIDS` grids at most, the oldest dropped first)."""
    memo = per_thread(name, geometry, _new_memo)
    key = tuple(masks)
    found = memo.get(key)
    if found is None:
        found = memo[key] = compute(geometry, masks)
        if len(memo) > MEMO_GRIDS:
            del memo[next(iter(memo))]
    return found  # type: ignore[no-any-return]


def _static_chains(geometry: Geometry, masks: list[int]) -> list[tuple[int, Chain | None]]:
    """Each assumption on the working grid ``masks`` whose static propagation ends in a
    contradiction, with its forcing chain to its negation (:func:`static_chain`), in
    :func:`forcing_chain_offs`' order."""
    n = geometry.side
    open_cells = [c for c, m in enumerate(masks) if m & (m - 1)]
    starts = [((c * n + b) << 1) | on for c in open_cells for b in bits(masks[c])
              for on in (1, 0)]
    array = np.array(masks, dtype=np.int64)
    found = contradictions(geometry, masks, array, starts, False, True)
    if found is None:  # Python: follow each assumption
        found = {s for s in starts if chain_implications(
            geometry, masks, s, dynamic=False, y_links=True).contradiction is not None}
    return [(s, static_chain(geometry, masks, s)) for s in starts if s in found]


def _hint(geometry: Geometry, masks0: list[int], masks: list[int], source: int, chain: Chain
          ) -> tuple[list[int], tuple[int, ...], Inner] | None:
    """The forcing chain ``chain`` from ``source`` to its negation: its eliminations, rule
    parents and inner chain, or None when it relies on no removal (or removes nothing)."""
    n = geometry.side
    rule: list[int] = []
    ub = _unit_bits(geometry)
    for p, unit in sorted(chain):
        if unit == -2:
            continue
        cell, d0 = divmod(p >> 1, n)
        if unit < 0:  # naked single: the cell's removed candidates
            rule += [(cell * n + x) << 1 for x in bits(masks0[cell] & ~masks[cell])]
        else:  # hidden single in the unit: the digit's removed places there
            rule += [(c * n + d0) << 1 for c in bits(ub[unit])
                     if (masks0[c] & ~masks[c]) >> d0 & 1]
    rule = list(dict.fromkeys(rule))
    cell, d0 = divmod(source >> 1, n)
    removed = ([source & ~1] if source & 1
               else [(cell * n + x) << 1 for x in bits(masks[cell] & ~(1 << d0))])
    if not rule or not removed:
        return None
    g = geometry
    said = f"{g.label(cell)}{'=' if source & 1 else '<>'}{g.symbol(d0 + 1)}"
    text = f"Forcing Chain: {said} implies its opposite ({len(chain)} nodes)"
    return removed, tuple(rule), Inner(source, len(chain), text)


@twin(Kernels.LOGIC, "sudokit.logic.chains._static_chain_kernel:static_chain",
      "sudokit.logic.chains.nested:_static_chain_reference", "static chains")
def static_chain(geometry: Geometry, masks: list[int], source: int) -> Chain | None:
    """SE's ``doForcingChains`` from ``source`` on the working grid ``masks`` (links read it
    as it is), breadth first (every pending on potential, then every pending off one), until
    the negation of ``source`` is reached: the chain (:data:`Chain`), or None. Compiled
    (:func:`~sudokit.logic.chains._static_chain_kernel.static_chain`), in Python while
    :func:`sudokit.compiled.use_compiled` says so (:func:`_static_chain_reference`)."""
    if not use_compiled(Kernels.LOGIC, geometry.n_cells, KERNEL_CELLS):
        return _static_chain_reference(geometry, masks, source)
    work = per_thread("static chain", geometry, _new_chain_work)
    array = work[0]
    array[:] = masks
    size = _static_kernel().static_chain(array, source, implications_tables(geometry),
                                         *work[1:])
    if not size:
        return None
    path, cause = work[4][:size].tolist(), work[2]
    return tuple((p, int(cause[p])) for p in path)


def _new_chain_work(geometry: Geometry) -> tuple[np.ndarray, ...]:
    """:func:`static_chain`'s arrays: the grid, then the kernel's ``parent``, ``cause``,
    ``queue`` and ``path``."""
    size = 2 * geometry.n_cells * geometry.side
    return (np.empty(geometry.n_cells, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64), np.empty(2 * size, dtype=np.int64),
            np.empty(size, dtype=np.int64))


def _static_kernel() -> types.ModuleType:
    """The static chain's kernel module (imported on first use: importing compiles nothing)."""
    from . import _static_chain_kernel

    return _static_chain_kernel


def _static_chain_reference(geometry: Geometry, masks: list[int], source: int
                            ) -> Chain | None:
    """:func:`static_chain` in Python (the specification)."""
    n = geometry.side
    units_of = se_units_of(geometry)
    ub = _unit_bits(geometry)
    digit_cells = [0] * n
    for c, m in enumerate(masks):
        for b in bits(m):
            digit_cells[b] |= 1 << c
    parents: dict[int, int] = {source: -1}
    causes: dict[int, int] = {}
    pending_on: deque[int] = deque([source] if source & 1 else [])
    pending_off: deque[int] = deque([] if source & 1 else [source])
    target = source ^ 1
    while pending_on or pending_off:
        while pending_on:
            p = pending_on.popleft()
            cell, d0 = divmod(p >> 1, n)
            made = [(cell * n + x) << 1 for x in bits(masks[cell] & ~(1 << d0))]
            for u in units_of[cell]:
                made += [(c * n + d0) << 1 for c in bits(digit_cells[d0] & ub[u] & ~(1 << cell))]
            for q in made:
                if q not in parents:
                    parents[q] = p
                    if q == target:
                        return _chain(parents, causes, target)
                    pending_off.append(q)
        while pending_off:
            p = pending_off.popleft()
            cell, d0 = divmod(p >> 1, n)
            made_on: list[tuple[int, int]] = []
            m = masks[cell]
            if m.bit_count() == 2 and m >> d0 & 1:
                made_on.append((((cell * n + (m & ~(1 << d0)).bit_length() - 1) << 1) | 1, -1))
            for u in units_of[cell]:
                places = digit_cells[d0] & ub[u]
                if places >> cell & 1 and places.bit_count() == 2:
                    other = (places & ~(1 << cell)).bit_length() - 1
                    made_on.append((((other * n + d0) << 1) | 1, u))
            for q, cause in made_on:
                if q not in parents:
                    parents[q] = p
                    causes[q] = cause
                    if q == target:
                        return _chain(parents, causes, target)
                    pending_on.append(q)
    return None


def _chain(parents: dict[int, int], causes: dict[int, int], target: int) -> Chain:
    """The chain from ``target`` back to the assumption (whose parent is -1)."""
    out = []
    p = target
    while p >= 0:
        out.append((p, causes.get(p, -2)))
        p = parents[p]
    return tuple(out)


def multiple_chain_offs(geometry: Geometry, masks0: list[int], masks: list[int]) -> NestedOffs:
    """Eliminations ``(off potential, rule parents, inner chain)`` of SE's static "Multiple
    Forcing Chains" (``new Chaining(true, false, false, 0)``, the inner rule of level 3) on the
    working grid ``masks`` whose chains rely on a removal since ``masks0``: a potential every
    candidate of a cell of three or more implies (cell chain), or every place of a digit in a
    unit does, for units whose first place is such a cell (region chain), links reading
    ``masks`` as it is. Rule parents as :func:`forcing_chain_offs`, the assumptions' own cell
    or unit included (``ChainingHint.collectRuleParents``); the complexity is the sum over the
    branches of the target's ancestors."""
    n = geometry.side
    ub = _unit_bits(geometry)
    row, reached = _memoised("static reach", geometry, masks, _static_reach)
    digit_cells = [0] * n
    for c, m in enumerate(masks):
        for b in bits(m):
            digit_cells[b] |= 1 << c
    hints: list[tuple[list[int], tuple[int, ...], Inner]] = []
    units_of = se_units_of(geometry)
    for cell, m in enumerate(masks):
        if m.bit_count() <= 2:
            continue
        digits = bits(m)
        starts = [((cell * n + b) << 1) | 1 for b in digits]
        rows = [reached[row[s]] for s in starts]
        if _common(rows):
            _gather(geometry, masks0, masks, rows, starts, -1, hints)
        here = 1 << cell
        for b in digits:
            for u in units_of[cell]:
                at = digit_cells[b] & ub[u]
                if at & -at == here and at != here:  # two places or more, the first here
                    places = [((c * n + b) << 1) | 1 for c in values_of(at)]
                    rows = [reached[row[s]] for s in places]
                    if _common(rows):
                        _gather(geometry, masks0, masks, rows, places, u, hints)
    hints.sort(key=lambda h: h[2].complexity)
    return [(q, parents, inner) for removed, parents, inner in hints for q in removed]


def _static_reach(geometry: Geometry, masks: list[int]) -> tuple[dict[int, int], list[int]]:
    """What the static propagation of each on potential of ``masks`` reaches, as bits of an
    int (bit q: potential q), and each one's row in that list."""
    n = geometry.side
    ons = [((c * n + b) << 1) | 1 for c, m in enumerate(masks) if m for b in bits(m)]
    packed = np.packbits(static_reach(geometry, masks, np.array(masks, dtype=np.int64), ons),
                         axis=1, bitorder="little")
    return ({s: i for i, s in enumerate(ons)},
            [int.from_bytes(r.tobytes(), "little") for r in packed])


def _common(rows: list[int]) -> int:
    """The potentials every row reaches (bits of an int)."""
    both = rows[0]
    for r in rows[1:]:
        both &= r
        if not both:
            break
    return both


def _gather(geometry: Geometry, masks0: list[int], masks: list[int],
            reached: list[int], starts: list[int], unit: int,
            hints: list[tuple[list[int], tuple[int, ...], Inner]]) -> None:
    """Add the hints of one cell (``unit`` -1) or region chain: each potential all branches
    (``reached``: each one's potentials as bits of an int, from ``starts``) reach that removes
    something, if it relies on a removal."""
    common = values_of(_common(reached))
    if not common:
        return
    n, g = geometry.side, geometry
    branches: list[Propagation] = []
    for q in common:
        cell, d0 = divmod(q >> 1, n)
        removed = ([(cell * n + x) << 1 for x in bits(masks[cell] & ~(1 << d0))] if q & 1
                   else [q] if masks[cell] >> d0 & 1 else [])
        if not removed:
            continue
        if not branches:  # the parents, built only now that something is concluded
            branches = [chain_implications(geometry, masks, s, dynamic=False, y_links=True)
                        for s in starts]
        rule: list[int] = []
        complexity = 0
        for branch, start in zip(branches, starts):
            seen = branch.ancestor_set(q, None)
            complexity += len(seen)
            rule += _rule_parents(geometry, masks0, masks, branch, seen, start, unit)
        if not rule:
            continue
        said = " or ".join(f"{g.label((p >> 1) // n)}={g.symbol((p >> 1) % n + 1)}"
                           for p in starts)
        kind = "Cell" if unit < 0 else "Region"
        text = (f"{kind} Forcing Chain: {said} each imply "
                f"{g.label(cell)}{'=' if q & 1 else '<>'}{g.symbol(d0 + 1)} "
                f"({complexity} nodes)")
        hints.append((removed, tuple(dict.fromkeys(rule)),
                      Inner((unit + 1) * 1_000_000 + starts[0] * 4096 + q, complexity, text)))


def _rule_parents(geometry: Geometry, masks0: list[int], masks: list[int],
                  branch: Propagation, seen: set[int], start: int, unit: int) -> list[int]:
    """SE's ``collectRuleParents`` over the potentials ``seen`` of one static branch: the
    removals (``masks0`` less ``masks``) of each on potential's cell (a link inside the cell)
    or of its digit in the unit of its link, the assumption's own cell or ``unit``."""
    n = geometry.side
    ub = _unit_bits(geometry)
    units_of = se_units_of(geometry)
    out: list[int] = []
    for p in sorted(seen):
        if not p & 1:
            continue
        cell, d0 = divmod(p >> 1, n)
        if p == start:
            where = -1 if unit < 0 else unit
        else:
            parent = branch.parents[p][0]
            pcell = (parent >> 1) // n
            where = -1
            if pcell != cell:
                where = next(u for u in units_of[pcell] if ub[u] >> cell & 1
                             and (_places(masks, ub[u], d0) == (1 << cell) | (1 << pcell)))
        if where < 0:
            out += [(cell * n + x) << 1 for x in bits(masks0[cell] & ~masks[cell])]
        else:
            out += [(c * n + d0) << 1 for c in bits(ub[where])
                    if (masks0[c] & ~masks[c]) >> d0 & 1]
    return out


def _places(masks: list[int], unit_bits: int, d0: int) -> int:
    """The cells of ``unit_bits`` holding ``d0`` in ``masks`` (bit c for cell c)."""
    return sum(1 << c for c in bits(unit_bits) if masks[c] >> d0 & 1)


def nested_rule(geometry: Geometry, level: int) -> InnerRule:
    """SE's nested rules of ``level`` after the four "(+)" rules, tried in order until one
    has eliminations: static forcing chains (levels 2-3), then static multiple forcing
    chains (level 3); at level 4, SE's Dynamic Forcing Chains instead
    (:mod:`.nested_dynamic`)."""
    rules = ([dynamic_chain_offs] if level >= 4 else
             [forcing_chain_offs] + ([multiple_chain_offs] if level >= 3 else []))

    def rule(masks0: list[int], masks: list[int]) -> NestedOffs:
        for r in rules:
            found = r(geometry, masks0, masks)
            if found:
                return found
        return []
    return rule


def compile_nested(geometry: Geometry, masks: list[int]) -> None:
    """Load or compile the kernels the nested rules call (the static contradictions and reach
    of levels 2-3, level 4's inner search, the outer propagation's) by running each rule once on the grid ``masks``
    (no removal, so nothing is found): a warm-up, since the nested producers' own search is
    too long to run there (:data:`~sudokit.logic.chains.explainer.PYTHON_ONLY`)."""
    for rule in (forcing_chain_offs, multiple_chain_offs, dynamic_chain_offs):
        rule(geometry, masks, masks)
    compile_outer(geometry, masks)
