"""A large formula is written as a stream (issue 43: an empty 64x64 CNF took 4.1 GB): the same
clauses, the same order and the same problem line as the formula built as one list."""

from __future__ import annotations

import io

import pytest

import sudokit.sat.encoding as encoding
from sudokit.errors import SolverBug
from sudokit.model.constraints import Variant
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.sat.dimacs import write_dimacs, write_sudoku_cnf
from sudokit.sat.encoding import Encoding, clause_stream, encode

TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
DIAGONAL = Puzzle.from_digits(Puzzle.parse(TOP).givens, Geometry.of(3, 3, Variant.DIAGONAL))


@pytest.mark.parametrize("encoding_name", [e.value for e in Encoding])
@pytest.mark.parametrize("puzzle", [Puzzle.parse(TOP), DIAGONAL, Puzzle.parse("." * 81)],
                         ids=["classic", "diagonal", "empty"])
def test_a_streamed_formula_is_the_built_one(monkeypatch: pytest.MonkeyPatch,
                                             puzzle: Puzzle, encoding_name: str) -> None:
    built = encode(puzzle, encoding_name)
    monkeypatch.setattr(encoding, "STREAM_FROM", 0)
    monkeypatch.setattr(encoding, "_BASE_CACHE", {})
    count, clauses = clause_stream(puzzle, encoding_name)
    streamed = list(clauses)
    assert count == len(built)
    assert streamed == built


def test_the_written_file_does_not_depend_on_streaming(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = Puzzle.parse(TOP)
    whole = io.StringIO()
    write_sudoku_cnf(whole, puzzle, Encoding.REDUCED)
    monkeypatch.setattr(encoding, "STREAM_FROM", 0)
    monkeypatch.setattr(encoding, "_BASE_CACHE", {})
    streamed = io.StringIO()
    write_sudoku_cnf(streamed, puzzle, Encoding.REDUCED)
    assert streamed.getvalue() == whole.getvalue()
    assert "p cnf 729 " in whole.getvalue()


def test_a_count_that_disagrees_is_a_bug() -> None:
    with pytest.raises(SolverBug, match="3 clauses, 2 were written"):
        write_dimacs(io.StringIO(), iter([[1], [2]]), 2, count=3)
