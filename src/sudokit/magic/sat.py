"""Magic squares through SAT: CNF encodings of the line sums, solved by PySAT.

Variables (DIMACS: positive literals are variables, negative their negations), with s = n²:

* ``x(c, v)`` = ``c * s + v``: cell c holds value v (1..s²);
* ``y(c, v)`` = ``s² + c * s + v`` for v in 2..s: cell c holds at least v (the *order
  encoding*: ``y(c, v + 1) -> y(c, v)``, and ``x(c, v)`` is exactly ``y(c, v) and not
  y(c, v + 1)``), so the value of cell c is ``1 + sum(y(c, v) for v in 2..s)``.

Clauses:

* each cell holds exactly one value and each value is in exactly one cell (cardinality
  constraints of :mod:`pysat.card`, sequential counter);
* each line sums to M(n), in one of two encodings (:class:`SumEncoding`):
  ``order`` (default): ``sum(y(c, v) for c in line for v in 2..s) == M(n) - n``, a plain
  cardinality constraint (``pysat.card``, the k-modulo totalizer);
  ``pb``: ``sum(v * x(c, v)) == M(n)``, a pseudo-Boolean equality encoded by :mod:`pysat.pb`
  (its pindakaas backend, ``EncType.best``);
* givens as unit clauses; symmetry breaking ``square[a] < square[b]`` as ``y(b, 2)`` and
  ``y(a, v) -> y(b, v + 1)`` for every v (``not y(a, s)`` for the last).

On empty squares of order 5, ``order`` needed 52,010 clauses and 8.6 s, ``pb`` 191,724 clauses
and 46 s (CaDiCaL 1.9.5, one loaded core).

Enumeration adds a blocking clause (the negation of each found square) and solves again, so the
solver keeps what it learnt. Limits and counters are those of Sudoku's SAT method: the one
PySAT-under-limits routine, :func:`sudokit.sat.pysat.limited_solve` (conflict-budget slices and
``interrupt()`` at the deadline; a node limit is a decision budget where the backend has one,
else a conflict budget, and exact either way). Counters: ``nodes`` (decisions, at least one per
call), ``decisions``, ``conflicts`` and ``propagations``; backtracks are not measured (None).

References: A. Ignatiev, A. Morgado and J. Marques-Silva, "PySAT: A Python toolkit for
prototyping with SAT oracles", SAT 2018; C. Sinz, "Towards an optimal CNF encoding of Boolean
cardinality constraints", CP 2005 (sequential counter); N. Tamura, A. Taga, S. Kitagawa and
M. Banbara, "Compiling finite linear CSP into SAT", Constraints 14, 2009 (order encoding);
A. Morgado, C. Dodaro and J. Marques-Silva, "Core-guided MaxSAT with soft cardinality
constraints", CP 2014 (k-modulo totalizer); N. Eén and N. Sörensson, "Translating pseudo-Boolean
constraints into SAT", JSAT 2006.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import Enum
from typing import Protocol

from ..errors import MethodUnavailable
from ..model.result import Limits, Stats
from ..sat.pysat import limited_solve
from .model import MagicProblem, Square, corner_order, lines

__all__ = ["SumEncoding", "magic_cnf", "sat_search", "DEFAULT_SOLVER", "SOLVER_NAMES"]

SOLVER_NAMES = ("cadical195", "glucose4", "minisat22", "maplechrono")
"""PySAT backends offered for magic squares (each with conflict budgets)."""

DEFAULT_SOLVER = "cadical195"


class SumEncoding(Enum):
    """How the line sums become clauses (module docstring)."""

    ORDER = "order"
    PB = "pb"


class _Encoded(Protocol):
    """A pysat.card / pysat.pb encoding (a pysat ``CNF`` or ``CNFPlus``)."""

    clauses: list[list[int]]
    nv: int  # the largest variable it uses


class _Cnf:
    """Clauses under construction and the highest variable used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.clauses: list[list[int]] = []
        self.top = 2 * size * size

    def x(self, c: int, v: int) -> int:
        return c * self.size + v

    def y(self, c: int, v: int) -> int:
        """Literal of "cell c holds at least v", for v in 2..s."""
        return self.size * self.size + c * self.size + v

    def add(self, encoded: _Encoded) -> None:
        """Add a pysat.card / pysat.pb encoding, its auxiliary variables above ``top``."""
        self.clauses.extend(encoded.clauses)
        self.top = max(self.top, encoded.nv)

    def channel(self, c: int) -> None:
        """Link x(c, ·) and y(c, ·): order, and x(c, v) <-> y(c, v) and not y(c, v + 1)."""
        s, x, y = self.size, self.x, self.y
        self.clauses += [[-y(c, v + 1), y(c, v)] for v in range(2, s)]
        for v in range(1, s + 1):
            at_least = [y(c, v)] if v > 1 else []
            above = [y(c, v + 1)] if v < s else []
            self.clauses += [[-x(c, v), lit] for lit in at_least]
            self.clauses += [[-x(c, v), -lit] for lit in above]
            self.clauses.append([x(c, v)] + [-lit for lit in at_least] + above)

    def less(self, a: int, b: int) -> None:
        """Add ``square[a] < square[b]`` on the order variables."""
        s, y = self.size, self.y
        self.clauses.append([y(b, 2)])
        self.clauses += [[-y(a, v), y(b, v + 1)] for v in range(2, s)]
        self.clauses.append([-y(a, s)])


def magic_cnf(problem: MagicProblem, encoding: SumEncoding = SumEncoding.ORDER,
              check: Callable[[], None] | None = None) -> tuple[list[list[int]], int]:
    """Return the CNF of ``problem`` (module docstring) and its number of variables.

    Args:
        problem: order, givens and symmetry breaking.
        encoding: how the line sums are encoded.
        check: called between the parts of the encoding (e.g. to check a time limit).

    Raises:
        MethodUnavailable: ``SumEncoding.PB`` without pysat.pb's pindakaas backend.
        LimitReached: from ``check``.
    """
    from pysat.card import CardEnc, EncType

    n, size = problem.n, problem.n * problem.n
    cnf = _Cnf(size)
    values = range(1, size + 1)
    groups = [[cnf.x(c, v) for v in values] for c in range(size)]
    groups += [[cnf.x(c, v) for c in range(size)] for v in values]
    for lits in groups:
        cnf.add(CardEnc.equals(lits, 1, top_id=cnf.top, encoding=EncType.seqcounter))
    for c in range(size):
        cnf.channel(c)
    check = check or (lambda: None)
    check()
    if encoding is SumEncoding.PB:
        _pb_lines(cnf, problem, check)
    else:
        for line in lines(n):
            cnf.add(CardEnc.equals([cnf.y(c, v) for c in line for v in range(2, size + 1)],
                                   problem.constant - n, top_id=cnf.top,
                                   encoding=EncType.kmtotalizer))
            check()
    cnf.clauses += [[cnf.x(c, v)] for c, v in enumerate(problem.givens) if v]
    for a, b in corner_order(n) if problem.symmetry else ():
        cnf.less(a, b)
    return cnf.clauses, cnf.top


def _pb_lines(cnf: _Cnf, problem: MagicProblem, check: Callable[[], None]) -> None:
    """Add each line as a pseudo-Boolean equality over x (pysat.pb)."""
    try:
        from pysat.pb import EncType as PBType
        from pysat.pb import PBEnc
    except (ImportError, AssertionError) as exc:  # pysat.pb asserts its backend on import
        raise MethodUnavailable("the 'pb' encoding needs pysat.pb with its pindakaas backend: "
                                "pip install 'python-sat[pb]'") from exc
    values = range(1, cnf.size + 1)
    for line in lines(problem.n):
        cnf.add(PBEnc.equals(lits=[cnf.x(c, v) for c in line for v in values],
                             weights=[v for _ in line for v in values], bound=problem.constant,
                             top_id=cnf.top, encoding=PBType.best))
        check()


def _square(model: list[int], size: int) -> Square:
    """Read the square off a model: cell c holds the v with x(c, v) true."""
    square = [0] * size
    for lit in model:
        if 0 < lit <= size * size:
            square[(lit - 1) // size] = (lit - 1) % size + 1
    return tuple(square)


def sat_search(problem: MagicProblem, stats: Stats, limits: Limits,
               solver_name: str = DEFAULT_SOLVER,
               encoding: SumEncoding = SumEncoding.ORDER) -> Iterator[Square]:
    """Yield every magic square of ``problem`` by SAT solving with blocking clauses.

    Args:
        problem: order, givens and symmetry breaking.
        stats: :data:`~sudokit.sat.pysat.PYSAT_COUNTERS`, incremented in place.
        limits: checked while the CNF is built, once it is loaded and by
            :func:`~sudokit.sat.pysat.limited_solve`; a node limit caps the decisions.
        solver_name: a PySAT solver name with conflict budgets (``cadical195``, ``glucose4``,
            ``minisat22``, ...).
        encoding: how the line sums are encoded (module docstring).

    Raises:
        LimitReached: a limit was hit.
        MethodUnavailable: the ``pb`` encoding without pysat.pb's backend.
    """
    from pysat.solvers import Solver

    clauses, _top = magic_cnf(problem, encoding, lambda: limits.check(stats))
    size = problem.n * problem.n
    with Solver(name=solver_name, bootstrap_with=clauses) as solver:
        limits.check(stats)
        while limited_solve(solver, stats, limits):
            square = _square(solver.get_model(), size)
            yield square
            solver.add_clause([-(c * size + v) for c, v in enumerate(square)])
