"""The errors' home (sudokit.errors): every public exception class is there, and the command
line ends with each one's own exit code (a SolverBug is not a usage error)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sudokit import errors
from sudokit.cli._app import main
from sudokit.solvers.propagate import PropagateSolver

PACKAGE = Path(errors.__file__).parent


def test_every_public_exception_class_is_in_errors() -> None:
    """No module but errors.py defines a public class deriving from SudokuError (private
    control-flow signals, named with a leading underscore, may stay where they are raised)."""
    names = {n for n in errors.__all__ if isinstance(getattr(errors, n), type)}
    outside = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if bases & names:
                    outside.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert not outside, outside


def test_exit_codes_are_distinct() -> None:
    assert errors.SudokuError.exit_code == errors.USAGE == 2
    assert errors.SolverBug.exit_code == errors.BUG == 3
    usage = [c for c in vars(errors).values() if isinstance(c, type)
             and issubclass(c, errors.SudokuError) and c is not errors.SolverBug]
    assert len(usage) >= 10 and all(c.exit_code == errors.USAGE for c in usage)


def test_a_wrong_grid_exits_with_the_bug_code(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A method that answers a wrong grid is caught by the verification: one stderr line
    naming the method, exit 3 (not 2, which says the user erred)."""

    def wrong(self, puzzle, stats, limits):  # every cell a 1
        yield (1,) * puzzle.geometry.n_cells

    monkeypatch.setattr(PropagateSolver, "solutions", wrong)
    with pytest.raises(SystemExit) as stop:
        main(["count", "1234341221434321", "--method", "propagate"])
    assert stop.value.code == errors.BUG
    err = capsys.readouterr().err
    assert "returned a wrong grid" in err and "propagate" in err
    with pytest.raises(SystemExit) as stop:
        main(["count", "1234341221434321", "--method", "no-such-method"])
    assert stop.value.code == errors.USAGE


def test_the_array_path_without_a_count_limit_is_one_clear_error() -> None:
    """The chunk arrays have one column per kept solution: a request for every solution is an
    InvalidOption there (it was a TypeError from NumPy)."""
    import numpy as np

    from sudokit.model.geometry import Geometry
    from sudokit.run.chunk import solve_chunk
    from sudokit.run.request import Request

    givens = np.zeros((1, 16), np.uint8)
    with pytest.raises(errors.InvalidOption, match="count limit"):
        solve_chunk(givens, Geometry.of(2, 2), Request.build("propagate", count_limit=None))
