"""Magic squares through the generic CSP core: maintaining arc consistency (MAC).

The square becomes a :class:`~sudokit.csp.model.CSP`: n² variables with domains 1..n², one
:class:`~sudokit.csp.model.AllDifferent` over every cell and one
:class:`~sudokit.csp.model.LinearSum` per line (``sum == M(n)``), revised by bounds consistency;
the givens are the initial assignment. :func:`sudokit.csp.search.backtracking_search` then runs
with MAC inference (AC-3 from the assigned cell's arcs after every assignment) and MRV cell
ordering, or any other choice of its parts.

The core has no ``<`` constraint, so symmetry breaking is applied to the squares it yields (each
D4 orbit still has exactly one canonical square, so counts stay exact; the search itself is not
pruned by it).

References: Russell and Norvig, AIMA ch. 6 (MAC); Mackworth 1977 (AC-3); K. Apt, "Principles of
Constraint Programming", 2003 (bounds consistency of linear sums).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from ..csp import CSP, AllDifferent, Inference, LinearSum, Order, Select, backtracking_search
from ..model.result import Limits, Stats
from .model import MagicProblem, Square, corner_order, lines

__all__ = ["magic_csp", "mac_search"]


@cache
def magic_csp(n: int) -> CSP:
    """Return the CSP of an empty magic square of order ``n`` (cached, with its tables).

    >>> csp = magic_csp(3)
    >>> csp.n_variables, len(csp.tables.sums), csp.name(8)
    (9, 8, 'r3c3')
    """
    size = n * n
    total = n * (size + 1) // 2
    constraints: list[AllDifferent | LinearSum] = [AllDifferent(tuple(range(size)))]
    constraints += [LinearSum.plain(line, total) for line in lines(n)]
    names = [f"r{c // n + 1}c{c % n + 1}" for c in range(size)]
    return CSP.build([range(1, size + 1)] * size, constraints, names)


def mac_search(problem: MagicProblem, stats: Stats, limits: Limits,
               select: Select = Select.MRV, order: Order = Order.NATURAL,
               inference: Inference = Inference.MAC) -> Iterator[Square]:
    """Yield every magic square of ``problem`` by the CSP core's search (MAC by default).

    Args:
        problem: order, givens and symmetry breaking (checked on each square found).
        stats: the CSP counters (nodes, backtracks, checks, revisions, max_queue,
            propagations); modified in place.
        limits: checked at every node.
        select, order, inference: the core's variable ordering, value ordering and inference.

    Raises:
        LimitReached: from ``limits.check``.
    """
    givens = {c: v for c, v in enumerate(problem.givens) if v}
    pairs = corner_order(problem.n) if problem.symmetry else ()
    for values in backtracking_search(magic_csp(problem.n), stats, limits, select=select,
                                      order=order, inference=inference, assignment=givens):
        if all(values[a] < values[b] for a, b in pairs):
            yield tuple(values)
