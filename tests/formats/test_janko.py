"""Janko's variant puzzles end to end: every puzzle of ``tests/data/janko`` (2-3 per type:
16x16, jigsaw, killer, even-odd and the overlapping layouts samurai, butterfly, sumo, windmill,
gattai-8, shogun, sohei, clueless-1, clueless-2) is read, solved with the default method and equal
to its published solution file; ``sudokit solve`` writes it back in Janko's form. The same check
over all of ``../shared/data/janko`` is marked ``shared_data``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.formats.janko import format_janko
from sudokit.formats.text import read_puzzles
from sudokit.model.result import Status
from sudokit.run import doors as api
from tests.helpers import DATA, shared

SAMPLES = sorted((DATA / "janko").glob("*/problems/*.txt"))
FEATURES = {"16x16Sudoku": frozenset(), "JigsawSudoku": {"jigsaw"}, "KillerSudoku": {"killer"},
            "EvenOddSudoku": {"even-odd"}}


def solution_text(problem: Path) -> str:
    """The published solution, tokens normalised (``.`` outside the grids is ``-``)."""
    text = (problem.parent.parent / "solutions" / problem.name).read_text()
    return " ".join(text.replace(".", "-").split())


DIAGONAL_KILLERS = frozenset({"196_9x9.txt", "198_9x9.txt"})
"""Puzzles of ``janko/KillerSudoku`` that are Killer-X puzzles: their published solutions keep
both main diagonals, and under plain killer rules they have two or more solutions (checked
below); nothing in the file says so, so they are read as ``killer+diagonal``."""


def check(problem: Path, variant: str = "standard") -> None:
    records = list(read_puzzles(problem, variant=variant))
    assert len(records) == 1 and records[0].error is None, records[0].error
    puzzle = records[0].puzzle
    folder = problem.parent.parent.name
    extra = {"diagonal"} if variant != "standard" else set()
    assert puzzle.geometry.features == set(FEATURES.get(folder, {"multi-grid"})) | extra
    result = api.solve(puzzle)
    assert result.status is Status.SOLVED, (problem, result.status)
    expected = solution_text(problem)
    if expected.split()[2:]:  # two files of the full set publish an empty solution
        assert " ".join(format_janko(result.solution, puzzle.geometry).split()) == expected


def test_samples_cover_every_type() -> None:
    folders = {p.parent.parent.name for p in SAMPLES}
    assert len(folders) == 13 and len(SAMPLES) >= 26


@pytest.mark.parametrize("problem", SAMPLES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_sample_solves_to_its_published_solution(problem: Path) -> None:
    check(problem)


@pytest.mark.parametrize("folder", ["SamuraiSudoku", "KillerSudoku", "JigsawSudoku"])
def test_solve_writes_janko_form_back(folder: str) -> None:
    problem = min((DATA / "janko" / folder / "problems").glob("*.txt"))
    result = CliRunner().invoke(app, ["solve", str(problem)])
    assert result.exit_code == 0, result.output
    assert " ".join(result.stdout.split()) == solution_text(problem)


def test_layout_named_on_the_command_line_wins_over_the_folder(tmp_path: Path) -> None:
    """Outside its folder a 21x21 file needs the layout's name; the wrong name gives another
    puzzle (sohei covers other cells: givens where no grid is are an error)."""
    problem = DATA / "janko" / "SamuraiSudoku" / "problems" / "2_21x21.txt"
    copy = tmp_path / "puzzle.txt"
    copy.write_text(problem.read_text())
    runner = CliRunner()
    unnamed = runner.invoke(app, ["solve", str(copy)])
    assert unnamed.exit_code == 1
    assert "21x21 canvas is samurai or windmill or sohei" in unnamed.output
    named = runner.invoke(app, ["solve", str(copy), "--variant", "samurai"])
    assert named.exit_code == 0
    assert " ".join(named.stdout.split()) == solution_text(problem)
    wrong = runner.invoke(app, ["solve", str(copy), "--variant", "sohei"])
    assert wrong.exit_code == 1 and "where no grid is" in wrong.output


@pytest.mark.shared_data
def test_every_shared_janko_puzzle_solves_to_its_published_solution() -> None:
    problems = sorted(shared("janko").glob("*/problems/*.txt"))
    assert len(problems) >= 785  # the count of janko/SOURCES.md
    for problem in problems:
        x = problem.parent.parent.name == "KillerSudoku" and problem.name in DIAGONAL_KILLERS
        check(problem, "killer+diagonal" if x else "standard")


@pytest.mark.shared_data
@pytest.mark.parametrize("name", sorted(DIAGONAL_KILLERS))
def test_diagonal_killers_need_the_diagonals(name: str) -> None:
    puzzle = next(read_puzzles(shared("janko") / "KillerSudoku" / "problems" / name)).puzzle
    assert api.count_solutions(puzzle, limit=2).count == 2
