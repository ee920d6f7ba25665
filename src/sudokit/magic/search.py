"""Our own depth-first searches for magic squares: plain backtracking and forward checking.

Both run the CSP core's iterative loop (:func:`sudokit.csp.search.depth_first`, an explicit
stack, so no deep recursion) over a board of bit sets with an undo trail (python-constraint's
push/pop idea: nothing is copied).

* ``backtracking``: cells in row-major order, every value 1..n² tried in increasing order;
  an assignment is checked against the constraints whose cells are then all assigned: the value
  is not used yet (all-different), each line that just became full sums to M(n), and the
  symmetry-breaking corner order. This is chronological backtracking as in the Prolog seed
  project's ``label`` followed by the sum tests.
* ``forward-checking`` (Haralick and Elliott 1980): after each assignment the value is removed
  from every unassigned cell (all-different), and every unassigned cell of each line through the
  assigned cell is pruned to the values that still let the line reach M: with s the line's
  partial sum and k its unassigned cells, a value v stays only when
  ``M - s - v`` lies between the sums of the k - 1 smallest and of the k - 1 largest unused
  values (so the last free cell of a line is forced to ``M - s``). An empty domain fails at once.
  With ``bounds=False`` only the first step is made (the value is removed, as in the Prolog
  report's forward checking) and a line's sum is checked when the line is full.
  Cells are chosen by MRV (minimum remaining values, "fail first") or statically; values are
  tried extremes first (smallest, largest, next smallest, ...), in increasing order, or middle
  first.

Counters: ``nodes`` counts assignments tried; ``backtracks`` counts returns to the previous cell
after every value of a cell was tried (the convention of :mod:`sudokit.csp.search`).

References: R. M. Haralick and G. L. Elliott, "Increasing tree search efficiency for constraint
satisfaction problems", Artificial Intelligence 14, 1980; Russell and Norvig, AIMA ch. 6.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from enum import Enum

from ..csp.search import Select, depth_first
from ..errors import InvalidOption
from ..model.result import Limits, Stats
from .model import MagicProblem, Square, corner_order, lines

__all__ = ["SELECTS", "ValueOrder", "backtracking", "forward_checking"]

SELECTS = (Select.STATIC, Select.MRV)
"""The variable orderings of the CSP core forward checking offers: static (row-major) or MRV
(fewest remaining values, ties to the lowest cell)."""


class ValueOrder(Enum):
    """In which order forward checking tries the values of a cell."""

    INCREASING = "increasing"
    EXTREMES = "extremes"  # smallest, largest, second smallest, second largest, ...
    MIDDLE = "middle"  # closest to (n² + 1)/2 first


class _Board(ABC):
    """Values, used values and line sums of a partial square, with an undo trail.

    The trail holds ``(cell, old_domain)`` for domain changes and ``(-1 - cell, value)`` for
    placements, so :meth:`undo` reverts both in reverse order.
    """

    def __init__(self, problem: MagicProblem) -> None:
        n = problem.n
        self.problem = problem
        self.size = n * n
        self.target = problem.constant
        self.all_values = (1 << (self.size + 1)) - 2  # bits 1..n²
        self.lines = lines(n)
        self.lines_of: list[list[int]] = [[] for _ in range(self.size)]
        for k, line in enumerate(self.lines):
            for c in line:
                self.lines_of[c].append(k)
        pairs = corner_order(n) if problem.symmetry else ()
        self.pairs_of: list[list[tuple[int, int]]] = [[] for _ in range(self.size)]
        for a, b in pairs:
            self.pairs_of[a].append((a, b))
            self.pairs_of[b].append((a, b))
        self.value = [0] * self.size
        self.used = 0
        self.line_sum = [0] * len(self.lines)
        self.line_left = [n] * len(self.lines)
        self.free = set(range(self.size))
        self.trail: list[tuple[int, int]] = []
        self.dom: list[int] = []  # per cell, its domain as a bit set (forward checking only)

    def place(self, cell: int, v: int) -> None:
        """Put ``v`` in ``cell`` (recorded on the trail)."""
        self.value[cell] = v
        self.used |= 1 << v
        for k in self.lines_of[cell]:
            self.line_sum[k] += v
            self.line_left[k] -= 1
        self.free.discard(cell)
        self.trail.append((-1 - cell, v))

    def undo(self, mark: int) -> None:
        """Revert every placement and domain change made since the trail had length ``mark``."""
        trail = self.trail
        while len(trail) > mark:
            key, old = trail.pop()
            if key >= 0:
                self.dom[key] = old
                continue
            cell = -1 - key
            self.value[cell] = 0
            self.used &= ~(1 << old)
            for k in self.lines_of[cell]:
                self.line_sum[k] -= old
                self.line_left[k] += 1
            self.free.add(cell)

    def lines_ok(self, cell: int) -> bool:
        """Whether each line through ``cell`` that is now full sums to M(n)."""
        return all(self.line_left[k] or self.line_sum[k] == self.target
                   for k in self.lines_of[cell])

    def order_ok(self, cell: int) -> bool:
        """Whether the corner order holds for each pair through ``cell`` with both assigned."""
        value = self.value
        return all(not value[a] or not value[b] or value[a] < value[b]
                   for a, b in self.pairs_of[cell])

    def mark(self) -> int:
        """The trail position to undo to."""
        return len(self.trail)

    def take(self, cell: int) -> None:
        """Nothing to do: :meth:`place` marks the cell used."""

    def release(self, cell: int) -> None:
        """Nothing to do: :meth:`undo` frees the cell."""

    def solution(self) -> Square:
        """The full square, flat."""
        return tuple(self.value)

    def start(self) -> bool:
        """Place the givens; False when they already break a constraint."""
        for cell, v in enumerate(self.problem.givens):
            if v and not self.assign(cell, v):
                return False
        return True

    @abstractmethod
    def assign(self, cell: int, v: int) -> bool:
        """Put ``v`` in ``cell`` and check (and infer); False when a constraint fails."""

    @abstractmethod
    def choose(self) -> int | None:
        """The next cell to assign, or None when the square is full."""

    @abstractmethod
    def values(self, cell: int) -> list[int]:
        """The values to try in ``cell``, in order."""


class _Backtracking(_Board):
    """Chronological backtracking: check the constraints that just became fully assigned."""

    def choose(self) -> int | None:
        return min(self.free) if self.free else None

    def values(self, cell: int) -> list[int]:
        return list(range(1, self.size + 1))

    def assign(self, cell: int, v: int) -> bool:
        if self.used >> v & 1:
            return False
        self.place(cell, v)
        return self.lines_ok(cell) and self.order_ok(cell)


class _ForwardChecking(_Board):
    """Backtracking that prunes the domains of unassigned cells after each assignment."""

    def __init__(self, problem: MagicProblem, select: Select, order: ValueOrder,
                 bounds: bool = True) -> None:
        if select not in SELECTS:
            raise InvalidOption(f"magic forward checking selects cells by "
                                f"{' or '.join(s.value for s in SELECTS)}, not {select.value}")
        super().__init__(problem)
        self.select, self.order, self.bounds = select, order, bounds
        self.dom = [self.all_values] * self.size

    def choose(self) -> int | None:
        if not self.free:
            return None
        if self.select is Select.STATIC:
            return min(self.free)
        dom = self.dom
        return min(self.free, key=lambda c: (dom[c].bit_count(), c))

    def values(self, cell: int) -> list[int]:
        d, out = self.dom[cell], []
        while d:
            low = d & -d
            out.append(low.bit_length() - 1)
            d ^= low
        if self.order is ValueOrder.EXTREMES:
            half = (len(out) + 1) // 2
            out = [v for pair in zip(out[:half], out[::-1]) for v in pair][:len(out)]
        elif self.order is ValueOrder.MIDDLE:
            out.sort(key=lambda v: abs(2 * v - self.size - 1))
        return out

    def restrict(self, cell: int, mask: int) -> bool:
        """Intersect the domain of ``cell`` with ``mask``; False when it becomes empty."""
        old = self.dom[cell]
        new = old & mask
        if new != old:
            self.trail.append((cell, old))
            self.dom[cell] = new
        return bool(new)

    def assign(self, cell: int, v: int) -> bool:
        if not self.dom[cell] >> v & 1:  # used elsewhere or pruned (a given may be)
            return False
        self.place(cell, v)
        self.trail.append((cell, self.dom[cell]))
        self.dom[cell] = 1 << v
        others = ~(1 << v)
        if not all(self.restrict(c, others) for c in self.free):
            return False
        if not self.bounds:  # the report's forward checking: values only, full lines checked
            return self.lines_ok(cell) and self.prune_order(cell)
        return self.prune_lines(cell) and self.prune_order(cell)

    def prune_lines(self, cell: int) -> bool:
        """Bound the unassigned cells of each line through ``cell`` (module docstring)."""
        unused = self.all_values & ~self.used
        for k in self.lines_of[cell]:
            left = self.line_left[k]
            rest = self.target - self.line_sum[k]
            if not left:
                if rest:
                    return False
                continue
            smallest, largest = _extreme_sums(unused, left - 1)
            allowed = _range_mask(rest - largest, rest - smallest)
            if not all(self.restrict(c, allowed) for c in self.lines[k] if not self.value[c]):
                return False
        return True

    def prune_order(self, cell: int) -> bool:
        """Apply the symmetry-breaking corner order to the other corner of each pair."""
        v = self.value[cell]
        for a, b in self.pairs_of[cell]:
            other, mask = (b, ~((1 << (v + 1)) - 1)) if a == cell else (a, (1 << v) - 1)
            if not self.restrict(other, mask):
                return False
        return True


def _extreme_sums(values: int, count: int) -> tuple[int, int]:
    """Return the sums of the ``count`` smallest and the ``count`` largest values of a bit set."""
    low = high = 0
    small = large = values
    for _ in range(count):
        bit = small & -small
        low += bit.bit_length() - 1
        small ^= bit
        top = large.bit_length() - 1
        high += top
        large ^= 1 << top
    return low, high


def _range_mask(lo: int, hi: int) -> int:
    """Return the bit set of the values lo..hi (at least 1); 0 when empty."""
    lo = max(lo, 1)
    if hi < lo:
        return 0
    return ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)


def _explore(board: _Board, stats: Stats, limits: Limits) -> Iterator[Square]:
    """Yield every completion of ``board`` by the CSP core's loop (:func:`depth_first`)."""
    if board.start():
        yield from depth_first(board, stats, limits)


def backtracking(problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
    """Yield every magic square of ``problem`` by chronological backtracking (module docstring).

    Args:
        problem: order, givens and symmetry breaking.
        stats: ``nodes`` and ``backtracks`` must be ints; modified in place.
        limits: checked at every node.

    Raises:
        LimitReached: from ``limits.check``.
    """
    yield from _explore(_Backtracking(problem), stats, limits)


def forward_checking(problem: MagicProblem, stats: Stats, limits: Limits,
                     select: Select = Select.MRV, order: ValueOrder = ValueOrder.EXTREMES,
                     bounds: bool = True) -> Iterator[Square]:
    """Yield every magic square of ``problem`` by forward checking (module docstring).

    Args:
        problem: order, givens and symmetry breaking.
        stats: ``nodes`` and ``backtracks`` must be ints; modified in place.
        limits: checked at every node.
        select: MRV (default) or static row-major cell order (:data:`SELECTS`).
        order: value ordering; extremes first (default) pairs small and large values, as the
            lines of a magic square do (first square of order 6: 57,810 nodes, against 535,468
            in increasing order).
        bounds: also bound the unassigned cells of each line through the assigned cell by the
            partial sum (default); False: remove the assigned value only, as the Prolog
            report's forward checking does, and check a line's sum when it is full.

    Raises:
        LimitReached: from ``limits.check``.
        InvalidOption: ``select`` is not one of :data:`SELECTS`.
    """
    yield from _explore(_ForwardChecking(problem, select, order, bounds), stats, limits)
