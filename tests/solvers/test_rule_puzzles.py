"""Real published puzzles with drawn rules (tests/data/rules, see tests/data/SOURCES.md) by the
SAT methods and CP-SAT: each solved, equal to its published solution and proved unique.

``sat`` and ``cpsat`` take every puzzle; our DPLL (no clause learning) those it finishes in about
a second (measured: arrow, pill arrow, X-sum, region-sum and zipper puzzles take it from 20 s to
over a minute, renban and quadruple 5 s, so they are left to ``sat``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sudokit.formats import read_puzzles
from sudokit.run.doors import count_solutions

RULES = Path(__file__).parents[1] / "data" / "rules"
METHODS = ["sat"] + (["cpsat"] if importlib.util.find_spec("ortools") else [])
DPLL_FILES = {"sigh_between_lines.json", "sigh_double_arrow.json", "sigh_german_whispers.json",
              "sigh_indexing.json", "sigh_international_whispers.json",
              "sigh_lockout_lines.json", "sigh_modular_lines.json", "sigh_palindromes.json",
              "sigh_skyscraper.json", "sigh_thermosudoku.json", "sigh_xv_kropki.json"}


def _records() -> list:
    files = sorted(p for p in RULES.rglob("*") if p.is_file() and p.suffix != ".md")
    return [r for path in files for r in read_puzzles(path)]


RECORDS = _records() if RULES.is_dir() else []


def test_the_real_puzzles_are_there() -> None:
    assert RECORDS, f"no puzzles in {RULES}"
    assert all(r.puzzle is not None and r.expected is not None for r in RECORDS)
    assert all(r.puzzle.constraints for r in RECORDS)


def _cases() -> list:
    return [pytest.param(record, method, id=f"{Path(record.source).name}:{record.line}-{method}")
            for record in RECORDS for method in METHODS
            + (["dpll"] if Path(record.source).name in DPLL_FILES else [])]


@pytest.mark.parametrize(("record", "method"), _cases())
def test_solved_equal_to_the_published_solution_and_unique(record: object, method: str) -> None:
    found = count_solutions(record.puzzle, method, limit=2, time_limit=120)
    assert found.status.name == "SOLVED", found.status
    assert found.solutions == (tuple(record.expected),)


def test_dpll_files_exist() -> None:
    assert DPLL_FILES <= {Path(r.source).name for r in RECORDS}
