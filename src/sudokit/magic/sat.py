"""Magic squares through SAT: a pseudo-Boolean encoding solved by PySAT.

Variables ``x(c, v)`` (cell c holds value v) are numbered ``c * n² + v``, so 1..n⁴ (the DIMACS
convention: positive literals are variables, negative their negations). Clauses:

* each cell holds exactly one value and each value is in exactly one cell (cardinality
  constraints from :mod:`pysat.card`, sequential counter);
* each line: ``sum(v * x(c, v) for c in line for v in 1..n²) == M(n)``, a pseudo-Boolean
  equality encoded to CNF by :mod:`pysat.pb` (the pindakaas library, ``EncType.best``);
* givens as unit clauses; symmetry breaking as ``x(a, v) -> not x(b, w)`` for every w <= v of each
  corner pair ``square[a] < square[b]``.

Enumeration adds a blocking clause (the negation of each found square) and solves again, so the
solver keeps what it learnt. Limits: the solver runs in slices of conflicts (a conflict budget,
since CaDiCaL cannot be interrupted) with ``limits.check`` between slices, and a node limit becomes
a decision budget. Counters: ``decisions``, ``conflicts`` and ``propagations``
from the solver, with ``nodes`` = decisions and ``backtracks`` = conflicts (each conflict undoes
decisions), so the magic methods compare on the same columns.

References: A. Ignatiev, A. Morgado and J. Marques-Silva, "PySAT: A Python toolkit for
prototyping with SAT oracles", SAT 2018; C. Sinz, "Towards an optimal CNF encoding of Boolean
cardinality constraints", CP 2005 (sequential counter); N. Eén and N. Sörensson, "Translating
pseudo-Boolean constraints into SAT", JSAT 2006.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..errors import MethodUnavailable
from ..result import Limits, Stats
from .model import MagicProblem, Square, corner_order, lines

__all__ = ["magic_cnf", "sat_search", "SLICE", "DEFAULT_SOLVER"]

SLICE = 2_000
"""Conflicts in the first solver call before the limits are checked (later calls double it)."""

DEFAULT_SOLVER = "cadical195"


def magic_cnf(problem: MagicProblem) -> tuple[list[list[int]], int]:
    """Return the CNF of ``problem`` (module docstring) and its number of variables.

    Raises:
        MethodUnavailable: :mod:`pysat.pb` cannot run (its pindakaas backend is missing).
    """
    from pysat.card import CardEnc, EncType

    try:
        from pysat.pb import EncType as PBType, PBEnc
    except (ImportError, AssertionError) as exc:
        raise MethodUnavailable(
            "method 'sat' needs pysat.pb with its pindakaas backend: "
            "pip install 'python-sat[pb]'") from exc
    n, size = problem.n, problem.n * problem.n
    values = range(1, size + 1)
    clauses: list[list[int]] = []
    top = size * size

    def x(c: int, v: int) -> int:
        return c * size + v

    def add(encoded: object) -> None:
        nonlocal top
        clauses.extend(encoded.clauses)
        top = max(top, encoded.nv)

    groups = [[x(c, v) for v in values] for c in range(size)]
    groups += [[x(c, v) for c in range(size)] for v in values]
    for lits in groups:
        add(CardEnc.equals(lits, 1, top_id=top, encoding=EncType.seqcounter))
    for line in lines(n):
        add(PBEnc.equals(lits=[x(c, v) for c in line for v in values],
                         weights=[v for _ in line for v in values], bound=problem.constant,
                         top_id=top, encoding=PBType.best))
    clauses += [[x(c, v)] for c, v in enumerate(problem.givens) if v]
    if problem.symmetry:
        clauses += [[-x(a, v), -x(b, w)] for a, b in corner_order(n) for v in values
                    for w in range(1, v + 1)]
    return clauses, top


def _square(model: list[int], size: int) -> Square:
    """Read the square off a model: cell c holds the v with x(c, v) true."""
    square = [0] * size
    for lit in model:
        if 0 < lit <= size * size:
            square[(lit - 1) // size] = (lit - 1) % size + 1
    return tuple(square)


def _solve(solver: object, stats: Stats, limits: Limits) -> bool:
    """Solve in conflict-budget slices, checking limits between them; True when satisfiable.

    Slices start at :data:`SLICE` conflicts and double (CaDiCaL restarts its search on each
    call, so short slices would slow it), but are cut to the conflicts the measured rate allows
    in the time left.
    """
    budget = SLICE
    while True:
        solver.conf_budget(budget)
        if limits.node_limit is not None:
            solver.dec_budget(max(1, limits.node_limit - (stats.nodes or 0) + 1))
        start = time.perf_counter()
        outcome = solver.solve_limited()
        _read_stats(solver, stats)
        if outcome is not None:
            return outcome
        limits.check(stats)
        rate = budget / max(time.perf_counter() - start, 1e-6)
        left = limits.remaining()
        budget = 2 * budget if left is None else max(50, min(2 * budget, int(rate * left)))


def _read_stats(solver: object, stats: Stats) -> None:
    acc = solver.accum_stats() or {}
    stats.decisions = stats.nodes = acc.get("decisions", 0)
    stats.conflicts = stats.backtracks = acc.get("conflicts", 0)
    stats.propagations = acc.get("propagations", 0)


def sat_search(problem: MagicProblem, stats: Stats, limits: Limits,
               solver_name: str = DEFAULT_SOLVER) -> Iterator[Square]:
    """Yield every magic square of ``problem`` by SAT solving with blocking clauses.

    Args:
        problem: order, givens and symmetry breaking.
        stats: filled with decisions, conflicts, propagations, nodes and backtracks (the
            solver's cumulative counts); modified in place.
        limits: checked once the CNF is built and loaded (for n = 6 that takes about 3 s) and
            between solver slices; a node limit caps the decisions.
        solver_name: a PySAT solver name with conflict budgets (``cadical195``, ``glucose4``,
            ``minisat22``, ...).

    Raises:
        LimitReached: a limit was hit.
        MethodUnavailable: pysat.pb cannot run.
    """
    from pysat.solvers import Solver

    clauses, _top = magic_cnf(problem)
    limits.check(stats)
    size = problem.n * problem.n
    with Solver(name=solver_name, bootstrap_with=clauses) as solver:
        limits.check(stats)
        while _solve(solver, stats, limits):
            square = _square(solver.get_model(), size)
            yield square
            solver.add_clause([-(c * size + v) for c, v in enumerate(square)])
