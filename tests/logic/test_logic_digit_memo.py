"""The compiled ladder's memos of the digits on which the single-digit techniques (fish, Turbot
Fish, Empty Rectangle) and of the units in which the subsets found nothing, kept through a solve
in ``Candidates.history``: on every state of real solves the ladder's step with the memos is the
step without them."""

from __future__ import annotations

import pytest

from sudokit import Puzzle, solve
from sudokit.logic import Candidates, techniques
from sudokit.logic.ladder import first_step, plan
from sudokit.logic.solve import apply_step
from sudokit.logic.state import Board
from tests.helpers import DATA

RATED = [line.split()[1] for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]


@pytest.mark.parametrize("text", RATED[:40:8])
def test_memo_never_changes_the_step(text: str) -> None:
    puzzle = Puzzle.parse(text)
    solution = solve(puzzle).solution
    state = Candidates.from_puzzle(puzzle)
    items = plan(tuple(techniques()), puzzle.geometry)
    kept = 0
    while not state.solved:
        with_memo = first_step(state.board(), items)
        fresh = Board(puzzle.geometry, state.masks.tolist(), state.values.tolist())
        assert with_memo == first_step(fresh, items)
        assert with_memo is not None
        apply_step(state, with_memo)
        kept += any(key.endswith("single_digit") for key in state.history if isinstance(key, str))
    assert state.grid() == solution and kept
