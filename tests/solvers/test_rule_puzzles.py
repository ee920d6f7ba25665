"""Real published puzzles with drawn rules (tests/data/rules, see tests/data/SOURCES.md) by the
SAT methods and CP-SAT: each solved, equal to its published solution and proved unique.

``sat`` and ``cpsat`` take every puzzle; our DPLL (no clause learning) those it finishes in about
a second (measured: arrow, pill arrow, X-sum, region-sum and zipper puzzles take it from 20 s to
over a minute, renban and quadruple 5 s, so they are left to ``sat``)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from sudokit.formats import read_puzzles
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.model.puzzle import Puzzle
from sudokit.run.doors import count_solutions

RULES = Path(__file__).parents[1] / "data" / "rules"
METHODS = ["sat"] + (["cpsat"] if importlib.util.find_spec("ortools") else [])
DPLL_FILES = {"sigh_between_lines.json", "sigh_double_arrow.json", "sigh_german_whispers.json",
              "sigh_indexing.json", "sigh_international_whispers.json",
              "sigh_lockout_lines.json", "sigh_modular_lines.json", "sigh_palindromes.json",
              "sigh_skyscraper.json", "sigh_thermosudoku.json", "sigh_xv_kropki.json"}


def _records() -> list[tuple[str, Puzzle, tuple[int, ...]]]:
    """(name, puzzle, published solution): the f-puzzles files of sigh's examples, and the
    entries of SudokuVariantSolverJS's CI list (compressed f-puzzles data and a solution)."""
    out = [(r.source, r.puzzle, r.expected) for path in sorted(RULES.glob("sigh_*.json"))
           for r in read_puzzles(path)]
    for item in json.loads((RULES / "variant_solver_js_ci.json").read_text()):
        puzzle = fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0])
        out.append((item["title"], puzzle, tuple(map(int, item["solution"]))))
    return out


RECORDS = _records()


def test_the_real_puzzles_are_there() -> None:
    assert len(RECORDS) >= 20
    assert all(puzzle.geometry.features and solution for _, puzzle, solution in RECORDS)


def _cases() -> list:
    return [pytest.param(puzzle, solution, method, id=f"{Path(name).name}-{method}")
            for name, puzzle, solution in RECORDS for method in METHODS
            + (["dpll"] if Path(name).name in DPLL_FILES else [])]


@pytest.mark.parametrize(("puzzle", "solution", "method"), _cases())
def test_solved_equal_to_the_published_solution_and_unique(puzzle: Puzzle, solution: tuple,
                                                            method: str) -> None:
    found = count_solutions(puzzle, method, limit=2, time_limit=120)
    assert found.status.name == "SOLVED", found.status
    assert found.solutions == (solution,)


def test_dpll_files_exist() -> None:
    assert DPLL_FILES <= {Path(name).name for name, _, _ in RECORDS}
