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
from typing import cast

from ..errors import LimitReached
from ..model.result import CnfResult, Limits, Stats, Status, gather
from ..sat.cnf import DEFAULT_CNF_METHOD, checked_model, cnf_counters, cnf_method, cnf_models
from ..sat.dimacs import Dimacs
from .request import Request

__all__ = ["solve_cnf"]


def solve_cnf(cnf: Dimacs, method: str = DEFAULT_CNF_METHOD, *, time_limit: float | None = None,
              node_limit: int | None = None, cmd: str | None = None,
              request: Request | None = None) -> CnfResult:
    """Solve a CNF with one method under limits, verifying the model against every clause.

    Args:
        cnf: the formula (e.g. from :func:`sudokit.sat.dimacs.read_dimacs`).
        method: ``dpll``, a PySAT backend name (``sat:`` prefix allowed) or ``exec``.
        time_limit: seconds for the whole call, loading included (None: no limit).
        node_limit: most decisions (``exec``: most runs of the binary); None: no limit.
        cmd: the binary's command template for ``exec`` (``{in}``, optionally ``{out}``).
        request: a prepared :class:`~sudokit.run.request.Request` (``problem="cnf"``, the
            command template as its option ``cmd``) instead of ``method``, the limits and
            ``cmd``.

    Returns:
        A CnfResult; a hit limit is ``Status.UNKNOWN``, never an exception.

    Raises:
        UnknownMethod: no such method (the message lists the choices).
        MethodUnavailable: PySAT or the binary is missing.
        InvalidOption: ``cmd`` without ``exec``, or a negative limit.
        SolverBug: a solver returned a model that falsifies a clause.
    """
    if request is None:
        request = Request(method, {"cmd": cmd} if cmd else {}, Limits(time_limit, node_limit),
                          problem="cnf")
    cmd = cast("str | None", request.options.get("cmd"))  # a command template: text
    name = cnf_method(request.method, cmd)
    stats = Stats.counting(cnf_counters(name))
    start = time.perf_counter()
    limits = request.limits.start()
    try:
        models = (tuple(m) for m in cnf_models(cnf, name, cmd, stats, limits))
        found, status, message = gather(models, lambda model: checked_model(cnf, model, name), 1)
    except LimitReached as exc:  # raised while the formula was loaded, before the search
        found, status, message = [], Status.UNKNOWN, str(exc)
    return CnfResult(status, found[0] if found else (), name, time.perf_counter() - start,
                     stats, cnf.n_vars, len(cnf.clauses), message)
