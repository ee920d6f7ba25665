"""Adapters of the magic-square methods: :class:`MagicSolver` and one class per method.

Magic methods take a :class:`~sudokit.magic.model.MagicProblem`, not a Sudoku ``Puzzle``; they are
:class:`~sudokit.solvers.base.Solver` classes with ``problem = "magic"``, so names resolve,
options are checked and methods are listed by :mod:`sudokit.registry` exactly as for Sudoku
(``get_solver("forward-checking", problem="magic", bounds=False)``). The searches run the CSP
core's loop (:func:`sudokit.csp.search.depth_first`) or the CSP core itself (``mac``), and
``sat`` runs PySAT through the routine Sudoku's SAT method uses
(:func:`sudokit.sat.pysat.limited_solve`). The front door is :mod:`sudokit.run.magic`.

The registry imports this module for the magic problem only (``registry._MODULES``), so a
Sudoku run never loads the magic-square code.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import ClassVar

from ..csp import Inference, Order, Select, counters_for
from ..errors import UnsupportedPuzzle
from ..magic.count import line_enumeration
from ..magic.mac import mac_search
from ..magic.model import MagicProblem, Square
from ..magic.sat import DEFAULT_SOLVER, SOLVER_NAMES, SumEncoding, sat_search
from ..magic.search import SELECTS, ValueOrder, backtracking, forward_checking
from ..model.result import Limits, Stats
from ..registry import MAGIC, OptionValue, register
from ..sat.pysat import PYSAT_COUNTERS
from .base import Solver

__all__ = ["MAGIC_SOLVERS", "MagicBacktracking", "MagicForwardChecking", "MagicLines",
           "MagicMac", "MagicSat", "MagicSolver"]


def _values(enum: type[Enum]) -> tuple[OptionValue, ...]:
    return tuple(member.value for member in enum)


class MagicSolver(Solver):
    """A magic-square method: declarations as for Sudoku methods, plus ``max_order``.

    Class attributes:
        max_order: the largest order it accepts (its model grows too fast beyond; None: any).
    """

    problem: ClassVar[str] = MAGIC
    counters = frozenset({"nodes", "backtracks"})
    max_order: ClassVar[int | None] = None

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
        """The method's generator of flat squares, its options read from ``self.settings`` (each
        option's text converted to the Enum its search takes)."""
        raise NotImplementedError

    def solutions(self, problem: MagicProblem, stats: Stats, limits: Limits  # type: ignore[override]
                  ) -> Iterator[Square]:
        """Yield the squares of ``problem`` (flat, row-major); see :meth:`Solver.solutions`."""
        return self.search(problem, stats, limits)

    def check_order(self, n: int) -> None:
        """Raise UnsupportedPuzzle when ``n`` is above :attr:`max_order`."""
        if self.max_order is not None and n > self.max_order:
            raise UnsupportedPuzzle(f"magic method {self.name!r} supports orders up to "
                                    f"{self.max_order}, not {n}")


@register
class MagicBacktracking(MagicSolver):
    """Chronological backtracking in row-major order
    (:func:`~sudokit.magic.search.backtracking`)."""

    name = "backtracking"
    summary = "chronological backtracking, each line checked when full"
    max_order = 32  # a list of n² values per search depth, up to n² deep: n⁴ entries

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
        return backtracking(problem, stats, limits)


@register
class MagicForwardChecking(MagicSolver):
    """Forward checking (:func:`~sudokit.magic.search.forward_checking`); ``bounds=False`` is
    the report's."""

    name = "forward-checking"
    summary = "forward checking: all-different, partial-sum bounds (bounds=false: off), MRV"
    options = {"select": (Select.MRV.value, tuple(s.value for s in SELECTS)),
               "order": (ValueOrder.EXTREMES.value, _values(ValueOrder)),
               "bounds": (True, (True, False))}
    max_order = 32  # the trail keeps an n²-bit domain per free cell per depth: n⁶ bits

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
        return forward_checking(problem, stats, limits, select=Select(self.settings["select"]),
                                order=ValueOrder(self.settings["order"]),
                                bounds=self.settings["bounds"])


@register
class MagicMac(MagicSolver):
    """The CSP core on the magic square's CSP (:func:`~sudokit.magic.mac.mac_search`)."""

    name = "mac"
    summary = "MAC (AC-3 with bounds-consistent sums) through the generic CSP core"
    options = {"select": (Select.MRV.value, _values(Select)),
               "order": (Order.NATURAL.value, _values(Order)),
               "inference": (Inference.MAC.value, _values(Inference))}
    max_order = 16  # n⁴ directed != arcs, whose tables take 0.7 s to build for n = 16, 11 s for 32

    def __init__(self, backend: str | None = None, **options: OptionValue) -> None:
        super().__init__(backend, **options)
        self.counters = counters_for(Inference(self.settings["inference"]), has_sums=True)

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
        return mac_search(problem, stats, limits, select=Select(self.settings["select"]),
                          order=Order(self.settings["order"]),
                          inference=Inference(self.settings["inference"]))


@register
class MagicSat(MagicSolver):
    """CNF with order-encoded line sums, solved by a PySAT backend
    (:func:`~sudokit.magic.sat.sat_search`)."""

    name = "sat"
    summary = "CNF (order-encoded line sums) solved by PySAT (sat:glucose4 ...; default CaDiCaL)"
    requires = ("pysat",)
    install = "python-sat"
    counters = PYSAT_COUNTERS
    backends = SOLVER_NAMES
    default_backend = DEFAULT_SOLVER
    options = {"solver_name": (None, (None, *SOLVER_NAMES)),
               "encoding": (SumEncoding.ORDER.value, _values(SumEncoding))}
    max_order = 12  # ~n⁶ clauses: 5 million for n = 12

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
        name = self.settings["solver_name"] or self.backend or DEFAULT_SOLVER
        return sat_search(problem, stats, limits, solver_name=name,
                          encoding=SumEncoding(self.settings["encoding"]))


@register
class MagicLines(MagicSolver):
    """Line-based enumeration (:func:`~sudokit.magic.count.line_enumeration`): counting them
    all."""

    name = "lines"
    summary = "line-based enumeration: row sets, orthogonal column sets, orders"
    max_order = 7  # 957,332 line sets for n = 7; far more, and n! orders, beyond

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits) -> Iterator[Square]:
        return line_enumeration(problem, stats, limits)


MAGIC_SOLVERS = (MagicBacktracking, MagicForwardChecking, MagicMac, MagicSat, MagicLines)
"""Every magic-square method class, in the order :data:`sudokit.run.magic.METHODS` lists them."""
