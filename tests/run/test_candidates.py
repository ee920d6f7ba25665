"""True candidates and Knuth's solution-count estimate (run/candidates.py, csp/estimate.py),
checked against full enumeration on puzzles small enough to enumerate, classic and with rules,
and their CLI commands (``sudokit candidates``, ``sudokit count``)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.csp.estimate import knuth_estimate
from sudokit.errors import LimitReached
from sudokit.formats.fpuzzles import fpuzzles_puzzle
from sudokit.model.puzzle import Puzzle
from sudokit.model.result import Limits
from sudokit.run.candidates import estimate_solutions, true_candidates
from sudokit.run.doors import count_solutions
from tests.helpers import DATA

P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
FEW = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1........"


def _tallies(puzzle: Puzzle, cap: int) -> list[dict[int, int]]:
    """Per cell, digit -> number of solutions (capped), by enumerating every solution."""
    every = count_solutions(puzzle, "propagate", limit=None).solutions
    tallies: list[dict[int, int]] = [{} for _ in puzzle.givens]
    for grid in every:
        for cell, digit in enumerate(grid):
            tallies[cell][digit] = tallies[cell].get(digit, 0) + 1
    return [{d: min(n, cap) for d, n in t.items()} for t in tallies]


def _thermometers() -> Puzzle:
    """A published thermometer puzzle (sigh's examples, MIT) with most givens of its solution
    filled and eight cells emptied beside its rules: a few solutions, each keeping the rules."""
    text = (DATA / "rules" / "sigh_thermosudoku.json").read_text()
    puzzle = fpuzzles_puzzle(text)
    solution = json.loads(text)["solution"]
    givens = [0 if cell % 10 == 0 or cell in (1, 11, 21) else d
              for cell, d in enumerate(solution)]
    return replace(puzzle, givens=tuple(givens))


@pytest.mark.parametrize("cap", [1, 2, 7])
@pytest.mark.parametrize("text", ["12..34..........", "1...............", P])
def test_counts_equal_full_enumeration(text: str, cap: int) -> None:
    puzzle = Puzzle.parse(text)
    found = true_candidates(puzzle, cap=cap, enumerate_limit=5)  # forces the settling path
    assert found.complete and not found.unsettled
    assert list(found.counts) == _tallies(puzzle, cap)


def test_rules_count_through_every_candidate() -> None:
    puzzle = _thermometers()
    assert puzzle.constraints
    found = true_candidates(puzzle, cap=3, enumerate_limit=2)
    assert found.complete and list(found.counts) == _tallies(puzzle, 3)
    assert found.solutions_found == count_solutions(puzzle, "propagate", limit=None).count


def test_enumeration_path_and_settling_path_agree() -> None:
    enumerated = true_candidates(FEW, cap=1)  # many solutions: both paths
    settled = true_candidates(FEW, cap=1, enumerate_limit=1)
    assert enumerated.candidates == settled.candidates
    # the 47,688 solutions put 267 digits in the 65 empty cells (16 givens)
    assert sum(map(len, enumerated.candidates)) == 267 + 16


def test_no_solution_has_no_candidates() -> None:
    found = true_candidates("11" + "." * 14)
    assert found.solutions_found == 0 and found.complete
    assert found.candidates == [()] * 16
    assert found.as_dict()["candidates"] == [[]] * 16


def test_a_spent_time_limit_lists_the_undecided_candidates() -> None:
    found = true_candidates("." * 256, time_limit=0.0)
    assert not found.complete and found.unsettled
    assert all(not found.counts[c].get(d) for c, d in found.unsettled)
    with pytest.raises(ValueError):
        true_candidates(P, cap=0)


def test_knuth_estimate_is_close_on_counted_puzzles() -> None:
    # 4x4 grids: 288; the 9x9 above with one given less: 47,688 (counted)
    for text, exact, probes in (("." * 16, 288, 400), (FEW, 47_688, 1500)):
        found = knuth_estimate(Puzzle.parse(text), probes, seed=5)
        assert found.probes == probes and found.solution_leaves > 0
        # within four standard errors (and the error itself is sane)
        assert abs(found.estimate - exact) <= 4 * found.standard_error + 1
        assert 0 < found.standard_error < exact


def test_knuth_estimate_is_deterministic_and_exact_when_propagation_decides() -> None:
    one, two = (knuth_estimate(Puzzle.parse(FEW), 50, seed=3) for _ in range(2))
    assert replace(one, seconds=0) == replace(two, seconds=0)
    assert replace(one, seconds=0) != replace(knuth_estimate(Puzzle.parse(FEW), 50, seed=4),
                                              seconds=0)
    easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    solved = knuth_estimate(Puzzle.parse(easy), 10)  # propagation alone solves it
    assert solved.exhausted and solved.estimate == 1 and solved.nodes == 0
    none = knuth_estimate(Puzzle.parse("11" + "." * 14), 10)
    assert none.exhausted and none.estimate == 0


def test_knuth_estimate_of_an_empty_9x9_is_near_the_known_count() -> None:
    found = knuth_estimate(Puzzle.parse("." * 81), 120, seed=2)
    known = 6_670_903_752_021_072_936_960  # Felgenhauer and Jarvis 2005
    assert abs(math.log10(found.estimate) - math.log10(known)) < 0.3


def test_estimate_limits() -> None:
    with pytest.raises(ValueError):
        knuth_estimate(Puzzle.parse(FEW), 0)
    with pytest.raises(LimitReached):
        estimate_solutions("." * 1296, probes=5, time_limit=0.0)
    partial = knuth_estimate(Puzzle.parse("." * 81), 10**6, limits=Limits(0.3))
    assert 0 < partial.probes < 10**6


runner = CliRunner()


def test_count_command() -> None:
    exact = runner.invoke(app, ["count", FEW])
    assert exact.exit_code == 0 and exact.stdout.startswith("47,688 solutions")
    capped = runner.invoke(app, ["count", FEW, "--limit", "100", "-f", "json"])
    row = json.loads(capped.stdout)
    assert capped.exit_code == 1 and row["solutions"] == 100 and not row["complete"]
    guess = runner.invoke(app, ["count", "." * 81, "--estimate", "--probes", "30", "-f", "json"])
    row = json.loads(guess.stdout)
    assert guess.exit_code == 0 and row["probes"] == 30 and row["estimate"] > 10**20
    text = runner.invoke(app, ["count", "." * 81, "--estimate", "--probes", "30"])
    assert re.match(r"about \d\.\d\de\+2[12] solutions \(standard error", text.stdout)


def test_candidates_command() -> None:
    shown = runner.invoke(app, ["candidates", FEW, "--cap", "3"])
    assert shown.exit_code == 0
    assert "267 true candidates in 65 empty cells" in shown.stdout
    assert "r9c3  4:1" in shown.stdout  # only one of the 47,688 solutions has 4 there
    row = json.loads(runner.invoke(app, ["candidates", P, "-f", "json"]).stdout)
    assert row["solutions_found"] == 1 and row["complete"]
    assert [c[0] for c in row["candidates"]] == list(count_solutions(P).solution)
    none = runner.invoke(app, ["candidates", "11" + "." * 14])
    assert none.exit_code == 1 and "no solution" in none.stdout


def test_scientific_notation_of_exact_ints() -> None:
    from sudokit.cli.count import scientific

    assert scientific(47_688) == "47,688"
    assert scientific(6_670_903_752_021_072_936_960) == "6.67e+21"
    assert scientific(9_996_000) == "1.00e+7"
    assert scientific(10 ** 400) == "1.00e+400"


def test_api_answers_true_candidates_with_counts_and_estimates() -> None:
    from starlette.testclient import TestClient

    from sudokit.serve.app import create_app

    client = TestClient(create_app())
    true = client.post("/api/candidates", json={"puzzle": FEW, "after": "true", "cap": 3})
    assert true.status_code == 200  # r9c3: 4 in one solution of 47,688, the others in 3+
    assert true.json()["counts"][74] == {"2": 3, "3": 3, "4": 1, "6": 3, "7": 3, "9": 3}
    guess = client.post("/api/count", json={"puzzle": "." * 81, "estimate": True,
                                             "probes": 20, "seed": 1}).json()
    assert guess["probes"] == 20 and 10**20 < int(guess["estimate"]) < 10**23
    for bad in ({"cap": 0, "after": "true"}, {"cap": "3", "after": "true"}):
        assert client.post("/api/candidates", json={"puzzle": FEW} | bad).status_code == 400
    for bad in ({"probes": 0}, {"probes": 10**9}, {"seed": -1}, {"probes": 1.5}):
        answer = client.post("/api/count", json={"puzzle": FEW, "estimate": True} | bad)
        assert answer.status_code == 400
