"""Adapter for ``sat:BACKEND``: real SAT solvers through PySAT, or a solver binary (``sat:exec``).

The puzzle is encoded (option ``encoding``, default ``reduced``: Kwon and Jain 2006, built on
arrays by :mod:`sudokit.sat.compact`), solved, decoded and verified by the front door; more
solutions come from blocking clauses. The searches are :class:`~sudokit.sat.search.CdclSearch`
(PySAT, under limits by :func:`~sudokit.sat.pysat.limited_solve`) and
:func:`~sudokit.sat.search.exec_solutions` (a binary, killed at the deadline).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..errors import InvalidOption
from ..model.geometry import ALL_FEATURES
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from ..registry import register
from ..sat.encoding import DEFAULT_ENCODING, ENCODING_CHOICES, Encoding
from ..sat.external import EXEC, default_command
from ..sat.pysat import PYSAT_COUNTERS, pysat_backends
from ..sat.rules import SAT_RULE_KINDS
from ..sat.search import CdclSearch, exec_solutions
from .base import Solver

if TYPE_CHECKING:
    from ..registry import OptionValue

__all__ = ["SatSolver"]


@register
class SatSolver(Solver):
    """A Sudoku CNF solved by a PySAT backend (``sat:cadical195`` ...) or a binary (``sat:exec``).

    Options: ``encoding`` (see :mod:`sudokit.sat.encoding`); ``cmd`` (``sat:exec`` only): the
    command template with ``{in}`` and optionally ``{out}``, default the first of kissat,
    cadical, minisat on PATH. ``exec`` is listed as a backend when such a binary is on PATH; with
    ``cmd`` it works anywhere.
    """

    name = "sat"
    summary = ("Sudoku CNF (Lynce and Ouaknine 2006 / Kwon and Jain 2006) solved by a real SAT "
               "solver: PySAT backends or any DIMACS binary (sat:exec)")
    requires = ("pysat",)
    install = "python-sat"
    counters = PYSAT_COUNTERS
    options = {"encoding": (DEFAULT_ENCODING.value, ENCODING_CHOICES), "cmd": (None, None)}
    features = ALL_FEATURES | SAT_RULE_KINDS  # every drawn rule kind: sat.rules
    backends = pysat_backends() + ((EXEC,) if default_command() else ())
    default_backend = "cadical195"
    backend: str  # a PySAT backend (the default when none is given) or EXEC, never None
    local_only = frozenset({EXEC, "cmd"})  # a program run on this machine: never for a server

    def __init__(self, backend: str | None = None, **options: OptionValue) -> None:
        super().__init__(None if backend == EXEC else backend, **options)
        if backend == EXEC:
            self.backend = EXEC
        cmd = self.settings["cmd"]
        if cmd is not None and self.backend != EXEC:
            raise InvalidOption("option cmd applies to sat:exec only")
        if cmd is not None:
            _check_command(cmd)

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        encoding = Encoding(self.settings["encoding"])
        if self.backend == EXEC:
            yield from exec_solutions(puzzle, encoding, self.settings["cmd"], stats, limits)
            return
        with CdclSearch(puzzle, self.backend, encoding, stats, limits) as search:
            while (grid := search.next(stats, limits)) is not None:
                yield grid
                search.block(grid)


def _check_command(cmd: str) -> None:
    """Check a ``cmd`` template before any solving: shell words, ``{in}`` among them.

    Raises:
        InvalidOption: unbalanced quotes, or no ``{in}``.
    """
    import shlex

    try:
        words = shlex.split(cmd)
    except ValueError as exc:
        raise InvalidOption(f"option cmd={cmd!r}: {exc}") from None
    if not any("{in}" in word for word in words):
        raise InvalidOption(f"option cmd={cmd!r} must contain {{in}} (the CNF file), e.g. "
                            "'minisat {in} {out}'")
