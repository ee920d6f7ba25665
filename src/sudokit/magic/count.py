"""Line-based enumeration of magic squares: the fast way to count them all (order 3: 8; order 4:
7,040, of which 880 up to rotations and reflections).

Instead of filling cells, the search works on whole lines:

1. list the *line sets*: the n-element subsets of 1..n² that sum to M(n) (8 for n = 3, 86 for
   n = 4), as bit sets;
2. enumerate the partitions of 1..n² into n line sets: the rows, as a set of sets (each partition
   once: the set holding the smallest value not yet covered is chosen next);
3. for each row partition, enumerate the partitions into *column* sets that meet every row set in
   exactly one value (so each cell is the single value of a row set and a column set);
4. order the rows and the columns: with the rows in a fixed order, a row permutation σ and a
   diagonal permutation π from the precomputed permutations whose transversal sums to M(n)
   determine the column order; keep those whose anti-diagonal sums to M(n) too.

Every magic square arises exactly once (its row sets, its column sets, then their orders), so the
count is exact without any symmetry argument; symmetry breaking and givens are checked on each
square as it is built. The method is complete for every n but practical up to n = 4 (n = 5 has
275,305,224 squares).

References: the enumeration of the 880 order-4 squares goes back to B. Frénicle de Bessy, 1693;
line-set methods as in W. H. Benson and O. Jacoby, "New Recreations with Magic Squares", 1976.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import permutations

from ..model.result import Limits, Stats
from .model import MagicProblem, Square, corner_order, magic_constant

__all__ = ["line_sets", "forget_line_sets", "line_enumeration"]


_LINE_SETS: dict[int, tuple[int, ...]] = {}


def line_sets(n: int, stats: Stats | None = None, limits: Limits | None = None
              ) -> tuple[int, ...]:
    """Return the n-element subsets of 1..n² summing to M(n), as bit sets (bit v: value v).

    Cached once complete (n = 6: 32,134 sets in 0.2 s; n = 7: 957,332 in about 3 s).

    Args:
        n: the order.
        stats, limits: the limits are checked every 1,024 partial subsets (None: no limits).

    Raises:
        LimitReached: from ``limits.check``; nothing is cached then.

    >>> len(line_sets(3)), len(line_sets(4))
    (8, 86)
    """
    if n in _LINE_SETS:
        return _LINE_SETS[n]
    size, target = n * n, magic_constant(n)
    found: list[int] = []
    stack = [[1, n, target, 0]]  # frames: next value to try, values to add, sum left, set
    ticks = 0
    while stack:  # depth first with an explicit stack (no recursion that grows with n)
        frame = stack[-1]
        v, left, rest, mask = frame
        if left == 0 or v > size or v * left + left * (left - 1) // 2 > rest:
            if left == 0 and rest == 0:  # v, v+1, ..., v+left-1 too large: no more sets
                found.append(mask)
            stack.pop()
            continue
        ticks += 1
        if limits is not None and ticks & 1023 == 0:
            limits.check(stats if stats is not None else Stats())
        frame[0] = v + 1
        if v + (left - 1) * (2 * size - left + 2) // 2 >= rest:  # v and the top left-1 values
            stack.append([v + 1, left - 1, rest - v, mask | 1 << v])
    _LINE_SETS[n] = tuple(found)
    return _LINE_SETS[n]


def forget_line_sets() -> None:
    """Drop the cached line sets (benchmarks use it to time cold runs)."""
    _LINE_SETS.clear()


def _partitions(sets: Sequence[int], universe: int, stats: Stats,
                limits: Limits) -> Iterator[tuple[int, ...]]:
    """Yield each partition of ``universe`` into members of ``sets`` once (as a sorted tuple)."""
    by_low: dict[int, list[int]] = {}
    for s in sets:
        by_low.setdefault(s & -s, []).append(s)
    if not universe:
        yield ()
        return
    chosen: list[int] = []
    left = universe
    stack = [iter(by_low.get(left & -left, ()))]  # per chosen set, the sets left to try next
    while stack:  # no recursion: a partition into n sets is n deep
        for s in stack[-1]:
            if s & left == s:
                limits.count_node(stats)
                chosen.append(s)
                left ^= s
                if not left:
                    yield tuple(chosen)
                    left ^= chosen.pop()
                    continue
                stack.append(iter(by_low.get(left & -left, ())))
                break
        else:
            stack.pop()
            if chosen:  # a partial partition abandoned: back to the previous set
                stats.backtracks = (stats.backtracks or 0) + 1
                left ^= chosen.pop()


def _cell_table(rows: tuple[int, ...], cols: tuple[int, ...]) -> list[list[int]]:
    """Return ``table[i][j]``, the one value shared by row set i and column set j."""
    return [[(r & c).bit_length() - 1 for c in cols] for r in rows]


def _arrangements(table: list[list[int]], problem: MagicProblem, stats: Stats,
                  limits: Limits) -> Iterator[Square]:
    """Yield the squares obtained by ordering the rows and columns of ``table`` (step 4)."""
    n, target = problem.n, problem.constant
    orders = list(permutations(range(n)))
    diagonals = [p for p in orders if sum(table[i][p[i]] for i in range(n)) == target]
    pairs = corner_order(n) if problem.symmetry else ()
    givens = [(c, v) for c, v in enumerate(problem.givens) if v]
    for sigma in orders:
        rows = [table[i] for i in sigma]
        for pi in diagonals:
            limits.count_node(stats)
            tau = [pi[i] for i in sigma]  # column r of the square is column set tau[r]
            if sum(rows[r][tau[n - 1 - r]] for r in range(n)) != target:
                continue
            square = tuple(row[t] for row in rows for t in tau)
            if all(square[a] < square[b] for a, b in pairs) and all(
                    square[c] == v for c, v in givens):
                yield square


def line_enumeration(problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
    """Yield every magic square of ``problem`` by line-based enumeration (module docstring).

    Args:
        problem: order, givens and symmetry breaking (both checked on each built square).
        stats: ``nodes`` (line sets chosen and row/column orders tried) and ``backtracks``
            (partial partitions abandoned) must be ints; modified in place.
        limits: checked at every node.

    Raises:
        LimitReached: from ``limits.check``.
    """
    n = problem.n
    sets = line_sets(n, stats, limits)
    universe = (1 << (n * n + 1)) - 2
    for rows in _partitions(sets, universe, stats, limits):
        across = [c for c in sets if all((c & r).bit_count() == 1 for r in rows)]
        for cols in _partitions(across, universe, stats, limits):
            yield from _arrangements(_cell_table(rows, cols), problem, stats, limits)
