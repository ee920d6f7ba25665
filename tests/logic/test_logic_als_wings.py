"""WXYZ-Wing and VWXYZ-Wing (sudokit.logic.techniques.als_wings) on hand-made candidates."""

from __future__ import annotations

import pytest

from sudokit.logic.techniques.als_wings import als_wing_rating, vwxyz_wing, wxyz_wing
from tests.logic.boards import board, cell


def test_wxyz_wing_bivalue_als() -> None:
    """ALS r1c1-r1c3 {1234}, pivot r5c1 {14}: 1 is restricted (r1c1 sees r5c1), so 4 is in r5c1
    or r1c3: 4 leaves the cells seeing both."""
    step = wxyz_wing(board({(1, 1): "12", (1, 2): "23", (1, 3): "34", (5, 1): "14"}))
    assert step is not None and step.technique == "WXYZ-Wing" and step.rating == 5.5
    assert set(step.eliminations) == {(cell(2, 1), 4), (cell(3, 1), 4), (cell(4, 3), 4),
                                      (cell(5, 3), 4), (cell(6, 3), 4)}


def test_wxyz_wing_with_a_three_candidate_cell_rates_5_6() -> None:
    step = wxyz_wing(board({(1, 1): "12", (1, 2): "234", (1, 3): "34", (5, 1): "14"}))
    assert step is not None and step.rating == 5.6
    assert set(step.eliminations) == {(cell(2, 1), 4), (cell(3, 1), 4)}


def test_wxyz_wing_needs_a_restricted_common() -> None:
    """Pivot r5c5 {14} sees no ALS cell: nothing follows."""
    assert wxyz_wing(board({(1, 1): "12", (1, 2): "23", (1, 3): "34", (5, 5): "14"})) is None


def test_doubly_linked_wxyz_wing_locks_the_als() -> None:
    """Pivot r2c1 {14} sees r1c1 (1) and r1c3 (4): both restricted; 2 and 3 are then locked in
    the ALS and leave the rest of row 1."""
    step = wxyz_wing(board({(1, 1): "12", (1, 2): "23", (1, 3): "34", (2, 1): "14"}))
    assert step is not None
    eliminated = set(step.eliminations)
    assert {(cell(1, c), d) for c in range(4, 10) for d in (2, 3)} <= eliminated
    assert (cell(2, 2), 1) in eliminated and (cell(2, 2), 4) in eliminated


def test_vwxyz_wing() -> None:
    step = vwxyz_wing(board({(1, 1): "12", (1, 2): "23", (1, 3): "34", (1, 4): "45",
                             (5, 1): "15"}))
    assert step is not None and step.technique == "VWXYZ-Wing" and step.rating == 6.3
    assert set(step.eliminations) == {(cell(5, 4), 5)}


@pytest.mark.parametrize("size,biggest,rating", [(3, 2, 5.5), (3, 3, 5.6), (3, 4, 5.5),
                                                 (4, 2, 6.3), (4, 3, 6.4), (4, 4, 6.3),
                                                 (4, 5, 6.2)])
def test_ratings_are_sukaku_explainers(size: int, biggest: int, rating: float) -> None:
    assert als_wing_rating(size, biggest) == rating
