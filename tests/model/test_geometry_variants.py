"""The variant model of Geometry: Variant flags, jigsaw regions, killer cages, parity and
overlapping-grid layouts; validation errors; verification of every constraint."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from sudokit import Geometry, Puzzle, Variant, is_solution, violations
from sudokit.errors import InvalidPuzzle
from sudokit.model.constraints import VARIANT_NAMES, Cage, cage_totals
from sudokit.model.geometry import ALL_FEATURES
from sudokit.model.layouts import Layout
from sudokit.model.puzzle import has_duplicate_givens, solves

# A classic solution grid (Wikipedia's example puzzle, public domain).
SOLUTION = tuple(int(c) for c in
                 "534678912672195348198342567859761423426853791713924856961537284287419635345286179")


def test_variant_names_parse_and_combine() -> None:
    assert Variant("Diagonal + Anti_Knight") is Variant.DIAGONAL | Variant.ANTI_KNIGHT
    assert Variant("standard") is Variant.STANDARD and Variant("") is Variant.STANDARD
    assert Variant("non-consecutive,hyper").text == "hyper+non-consecutive"
    assert Variant.STANDARD.text == "standard"
    assert VARIANT_NAMES[0] == "standard" and "anti-king" in VARIANT_NAMES
    with pytest.raises(ValueError):
        Variant("killer")  # a puzzle type with per-puzzle data, not a whole-grid rule


def test_hyper_and_disjoint_units() -> None:
    g = Geometry.of(3, 3, "hyper")
    assert len(g.units) == 31 and g.unit_names[27] == "hyper box 1"
    assert g.extra_units[0] == (10, 11, 12, 19, 20, 21, 28, 29, 30)
    assert g.extra_units[3] == (50, 51, 52, 59, 60, 61, 68, 69, 70)
    d = Geometry.of(2, 3, "disjoint")
    assert len(d.extra_units) == 6
    assert d.extra_units[0] == (0, 3, 12, 15, 24, 27)  # top-left cell of every 2x3 box
    assert sorted(c for u in d.extra_units for c in u) == list(range(36))
    with pytest.raises(InvalidPuzzle, match="square boxes"):
        Geometry.of(2, 3, "hyper")


def test_chess_relations_and_non_consecutive_neighbours() -> None:
    knight = Geometry.of(3, 3, "anti-knight")
    assert knight.relations[40] == (21, 23, 29, 33, 47, 51, 57, 59)  # r5c5
    assert set(knight.relations[40]) <= set(knight.peers[40])
    assert knight.relations[0] == (11, 19)
    king = Geometry.of(3, 3, "anti-king")
    assert len(king.relations[40]) == 8 and len(king.peers[40]) == 20  # all inside its box
    assert len(king.peers[2]) == 21  # r1c3 touches r2c4 across the box border
    nc = Geometry.of(3, 3, "non-consecutive")
    assert nc.neighbours[0] == (1, 9) and len(nc.consecutive_pairs) == 2 * 9 * 8
    assert nc.features == {"non-consecutive"}


def test_killer_cages_validation_and_peers() -> None:
    g = Geometry.of(3, 3, cages=[(8, [1, 0]), (15, (2, 3))])
    assert g.cages[0] == Cage(8, (0, 1)) and g.cage_of[:4] == (0, 0, 1, 1)
    assert g.features == {"killer"} and "killer" in g.shape_name
    assert cage_totals(2, 9) == (3, 17)
    far = Geometry.of(3, 3, cages=[(10, [0, 80])])  # cage mates sharing no unit are peers
    assert 80 in far.peers[0] and far.extra_pairs == ((0, 80),)
    with pytest.raises(InvalidPuzzle, match="total 18 is impossible, expected 3..17"):
        Geometry.of(3, 3, cages=[(18, [0, 1])])
    with pytest.raises(InvalidPuzzle, match="overlap at r1c2"):
        Geometry.of(3, 3, cages=[(3, [0, 1]), (5, [1, 2])])
    with pytest.raises(InvalidPuzzle, match="10 cells"):
        Geometry.of(3, 3, cages=[(50, list(range(10)))])


def test_jigsaw_regions_replace_boxes() -> None:
    # Columns as regions: every region N cells, a partition (not a Sudoku, a valid structure).
    regions = [tuple(range(c, 81, 9)) for c in range(9)]
    g = Geometry.of(3, 3, regions=regions)
    assert g.boxes == tuple(regions) and g.box_of(10) == 1
    assert g.unit_names[18] == "region 1" and g.features == {"jigsaw"}
    with pytest.raises(InvalidPuzzle, match="region 1 has 8 cells"):
        Geometry.of(3, 3, regions=[regions[0][:8]] + regions[1:])
    with pytest.raises(InvalidPuzzle, match="two regions"):
        Geometry.of(3, 3, regions=[regions[0]] * 9)


SAMURAI = Layout(21, 21, ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12)))


def test_layout_of_five_grids() -> None:
    g = Geometry.of(3, 3, layout=SAMURAI)
    assert g.n_cells == 5 * 81 - 4 * 9 and g.canvas == (21, 21)
    assert len(g.units) == 5 * 27 - 4  # the four corner boxes of the centre grid are shared
    assert g.cell_at(0, 9) is None and g.cell_at(6, 6) is not None
    cell = g.cell_at(6, 6)
    assert g.position(cell) == (6, 6) and g.label(cell) == "r7c7"
    assert len(g.units_of[cell]) == 5  # row and column of two grids, one shared box
    assert g.unit_names[9] == "grid 2 row 1" and g.features == {"multi-grid"}
    assert "5 grids of 9x9" in g.shape_name
    with pytest.raises(InvalidPuzzle, match="does not fit"):
        Geometry.of(3, 3, layout=Layout(9, 9, ((0, 1),)))
    with pytest.raises(InvalidPuzzle, match="no whole-grid variant"):
        Geometry.of(3, 3, "diagonal", layout=SAMURAI)


def test_variant_geometries_pickle_by_reference_and_are_cached() -> None:
    g = Geometry.of(3, 3, "anti-knight", cages=[(8, [0, 1])], parity="e" + "." * 80)
    assert Geometry.of(3, 3, "anti-knight", cages=[(8, (1, 0))], parity="E" + "." * 80) is g
    assert pickle.loads(pickle.dumps(g)) is g
    s = Geometry.of(3, 3, layout=SAMURAI)
    assert pickle.loads(pickle.dumps(s)) is s
    assert g.with_variant("standard").cages == g.cages


def cages_over(grid: tuple[int, ...], pairs: list[tuple[int, int]]) -> list[tuple[int, list[int]]]:
    """Two-cell cages with the totals of ``grid``."""
    return [(grid[a] + grid[b], [a, b]) for a, b in pairs]


def test_verification_checks_every_variant_constraint() -> None:
    parity = "".join("e" if d % 2 == 0 else "o" for d in SOLUTION)
    g = Geometry.of(3, 3, cages=cages_over(SOLUTION, [(0, 1), (2, 3), (40, 50)]), parity=parity)
    empty = Puzzle(g, (0,) * 81)
    assert is_solution(SOLUTION, empty)
    bad_cage = Geometry.of(3, 3, cages=[(SOLUTION[0] + SOLUTION[1] + 1, [0, 1])])
    assert violations(SOLUTION, Puzzle(bad_cage, (0,) * 81)) == [
        f"cage 1 adds up to {SOLUTION[0] + SOLUTION[1]}, not {SOLUTION[0] + SOLUTION[1] + 1}"]
    flipped = Geometry.of(3, 3, parity=parity.translate(str.maketrans("eo", "oe")))
    assert len(violations(SOLUTION, Puzzle(flipped, (0,) * 81))) == 81
    # The classic grid breaks the anti-knight and non-consecutive rules somewhere.
    for rule in ("anti-knight", "non-consecutive", "anti-king"):
        assert not is_solution(SOLUTION, Puzzle(Geometry.of(3, 3, rule), (0,) * 81))
    grids = np.array([SOLUTION], np.uint8)
    zeros = np.zeros_like(grids)
    assert solves(grids, zeros, g).tolist() == [True]
    for rule in ("anti-knight", "non-consecutive"):
        assert solves(grids, zeros, Geometry.of(3, 3, rule)).tolist() == [False]
    assert solves(grids, zeros, bad_cage).tolist() == [False]
    assert solves(grids, zeros, flipped).tolist() == [False]


def test_conflicting_givens_are_found() -> None:
    g = Geometry.of(3, 3, "anti-knight+non-consecutive", cages=[(5, [40, 80])],
                    parity="e" + "." * 80)
    givens = [0] * 81
    givens[0] = 3  # in an even cell
    givens[20], givens[31] = 2, 2  # a knight's move apart (r3c3, r4c5)
    givens[40], givens[80] = 4, 4  # cage mates, and a cage over its total
    givens[60], givens[61] = 6, 7  # consecutive neighbours
    reasons = [str(c) for c in Puzzle(g, tuple(givens)).conflicts()]
    assert "digit 2 is given twice in cells a chess move apart (r3c3, r4c5)" in reasons
    assert "digit 4 is given twice in cage 1 (r5c5, r9c9)" in reasons
    assert "neighbours hold consecutive digits 6 and 7 (r7c7, r7c8)" in reasons
    assert "given 3 in an even cell (r1c1)" in reasons
    assert "cage 1: givens add up to 8, the cage to 5 (r5c5, r9c9)" in reasons
    assert has_duplicate_givens(np.array([givens]), g).tolist() == [True]
    assert has_duplicate_givens(np.zeros((1, 81), int), g).tolist() == [False]


def test_candidates_follow_every_rule() -> None:
    g = Geometry.of(3, 3, "non-consecutive", parity="." + "e" + "." * 79)
    givens = [0] * 81
    givens[0] = 5
    puzzle = Puzzle(g, tuple(givens))
    assert puzzle.candidates(1) == (2, 8)  # even, not 4 or 6 (next to 5), not 5
    assert puzzle.candidates(9) == (1, 2, 3, 7, 8, 9)


def test_transformations_that_break_variant_rules_are_refused() -> None:
    from sudokit.model.transform import apply

    killer = Puzzle(Geometry.of(3, 3, cages=[(8, [0, 1])]), (0,) * 81)
    with pytest.raises(InvalidPuzzle, match="relabelling"):
        apply(killer, None, mapping=list(range(9, 0, -1)))
    with pytest.raises(InvalidPuzzle, match="moving cells"):
        apply(killer, None, transposed=True)
    diagonal = Puzzle(Geometry.of(3, 3, "diagonal"), (0,) * 81)
    with pytest.raises(InvalidPuzzle, match="permuting bands"):
        apply(diagonal, None, bands=[1, 0, 2])
    moved, _ = apply(diagonal, None, mapping=list(range(9, 0, -1)), transposed=True)
    assert moved.geometry is diagonal.geometry  # both keep the diagonals


# -- single diagonals and extra regions (f-puzzles) ----------------------------------------------

def test_single_diagonals_are_named_and_combine_into_diagonal() -> None:
    main, anti = Variant("main-diagonal"), Variant("Anti_Diagonal")
    assert main | anti is Variant.DIAGONAL and Variant.DIAGONAL.text == "diagonal"
    assert Variant("main-diagonal+anti-diagonal").text == "diagonal"
    assert (main | Variant.HYPER).text == "main-diagonal+hyper"
    assert Variant.MAIN_DIAGONAL in Variant.DIAGONAL and Variant.DIAGONAL not in anti
    assert {"main-diagonal", "anti-diagonal"} <= set(VARIANT_NAMES)
    g = Geometry.of(3, 3, anti)
    assert g.diagonals == (tuple(8 * k for k in range(1, 10)),)
    assert g.features == {"anti-diagonal"} and g.unit_names[-1] == "diagonal 1"
    assert Geometry.of(3, 3, "diagonal").diagonals == (
        tuple(10 * k for k in range(9)), tuple(8 * k for k in range(1, 10)))
    assert Geometry.of(3, 3, "diagonal").features == {"diagonal"}


def test_all_features_names_every_feature_a_geometry_can_have() -> None:
    found = set()
    for name in VARIANT_NAMES[1:]:
        found |= Geometry.of(3, 3, name).features
    found |= Geometry.of(3, 3, regions=[range(9 * k, 9 * k + 9) for k in range(9)]).features
    found |= Geometry.of(3, 3, cages=[(3, (0, 1))], extra_regions=[(0, 10)],
                         parity="e" + "." * 80).features
    found |= Geometry.of(3, 3, layout=Layout(9, 9, ((0, 0),))).features
    assert found == ALL_FEATURES and len(ALL_FEATURES) == 13


def test_a_single_diagonal_is_checked_alone() -> None:
    # SOLUTION's main diagonal repeats a digit (5, 7, 8, 7, ...), its anti-diagonal too
    main, anti = Geometry.of(3, 3, "main-diagonal"), Geometry.of(3, 3, "anti-diagonal")
    for g in (main, anti):
        diagonal = g.diagonals[0]
        assert (len({SOLUTION[c] for c in diagonal}) == 9) == is_solution(
            SOLUTION, Puzzle(g, (0,) * 81))
    assert not is_solution(SOLUTION, Puzzle(main, (0,) * 81))


def test_extra_regions_add_units_and_peers() -> None:
    g = Geometry.of(3, 3, extra_regions=[(40, 0, 80), list(range(0, 81, 10))])
    assert g.extra_regions == ((0, 40, 80), tuple(range(0, 81, 10)))
    assert g.region_units == (tuple(range(0, 81, 10)),)  # the 9-cell one is a unit
    assert len(g.units) == 28 and g.unit_names[-1] == "extra region 2"
    assert 80 in g.peers[0] and 40 in g.peers[80]
    assert not g.is_plain and g.features == {"extra-region"}
    assert pickle.loads(pickle.dumps(g)) is g
    assert Geometry.of(3, 3, extra_regions=[(0, 1)]).extra_pairs == ()  # same row already
    assert (0, 80) in Geometry.of(3, 3, extra_regions=[(0, 80)]).extra_pairs
    with_region = Puzzle(Geometry.of(3, 3, extra_regions=[(0, 1, 9, 30)]), (0,) * 81)
    assert is_solution(SOLUTION, with_region) == (len({SOLUTION[c] for c in (0, 1, 9, 30)}) == 4)


@pytest.mark.parametrize(("regions", "words"), [
    ([()], "extra region 1 has 0 cells"),
    ([tuple(range(10))], "expected 1..9"),
    ([(0, 81)], "outside the grid"),
])
def test_bad_extra_regions(regions, words) -> None:
    with pytest.raises(InvalidPuzzle, match=words):
        Geometry.of(3, 3, extra_regions=regions)


@pytest.mark.parametrize(("kwargs", "constraint"), [
    ({"regions": [tuple(range(9))] * 9}, "regions"),
    ({"cages": [Cage(50, (0, 1))]}, "cages"),
    ({"cages": [Cage(3, (0, 1)), Cage(3, (1, 2))]}, "cages"),
    ({"extra_regions": [(0, 0)]}, "extra_regions"),
    ({"parity": "x" * 81}, "parity"),
])
def test_malformed_constraint_is_named(kwargs: dict, constraint: str) -> None:
    """A malformed constraint says which one in a field, not only in words (readers use it to
    point at the part of their input that holds it); the field survives pickling and
    :meth:`InvalidPuzzle.located`."""
    with pytest.raises(InvalidPuzzle) as caught:
        Geometry.of(3, 3, **kwargs)
    assert caught.value.constraint == constraint
    assert pickle.loads(pickle.dumps(caught.value)).constraint == constraint
    assert caught.value.located(source="f", line=2).constraint == constraint


@pytest.mark.parametrize("build", [
    lambda: Geometry.of(3, 3, "diagonal", extra_regions=[range(9), (0, 10)]),
    lambda: Geometry.of(3, 3, cages=[(3, (0, 1))], parity="e" + "." * 80),
    lambda: Geometry.of(2, 3, "disjoint"),
    lambda: Geometry.of(2, 2, regions=[(0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13),
                                       (10, 11, 14, 15)][::-1]),
])
def test_units_taken_from_the_classic_geometry_of_the_box_shape(build) -> None:
    g = build()
    n = g.side
    assert g.rows == tuple(tuple(range(r * n, r * n + n)) for r in range(n))
    assert g.cols == tuple(tuple(range(c, n * n, n)) for c in range(n))
    assert g.boxes == (g.regions or Geometry(g.box_rows, g.box_cols).boxes)
    assert len(g.unit_names) == len(g.units) == len(g.unit_getters)
    assert g.unit_names[n] == "column 1" and g.unit_names[2 * n].startswith(
        "region" if g.regions else "box")
    grid = list(range(100, 100 + n * n))
    for unit, get in zip(g.units, g.unit_getters):
        assert get(grid) == tuple(grid[c] for c in unit)


def test_moves_and_unit_owners_of_a_killer_are_those_of_its_variant() -> None:
    variant = Variant.ANTI_KNIGHT | Variant.NON_CONSECUTIVE | Variant.DIAGONAL
    g = Geometry.of(3, 3, variant, cages=[(3, (0, 1))])
    assert 0 not in g.relations[0] and {11, 19} <= set(g.relations[0])  # knight moves
    assert set(g.neighbours[10]) == {1, 9, 11, 19} and (0, 1) in g.consecutive_pairs
    assert g.units_of == tuple(tuple(u for u, unit in enumerate(g.units) if cell in unit)
                               for cell in range(81))
    assert Geometry.of(3, 3, cages=[(3, (0, 1))]).consecutive_pairs == ()


@pytest.mark.parametrize("regions", [None, [tuple(range(r * 4, r * 4 + 4)) for r in range(4)]])
def test_peers_of_a_killer_with_regions_and_moves_are_every_cell_it_must_differ_from(
        regions) -> None:
    g = Geometry.of(2, 2, Variant.ANTI_KNIGHT | Variant.DIAGONAL, regions=regions,
                    cages=[(3, (0, 5))], extra_regions=[(3, 6)])
    for cell in range(16):
        expected = {p for unit in g.units if cell in unit for p in unit}
        expected |= set(g.relations[cell]) | ({5} if cell == 0 else {0} if cell == 5 else set())
        expected |= {6} if cell == 3 else {3} if cell == 6 else set()
        assert g.peers[cell] == tuple(sorted(expected - {cell}))
