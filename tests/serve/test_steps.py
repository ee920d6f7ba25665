"""Every step available now and the techniques a solve may use (issue 41): the door
(:func:`sudokit.run.explain.hints`, the ``techniques``/``exclude`` options of hint, explain and
rate), ``/api/hint`` with ``"all": true`` and ``sudokit hint --all``/``--techniques``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.errors import InvalidOption
from sudokit.logic.solve import apply_step
from sudokit.logic.state import Candidates
from sudokit.model.puzzle import Puzzle
from sudokit.run.explain import explain_states, hint, hints, rate
from sudokit.serve.api import ENDPOINTS
from tests.helpers import EXAMPLES

TOP1 = EXAMPLES.joinpath("top95.txt").read_text().split()[0]


def test_every_step_lists_each_instance_each_true_and_the_first_is_the_hint() -> None:
    found = hints(TOP1)
    assert found[0].text == hint(TOP1).text
    assert len({(s.placements, s.eliminations) for s in found}) == len(found)
    assert 3 < len({s.technique for s in found}) < len(found)
    assert [s.technique for s in found].count("Pointing") > 1  # every instance, not one
    state = Candidates.from_puzzle(Puzzle.coerce(TOP1))
    for step in found:  # each applies to the board as it is (verified against the solution)
        assert step.placements or step.eliminations
        assert all(state.has(c, d) for c, d in (*step.placements, *step.eliminations))
    assert all(s.technique != "Trial" for s in found)


def test_only_and_all_but_techniques() -> None:
    assert hint(TOP1, techniques=["Naked Single"]) is None  # no naked single at the start
    assert hint(TOP1, exclude=["Hidden Single", "Full House"]).technique == "Pointing"
    steps = [s for s, _ in explain_states(TOP1, techniques=["Hidden Single", "Naked Single"])]
    assert steps and {s.technique for s in steps} <= {"Hidden Single", "Naked Single"}
    state = Candidates.from_puzzle(Puzzle.coerce(TOP1))
    for step in steps:
        apply_step(state, step)
    assert not state.solved  # singles alone stop early
    assert rate(TOP1, exclude=["Trial"]).rating == rate(TOP1).rating
    with pytest.raises(InvalidOption, match="no technique 'Foo'.*Hidden Single"):
        hint(TOP1, techniques=["Foo"])


def test_api_all_steps_and_technique_options() -> None:
    answer = ENDPOINTS["hint"]({"puzzle": TOP1, "all": True}, 15)
    assert answer["step"] == answer["steps"][0] and len(answer["steps"]) > 3
    assert all("board" in s for s in answer["steps"])
    only = ENDPOINTS["hint"]({"puzzle": TOP1, "techniques": ["Pointing"]}, 15)
    assert only["step"]["technique"] == "Pointing"
    explained = ENDPOINTS["explain"]({"puzzle": TOP1, "techniques": ["Hidden Single"]}, 15)
    assert not explained["solved"] and explained["steps"]
    assert "Hidden Single" in ENDPOINTS["methods"]({}, 1)["techniques"]
    from sudokit.errors import BadRequest
    with pytest.raises(BadRequest):
        ENDPOINTS["hint"]({"puzzle": TOP1, "techniques": "Pointing"}, 15)
    with pytest.raises(InvalidOption):
        ENDPOINTS["rate"]({"puzzle": TOP1, "exclude": ["Nothing"]}, 15)


def test_cli_hint_all_and_techniques() -> None:
    runner = CliRunner()
    every = runner.invoke(app, ["hint", TOP1, "--all", "-f", "jsonl"])
    rows = [json.loads(line) for line in every.stdout.splitlines()]
    assert every.exit_code == 0 and len(rows) > 3 and rows[0]["technique"] == "Hidden Single"
    one = runner.invoke(app, ["hint", TOP1, "--techniques", "Pointing,Claiming"])
    assert one.exit_code == 0 and one.stdout.startswith("[2.6] Pointing:")
    explained = runner.invoke(app, ["explain", TOP1, "--exclude", "Trial"])
    assert explained.exit_code == 0 and "rating" in explained.stdout
    bad = runner.invoke(app, ["hint", TOP1, "--techniques", "Foo"])
    assert bad.exit_code != 0  # main() prints it as one line, exit 2 (the runner keeps it)
    assert "no technique 'Foo'" in bad.output + str(bad.exception)


def test_api_generate_needs_a_technique() -> None:
    made = ENDPOINTS["generate"]({"size": 9, "needs": "Pointing", "seed": 1}, 15)
    assert made["hardest"] == "Pointing"
    with pytest.raises(InvalidOption, match="Foo"):
        ENDPOINTS["generate"]({"size": 9, "needs": "Foo"}, 15)


EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_cli_rate_with_chosen_techniques(tmp_path) -> None:
    runner = CliRunner()
    stuck = runner.invoke(app, ["rate", TOP1, "--techniques", "Hidden Single,Naked Single"])
    assert stuck.exit_code == 1
    assert "stuck\tthe chosen techniques stop after" in stuck.stdout
    whole = runner.invoke(app, ["rate", TOP1, "--exclude", "Trial", "-f", "jsonl"])
    assert whole.exit_code == 0, whole.output
    assert json.loads(whole.stdout)["rating"] == rate(TOP1).rating
    singles = runner.invoke(app, ["rate", EASY, "--techniques", "Hidden Single,Naked Single"])
    assert singles.exit_code == 0 and "\t1.2\teasy\tHidden Single" in singles.output
    two = tmp_path / "two.txt"  # a file of two, one record each, in order
    two.write_text(f"{EASY}\n{TOP1}\n")
    rows = runner.invoke(app, ["rate", str(two), "--techniques", "Hidden Single,Naked Single",
                               "-f", "jsonl"])
    assert [json.loads(r)["status"] for r in rows.stdout.splitlines()] == ["rated", "stuck"]
    bad = runner.invoke(app, ["rate", EASY, "--exclude", "Foo"])
    assert bad.exit_code != 0  # main() prints it as one line, exit 2 (the runner keeps it)
    assert "no technique 'Foo'" in bad.output + str(bad.exception)


def _singles(puzzle: str) -> set[tuple[int, int]]:
    """Every naked and hidden single of the puzzle's candidates, found the plain way."""
    state = Candidates.from_puzzle(Puzzle.coerce(puzzle))
    geometry, out = state.geometry, set()
    for cell in range(geometry.n_cells):
        digits = [d for d in range(1, 10) if not state.values[cell] and state.has(cell, d)]
        out |= {(cell, d) for d in digits if len(digits) == 1 or any(
            not any(state.has(c, d) for c in geometry.units[u] if c != cell)
            for u in geometry.units_of[cell])}
    return out


def test_every_single_and_every_pointing_listed_holds_on_the_board() -> None:
    for puzzle in (TOP1, EASY):
        found = hints(puzzle)
        singles = {p for s in found if s.technique.endswith("Single") for p in s.placements}
        assert singles == _singles(puzzle)  # all of them, and only true ones
        state = Candidates.from_puzzle(Puzzle.coerce(puzzle))
        box = state.geometry.boxes
        for step in (s for s in found if s.technique == "Pointing"):  # true on this board:
            digit, = step.digits  # the digit's only places in its box are the pattern's
            home = next(b for b in box if set(step.cells) <= set(b))
            assert {c for c in home if state.has(c, digit) and not state.values[c]} \
                == set(step.cells)


def test_a_stuck_choice_names_the_technique_it_needs() -> None:
    answer = ENDPOINTS["hint"]({"puzzle": TOP1, "techniques": ["Naked Single"]}, 15)
    assert answer == {"step": None, "needs": "Hidden Single"}
    pointing = ENDPOINTS["hint"]({"puzzle": TOP1, "exclude": ["Hidden Single", "Full House",
                                                              "Pointing", "Claiming"]}, 15)
    assert pointing["step"]["technique"] == "Hidden Pair" and "needs" not in pointing
    runner = CliRunner()
    said = runner.invoke(app, ["hint", TOP1, "--techniques", "Naked Single"])
    assert said.exit_code == 1
    assert ("none of the chosen techniques applies: the next step needs Hidden Single"
            in said.output)
