"""The rule model (model/rules.py, model/rulebook.py) and the one checker (model.puzzle): every
kind holds on a grid that keeps it and is reported on a hand-made grid that breaks it."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import InvalidPuzzle
from sudokit.model import rulebook as rb
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, has_duplicate_givens, is_solution, solves, violations
from sudokit.model.rules import RULE_KINDS, Automaton, Relation, WeightedSum

# A valid 9x9 grid (rows shift by 3, then by 1 between bands).
GRID = tuple(int(c) for c in
             "123456789456789123789123456234567891567891234891234567345678912678912345912345678")


def cell(r: int, c: int) -> int:
    return (r - 1) * 9 + c - 1


def puzzle_with(*rules) -> Puzzle:
    return Puzzle(Geometry.for_side(9).with_constraints(rules), (0,) * 81)


# (rules a GRID keeps, rules GRID breaks): the same kind both ways.
CASES = {
    "thermometer": (rb.thermometer([cell(1, 1), cell(1, 2), cell(1, 3)], 9),
                    rb.thermometer([cell(1, 3), cell(1, 2)], 9)),
    "slow thermometer": (rb.slow_thermometer([cell(1, 1), cell(2, 1)], 9),
                         rb.slow_thermometer([cell(2, 1), cell(1, 1)], 9)),
    "white Kropki": (rb.kropki_white(cell(1, 1), cell(1, 2), 9),
                     rb.kropki_white(cell(1, 1), cell(1, 3), 9)),
    "black Kropki": (rb.kropki_black(cell(1, 2), cell(1, 4), 9),
                     rb.kropki_black(cell(1, 1), cell(1, 3), 9)),
    "X": (rb.sum_pair(cell(1, 1), cell(9, 1), 9, 10), rb.sum_pair(cell(1, 1), cell(1, 2), 9, 10)),
    "ratio 3": (rb.ratio_dot(cell(1, 3), cell(1, 9), 9, 3), rb.ratio_dot(cell(1, 1), cell(1, 9), 9, 3)),
    "greater-than": (rb.greater_than(cell(1, 2), cell(1, 1), 9),
                     rb.greater_than(cell(1, 1), cell(1, 2), 9)),
    "German whispers": (rb.whispers([cell(1, 1), cell(1, 6)], 9),
                        rb.whispers([cell(1, 1), cell(1, 2)], 9)),
    "nabner": (rb.nabner([cell(1, 1), cell(1, 3), cell(1, 5)], 9),
               rb.nabner([cell(1, 1), cell(1, 3), cell(1, 4)], 9)),
    "entropic": (rb.entropic_line([cell(1, 1), cell(1, 4), cell(1, 7)], 9),
                 rb.entropic_line([cell(1, 1), cell(1, 2)], 9)),
    "modular": (rb.modular_line([cell(1, 1), cell(1, 2), cell(1, 3)], 9),
                rb.modular_line([cell(1, 1), cell(1, 4)], 9)),
    "parity line": (rb.parity_line([cell(1, 1), cell(1, 2), cell(1, 3)], 9),
                    rb.parity_line([cell(1, 1), cell(1, 3)], 9)),
    "palindrome": (rb.palindrome([cell(1, 1), cell(1, 2), cell(4, 1), cell(2, 7)], 9),
                   rb.palindrome([cell(1, 1), cell(1, 2)], 9)),
    "clone": (rb.clone([cell(1, 1)], [cell(2, 7)], 9), rb.clone([cell(1, 1)], [cell(2, 1)], 9)),
    "minimum": (rb.minimum(cell(1, 1), [cell(1, 2), cell(2, 1)], 9),
                rb.maximum(cell(1, 1), [cell(1, 2), cell(2, 1)], 9)),
    "arrow": (rb.arrow([cell(1, 3)], [cell(1, 1), cell(1, 2)]),
              rb.arrow([cell(1, 4)], [cell(1, 1), cell(1, 2)])),
    "pill arrow": (rb.arrow([cell(1, 1), cell(1, 2)], [cell(1, 9), cell(1, 3)]),
                   rb.arrow([cell(1, 1), cell(1, 2)], [cell(1, 9)])),
    "double arrow": (rb.double_arrow([cell(1, 1), cell(1, 2), cell(1, 3), cell(1, 4)]),
                     rb.double_arrow([cell(1, 1), cell(1, 2), cell(1, 3)])),
    "little killer": (rb.little_killer([cell(1, 1), cell(2, 2)], 6),
                      rb.little_killer([cell(1, 1), cell(2, 2)], 7)),
    "zipper": (rb.zipper_line([cell(1, 1), cell(1, 3), cell(1, 2)]),
               rb.zipper_line([cell(1, 1), cell(1, 2), cell(1, 3)])),
    "region sum": (rb.region_sum_line([cell(1, 1), cell(1, 3), cell(1, 4)], lambda c: c % 9 // 3),
                   rb.region_sum_line([cell(1, 3), cell(1, 4)], lambda c: c % 9 // 3)),
    "sandwich": (rb.sandwich([cell(1, c) for c in range(1, 10)], 35, 9),
                 rb.sandwich([cell(1, c) for c in range(1, 10)], 34, 9)),
    "X-sum": (rb.x_sum([cell(1, c) for c in range(1, 10)], 1, 9),
              rb.x_sum([cell(2, c) for c in range(1, 10)], 14, 9)),
    "skyscraper": (rb.skyscraper([cell(1, c) for c in range(1, 10)], 9, 9),
                   rb.skyscraper([cell(1, c) for c in range(9, 0, -1)], 2, 9)),
    "numbered room": (rb.numbered_room([cell(2, c) for c in range(1, 10)], 7, 9),
                      rb.numbered_room([cell(2, c) for c in range(1, 10)], 4, 9)),
    "quadruple": (rb.quadruple([cell(1, 1), cell(1, 2), cell(2, 1), cell(2, 2)], [1, 5]),
                  rb.quadruple([cell(1, 1), cell(1, 2), cell(2, 1), cell(2, 2)], [3])),
    "renban": (rb.renban([cell(1, 3), cell(1, 1), cell(1, 2)]),
               rb.renban([cell(1, 1), cell(1, 3)])),
    "between": (rb.between_line([cell(1, 1), cell(1, 2), cell(1, 3)]),
                rb.between_line([cell(1, 2), cell(1, 1), cell(1, 3)])),
    "lockout": (rb.lockout_line([cell(1, 1), cell(1, 7), cell(1, 6)], 9),
                rb.lockout_line([cell(1, 1), cell(1, 3), cell(1, 6)], 9)),
    "row indexer": (rb.indexer(cell(1, 1), [cell(r, 1) for r in range(1, 10)], 1),
                    rb.indexer(cell(2, 1), [cell(r, 1) for r in range(1, 10)], 3)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_rule_is_checked(name: str) -> None:
    kept, broken = CASES[name]
    assert violations(GRID, puzzle_with(*kept)) == []
    assert is_solution(GRID, puzzle_with(*kept))
    problems = violations(GRID, puzzle_with(*broken))
    assert problems and broken[0].name in problems[0]
    both = puzzle_with(*kept, *broken)
    arrays = np.array([GRID], np.uint8)
    assert not solves(arrays, arrays, both.geometry)[0]
    assert solves(arrays, arrays, puzzle_with(*kept).geometry)[0]


def test_every_kind_is_a_feature() -> None:
    kinds = {rule.kind for kept, broken in CASES.values() for rule in kept + broken}
    assert kinds == RULE_KINDS
    p = puzzle_with(*CASES["sandwich"][0], *CASES["quadruple"][0])
    assert {"sequence", "must-contain"} <= p.geometry.features
    assert not p.geometry.is_plain and not p.geometry.is_standard


def test_geometry_carries_rules_through_pickle_and_variant() -> None:
    p = puzzle_with(*CASES["arrow"][0])
    g = pickle.loads(pickle.dumps(p.geometry))
    assert g == p.geometry and g.constraints == p.constraints
    assert p.geometry.with_variant("diagonal").constraints == p.constraints


def test_givens_breaking_a_rule_are_a_conflict() -> None:
    rules = rb.kropki_black(cell(1, 1), cell(1, 2), 9)
    givens = [0] * 81
    givens[cell(1, 1)], givens[cell(1, 2)] = 3, 5
    p = Puzzle(Geometry.for_side(9).with_constraints(rules), tuple(givens))
    assert "black Kropki dot r1c1-r1c2" in str(p.conflicts()[0])
    assert has_duplicate_givens(np.array([givens]), p.geometry)[0]
    givens[cell(1, 2)] = 6
    assert not Puzzle(p.geometry, tuple(givens)).conflicts()


@pytest.mark.parametrize("rules, words", [
    ((Relation((0, 0), frozenset({(1, 2)}), "white Kropki dot"),), "white Kropki dot"),
    ((Relation((0, 1), frozenset({(1, 12)}), "black Kropki dot"),), "digit outside 1..9"),
    ((WeightedSum((0, 81), (1, -1), 0, "arrow"),), "outside the grid"),
    ((WeightedSum((0, 1), (1,), 3, "arrow"),), "one coefficient per cell"),
    (rb.lockout_line([0, 1], 9, gap=9), "lockout line"),
    (rb.quadruple([0, 1, 9, 10], [1, 2, 3, 4, 5]), "quadruple"),
    (rb.renban(list(range(10))), "at most 9 cells"),
])
def test_bad_rules_are_named(rules, words: str) -> None:
    with pytest.raises(InvalidPuzzle, match=words) as info:
        Geometry.for_side(9).with_constraints(rules)
    assert info.value.constraint == "constraints"


def test_entropic_needs_thirds() -> None:
    with pytest.raises(InvalidPuzzle, match="thirds"):
        rb.entropic_line([0, 1, 2], 8)


def _sandwich_sum(digits: list[int], side: int) -> int:
    a, b = sorted((digits.index(1), digits.index(side)))
    return sum(digits[a + 1:b])


def _x_sum(digits: list[int]) -> int:
    return sum(digits[:digits[0]])


def _seen(digits: list[int]) -> int:
    return sum(1 for i, d in enumerate(digits) if d > max(digits[:i], default=0))


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 9).flatmap(lambda n: st.permutations(range(1, n + 1))))
def test_automata_agree_with_their_definitions(digits: list[int]) -> None:
    n = len(digits)
    cells = list(range(n))
    for total in {_sandwich_sum(digits, n), 0, 7}:
        assert rb.sandwich(cells, total, n)[0].holds(digits) == (total == _sandwich_sum(digits, n))
    for total in {_x_sum(digits), 10}:
        assert rb.x_sum(cells, total, n)[0].holds(digits) == (total == _x_sum(digits))
    for count in range(1, n + 1):
        assert rb.skyscraper(cells, count, n)[0].holds(digits) == (count == _seen(digits))
    for clue in range(1, n + 1):
        assert rb.numbered_room(cells, clue, n)[0].holds(digits) == (digits[digits[0] - 1] == clue)


def test_automaton_build_is_a_table() -> None:
    a = rb.sandwich(list(range(9)), 10, 9)[0]
    assert isinstance(a, Automaton) and all(len(row) == 9 for row in a.transitions)
    assert a.holds([2, 1, 3, 7, 9, 4, 5, 6, 8]) and not a.holds([2, 1, 3, 6, 9, 4, 5, 7, 8])


def test_rule_tables_are_built_once_per_shape() -> None:
    """A table is shared by rules of the same shape and never by rules of another."""
    a, b = rb.sandwich(list(range(9)), 12, 9)[0], rb.sandwich(list(range(9, 18)), 12, 9)[0]
    c = rb.sandwich(list(range(9)), 13, 9)[0]
    assert a.transitions is b.transitions and a.cells != b.cells
    assert c.transitions != a.transitions
    x, v = rb.sum_pair(0, 1, 9, 10)[0], rb.sum_pair(2, 3, 9, 5)[0]
    assert x.pairs is rb.sum_pair(4, 5, 9, 10)[0].pairs
    assert x.pairs == {(d, 10 - d) for d in range(1, 10)}
    assert v.pairs == {(1, 4), (2, 3), (3, 2), (4, 1)}
    assert rb.negated(x, 9).pairs == {(p, q) for p in range(1, 10) for q in range(1, 10)} - x.pairs
    assert rb.whispers([0, 1], 9)[0].pairs != rb.whispers([0, 1], 9, 4)[0].pairs
    assert rb.thermometer([0, 1], 4)[0].pairs == {(p, q) for p in range(1, 5)
                                                   for q in range(1, 5) if p < q}


def test_weighted_sum_merges_cells() -> None:
    s = WeightedSum.of([(3, 1), (4, 2), (3, 1), (5, 1), (5, -1)], 7)
    assert (s.cells, s.coefficients) == ((3, 4), (2, 2))


def test_a_checked_rule_is_checked_again_on_another_grid() -> None:
    """check_rules remembers the rules it passed per side and cell count only."""
    rules = (WeightedSum((0, 20), (1, -1), 0, "arrow"),)
    Geometry.for_side(9).with_constraints(rules)  # passes (and is remembered) on 9x9
    with pytest.raises(InvalidPuzzle, match="outside the grid"):
        Geometry.for_side(4).with_constraints(rules)
    black = rb.kropki_black(0, 1, 9)
    Geometry.for_side(9).with_constraints(black)
    with pytest.raises(InvalidPuzzle, match="outside 1..4"):
        Geometry.of(2, 2, constraints=[Relation((0, 1), black[0].pairs, "black Kropki dot")])


def test_a_drawing_is_set_as_dataclasses_replace_would() -> None:
    from dataclasses import replace

    from sudokit.model.rules import RuleDrawing, drawn_as

    plain = rb.thermometer([0, 1, 2], 9)
    drawn = drawn_as(plain, "thermometer", [0, 1, 2], "x", [4])
    expected = replace(plain[0], drawing=RuleDrawing("thermometer", (0, 1, 2), "x", (4,)))
    assert drawn[0] == expected and hash(drawn[0]) == hash(expected)
    assert type(drawn[0]) is type(plain[0]) and drawn[1:] == plain[1:]
    assert plain[0].drawing != drawn[0].drawing  # the rule given is unchanged
