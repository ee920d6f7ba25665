"""Geometry and Puzzle structure: pinned counts for every box shape."""

from __future__ import annotations

import pytest

from sudokit import Geometry, Puzzle, Variant, is_solution, violations
from sudokit.errors import InvalidPuzzle
from sudokit.model import rulebook as rb
from sudokit.model.geometry import box_shape_for_side


def test_nine_by_nine_structure() -> None:
    g = Geometry.of(3, 3)
    assert (g.side, g.n_cells, len(g.units)) == (9, 81, 27)
    assert all(len(p) == 20 for p in g.peers)
    assert g.n_arcs == 1620
    assert g.label(0) == "r1c1" and g.label(80) == "r9c9"
    assert g.boxes[4] == (30, 31, 32, 39, 40, 41, 48, 49, 50)
    assert g.unit_names[0] == "row 1" and g.unit_names[9] == "column 1"
    assert g.unit_names[18] == "box 1"


@pytest.mark.parametrize(
    "box,side,peers",
    [((1, 1), 1, 0), ((2, 2), 4, 7), ((2, 3), 6, 12), ((3, 4), 12, 28), ((4, 4), 16, 39),
     ((5, 5), 25, 64), ((6, 6), 36, 95), ((8, 8), 64, 175)],
)
def test_every_box_shape(box: tuple[int, int], side: int, peers: int) -> None:
    g = Geometry.of(*box)
    assert g.side == side and g.n_cells == side * side
    assert len(g.units) == 3 * side
    assert all(len(u) == side for u in g.units)
    assert all(len(p) == peers for p in g.peers)  # 2(N-1) + (R-1)(C-1)
    assert sorted(c for b in g.boxes for c in b) == list(range(side * side))


def test_geometry_is_cached_and_inferred() -> None:
    assert Geometry.of(3, 3) is Geometry.of(3, 3)
    assert Geometry.for_cells(81) is Geometry.of(3, 3)
    assert Geometry.for_cells(36) is Geometry.of(2, 3)
    assert box_shape_for_side(12) == (3, 4) and box_shape_for_side(7) == (1, 7)
    with pytest.raises(InvalidPuzzle, match="square number"):
        Geometry.for_cells(80)
    with pytest.raises(InvalidPuzzle):
        Geometry.of(9, 9)


def test_diagonal_variant_adds_two_units() -> None:
    g = Geometry.of(3, 3, Variant.DIAGONAL)
    assert len(g.units) == 29 and len(g.peers[0]) == 26 and len(g.peers[1]) == 20
    assert g != Geometry.of(3, 3)


def test_puzzle_is_immutable_and_validated() -> None:
    p = Puzzle.from_digits([0] * 16)
    with pytest.raises(AttributeError):
        p.givens = ()  # type: ignore[misc]
    with pytest.raises(InvalidPuzzle, match="expected a digit 0..4"):
        Puzzle.from_digits([5] + [0] * 15)
    with pytest.raises(InvalidPuzzle, match="expected 81 cells"):
        Puzzle(Geometry.of(3, 3), (0,) * 80)


def test_conflicts_name_the_unit() -> None:
    givens = [0] * 81
    givens[0] = givens[10] = 7
    (conflict,) = Puzzle.from_digits(givens).conflicts()
    assert conflict.unit == "box 1" and conflict.digit == 7
    assert "r1c1" in str(conflict) and "r2c2" in str(conflict)


def test_violations_report_each_problem() -> None:
    solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    puzzle = Puzzle.from_digits([1] + [0] * 15)
    assert is_solution(solution, puzzle)
    wrong = list(solution)
    wrong[0], wrong[1] = 2, 1
    problems = violations(wrong, puzzle)
    assert any("changes given 1" in p for p in problems)
    assert any("column 1" in p for p in problems)
    assert violations(solution[:-1], puzzle) == ["expected 16 cells, got 15"]


def test_vectorised_checks_match_the_scalar_ones() -> None:
    import numpy as np

    from sudokit.model.puzzle import has_duplicate_givens, solves

    solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    clash = [1, 1] + [0] * 14
    g = Geometry.of(2, 2)
    givens = np.array([[1] + [0] * 15, clash])
    assert has_duplicate_givens(givens, g).tolist() == [False, True]
    assert bool(Puzzle.from_digits(clash).conflicts()) is True
    wrong = list(solution)
    wrong[0], wrong[1] = 2, 1
    grids = np.array([solution, wrong, solution])
    keep = np.array([[1] + [0] * 15, [0] * 16, [2] + [0] * 15])
    assert solves(grids, keep, g).tolist() == [True, False, False]


def test_geometry_pickles_by_reference_without_its_tables() -> None:
    import pickle

    from sudokit.model.constraints import Variant
    from sudokit.model.geometry import Geometry

    for g in (Geometry.of(3, 3), Geometry.of(2, 3), Geometry.of(4, 4, Variant.DIAGONAL)):
        _ = g.units, g.peers  # filled caches must not travel
        data = pickle.dumps(g)
        assert len(data) < 200 and pickle.loads(data) is g


def test_a_geometry_hash_is_kept_and_equal_geometries_hash_alike() -> None:
    rules = rb.thermometer([0, 1, 2], 9)
    a = Geometry.for_side(9).with_constraints(rules)
    b = Geometry(3, 3, constraints=tuple(rules))
    assert a == b and hash(a) == hash(b) == hash(a)
    assert hash(a) != hash(Geometry.for_side(9)) or a != Geometry.for_side(9)
