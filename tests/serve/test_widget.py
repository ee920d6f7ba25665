"""The notebook widget (anywidget): hints in two levels, steps applied to the end, undo, keys
sent by its JavaScript, all through the methods its messages call."""

from __future__ import annotations

import pytest

pytest.importorskip("anywidget")

from sudokit.run.doors import solve  # noqa: E402
from sudokit.run.explain import hint  # noqa: E402
from sudokit.serve.widget import BoardWidget  # noqa: E402
from tests.helpers import EXAMPLES  # noqa: E402

TOP1 = EXAMPLES.joinpath("top95.txt").read_text().split()[0]


def test_hint_levels_apply_to_the_end_and_undo() -> None:
    board = BoardWidget(TOP1)
    assert board.svg.count("data-cell=") == 81
    expected = hint(TOP1)
    board.hint()
    assert expected.technique in board.message and "sk-focus" in board.svg
    assert ' sk-place"' not in board.svg  # level 1: where to look only
    board.hint()
    assert expected.text in board.message and ' sk-place"' in board.svg
    for _ in range(200):
        if all(board.grid.givens):
            break
        board.apply()
    assert board.grid.givens == solve(TOP1).solution
    board.undo()
    assert board.grid.givens.count(0) >= 1


def test_messages_from_the_page() -> None:
    board = BoardWidget(TOP1)
    board._on_msg(board, {"action": "enter", "cell": 1, "digit": 4}, None)  # a conflict
    assert board.values[1] == 4
    board._on_msg(board, {"action": "hint"}, None)
    assert "no solution" in board.message
    board._on_msg(board, {"action": "undo"}, None)
    board._on_msg(board, {"action": "enter", "cell": 0, "digit": 5}, None)  # a given: ignored
    assert board.values[:2] == [0, 0]
    board._on_msg(board, {"action": "enter", "cell": 1, "digit": 1, "pencil": True}, None)
    assert board.marks[1] == [6, 7, 9]  # 1 taken out of r1c2's candidates 1, 6, 7, 9
