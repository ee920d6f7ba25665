"""The board in a notebook: an anywidget (optional extra ``sudokit[notebook]``) showing the SVG
board of :mod:`sudokit.present.svg`, with digits, hints in two levels, apply step and undo.

The kernel holds the state and calls the front doors (:func:`sudokit.run.explain.hint`); the
widget's JavaScript (``static/widget.js``) only draws the SVG it is sent and sends back clicks,
keys and buttons. Every action is also a method, so a notebook (or a test) can drive it::

    board = BoardWidget(puzzle)   # the last expression of a cell: the board shows
    board.hint(); board.hint(); board.apply()
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from ..errors import SudokuError
from ..logic.state import Candidates
from ..model.puzzle import Puzzle, PuzzleLike
from ..present.svg import board_svg
from ..run.explain import hint as next_step
from .app import STATIC

__all__ = ["BoardWidget"]


class BoardWidget(anywidget.AnyWidget):
    """An interactive board for Jupyter: click a cell, type a digit (Shift: pencil mark),
    *Hint* (twice: where to look, then the step), *Apply step*, *Undo*.

    Args:
        puzzle: a :class:`~sudokit.Puzzle` or anything :meth:`Puzzle.coerce` takes.

    Raises:
        InvalidPuzzle: ``puzzle`` cannot be read.
    """

    _esm = STATIC / "widget.js"
    _css = STATIC / "board.css"
    svg = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    selected = traitlets.Int(-1).tag(sync=True)

    def __init__(self, puzzle: PuzzleLike, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.puzzle = Puzzle.coerce(puzzle)
        n = self.puzzle.geometry.n_cells
        self.values: list[int] = [0] * n
        self.marks: list[list[int] | None] = [None] * n
        self._undo: list[tuple[list[int], list[list[int] | None]]] = []
        self._step: Any = None
        self._level = 0
        self.on_msg(self._on_msg)
        self._draw()

    @property
    def grid(self) -> Puzzle:
        """The grid so far: givens and the digits placed."""
        merged = tuple(g or v for g, v in zip(self.puzzle.givens, self.values))
        return Puzzle(self.puzzle.geometry, merged)

    def _candidates(self) -> list[list[int]]:
        return Candidates.from_pencil_marks(self.grid, self.marks).pencil_marks()

    def _draw(self) -> None:
        step = self._step if self._level == 2 else None
        if self._level == 1:  # where to look: the pattern's cells only
            from ..logic.step import Step

            cells = self._step.cells or tuple(c for c, _ in self._step.placements)
            step = Step(self._step.technique, self._step.rating, "", cells=cells)
        try:
            marks: Any = self._candidates()
        except SudokuError:  # a grid with a contradiction: no candidates to show
            marks = None
        self.svg = board_svg(self.puzzle, self.values, marks, step)

    def _push(self) -> None:
        self._undo.append((self.values.copy(), [m.copy() if m else None for m in self.marks]))
        self._step, self._level = None, 0

    def enter(self, cell: int, digit: int, pencil: bool = False) -> None:
        """Place ``digit`` in ``cell`` (0 clears it), or toggle it as a pencil mark."""
        if self.puzzle.givens[cell] or not 0 <= digit <= self.puzzle.geometry.side:
            return
        self._push()
        if pencil and digit:
            now = self._candidates()[cell]
            self.marks[cell] = sorted(set(now) ^ {digit})
        else:
            self.values[cell] = digit
        self._draw()

    def hint(self) -> None:
        """First the technique and the cells to look at; asked again, the whole step."""
        if self._step is not None and self._level == 1:
            self._level = 2
            self.message = f"[{self._step.rating:.1f}] {self._step.technique}: {self._step.text}"
        else:
            try:
                self._step = next_step(self.grid, self.marks)
            except SudokuError as exc:  # a wrong digit or mark, no solution
                self.message = str(exc)
                return
            if self._step is None:
                self.message = "The grid is full."
                return
            self._level = 1
            self.message = (f"Try a {self._step.technique} (rating {self._step.rating:.1f}) "
                            "around the highlighted cells.")
        self._draw()

    def apply(self) -> None:
        """Apply the step of the last hint (asking for it first if there is none)."""
        if self._step is None:
            self.hint()
        step = self._step
        if step is None:
            return
        marks = self._candidates()
        self._push()
        self.marks = [list(m) for m in marks]
        for cell, digit in step.eliminations:
            self.marks[cell] = [d for d in self.marks[cell] if d != digit]
        for cell, digit in step.placements:
            self.values[cell] = digit
        self.message = f"Applied {step.technique}."
        self._draw()

    def undo(self) -> None:
        """Take back the last change."""
        if self._undo:
            self.values, self.marks = self._undo.pop()
            self._step, self._level = None, 0
            self._draw()

    def _on_msg(self, _: Any, content: dict[str, Any], buffers: Any) -> None:
        action = content.get("action")
        if action == "enter":
            self.enter(int(content["cell"]), int(content["digit"]), bool(content.get("pencil")))
        elif action in ("hint", "apply", "undo"):
            getattr(self, action)()
