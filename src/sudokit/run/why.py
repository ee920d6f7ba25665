"""The front door of "why": why a puzzle has no solution, or several.

``why(puzzle)`` counts the puzzle's solutions up to two through the front door, then:

* with none, lists disjoint minimal conflicts of its givens, drawn rules and cages, each with
  the technique engine's refutation (:mod:`sudokit.run.why_none`);
* with several, gives two solutions, the cells where they differ, a minimal unavoidable set
  and every single given that would make the puzzle unique (:mod:`sudokit.run.why_several`);
* with one, says so.

Every check is a solve by the front door (the default method, every grid verified), so the
answer holds for classic grids, every size and every rule the methods take. ``sudokit solve
--unique``, ``count``, ``explain``, ``hint`` and ``rate`` give it with ``--why``; the board's
API with ``/api/why``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..model.puzzle import Puzzle, PuzzleLike
from .why_check import Checker
from .why_none import Reason, reasons
from .why_several import Several, several

__all__ = ["WHY_SECONDS", "Why", "why"]

WHY_SECONDS = 30.0
"""The default time limit of :func:`why`, in seconds."""


@dataclass(frozen=True)
class Why:
    """Why a puzzle has no solution, several, or one.

    Attributes:
        puzzle: the puzzle explained.
        verdict: ``"none"``, ``"several"`` or ``"unique"``.
        reasons: with no solution, the disjoint minimal conflicts found (the first is minimal
            in the whole puzzle).
        several: with several solutions, their analysis (None otherwise).
        checks: the solves the explanation took.
        seconds: its wall time.
    """

    puzzle: Puzzle
    verdict: str
    reasons: tuple[Reason, ...] = ()
    several: Several | None = None
    checks: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        """The ``why`` field of a jsonl record and of the API: ``verdict``, then ``reasons``
        (no solution) or ``solutions``, ``differ``, ``unavoidable``, ``fixes``, ``fix_set``
        (several); cells 0-based, with their labels in ``text`` fields."""
        row: dict[str, object] = {"verdict": self.verdict}
        if self.reasons:
            row["reasons"] = [r.as_dict() for r in self.reasons]
        found = self.several
        if found is not None:
            g = self.puzzle.geometry
            row.update({
                "solutions": [g.symbols(s) for s in found.solutions],
                "differ": list(found.differ),
                "unavoidable": list(found.unavoidable),
                "alternative": g.symbols(found.alternative),
                "fixes": [_clue(self.puzzle, c, d) for c, d in found.fixes],
                "fix_set": [_clue(self.puzzle, c, d) for c, d in found.fix_set],
                "complete": found.complete,
            })
        row.update({"checks": self.checks, "seconds": round(self.seconds, 6)})
        return row

    def text(self) -> str:
        """A short text: one line per reason, or the several-solutions summary."""
        if self.verdict == "unique":
            return "the puzzle has exactly one solution"
        if self.verdict == "none":
            lines = [f"no solution: {len(self.reasons)} disjoint reason"
                     f"{'s' * (len(self.reasons) != 1)}"]
            lines += [f"  {r.text()}" for r in self.reasons]
            return "\n".join(lines)
        return _several_text(self.puzzle, self.several)

    def __str__(self) -> str:
        return self.text()


def _clue(puzzle: Puzzle, cell: int, digit: int) -> dict[str, object]:
    g = puzzle.geometry
    return {"cell": cell, "digit": digit, "text": f"{g.label(cell)}={g.symbol(digit)}"}


def _several_text(puzzle: Puzzle, found: Several | None) -> str:
    if found is None:
        return "several solutions"
    g = puzzle.geometry
    cells = " ".join(g.label(c) for c in found.unavoidable)
    lines = [f"several solutions: two differ in {len(found.differ)} cells; an unavoidable set "
             f"of {len(found.unavoidable)}: {cells}"]
    if found.fixes:
        clues = " ".join(f"{g.label(c)}={g.symbol(d)}" for c, d in found.fixes)
        lines.append(f"  one more given makes it unique: {clues}")
    elif found.fix_set:
        clues = " ".join(f"{g.label(c)}={g.symbol(d)}" for c, d in found.fix_set)
        lines.append(f"  no single given makes it unique; these together do: {clues}")
    elif found.complete:
        lines.append("  no single given makes it unique")
    if not found.complete:
        lines.append("  (the time limit came before every candidate given was checked)")
    return "\n".join(lines)


def why(puzzle: PuzzleLike, *, method: str | None = None, most: int = 3,
        time_limit: float | None = WHY_SECONDS) -> Why:
    """Explain why a puzzle has no solution or several.

    Args:
        puzzle: a :class:`~sudokit.Puzzle` or anything :meth:`Puzzle.coerce` takes.
        method: the method of every check (None: the default method).
        most: the most disjoint reasons listed for a puzzle without a solution.
        time_limit: seconds for the whole explanation (None or 0: no limit).

    Returns:
        A :class:`Why`; ``str(why(p))`` is the short text, ``why(p).as_dict()`` the jsonl
        field.

    Raises:
        InvalidPuzzle: unreadable input.
        LimitReached: the time limit passed before the count or the first reason (a fixing
            search cut short is reported as incomplete instead).
        UnsupportedPuzzle, UnknownMethod: as :func:`~sudokit.run.doors.count_solutions`.

    >>> why("12341234........").verdict
    'none'
    """
    puzzle = Puzzle.coerce(puzzle)
    start = time.perf_counter()
    check = Checker(method, time_limit or None)
    found = check.count(puzzle, 2).solutions
    if len(found) == 1:
        return Why(puzzle, "unique", checks=check.checks, seconds=time.perf_counter() - start)
    if not found:
        listed = tuple(reasons(check, puzzle, most))
        return Why(puzzle, "none", reasons=listed, checks=check.checks,
                   seconds=time.perf_counter() - start)
    analysis = several(check, puzzle, found[0], found[1])
    return Why(puzzle, "several", several=analysis, checks=check.checks,
               seconds=time.perf_counter() - start)
