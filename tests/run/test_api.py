"""The front door and the registry: names, options, verification, limits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sudokit import Puzzle, Status, count_solutions, get_solver, methods, solutions, solve
from sudokit.errors import InvalidOption, SolverBug, UnknownMethod
from sudokit.model.result import Limits, Stats
from sudokit.registry import _SOLVERS, register
from sudokit.solvers.base import Solver

FOUR = Puzzle.from_digits([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])


def test_unknown_method_lists_choices() -> None:
    with pytest.raises(UnknownMethod, match="propagate"):
        solve(FOUR, "no-such-method")


def test_bad_option_and_backend() -> None:
    with pytest.raises(InvalidOption, match="no option"):
        get_solver("propagate", colour="red")
    with pytest.raises(InvalidOption, match="choose one of"):
        get_solver("propagate", naked_twins="maybe")
    with pytest.raises(InvalidOption, match="takes no backend"):
        get_solver("propagate:x")


def test_methods_lists_propagate() -> None:
    info = {m.name: m for m in methods()}
    assert info["propagate"].available and info["propagate"].summary


@pytest.fixture
def liar() -> Iterator[str]:
    @register
    class Liar(Solver):
        name = "test-liar"
        summary = "returns a wrong grid"

        def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator:
            yield (1,) * puzzle.geometry.n_cells

    yield Liar.name
    del _SOLVERS[Liar.name]


def test_wrong_grid_raises_solver_bug(liar: str) -> None:
    with pytest.raises(SolverBug, match="test-liar"):
        solve(FOUR, liar)
    with pytest.raises(SolverBug):
        list(solutions(FOUR, liar))


def test_wrong_grid_raises_solver_bug_with_the_compiled_check(liar: str) -> None:
    """Once the compiled engine is loaded the one-puzzle doors check grids in compiled code;
    a wrong grid is still refused, with the reference check's words."""
    import sudokit.fast  # noqa: F401

    with pytest.raises(SolverBug, match="test-liar.*(holds|changes|missing|twice)"):
        solve(FOUR, liar)
    assert solve(FOUR, "fast").status is Status.SOLVED


def test_counting_and_lazy_solutions() -> None:
    empty4 = Puzzle.from_digits([0] * 16)
    result = count_solutions(empty4, "propagate", limit=None)
    assert result.status is Status.SOLVED and result.count == 288  # all 4x4 Sudoku grids
    assert len(set(result.solutions)) == 288
    assert len(list(solutions(empty4, "propagate"))) == 288
    first = solve(empty4, "propagate")
    assert first.count == 1 and first.unique is None and first.label is Status.SOLVED


def test_stats_declared_counters_only() -> None:
    result = solve(FOUR, "propagate")
    data = result.stats.as_dict()
    assert data["nodes"] == 0 and data["revisions"] is None
    assert result.seconds >= 0 and result.method == "propagate"


def test_missing_optional_dependency_gives_install_hint() -> None:
    from sudokit.errors import MethodUnavailable

    @register
    class NeedsMissing(Solver):
        name = "test-needs-missing"
        summary = "needs a module that is not installed"
        requires = ("sudokit_no_such_module",)
        install = "sudokit-no-such-package"

        def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator:
            yield from ()

    try:
        with pytest.raises(MethodUnavailable, match="pip install sudokit-no-such-package"):
            get_solver("test-needs-missing")
        assert not {m.name: m for m in methods()}["test-needs-missing"].available
    finally:
        del _SOLVERS[NeedsMissing.name]


# --- what the front door takes as a puzzle (issue 12.2) ------------------------------------

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_front_door_takes_text_digits_arrays_and_puzzles() -> None:
    import numpy as np

    puzzle = Puzzle.parse(TOP1)
    digits = [0 if ch == "." else int(ch) for ch in TOP1]
    forms = [TOP1, "\n".join(TOP1[i:i + 9] for i in range(0, 81, 9)), digits, tuple(digits),
             np.array(digits, np.uint8), np.array(digits).reshape(9, 9),
             [digits[i:i + 9] for i in range(0, 81, 9)], puzzle]
    for form in forms:
        result = solve(form, "propagate")
        assert result.status is Status.SOLVED and result.puzzle == puzzle, type(form)
    assert count_solutions(TOP1, "propagate").unique is True
    assert count_solutions(TOP1, "propagate", limit=1).count == 1
    assert next(solutions(digits, "propagate")) == solve(TOP1, "propagate").solution
    assert Puzzle.coerce(puzzle) is puzzle


def test_front_door_rejects_what_is_not_a_puzzle() -> None:
    import numpy as np

    from sudokit.errors import InvalidPuzzle

    with pytest.raises(InvalidPuzzle, match=r"<string>:1:3: r1c3: expected a digit symbol"):
        solve("12?4" * 4)
    with pytest.raises(InvalidPuzzle, match="expected integer digits"):
        solve(np.full(16, 0.5))
    with pytest.raises(InvalidPuzzle, match="got shape"):
        solve(np.zeros((4, 2), int))
    with pytest.raises(InvalidPuzzle, match="expected a square number of cells|cells"):
        solve([0] * 15)
    with pytest.raises(TypeError, match="got NoneType"):
        solve(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got bytes"):
        list(solutions(b"1234", "propagate"))  # type: ignore[arg-type]


# --- how puzzles and results show (issue 12.3) ---------------------------------------------

def test_puzzle_shows_as_a_grid_and_line_is_the_line_form() -> None:
    puzzle = Puzzle.parse(TOP1, source="top.txt")
    assert puzzle.line == TOP1 == puzzle.to_line() and puzzle.to_line("0")[1] == "0"
    text = str(puzzle)
    assert text.splitlines()[0] == "4 . . | . . . | 8 . 5" and "------+-------+------" in text
    assert Puzzle.parse(text) == puzzle  # the drawing reads back
    assert repr(puzzle).startswith("<Puzzle 9x9 (3x3 boxes), 17 givens from top.txt:1: 4....")
    html = puzzle._repr_html_()  # the SVG board: one group per cell, givens marked
    assert html.count('data-cell=') == 81 and html.count("sk-cell sk-given") == 17
    assert puzzle.source_line == 1


def test_result_shows_outcome_and_grids() -> None:
    result = solve(TOP1, "propagate")
    text = str(result)
    first, grid = text.splitlines()[0], text.splitlines()[1]
    assert first.startswith("solved by propagate in ") and "nodes" in first
    assert grid.startswith("4 . . | . . . | 8 . 5    4 1 7 | 3 6 9 | 8 2 5")
    assert repr(result).startswith("<Result solved by propagate")
    html = result._repr_html_()
    assert html.count('data-cell=') == 81 and html.count('class="sk-digit"') == 81
    unsat = solve("11" + TOP1[2:], "propagate")
    assert str(unsat).startswith("unsolvable (digit 1 is given twice in row 1")


def test_ipython_pretty_printing_uses_the_grid() -> None:
    class Printer:
        def __init__(self) -> None:
            self.out = ""

        def text(self, value: str) -> None:
            self.out += value

    printer = Printer()
    Puzzle.parse(TOP1)._repr_pretty_(printer, cycle=False)
    assert printer.out == str(Puzzle.parse(TOP1))
    printer = Printer()
    solve(TOP1, "propagate")._repr_pretty_(printer, cycle=False)
    assert printer.out.startswith("solved by propagate")


def test_compiled_and_numpy_solution_checks_agree() -> None:
    """The array path checks grids in compiled code once the engine is loaded
    (sudokit.fast.verify); it must agree with the NumPy check on good and broken grids."""
    import numpy as np

    from sudokit.fast.verify import solves as compiled
    from sudokit.model.geometry import Geometry
    from sudokit.model.puzzle import solves

    rng = np.random.default_rng(7)
    for box in ((1, 1), (2, 3), (3, 3), (4, 4), (8, 8)):
        g = Geometry.of(*box)
        n = g.side
        rows = np.array([[(r // box[0] + (r % box[0]) * box[1] + c) % n + 1 for c in range(n)]
                         for r in range(n)], np.uint8).reshape(-1)  # a valid grid (pattern)
        grids = np.repeat(rows[None], 40, axis=0)
        givens = np.where(rng.random(grids.shape) < 0.3, grids, 0).astype(np.uint8)
        for i in range(1, 40, 2):  # break every other one in turn: a cell, a given, a swap
            cell = int(rng.integers(g.n_cells))
            if i % 3 == 0:
                grids[i, cell] = grids[i, cell] % n + 1 if n > 1 else 0
            elif i % 3 == 1:
                givens[i, cell] = grids[i, cell] % n + 1 if n > 1 else 2
            else:
                grids[i, cell] = 0
        assert np.array_equal(compiled(grids, givens, g), solves(grids, givens, g)), box
        assert solves(grids, givens, g)[::2].all()
