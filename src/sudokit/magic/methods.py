"""The magic-square methods by name, and their front door: ``solve_magic`` and ``count_magic``.

Magic methods take a :class:`~sudokit.magic.model.MagicProblem`, not a Sudoku ``Puzzle``, so they
live in their own small dict (:data:`METHODS`) rather than the Sudoku registry. Each is a
generator ``search(problem, stats, limits, **options)`` yielding flat squares; the front door
times the call, reports contradictory givens as UNSATISFIABLE, turns a hit limit into UNKNOWN and
verifies every square (a wrong one raises :class:`~sudokit.errors.SolverBug`), as
:mod:`sudokit.api` does for Sudoku.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..compare import Comparison, compare
from ..csp import CSP_COUNTERS, Inference, Order
from ..csp import Select as CspSelect
from ..errors import (InvalidOption, MethodUnavailable, SolverBug, UnknownMethod,
                      UnsupportedPuzzle)
from ..result import Limits, Stats, Status, gather
from .count import line_enumeration
from .mac import mac_search
from .model import MagicProblem, MagicResult, Square, magic_violations
from .sat import Encoding, sat_search
from .search import Select, ValueOrder, backtracking, forward_checking

__all__ = ["MagicMethod", "METHODS", "DEFAULT_METHOD", "COUNT_METHOD", "get_method",
           "solve_magic", "count_magic", "compare_methods"]

DEFAULT_METHOD = "forward-checking"
"""The method used to find squares when none is named."""

COUNT_METHOD = "lines"
"""The method used to count squares when none is named (line-based enumeration)."""

_SEARCH_COUNTERS = frozenset({"nodes", "backtracks"})


@dataclass(frozen=True)
class MagicMethod:
    """A named magic-square method.

    Attributes:
        name: the name users type (``"forward-checking"``).
        summary: one line for listings.
        search: the generator ``(problem, stats, limits, **options) -> Iterator[Square]``.
        counters: the :class:`~sudokit.result.Stats` fields it fills.
        options: option name -> its choices (an Enum class: values given by their ``.value``).
        requires: optional modules it needs (checked before use).
        max_order: the largest order it accepts (its model grows too fast beyond; None: any).
    """

    name: str
    summary: str
    search: Callable[..., Iterator[Square]]
    counters: frozenset[str] = _SEARCH_COUNTERS
    options: Mapping[str, Any] = field(default_factory=dict)
    requires: tuple[str, ...] = ()
    max_order: int | None = None

    @property
    def available(self) -> bool:
        """Whether every optional module it requires is installed."""
        return all(importlib.util.find_spec(m) is not None for m in self.requires)

    def settings(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options checked and converted (strings to Enum members).

        Raises:
            InvalidOption: an unknown option name or a value outside its choices.
        """
        out = {}
        for key, value in options.items():
            key = key.replace("-", "_")
            choices = self.options.get(key)
            if choices is None:
                known = ", ".join(self.options) or "none"
                raise InvalidOption(f"magic method {self.name!r} has no option {key!r} "
                                    f"(options: {known})")
            allowed = [c.value for c in choices] if isinstance(choices, type) else list(choices)
            raw = value.value if isinstance(value, Enum) else value
            if raw not in allowed:
                raise InvalidOption(f"option {key}={raw!r} of magic method {self.name!r}: "
                                    f"choose one of {', '.join(map(str, allowed))}")
            out[key] = choices(raw) if isinstance(choices, type) else raw
        return out


METHODS: dict[str, MagicMethod] = {m.name: m for m in (
    MagicMethod("backtracking", "chronological backtracking, each line checked when full",
                backtracking),
    MagicMethod("forward-checking", "forward checking: all-different and partial-sum bounds, MRV",
                forward_checking, options={"select": Select, "order": ValueOrder}),
    MagicMethod("mac", "MAC (AC-3 with bounds-consistent sums) through the generic CSP core",
                mac_search, CSP_COUNTERS,
                {"select": CspSelect, "order": Order, "inference": Inference},
                max_order=32),  # n⁴ directed != arcs: 1 million for n = 32
    MagicMethod("sat", "CNF (order-encoded line sums) solved by PySAT's CaDiCaL 1.9.5",
                sat_search,
                frozenset({"nodes", "backtracks", "decisions", "conflicts", "propagations"}),
                {"solver_name": ("cadical195", "glucose4", "minisat22", "maplechrono"),
                 "encoding": Encoding}, ("pysat",), max_order=12),  # ~n⁶ clauses: 5 M for 12
    MagicMethod("lines", "line-based enumeration: row sets, orthogonal column sets, orders",
                line_enumeration),
)}
"""Every magic-square method by name."""


def get_method(name: str) -> MagicMethod:
    """Return the method called ``name``.

    Raises:
        UnknownMethod: no such method (the message lists the choices).
        MethodUnavailable: its optional dependency is missing (the message says how to install).
    """
    method = METHODS.get(name)
    if method is None:
        choices = "; ".join(f"{m.name} ({m.summary})" for m in METHODS.values())
        raise UnknownMethod(f"unknown magic method {name!r}; choose one of: {choices}")
    if not method.available:
        raise MethodUnavailable(f"magic method {name!r} needs {', '.join(method.requires)}: "
                                "pip install python-sat")
    return method


def solve_magic(problem: MagicProblem, method: str = DEFAULT_METHOD, *,
                count_limit: int | None = 1, time_limit: float | None = None,
                node_limit: int | None = None, **options: Any) -> MagicResult:
    """Find up to ``count_limit`` magic squares of ``problem`` (None: all) with one method.

    Args:
        problem: order, givens and symmetry breaking.
        method: a name in :data:`METHODS`.
        count_limit: stop after this many squares (1 to find one, 2 to test uniqueness).
        time_limit: seconds of wall time for the whole call (None: no limit).
        node_limit: most search nodes (None: no limit).
        **options: method options (e.g. ``select="static"`` for forward checking).

    Returns:
        A MagicResult: SOLVED with the verified squares found; UNSATISFIABLE when none exists
        (``message`` says why when the givens alone clash); UNKNOWN when a limit was hit first
        (``squares`` holds those found so far).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: a bad method name or option.
        UnsupportedPuzzle: the order is above the method's ``max_order``.
        SolverBug: the method produced a square that is not a magic square of ``problem``.
    """
    chosen = get_method(method)
    settings = chosen.settings(options)
    if chosen.max_order is not None and problem.n > chosen.max_order:
        raise UnsupportedPuzzle(f"magic method {method!r} supports orders up to "
                                f"{chosen.max_order}, not {problem.n}")
    stats = Stats.counting(chosen.counters)
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

    found, status, message = gather(chosen.search(problem, stats, limits, **settings), verified,
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
                    time_limit: float | None = None,
                    node_limit: int | None = None) -> Comparison:
    """Run each method on the same instances (by :func:`sudokit.compare.compare`).

    Args:
        problem: one instance or several.
        methods: names in :data:`METHODS` (None: every available one that supports the
            largest order, in dict order).
        count_limit: squares to find per instance (None: all of them).
        time_limit: seconds per instance and method (a method over it counts as unknown).
        node_limit: search nodes per instance and method.

    Returns:
        One row per method: statuses, node and backtrack totals, times.

    Raises:
        UnknownMethod, MethodUnavailable: a bad name, checked before anything runs.
    """
    instances = [problem] if isinstance(problem, MagicProblem) else list(problem)
    largest = max((p.n for p in instances), default=0)
    names = list(methods) if methods else [
        m.name for m in METHODS.values()
        if m.available and (m.max_order is None or m.max_order >= largest)]
    for name in names:
        get_method(name)

    def runner(name: str) -> Callable[[MagicProblem], MagicResult]:
        return lambda p: solve_magic(p, name, count_limit=count_limit, time_limit=time_limit,
                                     node_limit=node_limit)

    return compare(instances, {name: runner(name) for name in names}, time_limit=time_limit)
