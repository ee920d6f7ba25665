"""Any CNF (not only a Sudoku's): the methods that solve one, their models, and checking them.

The front door :func:`sudokit.run.cnf.solve_cnf` runs one of these methods under
:class:`~sudokit.model.result.Limits` and verifies the model against every clause:

* ``dpll``: :mod:`sudokit.sat.dpll` (Davis, Logemann and Loveland 1962); counters nodes
  (= decisions), decisions, propagations, conflicts, backtracks.
* a PySAT backend (``cadical195``, ``glucose4``, ...; ``sat:`` prefix allowed): run by
  :func:`sudokit.sat.pysat.limited_solve` (the routine Sudoku SAT uses); counters nodes,
  decisions, conflicts, propagations.
* ``exec``: a DIMACS binary through :func:`sudokit.sat.external.run_command` (``cmd`` template,
  default the first of kissat, cadical, minisat, ... on PATH); a node is one run.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..errors import InvalidOption, LimitReached, MethodUnavailable, SolverBug, UnknownMethod
from ..model.result import Limits, Stats, Status
from .dimacs import Dimacs
from .dpll import DPLL_COUNTERS, dpll_models
from .external import EXEC, default_command, run_command
from .pysat import PYSAT_COUNTERS, limited_solve, pysat_backends

__all__ = ["DEFAULT_CNF_METHOD", "checked_model", "cnf_counters", "cnf_method", "cnf_methods",
           "cnf_models", "falsified_clause", "model_lines"]

DEFAULT_CNF_METHOD = "dpll"


def cnf_methods() -> tuple[str, ...]:
    """Return the method names :func:`~sudokit.run.cnf.solve_cnf` accepts here (PySAT backends
    if installed)."""
    return (DEFAULT_CNF_METHOD, *pysat_backends(), EXEC)


def cnf_method(method: str, cmd: str | None = None) -> str:
    """Return the method named by ``method`` (a ``sat:`` prefix dropped), checked.

    Raises:
        UnknownMethod: no such method (the message lists the choices).
        InvalidOption: ``cmd`` without ``exec``.
    """
    name = method.removeprefix("sat:")
    choices = cnf_methods()
    if name not in choices:
        raise UnknownMethod(f"unknown CNF method {method!r}; choose one of {', '.join(choices)}")
    if cmd is not None and name != EXEC:
        raise InvalidOption("option cmd applies to the exec method only")
    return name


def cnf_counters(name: str) -> frozenset[str]:
    """The counters method ``name`` (from :func:`cnf_method`) measures."""
    if name == DEFAULT_CNF_METHOD:
        return DPLL_COUNTERS
    return frozenset({"nodes"}) if name == EXEC else PYSAT_COUNTERS


def cnf_models(cnf: Dimacs, name: str, cmd: str | None, stats: Stats,
               limits: Limits) -> Iterator[list[int]]:
    """Return the models method ``name`` finds for ``cnf`` (``dpll`` loads the formula now).

    Args:
        cnf: the formula.
        name: a method from :func:`cnf_method`.
        cmd: the binary's command template for ``exec`` (None: the first binary on PATH).
        stats: the counters of :func:`cnf_counters`, incremented in place.
        limits: started; they cover loading the formula.

    Raises:
        LimitReached: a limit was hit (also while iterating).
        MethodUnavailable: PySAT or the binary is missing.
    """
    if name == DEFAULT_CNF_METHOD:
        return dpll_models(cnf.clauses, cnf.n_vars, stats, limits)
    if name == EXEC:
        return _exec_models(cnf, cmd, stats, limits)
    return _pysat_models(name, cnf, stats, limits)


def falsified_clause(clauses: Sequence[Sequence[int]], model: Sequence[int]) -> int | None:
    """Return the index of the first clause no literal of ``model`` satisfies, or None.

    >>> falsified_clause([[1, -2], [2]], [1, 2]), falsified_clause([[1, -2], [2]], [-1, -2])
    (None, 1)
    """
    true = set(model)
    return next((i for i, clause in enumerate(clauses) if true.isdisjoint(clause)), None)


def checked_model(cnf: Dimacs, model: Sequence[int], name: str) -> tuple[int, ...]:
    """Return one literal per variable 1..n_vars (variables the solver left out are false),
    after checking the model satisfies every clause.

    Raises:
        SolverBug: the model falsifies a clause (the message names method ``name`` and it).
    """
    true = {lit for lit in model if lit > 0}
    full = tuple(v if v in true else -v for v in range(1, cnf.n_vars + 1))
    bad = falsified_clause(cnf.clauses, full)
    if bad is not None:
        raise SolverBug(f"method {name!r} returned a model that falsifies clause {bad + 1}: "
                        f"{' '.join(map(str, cnf.clauses[bad]))} 0")
    return full


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


def _pysat_models(name: str, cnf: Dimacs, stats: Stats, limits: Limits) -> Iterator[list[int]]:
    from pysat.solvers import Solver as PySatSolver

    if any(not clause for clause in cnf.clauses):
        return  # an empty clause: unsatisfiable (not every backend accepts one)
    limits.check(stats)
    with PySatSolver(name=name, bootstrap_with=cnf.clauses) as solver:
        limits.check(stats)  # loading counts against the time limit
        if limited_solve(solver, stats, limits):
            yield list(solver.get_model() or ())


def _exec_models(cnf: Dimacs, cmd: str | None, stats: Stats,
                 limits: Limits) -> Iterator[list[int]]:
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
