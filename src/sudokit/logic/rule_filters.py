"""The filters of the rules on a grid, for the candidates state and the rule techniques.

:func:`filters` pairs each rule of a geometry with its filter
(:func:`sudokit.csp.rules.rule_filter`), killer cages and the non-consecutive rule included as
rules; :func:`rule_contradiction` is the state's check that some filling keeps every rule.
:func:`peer_filters` are the same filters where a rule's cells that see each other differ
(a pair relation on two peers loses its equal pairs; another rule's fillings are searched,
:func:`fillings`), for the rule forcing chains that follow an assumption further. The search of
a weighted sum or an automaton runs compiled (:mod:`sudokit.logic._fillings_kernel`, the same
search node for node) once the technique engine is (:func:`searched_fillings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING, NamedTuple

from ..compiled import Kernels, twin, use_compiled
from ..csp.rules import Filter, rule_filter
from ..model.geometry import Geometry
from ..model.rules import Automaton, Relation, Rule, WeightedSum
from .deadline import check_deadline
from .tables import per_geometry

if TYPE_CHECKING:
    import numpy as np

__all__ = ["NODES", "FillingsPlan", "Watch", "board_watch", "cell_rules", "compile_fillings",
           "filter_round", "fillings", "filters", "later_peers", "peer_filters", "plans",
           "rule_contradiction", "searched_fillings", "supported"]

NODES = 3000
"""The most partial fillings :func:`fillings` tries on one rule before it gives up."""


@per_geometry
def filters(geometry: Geometry) -> tuple[tuple[Rule, Filter], ...]:
    """Each rule of the geometry with its filter (made once per geometry); a killer cage with
    a total counts as a sum (its digits differ as peers: the rule steps with peers see that), and the
    non-consecutive rule as a pair relation on each two orthogonal neighbours."""
    n = geometry.side
    cages = tuple(WeightedSum.of([(c, 1) for c in cage.cells], cage.total, "killer cage")
                  for cage in geometry.cages if cage.total)
    apart = frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1)
                      if abs(a - b) != 1)
    neighbours = tuple(Relation((a, b), apart, "non-consecutive pair")
                       for a, b in geometry.consecutive_pairs)
    return tuple((rule, rule_filter(rule, n))
                 for rule in geometry.constraints + cages + neighbours)


def supported(masks: Sequence[int], rule: Rule, filtered: Filter
              ) -> tuple[list[int], tuple[int, ...] | None]:
    """The candidates of the rule's cells (bit d for digit d, the filters' convention) and
    what its filter keeps of them (None: no filling keeps the rule)."""
    domains = [masks[c] << 1 for c in rule.cells]
    return domains, filtered(domains)


def rule_contradiction(geometry: Geometry, masks: Sequence[int]) -> str | None:
    """Why no filling of the candidates ``masks`` (bit d-1 for digit d) keeps some rule of
    the geometry, or None."""
    for rule, filtered in filters(geometry):
        if supported(masks, rule, filtered)[1] is None:
            return f"{rule.describe(geometry.label)} cannot be kept"
    return None


def filter_round(geometry: Geometry, masks: list[int], peers: bool = False,
                 watch: Watch | None = None) -> str | dict[int, int]:
    """Apply every rule's filter once to ``masks`` (changed in place): per cell changed, one
    digit it lost; or the rule (described) no filling keeps. ``peers``: the filters where
    the rule's cells that see each other differ (:func:`peer_filters`). ``watch``: the
    candidates the rounds before saw (:func:`board_watch`, updated here); a rule none of whose
    cells changed since it last kept everything is passed over (a filter's answer depends on
    its cells' candidates only: the same answer as running it).

    Raises:
        LimitReached: the deadline of the solve running (:mod:`sudokit.logic.deadline`)
            passed, checked once a round.
    """
    check_deadline()
    pairs = (peer_filters if peers else filters)(geometry)
    of_cell = cell_rules(geometry)
    due = (1 << len(pairs)) - 1  # bit i for rule i: the rules still to run this round
    if watch is not None:
        due = watch.due
        for c in compress(range(len(masks)), map(ne, masks, watch.seen)):
            due |= of_cell[c]
        watch.seen, watch.due = list(masks), 0
    changed: dict[int, int] = {}
    while due:
        low = due & -due
        due ^= low
        rule, filtered = pairs[low.bit_length() - 1]
        domains = tuple([masks[c] << 1 for c in rule.cells])  # the filters' memo key as is
        kept = filtered(domains)
        if kept is None:
            return rule.describe(geometry.label)
        if kept == domains:  # most rules of a round keep everything (one C comparison)
            continue
        for c, dom, keep in zip(rule.cells, domains, kept):
            if dom != keep:
                masks[c] = keep >> 1
                lost = dom & ~keep
                changed[c] = (lost & -lost).bit_length() - 1  # its lowest digit
                due |= of_cell[c] & ~(low | (low - 1))  # the later rules on it run
    return changed


class Watch:
    """What :func:`filter_round` saw of a grid's candidates, to pass over the rules none of
    whose cells changed since (one per assumption and kind of filter: copy it with
    :meth:`copy`).

    Attributes:
        seen: the candidates (N*N masks, bit d-1 for digit d) when the last round started.
        due: rules (bit i for rule i of :func:`filters`) that must run in the next round
            whatever changed (those that did not keep everything of ``seen``).
    """

    __slots__ = ("due", "seen")

    def __init__(self, seen: list[int], due: int) -> None:
        self.seen, self.due = seen, due

    def copy(self) -> Watch:
        """A watch of its own (``seen`` is replaced, never changed in place: shared)."""
        return Watch(self.seen, self.due)


def board_watch(geometry: Geometry, masks: Sequence[int], peers: bool = False) -> Watch:
    """The :class:`Watch` of candidates ``masks`` before any round: each rule whose filter
    (``peers``: :func:`peer_filters`) does not keep every candidate of ``masks`` is due. The
    last few are remembered (the forcing chains assume every candidate of one board)."""
    key = (id(geometry), peers, tuple(masks))
    hit = _WATCHED.get(key)
    if hit is not None and hit[0] is geometry:
        return hit[1].copy()
    due = 0
    for i, (rule, filtered) in enumerate((peer_filters if peers else filters)(geometry)):
        domains = tuple([masks[c] << 1 for c in rule.cells])
        if filtered(domains) != domains:
            due |= 1 << i
    if len(_WATCHED) >= 8:
        _WATCHED.clear()
    watch = Watch(list(masks), due)
    _WATCHED[key] = (geometry, watch)
    return watch.copy()


_WATCHED: dict[tuple, tuple[Geometry, Watch]] = {}


@per_geometry
def cell_rules(geometry: Geometry) -> tuple[int, ...]:
    """Per cell, the rules of :func:`filters` on it as a bit set (bit i for rule i)."""
    out = [0] * geometry.n_cells
    for i, (rule, _filtered) in enumerate(filters(geometry)):
        for c in set(rule.cells):
            out[c] |= 1 << i
    return tuple(out)


@per_geometry
def peer_filters(geometry: Geometry) -> tuple[tuple[Rule, Filter], ...]:
    """Each rule of :func:`filters` with a filter that also keeps its cells that are peers
    different: a pair relation on two peers without its equal pairs, another rule with peers
    among its cells by :func:`fillings` after its own filter (its own filter alone when the
    search passes :data:`NODES`)."""
    out = []
    for (rule, filtered), plan in zip(filters(geometry), plans(geometry)):
        if plan is None:
            out.append((rule, filtered))
        elif isinstance(rule, Relation):
            unequal = frozenset((a, b) for a, b in rule.pairs if a != b)
            out.append((rule, rule_filter(Relation(rule.cells, unequal, rule.name),
                                          geometry.side)))
        else:
            out.append((rule, _searched(plan)))
    return tuple(out)


@per_geometry
def plans(geometry: Geometry) -> tuple[FillingsPlan | None, ...]:
    """Per rule of :func:`filters`, its fillings search (:func:`searched_fillings`) when some
    of its cells are peers, else None."""
    out: list[FillingsPlan | None] = []
    for rule, filtered in filters(geometry):
        later = later_peers(geometry, rule.cells)
        out.append(FillingsPlan(rule, geometry.side, filtered, later) if any(later) else None)
    return tuple(out)


def _searched(plan: FillingsPlan) -> Filter:
    """``filtered``, then :func:`fillings` on what it keeps. A search that passed
    :data:`NODES` is remembered (the last :data:`_EXHAUSTED`): on domains holding those
    (each cell's a superset) the search tree holds that one's (the filters are monotone), so it
    passes too and is not run again."""
    memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}
    exhausted: list[tuple[int, ...]] = []
    filtered = plan.filtered

    def search(domains: Sequence[int]) -> tuple[int, ...] | None:
        key = tuple(domains)
        if key not in memo:
            check_deadline()  # a search of up to NODES fillings: tens of ms in Python
            if len(memo) > 4096:
                memo.clear()
            kept = filtered(key)
            found = None
            if kept is not None and not any(all(a | b == a for a, b in zip(kept, small))
                                            for small in exhausted):
                found, spent = searched_fillings(plan, list(kept))
                if spent:
                    exhausted[:] = [*exhausted[1 - _EXHAUSTED:], kept]
            memo[key] = kept if found is None else (tuple(found) if all(found) else None)
        return memo[key]

    return search


_EXHAUSTED = 32
"""How many searches past :data:`NODES` each rule's searched filter remembers."""


def later_peers(geometry: Geometry, cells: Sequence[int]) -> list[list[int]]:
    """Per position in ``cells``, the later positions whose cells are its peers."""
    peers = geometry.peers
    return [[j for j in range(i + 1, len(cells)) if cells[j] in peers[cells[i]]]
            for i in range(len(cells))]


class _Stop(Exception):
    """The search of :func:`fillings` is over early."""


def fillings(domains: list[int], later: list[list[int]], filtered: Filter) -> list[int] | None:
    """Per cell, the digits of the fillings of ``domains`` (bit d for digit d) that keep the
    rule (its ``filtered``) with peers distinct (``later``: :func:`later_peers`), a depth-first
    search with the filter at every node; None when the search passes :data:`NODES` partial
    fillings or every candidate is supported (nothing to remove)."""
    return _fillings(domains, later, filtered)[0]


def _fillings(domains: list[int], later: list[list[int]], filtered: Filter
              ) -> tuple[list[int] | None, bool]:
    """:func:`fillings`, and whether its search passed :data:`NODES`."""
    n, supported, budget = len(domains), [0] * len(domains), [NODES]

    def walk(doms: list[int], i: int) -> None:
        if i == n:
            for k in range(n):
                supported[k] |= doms[k]
            if supported == domains:
                raise _Stop
            return
        for d in _DIGITS[doms[i]] if doms[i] < len(_DIGITS) else _digits(doms[i]):
            budget[0] -= 1
            if budget[0] < 0:
                raise _Stop
            bit = 1 << d
            nxt = list(doms)
            nxt[i] = bit
            for j in later[i]:
                nxt[j] &= ~bit
            kept = filtered(nxt) if all(nxt) else None
            if kept is not None:
                walk(list(kept), i + 1)

    try:
        walk(domains, 0)
    except _Stop:
        return None, budget[0] < 0
    return supported, False


def _digits(mask: int) -> tuple[int, ...]:
    return tuple(d for d in range(mask.bit_length()) if mask >> d & 1)


_DIGITS = tuple(_digits(m) for m in range(1 << 11))
"""The set bits of every mask of a 9x9 (or smaller) grid's filters, bit d for digit d."""


class _Arrays(NamedTuple):
    """The constant arguments of the fillings kernel for one rule (the other kind's are
    placeholders of the same types) and the sizes of its scratch arrays."""

    later: np.ndarray  # int64[n, n] the later peers, padded with -1
    sums: tuple[np.ndarray, int, int]  # int64[n] coefficients, offset, goal
    moves: tuple[np.ndarray, np.ndarray, np.ndarray, int]  # bits, nexts, accepting, start
    width: int  # uint64 words of a sum's bit set
    states: int  # the automaton's states


class FillingsPlan:
    """One rule's fillings search (:func:`searched_fillings`): its filter and later peers,
    and for a weighted sum or an automaton the arrays of the compiled search
    (:func:`sudokit.logic._fillings_kernel.fillings`), made on its first compiled search.

    Attributes:
        rule: the rule searched; side: the grid's side (digits 1..side).
        filtered: its filter (:func:`sudokit.csp.rules.rule_filter`).
        later: per position in its cells, the later positions that are peers
            (:func:`later_peers`).
        kind: the kernel's filter (``SUM`` 0, ``AUTOMATON`` 1), None for the other kinds
            (their search stays Python).
    """

    def __init__(self, rule: Rule, side: int, filtered: Filter, later: list[list[int]]) -> None:
        self.rule, self.side, self.filtered, self.later = rule, side, filtered, later
        self.kind = (0 if isinstance(rule, WeightedSum) else 1 if isinstance(rule, Automaton)
                     else None)
        self._arrays: _Arrays | None = None

    def arrays(self) -> _Arrays:
        """The kernel's constant arguments (made once)."""
        if self._arrays is None:
            self._arrays = _kernel_arrays(self)
        return self._arrays


def _kernel_arrays(plan: FillingsPlan) -> _Arrays:
    import numpy as np

    n, rule, side = len(plan.later), plan.rule, plan.side
    later = np.full((n, n), -1, np.int64)
    for i, peers in enumerate(plan.later):
        later[i, :len(peers)] = peers
    sums, width = (np.ones(1, np.int64), 0, 0), 1
    moves, states = (np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64),
                     np.zeros(1, np.uint8), 0), 1
    if isinstance(rule, WeightedSum):
        offset = sum(-k * side for k in rule.coefficients if k < 0)
        sums = (np.array(rule.coefficients, np.int64), offset, rule.total + offset)
        width = (offset + sum(k * side for k in rule.coefficients if k > 0)) // 64 + 1
    elif isinstance(rule, Automaton):
        live = [[(1 << d, nxt) for d, nxt in enumerate(row, 1) if nxt >= 0]
                for row in rule.transitions]
        states = len(live)
        bits = np.zeros((states, max(1, *map(len, live))), np.int64)
        nexts = np.zeros_like(bits)
        for q, row in enumerate(live):
            for k, (bit, nxt) in enumerate(row):
                bits[q, k], nexts[q, k] = bit, nxt
        accepting = np.array([q in rule.accepting for q in range(states)], np.uint8)
        moves = (bits, nexts, accepting, rule.start)
    return _Arrays(later, sums, moves, width, states)


def _compiled(plan: FillingsPlan, domains: list[int]) -> tuple[list[int] | None, bool]:
    """:func:`_fillings` by the kernel (the same answer); its scratch arrays made per call
    (the kernel releases the GIL: threads may search one rule at once)."""
    import numpy as np

    from ._fillings_kernel import DONE, PASSED, fillings as kernel

    a, n = plan.arrays(), len(domains)
    out = np.zeros(n, np.int64)
    words = [np.zeros(a.width, np.uint64) for _ in range(3)]
    flags = [np.zeros(a.states, np.uint8) for _ in range(2)]
    status = kernel(plan.kind, np.array(domains, np.int64), a.later, NODES,
                    np.zeros((n + 1, n), np.int64), np.zeros(n + 1, np.int64), out,
                    (*a.sums, np.zeros((n + 1, a.width), np.uint64), *words),
                    (*a.moves, np.zeros((n + 1, a.states), np.uint8), *flags))
    if status == DONE:
        return out.tolist(), False
    return None, status == PASSED


@twin(Kernels.LOGIC, "sudokit.logic._fillings_kernel:fillings",
      "sudokit.logic.rule_filters:_fillings", "rule fillings")
def searched_fillings(plan: FillingsPlan, domains: list[int]
                      ) -> tuple[list[int] | None, bool]:
    """:func:`fillings` of ``domains`` (bit d for digit d, already filtered) under
    ``plan``'s rule, and whether the search passed :data:`NODES`: compiled for a weighted sum
    or an automaton once the technique engine is (:func:`sudokit.compiled.use_compiled`),
    else in Python; the same answer either way."""
    if plan.kind is not None and use_compiled(Kernels.LOGIC):
        return _compiled(plan, domains)
    return _fillings(domains, plan.later, plan.filtered)


def compile_fillings() -> None:
    """Compile (or load from the disk cache) the fillings kernel: a search of a weighted sum
    and one of an automaton on three cells that see each other (the technique engine's
    warm-up runs it: :meth:`sudokit.solvers.logic.LogicSolver.warm_up`)."""
    rules = (WeightedSum.of([(0, 1), (1, 1), (2, 1)], 6, "warm-up"),
             Automaton((0, 1, 2), ((1, 1, 1), (2, 2, 2), (3, 3, 3), (3, 3, 3)), frozenset({3})))
    for rule in rules:
        plan = FillingsPlan(rule, 3, rule_filter(rule, 3), [[1, 2], [2], []])
        _compiled(plan, [0b1110] * 3)
