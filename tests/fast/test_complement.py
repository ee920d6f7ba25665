"""A long weighted sum rewritten over its complement in whole units (sudokit.fast.complement)."""

from __future__ import annotations

import json
import random

from sudokit import Geometry, count_solutions
from sudokit.fast.complement import DIFFERENCE_CAP, complement_sum, sum_differences
from sudokit.fast.drawn import drawn_for
from sudokit.fast.tables import bare_geometry, tables_for
from sudokit.formats.fpuzzles import fpuzzles_puzzle
from sudokit.model.rules import WeightedSum
from tests.helpers import DATA

GRID = [int(ch) for ch in ("534678912672195348198342567859761423426853791"
                           "713924856961537284287419635345286179")]


def lhs(rule: WeightedSum, grid: list[int]) -> int:
    return sum(k * grid[c] for c, k in zip(rule.cells, rule.coefficients)) - rule.total


def test_a_pill_over_every_other_cell_becomes_three_cells() -> None:
    g = Geometry.of(3, 3)
    pill = [(0, 100), (1, 10), (2, 1)]
    rule = WeightedSum.of(pill + [(c, -1) for c in range(3, 81)], 0, "arrow")
    short = complement_sum(rule, g)
    assert short is not None and short.name == "arrow"
    assert (short.cells, short.coefficients, short.total) == ((0, 1, 2), (101, 11, 2), 405)


def test_the_rewrite_is_equivalent_on_solution_grids() -> None:
    """Over any grid whose units hold 1..9, the rule's left side minus its total is unchanged,
    so the rewrite holds exactly when the rule does."""
    g = Geometry.of(3, 3)
    rng = random.Random(38)
    digits = list(range(1, 10))
    rewritten = 0
    for _ in range(200):
        rng.shuffle(digits)  # relabel the digits: another solution grid
        grid = [digits[d - 1] for d in GRID]
        rows = rng.sample(range(9), rng.randint(1, 5))
        group = [c for c in range(81) if c // 9 in rows and rng.random() < 0.9]
        rest = rng.sample([c for c in range(81) if c not in group], 3)
        k = rng.choice([-2, -1, 1, 3])
        terms = [(c, k) for c in group] + [(c, rng.randint(-5, 5) or 1) for c in rest]
        rule = WeightedSum.of(terms, rng.randint(-50, 50), "sum")
        short = complement_sum(rule, g)
        if short is not None:
            rewritten += 1
            assert 2 * len(short.cells) <= len(rule.cells)
            assert lhs(short, grid) == lhs(rule, grid)
    assert rewritten > 50


def test_a_little_killer_stays() -> None:
    g = Geometry.of(3, 3)
    diagonal = WeightedSum.of([(9 * i + i, 1) for i in range(9)], 45, "little killer")
    assert complement_sum(diagonal, g) is None


def test_i_bet_lowers_the_short_sum_and_solves() -> None:
    entries = json.loads((DATA / "rules" / "iss_collections.json").read_text())
    entry = next(e for e in entries if e["title"].startswith("I Bet"))
    puzzle = fpuzzles_puzzle(json.loads(entry["puzzle"]))
    drawn = drawn_for(puzzle.geometry)
    lengths = (drawn.start[1:] - drawn.start[:-1]).tolist()
    assert 3 in lengths and max(lengths) <= 3  # the arrow lowered over the pill alone
    result = count_solutions(puzzle, "fast", limit=2)
    assert result.count == 1
    assert "".join(map(str, result.solution)) == entry["solution"]


def test_two_arrows_on_one_shaft_give_their_difference() -> None:
    shaft = [(c, -1) for c in range(40, 50)]
    a = WeightedSum.of([(0, 10), (1, 1), (9, -1), (18, -1)] + shaft, 0, "arrow")
    b = WeightedSum.of([(80, 1), (70, -1)] + shaft, 0, "arrow")
    (rule,) = sum_differences([a, b])
    assert rule.name == "implied sum" and rule.total == 0
    assert dict(zip(rule.cells, rule.coefficients)) == {0: 10, 1: 1, 9: -1, 18: -1, 80: -1,
                                                         70: 1}
    assert sum_differences([a, WeightedSum.of([(80, 1), (40, -1)], 0, "arrow")]) == []


def test_sum_differences_hold_on_solution_grids() -> None:
    """Every difference kept holds on any grid on which both sums hold (random sums made true
    on relabelled solution grids)."""
    rng = random.Random(38)
    digits = list(range(1, 10))
    kept = 0
    for _ in range(100):
        rng.shuffle(digits)
        grid = [digits[d - 1] for d in GRID]
        common = rng.sample(range(81), rng.randint(2, 12))
        sums = []
        for _ in range(3):
            own = rng.sample([c for c in range(81) if c not in common], rng.randint(1, 6))
            terms = [(c, rng.choice([-1, 1, 10])) for c in own] + [(c, -1) for c in common]
            sums.append(WeightedSum.of(terms, sum(k * grid[c] for c, k in terms), "arrow"))
        for rule in sum_differences(sums):
            kept += 1
            assert lhs(rule, grid) == 0 and len(rule.cells) <= DIFFERENCE_CAP
    assert kept > 50


def test_rules_drawn_on_a_grid_share_its_tables() -> None:
    plain = Geometry.of(3, 3)
    a = plain.with_constraints([WeightedSum.of([(0, 1), (1, 1)], 5, "sum")])
    b = plain.with_constraints([WeightedSum.of([(3, 1), (4, 1)], 7, "sum")])
    assert bare_geometry(a) is plain and tables_for(a) is tables_for(b) is tables_for(plain)
