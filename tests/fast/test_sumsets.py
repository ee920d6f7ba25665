"""The clique filter of +-1 sums on bit sets of partial sums (sudokit.fast.sumsets): its
Python twin against every assignment of short sums, the compiled filter against the twin on
random and published sums, where it applies, and the sum puzzles of tests/data/rules solved to
their published solutions."""

from __future__ import annotations

import random
from itertools import pairwise, product

import numpy as np
import pytest

from sudokit import count_solutions
from sudokit.compiled import Kernels, forced
from sudokit.fast.sumsets import clique_sums, clique_sums_reference, sum_sets_support
from sudokit.model.rules import WeightedSum
from tests.fast.test_rulecheck import published_puzzles


def _every(masks: list[int], coefs: list[int], starts: list[int], total: int) -> list[int]:
    """The digits of every assignment meeting the sum (distinct digits within each clique)."""
    n = len(masks)
    bounds = sorted(set(starts) | {0, n})
    kept = [0] * n
    for digits in product(*[[d for d in range(1, 10) if m >> (d - 1) & 1] for m in masks]):
        if any(len(set(digits[a:b])) != b - a for a, b in pairwise(bounds)):
            continue
        if sum(k * d for k, d in zip(coefs, digits)) == total:
            for i, d in enumerate(digits):
                kept[i] |= 1 << (d - 1)
    return kept if all(kept) else [0] * n


def _random_sum(rng: random.Random, most: int) -> tuple[list[int], list[int], list[int], int]:
    n = rng.randint(1, most)
    masks = [rng.randint(1, 511) & rng.randint(1, 511) or 1 << rng.randrange(9)
             for _ in range(n)]
    coefs = [rng.choice([1, -1]) for _ in range(n)] if rng.random() < 0.4 else [1] * n
    starts = sorted(rng.sample(range(n), rng.randint(1, n)))
    return masks, coefs, starts, rng.randint(-12, 9 * n + 2)


def test_the_twin_keeps_the_digits_of_every_assignment() -> None:
    rng = random.Random(38)
    for _ in range(400):
        masks, coefs, starts, total = _random_sum(rng, 5)
        assert clique_sums_reference(masks, coefs, starts, total) == _every(
            masks, coefs, starts, total), (masks, coefs, starts, total)


@pytest.mark.parametrize("most", [6, 15])
def test_compiled_equals_the_twin(most: int) -> None:
    rng = random.Random(most)
    for _ in range(300):
        masks, coefs, starts, total = _random_sum(rng, most)
        with forced(Kernels.ENGINE, True):
            compiled = clique_sums(masks, coefs, starts, total)
        assert compiled == clique_sums_reference(masks, coefs, starts, total)


def test_it_declines_what_it_cannot_hold() -> None:
    def run(masks: list[int], coefs: list[int], total: int) -> int:
        n = len(masks)
        return sum_sets_support(np.array(masks, np.uint64), np.arange(n, dtype=np.int32),
                                np.array(coefs, np.int64), np.ones(n, np.uint8), 0, n, 9,
                                total, np.zeros(6 * n + 2, np.uint64), np.zeros(n, np.uint64))

    assert run([511] * 3, [1, 2, 1], 5) == -1  # a coefficient other than +-1
    assert run([511] * 16, [1] * 16, 40) == -1  # 16 x 8 partial sums: more than 128 bits
    assert run([511] * 3, [1] * 3, 25) == 0  # more than 3 x 8 above the least sum
    assert run([511] * 3, [1] * 3, 24) == 1


def _published_sums() -> list[tuple[list[int], list[int], list[int], int]]:
    from sudokit.fast.drawn import sum_cliques
    from sudokit.logic.state import Candidates

    found = []
    for puzzle, solution in published_puzzles():
        geometry = puzzle.geometry
        if geometry.side != 9:
            continue
        masks0 = Candidates.from_puzzle(puzzle).masks
        for rule in geometry.constraints:
            if not (isinstance(rule, WeightedSum) and 2 < len(rule.cells) <= 9
                    and set(rule.coefficients) <= {1, -1}):
                continue
            cliques = sum_cliques(rule.cells, geometry, None, rule.coefficients)
            order = [i for c in cliques for i in c]
            starts = list(np.cumsum([0] + [len(c) for c in cliques[:-1]]))
            masks = [int(masks0[rule.cells[i]]) for i in order]
            half = [1 << (solution[rule.cells[i]] - 1) if j % 2 else m
                    for j, (i, m) in enumerate(zip(order, masks))]
            found.append((half, [rule.coefficients[i] for i in order], starts, rule.total))
    return found


def test_published_sums_half_filled() -> None:
    sums = _published_sums()
    assert len(sums) > 50
    for masks, coefs, starts, total in sums:
        with forced(Kernels.ENGINE, True):
            kept = clique_sums(masks, coefs, starts, total)
        assert kept == clique_sums_reference(masks, coefs, starts, total)
        assert all(kept) and all(k & ~m == 0 for k, m in zip(kept, masks))


def test_sum_puzzles_solve_to_their_solutions() -> None:
    for puzzle, solution in published_puzzles():
        names = {r.name for r in puzzle.geometry.constraints if isinstance(r, WeightedSum)}
        if not names & {"little killer", "zipper line"} or puzzle.geometry.side != 9:
            continue
        result = count_solutions(puzzle, "fast", limit=2, time_limit=20)
        assert result.count == 1 and tuple(result.solution) == solution
