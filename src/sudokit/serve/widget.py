"""The board in a notebook: an anywidget (optional extra ``sudokit[notebook]``) running the
page's own JavaScript (``static/board.js``: the same controls, hints in two levels, apply step,
undo/redo, explanation panel, solve, rate, generate), its API calls answered by the kernel.

The widget's module is ``static/widget.js`` with ``board.js`` put in place of its import line
(:func:`widget_esm`): where the page sends ``POST /api/NAME``, the widget sends a message the
kernel answers with the same function of :data:`sudokit.serve.api.ENDPOINTS`. The user's
digits and marks come back as the ``values`` and ``marks`` traits; every button is also a
method, so a notebook (or a test) drives the board from code::

    board = BoardWidget(puzzle)   # the last expression of a cell: the board shows
    board.hint(); board.hint(); board.apply()
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import anywidget
import traitlets

from ..errors import LimitReached, SudokuError
from ..model.puzzle import Puzzle, PuzzleLike
from .api import ENDPOINTS, BadRequest
from .app import STATIC

__all__ = ["BoardWidget", "widget_esm"]

_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([\w-]+\.js)";\n', re.MULTILINE)
"""An import of one of the page's own modules (``static/NAME.js``), a line of its own."""


def widget_esm() -> str:
    """The widget's ES module: ``widget.js`` with the page's modules it imports (``board.js``
    and those board.js imports) put in place of their import lines, each once, before its first
    use (an anywidget module is one text; the page loads the same files as modules). The
    modules' top-level names are distinct, so they share one scope.

    Raises:
        RuntimeError: ``widget.js`` lost its import of ``board.js`` (a packaging mistake).
    """
    seen: set[str] = set()

    def inline(name: str) -> str:
        def replace(match: re.Match[str]) -> str:
            module = match.group(1)
            if module in seen:
                return ""
            seen.add(module)
            return inline(module)

        return _IMPORT.sub(replace, (STATIC / name).read_text(encoding="utf-8"))

    esm = inline("widget.js")
    if "board.js" not in seen:
        raise RuntimeError("static/widget.js does not import ./board.js")
    return esm


class BoardWidget(anywidget.AnyWidget):
    """The board of ``sudokit serve`` in Jupyter, on one puzzle: click a cell, type a digit
    (Shift: pencil mark), *Hint* (twice: where to look, then the step), *Apply step*, *Undo*,
    *Explain all*, *Solve*, *Rate*, ... as on the page.

    Args:
        puzzle: a :class:`~sudokit.Puzzle` or anything :meth:`Puzzle.coerce` takes.
        time_limit: seconds allowed to one request's work, as ``sudokit serve --time-limit``.

    Attributes:
        values: the digits the user placed, one per cell (0: open; givens apart).
        marks: per cell, the user's pencil marks or None (automatic candidates).

    Raises:
        InvalidPuzzle: ``puzzle`` cannot be read.
    """

    _esm = widget_esm()
    _css = STATIC / "board.css"
    values = traitlets.List(traitlets.Int()).tag(sync=True)
    marks: traitlets.List[list[int] | None] = traitlets.List().tag(sync=True)

    def __init__(self, puzzle: PuzzleLike, *, time_limit: float = 15.0, **kwargs: object) -> None:
        from ..model.variants import spec_of_geometry

        super().__init__(**kwargs)
        self.puzzle = Puzzle.coerce(puzzle)
        self.time_limit = time_limit
        self._text = puzzle if isinstance(puzzle, str) else self.puzzle.line
        self._variant = spec_of_geometry(self.puzzle.geometry).text
        self.values = [0] * self.puzzle.geometry.n_cells
        self.marks = [None] * self.puzzle.geometry.n_cells
        self.on_msg(self._on_msg)

    def _repr_mimebundle_(self, **kwargs: dict[Any, Any]
                          ) -> tuple[dict[str, object], dict[str, object]] | None:
        """The widget's view, and where no widget manager runs (nbconvert, a notebook viewer, a
        kernel without a front end) the board as a static SVG of the grid so far and a line of
        text in place of ``<BoardWidget object at 0x...>`` (``kwargs`` as AnyWidget types
        them: IPython's ``include`` and ``exclude``, passed on)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            from ..present.svg import board_svg

            placed = sum(1 for v in self.values if v)
            line = self.puzzle.line
            shown = line if len(line) <= 81 else self.puzzle.geometry.shape_name
            data["text/plain"] = f"BoardWidget({shown}, {placed} digits placed)"
            data["text/html"] = board_svg(self.puzzle, self.values)
        return bundle

    @property
    def grid(self) -> Puzzle:
        """The grid so far: givens and the digits placed."""
        merged = tuple(g or v for g, v in zip(self.puzzle.givens, self.values))
        return Puzzle(self.puzzle.geometry, merged)

    def _act(self, action: str, **args: int | bool | str) -> None:
        self.send({"type": "action", "action": action, "args": args})

    def hint(self) -> None:
        """First the technique and the cells to look at; asked again, the whole step."""
        self._act("hint")

    def apply(self) -> None:
        """Apply the step of the last hint."""
        self._act("apply")

    def undo(self) -> None:
        """Take back the last change."""
        self._act("undo")

    def redo(self) -> None:
        """Make the last undone change again."""
        self._act("redo")

    def explain(self) -> None:
        """List every step of the logical solve in the explanation panel."""
        self._act("explain")

    def enter(self, cell: int, digit: int, pencil: bool = False, kind: str | None = None
              ) -> None:
        """Place ``digit`` in ``cell`` (0 clears it; the same digit again too), or toggle it as
        a pencil mark (a corner mark: with automatic candidates, the candidate out or back);
        ``kind``: ``"corner"``, ``"centre"`` (a centre mark) or ``"paint"`` (the candidate
        coloured) instead.

        Raises:
            ValueError: another ``kind``.
        """
        if kind is None:
            self._act("enter", cell=cell, digit=digit, pencil=pencil)
            return
        if kind not in ("digit", "corner", "centre", "paint"):
            raise ValueError(f"kind must be digit, corner, centre or paint, got {kind!r}")
        self._act("enter", cell=cell, digit=digit, kind=kind)

    def answer(self, name: str, body: object) -> dict[str, object]:
        """What ``POST /api/NAME`` answers for ``body`` (``opening``: the widget's puzzle),
        the widget's own puzzle object standing for its text.

        Raises:
            SudokuError: bad input, no such endpoint (BadRequest), or the time limit passed
                (LimitReached).
        """
        if not isinstance(body, dict):
            raise BadRequest(f"expected a JSON object, got {type(body).__name__}")
        if name == "opening":
            return {"puzzle": self._text, "variant": self._variant,
                    "time_limit": self.time_limit}
        if body.get("puzzle") == self._text and body.get("variant") in (None, self._variant):
            body = body | {"puzzle": self.puzzle}  # its cages and rules, whatever the text
        if name not in ENDPOINTS:
            raise BadRequest(f"no endpoint {name!r}")
        return ENDPOINTS[name](body, self.time_limit)

    def _on_msg(self, _: anywidget.AnyWidget, content: dict[str, object],
                buffers: Sequence[memoryview]) -> None:
        if content.get("type") != "api":
            return
        reply: dict[str, object] = {"type": "answer", "id": content.get("id")}
        try:
            reply["answer"] = self.answer(str(content.get("name")), content.get("body", {}))
        except LimitReached:
            reply["error"] = f"time limit of {self.time_limit:g} s reached"
        except SudokuError as exc:
            reply["error"] = str(exc)
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            reply["error"] = f"bad request: {exc}"
        self.send(reply)
