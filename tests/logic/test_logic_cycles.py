"""Bidirectional Y-Cycle (sudokit.logic.chains.cycles) on hand-made candidates."""

from __future__ import annotations

from sudokit.logic.chains.cycles import y_cycle, y_cycle_rating
from tests.logic.boards import board, cell


def test_y_cycle_of_four_cells() -> None:
    """r1c1 {12} -2- r1c5 {23} -3- r5c5 {34} -4- r5c1 {14} -1- r1c1: 2 leaves row 1, 3 column 5,
    4 row 5 and 1 column 1 outside the loop."""
    step = y_cycle(board({(1, 1): "12", (1, 5): "23", (5, 5): "34", (5, 1): "14"}))
    assert step is not None and step.technique == "Y-Cycle" and step.rating == 6.6
    loop = {cell(1, 1), cell(1, 5), cell(5, 5), cell(5, 1)}
    expected = ({(cell(1, c), 2) for c in range(1, 10)} | {(cell(r, 5), 3) for r in range(1, 10)}
                | {(cell(5, c), 4) for c in range(1, 10)} | {(cell(r, 1), 1) for r in range(1, 10)})
    assert set(step.eliminations) == {(c, d) for c, d in expected if c not in loop}


def test_an_open_chain_is_no_cycle() -> None:
    """Without the link back (r5c1 holds {45}) the cells form a chain, not a loop."""
    assert y_cycle(board({(1, 1): "12", (1, 5): "23", (5, 5): "34", (5, 1): "45"})) is None


def test_ratings_follow_sudoku_explainers_length_bonus() -> None:
    assert [y_cycle_rating(k) for k in (3, 4, 5, 6, 7, 8)] == [6.5, 6.6, 6.7, 6.8, 6.8, 6.9]


def test_nice_loop_eliminations() -> None:
    """Loop r1c1=1 = r1c1=2 - r1c5=2 = r5c5=2 - r5c1=2 = r5c1=1 - (column 1) r1c1=1: of each
    weakly linked pair exactly one is true, so 2 leaves rows 1 and 5 and 1 leaves column 1."""
    from sudokit.logic.chains.links import loop_eliminations

    b = board({(1, 1): "12", (5, 1): "12"})
    path = [(1 << cell(1, 1), 0), (1 << cell(1, 1), 1), (1 << cell(1, 5), 1),
            (1 << cell(5, 5), 1), (1 << cell(5, 1), 1), (1 << cell(5, 1), 0)]
    loop = {cell(1, 1), cell(1, 5), cell(5, 5), cell(5, 1)}
    expected = ({(cell(1, c), 2) for c in range(1, 10)} | {(cell(5, c), 2) for c in range(1, 10)}
                | {(cell(r, 1), 1) for r in range(1, 10)})
    assert set(loop_eliminations(b, path)) == {(c, d) for c, d in expected if c not in loop}
