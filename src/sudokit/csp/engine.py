"""Domains with an undo trail, ``revise``, AC-3 and forward checking on a compiled :class:`CSP`.

One :class:`Engine` holds the state of a search: a bit-set domain per variable, the current
assignment, and a trail of ``(variable, old_domain)`` changes so that backtracking undoes by
popping (python-constraint's push/pop idea) and no state is ever copied.

Counting conventions (the :class:`~sudokit.model.result.Stats` fields):

* ``revisions``: calls of ``revise`` (Mackworth 1977);
* ``checks``: constraint checks, one per constraint evaluated on bit sets: a ``revise``, one
  neighbour tested by forward checking, one assigned neighbour (or full sum) tested by plain
  backtracking;
* ``propagations``: values removed from domains by inference;
* ``max_queue``: the longest AC-3 queue seen; with tracing on, ``trace`` gets the queue length
  after every AC-3 step, and 0 when a call ends (so the plot drops to zero between calls).

References: A. K. Mackworth, "Consistency in networks of relations", Artificial Intelligence 8,
1977 (AC-3); R. M. Haralick and G. L. Elliott, "Increasing tree search efficiency for constraint
satisfaction problems", Artificial Intelligence 14, 1980 (forward checking); Russell and Norvig,
AIMA ch. 6 (MAC); bounds consistency of linear sums as in K. Apt, "Principles of Constraint
Programming", 2003, ch. 6; generalised arc consistency of killer cages by digit combinations
(:mod:`sudokit.csp.cages`; C. Bessiere, "Constraint propagation", Handbook of Constraint
Programming, 2006).

Special constraints (:data:`~sudokit.csp.model.Special`) are revised through the same arcs and
queue as ``!=`` arcs, so the counters and the AC-3 trace cover them: a linear sum by bounds, a
non-consecutive pair by removing the values whose every support is next to them, a cage by its
combinations (the cage's supports are computed once per state of its domains and shared by the
cage's arcs), a rule drawn on a grid by its own filter (:mod:`sudokit.csp.rules`, shared the
same way).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Protocol, cast

from ..model.result import Stats
from .cages import cage_supports
from .model import CSP, CageSum, Filtered, LinearSum

__all__ = ["Engine", "sum_bounds"]

_UNSEEN = (-1,)
"""The cage memo's answer for a key not seen (a tuple, as the answers are; never one)."""


class _Counted(Protocol):
    """The counters an engine adds to: a :class:`Stats` whose fields are ints, not None."""

    revisions: int
    checks: int
    propagations: int
    max_queue: int


def sum_bounds(coeff: int, lo: int, hi: int, total: int) -> int:
    """Return the bit set of values x with ``coeff * x + r == total`` for some r in [lo, hi].

    >>> bin(sum_bounds(1, 3, 5, 9))  # x in 4..6
    '0b1110000'
    """
    a, b = total - hi, total - lo  # coeff * x must lie in [a, b]
    if coeff < 0:
        a, b, coeff = -b, -a, -coeff
    vmin, vmax = max(0, -(-a // coeff)), b // coeff
    if vmax < vmin:
        return 0
    return ((1 << (vmax + 1)) - 1) ^ ((1 << vmin) - 1)


class Engine:
    """The mutable state of one search over a CSP.

    Attributes:
        dom: per variable, its domain as a bit set (bit v: value v possible).
        value: per variable, its assigned value or None.
        trail: ``(variable, old_domain)`` changes, newest last; :meth:`undo` pops them.
        stats: counters, modified in place (the fields named in the module docstring must be
            ints, not None).
    """

    def __init__(self, csp: CSP, stats: Stats) -> None:
        t = csp.tables
        self.csp = csp
        self.t = t
        self.dom = list(csp.domains)
        self.value: list[int | None] = [None] * csp.n_variables
        self.trail: list[tuple[int, int]] = []
        self.stats = stats
        self._counted = cast(_Counted, stats)  # the same object, its counters known to be ints
        self.in_queue = bytearray(len(t.arc_var))
        self._cage_memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}

    def set_domain(self, var: int, mask: int) -> None:
        """Replace the domain of ``var`` by ``mask``, recording the old one on the trail."""
        self.trail.append((var, self.dom[var]))
        self.dom[var] = mask

    def undo(self, mark: int) -> None:
        """Restore every domain changed since the trail had length ``mark``."""
        trail, dom = self.trail, self.dom
        while len(trail) > mark:
            var, old = trail.pop()
            dom[var] = old

    def assign_initial(self, assignment: Mapping[int, int]) -> bool:
        """Fix the initial assignment (givens); False when a value is outside its domain."""
        for var, val in assignment.items():
            bit = 1 << val
            if not self.dom[var] & bit:
                return False
            self.set_domain(var, bit)
            self.value[var] = val
        return True

    def revise_sum(self, arc: int) -> int:
        """Return the domain of the special arc's variable made consistent with its constraint:
        bounds consistent with a linear sum, arc consistent with a non-consecutive pair,
        generalised arc consistent with a cage."""
        t, dom = self.t, self.dom
        x, c = t.arc_var[arc], t.sums[-1 - t.arc_other[arc]]
        if isinstance(c, (CageSum, Filtered)):
            key = (-1 - t.arc_other[arc], *(dom[v] for v in c.variables))
            supports = self._cage_memo.get(key, _UNSEEN)
            if supports is _UNSEEN:
                if len(self._cage_memo) > 4096:
                    self._cage_memo.clear()
                domains = [dom[v] for v in c.variables]
                supports = (c.prune(domains) if isinstance(c, Filtered)
                            else cage_supports(domains, c.total, c.side))
                self._cage_memo[key] = supports
            return 0 if supports is None else dom[x] & supports[c.variables.index(x)]
        if not isinstance(c, LinearSum):  # non-consecutive: y's values must not all be next
            dy = dom[c.y if x == c.x else c.x]
            low = dy & -dy
            if dy == low:
                return dom[x] & ~((low >> 1) | (low << 1))
            if dy == low | (low << 2):
                return dom[x] & ~(low << 1)
            return dom[x]
        lo = hi = 0
        own = 0
        for var, k in zip(c.variables, c.coeffs):
            if var == x:
                own = k
                continue
            d = dom[var]
            small, large = (d & -d).bit_length() - 1, d.bit_length() - 1
            lo += k * (small if k > 0 else large)
            hi += k * (large if k > 0 else small)
        return dom[x] & sum_bounds(own, lo, hi, c.total)

    def revise(self, arc: int) -> bool:
        """Revise ``dom[xi]`` against arc ``(xi, xj)`` (or xi's sum); True when it shrank."""
        st, t, dom = self._counted, self.t, self.dom
        st.revisions += 1
        st.checks += 1
        x, y = t.arc_var[arc], t.arc_other[arc]
        if y >= 0:
            dy = dom[y]
            new = dom[x] & ~dy if dy & (dy - 1) == 0 else dom[x]
        else:
            new = self.revise_sum(arc)
        if new == dom[x]:
            return False
        st.propagations += (dom[x] ^ new).bit_count()
        self.set_domain(x, new)
        return True

    def ac3(self, arcs: Iterable[int], trace: list[int] | None = None) -> bool:
        """Run AC-3 from the given arcs to a fixpoint; False when a domain is wiped out.

        The loop is :meth:`revise` inlined for ``!=`` arcs (same counts, no call per arc).

        Args:
            arcs: arc ids to queue first (every arc for a full AC-3; the watchers of the
                assigned variable for MAC).
            trace: when a list, the queue length after every step is appended, then 0.
        """
        st, t, dom, in_queue, trail = self._counted, self.t, self.dom, self.in_queue, self.trail
        queue: deque[int] = deque()
        for a in arcs:
            if not in_queue[a]:
                in_queue[a] = 1
                queue.append(a)
        watchers, reverse, arc_var, arc_other = t.watchers, t.reverse, t.arc_var, t.arc_other
        popleft, push = queue.popleft, queue.append
        longest, steps, removed, ok = max(st.max_queue, len(queue)), len(queue), 0, True
        while queue:
            a = popleft()
            in_queue[a] = 0
            x, y = arc_var[a], arc_other[a]
            old = dom[x]
            if y >= 0:
                dy = dom[y]
                new = old & ~dy if not dy & (dy - 1) else old
            else:
                new = self.revise_sum(a)
            if new != old:
                removed += (old ^ new).bit_count()
                trail.append((x, old))
                dom[x] = new
                if not new:
                    ok = False
                    break
                back, before = reverse[a], len(queue)
                for b in watchers[x]:
                    if b != back and not in_queue[b]:
                        in_queue[b] = 1
                        push(b)
                steps += len(queue) - before
                if len(queue) > longest:
                    longest = len(queue)
            if trace is not None:
                trace.append(len(queue))
        steps -= len(queue)  # arcs queued but never revised (a wipe-out stopped the loop)
        for a in queue:
            in_queue[a] = 0
        if trace is not None and (not trace or trace[-1]):
            trace.append(0)
        st.revisions += steps
        st.checks += steps
        st.propagations += removed
        st.max_queue = longest
        return ok

    def forward_check(self, var: int) -> bool:
        """Prune the just-assigned ``var``'s value from unassigned neighbours (and revise its
        sums' unassigned variables once); False when a domain is wiped out."""
        st, dom, value = self._counted, self.dom, self.value
        bit = dom[var]
        for y in self.t.neighbours[var]:
            if value[y] is None:
                st.checks += 1
                if dom[y] & bit:
                    st.propagations += 1
                    self.set_domain(y, dom[y] & ~bit)
                    if not dom[y]:
                        return False
        for s in self.t.sums_of[var]:
            for x, arc in zip(self.t.sums[s].variables, self.t.sum_arcs[s]):
                if value[x] is None and self.revise(arc) and not dom[x]:
                    return False
        return True

    def consistent(self, var: int, val: int) -> bool:
        """Whether ``var = val`` agrees with every assigned neighbour and every sum whose other
        variables are all assigned (plain backtracking's test)."""
        st, value = self._counted, self.value
        known = cast("list[int]", value)  # read only where the variables are assigned
        for y in self.t.neighbours[var]:
            if value[y] is not None:
                st.checks += 1
                if value[y] == val:
                    return False
        for s in self.t.sums_of[var]:
            c = self.t.sums[s]
            if isinstance(c, CageSum):  # partial: the cells left can still reach the total
                st.checks += 1
                got, left = val, 0
                for x in c.variables:
                    if x != var:
                        v = value[x]
                        if v is None:
                            left += 1
                        else:
                            got += v
                low, high = left * (left + 1) // 2, left * (2 * c.side - left + 1) // 2
                if not got + low <= c.total <= got + high:
                    return False
            elif all(value[x] is not None or x == var for x in c.variables):
                st.checks += 1
                if isinstance(c, LinearSum):
                    got = sum(k * (val if x == var else known[x])
                              for x, k in zip(c.variables, c.coeffs))
                    if got != c.total:
                        return False
                elif isinstance(c, Filtered):
                    if not c.check([val if x == var else known[x] for x in c.variables]):
                        return False
                elif abs(val - known[c.y if var == c.x else c.x]) == 1:
                    return False
        return True

    def live(self, var: int) -> int:
        """Values of ``var`` not taken by an assigned neighbour (its legal values, AIMA 6.3)."""
        value, mask = self.value, self.dom[var]
        for y in self.t.neighbours[var]:
            v = value[y]
            if v is not None:
                mask &= ~(1 << v)
        return mask
