"""Backtracking search with pluggable variable ordering, value ordering and inference (AIMA ch. 6).

The three parts are chosen by name:

* variable ordering (:class:`Select`): ``static`` (lowest index first), ``mrv`` (minimum
  remaining values, Haralick and Elliott's "fail first"), ``mrv+degree`` (MRV, ties broken by the
  degree heuristic) and ``degree`` (most constraints on unassigned variables);
* value ordering (:class:`Order`): ``natural`` (increasing) and ``lcv`` (least constraining value:
  the value that removes the fewest values from unassigned neighbours first);
* inference (:class:`Inference`): ``none`` (plain backtracking: each assignment is checked against
  the assigned neighbours), ``forward-checking`` (Haralick and Elliott 1980) and ``mac``
  (maintaining arc consistency: AC-3 from the assigned variable's arcs, Mackworth 1977).

The search is iterative (:func:`depth_first`, an explicit stack of frames, so 4,096 variables need
no deep recursion; the magic-square searches run the same loop) and undoes by the engine's trail.
``Stats.nodes`` counts assignments tried; ``Stats.backtracks`` counts returns to the previous
variable after every value of a variable failed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import Enum
from typing import Protocol, TypeVar

from ..model.result import Limits, Stats
from .engine import Engine
from .model import CSP, values_of

__all__ = ["Select", "Order", "Inference", "Search", "backtracking_search", "ac3_domains",
           "CSP_COUNTERS", "counters_for", "SearchState", "depth_first"]

CSP_COUNTERS = frozenset({"nodes", "backtracks", "checks", "revisions", "max_queue",
                          "propagations"})
"""The :class:`~sudokit.model.result.Stats` fields the CSP search can fill (MAC fills them all; see
:func:`counters_for` for the other inferences)."""


class Select(Enum):
    """Variable ordering."""

    STATIC = "static"
    MRV = "mrv"
    MRV_DEGREE = "mrv+degree"
    DEGREE = "degree"


class Order(Enum):
    """Value ordering."""

    NATURAL = "natural"
    LCV = "lcv"


class Inference(Enum):
    """What is inferred after each assignment."""

    NONE = "none"
    FORWARD_CHECKING = "forward-checking"
    MAC = "mac"


def counters_for(inference: Inference, has_sums: bool = False) -> frozenset[str]:
    """Return the :class:`~sudokit.model.result.Stats` fields a search with this inference measures.

    Plain backtracking only checks assignments (nodes, backtracks, checks); forward checking
    also removes values (propagations) and, on a CSP with linear sums, revises them
    (revisions); MAC runs AC-3 (every counter of :data:`CSP_COUNTERS`). The others stay None,
    so 0 always means "counted, and zero".

    >>> sorted(counters_for(Inference.NONE))
    ['backtracks', 'checks', 'nodes']
    """
    if inference is Inference.MAC:
        return CSP_COUNTERS
    base = frozenset({"nodes", "backtracks", "checks"})
    if inference is Inference.NONE:
        return base
    return base | {"propagations"} | ({"revisions"} if has_sums else set())


def _counting(stats: Stats, counters: frozenset[str] = CSP_COUNTERS) -> Stats:
    """Start the named counters that are None at 0 (the others are left as they are)."""
    for name in counters:
        if getattr(stats, name) is None:
            setattr(stats, name, 0)
    return stats


def ac3_domains(csp: CSP, stats: Stats | None = None,
                assignment: Mapping[int, int] | None = None) -> list[int] | None:
    """Run AC-3 alone on every arc and return the reduced domains (bit sets), or None when
    AC-3 proves the CSP inconsistent (a domain wiped out).

    Args:
        csp: the problem.
        stats: counters to fill (revisions, checks, max_queue, propagations; ``trace`` when it
            is a list); modified in place. None: a private record.
        assignment: initial values (variable -> value), e.g. Sudoku givens.
    """
    engine = Engine(csp, _counting(stats or Stats()))
    if not engine.assign_initial(assignment or {}) or not all(engine.dom):
        return None
    if not engine.ac3(range(len(csp.tables.arc_var)), engine.stats.trace):
        return None
    return engine.dom


class Search:
    """The pluggable parts of one search: variable choice, value order and assignment step.

    Attributes:
        e: the :class:`~sudokit.csp.engine.Engine` (domains, assignment, trail, counters).
        select, order, inference: the chosen parts (may be changed between steps).
        free: the unassigned variables.
    """

    def __init__(self, engine: Engine, select: Select, order: Order, inference: Inference):
        self.e = engine
        self.select, self.order, self.inference = select, order, inference
        self.free = {v for v in range(len(engine.dom)) if engine.value[v] is None}

    def domain(self, var: int) -> int:
        """The values still possible for ``var`` (legal values for plain backtracking)."""
        return self.e.live(var) if self.inference is Inference.NONE else self.e.dom[var]

    def degree(self, var: int) -> int:
        """Constraints between ``var`` and other unassigned variables (AIMA's degree)."""
        e, value = self.e, self.e.value
        n = sum(1 for y in e.t.neighbours[var] if value[y] is None)
        return n + sum(1 for s in e.t.sums_of[var]
                       if any(value[x] is None and x != var for x in e.t.sums[s].variables))

    def choose(self) -> int | None:
        """The next variable to assign, or None when all are assigned (ties: lowest index)."""
        free = self.free
        if not free:
            return None
        if self.select is Select.STATIC:
            return min(free)
        if self.select is Select.DEGREE:
            return max(free, key=lambda v: (self.degree(v), -v))
        if self.inference is Inference.NONE:
            sizes = {v: self.e.live(v).bit_count() for v in free}
        else:
            dom = self.e.dom
            sizes = {v: dom[v].bit_count() for v in free}
        size = min(sizes.values())
        best = [v for v, n in sizes.items() if n == size]
        if self.select is Select.MRV or size <= 1:  # one value left: no tie-break can matter
            return min(best)
        return max(best, key=lambda v: (self.degree(v), -v))

    def values(self, var: int) -> list[int]:
        """Values of ``var`` in the order to try them (plain backtracking tries its whole domain
        and lets the consistency check reject values)."""
        vals = values_of(self.e.dom[var])
        if self.order is Order.LCV and len(vals) > 1:
            others = [self.domain(y) for y in self.e.t.neighbours[var] if self.e.value[y] is None]
            vals.sort(key=lambda v: sum((d >> v) & 1 for d in others))
        return vals

    def assign(self, var: int, val: int) -> bool:
        """Assign and infer; False on a failed check or a wiped-out domain."""
        e = self.e
        if self.inference is Inference.NONE:
            if not e.consistent(var, val):
                return False
            e.value[var] = val
            return True
        e.value[var] = val
        if self.inference is Inference.FORWARD_CHECKING:
            e.set_domain(var, 1 << val)
            return e.forward_check(var)
        if e.dom[var] == 1 << val:  # unchanged domain: arc consistency already holds
            return True
        e.set_domain(var, 1 << val)
        return e.ac3(e.t.watchers[var], e.stats.trace)

    def mark(self) -> int:
        """The trail position to undo to."""
        return len(self.e.trail)

    def undo(self, mark: int) -> None:
        """Restore the domains changed since ``mark``."""
        self.e.undo(mark)

    def take(self, var: int) -> None:
        """``var`` is being assigned: no longer free."""
        self.free.discard(var)

    def release(self, var: int) -> None:
        """Every value of ``var`` failed: unassign it."""
        self.e.value[var] = None
        self.free.add(var)

    def solution(self) -> list[int]:
        """The complete assignment."""
        return [v for v in self.e.value if v is not None]  # every variable has one

    def start(self) -> bool:
        """Initial inference from the initial assignment; False when it is inconsistent."""
        e = self.e
        if not all(e.dom):
            return False
        if self.inference is Inference.MAC:
            return e.ac3(range(len(e.t.arc_var)), e.stats.trace)
        given = [(v, val) for v, val in enumerate(e.value) if val is not None]
        for v, val in given:  # each given checked against the others, as an assignment would be
            e.value[v] = None
            ok = e.consistent(v, val)
            e.value[v] = val
            if not ok:
                return False
        return self.inference is Inference.NONE or all(e.forward_check(v) for v, _ in given)


def backtracking_search(
    csp: CSP,
    stats: Stats,
    limits: Limits,
    *,
    select: Select = Select.MRV_DEGREE,
    order: Order = Order.LCV,
    inference: Inference = Inference.MAC,
    assignment: Mapping[int, int] | None = None,
) -> Iterator[list[int]]:
    """Yield every solution of ``csp`` (a value per variable), depth first.

    Args:
        csp: the problem.
        stats: counters (those of :func:`counters_for` the inference; their None fields are
            started at 0, the others are left None); with
            ``stats.trace`` a list, MAC appends the AC-3 queue length after every step.
            Modified in place.
        limits: checked at every node.
        select, order, inference: the pluggable parts (module docstring).
        assignment: initial values (variable -> value), e.g. Sudoku givens.

    Raises:
        LimitReached: from ``limits.check`` (the counters so far stay in ``stats``).

    >>> from sudokit.csp.model import AllDifferent
    >>> csp = CSP.build([[1, 2, 3]] * 3, [AllDifferent((0, 1, 2))])
    >>> len(list(backtracking_search(csp, Stats(), Limits())))
    6
    """
    engine = Engine(csp, _counting(stats, counters_for(inference, bool(csp.tables.sums))))
    if not engine.assign_initial(assignment or {}):
        return
    search = Search(engine, select, order, inference)
    if not search.start():
        return
    yield from depth_first(search, engine.stats, limits)


_S_co = TypeVar("_S_co", covariant=True)
"""What a search state's :meth:`SearchState.solution` gives (a CSP value list, a magic square)."""
_S = TypeVar("_S")


class SearchState(Protocol[_S_co]):
    """What :func:`depth_first` needs of a search state (a CSP :class:`Search`, a magic-square
    board): a choice of variable, its values in order, an assignment step that infers and
    reports failure, and undo by trail marks."""

    def choose(self) -> int | None: ...
    def values(self, var: int) -> list[int]: ...
    def assign(self, var: int, val: int) -> bool: ...
    def mark(self) -> int: ...
    def undo(self, mark: int) -> None: ...
    def take(self, var: int) -> None: ...
    def release(self, var: int) -> None: ...
    def solution(self) -> _S_co: ...


def depth_first(state: SearchState[_S], stats: Stats, limits: Limits) -> Iterator[_S]:
    """Yield every solution below ``state``, depth first, with an explicit stack of frames
    ``(variable, values left, trail mark)`` (no recursion, so thousands of variables are fine).

    The one search loop of the CSP core and of the magic-square searches. ``stats.nodes``
    counts assignments tried (through ``limits.count_node``, so a node limit is exact);
    ``stats.backtracks`` counts returns to the previous variable after every value of a
    variable failed (both must be ints).

    Raises:
        LimitReached: from ``limits``.
    """
    var = state.choose()
    if var is None:
        yield state.solution()
        return
    state.take(var)
    stack = [(var, state.values(var)[::-1], state.mark())]
    while stack:
        var, left, mark = stack[-1]
        state.undo(mark)
        if not left:
            stack.pop()
            state.release(var)
            stats.backtracks = (stats.backtracks or 0) + 1
            continue
        limits.count_node(stats)
        if not state.assign(var, left.pop()):
            continue
        nxt = state.choose()
        if nxt is None:
            yield state.solution()
            continue
        state.take(nxt)
        stack.append((nxt, state.values(nxt)[::-1], state.mark()))
