"""Empty 36x36 grids in ``hint --trial`` and ``explain`` (issue 43, item 11): the trial's
depth-first search recursed once per choice, past Python's recursion limit (a RecursionError
traceback); it now keeps its own stack."""

from __future__ import annotations

from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.logic.chains.dynamic import search_solution
from sudokit.logic.state import Candidates
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution

EMPTY_36 = "." * 36 * 36


def test_trial_search_completes_an_empty_36x36_grid() -> None:
    puzzle = Puzzle(Geometry.for_side(36), (0,) * 1296)
    found = search_solution(Candidates.from_puzzle(puzzle).board())
    assert found is not None and is_solution(tuple(found), puzzle)


def test_hint_trial_and_explain_on_an_empty_36x36_grid(tmp_path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text(EMPTY_36 + "\n")
    hint = CliRunner().invoke(app, ["hint", str(path), "--trial"])
    assert hint.exception is None or isinstance(hint.exception, SystemExit), hint.exception
    assert "Trial" in hint.stdout
    explain = CliRunner().invoke(app, ["explain", str(path), "--time-limit", "2"])
    assert not isinstance(explain.exception, RecursionError)
