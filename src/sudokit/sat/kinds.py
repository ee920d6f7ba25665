"""CNF of the generic constraint kinds over ``x(cell, digit) = cell * N + digit``.

Each function returns clauses (and, for kinds that need them, the number of auxiliary variables
it numbered from ``first`` on). Every encoding is exact: with each cell holding exactly one
digit, the grids satisfying the clauses are the grids the rule accepts; most add implied clauses
so that unit propagation keeps the candidates arc consistent.

* pair relation (a table of allowed digit pairs): the support encoding of a binary table
  (Bacchus 2007, "GAC via unit propagation"): ``x(a, d)`` implies some ``x(b, e)`` with
  ``(d, e)`` allowed, and the same from b; a digit with no support is a unit clause;
* a rule on three cells (between and lockout lines: an inner cell against the two ends):
  ``x(inner, v) and x(a, d)`` imply some ``x(b, e)`` the relation allows;
* must-contain (quadruples): a digit listed m times among k cells holds in at least m of them:
  one clause per (k - m + 1)-subset of the cells; when k digits are listed, also (implied)
  every cell holds one of them;
* a set of allowed digit sets over cells with distinct digits (renban windows): one selector
  per set, the killer cages' combination encoding (:func:`~sudokit.sat.encoding.variant_clauses`);
* indexing: ``x(indexer, d)`` implies ``x(target[d - 1], digit)``;
* sums and sequences: :mod:`sudokit.sat.layered`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import combinations

__all__ = [
    "distinct_clauses",
    "index_clauses",
    "must_contain_clauses",
    "pair_clauses",
    "sets_clauses",
    "triple_clauses",
]


def pair_clauses(a: int, b: int, allowed: Collection[tuple[int, int]],
                 side: int) -> list[list[int]]:
    """Support clauses of "(digit(a), digit(b)) is in ``allowed``" (digits 1..``side``).

    >>> pair_clauses(0, 1, {(1, 2), (2, 1)}, 2)  # two cells of a 2x2 grid that differ
    [[-1, 4], [-2, 3], [-3, 2], [-4, 1]]
    """
    out = []
    for first, second, swap in ((a, b, False), (b, a, True)):
        for d in range(1, side + 1):
            support = [second * side + e for e in range(1, side + 1)
                       if ((e, d) if swap else (d, e)) in allowed]
            out.append([-(first * side + d)] + support)
    return out


def triple_clauses(a: int, b: int, inner: int, ok: Callable[[int, int, int], bool],
                   side: int) -> list[list[int]]:
    """Clauses of "``ok(digit(a), digit(b), digit(inner))``": for each inner digit v and end
    digit d, the digits e of b that ``ok(d, e, v)`` allows (a support encoding of the ternary
    relation over b)."""
    out = []
    for v in range(1, side + 1):
        for d in range(1, side + 1):
            support = [b * side + e for e in range(1, side + 1) if ok(d, e, v)]
            out.append([-(inner * side + v), -(a * side + d)] + support)
    return out


def must_contain_clauses(cells: Sequence[int], digits: Iterable[int],
                         side: int) -> list[list[int]]:
    """Clauses of "each listed digit is in at least as many of ``cells`` as it is listed".

    >>> must_contain_clauses([0, 1, 2], [1, 1], 3)  # 1 twice among three cells
    [[1, 4], [1, 7], [4, 7]]
    """
    out: list[list[int]] = []
    counts: dict[int, int] = {}
    for d in digits:
        counts[d] = counts.get(d, 0) + 1
    for d, m in counts.items():
        if m > len(cells):
            return [[]]
        out += [[c * side + d for c in subset]
                for subset in combinations(cells, len(cells) - m + 1)]
    if sum(counts.values()) == len(cells):  # implied: every cell holds a listed digit
        out += [[c * side + d for d in sorted(counts)] for c in cells]
    return out


def distinct_clauses(cells: Sequence[int], side: int) -> list[list[int]]:
    """Pairwise "not both" clauses: the cells hold distinct digits."""
    return [[-(a * side + d), -(b * side + d)] for a, b in combinations(cells, 2)
            for d in range(1, side + 1)]


def sets_clauses(cells: Sequence[int], sets: Sequence[frozenset[int]], side: int,
                 first: int) -> tuple[list[list[int]], int]:
    """Clauses of "the digits of ``cells`` (distinct, stated elsewhere) form one of ``sets``"
    (each of ``len(cells)`` digits): selector ``first + k`` for ``sets[k]``; a digit implies a
    selector whose set holds it, a selector forbids the digits outside its set and needs each
    of its digits somewhere.

    Returns:
        ``(clauses, n_aux)``; ``[[]]`` when no set is possible.
    """
    if not sets:
        return [[]], 0
    out = []
    for cell in cells:
        for d in range(1, side + 1):
            out.append([-(cell * side + d)] + [first + k for k, s in enumerate(sets) if d in s])
    for k, s in enumerate(sets):
        out += [[-(first + k), -(cell * side + d)] for cell in cells
                for d in range(1, side + 1) if d not in s]
        out += [[-(first + k)] + [cell * side + d for cell in cells] for d in sorted(s)]
    out.append([first + k for k in range(len(sets))])
    return out, len(sets)


def index_clauses(indexer: int, targets: Sequence[int], digit: int,
                  side: int) -> list[list[int]]:
    """Clauses of "the cell ``targets[digit(indexer) - 1]`` holds ``digit``" (a digit beyond
    the targets is forbidden in the indexer)."""
    out = []
    for d in range(1, side + 1):
        if d <= len(targets):
            out.append([-(indexer * side + d), targets[d - 1] * side + digit])
        else:
            out.append([-(indexer * side + d)])
    return out
