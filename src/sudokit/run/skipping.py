"""Skipping the kept records of a resumed ``sudokit solve`` run, each checked first.

``--resume`` keeps the complete records of an interrupted run's output
(:func:`sudokit.run.resume.scan_output`) and drops as many input records before solving
(:func:`skip_records`). Each kept record is checked against the input record it stands for:
one that names a source line must name that record's (else the output is not this input's and
the resume is refused before anything is cut); a line-form solution must solve its puzzle
(givens, units and every constraint, :func:`sudokit.model.puzzle.is_solution`). A kept solution
that does not (a file changed or corrupted since) and every record after it are redone: the
resume point (records, offset, counts, last) moves back to it before the output is opened.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import Field, replace
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

from ..formats.linecodec import FastRows, LineChunk
from ..formats.lines import Record, Style
from ..model.puzzle import Puzzle, is_solution
from .resume import Kept, ResumeError, ResumePoint, scan_output

__all__ = ["drop_head", "skip_records"]

Head = tuple[str, int, "np.ndarray | None", "np.ndarray | None", "Callable[[bytes], bool] | None"]
"""``(source, line, raw, givens, solves)`` of an input record: its puzzle's bytes and givens
as written (see :func:`_record_head`), and a check that a kept line-form solution solves it
(None: the record is invalid, or written in a form that is not checked)."""


class _RecordTask(Protocol):
    """A :class:`~sudokit.run.pipeline.RecordTask`, a frozen dataclass (not imported here: the
    pipeline imports this module)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def records(self) -> list[Record]: ...


Task = TypeVar("Task", bound="LineChunk | _RecordTask")
"""A task of ``sudokit solve``: a LineChunk or a RecordTask."""


def drop_head(task: Task, count: int) -> tuple[Task | None, int, tuple[str, int] | None]:
    """Drop up to ``count`` records from the front of a task (for ``--resume``): a
    :class:`~sudokit.formats.lineform.LineChunk` or a :class:`~sudokit.run.pipeline.RecordTask`
    (not imported here: the pipeline imports this module).

    Returns:
        The rest of the task (None if nothing is left), how many records were dropped, and the
        ``(source, line)`` of the last one dropped (None if none).
    """
    if not isinstance(task, LineChunk):  # a RecordTask of sudokit.run.pipeline
        drop = min(count, len(task.records))
        last = task.records[drop - 1] if drop else None
        rest = replace(task, records=task.records[drop:]) if drop < len(task.records) else None
        return rest, drop, (last.source, last.line) if last else None
    drop = min(count, task.size)
    where = next(((r.source, r.line) for p, r in task.general if p == drop - 1), None)
    for rows in task.fast:
        hit = np.flatnonzero(rows.positions == drop - 1)
        if len(hit):
            where = (task.source, int(rows.lines[hit[0]]))
    if drop == task.size:
        return None, drop, where
    fast = []
    for rows in task.fast:
        keep = rows.positions >= drop
        fast.append(replace(rows, positions=rows.positions[keep] - drop, lines=rows.lines[keep],
                            raw=rows.raw[keep], givens=rows.givens[keep],
                            expected=rows.expected[keep], has_expected=rows.has_expected[keep],
                            expected_count=rows.expected_count[keep]))
    general = [(p - drop, r) for p, r in task.general if p >= drop]
    return replace(task, size=task.size - drop, fast=fast, general=general), drop, where


def skip_records(tasks: Iterable[Task], point: ResumePoint,
                 kept: Iterable[Kept] = ()) -> Iterator[Task]:
    """Drop the first ``point.records`` records of a stream of ``sudokit solve`` tasks, before
    solving, each checked against the kept record of an earlier run it stands for.

    Args:
        tasks: :class:`~sudokit.formats.lineform.LineChunk` and
            :class:`~sudokit.run.pipeline.RecordTask` values in input order.
        point: the resume point (:func:`sudokit.run.resume.scan_output`); moved back, before
            the first task is yielded, to the first kept solution that does not solve its
            puzzle (that record and every later one are solved again).
        kept: the kept records (:func:`sudokit.run.resume.kept_records`), in order; each one
            that names a source line must name its input record's.

    Raises:
        ResumeError: the input has fewer than ``point.records`` records, or a kept record
            names another input record.
    """
    count, last = point.records, point.last
    left, seen, kept = count, None, iter(kept)
    for task in tasks:
        rest: Task | None = task
        if left:
            bad = _check_kept(task, left, kept, count - left)
            if bad is not None:  # redo from the bad record on
                _move_back(point, bad - 1)
                left, count, last = bad - 1 - (count - left), bad - 1, None
            rest, dropped, where = drop_head(task, left)
            left, seen = left - dropped, where or seen
            if left == 0 and last is not None and seen is not None and seen != last:
                raise ResumeError(
                    f"--resume: the output's last record is for {last[0]}:{last[1]}, but input "
                    f"record {count} is {seen[0]}:{seen[1]}; not the same input?")
        if rest is not None:
            yield rest
    if left:
        raise ResumeError(f"--resume: the output holds {count} records but the input only "
                          f"{count - left}; not the same input?")


def _move_back(point: ResumePoint, records: int) -> None:
    """Make ``point`` the point after the first ``records`` records of its file."""
    assert point.path is not None and point.fmt is not None
    earlier = scan_output(point.path, point.fmt, limit=records) if records else ResumePoint()
    point.records, point.offset, point.counts = records, earlier.offset, earlier.counts
    point.last = earlier.last


def _check_kept(task: LineChunk | _RecordTask, count: int, kept: Iterator[Kept],
                before: int) -> int | None:
    """Check the first ``count`` records of a task against the next kept records (the
    ``before`` records ahead of the task were checked); return the number of the first kept
    solution that does not solve its puzzle (1-based among all records), else None.

    Raises:
        ResumeError: a kept record names another input record, or is a solution of an
            invalid record or of a puzzle with other givens.
    """
    for number, (source, line, raw, givens, solves) in enumerate(_heads(task, count),
                                                                before + 1):
        named, text = next(kept, (None, None))
        if text is None:
            return None
        if named is not None and not _names(named, text, source, line):
            why = f"names {named[0]}:{named[1]}"
        elif named is None and givens is None and raw is not None:
            why = "is a solution, of no puzzle (the input record is invalid)"
        elif (named is None and givens is not None and raw is not None
              and not _holds_givens(text, raw, givens)):
            why = "is no solution of it (its givens differ)"
        elif named is None and solves is not None and not solves(text):
            return number
        else:
            continue
        raise ResumeError(f"--resume: output record {number} {why}, but input record {number} "
                          f"is {source}:{line}; the output is not this input's: not resumed, "
                          "not cut")
    return None


def _names(named: tuple[str, int], text: bytes, source: str, line: int) -> bool:
    """Whether a kept record naming ``named`` is for the input record at ``source:line`` (an
    invalid one in line or grid form names where its error is: that line or a later one)."""
    if named == (source, line):
        return True
    invalid = text.lstrip(b"# ").startswith(b"invalid ")
    return invalid and named[0] == source and named[1] >= line


def _heads(task: LineChunk | _RecordTask, count: int) -> list[Head]:
    """The :data:`Head` of each of the first ``count`` records of a task, in order."""
    if not isinstance(task, LineChunk):  # a RecordTask of sudokit.run.pipeline
        return [_record_head(r) for r in task.records[:count]]
    found = {p: _record_head(r) for p, r in task.general if p < count}
    for rows in task.fast:
        for k in np.flatnonzero(rows.positions < count).tolist():
            found[int(rows.positions[k])] = (task.source, int(rows.lines[k]), rows.raw[k],
                                             rows.givens[k], _row_check(rows, k))
    return [found[p] for p in sorted(found)]


def _record_head(record: Record) -> Head:
    """The :data:`Head` of a record of the general reader: its givens written in its style
    (``raw``, one byte per cell), or an empty ``raw`` and None givens for an invalid record
    (its line-form record names it), or None for a puzzle written otherwise (integers,
    several lines, f-puzzles data: its solution is checked whole, not its givens' bytes)."""
    from ..formats.text import format_line

    puzzle, style = record.puzzle, record.style
    if puzzle is None:
        return record.source, record.line, np.zeros(0, np.uint8), None, None
    solves = _style_check(puzzle, style)
    if style.symbols is None or style.janko is not None or style.fpuzzles is not None:
        return record.source, record.line, None, None, solves
    written = format_line(puzzle.givens, None, style).encode()[len(style.prefix):]
    if len(written) != len(puzzle.givens):
        return record.source, record.line, None, None, solves
    return (record.source, record.line, np.frombuffer(written, np.uint8),
            np.asarray(puzzle.givens), solves)


def _row_check(rows: FastRows, k: int) -> Callable[[bytes], bool]:
    """A check that a kept line-form solution solves row ``k`` of the array path: its last
    N*N bytes decode to digits (the row's symbols) that solve the puzzle."""
    codec = rows.codec
    puzzle = Puzzle(codec.geometry, tuple(rows.givens[k].tolist()))

    def solves(text: bytes) -> bool:
        cells = codec.geometry.n_cells
        digits = codec.decode[np.frombuffer(text[len(text) - cells:], np.uint8)]
        return (len(text) >= cells and bool(((digits >= 1) & (digits <= codec.geometry.side))
                                            .all()) and is_solution(digits.tolist(), puzzle))

    return solves


def _style_check(puzzle: Puzzle, style: Style) -> Callable[[bytes], bool] | None:
    """A check that a kept solution written in ``style`` solves ``puzzle``: a line of its
    symbols, or f-puzzles data (its cells' values); None for other forms (not checked)."""
    side, cells = puzzle.geometry.side, puzzle.geometry.n_cells
    if style.fpuzzles is not None:
        def solves(text: bytes) -> bool:
            try:
                rows = json.loads(text[len(style.prefix.encode()):])["grid"]
                grid = [int(cell.get("value", 0)) for row in rows for cell in row]
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
                return False
            return len(grid) == cells and is_solution(grid, puzzle)
        return solves
    if style.symbols is None or style.janko is not None:
        return None
    table = {symbol: digit for digit, symbol in enumerate(style.symbols[:side], 1)}

    def solves_line(text: bytes) -> bool:
        written = text.decode("utf-8", "replace")[len(style.prefix):]
        grid = [table.get(symbol, 0) for symbol in written]
        return len(grid) == cells and 0 not in grid and is_solution(grid, puzzle)
    return solves_line


def _holds_givens(text: bytes, raw: np.ndarray, givens: np.ndarray) -> bool:
    """Whether a line-form solution ends in the input row's symbols at its given cells."""
    if len(text) < len(raw):
        return False
    written = np.frombuffer(text[len(text) - len(raw):], np.uint8)
    given = givens != 0
    return bool(np.array_equal(written[given], raw[given]))
