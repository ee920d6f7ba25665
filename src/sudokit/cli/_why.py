"""``--why`` of ``sudokit solve``, ``count``, ``explain``, ``hint`` and ``rate``: why a puzzle
has no solution or several, thin over :func:`sudokit.run.why.why`."""

from __future__ import annotations

import json
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from ..formats.lines import Record
    from ..model.puzzle import Puzzle

__all__ = ["WhyOption", "explained", "solve_why", "stop_unless_unique", "with_puzzles"]

WhyOption = Annotated[bool, typer.Option(
    "--why", help="When a puzzle has no solution or several, say why: the smallest sets of "
    "givens and rules that conflict, or where two solutions differ and which one given "
    "would make it unique (a 'why' field in jsonl).")]


def explained(puzzle: Puzzle, time_limit: float | None) -> tuple[dict[str, object], str]:
    """The ``why`` field of a record (:meth:`sudokit.run.why.Why.as_dict`) and its short text;
    ``({"error": ...}, "no explanation: ...")`` when it could not be made (time limit,
    unsupported rule)."""
    from ..errors import SudokuError
    from ..run.why import why

    try:
        found = why(puzzle, time_limit=time_limit or None)
    except SudokuError as exc:
        return {"error": str(exc)}, f"no explanation: {exc}"
    return found.as_dict(), found.text()


def stop_unless_unique(puzzle: Puzzle, jsonl: bool, time_limit: float | None) -> None:
    """Print why ``puzzle`` has no solution or several and exit 1; return when it has one.

    Raises:
        typer.Exit: with code 1 after printing, when the puzzle is not unique.
    """
    from ..errors import SudokuError
    from ..run.why import why

    try:
        found = why(puzzle, time_limit=time_limit or None)
    except SudokuError as exc:
        print(f"sudokit: no explanation: {exc}", file=sys.stderr)
        raise typer.Exit(1) from None
    if found.verdict == "unique":
        return
    print(json.dumps({"why": found.as_dict()}) if jsonl else found.text(), flush=True)
    raise typer.Exit(1)


def with_puzzles(records: Iterable[Record], pending: deque[Puzzle | None]
                 ) -> Iterator[Record]:
    """The records, each one's puzzle put at the end of ``pending`` as it is read (a runner
    that yields one row per record in input order takes them from the front)."""
    for record in records:
        pending.append(record.puzzle)
        yield record


def _row(record: Record, puzzle: Puzzle, time_limit: float | None
         ) -> tuple[dict[str, object], str]:
    """The jsonl record and the text of one puzzle's why (``puzzle``: the record's)."""
    found, text = explained(puzzle, time_limit)
    status = str(found.get("verdict", "unknown"))
    row = {"source": record.source, "line": record.line, "status": status, "why": found}
    lines = "" if status == "unique" else "\n" + "\n".join(
        f"  {line}" for line in text.splitlines())
    return row, f"{record.source}:{record.line}\t{status}{lines}"


def solve_why(records: Iterable[Record], jsonl: bool, time_limit: float | None) -> bool:
    """``sudokit solve --why``: one record per puzzle, ``source``, ``line``, ``status``
    (unique, none, several, invalid) and the ``why`` field (jsonl), or one text block.

    Returns:
        Whether every puzzle has exactly one solution.
    """
    all_unique = True
    for record in records:
        where = f"{record.source}:{record.line}"
        if record.puzzle is None:
            row: dict[str, object] = {"source": record.source, "line": record.line,
                                   "status": "invalid", "error": str(record.error)}
            text = f"{where}\tinvalid\t{record.error}"
        else:
            row, text = _row(record, record.puzzle, time_limit)
        all_unique = all_unique and row["status"] == "unique"
        print(json.dumps(row) if jsonl else text, flush=True)
    return all_unique
