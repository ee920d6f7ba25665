"""The sandwich clue's own propagator (sudokit.fast.sandwich): its fillings, its soundness
against every ordering of a short line, its lowering from the rule's automaton, and the
sandwich puzzles of tests/data/rules solved to their published solutions."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from sudokit import count_solutions
from sudokit.compiled import Kernels, forced
from sudokit.fast.drawn import RuleCode, drawn_for, sandwich_combinations, sandwich_total
from sudokit.fast.sandwich import sandwich_supports, supports_reference
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.model.rulebook import sandwich, x_sum
from sudokit.model.rules import Automaton
from tests.fast.test_rulecheck import published_puzzles


def _holds(line: tuple[int, ...], total: int) -> bool:
    i, j = sorted((line.index(1), line.index(len(line))))
    return sum(line[i + 1:j]) == total


def test_fillings_are_the_digit_sets_between_the_crusts() -> None:
    assert sandwich_combinations(0, 9) == (0,)
    assert sandwich_combinations(5, 9) == (0b10000, 0b110)  # {5}, {2, 3}
    assert sandwich_combinations(35, 9) == (0b11111110,)  # 2..8
    assert sandwich_combinations(36, 9) == ()
    assert sandwich_combinations(1, 9) == ()


@pytest.mark.parametrize("side", [4, 6])
def test_every_ordering_that_meets_the_clue_keeps_its_digits(side: int) -> None:
    """Sound: every digit of a line ordering that meets the clue within the candidates is
    kept, and no digit is added."""
    rng = random.Random(38 + side)
    full = (1 << side) - 1
    orderings = list(permutations(range(1, side + 1)))
    for _ in range(400):
        masks = [rng.randrange(1, full + 1) | (full if rng.random() < 0.4 else 0)
                 for _ in range(side)]
        total = rng.randrange(0, side * (side - 1) // 2)
        exact = [0] * side
        for line in orderings:
            if all(masks[k] >> (line[k] - 1) & 1 for k in range(side)) and _holds(line, total):
                for k in range(side):
                    exact[k] |= 1 << (line[k] - 1)
        kept = supports_reference(masks, total)
        assert all(e & ~k == 0 and k & ~m == 0 for e, k, m in zip(exact, kept, masks))


def test_the_compiled_filter_matches_the_reference_on_random_lines() -> None:
    rng = random.Random(9)
    full = (1 << 9) - 1
    for _ in range(300):
        masks = [rng.randrange(1, full + 1) | (full if rng.random() < 0.5 else 0)
                 for _ in range(9)]
        total = rng.randrange(0, 36)
        with forced(Kernels.ENGINE, True):
            compiled = sandwich_supports(masks, total)
        assert compiled == supports_reference(masks, total), (masks, total)


def test_a_placed_line_keeps_exactly_its_digits() -> None:
    line = (4, 1, 2, 3, 9, 5, 6, 7, 8)  # 2 + 3 = 5 between the 1 and the 9
    masks = [1 << (d - 1) for d in line]
    assert supports_reference(masks, 5) == masks
    assert supports_reference(masks, 6) == [0] * 9
    full = (1 << 9) - 1
    open_line = [1, 1 << 8] + [full] * 7  # crusts side by side: nothing between them
    assert supports_reference(open_line, 0) == [1, 1 << 8] + [full & ~1 & ~(1 << 8)] * 7
    assert supports_reference(open_line, 4) == [0] * 9


def test_sandwich_clues_on_whole_lines_lower_to_the_propagator() -> None:
    geometry = Geometry.of(3, 3)
    row = tuple(range(9))
    rule = sandwich(row, 12, 9)[0]
    assert isinstance(rule, Automaton)
    assert sandwich_total(rule, geometry) == 12
    drawn = drawn_for(Geometry.of(3, 3, constraints=(rule,)))
    assert drawn.kind[0] == RuleCode.SANDWICH and drawn.value[0] == 12
    assert tuple(drawn.masks[drawn.offset[0]:drawn.offset[0] + drawn.states[0]]) == \
        sandwich_combinations(12, 9)
    other = x_sum(row, 12, 9)[0]  # another outside clue keeps its automaton
    assert isinstance(other, Automaton) and sandwich_total(other, geometry) is None
    diagonal = sandwich(tuple(range(0, 81, 10)), 12, 9)[0]  # cells that do not see each other
    assert isinstance(diagonal, Automaton) and sandwich_total(diagonal, geometry) is None


def _sandwich_puzzles() -> list[tuple[Puzzle, tuple[int, ...]]]:
    return [(p, s) for p, s in published_puzzles()
            if any(isinstance(r, Automaton) and sandwich_total(r, p.geometry) is not None
                   for r in p.geometry.constraints)]


def test_the_published_sandwich_puzzles_solve_to_their_solutions() -> None:
    """Every puzzle of tests/data/rules with a sandwich clue: one solution, the published one,
    in few nodes (ISS's own counts: 0-40)."""
    found = _sandwich_puzzles()
    assert len(found) >= 4
    for puzzle, solution in found:
        result = count_solutions(puzzle, "fast", limit=2)
        assert result.count == 1 and tuple(result.solution) == solution
        assert (result.stats.nodes or 0) <= 60
