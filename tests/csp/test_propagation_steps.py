"""The single strategies in public, one pass at a time (issue 17.2), and ``show --after``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sudokit import Geometry, Puzzle
from sudokit.cli import app
from sudokit.csp.propagation import PropagationState
from sudokit.csp.steps import Domains, eliminate, naked_twins, only_choice, reduce_puzzle
from tests.helpers import load

runner = CliRunner()
EASY = load("norvig/sudoku-easy50.txt", 5)
HARD = load("norvig/sudoku-top95.txt", 5)


@pytest.mark.parametrize("puzzle", EASY[:2] + HARD[:3])
def test_one_elimination_pass_leaves_the_digits_no_given_peer_holds(puzzle: Puzzle) -> None:
    state = eliminate(Domains.of(puzzle))
    assert list(state.cells) == [puzzle.candidates(c) for c in range(81)]


@pytest.mark.parametrize("puzzle", EASY + HARD)
def test_reduce_puzzle_reaches_the_fixpoint_of_the_propagate_method(puzzle: Puzzle) -> None:
    """Elimination and only choice to a fixpoint equal PropagationState's (same rules)."""
    reduced = reduce_puzzle(Domains.of(puzzle), twins=False)
    state = PropagationState(puzzle, naked_twins=False)
    assert state.assign_givens()
    assert list(reduced.cells) == state.candidates()


def test_easy_puzzles_are_solved_by_reduction_alone() -> None:
    for puzzle in EASY:
        assert 0 not in reduce_puzzle(Domains.of(puzzle)).grid()


def test_only_choice_places_a_hidden_single() -> None:
    geometry = Geometry.of(2, 2)
    # digit 1 fits only r1c4 in row 1 (the other cells lost it)
    state = Domains.from_dict({"r1c1": "234", "r1c2": "234", "r1c3": "23", "r1c4": "1234"},
                                 geometry)
    assert only_choice(state).cells[3] == (1,)
    empty_place = Domains.from_dict({f"r1c{c}": "234" for c in range(1, 5)}, geometry)
    assert only_choice(empty_place) is None  # digit 1 has no place in row 1


def test_naked_twins_remove_the_pair_from_the_unit() -> None:
    values = {"A1": "23", "A2": "23", "A3": "1234", "A4": "234", "A5": "2345"}
    state = naked_twins(Domains.from_dict(values, Geometry.of(3, 3)))
    assert state.as_dict()["r1c3"] == "14" and state.as_dict()["r1c4"] == "4"
    assert state.as_dict()["r1c5"] == "45" and state.as_dict()["r1c1"] == "23"


def test_contradictions_are_return_values() -> None:
    geometry = Geometry.of(2, 2)
    clash = Domains.from_dict({0: [1], 1: [1]}, geometry)  # two 1s in row 1
    assert eliminate(clash) is None and reduce_puzzle(clash) is None
    with pytest.raises(ValueError, match="unknown cell"):
        Domains.from_dict({"Z9": "1"}, geometry)


@pytest.mark.parametrize("after,expected", [("eliminate", "candidates (eliminate)"),
                                            ("only-choice", "candidates (only-choice)")])
def test_cli_show_after_one_pass(after: str, expected: str) -> None:
    puzzle = EASY[0]
    line = "".join(map(str, puzzle.givens))
    done = runner.invoke(app, ["show", line, "--after", after])
    assert done.exit_code == 0 and expected in done.stdout
    state = eliminate(Domains.of(puzzle))
    if after == "only-choice":
        state = only_choice(state)
    first_row = done.stdout.split(expected)[1].splitlines()[1]
    assert first_row.split() == [
        *["".join(map(str, ds)) for ds in state.cells[:3]], "|",
        *["".join(map(str, ds)) for ds in state.cells[3:6]], "|",
        *["".join(map(str, ds)) for ds in state.cells[6:9]]]


def test_the_notebooks_dict_goes_through_every_step() -> None:
    """The Udacity notebook's ``values`` dict ('A1' -> '123456789') in and out, keys kept."""
    puzzle = EASY[0]
    rows, cols = "ABCDEFGHI", "123456789"
    values = {r + c: (str(d) if d else "123456789")
              for (r, c), d in zip(((r, c) for r in rows for c in cols), puzzle.givens)}
    after = eliminate(values)
    assert set(after) == set(values) and all(isinstance(v, str) for v in after.values())
    assert after == {k: "".join(map(str, ds)) for k, ds in
                     zip(values, eliminate(Domains.of(puzzle)).cells)}
    solved = reduce_puzzle(values)
    assert all(len(v) == 1 for v in solved.values())
    assert only_choice(eliminate(values)) == {
        k: "".join(map(str, ds)) for k, ds in
        zip(values, only_choice(eliminate(Domains.of(puzzle))).cells)}
    by_cell = naked_twins({c: (1, 2, 3, 4) for c in range(16)})
    assert by_cell[0] == (1, 2, 3, 4)  # int keys and tuples stay so
    assert eliminate({"A1": "1", "A2": "1", **{f"{r}{c}": "1234" for r in "ABCD"
                                               for c in "1234" if (r, c) not in
                                               (("A", "1"), ("A", "2"))}}) is None
