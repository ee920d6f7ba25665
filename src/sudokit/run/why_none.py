"""Why a puzzle has no solution: minimal unsatisfiable subsets of its givens and rules, and a
logical refutation of each.

A **reason** is a minimal unsatisfiable subset (MUS) of the puzzle's members
(:mod:`sudokit.run.why_check`): with the grid's own rules these givens, drawn rules and cages
have no solution, and dropping any one of them leaves a puzzle that has one. It is found by
QuickXplain (Junker 2004, "QUICKXPLAIN: preferred explanations and relaxations for
over-constrained problems", AAAI), whose every check is one solve of a sub-puzzle by the front
door; several disjoint reasons are found by taking each reason's members out and searching
the rest again while it still has no solution.

The refutation is the technique engine's easiest-first solve of the reason alone (its givens,
rules and cages) without trial or uniqueness steps, stopped at the first contradiction
(:meth:`~sudokit.logic.state.Candidates.contradiction`): "r1c5 has no candidate left", "3 has
no place left in column 5". It is the easiest-first path, not a proved shortest one; when the
techniques stall before a contradiction, none is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import LimitReached, SudokuError
from ..logic.step import Step
from ..model.puzzle import Puzzle
from .why_check import Checker, Member, members, sub_puzzle
from .why_sat import SatConflicts

__all__ = ["MAX_REFUTATION_STEPS", "REFUTATION_RATING", "REFUTATION_SECONDS", "Reason",
           "minimal_conflict", "reasons", "refutation"]

MAX_REFUTATION_STEPS = 60
"""The most technique steps a refutation may take before it is given up."""

REFUTATION_SECONDS = 2.0
"""The most seconds a refutation may take (checked between steps) before it is given up."""

REFUTATION_RATING = 7.0
"""The hardest technique a refutation may use (Sudoku Explainer's scale): chains up to AIC
and ALS, no forcing chains, whose searches on rule puzzles take seconds per step."""


@dataclass(frozen=True)
class Reason:
    """One minimal set of givens and rules that has no solution.

    Attributes:
        members: the givens, drawn rules and cages (each needed: drop one and a solution
            exists).
        steps: the refutation's steps as the CLI prints them (``[1.2] Hidden Single: ...``),
            empty when the givens clash at once or no refutation was found.
        contradiction: what the refutation ends on (``"3 has no place left in column 5"``), or
            ``""`` when the techniques found none.
    """

    members: tuple[Member, ...]
    steps: tuple[str, ...] = ()
    contradiction: str = ""
    cells: tuple[int, ...] = field(default=(), compare=False)

    def as_dict(self) -> dict[str, object]:
        """The reason as a JSON object (``members``, ``steps``, ``contradiction``)."""
        return {"members": [m.as_dict() for m in self.members], "steps": list(self.steps),
                "contradiction": self.contradiction}

    def text(self) -> str:
        """One line: the members, then the contradiction the techniques reach."""
        names = ", ".join(m.text for m in self.members)
        ends = f": {self.contradiction}" if self.contradiction else ""
        if self.contradiction and self.steps:
            ends += f" after {len(self.steps)} step{'s' * (len(self.steps) != 1)}"
        return f"{names} cannot all hold{ends}"


def _quickxplain(check: Checker, puzzle: Puzzle, background: list[Member], changed: bool,
                 candidates: list[Member]) -> list[Member]:
    """The members of ``candidates`` that a minimal conflict with ``background`` needs
    (QuickXplain's recursion; ``background + candidates`` has no solution)."""
    if changed and check.solution(sub_puzzle(puzzle, background)) is None:
        return []
    if len(candidates) == 1:
        return candidates
    half = len(candidates) // 2
    first, second = candidates[:half], candidates[half:]
    needed_second = _quickxplain(check, puzzle, background + first, bool(first), second)
    needed_first = _quickxplain(check, puzzle, background + needed_second, bool(needed_second),
                                first)
    return needed_first + needed_second


def minimal_conflict(check: Checker, puzzle: Puzzle, pool: Sequence[Member]) -> list[Member]:
    """A minimal subset of ``pool`` without a solution (``pool`` itself has none).

    Args:
        check: the solvability check (its deadline bounds the search).
        puzzle: the whole puzzle the members come from.
        pool: members whose sub-puzzle has no solution.

    Returns:
        The subset, in ``pool``'s order; empty when the grid's rules alone have no solution.

    Raises:
        LimitReached: the check's deadline passed.
    """
    if not pool or check.solution(sub_puzzle(puzzle, ())) is None:
        return []
    found = set(_quickxplain(check, puzzle, [], False, list(pool)))
    return [m for m in pool if m in found]


def _line(puzzle: Puzzle, step: Step) -> str:
    """The step's line; when its own text cannot be written (a finder's text for a step that
    empties a cell), its technique and what it removes and places."""
    try:
        return str(step)
    except (IndexError, ValueError, KeyError):
        g = puzzle.geometry
        moves = [f"{g.label(c)}<>{g.symbol(d)}" for c, d in step.eliminations]
        moves += [f"{g.label(c)}={g.symbol(d)}" for c, d in step.placements]
        return f"[{step.rating:.1f}] {step.technique}: {', '.join(moves)}"


def refutation(puzzle: Puzzle, conflict: Sequence[Member],
               max_steps: int = MAX_REFUTATION_STEPS) -> tuple[tuple[str, ...], str]:
    """The technique engine's easiest-first steps from the conflict alone to a contradiction.

    Returns:
        ``(steps, contradiction)``: the steps' lines and the contradiction reached; ``((),
        "")`` when the engine stalls, does not handle the puzzle's rules, or needs more than
        ``max_steps`` steps or :data:`REFUTATION_SECONDS`.
    """
    from ..logic.registry import TechniqueKind
    from ..logic.solve import ALL_KINDS, solve_steps
    from ..logic.state import Candidates
    from ..model.result import Limits, Stats

    try:
        alone = sub_puzzle(puzzle, conflict)
        clashes = alone.conflicts()
        if clashes:
            return (), str(clashes[0])
        state = Candidates.from_puzzle(alone)
        found = state.contradiction()
        if found:
            return (), found
        kinds = ALL_KINDS - {TechniqueKind.TRIAL, TechniqueKind.UNIQUENESS}
        lines: list[str] = []
        limits, stats = Limits(REFUTATION_SECONDS).start(), Stats()
        for step in solve_steps(state, kinds=kinds, limits=limits, stats=stats,
                                max_rating=REFUTATION_RATING):
            lines.append(_line(puzzle, step))
            found = state.contradiction()
            if found:
                return tuple(lines), found
            if len(lines) >= max_steps:
                break
    except SudokuError:  # a rule the engine does not read, or the time limit (LimitReached)
        pass
    return (), ""


def reasons(check: Checker, puzzle: Puzzle, most: int = 3,
            refute: bool = True) -> list[Reason]:
    """Disjoint minimal conflicts of a puzzle that has no solution, each with its refutation.

    Args:
        check: the solvability check.
        puzzle: a puzzle without a solution.
        most: the most reasons to list.
        refute: whether to look for each reason's refutation with the technique engine.

    Returns:
        One :class:`Reason` per disjoint conflict found (the first is minimal in the whole
        puzzle; each next one in what the earlier ones leave); empty when the puzzle has a
        solution.

    Raises:
        LimitReached: the check's deadline passed before the first reason was found.
    """
    pool = members(puzzle)
    sat = _sat_conflicts(puzzle, pool, check)
    found: list[Reason] = []
    try:
        while len(found) < most:
            try:
                if found and _solvable(sat, check, puzzle, pool):
                    break
                conflict = (sat.minimal(pool) if sat is not None
                            else minimal_conflict(check, puzzle, pool))
            except LimitReached:
                if not found:
                    raise
                break
            steps, contradiction = refutation(puzzle, conflict) if refute else ((), "")
            cells = sorted({c for m in conflict for c in m.cells})
            found.append(Reason(tuple(conflict), steps, contradiction, tuple(cells)))
            if not conflict:
                break
            pool = [m for m in pool if m not in conflict]
    finally:
        if sat is not None:
            sat.close()
    return found


def _sat_conflicts(puzzle: Puzzle, pool: list[Member], check: Checker) -> SatConflicts | None:
    """The CDCL search of :mod:`sudokit.run.why_sat` for a puzzle with drawn rules or cages, or
    None (a chosen method, givens only, no PySAT, a geometry or rule it does not encode): then
    QuickXplain runs."""
    if check.method is not None:
        return None  # a chosen method checks every sub-puzzle
    g = puzzle.geometry
    if not g.constraints and not g.cages:
        return None  # givens only: QuickXplain over the compiled engine was twice as fast
    try:
        return SatConflicts(puzzle, pool, check)
    except (ValueError, SudokuError, ImportError):
        return None


def _solvable(sat: SatConflicts | None, check: Checker, puzzle: Puzzle,
              pool: list[Member]) -> bool:
    if sat is not None:
        return sat.solve(pool)
    return check.solution(sub_puzzle(puzzle, pool)) is not None
