"""The package's Python face: what ``help``, ``dir``, ``print`` and the top names give a newcomer."""

from __future__ import annotations

import inspect
import pydoc

import numpy as np
import pytest

import sudokit
from sudokit.errors import InvalidOption
from sudokit.logic.step import Step
from tests.helpers import DATA

UNIQUE_4X4 = "..3..4.221......"
SOLUTION_4X4 = "1234341221434321"


def test_help_opens_with_a_quick_start() -> None:
    text = pydoc.render_doc(sudokit, renderer=pydoc.plaintext)
    description = text[text.index("DESCRIPTION"):]
    head = description.splitlines()[:5]
    assert any("Quick start" in line for line in head), head
    assert "sudokit.solve(" in description[:600]


def test_dir_lists_only_public_names() -> None:
    sudokit.solve  # noqa: B018  (a name touched is bound in the module's globals)
    names = dir(sudokit)
    assert names == sorted([*sudokit.__all__, "__version__"])
    for helper in ("Any", "sys", "types", "importlib", "annotations", "TYPE_CHECKING"):
        assert helper not in names


def test_every_public_function_says_what_it_returns() -> None:
    functions = [name for name in sudokit.__all__
                 if inspect.isfunction(getattr(sudokit, name))]
    assert "solve" in functions and "generate" in functions
    missing = [name for name in functions
               if "Returns:" not in (inspect.getdoc(getattr(sudokit, name)) or "")]
    assert not missing, f"public functions without a Returns section: {missing}"


def test_a_step_prints_as_the_command_line_prints_it() -> None:
    step = Step("Hidden Single", 1.2, "r2c6 is the only place for 9 in box 2",
                placements=((14, 9),), cells=(14,), digits=(9,))
    assert str(step) == "[1.2] Hidden Single: r2c6 is the only place for 9 in box 2"
    assert repr(step).startswith("Step(technique='Hidden Single', rating=1.2, text=")
    assert "placements=((14, 9),)" in repr(step)


def test_the_steps_of_explain_print_with_their_rating() -> None:
    steps = sudokit.explain(UNIQUE_4X4)
    assert steps and all(str(s) == f"[{s.rating:.1f}] {s.technique}: {s.text}" for s in steps)
    first = steps[0]
    for cell, digit in first.placements:  # 0-based flat cells, labelled 1-based in the text
        row, column = divmod(cell, 4)
        assert f"r{row + 1}c{column + 1}" in first.text


def test_a_result_gives_its_solution_as_text() -> None:
    result = sudokit.solve(UNIQUE_4X4, "propagate")
    assert result.solution_text() == SOLUTION_4X4
    assert result.solution_text("grid") == "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1"
    assert sudokit.Puzzle.parse(result.solution_text("grid")).line == SOLUTION_4X4
    with pytest.raises(InvalidOption, match="expected 'line' or 'grid'"):
        result.solution_text("svg")
    clash = sudokit.solve("11..............", "propagate")
    assert clash.status is sudokit.Status.UNSATISFIABLE and clash.solution_text() is None


def test_a_16x16_solution_text_uses_letters() -> None:
    puzzle = (DATA / "large" / "bnguyen_16x16.txt").read_text()
    text = sudokit.solve(puzzle, "fast").solution_text()
    assert len(text) == 256 and set(text) == set("123456789ABCDEFG")


@pytest.mark.parametrize("shape", [(16,), (1, 16), (1, 4, 4)])
def test_solve_array_takes_one_puzzle_rows_or_grids(shape: tuple[int, ...]) -> None:
    givens = np.array([int(c) if c != "." else 0 for c in UNIQUE_4X4]).reshape(shape)
    out = sudokit.solve_array(givens, count_limit=2)
    assert out.solutions.shape == (1, 2, 16)
    assert out.status.tolist() == [sudokit.Status.SOLVED]
    assert "".join(map(str, out.solutions[0, 0])) == SOLUTION_4X4


def test_solve_array_grids_keep_their_order() -> None:
    grids = np.zeros((3, 4, 4), np.int64)
    grids[1, 0, 0] = 2
    grids[2, 3, 3] = 3
    out = sudokit.solve_array(grids)
    assert out.solutions.shape == (3, 1, 16)
    assert out.solutions[1, 0, 0] == 2 and out.solutions[2, 0, 15] == 3


@pytest.mark.parametrize("shape", [(), (2, 4, 8), (1, 1, 4, 4)])
def test_solve_array_names_the_shapes_it_takes(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"\[M, N\*N\], \[M, N, N\] or \[N\*N\]"):
        sudokit.solve_array(np.zeros(shape, np.int64))


def test_the_magic_api_is_reachable_and_returns_arrays() -> None:
    found = sudokit.solve_magic(3)
    assert found.problem == sudokit.MagicProblem(3)
    built = sudokit.construct_magic(5)
    for square, n in ((found.square, 3), (built, 5)):
        assert isinstance(square, np.ndarray) and square.shape == (n, n)
        assert square.dtype == np.int64
        assert (square.sum(axis=0) == n * (n * n + 1) // 2).all()
    assert found.square.tolist() == [[2, 9, 4], [7, 5, 3], [6, 1, 8]]
    assert sudokit.count_magic(3).count == 8
    assert sudokit.solve_magic(sudokit.MagicProblem(2)).square is None
    with pytest.raises(InvalidOption):
        sudokit.construct_magic(2)
