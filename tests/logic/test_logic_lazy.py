"""Steps whose text is formatted when first read, and the candidates state's fast paths
(``Candidates.place``/``eliminate``, ``Board.cells_of``) against their plain definitions."""

from __future__ import annotations

import pickle
import random

import pytest

from sudokit import Geometry, Puzzle
from sudokit.logic import Candidates
from sudokit.logic.state import Board, bits
from sudokit.logic.step import Step


def test_a_text_given_as_a_function_is_formatted_once_when_read() -> None:
    calls = []

    def text() -> str:
        calls.append(1)
        return "r1c1 is the last open cell of row 1: it is 5"

    step = Step("Full House", 1.0, text, placements=((0, 5),))
    assert calls == []
    assert step.text == "r1c1 is the last open cell of row 1: it is 5"
    assert step.text == step.text
    assert calls == [1]
    eager = Step("Full House", 1.0, "r1c1 is the last open cell of row 1: it is 5",
                 placements=((0, 5),))
    assert step == eager and hash(step) == hash(eager) and repr(step) == repr(eager)


def test_a_lazy_step_pickles_with_its_text() -> None:
    step = Step("Naked Single", 2.3, lambda: "r2c3 has one candidate left: 4",
                placements=((11, 4),))
    back = pickle.loads(pickle.dumps(step))
    assert back == step and back.text == "r2c3 has one candidate left: 4"


def test_a_step_needs_a_text_and_rounds_its_rating() -> None:
    with pytest.raises(TypeError):
        Step("Full House", 1.0)  # type: ignore[call-arg]
    assert Step("X", 5.2000000001, "t").rating == 5.2
    assert Step("X", 7, "t").rating == 7.0 and isinstance(Step("X", 7, "t").rating, float)


def _cells_of(board: Board) -> list[int]:
    out = [0] * board.side
    for cell, mask in enumerate(board.masks):
        if not board.values[cell]:
            for b in bits(mask):
                out[b] |= 1 << cell
    return out


@pytest.mark.parametrize("shape", [(3, 3), (2, 3), (2, 4), (4, 4), (8, 8)])
def test_cells_of_is_every_open_cell_holding_the_digit(shape: tuple[int, int]) -> None:
    geometry = Geometry.of(*shape)
    rng = random.Random(sum(shape))
    n = geometry.side
    for _ in range(5):
        masks = [rng.getrandbits(n) for _ in range(geometry.n_cells)]
        values = [rng.choice((0, 0, 0, 1 + rng.randrange(n))) for _ in range(geometry.n_cells)]
        board = Board(geometry, masks, values)
        assert board.cells_of == _cells_of(board)


def test_place_and_eliminate_update_the_peers_and_the_cell() -> None:
    puzzle = Puzzle.coerce("." * 81)
    state = Candidates.from_puzzle(puzzle)
    state.place(40, 5)
    masks = state.masks.tolist()
    assert state.values[40] == 5 and masks[40] == 1 << 4
    for cell in range(81):
        if cell in puzzle.geometry.peers[40]:
            assert masks[cell] == 0x1FF & ~(1 << 4)
        elif cell != 40:
            assert masks[cell] == 0x1FF
    state.eliminate(0, 9)
    state.eliminate(0, 9)
    assert int(state.masks[0]) == 0x1FF & ~(1 << 8)
    assert not state.solved
