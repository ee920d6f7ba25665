"""Rating streams of puzzles: one JSON-ready record per input record, in input order.

The policy of parallel work is :func:`sudokit.run.batch.run_tasks` (processes with ``jobs > 1``:
rating is pure Python); one bad record becomes one ``invalid`` record and never stops the stream.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..formats.lines import Record
from ..errors import SudokuError

__all__ = ["rate_chunk", "rate_records", "record_line"]

_CHUNK = 8


def rate_chunk(records: Sequence[Record], _request: Any = None) -> list[dict[str, Any]]:
    """Rate each record (a pool task): ``source``, ``line``, ``status`` and, when rated,
    ``rating``, ``level``, ``hardest``, ``steps``, ``trial``, ``unique``; else ``error``."""
    from ..logic.solve import rate

    out = []
    for record in records:
        base: dict[str, Any] = {"source": record.source, "line": record.line}
        if record.error is not None or record.puzzle is None:
            out.append(base | {"status": "invalid", "error": str(record.error)})
            continue
        try:
            result = rate(record.puzzle)
        except SudokuError as exc:
            out.append(base | {"status": "invalid", "error": f"{record.source}:{record.line}: "
                               f"{getattr(exc, 'reason', exc)}"})
            continue
        out.append(base | {"status": "rated", "rating": result.rating,
                           "level": result.level.value, "hardest": result.hardest,
                           "steps": result.steps, "trial": result.trial,
                           "unique": result.unique})
    return out


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    chunk: list[Record] = []
    for record in records:
        chunk.append(record)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def rate_records(records: Iterable[Record], *, jobs: int = 1) -> Iterator[dict[str, Any]]:
    """Yield one rating record per input record, in input order (see :func:`rate_chunk`).

    Args:
        records: e.g. :func:`sudokit.run.output.read_inputs`; consumed lazily.
        jobs: worker processes (1: this thread).
    """
    from .batch import run_tasks

    size = 1 if jobs <= 1 else _CHUNK
    for rows in run_tasks(rate_chunk, _chunks(records, size), None, jobs=jobs,
                          remote=jobs > 1):
        yield from rows


def record_line(row: dict[str, Any]) -> str:
    """One text line: ``source:line  rating  level  hardest`` or ``... invalid  error``."""
    where = f"{row['source']}:{row['line']}"
    if row["status"] != "rated":
        return f"{where}\tinvalid\t{row['error']}"
    return f"{where}\t{row['rating']:.1f}\t{row['level']}\t{row['hardest']}"
