"""The CSP model: variables with finite integer domains and the constraints between them.

A constraint satisfaction problem (AIMA ch. 6) is a set of variables ``0..n-1``, a finite domain
per variable and constraints. Values are non-negative ints; a domain is kept as a *bit set* (an int
whose bit ``v`` is set when value ``v`` is still possible), so removing values, testing a value
and copying a domain are single integer operations.

Five kinds of constraint are understood:

* :class:`NotEqual` ``x != y``: a binary constraint (a Sudoku unit becomes ``N(N-1)/2`` of them;
  9x9 has 810 distinct ones, 1,620 directed arcs);
* :class:`AllDifferent`: shorthand for ``!=`` between every pair of its variables;
* :class:`LinearSum` ``sum(coeffs[i] * variables[i]) == total``: an n-ary constraint, revised by
  bounds consistency (magic squares);
* :class:`NotConsecutive` ``|x - y| != 1``: a binary constraint (non-consecutive Sudoku);
* :class:`CageSum`: distinct values adding up to a total (a killer cage), ``!=`` between its
  variables plus an n-ary constraint made generalised arc consistent by its digit combinations
  (:mod:`sudokit.csp.cages`);
* :class:`Filtered`: any n-ary constraint with its own filtering function and check (the rules
  drawn on a grid: thermometers, arrows, sandwiches ...; :mod:`sudokit.csp.rules`).

The n-ary and non-``!=`` constraints (the last four) are the *special* constraints of the
tables: each has one arc per variable, revised by its own rule.

:attr:`CSP.tables` turns them into flat neighbour tables, once, for the search engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

__all__ = ["CSP", "AllDifferent", "CageSum", "Compiled", "Constraint", "Filtered", "LinearSum",
           "NotConsecutive", "NotEqual", "Special", "mask_of", "values_of"]


def mask_of(values: Iterable[int]) -> int:
    """Return the bit set holding ``values`` (bit v for value v).

    Raises:
        ValueError: a negative value.

    >>> mask_of([1, 3])
    10
    """
    mask = 0
    for v in values:
        if v < 0:
            raise ValueError(f"CSP values must be non-negative ints, got {v}")
        mask |= 1 << v
    return mask


def values_of(mask: int) -> list[int]:
    """Return the values in a bit set, increasing.

    >>> values_of(10)
    [1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class NotEqual:
    """Binary constraint ``x != y`` between two distinct variables."""

    x: int
    y: int


@dataclass(frozen=True)
class AllDifferent:
    """All the variables take different values (expanded to pairwise :class:`NotEqual`)."""

    variables: tuple[int, ...]


@dataclass(frozen=True)
class LinearSum:
    """N-ary constraint ``sum(coeffs[i] * variables[i]) == total`` (coefficients non-zero ints).

    Attributes:
        variables: distinct variable indices.
        coeffs: one non-zero int per variable (all 1 for a plain sum such as a magic-square line).
        total: the required total.
    """

    variables: tuple[int, ...]
    coeffs: tuple[int, ...]
    total: int

    @staticmethod
    def plain(variables: Sequence[int], total: int) -> LinearSum:
        """Return ``sum(variables) == total``."""
        return LinearSum(tuple(variables), (1,) * len(variables), total)


@dataclass(frozen=True)
class NotConsecutive:
    """Binary constraint ``|x - y| != 1`` between two distinct variables (orthogonal neighbours
    of non-consecutive Sudoku); revised by removing from x each value v with every value of y
    in ``{v - 1, v + 1}``."""

    x: int
    y: int

    @property
    def variables(self) -> tuple[int, int]:
        return self.x, self.y


@dataclass(frozen=True)
class CageSum:
    """N-ary constraint: the variables take distinct values of 1..``side`` adding up to
    ``total`` (a killer cage); generalised arc consistent by digit combinations.

    Attributes:
        variables: distinct variable indices.
        total: the required sum.
        side: the largest value (N).
    """

    variables: tuple[int, ...]
    total: int
    side: int


@dataclass(frozen=True)
class Filtered:
    """N-ary constraint revised by its own filter (a rule drawn on a grid).

    Attributes:
        variables: distinct variable indices, in the rule's order.
        prune: the filter: the variables' domains (bit sets) in, per variable the values some
            assignment of all of them supports out, or None when none exists
            (:func:`sudokit.csp.rules.rule_filter`); exact when every domain is one value.
        check: whether a full assignment (values in ``variables`` order) keeps the rule.
        name: the rule's name, for traces.
    """

    variables: tuple[int, ...]
    prune: Callable[[Sequence[int]], tuple[int, ...] | None] = field(compare=False)
    check: Callable[[Sequence[int]], bool] = field(compare=False)
    name: str = "rule"


Constraint = NotEqual | AllDifferent | LinearSum | NotConsecutive | CageSum | Filtered
Special = LinearSum | NotConsecutive | CageSum | Filtered
"""The constraints revised by their own rule (one arc per variable), not as ``!=`` arcs."""


@dataclass(frozen=True)
class Compiled:
    """Flat tables of a CSP for the search engine (built once by :attr:`CSP.tables`).

    Attributes:
        neighbours: per variable, the variables it must differ from (sorted, no duplicates;
            the variables of a :class:`CageSum` included).
        sums: every special constraint (:data:`Special`: linear sums, non-consecutive pairs,
            cage sums; index = its id).
        sums_of: per variable, ids of the special constraints that contain it.
        arc_var, arc_other: directed arc ``a`` revises ``arc_var[a]``; for a ``!=`` arc the
            other end is ``arc_other[a] >= 0``; for a special arc ``arc_other[a]`` is
            ``-1 - id``.
        watchers: per variable, the arcs to revise again when its domain shrinks (the arcs
            ``(xk, x)`` of the AC-3 queue).
        reverse: per arc, the opposite ``!=`` arc (``-1`` for sum arcs); AC-3 does not requeue it.
        sum_arcs: per sum constraint, its arcs, parallel to its ``variables``.
        n_binary: the number of directed ``!=`` arcs (they come first).
    """

    neighbours: tuple[tuple[int, ...], ...]
    sums: tuple[Special, ...]
    sums_of: tuple[tuple[int, ...], ...]
    arc_var: tuple[int, ...]
    arc_other: tuple[int, ...]
    watchers: tuple[tuple[int, ...], ...]
    reverse: tuple[int, ...]
    sum_arcs: tuple[tuple[int, ...], ...]
    n_binary: int


@dataclass(frozen=True)
class CSP:
    """A constraint satisfaction problem over integer variables ``0..len(domains)-1``.

    Attributes:
        domains: per variable, its initial domain as a bit set (see :func:`mask_of`).
        constraints: the constraints.
        names: optional per-variable labels (``"r1c1"``) for traces and messages.

    Raises:
        ValueError: a constraint names a variable outside the range, a ``!=`` joins a variable to
            itself, or a sum has mismatched lengths, a zero coefficient or a repeated variable.

    >>> csp = CSP.build([[1, 2], [1, 2], [1, 2, 3]], [AllDifferent((0, 1, 2))])
    >>> csp.tables.n_binary, csp.tables.neighbours[2]
    (6, (0, 1))
    """

    domains: tuple[int, ...]
    constraints: tuple[Constraint, ...]
    names: tuple[str, ...] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for c in self.constraints:
            self._check(c)

    @staticmethod
    def build(domains: Sequence[Iterable[int]], constraints: Iterable[Constraint],
              names: Sequence[str] | None = None) -> CSP:
        """Return a CSP from value lists per variable (not bit sets) and constraints."""
        return CSP(tuple(mask_of(d) for d in domains), tuple(constraints),
                   tuple(names) if names is not None else None)

    @property
    def n_variables(self) -> int:
        return len(self.domains)

    def name(self, var: int) -> str:
        """The label of a variable (``x3`` without names)."""
        return self.names[var] if self.names else f"x{var}"

    def _check(self, c: Constraint) -> None:
        variables = (c.x, c.y) if isinstance(c, (NotEqual, NotConsecutive)) else c.variables
        bad = [v for v in variables if not 0 <= v < len(self.domains)]
        if bad:
            raise ValueError(f"{c}: variable {bad[0]} outside 0..{len(self.domains) - 1}")
        if len(set(variables)) != len(variables):
            raise ValueError(f"{c}: a variable appears twice")
        if isinstance(c, LinearSum) and (len(c.coeffs) != len(c.variables) or 0 in c.coeffs):
            raise ValueError(f"{c}: need one non-zero coefficient per variable")

    @cached_property
    def tables(self) -> Compiled:
        """The flat tables of this CSP (computed once)."""
        n = len(self.domains)
        nbrs: list[set[int]] = [set() for _ in range(n)]
        sums = tuple(c for c in self.constraints
                     if isinstance(c, (LinearSum, NotConsecutive, CageSum, Filtered)))
        for c in self.constraints:
            pairs = ([(c.x, c.y)] if isinstance(c, NotEqual) else
                     [(a, b) for a in c.variables for b in c.variables if a < b]
                     if isinstance(c, (AllDifferent, CageSum)) else [])
            for a, b in pairs:
                nbrs[a].add(b)
                nbrs[b].add(a)
        neighbours = tuple(tuple(sorted(s)) for s in nbrs)
        arc_var = [x for x in range(n) for _ in neighbours[x]]
        arc_other = [y for x in range(n) for y in neighbours[x]]
        index = {(x, y): a for a, (x, y) in enumerate(zip(arc_var, arc_other))}
        reverse = [index[(y, x)] for x, y in zip(arc_var, arc_other)]
        n_binary = len(arc_var)
        sums_of: list[list[int]] = [[] for _ in range(n)]
        watchers: list[list[int]] = [[] for _ in range(n)]
        sum_arcs = []
        for a in range(n_binary):
            watchers[arc_other[a]].append(a)
        for s, c in enumerate(sums):
            arcs = {}
            for v in c.variables:
                sums_of[v].append(s)
                arcs[v] = len(arc_var)
                arc_var.append(v)
                arc_other.append(-1 - s)
                reverse.append(-1)
            for v in c.variables:
                watchers[v].extend(a for u, a in arcs.items() if u != v)
            sum_arcs.append(tuple(arcs.values()))
        return Compiled(neighbours, sums, tuple(map(tuple, sums_of)), tuple(arc_var),
                        tuple(arc_other), tuple(map(tuple, watchers)), tuple(reverse),
                        tuple(sum_arcs), n_binary)
