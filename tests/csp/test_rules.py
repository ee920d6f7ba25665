"""Published puzzles with rules drawn on the grid (tests/data/rules, sources in
tests/data/SOURCES.md): each published solution keeps every rule, and ``propagate`` and a CSP
method find it and prove it unique; the filters of csp/rules.py keep exactly the supported
digits (checked against brute force)."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.csp.rules import rule_filter
from sudokit.model import rulebook as rb
from sudokit.model.puzzle import violations
from sudokit.run.doors import count_solutions
from tests.helpers import DATA, ci_rule_puzzle, sigh_rule_puzzle

RULES = DATA / "rules"


SIGH = sorted(p.stem[5:] for p in RULES.glob("sigh_*.json"))
CI = [i["title"] for i in json.loads((RULES / "variant_solver_js_ci.json").read_text())]

# Solved and proved unique within a few seconds by both methods (the others need more search
# than a unit test should spend: see docs/variants-rules.md).
FAST = {
    "propagate": ["arrow_sudoku", "between_lines", "double_arrow", "german_whispers", "indexing",
                  "international_whispers", "little_killer", "lockout_lines", "palindromes",
                  "quadruple_x",
                  "sandwich_sudoku", "skyscraper", "thermosudoku", "xv_kropki"],
    "mac": ["arrow_sudoku", "between_lines", "double_arrow", "german_whispers", "indexing",
            "little_killer", "palindromes", "sandwich_sudoku", "skyscraper", "thermosudoku", "xv_kropki"],
}


@pytest.mark.parametrize("name", SIGH)
def test_published_solutions_keep_every_rule(name: str) -> None:
    puzzle, solution = sigh_rule_puzzle(name)
    assert puzzle.constraints and violations(solution, puzzle) == []


@pytest.mark.parametrize("title", CI)
def test_published_fpuzzles_data_reads_and_keeps_its_solution(title: str) -> None:
    puzzle, solution = ci_rule_puzzle(title)
    assert violations(solution, puzzle) == []


@pytest.mark.parametrize("method, name", [(m, n) for m, names in FAST.items() for n in names])
def test_solved_unique_and_equal_to_the_published_solution(method: str, name: str) -> None:
    puzzle, solution = sigh_rule_puzzle(name)
    result = count_solutions(puzzle, method, limit=2, time_limit=60)
    assert result.status.name == "SOLVED" and result.count == 1, result
    assert result.solution == solution


@pytest.mark.parametrize("title", ["Fortress Coverage", "August 9, 2023: Thermo",
                                   "Jan 25, 2021: Non-consecutive", "Jul 13, 2022: Clone / Arrow",
                                   "Jul 16, 2022: Quadruple Sudoku"])
def test_fpuzzles_data_solved_unique_by_propagate(title: str) -> None:
    puzzle, solution = ci_rule_puzzle(title)
    result = count_solutions(puzzle, "propagate", limit=2, time_limit=60)
    assert result.count == 1 and result.solution == solution


def test_the_default_method_takes_rules_through_the_portfolio() -> None:
    puzzle, solution = sigh_rule_puzzle("thermosudoku")
    result = count_solutions(puzzle, "portfolio")
    assert result.solution == solution and result.unique


def _brute(rule, domains: list[int]) -> tuple[int, ...] | None:
    """The supported masks by enumeration (bit d for digit d)."""
    keep = [0] * len(domains)
    choices = [[d for d in range(1, 10) if m >> d & 1] for m in domains]
    for digits in itertools.product(*choices):
        if rule.holds(digits):
            for i, d in enumerate(digits):
                keep[i] |= 1 << d
    return tuple(keep) if any(keep) else None


_RULES = [
    rb.thermometer([0, 1, 2], 9)[0], rb.kropki_black(0, 1, 9)[0],
    rb.arrow([0], [1, 2])[0], rb.arrow([0, 1], [2, 3, 4])[0], rb.zipper_line([0, 1, 2])[0],
    rb.x_sum([0, 1, 2, 3], 10, 9)[0], rb.skyscraper([0, 1, 2, 3], 2, 9)[0],
    rb.sandwich([0, 1, 2, 3], 5, 9)[0], rb.quadruple([0, 1, 2, 3], [1, 1, 5])[0],
    rb.renban([0, 1, 2])[0], rb.between_line([0, 1, 2, 3])[0], rb.lockout_line([0, 1, 2], 9)[0],
    rb.indexer(0, [0, 1, 2, 3], 1)[0],
]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(_RULES), st.lists(st.integers(1, 1022), min_size=5, max_size=5))
def test_filters_keep_exactly_the_supported_digits(rule, masks: list[int]) -> None:
    domains = [m << 1 & 0b1111111110 or 0b10 for m in masks][:len(rule.cells)]
    found = rule_filter(rule, 9)(domains)
    expected = _brute(rule, domains)
    if rule.kind in ("must-contain", "renban", "indexing"):  # sound, exact on singletons
        assert expected is None or (found is not None and all(
            f & e == e for f, e in zip(found, expected)))
    else:
        assert found == expected
