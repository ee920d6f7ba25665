"""Steps as data: what one human-style deduction uses, concludes and how hard it is.

A :class:`Step` names its technique, the cells, digits and links it uses, its placements and
eliminations (``(cell, digit)`` pairs, cells 0-based, digits 1-based), a one-line explanation and
its rating on Sudoku Explainer's scale (Juillerat 2006: 1.0 full house ... 11+ dynamic forcing
chains).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

from ..geometry import Geometry

__all__ = [
    "Link",
    "LinkKind",
    "Step",
    "candidate_text",
    "cells_text",
    "eliminations_text",
    "length_bonus",
]


class LinkKind(Enum):
    """An inference between two candidates: STRONG (not both false), WEAK (not both true)."""

    STRONG = "strong"
    WEAK = "weak"


@dataclass(frozen=True)
class Link:
    """One link of a chain between two nodes; a node is a set of cells (a group) and a digit.

    Attributes:
        start: ``(cells, digit)`` the link leaves (cells 0-based, ascending).
        end: ``(cells, digit)`` it reaches.
        kind: STRONG or WEAK.
    """

    start: tuple[tuple[int, ...], int]
    end: tuple[tuple[int, ...], int]
    kind: LinkKind


class _Text:
    """The ``text`` field of a :class:`Step`: a string, or a function of no argument returning
    it, called when the text is first read (the rating loop never reads texts, so the steps it
    makes skip formatting them); the result replaces the function."""

    def __get__(self, step: Step | None, owner: type | None = None) -> str:
        if step is None:
            raise AttributeError("text")  # no default: the field is required
        text = step.__dict__["_text"]
        if not isinstance(text, str):
            text = step.__dict__["_text"] = text()
        return text

    def __set__(self, step: Step, text: str | Callable[[], str]) -> None:
        step.__dict__["_text"] = text


_RATINGS: dict[float, float] = {}


@dataclass(frozen=True)
class Step:
    """One logical step.

    Attributes:
        technique: standard name (``"Hidden Single"``, ``"X-Wing"``).
        rating: difficulty on Sudoku Explainer's scale (1.0 to 11+).
        text: one line of explanation, cells as ``r3c5``; may be given as a function of no
            argument returning it, called when the text is first read (a step built in the
            rating loop never has its text formatted).
        placements: ``(cell, digit)`` pairs the step places.
        eliminations: ``(cell, digit)`` pairs the step removes from the candidates.
        cells: the cells the pattern is made of.
        digits: the digits it is about.
        links: the links of a chain, in order (empty for patterns that are not chains).
    """

    technique: str
    rating: float
    text: str = _Text()  # type: ignore[assignment]
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    links: tuple[Link, ...] = field(default=())

    def __post_init__(self) -> None:
        rating = _RATINGS.get(self.rating)
        if rating is None:
            rating = _RATINGS.setdefault(self.rating, round(float(self.rating), 1))
        object.__setattr__(self, "rating", rating)

    def __getstate__(self) -> dict[str, Any]:
        """The fields with the text formatted (a lazy text's function may not pickle)."""
        state = dict(self.__dict__)
        state["_text"] = self.text
        return state

    def as_dict(self, geometry: Geometry) -> dict[str, Any]:
        """Return a JSON-ready record; cells as ``[row, column]`` and candidates as
        ``[row, column, digit]``, all 1-based."""
        n = geometry.side

        def rc(cell: int) -> list[int]:
            return [cell // n + 1, cell % n + 1]

        def node(nd: tuple[tuple[int, ...], int]) -> dict[str, Any]:
            return {"cells": [rc(c) for c in nd[0]], "digit": nd[1]}

        return {
            "technique": self.technique,
            "rating": self.rating,
            "placements": [rc(c) + [d] for c, d in self.placements],
            "eliminations": [rc(c) + [d] for c, d in self.eliminations],
            "cells": [rc(c) for c in self.cells],
            "digits": list(self.digits),
            "links": [{"from": node(lk.start), "to": node(lk.end), "kind": lk.kind.value}
                      for lk in self.links],
            "text": self.text,
        }


def cells_text(geometry: Geometry, cells: Iterable[int]) -> str:
    """``r1c2, r1c5`` for a list of cells."""
    return ", ".join(geometry.label(c) for c in cells)


def candidate_text(geometry: Geometry, cells: Iterable[int], digit: int) -> str:
    """``r1c2=5`` for one cell, ``(r1c2,r1c3)=5`` for a group."""
    cells = list(cells)
    where = cells_text(geometry, cells).replace(" ", "")
    return f"{where}={digit}" if len(cells) == 1 else f"({where})={digit}"


def eliminations_text(geometry: Geometry, eliminations: Iterable[tuple[int, int]]) -> str:
    """``r1c2<>5, r4c4<>5``."""
    return ", ".join(f"{geometry.label(c)}<>{d}" for c, d in sorted(eliminations))


@cache
def length_bonus(length: int) -> float:
    """Sudoku Explainer's rating added for a chain of ``length`` nodes: 0.1 each time the
    length passes 4, 6, 8, 12, 16, 24, 32, ... (ceilings growing by 3/2 and 4/3 in turn)."""
    added, ceiling, odd = 0.0, 4, False
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return round(added, 1)
