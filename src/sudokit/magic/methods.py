"""The magic-square methods, registered in the one registry, and their front door.

Magic methods take a :class:`~sudokit.magic.model.MagicProblem`, not a Sudoku ``Puzzle``; they are
:class:`~sudokit.solvers.base.Solver` classes with ``problem = "magic"``, so names resolve,
options are checked and methods are listed by :mod:`sudokit.registry` exactly as for Sudoku
(``get_solver("forward-checking", problem="magic", bounds=False)``). The searches run the CSP
core's loop (:func:`sudokit.csp.search.depth_first`) or the CSP core itself (``mac``), and
``sat`` runs PySAT through the routine Sudoku's SAT method uses
(:func:`sudokit.sat.pysat.limited_solve`). Results are :class:`~sudokit.model.result.Result` objects
(:class:`~sudokit.magic.model.MagicResult` names their puzzle ``problem`` and their solutions
``squares``). The front door (:func:`solve_magic`) times the call,
reports contradictory givens as UNSATISFIABLE, turns a hit limit into UNKNOWN (the shared
:func:`~sudokit.model.result.gather` loop) and verifies every square (a wrong one raises
:class:`~sudokit.errors.SolverBug`), as :mod:`sudokit.run.doors` does for Sudoku.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar

from ..run.compare import Comparison, assign_options, compare
from ..csp import Inference, Order, Select, counters_for
from ..errors import SolverBug, UnsupportedPuzzle
from ..registry import MAGIC, MethodInfo, get_solver, is_available, methods, register
from ..model.result import Limits, Stats, Status, gather
from ..solvers.base import Solver
from .count import line_enumeration
from .mac import mac_search
from .model import MagicProblem, MagicResult, Square, magic_violations
from ..sat.pysat import PYSAT_COUNTERS
from .sat import DEFAULT_SOLVER, SOLVER_NAMES, SumEncoding, sat_search
from .search import SELECTS, ValueOrder, backtracking, forward_checking

__all__ = ["MagicSolver", "METHODS", "DEFAULT_METHOD", "COUNT_METHOD", "SEARCH_UP_TO",
           "get_method", "magic_methods", "solve_magic", "count_magic", "compare_methods"]

DEFAULT_METHOD = "forward-checking"
"""The method used to find squares when none is named."""

COUNT_METHOD = "lines"
"""The method used to count squares when none is named (line-based enumeration)."""

SEARCH_UP_TO = 6
"""The largest order searched when no method is named (forward checking finds order 6 in about
1.5 s and exceeds 10 s from order 7); larger orders are constructed."""


def _values(enum: type[Enum]) -> tuple[Any, ...]:
    return tuple(member.value for member in enum)


class MagicSolver(Solver):
    """A magic-square method: declarations as for Sudoku methods, plus ``max_order``.

    Class attributes:
        enums: option name -> the Enum its string value is converted to for the search.
        max_order: the largest order it accepts (its model grows too fast beyond; None: any).
    """

    problem: ClassVar[str] = MAGIC
    counters = frozenset({"nodes", "backtracks"})
    enums: ClassVar[Mapping[str, type[Enum]]] = {}
    max_order: ClassVar[int | None] = None

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits,
               **settings: Any) -> Iterator[Square]:
        """The method's generator of flat squares."""
        raise NotImplementedError

    def solutions(self, problem: Any, stats: Stats, limits: Limits) -> Iterator[Any]:
        """Yield the squares of ``problem`` (flat, row-major); see :meth:`Solver.solutions`."""
        settings = {key: self.enums[key](value) if key in self.enums else value
                    for key, value in self.settings.items()}
        return self.search(problem, stats, limits, **settings)

    def check_order(self, n: int) -> None:
        """Raise UnsupportedPuzzle when ``n`` is above :attr:`max_order`."""
        if self.max_order is not None and n > self.max_order:
            raise UnsupportedPuzzle(f"magic method {self.name!r} supports orders up to "
                                    f"{self.max_order}, not {n}")


@register
class MagicBacktracking(MagicSolver):
    """Chronological backtracking in row-major order (:func:`~.search.backtracking`)."""

    name = "backtracking"
    summary = "chronological backtracking, each line checked when full"

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits,
               **settings: Any) -> Iterator[Square]:
        return backtracking(problem, stats, limits)


@register
class MagicForwardChecking(MagicSolver):
    """Forward checking (:func:`~.search.forward_checking`); ``bounds=False`` is the report's."""

    name = "forward-checking"
    summary = "forward checking: all-different, partial-sum bounds (bounds=false: off), MRV"
    options = {"select": (Select.MRV.value, tuple(s.value for s in SELECTS)),
               "order": (ValueOrder.EXTREMES.value, _values(ValueOrder)),
               "bounds": (True, (True, False))}
    enums = {"select": Select, "order": ValueOrder}

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits,
               **settings: Any) -> Iterator[Square]:
        return forward_checking(problem, stats, limits, **settings)


@register
class MagicMac(MagicSolver):
    """The CSP core on the magic square's CSP (:func:`~.mac.mac_search`)."""

    name = "mac"
    summary = "MAC (AC-3 with bounds-consistent sums) through the generic CSP core"
    options = {"select": (Select.MRV.value, _values(Select)),
               "order": (Order.NATURAL.value, _values(Order)),
               "inference": (Inference.MAC.value, _values(Inference))}
    enums = {"select": Select, "order": Order, "inference": Inference}
    max_order = 32  # n⁴ directed != arcs: 1 million for n = 32

    def __init__(self, backend: str | None = None, **options: Any) -> None:
        super().__init__(backend, **options)
        self.counters = counters_for(Inference(self.settings["inference"]), has_sums=True)

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits,
               **settings: Any) -> Iterator[Square]:
        return mac_search(problem, stats, limits, **settings)


@register
class MagicSat(MagicSolver):
    """CNF with order-encoded line sums, solved by a PySAT backend (:func:`~.sat.sat_search`)."""

    name = "sat"
    summary = "CNF (order-encoded line sums) solved by PySAT (sat:glucose4 ...; default CaDiCaL)"
    requires = ("pysat",)
    install = "python-sat"
    counters = PYSAT_COUNTERS
    backends = SOLVER_NAMES
    default_backend = DEFAULT_SOLVER
    options = {"solver_name": (None, (None, *SOLVER_NAMES)),
               "encoding": (SumEncoding.ORDER.value, _values(SumEncoding))}
    enums = {"encoding": SumEncoding}
    max_order = 12  # ~n⁶ clauses: 5 million for n = 12

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits,
               **settings: Any) -> Iterator[Square]:
        name = settings["solver_name"] or self.backend
        return sat_search(problem, stats, limits, solver_name=name,
                          encoding=settings["encoding"])


@register
class MagicLines(MagicSolver):
    """Line-based enumeration (:func:`~.count.line_enumeration`): counting them all."""

    name = "lines"
    summary = "line-based enumeration: row sets, orthogonal column sets, orders"

    def search(self, problem: MagicProblem, stats: Stats, limits: Limits,
               **settings: Any) -> Iterator[Square]:
        return line_enumeration(problem, stats, limits)


def magic_methods() -> list[MethodInfo]:
    """Every magic-square method of the registry (name, summary, availability, backends)."""
    return methods(MAGIC)


METHODS: dict[str, MethodInfo] = {
    cls.name: MethodInfo(cls.name, cls.summary, is_available(cls), tuple(cls.backends), cls)
    for cls in (MagicBacktracking, MagicForwardChecking, MagicMac, MagicSat, MagicLines)}
"""Every magic-square method by name, as the registry lists them (``.available``, ``.cls``)."""


def get_method(name: str, **options: Any) -> MagicSolver:
    """Return the magic method ``name`` (``sat:glucose4`` selects a backend) with options.

    Raises:
        UnknownMethod: no such method (the message lists the choices).
        MethodUnavailable: its optional dependency is missing (the message says how to install).
        InvalidOption: an unknown option or value.
    """
    return get_solver(name, MAGIC, **options)


def solve_magic(problem: MagicProblem, method: str = DEFAULT_METHOD, *,
                count_limit: int | None = 1, time_limit: float | None = None,
                node_limit: int | None = None, **options: Any) -> MagicResult:
    """Find up to ``count_limit`` magic squares of ``problem`` (None: all) with one method.

    Args:
        problem: order, givens and symmetry breaking.
        method: a magic method name (:data:`METHODS`), ``sat:BACKEND`` allowed.
        count_limit: stop after this many squares (1 to find one, 2 to test uniqueness).
        time_limit: seconds of wall time for the whole call (None: no limit).
        node_limit: most search nodes (None: no limit); exact.
        **options: method options (e.g. ``select="static"``, ``bounds=False``).

    Returns:
        A MagicResult: SOLVED with the verified squares found; UNSATISFIABLE when none exists
        (``message`` says why when the givens alone clash); UNKNOWN when a limit was hit first
        (``squares`` holds those found so far).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: a bad method name or option.
        UnsupportedPuzzle: the order is above the method's ``max_order``.
        SolverBug: the method produced a square that is not a magic square of ``problem``.
    """
    solver = get_method(method, **options)
    solver.check_order(problem.n)
    stats = Stats.counting(solver.counters)
    start = time.perf_counter()
    clash = problem.conflict()
    if clash is not None:
        return MagicResult(problem, Status.UNSATISFIABLE, (), method,
                           time.perf_counter() - start, stats, count_limit, clash)
    limits = Limits(time_limit, node_limit).start()

    def verified(square: Square) -> Square:
        problems = magic_violations(square, problem)
        if problems:
            raise SolverBug(f"magic method {method!r} returned a wrong square: "
                            f"{'; '.join(problems[:3])}")
        return square

    found, status, message = gather(solver.solutions(problem, stats, limits), verified,
                                    count_limit)
    return MagicResult(problem, status, tuple(found), method, time.perf_counter() - start,
                       stats, count_limit, message)


def count_magic(n: int, *, symmetry: bool = False, method: str = COUNT_METHOD,
                time_limit: float | None = None, **options: Any) -> MagicResult:
    """Find every magic square of order ``n`` (only canonical ones with ``symmetry``).

    ``result.count`` is the number (8 for n = 3; 7,040 for n = 4, 880 with symmetry); with
    ``result.status`` UNKNOWN it is a lower bound. See :func:`solve_magic` for the errors.
    """
    return solve_magic(MagicProblem(n, symmetry=symmetry), method, count_limit=None,
                       time_limit=time_limit, **options)


def compare_methods(problem: MagicProblem | Sequence[MagicProblem],
                    methods: Sequence[str] | None = None, *, count_limit: int | None = 1,
                    time_limit: float | None = None, node_limit: int | None = None,
                    **options: Any) -> Comparison:
    """Run each method on the same instances (by :func:`sudokit.run.compare.compare`).

    Args:
        problem: one instance or several.
        methods: method labels: a name, or ``NAME[KEY=VALUE,...]`` with options, so one method
            can run with several settings (``forward-checking[bounds=false]``). None: every
            available method that supports the largest order.
        count_limit: squares to find per instance (None: all of them).
        time_limit: seconds per instance and method (a method over it counts as unknown).
        node_limit: search nodes per instance and method.
        **options: given to every compared method that declares the option (a label's own
            options take precedence); an option no compared method has is an error.

    Returns:
        One row per label: statuses, counter totals, times.

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: checked before anything runs.
    """
    instances = [problem] if isinstance(problem, MagicProblem) else list(problem)
    largest = max((p.n for p in instances), default=0)
    labels = list(methods) if methods else [
        info.name for info in magic_methods()
        if info.available and (info.cls.max_order is None or info.cls.max_order >= largest)]
    chosen = assign_options(labels, options, lambda name: get_method(name).options,
                            "magic method")
    for name, settings in chosen.values():
        get_method(name, **settings)  # checks the settings before any run

    def runner(label: str) -> Callable[[MagicProblem], MagicResult]:
        name, settings = chosen[label]
        return lambda p: solve_magic(p, name, count_limit=count_limit, time_limit=time_limit,
                                     node_limit=node_limit, **settings)

    return compare(instances, {label: runner(label) for label in labels}, time_limit=time_limit)
