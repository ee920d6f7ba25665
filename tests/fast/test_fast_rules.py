"""The compiled engine on the rules drawn on a grid (sudokit.fast.drawn, sudokit.fast.lines).

Real puzzles: the published puzzles of ``tests/data/rules`` (one per kind or named rule), each
solved by ``fast`` and by the default method, proved unique and equal to its published
solution. A Hypothesis property draws random rules of every kind (most kept by a solution grid,
some not) on 4x4 and 6x6 grids with a few givens, and compares the solution counts of ``fast``
with those of ``propagate`` (the Python reference propagators), the full solution sets when
they are small.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import count_solutions
from sudokit.fast import kernels, solve_batch
from sudokit.fast.drawn import ENGINE_KINDS, drawn_for, sum_cliques
from sudokit.fast.layout import RuleCode
from sudokit.fast.rules import full_mask, propagate
from sudokit.fast.state import new_state, rule_state
from sudokit.fast.sums import clique_sum_bounds
from sudokit.fast.tables import tables_for
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution
from sudokit.model.rules import (
    RULE_KINDS,
    Automaton,
    Between,
    Contains,
    Index,
    Lockout,
    Relation,
    Renban,
    WeightedSum,
)
from sudokit.registry import solver_class
from tests.helpers import DATA

RULES = DATA / "rules"
CI = json.loads((RULES / "variant_solver_js_ci.json").read_text(encoding="utf-8"))
PUBLISHED = [p.stem for p in sorted(RULES.glob("sigh_*.json"))] + [i["title"] for i in CI]
def _published(name: str) -> tuple[Puzzle, list[int]]:
    """A published puzzle of ``tests/data/rules`` and its published solution."""
    if name.startswith("sigh_"):
        data = json.loads((RULES / f"{name}.json").read_text(encoding="utf-8"))
        return fpuzzles_puzzle(data), list(data["solution"])
    item = next(i for i in CI if i["title"] == name)
    return (fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0]),
            [int(d) for d in item["solution"]])


def test_the_engine_declares_every_kind() -> None:
    assert ENGINE_KINDS == RULE_KINDS
    assert RULE_KINDS <= solver_class("fast").features
    # one code per kind, and the sandwich clue's (a sequence rule lowered to its own filter)
    assert {int(k) for k in RuleCode} == set(range(len(RULE_KINDS) + 1))
    assert RuleCode.SANDWICH == len(RULE_KINDS)


def test_a_grid_without_rules_has_no_rule_arrays() -> None:
    assert rule_state(Geometry.for_side(16)) is None


def _root(rules: list) -> tuple[bool, np.ndarray]:
    """Propagate an empty 9x9 grid with ``rules``: (no contradiction, candidate masks)."""
    geometry = Geometry.for_side(9).with_constraints(rules)
    tables, state, drawn = tables_for(geometry), new_state(81, 9, 27), rule_state(geometry)
    kernels.start(tables, state, np.zeros(81, np.uint8), drawn)
    return propagate(tables, state, full_mask(tables), True, drawn), state.cand


def test_a_short_sum_knows_which_cells_differ() -> None:
    ok, cand = _root([WeightedSum.of([(0, 1), (1, 1), (80, -1)], 0)])  # r1c1 + r1c2 = r9c9
    assert ok and cand[80] == 0b111111100  # 1 + 2 at least: 3..9 (1 + 1 is no sum here)
    assert cand[0] == cand[1] == 0b011111111  # 9 would need 0 beside it
    ok, cand = _root([WeightedSum.of([(0, 1), (80, 1), (1, -1)], 0)])  # r1c2 = r1c1 + r9c9
    assert ok and cand[80] == 0b011111111  # r9c9 sees neither: it may equal r1c1
    assert not _root([WeightedSum.of([(0, 1), (1, 1)], 2)])[0]  # r1c1 + r1c2 = 2: none


def test_a_digit_a_rule_must_hold_leaves_the_cells_that_see_all_its_places() -> None:
    ok, cand = _root([Renban(tuple(range(8)))])  # r1c1-8: 1-8 or 2-9, so 2..8 are there
    assert ok and cand[8] == 0b100000001  # r1c9: 1 or 9
    ok, cand = _root([Renban(tuple(range(5)))])  # r1c1-5 hold 5 in every window
    assert ok and all(cand[c] & 0b10000 == 0 for c in range(5, 9))  # the rest of row 1
    assert cand[9] & 0b10000 and cand[4] & 0b10000  # r2c1 does not see r1c4-5
    ok, cand = _root([Contains((0, 1, 9, 10), (1,))])  # a quadruple with 1 in box 1
    assert ok and all(cand[c] & 1 == 0 for c in (2, 11, 18, 19, 20))
    assert cand[3] & 1 and cand[27] & 1  # r1c4, r4c1 do not see r2c1, r1c2


def test_a_long_sum_knows_its_cliques() -> None:
    box1, box9 = [(0, 1), (1, 1), (2, 1)], [(78, 1), (79, 1), (80, 1)]  # r1c1-3, r9c7-9
    for total in range(6, 12):  # 1 + 2 + 3 twice at least: each clique's digits differ
        assert not _root([WeightedSum.of(box1 + box9, total)])[0], total
    ok, cand = _root([WeightedSum.of(box1 + box9, 12)])
    assert ok and all(cand[c] == 0b111 for c, _ in box1 + box9)


def test_a_diagonal_splits_into_cliques() -> None:
    geometry = _published("sigh_disjoint_little_killer")[0].geometry  # disjoint groups
    diagonal = tuple(10 * i for i in range(9))  # r1c1, r2c2, ..., r9c9
    assert sum_cliques(diagonal, geometry) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    line = (0, 10, 20, 4, 14)  # r1c1 r2c2 r3c3 in box 1, r1c5 r2c6 in box 2
    assert sum_cliques(line, Geometry.for_side(9)) == [[0, 1, 2], [3, 4]]


def test_short_little_killers_keep_bounds_and_full_diagonals_their_filter() -> None:
    """A little killer of fewer than N cells gets no layered filter (states 0: bounds and the
    tuple walk); one over a whole diagonal, and any other sum, keeps it."""
    from sudokit.model.rulebook import little_killer

    short = little_killer([1, 11, 21, 31, 41, 51, 61, 71], 40)[0]
    full = little_killer(list(range(0, 81, 10)), 45)[0]
    cage_like = WeightedSum.of([(c, 1) for c in (1, 11, 21, 31, 41, 51, 61, 71)], 40)
    drawn = drawn_for(Geometry.of(3, 3, constraints=(short, full, cage_like)))
    assert drawn.states[:3].tolist()[0] == 0
    assert drawn.states[1] > 0 and drawn.states[2] > 0


def test_the_disjoint_little_killer_takes_few_nodes() -> None:
    """A blank disjoint-groups grid with eight little killers (1,549,447 nodes before the
    clique filter and the first run over the sums' cells; 28,617 after): solved, proved
    unique and equal to the published solution within 40,000 nodes (deterministic)."""
    puzzle, solution = _published("sigh_disjoint_little_killer")
    result = count_solutions(puzzle, "fast", limit=2, node_limit=40_000, time_limit=60)
    assert result.count == 1 and result.status.name == "SOLVED", result.status
    assert list(result.solution) == solution


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_puzzles(name: str) -> None:
    puzzle, solution = _published(name)
    for method in ("fast", None):
        result = count_solutions(puzzle, method, limit=2, time_limit=60)
        assert result.count == 1, (method, result.status)
        assert list(result.solution) == solution, method


def _grid(side: int, rng: random.Random) -> tuple[int, ...]:
    """A random solution grid (the engine fills an empty grid with shuffled digits)."""
    geometry = Geometry.for_side(side)
    givens = [0] * geometry.n_cells
    digits = list(range(1, side + 1))
    rng.shuffle(digits)
    givens[:side] = digits
    grids, _, _ = solve_batch(np.array([givens]), 1, geometry=geometry)
    return tuple(int(d) for d in grids[0, 0])


def _some(rng: random.Random, cells: int, k: int) -> list[int]:
    return rng.sample(range(cells), k)


def _rule(kind: int, grid: tuple[int, ...], side: int, rng: random.Random, kept: bool):
    """One random rule of a kind; ``kept``: the grid keeps it (None when none was found)."""
    n = len(grid)
    value = {c: grid[c] for c in range(n)}
    if kind == 0:
        a, b = _some(rng, n, 2)
        pairs = {(x, y) for x in range(1, side + 1) for y in range(1, side + 1)
                 if rng.random() < 0.3}
        pairs |= {(value[a], value[b])} if kept else set()
        return Relation((a, b), frozenset(pairs or {(1, 1)}))
    if kind == 1:
        cells = _some(rng, n, rng.randint(1, 4))
        terms = [(c, rng.choice([-2, -1, 1, 1, 2, 10])) for c in cells]
        total = sum(k * value[c] for c, k in terms) + (0 if kept else rng.randint(-3, 3))
        return WeightedSum.of(terms, total)
    if kind == 2:
        cells = _some(rng, n, rng.randint(2, side))
        target = 0
        for c in cells:
            target = (target * 3 + value[c]) % 7
        target = target if kept else rng.randrange(7)
        return Automaton.build(cells, side, 0, lambda s, d: (s * 3 + d) % 7,
                               lambda s: s == target)
    if kind == 3:
        cells = _some(rng, n, rng.randint(1, 4))
        digits = [value[c] if kept else rng.randint(1, side) for c in cells]
        return Contains(tuple(cells), tuple(sorted(rng.sample(digits, rng.randint(1, len(cells))))))
    if kind == 7:
        row = rng.randrange(side) * side
        cell = row + rng.randrange(side)
        targets = [row + k for k in range(side)]
        target = grid[targets[grid[cell] - 1]]
        return Index.of(cell, targets, target if kept else rng.randint(1, side))
    for _ in range(200):  # renban, between, lockout: draw until the grid keeps one
        cells = tuple(_some(rng, n, rng.randint(2, min(4, side))))
        rule = (Renban(cells) if kind == 4 else Between(cells) if kind == 5
                else Lockout(cells, rng.randint(0, side // 2)))
        if rule.holds([value[c] for c in cells]) or not kept:
            return rule
    return None


@st.composite
def puzzles(draw) -> Puzzle:
    side = draw(st.sampled_from([4, 6]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    grid = _grid(side, rng)
    rules = []
    for _ in range(draw(st.integers(1, 5))):
        rule = _rule(draw(st.integers(0, 7)), grid, side, rng, kept=rng.random() < 0.85)
        rules += [rule] if rule is not None else []
    geometry = Geometry.for_side(side).with_constraints(rules)
    givens = [d if rng.random() < 0.2 else 0 for d in grid]
    return Puzzle(geometry, tuple(givens))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_random_rules_agree_with_propagate(puzzle: Puzzle) -> None:
    limit = 12
    fast = count_solutions(puzzle, "fast", limit=limit)
    reference = count_solutions(puzzle, "propagate", limit=limit)
    assert fast.count == reference.count, (fast.status, reference.status)
    for grid in fast.solutions:
        assert is_solution(grid, puzzle)
    if fast.count < limit:
        assert set(map(tuple, fast.solutions)) == set(map(tuple, reference.solutions))


def _bounded(rule: WeightedSum) -> tuple[bool, np.ndarray]:
    """Only the sum's bounds (:func:`sudokit.fast.sums.clique_sum_bounds`) on an empty 9x9 grid."""
    geometry = Geometry.for_side(9).with_constraints([rule])
    tables, state, drawn = tables_for(geometry), new_state(81, 9, 27), rule_state(geometry)
    kernels.start(tables, state, np.zeros(81, np.uint8), drawn)
    return clique_sum_bounds(tables, state, drawn, 0), state.cand


def test_sum_bounds_count_a_clique_as_distinct_digits() -> None:
    ok, cand = _bounded(WeightedSum.of([(0, 1), (1, 1), (2, 1)], 7))  # r1c1-3 sum to 7
    assert ok and all(cand[c] == 0b1111 for c in range(3))  # 1 + 2 + 4: up to 4, not 5
    ok, cand = _bounded(WeightedSum.of([(0, 1), (1, 1), (2, 1)], 23))  # 9 + 8 + 6
    assert ok and all(cand[c] == 0b111100000 for c in range(3))  # 6..9
    ok, cand = _bounded(WeightedSum.of([(0, -1), (1, -1), (80, 1)], 0))  # r9c9 = r1c1 + r1c2
    assert ok and cand[80] == 0b111111100 and cand[0] == 0b011111111
    assert not _bounded(WeightedSum.of([(0, 1), (1, 1), (2, 1)], 5))[0]  # 1 + 2 + 3 is 6
    assert not _bounded(WeightedSum.of([(0, 2), (1, 2)], 4))[0]  # 2 (1 + 1): not distinct


def test_cliques_grow_from_the_cell_that_sees_most() -> None:
    line = (0, 1, 2) + tuple(range(9, 81, 9)) + (73, 74, 75)  # r1c1-3, c1 down, r9c2-4
    cliques = sum_cliques(line, Geometry.for_side(9))
    assert sorted(map(len, cliques), reverse=True) == [9, 3, 2]  # first fit: 6, 5, 3
    pill = (0, 1, 2, 9, 18)  # 100 r1c1 + 10 r1c2 + r1c3 - r2c1 - r3c1: one box
    assert sum_cliques(pill, Geometry.for_side(9), None, (100, 10, 1, -1, -1)) == [
        [3, 4, 2, 1, 0]]  # by weight, so the shaft's cells of weight -1 are one group


def _iss_hard(title: str) -> tuple[Puzzle, list[int]]:
    item = next(i for i in json.loads((RULES / "iss_collections.json").read_text("utf-8"))
                if i["title"] == title)
    return (fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0]),
            [int(d) for d in item["solution"]])


def test_isss_hard_sum_puzzles_take_fewer_nodes_than_isss() -> None:
    """Triple digits (pill arrows on long shafts; 185,611 nodes when issue 38 was filed, ISS
    1,860) and Hailstone (little killers; 264,569, ISS 28,289): proved unique within ISS's
    node counts (96 and 10,257 today, deterministic)."""
    for title, nodes in (("Triple digits", 1_860), ("Hailstone - little killer", 28_289)):
        puzzle, solution = _iss_hard(title)
        result = count_solutions(puzzle, "fast", limit=2, node_limit=nodes, time_limit=60)
        assert result.count == 1 and list(result.solution) == solution, title
