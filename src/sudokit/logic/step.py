"""Steps as data: what one human-style deduction uses, concludes and how hard it is.

A :class:`Step` names its technique, the cells, digits and links it uses, its placements and
eliminations (``(cell, digit)`` pairs, digits 1-based), a one-line explanation and its rating on
Sudoku Explainer's scale (Juillerat 2006: 1.0 full house ... 11+ dynamic forcing chains).

Cell numbering: a cell is a 0-based flat index ``row * N + column`` (row and column 0-based, N
the side), so r1c1 is cell 0 and r9c9 cell 80 of a 9x9 grid; the texts label cells ``rRcC``
with 1-based rows and columns (:meth:`sudokit.model.geometry.Geometry.label`), and
:meth:`Step.as_dict` writes ``[row, column]`` pairs, 1-based. ``str(step)`` is the line
``sudokit explain`` and ``sudokit hint`` print::

    [1.2] Hidden Single: r2c6 is the only place for 9 in box 2
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import FrozenInstanceError, dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING

from ..model.geometry import Geometry

if TYPE_CHECKING:
    from ..model.puzzle import Puzzle
    from .state import Candidates

__all__ = [
    "Link",
    "LinkKind",
    "Step",
    "StepBoard",
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


@dataclass(frozen=True)
class StepBoard:
    """The board a step applies to: what a :class:`Step` is drawn on.

    Attributes:
        puzzle: the puzzle (its givens are drawn bold).
        values: N*N digits placed before the step in the cells that are not givens (0: open).
        candidates: per cell, its candidates (digits 1..N) before the step.
    """

    puzzle: Puzzle
    values: tuple[int, ...]
    candidates: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, puzzle: Puzzle, state: Candidates) -> StepBoard:
        """The board of a :class:`~sudokit.logic.state.Candidates` state of ``puzzle``."""
        values = tuple(0 if given else int(digit)
                       for given, digit in zip(puzzle.givens, state.values.tolist()))
        return cls(puzzle, values, tuple(map(tuple, state.pencil_marks())))


_RATINGS: dict[float, float] = {}

_FIELDS = ("technique", "rating", "text", "placements", "eliminations", "cells", "digits",
           "links")


class Step:
    """One logical step (immutable and hashable, compared field by field like a frozen
    dataclass; a slotted class, as the rating loop makes tens of them per puzzle).

    ``str(step)`` is the CLI's line, ``[1.2] Hidden Single: r2c6 is the only place for 9 in
    box 2``; ``repr(step)`` lists every field, as a dataclass's repr does.

    In Jupyter a step displays as the SVG board it applies to (``_repr_svg_``), with its
    pattern cells, the digits it places and removes, and its chain links drawn. The steps of
    :func:`~sudokit.run.explain.hint`, :func:`~sudokit.run.explain.explain` and
    :func:`~sudokit.run.explain.explain_states` carry that board (:attr:`board`); any other
    step is given it by :meth:`on`. The board is not a field: it takes no part in ``==``,
    hashing or pickling.

    >>> print(Step("Hidden Single", 1.2, "r2c6 is the only place for 9 in box 2",
    ...            placements=((14, 9),)))
    [1.2] Hidden Single: r2c6 is the only place for 9 in box 2

    Attributes:
        technique: standard name (``"Hidden Single"``, ``"X-Wing"``).
        rating: difficulty on Sudoku Explainer's scale (1.0 to 11+), rounded to 0.1 (a float).
        text: one line of explanation, cells as ``r3c5``; may be given as a function of no
            argument returning it, called when the text is first read (a step built in the
            rating loop never has its text formatted).
        placements: ``(cell, digit)`` pairs the step places (cells 0-based flat indices
            ``row * N + column``; r2c6 of a 9x9 is cell 14).
        eliminations: ``(cell, digit)`` pairs the step removes from the candidates.
        cells: the cells the pattern is made of (0-based flat indices).
        digits: the digits it is about.
        links: the links of a chain, in order (empty for patterns that are not chains).

    Raises:
        TypeError: ``text`` (or ``technique``, ``rating``) not given.
        dataclasses.FrozenInstanceError: on assigning or deleting a field.
    """

    __slots__ = ("_board", "_text", "cells", "digits", "eliminations", "links", "placements",
                 "rating", "technique")
    __match_args__ = _FIELDS

    technique: str
    rating: float
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    links: tuple[Link, ...]
    _text: str | Callable[[], str]
    _board: StepBoard | Callable[[], StepBoard]

    def __init__(self, technique: str, rating: float, text: str | Callable[[], str],
                 placements: tuple[tuple[int, int], ...] = (),
                 eliminations: tuple[tuple[int, int], ...] = (), cells: tuple[int, ...] = (),
                 digits: tuple[int, ...] = (), links: tuple[Link, ...] = ()) -> None:
        rounded = _RATINGS.get(rating)
        if rounded is None:
            rounded = _RATINGS.setdefault(rating, round(float(rating), 1))
        _SET_TECHNIQUE(self, technique)
        _SET_RATING(self, rounded)
        _SET_TEXT(self, text)
        _SET_PLACEMENTS(self, placements)
        _SET_ELIMINATIONS(self, eliminations)
        _SET_CELLS(self, cells)
        _SET_DIGITS(self, digits)
        _SET_LINKS(self, links)

    @property
    def text(self) -> str:
        text = self._text
        if not isinstance(text, str):
            text = text()
            _SET_TEXT(self, text)
        return text

    @property
    def board(self) -> StepBoard | None:
        """The board the step applies to (None when not known: see :meth:`on`)."""
        board = getattr(self, "_board", None)
        if board is not None and not isinstance(board, StepBoard):
            board = board()  # a replay, run when the board is first read
            _SET_BOARD(self, board)
        return board

    def on(self, grid: Puzzle,
           candidates: Candidates | Sequence[Sequence[int] | None] | None = None, *,
           puzzle: Puzzle | None = None) -> Step:
        """Return this step with the board it applies to, so it displays as that board.

        Args:
            grid: the grid before the step (givens and the digits placed), a
                :class:`~sudokit.Puzzle`.
            candidates: each cell's candidates before the step: N*N sequences of digits, a
                :class:`~sudokit.logic.state.Candidates` state, or None (each open cell's
                digits not seen in its peers).
            puzzle: the puzzle ``grid`` was filled from, so its own givens are drawn bold and
                the digits placed since as entries (default: ``grid`` itself).

        Raises:
            InvalidPuzzle: ``candidates`` do not hold one entry per cell, or name a digit
                outside 1..N.
        """
        from .state import Candidates

        if not isinstance(candidates, Candidates):
            candidates = (Candidates.from_puzzle(grid) if candidates is None
                          else Candidates.from_pencil_marks(grid, candidates))
        return self.with_board(StepBoard.of(puzzle or grid, candidates))

    def with_board(self, board: StepBoard | Callable[[], StepBoard]) -> Step:
        """Return a copy carrying ``board``, or a function of no argument computing it when
        first read (the explanation's steps replay the solve only when one is shown)."""
        copy = Step(self.technique, self.rating, self._text, self.placements,
                    self.eliminations, self.cells, self.digits, self.links)
        _SET_BOARD(copy, board)
        return copy

    def _repr_svg_(self) -> str | None:
        """The SVG board with the step's highlights (Jupyter); None without a board."""
        board = self.board
        if board is None:
            return None
        from ..present.svg import board_svg

        return board_svg(board.puzzle, board.values, board.candidates, self)

    def _fields(self) -> tuple[object, ...]:
        return (self.technique, self.rating, self.text, self.placements, self.eliminations,
                self.cells, self.digits, self.links)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined, misc]

    def __hash__(self) -> int:
        return hash(self._fields())

    def __str__(self) -> str:
        """The line ``sudokit explain`` prints: ``[rating] Technique: text``."""
        return f"[{self.rating:.1f}] {self.technique}: {self.text}"

    def __repr__(self) -> str:
        return f"Step({', '.join(f'{k}={v!r}' for k, v in zip(_FIELDS, self._fields()))})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> dict[str, object]:
        """The fields with the text formatted (a lazy text's function may not pickle)."""
        return dict(zip(_FIELDS, self._fields()))

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, "_text" if name == "text" else name, value)

    def as_dict(self, geometry: Geometry) -> dict[str, object]:
        """Return a JSON-ready record; cells as ``[row, column]`` and candidates as
        ``[row, column, digit]``, all 1-based."""
        n = geometry.side

        def rc(cell: int) -> list[int]:
            return [cell // n + 1, cell % n + 1]

        def node(nd: tuple[tuple[int, ...], int]) -> dict[str, object]:
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


_SET_TECHNIQUE = Step.technique.__set__  # type: ignore[attr-defined, misc]
_SET_RATING = Step.rating.__set__  # type: ignore[attr-defined, misc]
_SET_TEXT = Step._text.__set__  # type: ignore[attr-defined, misc, union-attr]
_SET_PLACEMENTS = Step.placements.__set__  # type: ignore[attr-defined, misc]
_SET_ELIMINATIONS = Step.eliminations.__set__  # type: ignore[attr-defined, misc]
_SET_CELLS = Step.cells.__set__  # type: ignore[attr-defined, misc]
_SET_DIGITS = Step.digits.__set__  # type: ignore[attr-defined, misc]
_SET_LINKS = Step.links.__set__  # type: ignore[attr-defined, misc]
_SET_BOARD = Step._board.__set__  # type: ignore[attr-defined, misc, union-attr]
"""The slots' own setters (the class refuses assignment, as a frozen dataclass does)."""


def cells_text(geometry: Geometry, cells: Iterable[int]) -> str:
    """``r1c2, r1c5`` for a list of cells."""
    return ", ".join(geometry.label(c) for c in cells)


def candidate_text(geometry: Geometry, cells: Iterable[int], digit: int) -> str:
    """``r1c2=5`` for one cell, ``(r1c2,r1c3)=5`` for a group (digits as the grid writes
    them: :meth:`Geometry.symbol <sudokit.model.geometry.Geometry.symbol>`)."""
    cells = list(cells)
    where = cells_text(geometry, cells).replace(" ", "")
    symbol = geometry.symbol(digit)
    return f"{where}={symbol}" if len(cells) == 1 else f"({where})={symbol}"


def eliminations_text(geometry: Geometry, eliminations: Iterable[tuple[int, int]]) -> str:
    """``r1c2<>5, r4c4<>5``."""
    return ", ".join(f"{geometry.label(c)}<>{geometry.symbol(d)}" for c, d in sorted(eliminations))


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
