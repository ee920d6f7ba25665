"""Real published puzzles with drawn rules (tests/data/rules, see tests/data/SOURCES.md) by the
SAT methods and CP-SAT: each solved, equal to its published solution and proved unique."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sudokit.formats import read_puzzles
from sudokit.run.doors import count_solutions

RULES = Path(__file__).parents[1] / "data" / "rules"
METHODS = ["sat", "dpll"] + (["cpsat"] if importlib.util.find_spec("ortools") else [])


def _records() -> list:
    files = sorted(p for p in RULES.rglob("*") if p.is_file() and p.suffix != ".md")
    return [r for path in files for r in read_puzzles(path)]


RECORDS = _records() if RULES.is_dir() else []


def test_the_real_puzzles_are_there() -> None:
    assert RECORDS, f"no puzzles in {RULES}"
    assert all(r.puzzle is not None and r.expected is not None for r in RECORDS)
    assert all(r.puzzle.constraints for r in RECORDS)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{Path(r.source).name}:{r.line}")
def test_solved_equal_to_the_published_solution_and_unique(record: object, method: str) -> None:
    found = count_solutions(record.puzzle, method, limit=2, time_limit=120)
    assert found.status.name == "SOLVED", found.status
    assert found.solutions == (tuple(record.expected),)
