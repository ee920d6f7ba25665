"""Our DPLL SAT solver (Davis, Logemann and Loveland 1962), pure Python, for any CNF.

* Unit propagation with two watched literals per clause (Moskewicz et al. 2001, Chaff): a clause
  is visited only when one of its two watched literals becomes false.
* A trail of assigned literals with decision levels and chronological backtracking: on a
  conflict the last decision is undone and its negation is asserted one level down (no clause
  learning, no restarts: the DPLL of 1962, with modern propagation).
* Branching: the open clause of three or more literals with the fewest unassigned literals
  (fail-first, Haralick and Elliott 1980; on a Sudoku CNF the at-least-one clauses are cells and
  unit-digits, so this is "fewest remaining values" over both); its first unassigned literal is
  tried true first. Binary clauses are branched on only when no longer clause is open.
* Enumeration: after a model the search backtracks as after a conflict, so successive models are
  disjoint partial assignments (unassigned variables are reported false).

Literals are DIMACS integers; the value and watch tables are Python lists indexed by the literal
itself (a negative index reads the mirror half), so ``value[-lit]`` is the value of the negation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from ..model.result import Limits, Stats
from .encoding import paused_gc

__all__ = ["Dpll", "dpll_models", "DPLL_COUNTERS"]

DPLL_COUNTERS = frozenset({"nodes", "decisions", "propagations", "conflicts", "backtracks"})
"""The :class:`~sudokit.model.result.Stats` fields the DPLL fills (nodes = decisions)."""

TRUE, FALSE, UNASSIGNED = 1, -1, 0


class Dpll:
    """A DPLL search over one CNF; create one per formula and call :meth:`models` once.

    Args:
        clauses: DIMACS clauses (sequences of non-zero ints); not modified.
        n_vars: number of variables (default: the largest variable used).
        check: called about every thousand clauses while the formula is loaded; it may raise
            (e.g. LimitReached at a deadline) to stop.

    Raises:
        ValueError: a literal that is 0, not an int, or above ``n_vars``.
    """

    def __init__(self, clauses: Iterable[Sequence[int]], n_vars: int | None = None,
                 check: Callable[[], None] | None = None) -> None:
        deduplicated: list[list[int]] = []
        self.watches: list[list[int]] = []
        self.clauses: list[list[int]] = []
        try:
            self._load(clauses, deduplicated, n_vars, check)
        except BaseException:  # free a partly loaded formula at once (a deadline is near)
            deduplicated.clear()
            self.clauses.clear()
            self.watches.clear()
            raise
        self.long = [c for c in self.clauses if len(c) > 2]
        self.trail: list[int] = []
        self.levels: list[int] = []  # trail length before each decision
        self.qhead = 0

    def _load(self, clauses: Iterable[Sequence[int]], deduplicated: list[list[int]],
              n_vars: int | None, check: Callable[[], None] | None) -> None:
        largest = 0
        for number, c in enumerate(clauses, 1):
            if check is not None and not number & 1023:
                check()
            clause = list(dict.fromkeys(c))  # drop repeated literals
            for lit in clause:
                if not isinstance(lit, int) or lit == 0:
                    raise ValueError(f"clause {number}: literal {lit!r} is not a non-zero int")
            deduplicated.append(clause)
            if clause:
                largest = max(largest, max(clause), -min(clause))
        self.n_vars = largest if n_vars is None else n_vars
        if largest > self.n_vars:
            raise ValueError(f"a literal uses variable {largest}, above n_vars={self.n_vars}")
        self.value = [UNASSIGNED] * (2 * self.n_vars + 1)
        self.watches.extend([] for _ in range(2 * self.n_vars + 1))
        self.units: list[int] = []
        self.empty = False
        for i, clause in enumerate(deduplicated):
            if check is not None and not i & 1023:
                check()
            self._add(clause)

    def _add(self, clause: list[int]) -> None:
        if any(-lit in clause for lit in clause):
            return  # tautology
        if not clause:
            self.empty = True
        elif len(clause) == 1:
            self.units.append(clause[0])
        else:
            index = len(self.clauses)
            self.clauses.append(clause)
            self.watches[clause[0]].append(index)
            self.watches[clause[1]].append(index)

    def _assign(self, lit: int) -> None:
        self.value[lit] = TRUE
        self.value[-lit] = FALSE
        self.trail.append(lit)

    def propagate(self, stats: Stats) -> bool:
        """Assign every literal the trail forces; return False on a conflict.

        Each newly false literal visits only the clauses watching it: a clause finds another
        non-false literal to watch, or its other watched literal becomes a unit (implied), or
        the clause is false (conflict).
        """
        value, watches, clauses, trail = self.value, self.watches, self.clauses, self.trail
        implied, head = 0, self.qhead
        while head < len(trail):
            false_lit = -trail[head]
            head += 1
            watching = watches[false_lit]
            keep: list[int] = []
            for i, index in enumerate(watching):
                clause = clauses[index]
                if clause[0] == false_lit:
                    clause[0], clause[1] = clause[1], false_lit
                first = clause[0]
                if value[first] == TRUE:
                    keep.append(index)
                    continue
                for k in range(2, len(clause)):
                    lit = clause[k]
                    if value[lit] != FALSE:
                        clause[1], clause[k] = lit, false_lit
                        watches[lit].append(index)
                        break
                else:
                    keep.append(index)
                    if value[first] == FALSE:
                        keep.extend(watching[i + 1:])
                        watches[false_lit] = keep
                        self.qhead = len(trail)
                        stats.propagations = (stats.propagations or 0) + implied
                        return False
                    value[first], value[-first] = TRUE, FALSE
                    trail.append(first)
                    implied += 1
            watches[false_lit] = keep
        self.qhead = head
        stats.propagations = (stats.propagations or 0) + implied
        return True

    def pick(self) -> int | None:
        """Return the literal to decide next, or None when every clause is satisfied."""
        value = self.value
        best, best_open = None, len(self.value)
        for clause in self.long:
            n_open = 0
            for lit in clause:
                state = value[lit]
                if state == TRUE:
                    break
                if state == UNASSIGNED:
                    n_open += 1
            else:
                if n_open < best_open:
                    best, best_open = clause, n_open
                    if n_open <= 2:
                        break
        if best is None:  # only binary clauses can still be open
            best = next((c for c in self.clauses if TRUE not in (value[c[0]], value[c[1]])), None)
        if best is None:
            return None
        return next(lit for lit in best if value[lit] == UNASSIGNED)

    def backtrack(self, stats: Stats) -> bool:
        """Undo the last decision and assert its negation; return False when none is left."""
        if not self.levels:
            return False
        start = self.levels.pop()
        decided = self.trail[start]
        for lit in self.trail[start:]:
            self.value[lit] = self.value[-lit] = UNASSIGNED
        del self.trail[start:]
        self.qhead = start
        stats.backtracks = (stats.backtracks or 0) + 1
        self._assign(-decided)
        return True

    def model(self) -> list[int]:
        """The current assignment as DIMACS literals ``1..n_vars`` (unassigned as false)."""
        value = self.value
        return [v if value[v] == TRUE else -v for v in range(1, self.n_vars + 1)]

    def models(self, stats: Stats | None = None,
               limits: Limits | None = None) -> Iterator[list[int]]:
        """Yield models one by one until the search space is exhausted.

        Args:
            stats: counters to increment in place: nodes and decisions (one per decision),
                propagations (implied literals), conflicts, backtracks.
            limits: checked at every decision.

        Raises:
            LimitReached: through ``limits.check``.
        """
        stats = stats if stats is not None else Stats.counting(DPLL_COUNTERS)
        if self.empty:
            return
        for lit in self.units:
            if self.value[lit] == FALSE:
                return
            if self.value[lit] == UNASSIGNED:
                self._assign(lit)
        while True:
            if self.propagate(stats):
                picked = self.pick()
                if picked is not None:
                    if limits is not None:
                        limits.count_node(stats)
                    else:
                        stats.nodes = (stats.nodes or 0) + 1
                    stats.decisions = (stats.decisions or 0) + 1
                    self.levels.append(len(self.trail))
                    self._assign(picked)
                    continue
                yield self.model()
            else:
                stats.conflicts = (stats.conflicts or 0) + 1
            if not self.backtrack(stats):
                return


def dpll_models(
    clauses: Iterable[Sequence[int]],
    n_vars: int | None = None,
    stats: Stats | None = None,
    limits: Limits | None = None,
    check: Callable[[], None] | None = None,
) -> Iterator[list[int]]:
    """Yield the models of a CNF found by DPLL (see :class:`Dpll`); nothing when unsatisfiable.

    ``limits`` cover loading the formula too (``check``, default ``limits.check``, is called
    while the clauses are read), and a node limit is exact: at most ``node_limit`` decisions.

    >>> [m for m in dpll_models([[1, 2], [-1], [-2, 3]])]
    [[-1, 2, 3]]
    >>> list(dpll_models([[1], [-1]]))
    []
    """
    stats = stats if stats is not None else Stats.counting(DPLL_COUNTERS)
    if check is None and limits is not None:
        check = lambda: limits.check(stats)  # noqa: E731
    with paused_gc():  # loading builds a list per clause (see paused_gc)
        dpll = Dpll(clauses, n_vars, check)
    return dpll.models(stats, limits)
