"""The one typed request every front door takes: method, options, limits, count limit, variant.

A :class:`Request` is built once per call (or once per batch) by :meth:`Request.build`, which
resolves the method name and checks its options, so a bad name or option fails before any work.
The doors of :mod:`sudokit.run.doors` (``solve``, ``solutions``, ``count_solutions``,
``solve_many``, ``solve_array``), the chunk path (:mod:`sudokit.run.chunk`), the batch runner
and the pipeline of ``sudokit solve FILE`` all take it; worker processes receive it pickled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from ..model.constraints import Variant
from ..model.result import Limits
from ..model.variants import VariantSpec, parse_spec

if TYPE_CHECKING:
    from ..registry import OptionValue
    from ..solvers.base import Solver

__all__ = ["Request"]


@dataclass(frozen=True)
class Request:
    """What to run on every puzzle of a call or a batch: one typed value instead of option dicts.

    Attributes:
        method: a registry name, resolved once (``"fast"``, ``"sat:cadical195"``).
        options: method options (``{"select": "mrv"}``); limits never travel here.
        limits: the time limit (seconds) and node limit, each per puzzle.
        count_limit: solutions to look for per puzzle (1 solves, 2 tells unique from multiple;
            None: all of them, for the one-puzzle doors only).
        variant: the rules of puzzles that arrive without a geometry of their own (arrays,
            line-form files); a :class:`~sudokit.model.puzzle.Puzzle` keeps its own.
        trace: ask the solver to record its per-step trace in ``Stats.trace``.
        problem: the registry's problem type the method belongs to (``"sudoku"``, ``"magic"``).
        handover: the method given every puzzle ``method`` has not finished within
            :data:`~sudokit.run.choice.QUICK_SECONDS` (with the rest of its time limit), or None
            (the default path of :func:`sudokit.run.choice.decide`; carried out by
            :func:`sudokit.run.chunk.solve_chunk`).
        stop_note: what a puzzle stopped by the time limit reports instead of the method's
            own words (``"kernels still compiling at the time limit"`` when the CLI gave the
            time limit to a background compile, :func:`sudokit.run.pipeline.solve_inputs`),
            or None.
        compile_by: for a compiled method under ``--time-limit``, the moment (wall-clock
            seconds since the epoch) the command's limit ends: a worker whose kernels are not
            compiled waits for the background compile only until then, and answers by
            ``propagate`` meanwhile (:func:`sudokit.run.deadline.in_time`); None: no such wait.
        default_path: the compiled method is the default's choice (no method named) for
            workers in other processes (a remote Dask cluster): with ``compile_by`` (then the
            run's start), a worker whose kernels are not compiled starts their background
            compile and answers meanwhile by ``propagate`` handing over to CDCL, under the
            request's own limits (:func:`sudokit.run.deadline.for_workers`).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: from :meth:`solver` (and so from
            :meth:`build` and :meth:`checked`) for a bad name or option.
    """

    method: str
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    limits: Limits = Limits()
    count_limit: int | None = 1
    variant: VariantSpec = VariantSpec()
    trace: bool = False
    problem: str = "sudoku"
    handover: str | None = None
    stop_note: str | None = None
    compile_by: float | None = None
    default_path: bool = False

    @classmethod
    def build(cls, method: str | None = None, options: Mapping[str, OptionValue] | None = None,
              limits: Limits = Limits(), count_limit: int | None = 1,
              variant: str | Variant | VariantSpec = Variant.STANDARD,
              trace: bool = False, problem: str = "sudoku") -> Request:
        """A checked request; ``method`` None is the fastest available Sudoku method
        (:func:`sudokit.registry.default_method`).

        Raises:
            UnknownMethod, MethodUnavailable, InvalidOption: a bad name or option.
            InvalidPuzzle: no variant has the name ``variant``.
        """
        from ..registry import default_method

        return cls(method or default_method(), dict(options or {}), limits, count_limit,
                   parse_spec(variant), trace, problem).checked()

    def handing_over(self, method: str) -> Request:
        """This request with ``method`` taking what its own method does not finish quickly
        (see :attr:`handover`; the name is resolved when a puzzle is first handed over, so
        a quick answer never imports it: PySAT's import is a tenth of a second)."""
        from dataclasses import replace

        return replace(self, handover=method)

    def solver(self) -> Solver:
        """The solver instance (cached per method and options: the name is resolved once)."""
        try:
            return _solver(self.method, self.problem, tuple(sorted(self.options.items())))
        except TypeError:  # an option value that cannot be hashed: resolve it uncached
            from ..registry import get_solver

            return get_solver(self.method, self.problem, **self.options)

    def checked(self) -> Request:
        """Resolve the method now, so a bad name or option fails before any work; return self."""
        self.solver()
        return self


@cache
def _solver(method: str, problem: str, options: tuple[tuple[str, OptionValue], ...]) -> Solver:
    from ..registry import get_solver

    return get_solver(method, problem, **dict(options))
