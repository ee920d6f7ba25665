"""The magic-square front door: find, count and compare squares through the registry.

Every call resolves its method in the one registry (``problem="magic"``, adapters in
:mod:`sudokit.solvers.magic`), times the run, reports contradictory givens as UNSATISFIABLE,
turns a hit limit into UNKNOWN (the shared :func:`~sudokit.model.result.gather` loop of the
Sudoku doors) and verifies every square (a wrong one raises :class:`~sudokit.errors.SolverBug`),
as :mod:`sudokit.run.doors` does for Sudoku. Results are
:class:`~sudokit.magic.model.MagicResult` objects (a :class:`~sudokit.model.result.Result` that
names its puzzle ``problem`` and its solutions ``squares``).

One square type: a square is an (n, n) int64 NumPy array wherever it is handed back as a square
(``result.square``, :func:`construct_magic`); ``result.squares`` holds every square found as
flat row-major tuples, as a Sudoku ``Result.solutions`` holds grids.

>>> import sudokit
>>> sudokit.solve_magic(3).square
array([[2, 9, 4],
       [7, 5, 3],
       [6, 1, 8]])
>>> sudokit.count_magic(3).count
8
>>> sudokit.construct_magic(4).shape
(4, 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np

from ..errors import SolverBug
from ..magic.construct import construct
from ..magic.model import MagicProblem, MagicResult, Square, magic_violations
from ..model.result import Limits, Stats, Status, gather
from ..registry import MAGIC, MethodInfo, OptionValue, get_solver, is_available, methods
from ..solvers.magic import MAGIC_SOLVERS, MagicSolver
from .compare import Comparison, assign_options, compare
from .request import Request

__all__ = ["COUNT_METHOD", "DEFAULT_METHOD", "METHODS", "SEARCH_UP_TO", "compare_magic",
           "construct_magic", "count_magic", "get_method", "magic_methods", "solve_magic"]

DEFAULT_METHOD = "forward-checking"
"""The method used to find squares when none is named."""

COUNT_METHOD = "lines"
"""The method used to count squares when none is named (line-based enumeration)."""

SEARCH_UP_TO = 6
"""The largest order searched when no method is named (forward checking finds order 6 in about
1.5 s and exceeds 10 s from order 7); larger orders are constructed."""


def magic_methods() -> list[MethodInfo]:
    """Every magic-square method of the registry.

    Returns:
        One :class:`~sudokit.registry.MethodInfo` per method (name, summary, availability,
        backends).
    """
    return methods(MAGIC)


METHODS: dict[str, MethodInfo] = {
    cls.name: MethodInfo(cls.name, cls.summary, is_available(cls), tuple(cls.backends), cls,
                         MAGIC)
    for cls in MAGIC_SOLVERS}
"""Every magic-square method by name, as the registry lists them (``.available``, ``.cls``)."""


def get_method(name: str, **options: OptionValue) -> MagicSolver:
    """Return the magic method ``name`` (``sat:glucose4`` selects a backend) with options.

    Returns:
        The method's solver object, configured.

    Raises:
        UnknownMethod: no such method (the message lists the choices).
        MethodUnavailable: its optional dependency is missing (the message says how to install).
        InvalidOption: an unknown option or value.
    """
    return cast(MagicSolver, get_solver(name, MAGIC, **options))  # MAGIC's are MagicSolvers


def solve_magic(problem: MagicProblem | int, method: str = DEFAULT_METHOD, *,
                count_limit: int | None = 1, time_limit: float | None = None,
                node_limit: int | None = None, request: Request | None = None,
                **options: OptionValue) -> MagicResult:
    """Find up to ``count_limit`` magic squares of ``problem`` (None: all) with one method.

    Args:
        problem: order, givens and symmetry breaking; an int ``n`` is ``MagicProblem(n)``.
        method: a magic method name (:data:`METHODS`), ``sat:BACKEND`` allowed.
        count_limit: stop after this many squares (1 to find one, 2 to test uniqueness).
        time_limit: seconds of wall time for the whole call (None: no limit).
        node_limit: most search nodes (None: no limit); exact.
        request: a prepared :class:`~sudokit.run.request.Request` (``problem="magic"``)
            instead of ``method``, ``count_limit``, the limits and ``**options``.
        **options: method options (e.g. ``select="static"``, ``bounds=False``).

    Returns:
        A MagicResult (``result.square``: the first square as an (n, n) array): SOLVED with
        the verified squares found; UNSATISFIABLE when none exists
        (``message`` says why when the givens alone clash); UNKNOWN when a limit was hit first
        (``squares`` holds those found so far).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: a bad method name or option.
        UnsupportedPuzzle: the order is above the method's ``max_order``.
        SolverBug: the method produced a square that is not a magic square of ``problem``.
    """
    if not isinstance(problem, MagicProblem):
        problem = MagicProblem(int(problem))
    if request is None:
        request = Request.build(method, options, Limits(time_limit, node_limit), count_limit,
                                problem=MAGIC)
    solver = cast(MagicSolver, request.solver())  # a request of problem MAGIC
    method, count_limit = request.method, request.count_limit
    solver.check_order(problem.n)
    stats = Stats.counting(solver.counters)
    start = time.perf_counter()
    limits = request.limits.start()  # the clock covers the checks and the model building
    clash = problem.conflict()  # below: Result.puzzle holds the problem (MagicResult.problem)
    if clash is not None:
        return MagicResult(problem, Status.UNSATISFIABLE, (), method,  # type: ignore[arg-type]
                           time.perf_counter() - start, stats, count_limit, clash)

    def verified(square: Square) -> Square:
        problems = magic_violations(square, problem)
        if problems:
            raise SolverBug(f"magic method {method!r} returned a wrong square: "
                            f"{'; '.join(problems[:3])}")
        return square

    found, status, message = gather(solver.solutions(problem, stats, limits), verified,
                                    count_limit)
    return MagicResult(problem, status, tuple(found), method,  # type: ignore[arg-type]
                       time.perf_counter() - start, stats, count_limit, message)


def count_magic(n: int, *, symmetry: bool = False, method: str = COUNT_METHOD,
                time_limit: float | None = None, node_limit: int | None = None,
                request: Request | None = None, **options: OptionValue) -> MagicResult:
    """Find every magic square of order ``n`` (only canonical ones with ``symmetry``);
    ``node_limit``, ``request`` and the method's ``options`` as for :func:`solve_magic`.

    Returns:
        A MagicResult whose ``count`` is the number (8 for n = 3; 7,040 for n = 4, 880 with
        symmetry); with ``status`` UNKNOWN it is a lower bound. See :func:`solve_magic` for
        the errors.
    """
    return solve_magic(MagicProblem(n, symmetry=symmetry), method, count_limit=None,
                       time_limit=time_limit, node_limit=node_limit, request=request,
                       **options)


def construct_magic(n: int) -> np.ndarray:
    """Build a magic square of order ``n`` without search, in O(n²) (Siamese for odd n, the
    doubly even method for n divisible by 4, Conway's LUX otherwise), and verify it.

    Returns:
        An (n, n) int64 array holding 1..n² once, every row, column and both diagonals
        summing to n(n²+1)/2.

    Raises:
        InvalidOption: n < 1, or n = 2 (no magic square of order 2 exists).
        SolverBug: the construction is not a magic square (never expected).
    """
    square = construct(n)
    problems = magic_violations(square, MagicProblem(n))
    if problems:
        raise SolverBug(f"construction of order {n} is not magic: {'; '.join(problems[:3])}")
    return square


def _takes(cls: type[MagicSolver], order: int) -> bool:
    """Whether a magic method takes squares of ``order`` (its ``max_order``; None: any)."""
    return cls.max_order is None or cls.max_order >= order


def compare_magic(problem: MagicProblem | Sequence[MagicProblem],
                    methods: Sequence[str] | None = None, *, count_limit: int | None = 1,
                    time_limit: float | None = None, node_limit: int | None = None,
                    **options: OptionValue) -> Comparison:
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
        One row per label: statuses, counter totals, times (``sudokit.run.compare.Comparison``).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: checked before anything runs.
    """
    instances = [problem] if isinstance(problem, MagicProblem) else list(problem)
    largest = max((p.n for p in instances), default=0)
    labels = list(methods) if methods else [
        info.name for info in magic_methods()
        if info.available and _takes(cast("type[MagicSolver]", info.cls), largest)]
    chosen = assign_options(labels, options, lambda name: get_method(name).options,
                            "magic method")
    for name, settings in chosen.values():
        get_method(name, **settings)  # checks the settings before any run

    def runner(label: str) -> Callable[[MagicProblem], MagicResult]:
        name, settings = chosen[label]
        return lambda p: solve_magic(p, name, count_limit=count_limit, time_limit=time_limit,
                                     node_limit=node_limit, **settings)

    return compare(instances, {label: runner(label) for label in labels}, time_limit=time_limit)
