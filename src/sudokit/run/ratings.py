"""Rating streams of puzzles: one JSON-ready record per input record, in input order.

The policy of parallel work is :func:`sudokit.run.batch.run_tasks` (processes with ``jobs > 1``:
rating is pure Python); one bad record becomes one ``invalid`` record and never stops the stream.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple, Required, TypedDict

from ..errors import LimitReached, SudokuError
from ..formats.lines import Record

if TYPE_CHECKING:
    from ..logic.solve import Rating
    from ..model.puzzle import Puzzle

__all__ = ["Chosen", "RatingRow", "rate_chunk", "rate_chunk_chosen", "rate_records",
           "record_line"]

_CHUNK = 8


class RatingRow(TypedDict, total=False):
    """One rating record (a JSON object): where the puzzle was read, its ``status`` (``rated``,
    ``invalid``, ``timeout``, ``stuck``) and, when rated, the :class:`~sudokit.logic.Rating`'s
    fields (``level`` by name), else ``error``; ``why`` is added by ``sudokit rate --why``."""

    source: Required[str]
    line: Required[int]
    status: Required[str]
    error: str
    rating: float
    level: str
    hardest: str
    steps: int
    trial: bool
    unique: bool
    pearl: float
    diamond: float
    why: dict[str, object]  # sudokit rate --why: why there is no solution or several


class Chosen(NamedTuple):
    """The request of :func:`rate_chunk_chosen`: seconds per puzzle (None: no limit) and the
    techniques the solve may use (``techniques``: only these, ``exclude``: all but these;
    names as :func:`sudokit.run.chosen.technique_choice` reads them)."""

    time_limit: float | None
    techniques: tuple[str, ...] | None
    exclude: tuple[str, ...] | None


def rate_chunk(records: Sequence[Record], time_limit: float | None = None) -> list[RatingRow]:
    """Rate each record (a pool task): ``source``, ``line``, ``status`` and, when rated,
    ``rating``, ``level``, ``hardest``, ``steps``, ``trial``, ``unique``; else ``error``. The
    chunk's solutions are found in one batch (:func:`~sudokit.run.explain.rate_many`), each
    puzzle within ``time_limit`` seconds (None: no limit), else its status is ``timeout``."""
    from .explain import rate_many

    rated = iter(rate_many([r.puzzle for r in records
                            if r.error is None and r.puzzle is not None],
                           time_limit=time_limit))
    return _rows(records, rated)


def rate_chunk_chosen(records: Sequence[Record], request: Chosen) -> list[RatingRow]:
    """:func:`rate_chunk` with only the chosen techniques (``sudokit rate --techniques`` /
    ``--exclude``): each puzzle solved alone by :func:`sudokit.run.explain.explain_states`; a
    puzzle the chosen techniques cannot finish gets status ``stuck``, its ``error`` saying
    after how many steps and the hardest so far."""
    return _rows(records, iter([_rate_chosen(r.puzzle, request) for r in records
                                if r.error is None and r.puzzle is not None]))


def _rate_chosen(puzzle: Puzzle, request: Chosen) -> Rating | SudokuError | _Stuck:
    """The :class:`~sudokit.logic.Rating` of ``puzzle`` solved with the chosen techniques, or
    the :class:`SudokuError` that stopped it (:class:`LogicStuck` when they cannot finish)."""
    from ..logic.solve import rating_of
    from .explain import chosen_solve

    try:
        steps, unique = chosen_solve(puzzle, request.time_limit, request.techniques,
                                     request.exclude)  # the solution found once for both
    except SudokuError as exc:
        return exc
    placed = sum(len(s.placements) for s in steps)
    if placed + puzzle.n_givens < puzzle.geometry.n_cells:
        hardest = max(steps, key=lambda s: s.rating, default=None)
        return _Stuck(f"the chosen techniques stop after {len(steps)} steps"
                      + (f" (hardest: {hardest.technique}, {hardest.rating:.1f})" if hardest
                         else ""))
    return rating_of(steps, unique)


class _Stuck(Exception):
    """A solve the chosen techniques cannot finish (the record's status ``stuck``)."""


def _rows(records: Sequence[Record], rated: Iterator[Rating | SudokuError | _Stuck]
          ) -> list[RatingRow]:
    """One record per input record, the ratings (or errors) of the valid ones from ``rated``."""
    out = []
    for record in records:
        row = RatingRow(source=record.source, line=record.line, status="invalid")
        out.append(row)
        if record.error is not None or record.puzzle is None:
            row["error"] = str(record.error)
            continue
        result = next(rated)
        if isinstance(result, _Stuck):
            row.update({"status": "stuck", "error": str(result)})
        elif isinstance(result, SudokuError):
            row.update({"status": "timeout" if isinstance(result, LimitReached) else "invalid",
                        "error": f"{record.source}:{record.line}:1: "
                                 f"{getattr(result, 'reason', result)}"})
        else:
            row.update({"status": "rated", "rating": result.rating,
                        "level": result.level.value, "hardest": result.hardest,
                        "steps": result.steps, "trial": result.trial, "unique": result.unique,
                        "pearl": result.pearl, "diamond": result.diamond})
    return out


def _chunks(records: Iterable[Record], size: int, stream: bool) -> Iterator[list[Record]]:
    """``records`` in lists of ``size``; with ``stream``, a record read from standard input
    ends its list, so that a pipe is answered record by record."""
    chunk: list[Record] = []
    for record in records:
        chunk.append(record)
        if len(chunk) >= size or (stream and record.source == "<stdin>"):
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def rate_records(records: Iterable[Record], *, jobs: int = 1,
                 time_limit: float | None = None, techniques: Sequence[str] | None = None,
                 exclude: Sequence[str] | None = None) -> Iterator[RatingRow]:
    """Yield one rating record per input record, in input order (see :func:`rate_chunk`).

    Records are rated in chunks of eight (one batch of solutions each); in this thread
    (``jobs`` 1) a record from standard input is rated as soon as it is read.

    Args:
        records: e.g. :func:`sudokit.run.output.read_inputs`; consumed lazily.
        jobs: worker processes (1: this thread).
        time_limit: seconds per puzzle, as :func:`sudokit.run.explain.rate_many`'s.
        techniques: only these techniques (names); exclude: all but these
            (:func:`rate_chunk_chosen`; None for both: every technique, in batches).

    Raises:
        InvalidOption: an unknown technique name (before any record is read).
    """
    from .batch import run_tasks
    from .chosen import technique_choice

    chunks = _chunks(records, _CHUNK, jobs <= 1)
    if techniques or exclude:
        technique_choice(techniques, exclude)  # an unknown name: one error, not one a record
        request = Chosen(time_limit, tuple(techniques) if techniques else None,
                         tuple(exclude) if exclude else None)
        for rows in run_tasks(rate_chunk_chosen, chunks, request, jobs=jobs, remote=jobs > 1):
            yield from rows
        return
    for rows in run_tasks(rate_chunk, chunks, time_limit, jobs=jobs, remote=jobs > 1):
        yield from rows


def record_line(row: RatingRow) -> str:
    """One text line: ``source:line  rating  level  hardest  EP pearl  ED diamond`` (tabs
    between; EP and ED as Sudoku Explainer's serate computes them) or ``... invalid  error``
    (or ``timeout``, ``stuck``)."""
    where = f"{row['source']}:{row['line']}"
    if row["status"] != "rated":
        return f"{where}\t{row['status']}\t{row['error']}"
    return (f"{where}\t{row['rating']:.1f}\t{row['level']}\t{row['hardest']}"
            f"\tEP {row['pearl']:.1f}\tED {row['diamond']:.1f}")
