"""The doors of the technique engine (sudokit.run.explain): the puzzle read by the one parser, its
solution and uniqueness from the default method (count limit 2), handed to the logic package."""

from __future__ import annotations

import pytest

from sudokit import Puzzle, count_solutions, explain, hint, is_solution, rate
from sudokit.errors import InvalidPuzzle, SudokuError
from sudokit.logic.solve import logical_hint, logical_rating, logical_steps
from sudokit.run.explain import _solution, explain_states, rate_many
from tests.helpers import DATA

RATED = [line.split()[1] for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]


def test_solution_is_the_default_methods_first() -> None:
    for text in RATED[:10]:
        puzzle = Puzzle.parse(text)
        result = count_solutions(puzzle, limit=2)
        assert _solution(puzzle) == (result.solutions[0], result.count == 1)


def test_several_solutions_and_none() -> None:
    many = Puzzle.parse("." * 80 + "1")
    grid, unique = _solution(many)
    assert not unique and is_solution(grid, many)  # the engine's, or the default path's
    assert not rate(many).unique
    clash = Puzzle.parse("11" + "." * 79)
    with pytest.raises(InvalidPuzzle, match="no solution: digit 1 is given twice in row 1"):
        rate(clash)
    dead = Puzzle.parse("123456780" + "." * 8 + "9" + "." * 63)  # r1c9 has no candidate
    with pytest.raises(InvalidPuzzle, match="no solution"):
        explain(dead)
    with pytest.raises(InvalidPuzzle, match="no solution"):
        next(explain_states(dead))


@pytest.mark.parametrize("text", RATED[:3])
def test_doors_hand_the_solution_to_the_logic_package(text: str) -> None:
    puzzle = Puzzle.parse(text)
    solution, unique = _solution(puzzle)
    assert rate(text) == rate(puzzle) == logical_rating(puzzle, solution, unique=unique)
    assert explain(text) == logical_steps(puzzle, solution, unique=unique)
    assert [step for step, _state in explain_states(text)] == explain(puzzle)
    assert hint(text) == logical_hint(puzzle, solution, unique=unique) == explain(puzzle)[0]


def test_unreadable_input_is_an_invalid_puzzle() -> None:
    with pytest.raises(InvalidPuzzle):
        rate("1" * 80)


def test_rate_many_rates_each_as_rate_does() -> None:
    puzzles = [Puzzle.parse(text) for text in RATED[:4]] + [
        Puzzle.parse("11" + "." * 79), Puzzle.parse("." * 80 + "1"),
        Puzzle.parse("1...2...3...4..."), Puzzle.parse(RATED[4])]
    got = rate_many(puzzles)
    assert len(got) == len(puzzles)
    for puzzle, rated in zip(puzzles, got):
        try:
            expected = rate(puzzle)
        except SudokuError as exc:
            assert type(rated) is type(exc) and str(rated) == str(exc)
        else:
            assert rated == expected
    assert sum(isinstance(r, SudokuError) for r in got) == 1


def test_rate_with_chosen_techniques_finds_the_solution_once(monkeypatch) -> None:
    """``rate(..., techniques=)`` and ``sudokit rate --techniques`` count the solutions once
    (the steps and the uniqueness from one count); the rating is that of the chosen solve."""
    from sudokit.run import explain as doors
    from sudokit.run import ratings
    from sudokit.run.chosen import chosen_states, technique_choice

    counted = []
    count = doors.count_solutions
    monkeypatch.setattr(doors, "count_solutions",
                        lambda *a, **k: counted.append(1) or count(*a, **k))
    puzzle = Puzzle.parse(RATED[0])
    names = ["Hidden Single", "Naked Single", "Pointing", "Claiming"]
    rated = rate(puzzle, techniques=names)
    assert len(counted) == 1
    solution, unique = _solution(puzzle)
    steps = [s for s, _ in chosen_states(puzzle, technique_choice(names), solution=solution,
                                         kinds=doors._kinds(unique, True))]
    assert rated.steps == len(steps) and rated.rating == max(s.rating for s in steps)
    counted.clear()  # sudokit rate --techniques: these stop before the end, once counted
    assert isinstance(ratings._rate_chosen(puzzle, ratings.Chosen(15.0, tuple(names), None)),
                      ratings._Stuck)
    assert len(counted) == 1


def test_rate_many_counts_each_puzzles_limit_from_its_start(monkeypatch) -> None:
    """Each puzzle's limit covers its share of the batch count and its logical solve: a count
    that took the whole limit leaves nothing for the solve."""
    from dataclasses import replace

    from sudokit.errors import LimitReached
    from sudokit.run import explain as doors

    solve_many = doors.solve_many
    monkeypatch.setattr(doors, "solve_many", lambda *a, **k: [
        replace(r, seconds=r.seconds + (5.0 if i % 2 else 0.0))
        for i, r in enumerate(solve_many(*a, **k))])  # every other count said to take 5 s
    got = rate_many([Puzzle.parse(text) for text in RATED[:4]], time_limit=4.0)
    assert [isinstance(r, LimitReached) for r in got] == [False, True, False, True]
