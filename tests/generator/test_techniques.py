"""Technique-targeted generation (``needs`` / ``uses``): every puzzle's claim checked by the
rating engine (``sudokit.rate``) or the whole logical solve, apart from the generator's own
judging; names and families resolved; ``max_tries`` respected; the command line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import sudokit
from sudokit.cli import app
from sudokit.errors import InvalidOption
from sudokit.formats import read_puzzles
from sudokit.generator import GenerationError
from sudokit.generator.techniques import FAMILIES, STEP_NAMES, resolve_target
from sudokit.logic.registry import TechniqueKind, technique_names
from sudokit.logic.solve import logical_steps
from sudokit.run.generate import _geometry, generate
from tests.helpers import DATA

runner = CliRunner()
NINE = _geometry(None, None, "standard")
NONCONSECUTIVE = _geometry(None, None, "non-consecutive")
DIAGONAL = _geometry(None, None, "diagonal")


def test_families_and_step_names_are_registered_techniques() -> None:
    registered = set(technique_names())
    for family, names in FAMILIES.items():
        assert set(names) <= registered, family
    assert set(STEP_NAMES) <= registered


def test_words_resolve_to_step_names() -> None:
    assert resolve_target("x wing", NINE, needs=True).names == {"X-Wing"}
    assert resolve_target("XY-Wing", NINE, needs=True).ceiling == 4.2
    assert resolve_target("Skyscraper", NINE, needs=True).names == {"Skyscraper"}
    assert resolve_target("Turbot Fish", NINE, needs=True).names == {
        "Turbot Fish", "Skyscraper", "2-String Kite"}
    assert resolve_target("fish", NINE, needs=False).names == {"X-Wing", "Swordfish",
                                                                "Jellyfish"}
    assert "XY-Chain" in resolve_target("AIC", NINE, needs=True).names
    assert resolve_target("trial", NINE, needs=True).ceiling is None
    rules = resolve_target("rules", NONCONSECUTIVE, needs=True).names
    assert {"Pair Relation", "Pair Relation with Peers"} <= rules
    assert "Thermometer" not in rules  # no thermometers on a non-consecutive grid


@pytest.mark.parametrize("word,grid", [("X-Wingg", NINE), ("Pair Relation", NINE),
                                        ("rules", NINE)])
def test_unknown_or_inapplicable_words_are_refused(word, grid) -> None:
    with pytest.raises(InvalidOption, match=word.split()[0]):
        resolve_target(word, grid, needs=True)


@pytest.mark.parametrize("word", ["X-Wing", "XY-Wing"])
def test_needs_hardest_step_checked_by_rate(word) -> None:
    names = resolve_target(word, NINE, needs=True).names
    made = list(generate(2, seed=3, needs=word))
    for g in made:
        rated = sudokit.rate(g.puzzle)
        assert rated.hardest in names and g.hardest == rated.hardest
        assert g.rating == rated.rating and g.rater == "se"
        assert sudokit.count_solutions(g.puzzle, "sat", limit=2).count == 1
    assert [g.puzzle for g in generate(2, seed=3, needs=word)] == [g.puzzle for g in made]


def test_needs_a_family() -> None:
    for g in generate(2, seed=4, needs="wings"):
        assert sudokit.rate(g.puzzle).hardest in FAMILIES["wings"]


def test_uses_a_step_of_the_whole_solve() -> None:
    for g in generate(2, seed=6, uses="XY-Wing"):
        steps = logical_steps(g.puzzle, g.solution, unique=True)
        assert "XY-Wing" in {step.technique for step in steps}


def test_needs_and_uses_together() -> None:
    for g in generate(1, seed=8, needs="XY-Wing", uses="Naked Pair"):
        steps = logical_steps(g.puzzle, g.solution, unique=True)
        assert sudokit.rate(g.puzzle).hardest == "XY-Wing"
        assert "Naked Pair" in {step.technique for step in steps}


def test_a_rule_technique_on_a_variant_the_generator_makes() -> None:
    names = resolve_target("rules", NONCONSECUTIVE, needs=False).names
    for g in generate(1, seed=2, variant="non-consecutive", uses="rules"):
        steps = logical_steps(g.puzzle, g.solution, unique=True)
        assert names & {step.technique for step in steps}


def test_low_rated_targets_dig_every_other_try() -> None:
    """Digging (generator/digging.py) is for ``needs`` targets of base rating up to 3.0, never
    for minimal puzzles nor for ``uses`` alone."""
    from sudokit.generator.digging import digs

    pair = resolve_target("Pair Relation", NONCONSECUTIVE, needs=True)
    assert digs([pair], minimal=False) and not digs([pair], minimal=True)
    assert not digs([resolve_target("Pair Relation", NONCONSECUTIVE, needs=False)], False)
    assert not digs([resolve_target("X-Wing", NINE, needs=True)], False)


@pytest.mark.parametrize("word", ["Pair Relation", "Pair Relation with Peers"])
def test_needs_a_pair_relation_without_a_givens_band(word) -> None:
    """A random non-consecutive puzzle (about 12 givens) needs a Rule Forcing Chain: none of
    400 grids needed a Pair Relation. Dug toward it, one of every two tries does; the claim is
    checked by ``sudokit.rate`` and the count, and the same seed gives the same puzzles."""
    made = list(generate(2, seed=5, variant="non-consecutive", needs=word, max_tries=40))
    for g in made:
        assert sudokit.rate(g.puzzle).hardest == word == g.hardest
        assert g.rating == sudokit.rate(g.puzzle).rating and not g.minimal
        assert g.givens == sum(1 for v in g.puzzle.givens if v)
        assert sudokit.count_solutions(g.puzzle, "sat", limit=2).count == 1
    again = generate(2, seed=5, variant="non-consecutive", needs=word, max_tries=40)
    assert [g.puzzle for g in again] == [g.puzzle for g in made]


def test_digging_keeps_the_givens_band_and_symmetry() -> None:
    from sudokit.generator.symmetry import is_symmetric

    for g in generate(2, seed=7, variant="non-consecutive", needs="Pair Relation",
                      givens="16-22", symmetry="rot180", max_tries=60):
        assert 16 <= g.givens <= 22 and sudokit.rate(g.puzzle).hardest == "Pair Relation"
        assert is_symmetric(g.puzzle.givens, "rot180", 9)


def test_a_stalled_puzzle_is_filled_toward_the_target() -> None:
    """A random diagonal puzzle needing more than an X-Wing (its cut solve stalls) gets givens
    of its solution added until the cut solve completes: with this order the result needs an
    X-Wing, as ``sudokit.rate`` says, and holds every given of the puzzle."""
    import numpy as np

    from sudokit.generator.digging import fill_toward, fills
    from sudokit.generator.techniques import judge

    target = resolve_target("X-Wing", DIAGONAL, needs=True)
    assert fills([target], minimal=False) and not fills([target], minimal=True)
    g = list(generate(15, seed=2, variant="diagonal"))[14]
    assert judge([target], g.puzzle, g.solution).stalled
    found = fill_toward([target], g.puzzle, g.solution, np.random.default_rng(10))
    assert found is not None and sudokit.rate(found.puzzle).hardest == "X-Wing"
    assert all(a == b for a, b in zip(g.puzzle.givens, found.puzzle.givens) if a)
    assert fill_toward([target], g.puzzle, g.solution, np.random.default_rng(10),
                       givens=(0, g.givens)) is None  # no room for one more given


def test_the_w_wing_finder_takes_the_steps_when_the_aics_are_left_out() -> None:
    """On the whole ladder the AIC finder (7.0) finds every W-Wing first and names it (above);
    the W-Wing finder (7.1) is what finds them in a solve with chosen techniques."""
    from sudokit.logic.state import Candidates
    from sudokit.run.chosen import chosen_steps, technique_choice

    [puzzle] = [r.puzzle for r in read_puzzles(
        DATA / "tdoku" / "puzzles3_magictour_top1465")][900:901]
    solution = sudokit.solve(puzzle).solution
    choice = technique_choice(exclude=["AIC", "Grouped AIC"])
    steps = []
    for step in chosen_steps(Candidates.from_puzzle(puzzle), choice, solution=solution,
                             kinds=frozenset({TechniqueKind.LOGIC, TechniqueKind.UNIQUENESS})):
        steps.append(step)
        if step.technique == "W-Wing":  # the finder's text, not a chain's
            assert step.rating == 7.1 and "strong link on" in step.text
            break
    else:
        pytest.fail("no W-Wing step")
    assert not {"AIC", "Grouped AIC"} & {s.technique for s in steps}


def test_max_tries_is_respected() -> None:
    with pytest.raises(GenerationError, match=r"needs Jellyfish in 3 tries"):
        next(generate(1, seed=1, needs="Jellyfish", max_tries=3))


def test_cli_needs() -> None:
    result = runner.invoke(app, ["generate", "--needs", "X-Wing", "--seed", "3", "-f",
                                 "jsonl", "-q"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["hardest"] == "X-Wing" and record["rater"] == "se"
    assert sudokit.rate(record["puzzle"]).hardest == "X-Wing"
    bad = runner.invoke(app, ["generate", "--needs", "Bogus-Wing"])  # main() prints it, exit 2
    assert isinstance(bad.exception, InvalidOption)
    assert "unknown technique 'Bogus-Wing'" in str(bad.exception)


def test_a_chain_of_w_wing_shape_is_named_w_wing_at_the_aic_rating() -> None:
    """The AIC finder (7.0) comes before the W-Wing finder (7.1) and finds every W-Wing: its
    chain of that shape is named W-Wing, so ``--needs W-Wing`` can be met; the rating is the
    six-node AIC's either way."""
    from sudokit.logic.chains.rating import chain_name, chain_rating, is_w_wing

    a, b, p, q = 1 << 0, 1 << 40, 1 << 4, 1 << 44  # r1c1, r5c5, r1c5, r5c9 as cell masks
    w = [(a, 6), (a, 2), (p, 2), (q, 2), (b, 2), (b, 6)]  # 7 in a or b: x = 3 linked
    assert is_w_wing(w) and chain_name(w) == "W-Wing"
    xy = [(a, 6), (a, 2), (p, 2), (p, 4), (b, 4), (b, 6)]  # strong links all in cells
    assert not is_w_wing(xy) and chain_name(xy) == "XY-Chain"
    assert chain_name([(a, 6), (a, 2), (p, 2), (q, 2), (b, 2), (b, 5)]) == "AIC"
    assert chain_rating("W-Wing", 6) == chain_rating("AIC", 6) == 7.1
    [puzzle] = [r.puzzle for r in read_puzzles(
        DATA / "tdoku" / "puzzles3_magictour_top1465")][900:901]
    solution = sudokit.solve(puzzle).solution
    steps = [s for s in logical_steps(puzzle, solution, unique=True) if s.technique == "W-Wing"]
    assert steps and all(s.rating == 7.1 and len(s.cells) == 4 for s in steps)


def test_short_and_long_x_chains_are_told_apart_by_rating() -> None:
    geometry = _geometry(None, None, "standard")
    short = resolve_target("X-Chain (short)", geometry, needs=True)
    long = resolve_target("x-chain", geometry, needs=True)
    assert short.names == long.names == {"X-Chain", "Grouped X-Chain"}
    assert short.meets("X-Chain", 5.4) and not short.meets("X-Chain", 6.2)
    assert long.meets("Grouped X-Chain", 6.2) and not long.meets("X-Chain", 5.7)
    chains = resolve_target("chains", geometry, needs=True)  # a family: every X-chain
    assert chains.meets("X-Chain", 5.4) and chains.meets("X-Chain", 6.6)
    assert not short.meets("AIC", 5.4)
