"""Resuming ``sudokit solve --output FILE`` after an interruption.

``sudokit solve`` writes each block of records with one write and one flush, so an interrupted
run leaves complete records followed by at most one partial one. :func:`scan_output` finds where
the complete records end, how many there are and their statuses; the run then truncates the file
there, skips that many input records (:func:`sudokit.run.pipeline.skip_records`, before anything is solved) and
appends. Every input record has exactly one output record, in input order, so the count of
records is the resume point. Every kept record is checked against its input record
(:func:`kept_records`, read again in step with the input, memory flat): one that names its
source line (every record of ``grid`` and ``jsonl``, and every line-form record that is not a
solution) must name that input record's, and a line-form solution must hold the givens of a
puzzle read on the array path; otherwise the resume is refused before the file is cut (a file
``sudokit solve`` did not write for this input is never truncated).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ResumeError
from ..model.result import Status
from .output import OutputFormat

__all__ = ["ResumeError", "ResumePoint", "scan_output", "kept_records", "Kept"]

_BLOCK = 1 << 24
"""Bytes read at a time while scanning an output file (memory stays flat in its length)."""

_WORDS = {status.word: status for status in Status}
_STATUS_LINE = re.compile(rb"^(?:# )?(invalid|unsolvable|timeout|multiple|solved) (\S*)", re.M)
_WHERE = (re.compile(r"^(.*):(\d+):\d+:?$"), re.compile(r"^(.*):(\d+):?$"))
"""``file:line:column:`` and ``file:line`` (the column first: ``.*`` is greedy)."""


@dataclass
class ResumePoint:
    """Where an interrupted run's output ends.

    Attributes:
        records: complete records in the file.
        offset: bytes of those records (the file is truncated here before appending).
        counts: int64[len(Status)] records per status code.
        last: ``(source, line)`` of the last record when it names one, else None.
        path, fmt: the output file and its form (None for an empty point), to read the kept
            records again (:func:`kept_records`).
    """

    records: int = 0
    offset: int = 0
    counts: np.ndarray = field(default_factory=lambda: np.zeros(len(Status), np.int64))
    last: tuple[str, int] | None = None
    path: Path | None = None
    fmt: OutputFormat | None = None

    @property
    def all_ok(self) -> bool:
        """Every record so far was solved."""
        return int(self.counts.sum()) == int(self.counts[Status.SOLVED])


def scan_output(path: Path, fmt: OutputFormat, limit: int | None = None) -> ResumePoint:
    """Find the complete records of an output file written by ``sudokit solve --format fmt``
    (the first ``limit`` of them, if given).

    A line-form or jsonl record is one line ending in a newline; a grid record is a ``#``
    header, the grid, and a blank line. A missing or empty file gives an empty point.

    Raises:
        ResumeError: a jsonl line that is not a record of ``sudokit solve``, or (no
            ``limit``) bytes after the complete records that cannot begin one.
    """
    point = ResumePoint()
    if not path.exists():
        return point
    point.path, point.fmt = path, fmt
    end = b"\n\n" if fmt is OutputFormat.GRID else b"\n"
    with open(path, "rb") as stream:
        carry = b""
        while block := stream.read(_BLOCK):
            data = carry + block
            cut = data.rfind(end) + len(end) if data.rfind(end) >= 0 else 0
            if limit is not None:
                cut = _cut_after(data, end, limit - point.records, cut)
            _count(data[:cut], fmt, end, point, path)
            point.offset += cut
            carry = data[cut:]
            if limit is not None and point.records >= limit:
                break
    if limit is None:
        _check_tail(carry, fmt, point, path)
    return point


_HEADS = {OutputFormat.GRID: b"# ", OutputFormat.JSONL: b'{"source": '}
"""How every record of a form begins (line form: any text)."""


def _check_tail(tail: bytes, fmt: OutputFormat, point: ResumePoint, path: Path) -> None:
    """Refuse a file whose bytes after its complete records (all of it, when it holds none:
    a JSON file, a binary, notes) cannot be the start of a record ``sudokit solve`` writes in
    ``fmt``: it would be cut there and overwritten.

    Raises:
        ResumeError: naming the file and the record number.
    """
    head = _HEADS.get(fmt)
    if head is None:  # line form: a partial solution or status line is UTF-8 text
        try:
            tail[:-4].decode("utf-8")  # the last character may be cut
            good = b"\0" not in tail
        except UnicodeDecodeError:
            good = False
    else:
        first = tail.split(b"\n", 1)
        good = tail.startswith(head) or head.startswith(tail)
        if good and fmt is OutputFormat.GRID and len(first) > 1:
            good = _STATUS_LINE.match(first[0]) is not None
    if not good:
        raise ResumeError(f"{path}: record {point.records + 1} is not a {fmt.value} record of "
                          "'sudokit solve' (a file it did not write?); not resumed, not cut")


def _cut_after(data: bytes, end: bytes, records: int, cut: int) -> int:
    """The offset after the ``records``-th ``end`` of ``data``, or ``cut`` if there are fewer."""
    at = 0
    for _ in range(records):
        found = data.find(end, at, cut)
        if found < 0:
            return cut
        at = found + len(end)
    return at


def _count(data: bytes, fmt: OutputFormat, end: bytes, point: ResumePoint, path: Path) -> None:
    """Add the complete records of ``data`` to ``point``."""
    if not data:
        return
    if fmt is OutputFormat.JSONL:
        lines = data.splitlines()
        for number, line in enumerate(lines, point.records + 1):
            try:
                record = json.loads(line)
                status = _WORDS[record["status"]]
                point.last = (str(record["source"]), int(record["line"]))
            except (ValueError, KeyError, TypeError, RecursionError):
                raise ResumeError(f"{path}:{number}: not a jsonl record of 'sudokit solve'; "
                                  "cannot resume") from None
            point.counts[status] += 1
        point.records += len(lines)
        return
    records = data.count(b"\n\n") if fmt is OutputFormat.GRID else data.count(b"\n")
    matches = list(_STATUS_LINE.finditer(data))
    for match in matches:
        point.counts[_WORDS[match[1].decode()]] += 1
    if fmt is OutputFormat.LINE:  # solutions carry no status word
        point.counts[Status.SOLVED] += records - len(matches)
    point.records += records
    tail = data[data.rfind(end, 0, len(data) - len(end)) + len(end):] if records else b""
    last = _STATUS_LINE.match(tail.lstrip(b"\n"))
    point.last = _where(last[2].decode("utf-8", "replace")) if last else None


def _where(text: str) -> tuple[str, int] | None:
    """``('top95.txt', 3)`` from ``top95.txt:3`` or ``top95.txt:3:7:``."""
    match = _WHERE[0].match(text) or _WHERE[1].match(text)
    return (match[1], int(match[2])) if match and len(match[2]) <= 18 else None


Kept = tuple[tuple[str, int] | None, bytes]
"""One kept record: the ``(source, line)`` it names (None for a line-form solution) and its
text (the solution line; the header line of grid and jsonl records)."""

_LONGEST = 1 << 20
"""Longest kept line read again (a longer one is no record of ``sudokit solve``)."""


def kept_records(point: ResumePoint) -> Iterator[Kept]:
    """The complete records of a scanned output file, read again one at a time.

    Raises:
        ResumeError: a line longer than 1 MiB (no record of ``sudokit solve``).
    """
    if point.path is None or not point.records:
        return
    grid = point.fmt is OutputFormat.GRID
    with open(point.path, "rb") as stream:
        for number in range(1, point.records + 1):
            line = stream.readline(_LONGEST)
            if len(line) >= _LONGEST:
                raise ResumeError(f"{point.path}: record {number} is longer than any record of "
                                  "'sudokit solve'; cannot resume")
            yield _named(line, point.fmt), line.rstrip(b"\r\n")
            while grid and stream.readline(_LONGEST).strip():
                pass  # the rest of a grid record, to its blank line


def _named(line: bytes, fmt: OutputFormat | None) -> tuple[str, int] | None:
    """The ``(source, line)`` a record's first line names, if any."""
    if fmt is OutputFormat.JSONL:
        try:
            record = json.loads(line)
            return record["source"], int(record["line"])
        except (ValueError, KeyError, TypeError, RecursionError):
            return None
    match = _STATUS_LINE.match(line)
    return _where(match[2].decode("utf-8", "replace")) if match else None
