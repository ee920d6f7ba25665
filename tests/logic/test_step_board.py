"""A Step displays in Jupyter as the board it applies to (``_repr_svg_``): the steps of hint,
explain and explain_states carry that board; any other step is given it by ``Step.on``."""

from __future__ import annotations

import pickle
import re

from sudokit.logic.state import Candidates
from sudokit.logic.step import Step, StepBoard
from sudokit.model.puzzle import Puzzle
from sudokit.run.explain import explain, explain_states, hint
from tests.helpers import EXAMPLES

TOP95 = EXAMPLES.joinpath("top95.txt").read_text().split()
CHAINED = TOP95[7]  # an AIC of 7 links in its solve


def _cell_classes(svg: str, cell: int) -> str:
    found = re.search(rf'<g class="([^"]*)" data-cell="{cell}"', svg)
    assert found, cell
    return found.group(1)


def test_a_step_without_board_has_no_picture_and_on_gives_it_one() -> None:
    puzzle = Puzzle.parse(TOP95[0])
    bare = Step("Hidden Single", 1.2, "text", placements=((46, 4),), cells=(46,))
    assert bare.board is None and bare._repr_svg_() is None
    shown = bare.on(puzzle)
    assert shown == bare and hash(shown) == hash(bare)  # the board is not a field
    assert shown.board.candidates == tuple(map(tuple, Candidates.from_puzzle(puzzle)
                                               .pencil_marks()))
    assert "sk-place" in _cell_classes(shown._repr_svg_(), 46)
    assert pickle.loads(pickle.dumps(shown)).board is None


def test_the_hint_carries_the_grid_and_marks_it_applies_to() -> None:
    puzzle = Puzzle.parse(TOP95[0])
    marks: list[list[int] | None] = [None] * 81
    marks[1] = [1, 6, 7, 9]
    step = hint(puzzle, marks)
    board = step.board
    assert isinstance(board, StepBoard) and board.puzzle == puzzle
    assert list(board.candidates) == [tuple(m) for m in Candidates.from_pencil_marks(
        puzzle, marks).pencil_marks()]
    svg = step._repr_svg_()
    for cell, _ in step.placements:
        assert "sk-place" in _cell_classes(svg, cell)
    assert svg.count("data-cell=") == 81 and step.technique in svg


def test_explained_steps_replay_their_boards_and_draw_the_chain() -> None:
    steps = explain(CHAINED)
    before = None
    for step, state in explain_states(CHAINED):
        if before is not None:
            assert [list(c) for c in step.board.candidates] == before
        before = state.pencil_marks()
    chain = next(s for s in steps if len(s.links) > 4)
    svg = chain._repr_svg_()
    assert len(re.findall(r'<line class="sk-link', svg)) == len(chain.links)
    assert len(re.findall(r'<text class="sk-mark sk-elim"', svg)) == len(chain.eliminations)
    for cell in chain.cells:
        assert "sk-focus" in _cell_classes(svg, cell)
    index = steps.index(chain)
    placed = sum(len(s.placements) for s in steps[:index])
    assert sum(1 for v in chain.board.values if v) == placed  # the digits placed before it
