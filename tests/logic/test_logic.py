"""Human-style techniques: each one on a known position, every step verified, ratings.

Positions (tests/data/logic/positions.jsonl) are states reached while solving the puzzles of
tests/data (the SE-rated sample and Norvig's top95): the candidates, the solution, the finder
that applies there and the placements and eliminations it must give.
"""

from __future__ import annotations

import functools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit import Puzzle, explain, hint, rate
from sudokit.errors import InvalidPuzzle, SolverBug
from sudokit.logic import Candidates, techniques
from sudokit.logic.solve import Level, check_step, level_of, parse_marks
from sudokit.logic.state import Board
from sudokit.logic.step import Step, length_bonus
from sudokit.model.geometry import Geometry
from tests.helpers import DATA

POSITIONS = [json.loads(line) for line in (DATA / "logic/positions.jsonl").read_text().splitlines()]
FINDERS = {t.name: t for t in techniques()}
RATED = [(line.split()[1], float(line.split()[2])) for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]


def board_of(record: dict) -> Board:
    geometry = Geometry.for_cells(len(record["values"]))
    masks = [sum(1 << (d - 1) for d in marks) for marks in record["marks"]]
    return Board(geometry, masks, record["values"])


@pytest.mark.parametrize("record", POSITIONS, ids=[f"{r['finder']}:{r['technique']}"
                                                    for r in POSITIONS])
def test_technique_on_known_position(record: dict) -> None:
    step = FINDERS[record["finder"]].find(board_of(record))
    assert step is not None and step.technique == record["technique"]
    assert sorted(map(list, step.eliminations)) == sorted(record["eliminations"])
    assert sorted(map(list, step.placements)) == sorted(record["placements"])
    assert step.rating == record["rating"]
    check_step(step, record["solution"])  # never removes the solution's digit
    assert step.placements or step.eliminations


def test_every_technique_has_a_position() -> None:
    covered = {r["finder"] for r in POSITIONS}
    missing = set(FINDERS) - covered - {"Trial", "Naked Quad", "Jellyfish"}  # by hand below
    missing = {name for name in missing if not FINDERS[name].needs}  # test_logic_rules.py
    assert not missing, missing


def test_a_technique_finds_nothing_where_it_does_not_apply() -> None:
    full = Puzzle.from_digits(POSITIONS[0]["solution"])
    board = Candidates.from_puzzle(full).board()
    for finder in FINDERS.values():
        assert finder.find(board) is None, finder.name


def test_naked_pair_by_hand() -> None:
    """Row 1: r1c1 and r1c2 hold only {1,2}; 1 and 2 leave the rest of row 1 (and box 1)."""
    geometry = Geometry.of(3, 3)
    masks = [0x1FF] * 81
    masks[0] = masks[1] = 0b11
    step = FINDERS["Naked Pair"].find(Board(geometry, masks, [0] * 81))
    assert step is not None and step.technique == "Naked Pair"
    assert set(step.eliminations) == {(c, d) for c in (2, 3, 4, 5, 6, 7, 8) for d in (1, 2)}


def test_x_wing_by_hand() -> None:
    """5 in rows 1 and 4 only in columns 2 and 7: 5 leaves columns 2 and 7 elsewhere."""
    geometry = Geometry.of(3, 3)
    five = 1 << 4
    masks = [0x1FF] * 81
    for row in (0, 3):
        for col in range(9):
            if col not in (1, 6):
                masks[row * 9 + col] &= ~five
    step = FINDERS["X-Wing"].find(Board(geometry, masks, [0] * 81))
    assert step is not None and step.technique == "X-Wing"
    expected = {(r * 9 + c, 5) for r in range(9) if r not in (0, 3) for c in (1, 6)}
    assert set(step.eliminations) == expected


def test_check_step_catches_a_wrong_step() -> None:
    solution = POSITIONS[0]["solution"]
    with pytest.raises(SolverBug):
        check_step(Step("Bad", 1.0, "x", eliminations=((0, solution[0]),)), solution)
    with pytest.raises(SolverBug):
        check_step(Step("Bad", 1.0, "x", placements=((0, solution[0] % 9 + 1),)), solution)


def test_explain_solves_and_every_step_is_verified() -> None:
    grid, _se = RATED[2]
    steps = explain(grid)
    state = Candidates.from_puzzle(Puzzle.parse(grid))
    from sudokit.logic import apply_step

    for step in steps:
        apply_step(state, step)
    assert state.solved and state.contradiction() is None
    assert all(s.text and s.rating >= 1.0 for s in steps)


def test_singles_puzzles_rate_below_2_5() -> None:
    for line in (DATA / "norvig/sudoku-easy50.txt").read_text().split()[:5]:
        result = rate(line)
        assert result.rating < 2.5 and result.level is Level.EASY and not result.trial


@pytest.mark.parametrize("grid,se", RATED[2:6])
def test_rating_is_close_to_sudoku_explainer(grid: str, se: float) -> None:
    result = rate(grid)
    assert not result.trial and result.unique
    assert abs(result.rating - se) <= 1.5, (result, se)


@pytest.mark.slow
def test_agreement_with_sudoku_explainer_on_the_sample() -> None:
    """The 60 rated puzzles of tests/data: most ratings within 0.5 of Sukaku Explainer's."""
    diffs = [abs(round(rate(grid).rating - se, 1)) for grid, se in RATED]
    assert sum(d <= 0.5 for d in diffs) / len(diffs) >= 0.6
    assert sum(d == 0 for d in diffs) / len(diffs) >= 0.3


def test_rating_is_invariant_under_relabelling_and_transposition() -> None:
    grid, _se = RATED[4]
    digits = [int(c) for c in grid]
    base = rate(grid).rating
    rng = random.Random(3)
    perm = list(range(1, 10))
    rng.shuffle(perm)
    relabelled = [perm[d - 1] if d else 0 for d in digits]
    transposed = [digits[c * 9 + r] for r in range(9) for c in range(9)]
    assert rate(Puzzle.from_digits(relabelled)).rating == base
    assert rate(Puzzle.from_digits(transposed)).rating == base


def _hardest() -> str:
    hardest = (DATA / "tdoku/puzzles5_forum_hardest_1905_11+_first100").read_text().split()
    return next(line for line in hardest if not line.startswith("#"))


def test_trial_finishes_where_logic_ends() -> None:
    """Without Sudoku Explainer's producers (left out as for a puzzle of several solutions:
    their nested levels take a minute here), trial follows the ladder's forcing chains."""
    from sudokit.logic.solve import logical_steps

    from sudokit.run.explain import _solution

    puzzle = Puzzle.parse(_hardest())
    solution = list(_solution(puzzle)[0])
    steps = logical_steps(puzzle, solution, unique=False)
    assert any(s.technique == "Trial" for s in steps)
    assert steps[-1].placements


@pytest.mark.slow
def test_trial_finishes_where_nested_forcing_chains_end() -> None:
    steps = explain(_hardest(), time_limit=None)
    assert any(s.technique == "Trial" for s in steps)
    assert steps[-1].placements


def test_hint_with_pencil_marks() -> None:
    record = next(r for r in POSITIONS if r["finder"] == "Naked Pair")
    geometry = Geometry.of(3, 3)
    puzzle = Puzzle(geometry, tuple(record["values"]))
    step = hint(puzzle, record["marks"])
    assert step is not None and step.rating <= record["rating"]
    wrong = [list(m) for m in record["marks"]]
    cell = next(c for c, v in enumerate(record["values"]) if not v)
    wrong[cell] = [d for d in wrong[cell] if d != record["solution"][cell]] or [1]
    if record["solution"][cell] not in wrong[cell]:
        with pytest.raises(InvalidPuzzle, match="lack"):
            hint(puzzle, wrong)


def test_parse_marks_errors_are_located() -> None:
    geometry = Geometry.of(2, 2)
    assert parse_marks(" ".join(["12"] * 16), geometry)[0] == [1, 2]
    with pytest.raises(InvalidPuzzle, match="16 pencil-mark groups"):
        parse_marks("12 34", geometry)
    with pytest.raises(InvalidPuzzle, match="--marks:1:4:"):
        parse_marks("12 x " + " ".join(["1"] * 14), geometry)


def test_other_box_shapes() -> None:
    six = Puzzle.parse("1.....\n..3...\n....2.\n.5....\n...4..\n.....6", box="2x3")
    steps = explain(six)
    assert steps and all(s.rating > 0 for s in steps)


def test_levels_and_length_bonus() -> None:
    assert [length_bonus(n) for n in (4, 5, 6, 7, 8, 9, 12, 13)] == [0.0, 0.1, 0.1, 0.2, 0.2,
                                                                    0.3, 0.3, 0.4]
    assert level_of(1.2) is Level.EASY and level_of(9.0) is Level.EXTREME


def test_unsolvable_puzzle_is_refused() -> None:
    digits = [0] * 81
    digits[0] = digits[1] = 5
    with pytest.raises(InvalidPuzzle, match="no solution"):
        rate(Puzzle.from_digits(digits))


def test_naked_quad_by_hand() -> None:
    """r1c1-r1c4 hold {12}, {23}, {34}, {14}: 1-4 leave the rest of row 1."""
    geometry = Geometry.of(3, 3)
    masks = [0x1FF] * 81
    masks[0:4] = [0b0011, 0b0110, 0b1100, 0b1001]
    step = FINDERS["Naked Quad"].find(Board(geometry, masks, [0] * 81))
    assert step is not None and step.technique == "Naked Quad"
    assert set(step.eliminations) == {(c, d) for c in range(4, 9) for d in (1, 2, 3, 4)}


def test_jellyfish_by_hand() -> None:
    """5 in rows 1, 3, 5, 7 only in columns 1, 3, 5, 7 (a cycle of pairs): 5 leaves those
    columns in the other rows."""
    geometry = Geometry.of(3, 3)
    five = 1 << 4
    masks = [0x1FF] * 81
    allowed = {0: (0, 2), 2: (2, 4), 4: (4, 6), 6: (6, 0)}
    for row, cols in allowed.items():
        for col in range(9):
            if col not in cols:
                masks[row * 9 + col] &= ~five
    step = FINDERS["Jellyfish"].find(Board(geometry, masks, [0] * 81))
    assert step is not None and step.technique == "Jellyfish"
    expected = {(r * 9 + c, 5) for r in range(9) if r not in allowed for c in (0, 2, 4, 6)}
    assert set(step.eliminations) == expected


def test_logic_method_counts_techniques_and_branches_only_where_logic_ends() -> None:
    from sudokit import solve

    grid, _se = RATED[0]
    basic = solve(grid, "logic")
    assert basic.stats.extra.get("Hidden Single", 0) > 0
    full = solve(grid, "logic", level="all")
    assert full.solution == basic.solution and full.stats.nodes == 0
    singles = solve(grid, "logic", level="singles")
    assert singles.solution == basic.solution and singles.stats.nodes > 0
    assert set(singles.stats.extra) <= {"Full House", "Hidden Single", "Naked Single"}


@settings(max_examples=6, deadline=None, derandomize=True)
@given(mapping=st.permutations(range(1, 10)), bands=st.permutations(range(3)),
       stacks=st.permutations(range(3)), flip=st.booleans())
def test_rating_is_invariant_under_symmetries(mapping: list[int], bands: list[int],
                                              stacks: list[int], flip: bool) -> None:
    """Relabelling, transposition and band/stack permutations keep the rating."""
    from sudokit.model.transform import permute_bands, permute_stacks, relabel, transpose

    geometry = Geometry.of(3, 3)
    grid, _se = RATED[2]
    digits = tuple(int(c) for c in grid)
    moved = relabel(digits, mapping)
    if flip:
        moved = transpose(moved, geometry)[0]
    moved = permute_stacks(permute_bands(moved, geometry, bands), geometry, stacks)
    assert rate(Puzzle.from_digits(moved)).rating == _rating_of(grid)


@functools.cache
def _rating_of(grid: str) -> float:
    return rate(grid).rating


def test_several_solutions_use_no_uniqueness_technique_and_finish_by_trial() -> None:
    path = DATA / "invalid/sudopedia_cp468/multiple_solutions/two_solutions.txt"
    puzzle = Puzzle.parse(path.read_text())
    steps = explain(puzzle)
    assert not {"Unique Rectangle", "BUG+1"} & {s.technique for s in steps}
    result = rate(puzzle)
    assert result.trial and not result.unique and result.hardest == "Trial"
    state = Candidates.from_puzzle(puzzle)
    from sudokit import is_solution
    from sudokit.logic import apply_step

    for step in steps:
        apply_step(state, step)
    assert is_solution(state.grid(), puzzle)


def test_levels_of_the_logic_method_match_the_readme() -> None:
    """``-m logic level=basic`` stops at 5.4 (XY/XYZ-Wings, four-node patterns, short
    X-chains); the W-Wing (7.1) is in ``chains``; forcing chains only in ``all``."""
    from sudokit.logic.registry import TechniqueKind
    from sudokit.solvers.logic import _LEVELS

    def names(level: str) -> set[str]:
        return {t.name for t in techniques(frozenset({TechniqueKind.LOGIC}), _LEVELS[level])}

    assert {"XY-Wing", "XYZ-Wing", "Turbot Fish", "Empty Rectangle", "X-Chain (short)",
            "Jellyfish", "Hidden Quad"} <= names("basic")
    assert not {"W-Wing", "WXYZ-Wing", "AIC"} & names("basic")
    assert {"W-Wing", "WXYZ-Wing", "AIC", "ALS-XZ", "X-Chain"} <= names("chains")
    assert "Digit Forcing Chain" not in names("chains") and "Digit Forcing Chain" in names("all")
    assert names("singles") == {"Full House", "Hidden Single (box)", "Hidden Single (line)",
                                "Naked Single"}
