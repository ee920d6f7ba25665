"""Side-by-side comparison of solving methods on the same instances.

Generic: a *runner* is any callable taking an instance and returning an object with ``.status``
(:class:`~sudokit.model.result.Status`), ``.seconds`` (float, wall time in seconds) and ``.stats``
(:class:`~sudokit.model.result.Stats`), such as a :class:`~sudokit.model.result.Result`. Sudoku methods get
their runners from :func:`sudoku_runners`; other problems (magic squares) pass their own.

>>> from sudokit.model.puzzle import Puzzle
>>> puzzles = [Puzzle.from_digits([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])]
>>> comparison = compare(puzzles, sudoku_runners(["mac", "forward-checking"], time_limit=5))
>>> [(row.method, row.solved, row.unknown) for row in comparison.rows]
[('mac', 1, 0), ('forward-checking', 1, 0)]
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..model.result import Stats, Status

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, ConsoleRenderable
    from rich.table import Table

    from ..model.puzzle import Puzzle
    from ..registry import OptionValue

__all__ = ["MethodRun", "MethodSummary", "Comparison", "compare", "summarise", "sudoku_runners",
           "check_supported", "comparison_table", "instance_table", "split_label", "puzzle_name"]

T = TypeVar("T")


class MethodRun(Protocol):
    """What a runner returns (a :class:`~sudokit.model.result.Result` is one)."""

    @property
    def status(self) -> Status: ...
    @property
    def seconds(self) -> float: ...
    @property
    def stats(self) -> Stats: ...


def _total(outcomes: Sequence[MethodRun], name: str) -> int | None:
    counts = [getattr(o.stats, name) for o in outcomes]
    if all(c is None for c in counts):
        return None  # not measured by this method
    return sum(c or 0 for c in counts)


@dataclass(frozen=True)
class MethodSummary:
    """One method's totals over every instance.

    Attributes:
        method: the runner's name.
        statuses: per instance (input order), its status.
        seconds: per instance, wall time in seconds.
        solved, unsatisfiable, unknown: instance counts by status (unknown: a limit was hit).
        nodes, backtracks, checks, revisions: counter totals; None when the method does not
            measure that counter.
        decisions, conflicts: SAT counter totals (``dpll``, ``sat:...``); None likewise.
    """

    method: str
    statuses: tuple[Status, ...]
    seconds: tuple[float, ...]
    solved: int
    unsatisfiable: int
    unknown: int
    nodes: int | None
    backtracks: int | None
    checks: int | None
    revisions: int | None
    decisions: int | None = None
    conflicts: int | None = None

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds)

    @property
    def median_seconds(self) -> float:
        """Median wall time per instance (0.0 without instances)."""
        return statistics.median(self.seconds) if self.seconds else 0.0


def summarise(method: str, outcomes: Sequence[MethodRun]) -> MethodSummary:
    """Return the summary of one method's outcomes (in instance order)."""
    statuses = tuple(o.status for o in outcomes)
    return MethodSummary(
        method, statuses, tuple(float(o.seconds) for o in outcomes),
        statuses.count(Status.SOLVED), statuses.count(Status.UNSATISFIABLE),
        statuses.count(Status.UNKNOWN), *(_total(outcomes, name) for name in
                                          ("nodes", "backtracks", "checks", "revisions",
                                           "decisions", "conflicts")))


@dataclass(frozen=True)
class Comparison:
    """Every method's summary on the same instances.

    Attributes:
        rows: one summary per method, in the order the runners were given.
        n_instances: how many instances each method ran.
        time_limit: the per-instance time limit in seconds, if one was used (for display).
        instances: a name per instance (``file:line`` for puzzles read from a file).
    """

    rows: tuple[MethodSummary, ...]
    n_instances: int
    time_limit: float | None = None
    instances: tuple[str, ...] = ()


def compare(
    instances: Iterable[T],
    runners: Mapping[str, Callable[[T], MethodRun]],
    *,
    time_limit: float | None = None,
    progress: Callable[[str, int], object] | None = None,
    names: Callable[[T], str] | None = None,
) -> Comparison:
    """Run every runner on every instance and summarise.

    Args:
        instances: the instances (materialised once; each runner sees all of them, in order).
        runners: method name -> callable solving one instance. It should enforce its own time
            limit and report a hit limit as ``Status.UNKNOWN``.
        time_limit: the per-instance limit the runners use, in seconds (only recorded).
        progress: called as ``progress(method, index)`` after each instance (e.g. to advance a
            Rich progress bar).
        names: the name of an instance in the per-instance table (default: its number, 1-based).

    Returns:
        A Comparison with one row per runner.
    """
    items = list(instances)
    rows = []
    for name, run in runners.items():
        outcomes = []
        for i, item in enumerate(items):
            outcomes.append(run(item))
            if progress is not None:
                progress(name, i)
        rows.append(summarise(name, outcomes))
    labels = tuple(names(item) if names else str(i) for i, item in enumerate(items, 1))
    return Comparison(tuple(rows), len(items), time_limit, labels)


def split_label(label: str) -> tuple[str, dict[str, str]]:
    """Split a method label ``NAME[KEY=VALUE,...]`` into the method name and its options, so
    one method can be compared with several settings. Values stay text: the method converts
    them by its declared choices and types.

    >>> split_label("forward-checking[bounds=false,order=increasing]")
    ('forward-checking', {'bounds': 'false', 'order': 'increasing'})

    Raises:
        InvalidOption: a ``[`` without its closing ``]``, or an option that is not KEY=VALUE.
    """
    from ..errors import InvalidOption
    from .output import parse_option

    name, bracket, rest = label.partition("[")
    if not bracket:
        return label, {}
    if not rest.endswith("]"):
        raise InvalidOption(f"expected NAME[KEY=VALUE,...], got {label!r}")
    items = rest[:-1].replace(";", ",").split(",")
    return name, dict(parse_option(item) for item in items if item.strip())


def assign_options(labels: Sequence[str], options: Mapping[str, OptionValue],
                   declared: Callable[[str], Mapping[str, object]], what: str = "method"
                   ) -> dict[str, tuple[str, dict[str, Any]]]:
    """Give each method label its settings: the shared ``options`` its method declares, then
    its own ``NAME[KEY=VALUE,...]`` options (:func:`split_label`) over them.

    Args:
        labels: method labels in order.
        options: options for every compared method that declares them (``-o KEY=VALUE``).
        declared: method name -> the options it declares.
        what: how the error names a method (``"magic method"``).

    Returns:
        label -> (method name, settings). The settings are typed Any: they are spread into a
        door's typed keyword arguments (``solve(..., **settings)``), which mypy cannot match
        against a dict of :data:`~sudokit.registry.OptionValue`.

    Raises:
        InvalidOption: an option no compared method declares, or a malformed label.
    """
    from ..errors import InvalidOption

    chosen: dict[str, tuple[str, dict[str, Any]]] = {}
    used: set[str] = set()
    for label in labels:
        name, own = split_label(label)
        names = declared(name)
        common = {k: v for k, v in options.items() if k.replace("-", "_") in names}
        used |= set(common)
        chosen[label] = (name, {**common, **own})
    unused = sorted(set(options) - used)
    if unused:
        raise InvalidOption(f"no compared {what} has option {unused[0]!r}")
    return chosen


def puzzle_name(puzzle: Puzzle) -> str:
    """``file:line`` of a puzzle read from a file, else its givens in line form."""
    if getattr(puzzle, "source", None):
        return f"{puzzle.source}:{puzzle.source_line}"
    from ..formats.text import format_line

    return format_line(puzzle.givens, puzzle.geometry)


def sudoku_runners(methods: Sequence[str], time_limit: float | None = None,
                   **options: OptionValue) -> dict[str, Callable[[Puzzle], MethodRun]]:
    """Return a runner per Sudoku method label: ``puzzle -> solve(puzzle, method, ...)``.

    A label is a method name or ``NAME[KEY=VALUE,...]`` (:func:`split_label`). ``options`` go
    to every method that declares them (as ``solve -o``); an option no method declares is an
    error. Each method is warmed up first (compiled kernels loaded), so no instance's time
    includes it.

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: checked now, before any run.
    """
    from ..registry import get_solver
    from .doors import solve

    chosen = assign_options(methods, options, lambda name: get_solver(name).options)
    for name, settings in chosen.values():
        get_solver(name, **settings).warm_up()

    def runner(name: str, settings: dict[str, Any]) -> Callable[[Puzzle], MethodRun]:
        return lambda puzzle: solve(puzzle, name, time_limit=time_limit, **settings)

    return {label: runner(*chosen[label]) for label in methods}


def check_supported(methods: Sequence[str], puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """Return ``puzzles`` as a list after checking every method declares every puzzle's size.

    Raises:
        UnsupportedPuzzle: the first method and grid that do not match (before any run).
    """
    from ..errors import UnsupportedPuzzle
    from ..registry import get_solver

    puzzles = list(puzzles)
    for label in methods:
        name = split_label(label)[0]
        solver = get_solver(name)
        for puzzle in puzzles:
            if not solver.supports(puzzle.geometry):
                raise UnsupportedPuzzle(
                    f"method {name!r} does not support {puzzle.geometry.shape_name} grids "
                    f"(sides {solver.min_side}..{solver.max_side}); drop it from --methods")
    return puzzles


def _number(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


class _ColumnsTable:
    """A Rich renderable: a table of ``(header, cells)`` columns that never cuts a value. When
    the columns do not fit the width given (an 80-column terminal), it is drawn as several
    tables one below the other, each repeating the first column (the row names) with as many
    of the others as fit."""

    def __init__(self, title: str, columns: Sequence[tuple[str, Sequence[str]]],
                 first_style: str = "bold") -> None:
        self.title, self.columns, self.first_style = title, list(columns), first_style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        first, rest = self.columns[0], self.columns[1:]
        width = options.max_width
        used = _width(first)
        part: list[tuple[str, Sequence[str]]] = []
        parts: list[list[tuple[str, Sequence[str]]]] = []
        for column in rest:
            if part and used + _width(column) > width:
                parts.append(part)
                used, part = _width(first), []
            part.append(column)
            used += _width(column)
        parts.append(part)
        for number, columns in enumerate(parts):
            yield self._table([first, *columns], self.title if number == 0 else None)

    def _table(self, columns: list[tuple[str, Sequence[str]]], title: str | None) -> Table:
        from rich import box
        from rich.table import Table

        table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left")
        for index, (header, _cells) in enumerate(columns):
            table.add_column(header, style=self.first_style if index == 0 else None,
                             justify="left" if index == 0 else "right", no_wrap=True)
        for row in zip(*(cells for _, cells in columns)):
            table.add_row(*row)
        return table


def _width(column: tuple[str, Sequence[str]]) -> int:
    """Columns of the terminal a table column takes: its widest text and 3 of padding and
    rule."""
    header, cells = column
    return max([len(header), *map(len, cells)]) + 3


_COUNTERS = ("nodes", "backtracks", "checks", "revisions", "decisions", "conflicts")


def comparison_table(comparison: Comparison, title: str | None = None) -> ConsoleRenderable:
    """Return a Rich table: per method solved, unsatisfiable, unknown, the counters some method
    reports, total and median seconds (on a narrow terminal, in parts that fit; no value is
    ever cut)."""
    from rich.markup import escape

    limit = "" if comparison.time_limit is None else f", limit {comparison.time_limit:g} s"
    rows = comparison.rows
    columns = [("method", [escape(r.method) for r in rows]),
               ("solved", [str(r.solved) for r in rows]),
               ("unsat", [str(r.unsatisfiable) for r in rows]),
               ("unknown", [str(r.unknown) for r in rows])]
    for name in _COUNTERS:
        if any(getattr(r, name) is not None for r in rows):
            columns.append((name, [_number(getattr(r, name)) for r in rows]))
    columns += [("total s", [f"{r.total_seconds:.3f}" for r in rows]),
                ("median s", [f"{r.median_seconds:.4f}" for r in rows])]
    return _ColumnsTable(title or f"{comparison.n_instances} instances{limit}", columns)


def instance_table(comparison: Comparison, title: str | None = None) -> ConsoleRenderable:
    """Return a Rich table with one row per instance: its name, then each method's time (s),
    followed by its status word when not ``solved`` (``unsolvable``, ``timeout``), as the AC-3
    and SAT reports printed them (one column per method; on a narrow terminal, in parts that
    fit). Puzzles of one file are named by their line numbers."""
    from rich.markup import escape

    names = comparison.instances or tuple(map(str, range(1, comparison.n_instances + 1)))
    source = {name.rpartition(":")[0] for name in names}
    if len(source) == 1 and "" not in source:  # one file: its line numbers name the puzzles
        header, names = "line", tuple(n.rpartition(":")[2] for n in names)
    else:
        header = "instance"
    columns = [(header, [escape(name) for name in names])]
    for row in comparison.rows:
        cells = [f"{seconds:.4f}" + ("" if status is Status.SOLVED else f" {status.word}")
                 for seconds, status in zip(row.seconds, row.statuses)]
        columns.append((f"{escape(row.method)} s", cells))
    return _ColumnsTable(title or "per instance", columns, first_style="")
