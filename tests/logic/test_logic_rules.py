"""The techniques of the drawn rules (logic/techniques/rules.py,
logic/chains/rule_forcing.py): each kind's step on a small hand-made board with its exact
eliminations and text, and the published puzzles of tests/data/rules explained to the end
without trial, every step checked against the published solution."""

from __future__ import annotations

import pytest

from sudokit import is_solution, solve
from sudokit.logic.registry import techniques
from sudokit.logic.solve import logical_steps
from sudokit.logic.state import Board, Candidates
from sudokit.logic.chains.rule_forcing import assume_with_rules
from sudokit.logic.techniques.rules import peer_step, rule_step
from sudokit.model import rulebook as rb
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.model.rules import (
    Automaton,
    Between,
    Contains,
    Index,
    Lockout,
    Relation,
    Renban,
    WeightedSum,
)
from tests.helpers import DATA, ci_rule_puzzle, sigh_rule_puzzle

RULES = DATA / "rules"


def c(row: int, col: int) -> int:
    return (row - 1) * 9 + col - 1


def _board(rules, marks: dict[tuple[int, int], str]) -> Board:
    masks = [0x1FF] * 81
    for (r, k), digits in marks.items():
        masks[c(r, k)] = sum(1 << (int(d) - 1) for d in digits)
    return Board(Geometry.of(3, 3, constraints=rules), masks, [0] * 81)


def _gone(cell: int, digits: str) -> list[tuple[int, int]]:
    return [(cell, int(d)) for d in digits]


CASES = [  # rules, pencil marks, kind, technique, eliminations, text
    (rb.thermometer([c(1, 1), c(1, 2), c(1, 3), c(1, 4)], 9), {}, Relation, "Pair Relation",
     _gone(0, "9") + _gone(1, "1"),
     "thermometer r1c1-r1c2: r1c1 must be at most 8, r1c2 must be at least 2"),
    (rb.kropki_black(c(3, 3), c(3, 4), 9), {}, Relation, "Pair Relation",
     _gone(20, "579") + _gone(21, "579"),
     "black Kropki dot r3c3-r3c4: r3c3<>5,7,9, r3c4<>5,7,9"),
    (rb.palindrome([c(1, 1), c(1, 5), c(1, 9)], 9), {(1, 1): "5"}, Relation, "Pair Relation",
     _gone(8, "12346789"), "palindrome r1c1-r1c9: r1c9=5"),
    (rb.arrow([c(2, 2)], [c(2, 3), c(2, 4)]), {}, WeightedSum, "Rule Sum",
     _gone(10, "1") + _gone(11, "9") + _gone(12, "9"),
     "arrow r2c2-r2c4: by the combinations of the sum, r2c2 must be at least 2, "
     "r2c3 must be at most 8, r2c4 must be at most 8"),
    (rb.renban([c(5, 1), c(5, 2), c(5, 3), c(5, 4)]), {(5, 1): "1"}, Renban, "Renban",
     _gone(37, "156789") + _gone(38, "156789") + _gone(39, "156789"),
     "renban r5c1-r5c4: its digits form a run, so r5c2 must be from 2 to 4, "
     "r5c3 must be from 2 to 4, r5c4 must be from 2 to 4"),
    (rb.quadruple([c(1, 1), c(1, 2), c(2, 1), c(2, 2)], [1, 2, 3, 4]), {}, Contains,
     "Must Contain", _gone(0, "56789") + _gone(1, "56789") + _gone(9, "56789")
     + _gone(10, "56789"),
     "quadruple r1c1-r2c2: its digits must appear, so r1c1 must be at most 4, "
     "r1c2 must be at most 4, r2c1 must be at most 4, r2c2 must be at most 4"),
    (rb.between_line([c(4, 1), c(4, 2), c(4, 3)]), {(4, 1): "2"}, Between, "Between Line",
     _gone(28, "129") + _gone(29, "123"),
     "between line r4c1-r4c3: the middle digits lie between the ends, so r4c2 must be from "
     "3 to 8, r4c3 must be at least 4"),
    (rb.lockout_line([c(6, 1), c(6, 2), c(6, 3), c(6, 4)], 9), {(6, 1): "3", (6, 4): "8"},
     Lockout, "Lockout Line", _gone(46, "345678") + _gone(47, "345678"),
     "lockout line r6c1-r6c4: the middle digits lie outside the ends, so r6c2<>3,4,5,6,7,8, "
     "r6c3<>3,4,5,6,7,8"),
    (rb.indexer(c(8, 1), [c(8, k) for k in range(1, 10)], 1),
     {(8, 3): "23456789", (8, 5): "2345678"}, Index, "Indexing", _gone(63, "35"),
     "indexer r8c1-r8c9: by the cells it indexes, r8c1<>3,5"),
    (rb.sandwich([c(7, k) for k in range(1, 10)], 35, 9), {}, Automaton, "Sequence Clue",
     _gone(57, "19") + _gone(58, "19") + _gone(59, "19"),  # 35 needs 5 cells between 1 and 9
     "sandwich sum r7c1-r7c9: by the fillings that meet the clue, r7c4 must be from 2 to 8, "
     "r7c5 must be from 2 to 8, r7c6 must be from 2 to 8"),
]


@pytest.mark.parametrize("rules, marks, kind, name, eliminations, text", CASES,
                         ids=[case[3] + "-" + case[0][0].name for case in CASES])
def test_each_kind_gives_its_filters_eliminations_as_a_step(rules, marks, kind, name,
                                                           eliminations, text) -> None:
    step = rule_step(_board(rules, marks), kind)
    assert step is not None and step.technique == name
    assert list(step.eliminations) == sorted(eliminations)
    assert step.text == text
    assert any(step.cells == rule.cells for rule in rules)  # the rule to highlight


def test_a_rule_with_peers_counts_cells_that_see_each_other_as_different() -> None:
    board = _board(rb.arrow([c(2, 2)], [c(2, 3), c(2, 4)]), {(2, 2): "123"})
    plain = rule_step(board, WeightedSum)
    assert plain is not None and list(plain.eliminations) == _gone(10, "1") + _gone(
        11, "3456789") + _gone(12, "3456789")
    step = peer_step(board, WeightedSum)  # 3 = 1 + 2: the circle is 3, the arrow 1 and 2
    assert step is not None and step.technique == "Rule Sum with Peers" and step.rating == 4.0
    assert list(step.eliminations) == _gone(10, "12") + _gone(11, "3456789") + _gone(
        12, "3456789")
    assert step.text.startswith("arrow r2c2-r2c4 (cells that see each other differ): ")


def test_a_rule_forcing_chain_follows_the_rules_to_a_contradiction() -> None:
    # r1c1 < r1c2 < r1c3 with r1c3 at most 8: r1c1=7 leaves r1c2 only 8 (the first pair's
    # filter), and then r1c3 no digit above it
    board = _board(rb.thermometer([c(1, 1), c(1, 2), c(1, 3)], 9), {(1, 3): "12345678"})
    why, rounds, _masks = assume_with_rules(board, c(1, 1), 7)
    assert why == "thermometer r1c2-r1c3 cannot be kept" and rounds >= 1
    assert assume_with_rules(board, c(1, 1), 1)[0] is None


def test_classic_ladders_leave_the_rule_techniques_out() -> None:
    classic = {t.name for t in techniques(side=9, features=frozenset())}
    drawn = {t.name for t in techniques(side=9, features=frozenset({"pair-relation"}))}
    assert "Pair Relation" not in classic and "Rule Forcing Chain" not in classic
    assert {"Pair Relation", "Pair Relation with Peers", "Rule Forcing Chain"} <= drawn
    assert "Rule Sum" not in drawn


def test_a_state_breaking_a_rule_is_a_contradiction() -> None:
    geometry = Geometry.of(3, 3, constraints=rb.kropki_black(c(1, 1), c(1, 2), 9))
    state = Candidates.from_puzzle(Puzzle(geometry, (5,) + (0,) * 80))
    assert state.contradiction() == "black Kropki dot r1c1-r1c2 cannot be kept"


# one or two published puzzles per kind (the whole set: docs/logic-rules.md)
EXPLAINED = ["thermosudoku", "xv_kropki", "palindromes", "between_lines", "renban",
             "lockout_lines", "quadruple_x", "little_killer", "double_arrow", "modular_lines",
             "sandwich_sudoku", "skyscraper", "indexing"]
CI_EXPLAINED = ["Jan 25, 2021: Non-consecutive", "Jul 13, 2022: Clone / Arrow"]


@pytest.mark.parametrize("load, name", [(sigh_rule_puzzle, n) for n in EXPLAINED]
                         + [(ci_rule_puzzle, t) for t in CI_EXPLAINED])
def test_published_puzzles_are_explained_to_the_end_without_trial(load, name: str) -> None:
    puzzle, solution = load(name)
    steps = logical_steps(puzzle, solution, unique=True, trial=False)  # each step checked
    placed = [d for d in puzzle.givens if d] + [d for s in steps for _c, d in s.placements]
    assert len(placed) == 81 and all(s.technique != "Trial" for s in steps)
    assert any(s.technique in {"Pair Relation", "Thermometer", "Rule Sum", "Sequence Clue",
                               "Renban", "Between Line", "Lockout Line", "Must Contain",
                               "Indexing"}
               for s in steps)


def test_the_logic_method_solves_a_puzzle_with_rules() -> None:
    puzzle, solution = sigh_rule_puzzle("thermosudoku")
    result = solve(puzzle, "logic")
    assert result.status.name == "SOLVED" and tuple(result.solution) == solution
    assert is_solution(result.solution, puzzle)
