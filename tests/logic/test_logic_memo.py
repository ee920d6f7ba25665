"""The per-digit memo (sudokit.logic.memo) only saves work: a solve that keeps it across the
snapshots takes the same steps as one that starts every snapshot without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit import Puzzle
from sudokit.logic.memo import DigitMemo
from sudokit.logic.solve import solve_steps
from sudokit.logic.state import Board, Candidates

DATA = Path(__file__).parents[1] / "data"
GRIDS = [line.split()[1] for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()
         if len(line.split()) == 3]


def _steps(grid: str, fresh: bool, monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    if fresh:  # every snapshot with an empty history: no memo is ever hit
        monkeypatch.setattr(Candidates, "board", lambda self: Board(
            self.geometry, self.masks.tolist(), self.values.tolist(), self.masks))
    state = Candidates.from_puzzle(Puzzle.from_digits(tuple(int(c) for c in grid)))
    out = [(s.technique, s.rating, s.placements, s.eliminations, s.text)
           for s in solve_steps(state)]
    monkeypatch.undo()
    assert bool(state.history) != fresh  # the memo was used, or not at all
    return out


@pytest.mark.parametrize("grid", GRIDS[:60:6])
def test_memo_keeps_the_steps(grid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _steps(grid, False, monkeypatch) == _steps(grid, True, monkeypatch)


def test_digit_memo_is_per_solve_and_per_places() -> None:
    state = Candidates.from_puzzle(Puzzle.from_digits(tuple(int(c) for c in GRIDS[0])))
    memo = DigitMemo()
    board = state.board()
    memo.found_nothing(board, 0, "x")
    assert memo.nothing_for(state.board(), 0, "x")  # a later snapshot of the same solve
    assert not memo.nothing_for(board, 0, "y") and not memo.nothing_for(board, 1, "x")
    assert not memo.nothing_for(state.copy().board(), 0, "x")  # another solve
    cell = next(c for c in range(state.geometry.n_cells) if board.masks[c] & 1 and not board.values[c])
    state.eliminate(cell, 1)  # the places of digit 1 change
    assert not memo.nothing_for(state.board(), 0, "x")


def test_digit_memo_empties_when_full() -> None:
    state = Candidates.from_puzzle(Puzzle.from_digits(tuple(int(c) for c in GRIDS[0])))
    memo = DigitMemo(limit=2)
    board = state.board()
    for extra in range(4):
        memo.found_nothing(board, 0, extra)
    assert len(memo.table(board)) <= 3
