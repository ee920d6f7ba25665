"""Sudoku Explainer's chaining propagation: the implications of an assumption as a directed
acyclic graph of potentials, for its forcing chains and their complexity.

A *potential* is a candidate said on or off, packed in one int: ``(cell * N + digit - 1) * 2
+ on``. :func:`chain_implications` follows an assumption as Sudoku Explainer's
``Chaining.doChaining`` does (Juillerat 2006, SE 1.2.1 as kept in ``1to9only/SudokuExplainer``,
``diuf/sudoku/solver/rules/chaining/Chaining.java``): breadth first, an on potential turns
off the cell's other candidates and the digit's other places in the cell's units (box, row,
column, then the extra units); an off potential turns on the other candidate of a bivalue cell
and the other place of a bilocal digit in a unit. In *dynamic* mode each off potential is
removed from a working copy of the candidates as it is processed, so later links see the
reduced grid; a link that relies on removals records those off potentials as its *hidden
parents*. At ``level`` 1 (Sudoku Explainer's "Dynamic Forcing Chains (+)"), when nothing is
pending, locked candidates, hidden and naked pairs and X-Wings are looked for on the working
grid (:mod:`.advanced`) and their eliminations followed, each with the removals it relies on as
parents. A potential said both on and off is a contradiction, which ends the propagation.

The *complexity* of a chain is the number of potentials its conclusion descends from
(:func:`ancestor_count`, ``ChainingHint.getAncestorCount``), summed over a forcing chain's
branches; its rating bonus is :func:`~sudokit.logic.step.length_bonus` of that count less two.
"""

from __future__ import annotations

import types
from collections import deque
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

import numpy as np

from ...compiled import Kernels, twin, use_compiled
from ...model.geometry import Geometry
from ..state import bits
from .advanced import _digit_cells, _unit_bits, advanced_offs
from .kernel_arrays import _new_work, _work, _Work, per_thread, se_units_of

__all__ = ["Inner", "InnerRule", "Propagation", "ancestor_count", "chain_implications",
           "compile_outer", "contradictions", "reached_by_all", "static_reach"]


@dataclass(frozen=True)
class Inner:
    """A nested (inner) chain an off potential of a propagation comes from: its key among the
    propagation's inner chains (the inner assumption), its complexity and its text."""

    key: int
    complexity: int
    text: str


InnerRule = Callable[[list[int], list[int]], list[tuple[int, tuple[int, ...], Inner]]]
"""A nested rule (:mod:`.nested`): from the grid before the assumption and the working grid,
the eliminations ``(off potential, rule parents, inner chain)`` it makes."""


class Propagation:
    """What one assumption implies.

    Attributes:
        parents: potential -> its parents (potentials), for every potential reached, in the
            order reached (the assumption has none).
        on: the on potentials reached, in order; off: the off potentials.
        contradiction: None, or ``(on_potential, off_potential, off_parents)``: the candidate
            found both on and off (the off one may be new: its parents are given).
        inner: off potential -> the nested chain it comes from (levels 2 and up).
    """

    def __init__(self) -> None:
        self.parents: dict[int, tuple[int, ...]] = {}
        self.on: list[int] = []
        self.off: list[int] = []
        self.contradiction: tuple[int, int, tuple[int, ...]] | None = None
        self.inner: dict[int, Inner] = {}

    def reached(self) -> AbstractSet[int]:
        """The potentials reached (the keys of :attr:`parents`)."""
        return self.parents.keys()

    def ancestors(self, potential: int, own_parents: tuple[int, ...] | None) -> int:
        """:func:`ancestor_count` (Python)."""
        seen = self.ancestor_set(potential, own_parents)
        return len(seen) + sum(i.complexity for i in self.inners(seen))

    def ancestor_set(self, potential: int, own_parents: tuple[int, ...] | None) -> set[int]:
        """The potentials ``potential`` descends from, itself included."""
        parents = self.parents
        seen = {potential}
        todo = list(parents.get(potential, ()) if own_parents is None else own_parents)
        while todo:
            p = todo.pop()
            if p not in seen:
                seen.add(p)
                todo.extend(parents.get(p, ()))
        return seen

    def inners(self, potentials: AbstractSet[int]) -> list[Inner]:
        """The distinct nested chains among ``potentials`` (in potential order)."""
        if not self.inner:
            return []
        found: dict[int, Inner] = {}
        for p in sorted(potentials):
            i = self.inner.get(p)
            if i is not None:
                found.setdefault(i.key, i)
        return list(found.values())

    def __eq__(self, other: object) -> bool:
        """Equal parents, lists, contradiction and ancestor counts (a compiled propagation
        equals its Python reference)."""
        if not isinstance(other, Propagation):
            return NotImplemented
        mine = (self.parents, self.on, self.off, self.contradiction)
        if mine != (other.parents, other.on, other.off, other.contradiction):
            return False
        return all(self.ancestors(q, None) == other.ancestors(q, None) for q in self.parents)

    __hash__ = None  # type: ignore[assignment]


class _Records(Propagation):
    """A propagation kept as the compiled kernel's records (numpy copies); :attr:`parents`,
    :attr:`on` and :attr:`off` are made on first use, ancestors are counted compiled."""

    def __init__(self, work: _Work, listed: int, records: int) -> None:  # noqa: D107
        self.contradiction = None
        self.inner = {}
        order, starts, flat, _index = work.out
        self.order = order[:records].tolist()
        self.listed = listed
        self.set = set(self.order)
        self.starts = starts[:records + 1].copy()
        self.flat = flat[:self.starts[-1]].copy()
        self.work = work
        self.arrays: tuple[np.ndarray, ...] | None = None  # with the index, once asked

    def reached(self) -> AbstractSet[int]:
        return self.set

    def __getattr__(self, name: str) -> object:
        """``parents``, ``on`` and ``off``, made from the records when first asked."""
        if name == "parents":
            starts, flat = self.starts.tolist(), self.flat.tolist()
            value: object = {q: tuple(flat[starts[i]:starts[i + 1]])
                             for i, q in enumerate(self.order)}
        elif name in ("on", "off"):
            odd = name == "on"
            value = [q for q in self.order[:self.listed] if bool(q & 1) == odd]
        else:
            raise AttributeError(name)
        setattr(self, name, value)
        return value

    def ancestors(self, potential: int, own_parents: tuple[int, ...] | None) -> int:
        if self.inner:  # nested chains' complexities are added: counted in Python
            return Propagation.ancestors(self, potential, own_parents)
        ancestors = _kernels().ancestors
        w = self.work
        if self.arrays is None:
            index = np.full(w.out[3].size, -1, dtype=np.int64)
            order = np.array(self.order, dtype=np.int64)
            index[order] = np.arange(order.size)
            self.arrays = (order, self.starts, self.flat, index)
        own = w.own[:0] if own_parents is None else np.array(own_parents, dtype=np.int64)
        return int(ancestors(potential, own, own_parents is not None, self.arrays, w.seen,
                             w.stack))


def reached_by_all(branches: list[Propagation]) -> AbstractSet[int]:
    """The potentials every branch of a cell or region chain reaches (at least two
    branches); empty as soon as two branches share none."""
    common = branches[0].reached() & branches[1].reached()
    for b in branches[2:]:
        if not common:
            break
        common &= b.reached()
    return common


def ancestor_count(prop: Propagation, potential: int,
                   own_parents: tuple[int, ...] | None = None) -> int:
    """The number of distinct potentials ``potential`` descends from, itself included
    (``own_parents``: its parents when it is not in ``prop``, as the off side of a
    contradiction), plus the complexity of each distinct nested chain among them
    (``ChainingHint.getNestedComplexity``)."""
    return prop.ancestors(potential, own_parents)


def _kernels() -> types.ModuleType:
    """The kernels' module (imported on first use: importing it compiles nothing)."""
    global _KERNELS
    if _KERNELS is None:
        from . import _implications_kernel

        _KERNELS = _implications_kernel
    return _KERNELS


_KERNELS: types.ModuleType | None = None


@twin(Kernels.LOGIC, "sudokit.logic.chains._static_chain_kernel:static_closure",
      "sudokit.logic.chains.implications:_static_reach_reference", "static reach")
def static_reach(geometry: Geometry, masks0: list[int], array: np.ndarray,
                 starts: list[int]) -> np.ndarray:
    """What the static propagation (:func:`chain_implications` with ``dynamic`` False, links
    inside cells too, level 0) of each potential of ``starts`` (candidates of ``masks0``, on
    or off) reaches, as uint8[S, 2CN] (1 at each potential reached): compiled, read from the
    closure of the grid's links
    (:func:`~sudokit.logic.chains._static_chain_kernel.static_closure`), those whose
    propagation a contradiction stops followed in one call
    (:func:`~sudokit.logic.chains._implications_kernel.reached_all`); in Python
    (:func:`_static_reach_reference`) while :func:`sudokit.compiled.use_compiled` says so.
    ``array``: ``masks0`` as int64[C]."""
    if not use_compiled(Kernels.LOGIC, geometry.n_cells, KERNEL_CELLS):
        return _static_reach_reference(geometry, masks0, array, starts)
    reached = np.zeros((len(starts), 2 * geometry.n_cells * geometry.side), dtype=np.uint8)
    work = _work(geometry)
    node_of, pots, comp, reach = _closure(geometry, array)
    at = np.array(starts, dtype=np.int64)
    stopped = _contradicted(node_of, comp, reach, at)
    rows = reach[comp[node_of[at]]].view(np.uint8)
    reached[:, pots] = np.unpackbits(rows, axis=1, bitorder="little")[:, :pots.size]
    if stopped.any():  # a contradiction stops the propagation: these follow it
        again = reached[stopped]
        _kernels().reached_all(array, at[stopped], 2, work.tables, work.masks, work.out,
                               work.hidden, again)
        reached[stopped] = again
    return reached


def _static_reach_reference(geometry: Geometry, masks0: list[int], _array: np.ndarray,
                            starts: list[int]) -> np.ndarray:
    """:func:`static_reach` in Python: each propagation followed
    (:func:`_implications_reference`)."""
    reached = np.zeros((len(starts), 2 * geometry.n_cells * geometry.side), dtype=np.uint8)
    for i, s in enumerate(starts):
        reached[i, list(_implications_reference(geometry, masks0, s, False, True).reached())] = 1
    return reached


def _closure(geometry: Geometry, array: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`~sudokit.logic.chains._static_chain_kernel.static_closure` of the grid
    ``array`` (int64[C])."""
    from . import _static_chain_kernel as kernel

    node_of, pots, adj, deg, comp, scratch, reach = arrays = per_thread(
        "closure", geometry, _new_closure)
    count, ncomp = kernel.static_closure(array, _work(geometry).tables, *arrays)
    return node_of, pots[:count], comp[:count], reach[:ncomp]


def _new_closure(geometry: Geometry) -> tuple[np.ndarray, ...]:
    """The arrays of :func:`_closure` (its kernel's, in its order)."""
    size = 2 * geometry.n_cells * geometry.side
    unit_cells, cell_units = _work(geometry).tables
    width = geometry.side + cell_units.shape[1] * unit_cells.shape[1]
    return (np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty((size, width), dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64), np.empty((6, size + 1), dtype=np.int64),
            np.empty((size, (size + 63) // 64), dtype=np.uint64))


def _contradicted(node_of: np.ndarray, comp: np.ndarray, reach: np.ndarray,
                  starts: np.ndarray) -> np.ndarray:
    """Whether each potential of ``starts`` (int64[S]) reaches its negation in the static
    closure ``(node_of, comp, reach)``: bool[S]. The static links come in contrapositive
    pairs, so that is when its static propagation meets a candidate on and off."""
    nodes, negations = node_of[starts], node_of[starts ^ 1]
    words = reach[comp[nodes], negations >> 6]
    return ((words >> (negations & 63).astype(np.uint64)) & np.uint64(1)).astype(bool)


def contradictions(geometry: Geometry, masks0: list[int], array: np.ndarray,
                   starts: list[int], dynamic: bool, y_links: bool) -> set[int] | None:
    """The potentials of ``starts`` whose level-0 propagation (:func:`chain_implications`)
    ends in a contradiction, all followed in one compiled call
    (:func:`~sudokit.logic.chains._implications_kernel.contradicted`; static ones with links
    inside cells read from the closure of the grid's links instead,
    :func:`~sudokit.logic.chains._static_chain_kernel.static_closure`); None when the
    propagations run in Python (the caller then follows each). ``array``: ``masks0`` as
    int64[C]."""
    if not use_compiled(Kernels.LOGIC, geometry.n_cells, KERNEL_CELLS):
        return None
    if not dynamic and y_links:  # static: read from the closure of the grid's links
        node_of, _pots, comp, reach = _closure(geometry, array)
        flags = _contradicted(node_of, comp, reach, np.array(starts, dtype=np.int64))
        return {q for q, f in zip(starts, flags.tolist()) if f}
    work = _work(geometry)
    found = np.zeros(len(starts), dtype=np.uint8)
    _kernels().contradicted(array, np.array(starts, dtype=np.int64),
                            int(dynamic) | 2 * int(y_links), work.tables, work.masks, work.out,
                            work.hidden, found)
    return {q for q, f in zip(starts, found.tolist()) if f}


KERNEL_CELLS = 256
"""Largest grid (cells) whose propagations run compiled (sides up to 16)."""


@twin(Kernels.LOGIC, "sudokit.logic.chains._implications_kernel:implications",
      "sudokit.logic.chains.implications:_implications_reference", "assumptions")
def chain_implications(geometry: Geometry, masks0: list[int], start: int,
                       dynamic: bool = True, y_links: bool = True, level: int = 0,
                       cells0: list[int] | None = None, array: np.ndarray | None = None,
                       contradictions_only: bool = False,
                       inner: InnerRule | None = None) -> Propagation:
    """Follow the potential ``start`` (see the module docstring): compiled
    (:func:`~sudokit.logic.chains._implications_kernel.implications`, the four "(+)" rules in
    it at level 1 and up; at level 2 and up it stops when they find nothing, ``inner`` runs
    here and :func:`~sudokit.logic.chains._implications_kernel.follow` goes on), in Python
    while :func:`sudokit.compiled.use_compiled` says so (:func:`_implications_reference`).

    Args:
        geometry: the grid.
        masks0: per cell its candidates (bit d-1 for digit d), 0 for a placed cell.
        start: the assumed potential.
        dynamic: remove each off potential from the working grid (Sudoku Explainer's dynamic
            chains); False: every link reads ``masks0`` (static chains).
        y_links: links inside cells too (False: Nishio's X-links only).
        level: 0, or 1 to apply the four "(+)" rules when nothing is pending, 2 and up to
            apply ``inner`` too when they find nothing.
        cells0: per digit the cells holding it in ``masks0`` (bit c for cell c), when the
            caller has it (computed otherwise; the Python propagation only).
        array: ``masks0`` as int64[C], when the caller has it (the compiled one only).
        contradictions_only: the caller reads only :attr:`Propagation.contradiction`: the
            compiled propagation returns an empty one when there is none.
        inner: the nested rule of level 2 and up (:mod:`.nested`).
    """
    if not use_compiled(Kernels.LOGIC, geometry.n_cells, KERNEL_CELLS):
        return _implications_reference(geometry, masks0, start, dynamic, y_links, level, cells0,
                                       inner)
    flags = int(dynamic) | 2 * int(y_links) | (4 if level else 0) | (
        8 if level >= 2 and inner is not None else 0)
    # level 1 and up: its own arrays, since the nested rule follows level-0 propagations
    work = _work(geometry) if not level else per_thread("outer", geometry, _new_work)
    if array is None:
        array = work.masks0
        array[:] = masks0
    k = _kernels()
    listed, records, kind, on, off, own = k.implications(
        array, start, flags, work.tables, work.masks, work.out, work.hidden)
    nested: dict[int, Inner] = {}
    contradiction = None
    while kind == 4 and inner is not None:
        first = listed
        listed, contradiction = _record_inner(work, inner(masks0, work.masks.tolist()), listed,
                                              nested)
        if listed < 0:  # more parents than the records hold: the reference follows it
            return _implications_reference(geometry, masks0, start, dynamic, y_links, level,
                                           cells0, inner)
        records, kind = listed, 0
        if contradiction is None and listed > first:
            listed, records, kind, on, off, own = k.follow(
                array, flags, work.tables, work.masks, work.out, work.hidden, first, listed)
    if contradictions_only and not kind and contradiction is None:
        return Propagation()
    out = _Records(work, listed, records)
    out.inner = nested
    if kind == 3:
        starts, flat = work.out[1], work.out[2]
        contradiction = (int(on), int(off),
                         tuple(flat[starts[listed]:starts[listed + 1]].tolist()))
    elif kind:
        contradiction = (int(on), int(off), (int(own),) if kind == 1 else ())
    out.contradiction = contradiction
    return out


def compile_outer(geometry: Geometry, masks0: list[int]) -> None:
    """Load or compile the kernels of the outer propagation of levels 1 and up: one
    propagation of the first candidate of ``masks0`` with every flag, then :func:`follow
    <sudokit.logic.chains._implications_kernel.follow>` from its end (a warm-up; nothing is
    kept: the arrays are its own, so the propagations' shared ones keep their state)."""
    cell = next((c for c, m in enumerate(masks0) if m), None)
    if cell is None or not use_compiled(Kernels.LOGIC, geometry.n_cells, KERNEL_CELLS):
        return
    k = _kernels()
    work = _new_work(geometry)
    array = np.array(masks0, dtype=np.int64)
    start = ((cell * geometry.side + (masks0[cell] & -masks0[cell]).bit_length() - 1) << 1) | 1
    listed = k.implications(array, start, 15, work.tables, work.masks, work.out, work.hidden)[0]
    k.follow(array, 15, work.tables, work.masks, work.out, work.hidden, listed, listed)


def _record_inner(work: _Work, offs: list[tuple[int, tuple[int, ...], Inner]], n: int,
                  nested: dict[int, Inner]) -> tuple[int, tuple[int, int, tuple[int, ...]] | None]:
    """Record the nested rule's eliminations ``offs`` from record ``n`` on, as
    :func:`_implications_reference` does (each new one whose parents are all reached, its
    inner chain kept in ``nested``). Returns the new count of records (-1 when the parents
    would pass the share of the kernel's parent array the records after them need) and the
    contradiction, if an elimination's on potential is reached."""
    order, pstart, pflat, index = work.out
    share = pflat.size // order.size  # parents a record may take (M + N + 1)
    last = index.size - 1
    for q, qp, chain in offs:
        if index[q] >= 0 or any(index[r] < 0 for r in qp):
            continue
        nested[q] = chain
        if index[q | 1] >= 0:
            return n, (q | 1, q, qp)
        k = int(pstart[n])
        if k + len(qp) > (n + 1) * share:
            return -1, None
        pflat[k:k + len(qp)] = qp
        pstart[n + 1] = k + len(qp)
        order[n] = q
        index[q] = n
        n += 1
        index[last] = max(int(index[last]), n)  # the records to reset (see the kernel)
    return n, None


def _implications_reference(geometry: Geometry, masks0: list[int], start: int,
                            dynamic: bool = True, y_links: bool = True, level: int = 0,
                            cells0: list[int] | None = None,
                            inner: InnerRule | None = None) -> Propagation:
    """:func:`chain_implications` in Python (the specification); arguments as there."""
    n = geometry.side
    units_of = se_units_of(geometry)
    masks = list(masks0)
    ub = _unit_bits(geometry)
    cells0 = _digit_cells(n, masks0) if cells0 is None else cells0
    cells = list(cells0)  # per digit, the cells holding it now (bit c for cell c)
    out = Propagation()
    parents = out.parents
    parents[start] = ()
    (out.on if start & 1 else out.off).append(start)
    pending_on: deque[int] = deque([start] if start & 1 else [])
    pending_off: deque[int] = deque([] if start & 1 else [start])
    while pending_on or pending_off:
        if pending_on:
            p = pending_on.popleft()
            cell, d0 = divmod(p >> 1, n)
            bit = 1 << d0
            made = []
            if y_links:
                rest = masks[cell] & ~bit
                while rest:
                    low = rest & -rest
                    made.append(((cell * n + low.bit_length() - 1) << 1))
                    rest ^= low
            for u in units_of[cell]:
                rest = cells[d0] & ub[u] & ~(1 << cell)
                while rest:
                    low = rest & -rest
                    made.append(((low.bit_length() - 1) * n + d0) << 1)
                    rest ^= low
            for q in made:
                if q | 1 in parents:
                    out.contradiction = (q | 1, q, (p,))
                    return out
                if q not in parents:
                    parents[q] = (p,)
                    out.off.append(q)
                    pending_off.append(q)
        else:
            p = pending_off.popleft()
            made_on = _off_to_on(n, masks, masks0, cells, cells0, ub, p, y_links, units_of)
            if dynamic:
                cell, d0 = divmod(p >> 1, n)
                masks[cell] &= ~(1 << d0)
                cells[d0] &= ~(1 << cell)
            for q, qp in made_on:
                if q & ~1 in parents:
                    out.contradiction = (q, q & ~1, ())
                    parents.setdefault(q, qp)
                    return out
                if q not in parents:
                    parents[q] = qp
                    out.on.append(q)
                    pending_on.append(q)
        if level > 0 and not pending_on and not pending_off:
            offs: list[tuple[int, tuple[int, ...], Inner | None]] = [
                (q, qp, None) for q, qp in advanced_offs(geometry, masks0, masks, cells0, cells)]
            if not offs and level >= 2 and inner is not None:
                offs = list(inner(masks0, masks))
            for q, qp, nested in offs:
                if q not in parents and all(r in parents for r in qp):
                    if nested is not None:
                        out.inner[q] = nested
                    if q | 1 in parents:
                        out.contradiction = (q | 1, q, qp)
                        return out
                    parents[q] = qp
                    out.off.append(q)
                    pending_off.append(q)
    return out


def _off_to_on(n: int, masks: list[int], masks0: list[int], cells: list[int],
               cells0: list[int], ub: list[int], p: int, y_links: bool,
               units_of: tuple[tuple[int, ...], ...]) -> list[tuple[int, tuple[int, ...]]]:
    """The on potentials an off potential ``p`` forces, each with its parents (``p`` and the
    hidden parents: the removals the link relies on), as ``Chaining.getOffToOn``
    (``cells``/``cells0``: per digit the cells holding it now and at the start)."""
    cell, d0 = divmod(p >> 1, n)
    bit = 1 << d0
    result = []
    m = masks[cell]
    if y_links and m.bit_count() == 2 and m & bit:
        other = (m & ~bit).bit_length() - 1
        result.append((((cell * n + other) << 1) | 1,
                       (p, *[(cell * n + x) << 1 for x in bits(masks0[cell] & ~m)])))
    here = 1 << cell
    for u in units_of[cell]:
        places = cells[d0] & ub[u]
        if places & here and (places & ~here).bit_count() == 1:
            other_cell = (places & ~here).bit_length() - 1
            gone = cells0[d0] & ~cells[d0] & ub[u]
            result.append((((other_cell * n + d0) << 1) | 1,
                           (p, *[(c * n + d0) << 1 for c in bits(gone)])))
    return result

