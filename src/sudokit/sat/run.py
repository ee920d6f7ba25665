"""Solve any CNF (not only a Sudoku's): our DPLL, a PySAT backend or a solver binary, under limits.

The same machinery as Sudoku solving: :class:`~sudokit.model.result.Limits` (an exact node limit, a
time limit covering loading), one status enum, counters that stay None when not measured, and a
model verified against every clause before it is reported.

* ``dpll``: :mod:`sudokit.sat.dpll` (Davis, Logemann and Loveland 1962); counters nodes
  (= decisions), decisions, propagations, conflicts, backtracks.
* a PySAT backend (``cadical195``, ``glucose4``, ...; ``sat:`` prefix allowed): run by
  :func:`sudokit.sat.pysat.limited_solve` (the routine Sudoku SAT uses); counters nodes,
  decisions, conflicts, propagations.
* ``exec``: a DIMACS binary through :func:`sudokit.sat.external.run_command` (``cmd`` template,
  default the first of kissat, cadical, minisat, ... on PATH); a node is one run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..errors import InvalidOption, LimitReached, MethodUnavailable, SolverBug
from ..model.result import Limits, Stats, Status, gather
from .dimacs import Dimacs
from .dpll import DPLL_COUNTERS, dpll_models

__all__ = ["CnfResult", "cnf_methods", "solve_cnf", "falsified_clause", "model_lines",
           "DEFAULT_CNF_METHOD"]

DEFAULT_CNF_METHOD = "dpll"
_PYSAT_COUNTERS = frozenset({"nodes", "decisions", "conflicts", "propagations"})
EXEC = "exec"


@dataclass(frozen=True)
class CnfResult:
    """The outcome of solving one CNF.

    Attributes:
        status: SOLVED (satisfiable, ``model`` verified), UNSATISFIABLE (proved) or UNKNOWN
            (a limit was hit, or the binary answered UNKNOWN).
        model: one literal per variable 1..n_vars (positive: true), empty unless SOLVED.
        method: the method that ran (``dpll``, ``cadical195``, ``exec``).
        seconds: wall time of the whole call (loading included), in seconds.
        stats: the counters the method measures (others None).
        n_vars, n_clauses: the formula's size.
        message: why the status is UNKNOWN, if it is.
    """

    status: Status
    model: tuple[int, ...]
    method: str
    seconds: float
    stats: Stats
    n_vars: int
    n_clauses: int
    message: str | None = None


def cnf_methods() -> tuple[str, ...]:
    """Return the method names :func:`solve_cnf` accepts here (PySAT backends if installed)."""
    from .pysat import pysat_backends

    return (DEFAULT_CNF_METHOD, *pysat_backends(), EXEC)


def falsified_clause(clauses: Sequence[Sequence[int]], model: Sequence[int]) -> int | None:
    """Return the index of the first clause no literal of ``model`` satisfies, or None.

    >>> falsified_clause([[1, -2], [2]], [1, 2]), falsified_clause([[1, -2], [2]], [-1, -2])
    (None, 1)
    """
    true = set(model)
    return next((i for i, clause in enumerate(clauses) if true.isdisjoint(clause)), None)


def model_lines(model: Sequence[int], width: int = 78) -> list[str]:
    """Return the model as SAT-competition ``v`` lines, the last ending with ``0``.

    >>> model_lines([1, -2, 3], width=6)
    ['v 1 -2', 'v 3 0']
    """
    lines, current = [], "v"
    for token in [*map(str, model), "0"]:
        if len(current) + 1 + len(token) > width and current != "v":
            lines.append(current)
            current = "v"
        current += " " + token
    return [*lines, current]


def solve_cnf(cnf: Dimacs, method: str = DEFAULT_CNF_METHOD, *, time_limit: float | None = None,
              node_limit: int | None = None, cmd: str | None = None) -> CnfResult:
    """Solve a CNF with one method under limits, verifying the model against every clause.

    Args:
        cnf: the formula (e.g. from :func:`sudokit.sat.dimacs.read_dimacs`).
        method: ``dpll``, a PySAT backend name (``sat:`` prefix allowed) or ``exec``.
        time_limit: seconds for the whole call, loading included (None: no limit).
        node_limit: most decisions (``exec``: most runs of the binary); None: no limit.
        cmd: the binary's command template for ``exec`` (``{in}``, optionally ``{out}``).

    Returns:
        A CnfResult; a hit limit is ``Status.UNKNOWN``, never an exception.

    Raises:
        UnknownMethod: no such method (the message lists the choices).
        MethodUnavailable: PySAT or the binary is missing.
        InvalidOption: ``cmd`` without ``exec``, or a negative limit.
        SolverBug: a solver returned a model that falsifies a clause.
    """
    from ..errors import UnknownMethod

    name = method.removeprefix("sat:")
    choices = cnf_methods()
    if name not in choices:
        raise UnknownMethod(f"unknown CNF method {method!r}; choose one of {', '.join(choices)}")
    if cmd is not None and name != EXEC:
        raise InvalidOption("option cmd applies to the exec method only")
    counters = DPLL_COUNTERS if name == DEFAULT_CNF_METHOD else (
        frozenset({"nodes"}) if name == EXEC else _PYSAT_COUNTERS)
    stats = Stats.counting(counters)
    start = time.perf_counter()
    limits = Limits(time_limit, node_limit).start()

    def verified(model: list[int]) -> tuple[int, ...]:
        full = _complete(model, cnf.n_vars)
        bad = falsified_clause(cnf.clauses, full)
        if bad is not None:
            raise SolverBug(f"method {name!r} returned a model that falsifies clause {bad + 1}: "
                            f"{' '.join(map(str, cnf.clauses[bad]))} 0")
        return full

    try:
        if name == DEFAULT_CNF_METHOD:  # loads the formula now
            models: Iterator[list[int]] = dpll_models(cnf.clauses, cnf.n_vars, stats, limits)
        elif name == EXEC:
            models = _exec_models(cnf, cmd, stats, limits)
        else:
            models = _pysat_models(name, cnf, stats, limits)
        found, status, message = gather(models, verified, 1)
    except LimitReached as exc:  # raised while the formula was loaded, before the search
        found, status, message = [], Status.UNKNOWN, str(exc)
    return CnfResult(status, found[0] if found else (), name, time.perf_counter() - start,
                     stats, cnf.n_vars, len(cnf.clauses), message)


def _complete(model: Sequence[int], n_vars: int) -> tuple[int, ...]:
    """One literal per variable 1..n_vars; variables the solver left out are false."""
    true = {lit for lit in model if lit > 0}
    return tuple(v if v in true else -v for v in range(1, n_vars + 1))


def _pysat_models(name: str, cnf: Dimacs, stats: Stats, limits: Limits) -> Iterator[list[int]]:
    from pysat.solvers import Solver as PySatSolver

    from .pysat import limited_solve

    if any(not clause for clause in cnf.clauses):
        return  # an empty clause: unsatisfiable (not every backend accepts one)
    limits.check(stats)
    with PySatSolver(name=name, bootstrap_with=cnf.clauses) as solver:
        limits.check(stats)  # loading counts against the time limit
        if limited_solve(solver, stats, limits):
            yield list(solver.get_model() or ())


def _exec_models(cnf: Dimacs, cmd: str | None, stats: Stats,
                 limits: Limits) -> Iterator[list[int]]:
    from .external import default_command, run_command

    command = cmd or default_command()
    if command is None:
        raise MethodUnavailable("exec found no SAT solver binary on PATH (kissat, cadical, "
                                "minisat, glucose, lingeling, zchaff); install one or pass "
                                "-o cmd='SOLVER {in} {out}'")
    limits.count_node(stats)
    output = run_command(command, cnf.clauses, cnf.n_vars, comments=cnf.comments,
                         deadline=limits.deadline, check=lambda: limits.check(stats))
    if output.outcome is Status.UNKNOWN:
        raise LimitReached(f"{command.split()[0]} answered UNKNOWN")
    if output.outcome is Status.SOLVED:
        yield list(output.model)
