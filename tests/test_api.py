"""The front door and the registry: names, options, verification, limits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sudokit import Puzzle, Status, count_solutions, get_solver, methods, solutions, solve
from sudokit.errors import InvalidOption, SolverBug, UnknownMethod
from sudokit.registry import _SOLVERS, register
from sudokit.result import Limits, Stats
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


def test_counting_and_lazy_solutions() -> None:
    empty4 = Puzzle.from_digits([0] * 16)
    result = count_solutions(empty4, None, "propagate")
    assert result.status is Status.SOLVED and result.count == 288  # all 4x4 Sudoku grids
    assert len(set(result.solutions)) == 288
    assert len(list(solutions(empty4, "propagate"))) == 288
    first = solve(empty4, "propagate")
    assert first.count == 1 and first.unique is None and first.label == "solved"


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
