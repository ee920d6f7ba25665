"""Technique targets of generation: puzzles whose logical solve *needs* a technique (its
hardest step is one) or *uses* it (one of its steps is one).

A target is a word the user gives: a technique the technique engine names (``"X-Wing"``,
``"XY-Wing"``, ``"Unique Rectangle"``, ``"Pair Relation"``; case, spaces and hyphens do not
matter), a name some of its steps carry (``"Skyscraper"``, a kind of Turbot Fish;
``"XY-Chain"``, a kind of AIC), or a family (:data:`FAMILIES`: ``fish``, ``wings``,
``chains``, ``uniqueness``, ``rules``, ...). It resolves to the set of step names
(``Step.technique``, the names ``sudokit rate`` prints as the hardest) that meet it.

Judging a puzzle (:func:`judge`) runs the technique engine's easiest-first solve
(:func:`sudokit.logic.solve.solve_steps`, Sudoku Explainer's rule) against the known solution:

* ``needs``: the ladder is cut above the target's highest base rating (the techniques of a
  lower or equal base rating, no trial). The easiest-first solve with a cut ladder takes the
  same steps as the whole ladder until it stalls; a puzzle it completes is rated exactly (the
  :class:`~sudokit.logic.solve.Rating` of its whole solve) and accepted when its hardest step
  is a target step; a puzzle on which it stalls needs a technique of a higher base rating and
  is rejected without solving further (so a target step rated above a later technique's base
  rating is never found: a missed puzzle, never a wrong one).
* ``uses``: the whole ladder (trial included), stopping at the first target step.

Every accepted puzzle's claim can be checked by ``sudokit rate`` (tests do).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..errors import InvalidOption
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle

if TYPE_CHECKING:
    from ..logic.solve import Rating
    from ..logic.step import Step

__all__ = ["FAMILIES", "STEP_NAMES", "STEP_RATINGS", "Judgement", "TechniqueTarget", "judge", "resolve_target"]

FAMILIES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "singles": ("Full House", "Hidden Single (box)", "Hidden Single (line)", "Naked Single"),
    "intersections": ("Pointing", "Claiming"),
    "subsets": ("Naked Pair", "Hidden Pair", "Naked Triple", "Hidden Triple", "Naked Quad",
                "Hidden Quad"),
    "fish": ("X-Wing", "Swordfish", "Jellyfish"),
    "single-digit": ("Turbot Fish", "Empty Rectangle", "Simple Colouring"),
    "wings": ("XY-Wing", "XYZ-Wing", "WXYZ-Wing", "VWXYZ-Wing", "W-Wing"),
    "chains": ("X-Chain (short)", "X-Chain", "Y-Cycle", "AIC", "Grouped AIC"),
    "als": ("ALS-XZ",),
    "uniqueness": ("Unique Rectangle", "BUG+1"),
    "forcing": ("Digit Forcing Chain", "Cell Forcing Chain", "Unit Forcing Chain",
                "Rule Forcing Chain", "Rule Forcing Chain (+)", "Rule Cell Forcing Chain",
                "Rule Cell Forcing Chain (+)"),
})
"""Families of registered techniques (by the names of :func:`sudokit.logic.registry.techniques`;
``forcing`` also holds every other registered "... Forcing Chain"). One more family is made from
the registry: ``rules``, every technique about drawn or whole-grid
rules (one that declares the rule features it needs)."""

STEP_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "Hidden Single (box)": ("Hidden Single",),
    "Hidden Single (line)": ("Hidden Single",),
    "Turbot Fish": ("Turbot Fish", "Skyscraper", "2-String Kite"),
    "X-Chain (short)": ("X-Chain", "Grouped X-Chain"),
    "X-Chain": ("X-Chain", "Grouped X-Chain"),
    "AIC": ("AIC", "XY-Chain", "Nice Loop"),
})
"""The step names a registered technique's steps carry, where they are not its own name (a
Turbot Fish step says which kind it is; a chain step names its shape: the short and long
X-chain finders' steps are told apart by :data:`STEP_RATINGS`)."""

STEP_RATINGS: Mapping[str, tuple[float, float]] = MappingProxyType({
    "X-Chain (short)": (0.0, 5.8),
    "X-Chain": (5.8, float("inf")),
})
"""The ratings ``[low, high)`` of the steps of a technique whose step names another technique's
steps carry too: an X-chain of up to three strong links (the short finder, 5.2-5.7) rates below
5.8, one of four to six (the X-Chain finder, 5.8-6.9) from 5.8 (``chain_rating``)."""


@dataclass(frozen=True)
class TechniqueTarget:
    """A resolved ``needs`` or ``uses`` target.

    Attributes:
        word: what was asked (as given).
        needs: True for "its hardest step is a target step", False for "a step is one".
        names: the step names that meet it (``Step.technique`` values).
        ceiling: the highest base rating of its techniques (the cut of a ``needs`` solve);
            None when the trial step is a target (no cut).
        ratings: ``[low, high)``: the ratings a target step has (:data:`STEP_RATINGS`, when
            the word is one such technique; else every rating).
    """

    word: str
    needs: bool
    names: frozenset[str]
    ceiling: float | None
    ratings: tuple[float, float] = (0.0, float("inf"))

    def meets(self, name: str, rating: float) -> bool:
        """Whether a step of this name and rating is a target step."""
        return name in self.names and self.ratings[0] <= rating < self.ratings[1]

    @property
    def text(self) -> str:
        """``needs X-Wing`` / ``uses XY-Wing``: for messages."""
        return f"{'needs' if self.needs else 'uses'} {self.word}"


@dataclass(frozen=True)
class Judgement:
    """What :func:`judge` found of one puzzle.

    Attributes:
        ok: every target is met.
        rating: the whole solve's rating when a ``needs`` solve completed (else None).
        stalled: the ``needs`` solve stalled (the puzzle needs a harder technique).
    """

    ok: bool
    rating: Rating | None = None
    stalled: bool = False


def _key(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text.strip().lower())


def _registered() -> dict[str, object]:
    """Registered techniques by name (every kind)."""
    from ..logic.registry import techniques

    return {t.name: t for t in techniques()}


def _members(word: str, registry: dict[str, object]) -> tuple[list[str], list[str]]:
    """The registered techniques ``word`` names (a family, a technique) and the step names
    it names beyond them (``Skyscraper``: a kind of Turbot Fish step)."""
    key = _key(word)
    if key in {_key(f) for f in FAMILIES}:
        family = next(f for f in FAMILIES if _key(f) == key)
        more = [name for name in registry if family == "forcing" and "Forcing Chain" in name]
        return list(dict.fromkeys([*FAMILIES[family], *more])), []
    if key in ("rules", "rule", "ruletechniques"):
        return [name for name, t in registry.items() if getattr(t, "needs")], []
    for name in registry:
        if _key(name) == key:
            return [name], []
    for name, steps in STEP_NAMES.items():
        for step in steps:
            if _key(step) == key:
                return [name], [step]
    return [], []


def resolve_target(word: str, geometry: Geometry, *, needs: bool) -> TechniqueTarget:
    """Resolve a technique or family ``word`` for puzzles of ``geometry``.

    Raises:
        InvalidOption: ``word`` names no technique or family; or none of its techniques
            applies to ``geometry``'s rules (a rule technique on standard grids).
    """
    registry = _registered()
    members, steps = _members(word, registry)
    if not members:
        raise InvalidOption(
            f"unknown technique {word!r}: expected a family ({', '.join(FAMILIES)}, rules) or "
            f"a technique the technique engine names: {', '.join(registry)}")
    features = geometry.features
    usable = [name for name in members if name in registry
              and (not getattr(registry[name], "needs")
                   or getattr(registry[name], "needs") & features)
              and geometry.side <= getattr(registry[name], "max_side")]
    if not usable:
        raise InvalidOption(f"no technique of {word!r} applies to {geometry.shape_name} "
                            f"grids with {geometry.variant.text} rules")
    names = set(steps) or {step for name in usable for step in STEP_NAMES.get(name, (name,))}
    trial = any(getattr(registry[name], "kind").value == "trial" for name in usable)
    ceiling = None if trial else max(float(getattr(registry[n], "rating")) for n in usable)
    ratings = STEP_RATINGS.get(usable[0], (0.0, float("inf"))) if len(usable) == 1 else (
        0.0, float("inf"))
    return TechniqueTarget(word, needs, frozenset(names), ceiling, ratings)


def judge(targets: Sequence[TechniqueTarget], puzzle: Puzzle,
          solution: Sequence[int]) -> Judgement:
    """Whether ``puzzle`` (unique, with ``solution``: N*N digits) meets every target (see the
    module docstring); the technique engine's steps are checked against ``solution``.

    Raises:
        SolverBug: a step contradicts ``solution``.
    """
    from ..logic.registry import TechniqueKind
    from ..logic.solve import rating_of, solve_steps
    from ..logic.state import Candidates

    needs = [t for t in targets if t.needs]
    rating = None
    steps: list[Step] | None = None
    if needs:
        ceilings = [t.ceiling for t in needs]
        ceiling = None if None in ceilings else max(c for c in ceilings if c is not None)
        kinds = frozenset(TechniqueKind) - ({TechniqueKind.TRIAL} if ceiling is not None
                                            else set())
        state = Candidates.from_puzzle(puzzle)
        steps = list(solve_steps(state, kinds=kinds, solution=solution, max_rating=ceiling,
                                 unique=True, every_state=False))
        if not state.solved:
            return Judgement(False, stalled=True)
        rating = rating_of(steps, True)
        if not all(t.meets(rating.hardest, rating.rating) for t in needs):
            return Judgement(False, rating)
    for target in (t for t in targets if not t.needs):
        if steps is not None:
            if not any(target.meets(step.technique, step.rating) for step in steps):
                return Judgement(False, rating)
        elif not _uses(target, puzzle, solution):
            return Judgement(False)
    return Judgement(True, rating)


def _uses(target: TechniqueTarget, puzzle: Puzzle, solution: Sequence[int]) -> bool:
    """Whether the whole easiest-first solve has a step of ``target`` (stops at the first)."""
    from ..logic.solve import solve_steps
    from ..logic.state import Candidates

    return any(target.meets(step.technique, step.rating)
               for step in solve_steps(Candidates.from_puzzle(puzzle), solution=solution,
                                       unique=True, every_state=False))
