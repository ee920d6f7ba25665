"""The technique registry: each technique module registers its finder; the solve loop asks
them easiest first. Adding a technique is one new module in :mod:`sudokit.logic.techniques` (a
chain technique: in :mod:`sudokit.logic.chains`)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from .state import Board
from .step import Step

__all__ = ["Technique", "TechniqueKind", "technique", "technique_names", "techniques"]

Finder = Callable[[Board], "Step | None"]
F = TypeVar("F", bound=Finder)  # a finder, kept with its own signature by the decorator


class TechniqueKind(Enum):
    """What a technique relies on, so callers can leave whole kinds out."""

    LOGIC = "logic"  # sound on any grid: keeps every solution
    UNIQUENESS = "uniqueness"  # assumes the puzzle has one solution (Unique Rectangle, BUG)
    TRIAL = "trial"  # bifurcation: guessing checked by search, the last resort


@dataclass(frozen=True, eq=False)
class Technique:
    """A registered technique (compared and hashed by identity: each registration is one
    technique, and a ladder of them is a cheap cache key).

    Attributes:
        name: standard name (several names may come from one finder: the step says which).
        rating: the lowest rating its steps get on Sudoku Explainer's scale; the solve loop
            tries techniques in increasing order of this value, then of ``order``, then by
            module name and order of registration in the module (so the ladder does not depend
            on which module happened to be imported first).
        find: ``find(board) -> Step | None``: its easiest step on the board, or None.
        kind: LOGIC, UNIQUENESS or TRIAL.
        max_side: largest grid side it is tried on (expensive searches declare a bound).
        needs: features of the geometry one of which it needs (a technique about drawn rules
            is left out of the ladder of a grid without them); empty: tried on every grid.
        classic: True (tried on every grid), False (left out of the ladder of classic 9x9
            Sudoku, where another technique replaces it) or None (on classic 9x9 Sudoku only).
    """

    name: str
    rating: float
    find: Finder
    kind: TechniqueKind = TechniqueKind.LOGIC
    max_side: int = 64
    order: float = 0.0
    needs: frozenset[str] = frozenset()
    classic: bool | None = True


_TECHNIQUES: list[Technique] = []
_loaded = False
_FINDER_PACKAGES = ("techniques", "chains")
"""The subpackages whose public modules are loaded for their registrations: the technique
families (:mod:`sudokit.logic.techniques`) and the chain code (:mod:`sudokit.logic.chains`)."""


def technique(name: str, rating: float, *, kind: TechniqueKind = TechniqueKind.LOGIC,
              max_side: int = 64, order: float = 0.0,
              needs: frozenset[str] = frozenset(), classic: bool | None = True
              ) -> Callable[[F], F]:
    """Decorator registering ``find`` under ``name`` (see :class:`Technique`; ``order``
    breaks ties between equal ratings, lower first; ``needs``: the features it is about;
    ``classic``: whether it is on the ladder of classic 9x9 Sudoku)."""

    def register(find: F) -> F:
        _TECHNIQUES.append(Technique(name, rating, find, kind, max_side, order, needs, classic))
        return find

    return register


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for name in _FINDER_PACKAGES:
        package = importlib.import_module(f"{__package__}.{name}")
        for info in pkgutil.iter_modules(package.__path__):
            if not info.name.startswith("_"):  # a kernel module (loads Numba) or private
                importlib.import_module(f"{package.__name__}.{info.name}")
    _loaded = True


def techniques(kinds: frozenset[TechniqueKind] = frozenset(TechniqueKind),
               max_rating: float | None = None, side: int = 9,
               features: frozenset[str] | None = None) -> list[Technique]:
    """Return the registered techniques of the given kinds, easiest first.

    Args:
        kinds: which kinds to include.
        max_rating: leave out techniques whose base rating is above this (None: all).
        side: the grid side; techniques declaring a smaller ``max_side`` are left out.
        features: the grid's features; techniques that need one of them (``needs``) and find
            none are left out (None: every technique is kept). With ``side`` 9 and no feature
            (classic Sudoku) the techniques registered ``classic=False`` are left out; on
            other grids those registered ``classic=None``.
    """
    _load()
    key = (kinds, max_rating, side, features, len(_TECHNIQUES))  # registration only appends
    ladder = _LADDERS.get(key)
    if ladder is None:
        chosen = [t for t in _TECHNIQUES if t.kind in kinds and side <= t.max_side
                  and (max_rating is None or t.rating <= max_rating)
                  and (features is None or not t.needs or t.needs & features)
                  and (features is None or t.classic is True
                       or (t.classic is None) == (side == 9 and not features))]
        order = {id(t): i for i, t in enumerate(_TECHNIQUES)}
        ladder = _LADDERS[key] = tuple(sorted(
            chosen, key=lambda t: (t.kind is TechniqueKind.TRIAL, t.rating, t.order,
                                   t.find.__module__, order[id(t)])))
    return list(ladder)


_LADDERS: dict[tuple, tuple[Technique, ...]] = {}
"""The ladders :func:`techniques` returned, by its arguments and the number of techniques
registered then."""


def technique_names() -> list[str]:
    """Names of every registered technique, easiest first."""
    return [t.name for t in techniques()]
