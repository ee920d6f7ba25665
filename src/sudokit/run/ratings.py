"""Rating streams of puzzles: one JSON-ready record per input record, in input order.

The policy of parallel work is :func:`sudokit.run.batch.run_tasks` (processes with ``jobs > 1``:
rating is pure Python); one bad record becomes one ``invalid`` record and never stops the stream.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..errors import LimitReached, SudokuError
from ..formats.lines import Record

__all__ = ["rate_chunk", "rate_records", "record_line"]

_CHUNK = 8


def rate_chunk(records: Sequence[Record], time_limit: float | None = None
               ) -> list[dict[str, Any]]:
    """Rate each record (a pool task): ``source``, ``line``, ``status`` and, when rated,
    ``rating``, ``level``, ``hardest``, ``steps``, ``trial``, ``unique``; else ``error``. The
    chunk's solutions are found in one batch (:func:`~sudokit.run.explain.rate_many`), each
    puzzle within ``time_limit`` seconds (None: no limit), else its status is ``timeout``."""
    from .explain import rate_many

    rated = iter(rate_many([r.puzzle for r in records
                            if r.error is None and r.puzzle is not None],
                           time_limit=time_limit))
    out = []
    for record in records:
        base: dict[str, Any] = {"source": record.source, "line": record.line}
        if record.error is not None or record.puzzle is None:
            out.append(base | {"status": "invalid", "error": str(record.error)})
            continue
        result = next(rated)
        if isinstance(result, SudokuError):
            out.append(base | {"status": "timeout" if isinstance(result, LimitReached)
                               else "invalid", "error": f"{record.source}:{record.line}:1: "
                               f"{getattr(result, 'reason', result)}"})
            continue
        out.append(base | {"status": "rated", "rating": result.rating,
                           "level": result.level.value, "hardest": result.hardest,
                           "steps": result.steps, "trial": result.trial,
                           "unique": result.unique, "pearl": result.pearl,
                           "diamond": result.diamond})
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
                 time_limit: float | None = None) -> Iterator[dict[str, Any]]:
    """Yield one rating record per input record, in input order (see :func:`rate_chunk`).

    Records are rated in chunks of eight (one batch of solutions each); in this thread
    (``jobs`` 1) a record from standard input is rated as soon as it is read.

    Args:
        records: e.g. :func:`sudokit.run.output.read_inputs`; consumed lazily.
        jobs: worker processes (1: this thread).
        time_limit: seconds per puzzle, as :func:`sudokit.run.explain.rate_many`'s.
    """
    from .batch import run_tasks

    chunks = _chunks(records, _CHUNK, jobs <= 1)
    for rows in run_tasks(rate_chunk, chunks, time_limit, jobs=jobs, remote=jobs > 1):
        yield from rows


def record_line(row: dict[str, Any]) -> str:
    """One text line: ``source:line  rating  level  hardest`` or ``... invalid  error`` (or
    ``timeout``)."""
    where = f"{row['source']}:{row['line']}"
    if row["status"] != "rated":
        return f"{where}\t{row['status']}\t{row['error']}"
    return f"{where}\t{row['rating']:.1f}\t{row['level']}\t{row['hardest']}"
