"""The technique engine on variants: the features it declares (extra units, jigsaw regions,
chess-move peers, extra regions, parity marks) are solved with every step verified; the others are refused; uniqueness
techniques only where a deadly pattern really is one."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit import Geometry, Puzzle, explain, is_solution, rate, solve
from sudokit.errors import UnsupportedPuzzle
from sudokit.formats.text import read_puzzles
from sudokit.logic.techniques.uniqueness import _shapes

JANKO = Path(__file__).parents[1] / "data/janko"


@pytest.mark.parametrize("path", sorted((JANKO / "JigsawSudoku/problems").glob("*.txt")),
                         ids=lambda p: p.name)
def test_jigsaw_puzzles_are_explained_and_solved(path: Path) -> None:
    puzzle = next(iter(read_puzzles(path))).puzzle
    steps = explain(puzzle)  # every step is verified against the solution as it is applied
    assert steps and rate(puzzle).rating >= 1.0
    result = solve(puzzle, "logic")
    assert result.status.name == "SOLVED" and is_solution(result.solution, puzzle)
    expected = (JANKO / "JigsawSudoku/solutions" / path.name).read_text().split()[2:]
    assert [str(d) for d in result.solution] == expected


@pytest.mark.parametrize("rule", ["hyper", "disjoint", "anti-knight", "anti-king",
                                  "diagonal+hyper"])
def test_whole_grid_rules_are_solved_step_by_step(rule: str) -> None:
    geometry = Geometry.of(3, 3, rule)
    grid = solve(Puzzle(geometry, (0,) * 81), "fast").solution
    givens = tuple(d if (cell * 7) % 3 else 0 for cell, d in enumerate(grid))  # 54 givens
    puzzle = Puzzle(geometry, givens)
    explain(puzzle)
    result = solve(puzzle, "logic")
    assert result.status.name == "SOLVED" and is_solution(result.solution, puzzle)


@pytest.mark.parametrize("path", sorted((JANKO / "EvenOddSudoku/problems").glob("*.txt")),
                         ids=lambda p: p.name)
def test_even_odd_puzzles_are_explained_and_solved(path: Path) -> None:
    puzzle = next(iter(read_puzzles(path))).puzzle  # parity marks: the cells' first candidates
    assert explain(puzzle)  # every step is verified against the solution as it is applied
    result = solve(puzzle, "logic")
    assert result.status.name == "SOLVED" and is_solution(result.solution, puzzle)
    expected = (JANKO / "EvenOddSudoku/solutions" / path.name).read_text().split()[2:]
    assert [str(d) for d in result.solution] == expected


def test_extra_regions_are_units_or_peers() -> None:
    geometry = Geometry.of(3, 3, extra_regions=[tuple(range(0, 81, 10)), (1, 11)])  # N cells, 2
    grid = solve(Puzzle(geometry, (0,) * 81), "fast").solution
    puzzle = Puzzle(geometry, tuple(d if (cell * 7) % 3 else 0 for cell, d in enumerate(grid)))
    explain(puzzle)
    result = solve(puzzle, "logic")
    assert result.status.name == "SOLVED" and is_solution(result.solution, puzzle)


@pytest.mark.parametrize("path", ["SamuraiSudoku"])
def test_other_features_are_refused(path: str) -> None:
    puzzle = next(iter(read_puzzles(next((JANKO / path / "problems").glob("*.txt"))))).puzzle
    with pytest.raises(UnsupportedPuzzle, match="technique engine does not handle"):
        explain(puzzle)
    with pytest.raises(UnsupportedPuzzle):
        solve(puzzle, "logic")


def test_unique_rectangles_only_where_a_swap_keeps_every_unit() -> None:
    standard = _shapes(Geometry.of(3, 3))
    diagonal = _shapes(Geometry.of(3, 3, "diagonal"))
    assert set(diagonal) < set(standard)
    d1, d2 = (frozenset(u) for u in Geometry.of(3, 3, "diagonal").extra_units)
    assert all(len(d1.intersection(s)) in (0, 2) and len(d2.intersection(s)) in (0, 2)
               for s in diagonal)
    assert _shapes(Geometry.of(3, 3, "anti-knight")) == ()
