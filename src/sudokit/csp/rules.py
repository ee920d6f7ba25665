"""Filtering of the rules drawn on a grid (:mod:`sudokit.model.rules`), one propagator per kind.

A filter takes the candidates of a rule's cells (masks, bit ``d`` for digit ``d``, the CSP
core's convention) and returns, per cell, the candidates some assignment of the whole rule
from those candidates supports (generalised arc consistency, GAC), or None when no assignment
keeps the rule. Every filter is exact on singletons: when each cell has one candidate it
returns None unless the digits keep the rule, so a search that fills every cell through the
filters only reaches grids that keep every rule.

* **pair relation**: a digit of one cell stays when some digit of the other forms an allowed
  pair with it (the supports of AC-3, Mackworth 1977), from per-digit support masks;
* **weighted sum**: a dynamic programme over the cells in order, the reachable partial sums of
  a layer kept as one integer bit set (Trick 2003, "A dynamic programming approach for
  consistency and propagation for knapsack constraints"): forward sums from the first cell,
  backward sums still completing the total, and a digit stays when it joins the two;
* **automaton**: Pesant's filtering of the regular constraint (Pesant 2004, CP): the states
  reachable from the start layer by layer, those from which an accepting state is reachable,
  and a digit stays where it links a reachable state to a co-reachable one;
* **must-contain**: each listed digit needs as many cells that can hold it as it is listed;
  when it has exactly that many, they hold it; when the digits fill the cells, no cell holds
  another digit;
* **renban**: the windows of consecutive digits every cell can take a digit of (and whose
  every digit some cell can take); a digit stays when a window holds it; a placed digit leaves
  the other cells;
* **between and lockout lines**: every pair of end digits is tried (at most N**2): a pair stays
  when every middle cell has a digit inside (between) or outside (lockout) its range;
* **indexing**: a digit d of the indexing cell stays when its d-th target can hold the value;
  once d is placed the target holds the value.

Each filter remembers its last results (per candidate state) because a propagation loop asks
the same question again after unrelated changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

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
from .model import values_of

__all__ = ["Filter", "rule_filter"]

Filter = Callable[[Sequence[int]], "tuple[int, ...] | None"]
"""A rule's filter: candidate masks of its cells in, supported masks (or None) out."""

_MEMO = 2048


_LARGE = 1 << 11
_SMALL = tuple(tuple(values_of(m)) for m in range(_LARGE))
""":func:`values_of` of every mask below :data:`_LARGE` (bit d for digit d of a 9x9 or smaller
grid): the filters' inner loops read it instead of calling (half their time on a little killer's
fillings search, :func:`sudokit.logic.rule_filters.fillings`)."""


def rule_filter(rule: Rule, side: int) -> Filter:
    """The filter of one rule for digits 1..``side`` (see the module docstring), remembering
    its recent answers.

    >>> from sudokit.model.rulebook import thermometer
    >>> f = rule_filter(thermometer([0, 1], 9)[0], 9)
    >>> [bin(m) for m in f([0b1111111110, 0b0000000110])]  # bulb 1..9, tip 1..2: 1 < 2
    ['0b10', '0b100']
    """
    core = _core(rule, side)
    memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}

    def filtered(domains: Sequence[int]) -> tuple[int, ...] | None:
        key = tuple(domains)
        if key in memo:
            return memo[key]
        if len(memo) > _MEMO:
            memo.clear()
        answer = memo[key] = core(key)
        return answer

    return filtered


def _relation(rule: Relation, side: int) -> Filter:
    forward, backward = _pair_masks(rule.pairs, side)

    def core(doms: Sequence[int]) -> tuple[int, ...] | None:
        a, b = doms
        keep_a = sum(1 << x for x in (_SMALL[a] if a < _LARGE else values_of(a))
                     if forward[x] & b)
        keep_b = sum(1 << y for y in (_SMALL[b] if b < _LARGE else values_of(b))
                     if backward[y] & a)
        return (keep_a, keep_b) if keep_a and keep_b else None

    return core


@lru_cache(maxsize=1024)
def _pair_masks(pairs: frozenset[tuple[int, int]], side: int) -> tuple[list[int], list[int]]:
    """Per digit, the mask of partner digits: of the second cell, of the first cell."""
    forward, backward = [0] * (side + 1), [0] * (side + 1)
    for x, y in pairs:
        forward[x] |= 1 << y
        backward[y] |= 1 << x
    return forward, backward


def _weighted_sum(rule: WeightedSum, side: int) -> Filter:
    ks = rule.coefficients
    offset = sum(-k * side for k in ks if k < 0)  # every partial sum + offset >= 0
    goal = rule.total + offset

    def core(doms: Sequence[int]) -> tuple[int, ...] | None:
        if goal < 0:
            return None
        n = len(doms)
        forward = [1 << offset]
        for k, dom in zip(ks, doms):
            reach, last = 0, forward[-1]
            for d in _SMALL[dom] if dom < _LARGE else values_of(dom):
                step = k * d
                reach |= last << step if step >= 0 else last >> -step
            forward.append(reach)
        if not forward[n] >> goal & 1:
            return None
        backward = 1 << goal
        keep = [0] * n
        for i in range(n - 1, -1, -1):
            k, before, reach = ks[i], forward[i], 0
            dom = doms[i]
            for d in _SMALL[dom] if dom < _LARGE else values_of(dom):
                step = k * d
                back = backward >> step if step >= 0 else backward << -step
                if back & before:
                    keep[i] |= 1 << d
                    reach |= back
            backward = reach
        return tuple(keep)

    return core


def _automaton(rule: Automaton, side: int) -> Filter:
    # per state, its live moves (digit bit, next state): dead transitions are never visited
    moves = [[(1 << d, nxt) for d, nxt in enumerate(row, 1) if nxt >= 0]
             for row in rule.transitions]
    accepting, start = rule.accepting, rule.start

    def core(doms: Sequence[int]) -> tuple[int, ...] | None:
        layers = [{start}]
        for dom in doms:
            layers.append({nxt for q in layers[-1] for bit, nxt in moves[q] if dom & bit})
        alive = layers[-1] & accepting
        if not alive:
            return None
        keep = [0] * len(doms)
        for i in range(len(doms) - 1, -1, -1):
            back, dom, used = set(), doms[i], 0
            for q in layers[i]:
                for bit, nxt in moves[q]:
                    if dom & bit and nxt in alive:
                        used |= bit
                        back.add(q)
            keep[i] = used
            alive = back
        return tuple(keep)

    return core


def _contains(rule: Contains, side: int) -> Filter:
    wanted = {d: rule.digits.count(d) for d in set(rule.digits)}
    full = len(rule.digits) == len(rule.cells)
    allowed = sum(1 << d for d in wanted)

    def core(doms: Sequence[int]) -> tuple[int, ...] | None:
        keep = list(doms)
        if full:
            keep = [m & allowed for m in keep]
        for d, count in wanted.items():
            bit = 1 << d
            able = [i for i, m in enumerate(keep) if m & bit]
            if len(able) < count:
                return None
            if len(able) == count:
                for i in able:
                    keep[i] = bit
        return None if not all(keep) else tuple(keep)

    return core


def _renban(rule: Renban, side: int) -> Filter:
    size = len(rule.cells)
    windows = [((1 << (lo + size)) - 1) ^ ((1 << lo) - 1) for lo in range(1, side - size + 2)]

    def core(doms: Sequence[int]) -> tuple[int, ...] | None:
        placed = 0
        for m in doms:
            if not m & (m - 1):
                if m & placed:
                    return None
                placed |= m
        doms = [m if not m & (m - 1) else m & ~placed for m in doms]
        fits = 0
        for w in windows:
            inside = [m & w for m in doms]
            if all(inside) and _covered(inside, w):
                fits |= w
        keep = tuple(m & fits for m in doms)
        return keep if all(keep) else None

    return core


def _covered(inside: Sequence[int], window: int) -> bool:
    """Whether every digit of the window has a cell that can take it."""
    union = 0
    for m in inside:
        union |= m
    return union == window


def _ends(rule: Between | Lockout, side: int) -> Filter:
    """Between and lockout lines: every pair of end digits tried."""
    between = isinstance(rule, Between)
    gap = rule.gap if isinstance(rule, Lockout) else 0
    full = (1 << (side + 1)) - 2

    def middle(lo: int, hi: int) -> int:
        span = ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)  # lo < d < hi
        return span if between else full & ~(span | 1 << lo | 1 << hi)

    def core(doms: Sequence[int]) -> tuple[int, ...] | None:
        first, last, inner = doms[0], doms[-1], doms[1:-1]
        keep = [0] * len(doms)
        for a in values_of(first):
            for b in values_of(last):
                lo, hi = min(a, b), max(a, b)
                if hi - lo < gap:
                    continue
                allowed = middle(lo, hi)
                if all(m & allowed for m in inner):
                    keep[0] |= 1 << a
                    keep[-1] |= 1 << b
                    for i, m in enumerate(inner, 1):
                        keep[i] |= m & allowed
        return tuple(keep) if all(keep) else None

    return core


def _index(rule: Index, side: int) -> Filter:
    targets, bit = rule.targets, 1 << rule.value

    def core(doms: Sequence[int]) -> tuple[int, ...] | None:
        keep = list(doms)
        pointer = 0
        for d in values_of(doms[0]):
            if d <= len(targets) and (doms[targets[d - 1]] & bit if targets[d - 1]
                                      else d == rule.value):
                pointer |= 1 << d
        if not pointer:
            return None
        keep[0] = pointer
        if not pointer & (pointer - 1):
            at = targets[pointer.bit_length() - 2]
            keep[at] &= bit
        return tuple(keep) if all(keep) else None

    return core


def _core(rule: Rule, side: int) -> Filter:
    """The filter of one rule by its class, not yet remembering its answers."""
    match rule:
        case Relation():
            return _relation(rule, side)
        case WeightedSum():
            return _weighted_sum(rule, side)
        case Automaton():
            return _automaton(rule, side)
        case Contains():
            return _contains(rule, side)
        case Renban():
            return _renban(rule, side)
        case Between() | Lockout():
            return _ends(rule, side)
        case Index():
            return _index(rule, side)
    raise TypeError(f"no filter for a {type(rule).__name__} rule")
