"""The CNF front door: solve any DIMACS CNF with one method under limits, the model verified.

The same machinery as Sudoku solving: :class:`~sudokit.model.result.Limits` (an exact node limit,
a time limit covering loading), one status enum, counters that stay None when not measured, the
shared :func:`~sudokit.model.result.gather` loop, and a model verified against every clause
before it is reported. The methods are those of :mod:`sudokit.sat.cnf`.

>>> from sudokit.sat.dimacs import read_dimacs
>>> solve_cnf(read_dimacs("p cnf 2 2\\n1 2 0\\n-1 0\\n")).model
(-1, 2)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import LimitReached
from ..model.result import Limits, Stats, Status, gather
from ..sat.cnf import DEFAULT_CNF_METHOD, checked_model, cnf_counters, cnf_method, cnf_models
from ..sat.dimacs import Dimacs

__all__ = ["CnfResult", "solve_cnf"]


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
    name = cnf_method(method, cmd)
    stats = Stats.counting(cnf_counters(name))
    start = time.perf_counter()
    limits = Limits(time_limit, node_limit).start()
    try:
        found, status, message = gather(cnf_models(cnf, name, cmd, stats, limits),
                                        lambda model: checked_model(cnf, model, name), 1)
    except LimitReached as exc:  # raised while the formula was loaded, before the search
        found, status, message = [], Status.UNKNOWN, str(exc)
    return CnfResult(status, found[0] if found else (), name, time.perf_counter() - start,
                     stats, cnf.n_vars, len(cnf.clauses), message)
