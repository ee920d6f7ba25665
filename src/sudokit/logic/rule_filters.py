"""The filters of the rules on a grid, for the candidates state and the rule techniques.

:func:`filters` pairs each rule of a geometry with its filter
(:func:`sudokit.csp.rules.rule_filter`), killer cages and the non-consecutive rule included as
rules; :func:`rule_contradiction` is the state's check that some filling keeps every rule.
:func:`peer_filters` are the same filters where a rule's cells that see each other differ
(a pair relation on two peers loses its equal pairs; another rule's fillings are searched,
:func:`fillings`), for the rule forcing chains that follow an assumption further.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..csp.rules import Filter, rule_filter
from ..model.geometry import Geometry
from ..model.rules import Relation, Rule, WeightedSum
from .deadline import check_deadline
from .tables import per_geometry

__all__ = ["NODES", "filter_round", "fillings", "filters", "later_peers", "peer_filters",
           "rule_contradiction", "supported"]

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


def filter_round(geometry: Geometry, masks: list[int], peers: bool = False
                 ) -> str | dict[int, int]:
    """Apply every rule's filter once to ``masks`` (changed in place): per cell changed, one
    digit it lost; or the rule (described) no filling keeps. ``peers``: the filters where
    the rule's cells that see each other differ (:func:`peer_filters`).

    Raises:
        LimitReached: the deadline of the solve running (:mod:`sudokit.logic.deadline`)
            passed, checked once a round.
    """
    check_deadline()
    changed: dict[int, int] = {}
    for rule, filtered in (peer_filters if peers else filters)(geometry):
        domains = [masks[c] << 1 for c in rule.cells]
        kept = filtered(domains)
        if kept is None:
            return rule.describe(geometry.label)
        for c, dom, keep in zip(rule.cells, domains, kept):
            if dom != keep:
                masks[c] = keep >> 1
                lost = dom & ~keep
                changed[c] = (lost & -lost).bit_length() - 1  # its lowest digit
    return changed


@per_geometry
def peer_filters(geometry: Geometry) -> tuple[tuple[Rule, Filter], ...]:
    """Each rule of :func:`filters` with a filter that also keeps its cells that are peers
    different: a pair relation on two peers without its equal pairs, another rule with peers
    among its cells by :func:`fillings` after its own filter (its own filter alone when the
    search passes :data:`NODES`)."""
    out = []
    for rule, filtered in filters(geometry):
        later = later_peers(geometry, rule.cells)
        if not any(later):
            out.append((rule, filtered))
        elif isinstance(rule, Relation):
            unequal = frozenset((a, b) for a, b in rule.pairs if a != b)
            out.append((rule, rule_filter(Relation(rule.cells, unequal, rule.name),
                                          geometry.side)))
        else:
            out.append((rule, _searched(filtered, later)))
    return tuple(out)


def _searched(filtered: Filter, later: list[list[int]]) -> Filter:
    """``filtered``, then :func:`fillings` on what it keeps. A search that passed
    :data:`NODES` is remembered (the last :data:`_EXHAUSTED`): on domains holding those
    (each cell's a superset) the search tree holds that one's (the filters are monotone), so it
    passes too and is not run again."""
    memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}
    exhausted: list[tuple[int, ...]] = []

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
                found, spent = _fillings(list(kept), later, filtered)
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
