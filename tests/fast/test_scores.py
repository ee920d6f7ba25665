"""Decayed conflict scores (sudokit.fast.scores): the branching rule of grids with drawn rules.

Priorities from the rules a cell is in, counting and decay, demotion, and the choice of cell
(score per candidate, the standout digit, MRV when every score is 0), on a 9x9 grid with one
weighted sum; then the search: a published puzzle whose tree the scores make smaller than the
dom/wdeg restarts they replaced.
"""

from __future__ import annotations

import numpy as np

from sudokit import Puzzle, count_solutions
from sudokit.fast import kernels
from sudokit.fast.scores import (
    DECAY_EVERY,
    count_conflict,
    demote,
    house_branch,
    prime_scores,
    select_scored,
    sum_priority,
)
from sudokit.fast.state import new_state, rule_state
from sudokit.fast.tables import tables_for
from sudokit.model.geometry import Geometry
from sudokit.model.rules import Relation, WeightedSum

GRID = [int(ch) for ch in ("534678912672195348198342567859761423426853791"
                           "713924856961537284287419635345286179")]
SUM_CELLS = (0, 1, 2, 80)  # r1c1 + r1c2 + r1c3 = r9c9


def _setup():
    geometry = Geometry.for_side(9).with_constraints(
        [WeightedSum.of([(0, 1), (1, 1), (2, 1), (80, -1)], 0)])
    tables, rules = tables_for(geometry), rule_state(geometry)
    prime_scores(tables, rules)
    return tables, rules


def test_priorities_count_units_and_rules() -> None:
    tables, rules = _setup()
    assert rules.score[40] == 27  # three units of 9 cells
    assert all(rules.score[c] == 27 + 14 for c in SUM_CELLS)  # a 4-cell sum: 2 * 9 - 4
    assert not rules.value_score[:9].any() and rules.value_score[9] == DECAY_EVERY


def test_sum_priority_favours_short_sums_but_never_below_a_unit() -> None:
    assert [sum_priority(9, n) for n in (2, 4, 9, 12, 29)] == [16, 14, 9, 9, 9]


def test_other_rules_count_their_length() -> None:
    geometry = Geometry.for_side(9).with_constraints(
        [Relation((0, 1), frozenset((a, a + 1) for a in range(1, 9)))])
    tables, rules = tables_for(geometry), rule_state(geometry)
    prime_scores(tables, rules)
    assert rules.score[0] == rules.score[1] == 27 + 2 and rules.score[2] == 27


def test_conflicts_count_and_decay() -> None:
    _, rules = _setup()
    count_conflict(rules, 40, np.uint64(1 << 4))  # digit 5 in r5c5
    assert rules.score[40] == 28 and rules.value_score[4] == 1
    for _ in range(DECAY_EVERY - 1):
        count_conflict(rules, 40, np.uint64(1 << 4))
    assert rules.score[40] == (27 + DECAY_EVERY) >> 1  # halved at the decay
    assert rules.value_score[4] == DECAY_EVERY >> 2  # quartered
    assert rules.value_score[9] == DECAY_EVERY


def test_demotion_needs_a_wide_choice() -> None:
    _, rules = _setup()
    demote(rules, 40, np.uint64(0b1111))  # 4 digits: kept
    assert rules.score[40] == 27
    demote(rules, 40, np.uint64(0b11111))
    assert rules.score[40] == 13


def test_the_choice_is_the_best_score_per_candidate() -> None:
    _, rules = _setup()
    cand = np.full(81, np.uint64(0b111111111))
    assert select_scored(cand, rules) == 0  # the first cell of the sum: 31 / 9
    cand[40] = np.uint64(0b11)  # 27 / 2 beats 31 / 9
    assert select_scored(cand, rules) == 40
    rules.score[:] = 0
    cand[7] = np.uint64(0b111)
    assert select_scored(cand, rules) == 40  # every score 0: fewest candidates
    cand[:] = np.uint64(1)
    assert select_scored(cand, rules) == -1  # every cell filled


def test_a_standout_digit_draws_the_cells_that_hold_it() -> None:
    _, rules = _setup()
    cand = np.full(81, np.uint64(0b110))  # digits 2 and 3 everywhere
    cand[60] = np.uint64(0b101)  # digit 1 only in r7c7 (and digit 3)
    rules.value_score[0] = 100  # digit 1 failed far more often than digit 2
    rules.value_score[1] = 10
    assert select_scored(cand, rules) == 60  # 27 + 20 per 2 candidates
    rules.value_score[1] = 80  # no longer 1.5 times the least-failed digit's
    assert select_scored(cand, rules) == 0


def test_the_search_counts_conflicts() -> None:
    geometry = Geometry.for_side(9).with_constraints(
        [WeightedSum.of([(0, 1), (1, 1), (2, 1), (80, -1)], 0)])
    tables, state, rules = tables_for(geometry), new_state(81, 9, 27), rule_state(geometry)
    givens = np.zeros(81, np.uint8)
    givens[80] = 6  # 1 + 2 + 3: the sum's cells hold 1, 2 and 3
    kernels.start(tables, state, givens, rules)
    out = np.zeros((2, 81), np.uint8)
    assert kernels.run(tables, state, 2, 10**6, np.inf, True, out, rules) == kernels.StopReason.FOUND
    before = rules.score.copy()
    kernels.start(tables, state, givens, rules)  # primed again: the priorities
    assert (rules.score <= before).all()
    assert sorted(out[0][:3].tolist()) == [1, 2, 3]


def test_a_digit_with_two_places_in_a_unit_may_be_the_branch() -> None:
    tables, rules = _setup()
    cand = np.full(81, np.uint64(0b111111111))
    rules.score[:] = 4
    rules.score[40] = 9  # r5c5: 9 / 9 candidates
    assert house_branch(tables.units, cand, rules, 40) == (-1, -1, 0)  # no digit with 2 places
    for c in range(36, 45):  # row 5: digit 7 only in r5c2 and r5c8
        if c not in (37, 43):
            cand[c] &= ~np.uint64(1 << 6)
    rules.score[43] = 6
    assert house_branch(tables.units, cand, rules, 40) == (43, 37, 1 << 6)  # better place first
    rules.score[43] = 1
    rules.score[37] = 1  # half of 1 is below 9 / 9: the cell stays the branch
    assert house_branch(tables.units, cand, rules, 40) == (-1, -1, 0)
    rules.score[43] = 6
    cand[40] = np.uint64(0b11)  # a cell of 2 candidates is branched on as it is
    assert house_branch(tables.units, cand, rules, 40) == (-1, -1, 0)


def test_house_branches_keep_the_count_exact() -> None:
    """Branching on a digit's two places in a unit enumerates each solution once: with a rule
    every pair of digits of a row meets (so it removes nothing), the scored search with house
    branches counts the solutions of an under-clued grid as the plain search does."""
    givens = [d if (13 * c) % 11 < 3 else 0 for c, d in enumerate(GRID)]  # 2,255 solutions
    anything = Relation((3, 4), frozenset((a, b) for a in range(1, 10) for b in range(1, 10)
                                          if a != b), "any pair")
    plain = count_solutions(Puzzle(Geometry.for_side(9), tuple(givens)), "fast", limit=10**5)
    ruled = Geometry.for_side(9).with_constraints([anything])
    result = count_solutions(Puzzle(ruled, tuple(givens)), "fast", limit=10**5)
    assert 100 < plain.count < 10**5
    assert result.count == plain.count
