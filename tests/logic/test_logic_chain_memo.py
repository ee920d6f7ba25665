"""The single-digit chain memo of sudokit.logic.chains.walkers (each digit's starts walked once per
places, the bounded search replayed on what they found) picks the same chain as a search from
nothing, on every state of several solves, with the memo kept across the solve's states."""

from __future__ import annotations

from pathlib import Path

from sudokit import Puzzle
from sudokit.logic.chains import walkers as chain_walkers
from sudokit.logic.chains.links import ChainMode
from sudokit.logic.chains.search import find_chain
from sudokit.logic.kernels.arrays import board_arrays
from sudokit.logic.state import Board
from sudokit.run.explain import explain_states

DATA = Path(__file__).parents[1] / "data"

SEARCHES = [(ChainMode.X_GROUPED, 6), (ChainMode.X_GROUPED, 12), (ChainMode.X, 12),
            (ChainMode.X, 4)]


def _rated(count: int) -> list[Puzzle]:
    rows = [line.split() for line in
            (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]
    return [Puzzle.coerce(r[1]) for r in rows if len(r) == 3][:count]


def _fresh(board: Board) -> Board:
    return Board(board.geometry, board.masks, board.values, None, {})


def _key(step):  # type: ignore[no-untyped-def]
    return None if step is None else (step.technique, step.rating, step.placements,
                                      step.eliminations, step.text, step.links)


def test_memo_replay_matches_a_search_from_nothing() -> None:
    found = replayed = 0
    for puzzle in _rated(12):
        for _step, state in explain_states(puzzle):
            if state.solved:
                break
            board = state.board()
            for mode, nodes in SEARCHES:
                table = chain_walkers._FOUND.table(board)
                places = board_arrays(board).places
                known = sum(table.get((d0, places[d0], mode.value), (0,))[0] >= nodes
                            for d0 in range(board.side))
                warm = find_chain(board, mode, nodes)
                assert _key(warm) == _key(find_chain(_fresh(board), mode, nodes))
                found += warm is not None
                replayed += known
    assert found > 0  # some chains were found ...
    assert replayed > 0  # ... and some digits were answered from the memo
