"""Every outcome type: Status, Stats, Limits, Result, gather, and the chunk results as arrays."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import numpy as np

from ..errors import InvalidOption, LimitReached
from .puzzle import Grid, Puzzle

if TYPE_CHECKING:
    from IPython.lib.pretty import PrettyPrinter

T = TypeVar("T")

__all__ = ["Status", "Stats", "Limits", "Result", "COUNTERS", "gather", "ArrayResult",
           "ChunkResult", "CnfResult", "empty_result"]


class Status(IntEnum):
    """The one status vocabulary of every layer: a solve, an output record, a status array.

    A solve (:attr:`Result.status`) is three-way, as in SAT solvers: SOLVED, UNSATISFIABLE
    (proved) or UNKNOWN (a limit was hit first). An output record adds MULTIPLE (two or more
    solutions found while counting) and INVALID (the input is not a puzzle, or the method failed
    on it). The integer values are the codes of int8 status arrays (:class:`ChunkResult`,
    :func:`sudokit.solve_array`); :attr:`word` is the record word (``solved``, ``unsolvable``,
    ``timeout``, ``multiple``, ``invalid``).
    """

    UNSATISFIABLE = 0  # proved to have no solution
    SOLVED = 1  # at least one verified solution
    UNKNOWN = 2  # a time or node limit was hit first
    MULTIPLE = 3  # records only: two or more solutions found
    INVALID = 4  # records only: not a puzzle, or the method failed on it

    @property
    def word(self) -> str:
        """The word of output records and summaries: ``solved``, ``unsolvable``, ``timeout``,
        ``multiple`` or ``invalid``."""
        return _WORDS[self]

    def __str__(self) -> str:
        return self.word


_WORDS = {Status.UNSATISFIABLE: "unsolvable", Status.SOLVED: "solved", Status.UNKNOWN: "timeout",
          Status.MULTIPLE: "multiple", Status.INVALID: "invalid"}


COUNTERS = (
    "nodes",
    "backtracks",
    "propagations",
    "revisions",
    "checks",
    "max_queue",
    "decisions",
    "conflicts",
)
"""Names of the counters in :class:`Stats`; a solver declares the subset it fills."""


@dataclass
class Stats:
    """Mutable search counters, incremented by solvers (timing is done by the front door).

    A counter the solver does not measure stays None, so 0 always means "counted, and zero".

    Attributes:
        nodes: search-tree nodes visited (assignments tried / branches entered).
        backtracks: times the search undid a choice after a failure.
        propagations: forced assignments or eliminations made by inference.
        revisions: AC-3 ``revise`` calls (Mackworth 1977).
        checks: binary constraint checks.
        max_queue: largest AC-3 queue length seen.
        decisions: SAT decisions.
        conflicts: SAT conflicts.
        extra: method-specific counters (name -> number).
        trace: opt-in per-step trace (e.g. AC-3 queue length after every step); None when off.
    """

    nodes: int | None = None
    backtracks: int | None = None
    propagations: int | None = None
    revisions: int | None = None
    checks: int | None = None
    max_queue: int | None = None
    decisions: int | None = None
    conflicts: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    trace: list[Any] | None = None

    @classmethod
    def counting(cls, counters: frozenset[str] | tuple[str, ...], trace: bool = False) -> Stats:
        """Return Stats with the named counters at 0 and the others None.

        Raises:
            ValueError: a name that is not one of :data:`COUNTERS`.
        """
        unknown = set(counters) - set(COUNTERS)
        if unknown:
            raise ValueError(f"unknown counters {sorted(unknown)}; known: {COUNTERS}")
        stats = cls(trace=[] if trace else None)
        for name in counters:
            setattr(stats, name, 0)
        return stats

    def as_dict(self) -> dict[str, Any]:
        """Counters (None when not measured) and extras, without the trace; JSON-ready."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)
                               if f.name in COUNTERS}
        out.update(self.extra)
        return out

    def add(self, other: Stats) -> None:
        """Add another record's counters into this one (None + n stays measured as n)."""
        for name in COUNTERS:
            theirs = getattr(other, name)
            if theirs is None:
                continue
            mine = getattr(self, name)
            if name == "max_queue":
                setattr(self, name, max(mine or 0, theirs))
            else:
                setattr(self, name, (mine or 0) + theirs)


@dataclass(frozen=True)
class Limits:
    """Search limits, honoured by solvers through :meth:`count_node` and :meth:`check`.

    A node limit is exact: with ``node_limit=N`` a search enters at most N nodes (the
    (N+1)-th is refused before it is counted), so ``stats.nodes <= N`` whenever a limit stops
    it. The time limit covers everything a solver does after :meth:`start`, encoding included.

    Attributes:
        time_limit: seconds of wall time allowed, >= 0 (None: no limit).
        node_limit: most search nodes allowed, >= 0 (None: no limit).
        deadline: ``time.perf_counter()`` value after which a search must stop; set by
            :meth:`start` from ``time_limit``.

    Raises:
        InvalidOption: a negative (or NaN) time limit, or a node limit that is negative or not
            a whole number.
    """

    time_limit: float | None = None
    node_limit: int | None = None
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.time_limit is not None and not (
            isinstance(self.time_limit, (int, float)) and self.time_limit >= 0
        ):
            raise InvalidOption(f"time limit must be a number of seconds >= 0 (or none), "
                                f"got {self.time_limit!r}")
        if self.node_limit is not None and not (
            isinstance(self.node_limit, int) and not isinstance(self.node_limit, bool)
            and self.node_limit >= 0
        ):
            raise InvalidOption(f"node limit must be a whole number >= 0 (or none), "
                                f"got {self.node_limit!r}")

    def start(self) -> Limits:
        """Return a copy whose deadline counts from now."""
        if self.time_limit is None:
            return self
        return Limits(self.time_limit, self.node_limit, time.perf_counter() + self.time_limit)

    def count_node(self, stats: Stats) -> None:
        """Enter one more search node: add 1 to ``stats.nodes`` if the limits allow it.

        Call it where a search is about to try a branch; it is the check that makes node limits
        exact (the counter never passes ``node_limit``).

        Raises:
            LimitReached: ``node_limit`` nodes were already counted, or the deadline passed
                (the node is then not counted).
        """
        nodes = stats.nodes or 0
        if self.node_limit is not None and nodes >= self.node_limit:
            raise LimitReached(f"node limit {self.node_limit} reached")
        self.check(stats)  # the deadline
        stats.nodes = nodes + 1

    def check(self, stats: Stats) -> None:
        """Raise LimitReached when the node count or the deadline is past its limit.

        Cheap enough to call at every search node (one comparison and one clock read).

        Raises:
            LimitReached: ``stats.nodes`` above ``node_limit`` or the deadline passed.
        """
        if self.node_limit is not None and (stats.nodes or 0) > self.node_limit:
            raise LimitReached(f"node limit {self.node_limit} reached")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise LimitReached(f"time limit {self.time_limit} s reached")

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without a time limit; never negative)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())


@dataclass(frozen=True, repr=False)
class Result:
    """The outcome of solving (or counting the solutions of) one puzzle.

    ``str(result)`` (and the IPython and Jupyter displays) show the outcome, the counters and the
    puzzle beside its solution, drawn as grids.

    Attributes:
        puzzle: the puzzle solved.
        status: SOLVED, UNSATISFIABLE (proved) or UNKNOWN (a limit was hit).
        solutions: verified solutions found, at most the requested count limit.
        method: the method name used (e.g. ``"propagate"``).
        seconds: wall time of the whole call, in seconds.
        stats: the counters.
        count_limit: how many solutions were asked for (1 to solve, 2 to check uniqueness).
        message: why it is unsatisfiable or unknown (e.g. the unit with a duplicate given).
    """

    puzzle: Puzzle
    status: Status
    solutions: tuple[Grid, ...]
    method: str
    seconds: float
    stats: Stats
    count_limit: int | None = 1
    message: str | None = None

    @property
    def solution(self) -> Grid | None:
        """The first solution, or None."""
        return self.solutions[0] if self.solutions else None

    def solution_text(self, form: str = "line") -> str | None:
        """The first solution as text.

        Args:
            form: ``"line"``: one symbol per cell (``1-9``, then ``A``=10 ...), as ``sudokit
                solve`` writes a line-form puzzle's solution; ``"grid"``: the drawing with box
                lines of :func:`sudokit.formats.format_grid`, without its final newline.

        Returns:
            The text, or None when no solution was found.

        Raises:
            InvalidOption: ``form`` is neither ``"line"`` nor ``"grid"``.

        >>> from sudokit import solve
        >>> solve("..3..4.221......", "propagate").solution_text()
        '1234341221434321'
        """
        from ..present.display import solution_text

        return solution_text(self, form)

    def summary(self) -> str:
        """Describe the outcome on one line.

        Returns:
            The outcome, method, time and the counters the method measures, e.g.
            ``solved by propagate in 0.0004 s; nodes 1, backtracks 0, propagations 48``.
        """
        counters = ", ".join(f"{k} {v:,}" for k, v in self.stats.as_dict().items()
                             if isinstance(v, int) and not isinstance(v, bool))
        found = f", {self.count} solutions" if self.count > 1 else ""
        why = f" ({self.message})" if self.message else ""
        return (f"{str(self.label)}{why} by {self.method} in {self.seconds:.4f} s{found}"
                + (f"; {counters}" if counters else ""))

    def __str__(self) -> str:
        """The summary line, then the puzzle and its (first) solution side by side."""
        from ..present.display import result_text

        return result_text(self)

    def __repr__(self) -> str:
        return f"<Result {self.summary()}>"

    def _repr_pretty_(self, printer: PrettyPrinter, cycle: bool) -> None:
        """IPython's display: as :meth:`__str__`."""
        printer.text(repr(self) if cycle else str(self))

    def _repr_html_(self) -> str:
        """Jupyter's display: the summary over the SVG board of the solution (givens bold)."""
        from ..present.display import result_html

        return result_html(self)

    @property
    def count(self) -> int:
        """Number of solutions found (a lower bound when the status is UNKNOWN)."""
        return len(self.solutions)

    @property
    def unique(self) -> bool | None:
        """True when exactly one solution exists, False when none or several; None if unknown.

        Meaningful only when solutions were counted with a limit of at least 2.
        """
        if self.count >= 2:
            return False
        if self.status is Status.UNKNOWN or (self.count_limit or 0) < 2:
            return None
        return self.count == 1

    @property
    def label(self) -> Status:
        """The record status: MULTIPLE when two or more solutions were found, else ``status``
        (its :attr:`Status.word` is what records print: solved, multiple, unsolvable, timeout)."""
        return Status.MULTIPLE if self.count >= 2 else self.status


def gather(
    solutions: Iterator[T], verify: Callable[[T], T], limit: int | None
) -> tuple[list[T], Status, str | None]:
    """Take up to ``limit`` solutions (None: all) from a solver's generator, verifying each.

    The one loop every front door shares (Sudoku and magic squares): a hit limit becomes
    ``Status.UNKNOWN`` with its message, an exhausted search without solutions is
    ``Status.UNSATISFIABLE`` (proved), otherwise ``Status.SOLVED``.

    Args:
        solutions: the solver's generator; it may raise LimitReached.
        verify: returns the (normalised) solution or raises SolverBug.
        limit: most solutions to take.

    Returns:
        ``(solutions found, status, message)``; message is None unless a limit was hit.
    """
    found: list[T] = []
    try:
        for solution in solutions:
            found.append(verify(solution))
            if limit is not None and len(found) >= limit:
                break
    except LimitReached as exc:
        return found, Status.UNKNOWN, str(exc)
    return found, Status.SOLVED if found else Status.UNSATISFIABLE, None


@dataclass(frozen=True)
class ChunkResult:
    """The outcome of a chunk of M puzzles, as arrays.

    Attributes:
        grids: uint8[M, K, N*N] solutions (K = count limit); ``grids[i, j]`` is valid for
            ``j < found[i]``, zeros after.
        found: int32[M] solutions found per puzzle (at most K).
        status: int8[M] :class:`~sudokit.result.Status` codes: SOLVED, UNSATISFIABLE (proved)
            or UNKNOWN (a limit was hit).
        counters: int64[M, C] counter values, columns named by ``counter_names``.
        counter_names: names of the counters measured (:data:`~sudokit.result.COUNTERS` first,
            then method-specific extras).
        seconds: float64[M] wall time per puzzle, in seconds.
        method: the method's full name.
        messages: row -> why it is UNSATISFIABLE or UNKNOWN, when there is something to say
            (the unit holding a duplicate given, which limit was hit).
        extras: row -> the method's own counters beyond the columns (e.g. steps per technique
            of ``logic``), for methods solved one puzzle at a time.
    """

    grids: np.ndarray
    found: np.ndarray
    status: np.ndarray
    counters: np.ndarray
    counter_names: tuple[str, ...]
    seconds: np.ndarray
    method: str
    messages: dict[int, str] = field(default_factory=dict)
    extras: dict[int, dict[str, Any]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.status)

    def labels(self) -> np.ndarray:
        """int8[M] record statuses: MULTIPLE where two or more solutions were found, else
        ``status``."""
        return np.where(self.found >= 2, np.int8(Status.MULTIPLE), self.status).astype(np.int8)

    def stats(self, row: int) -> Stats:
        """The counters of one puzzle as a :class:`Stats` (unmeasured counters stay None)."""
        stats = Stats.counting(tuple(n for n in self.counter_names if n in COUNTERS))
        for name, value in zip(self.counter_names, self.counters[row].tolist()):
            if name in COUNTERS:
                setattr(stats, name, value)
            else:
                stats.extra[name] = value
        stats.extra.update(self.extras.get(row, {}))
        return stats

    def result(self, row: int, puzzle: Puzzle, count_limit: int) -> Result:
        """The :class:`Result` of one puzzle (built on request; grids already verified)."""
        grids = tuple(tuple(g) for g in self.grids[row, :self.found[row]].tolist())
        return Result(puzzle, Status(int(self.status[row])), grids, self.method,
                      float(self.seconds[row]), self.stats(row), count_limit,
                      self.messages.get(row))


def empty_result(m: int, n_cells: int, count_limit: int, names: tuple[str, ...],
                 method: str) -> ChunkResult:
    """A ChunkResult of ``m`` rows, all UNSATISFIABLE with nothing found, to be filled in."""
    return ChunkResult(np.zeros((m, count_limit, n_cells), np.uint8), np.zeros(m, np.int32),
                       np.zeros(m, np.int8), np.zeros((m, len(names)), np.int64), names,
                       np.zeros(m, np.float64), method, {})


class ArrayResult(NamedTuple):
    """What :func:`solve_array` returns (unpacks as ``solutions, status, found, seconds``).

    Attributes:
        solutions: uint8[M, count_limit, N*N]; ``solutions[i, j]`` is the j-th verified solution
            of puzzle i (digits 1..N) for ``j < found[i]``, zeros after.
        status: int8[M] :class:`~sudokit.model.result.Status` codes: SOLVED (1), MULTIPLE (3, two or
            more found while counting), UNSATISFIABLE (0), UNKNOWN (2, a limit was hit).
        found: int32[M] solutions found per puzzle.
        seconds: float64[M] solve time per puzzle, in seconds.
    """

    solutions: np.ndarray
    status: np.ndarray
    found: np.ndarray
    seconds: np.ndarray


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
