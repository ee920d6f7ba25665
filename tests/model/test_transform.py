"""A solved puzzle stays solved under relabelling, transposition and band/stack permutation."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import InvalidPuzzle
from sudokit.formats.text import read_puzzles
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution
from sudokit.model.transform import apply, permute_rows_in_band, relabel, transpose
from sudokit.run.doors import default_method, solve
from tests.helpers import EXAMPLES

PUZZLES = [r.puzzle for r in itertools.islice(read_puzzles(EXAMPLES / "top95.txt"), 8)]
PUZZLES += [r.puzzle for r in read_puzzles(EXAMPLES / "6x6.txt")]
SOLVED = [(p, solve(p, "propagate").solution) for p in PUZZLES]


@st.composite
def transformed(draw):
    puzzle, solution = draw(st.sampled_from(SOLVED))
    g = puzzle.geometry
    n = g.side
    mapping = draw(st.permutations(range(1, n + 1)))
    transposed = draw(st.booleans())
    h, w = (g.box_cols, g.box_rows) if transposed else (g.box_rows, g.box_cols)
    bands = draw(st.permutations(range(n // h)))
    stacks = draw(st.permutations(range(n // w)))
    return puzzle, solution, apply(puzzle, solution, mapping=mapping, transposed=transposed,
                                   bands=bands, stacks=stacks)


@settings(max_examples=30, deadline=None)
@given(transformed())
def test_solution_stays_a_solution(case) -> None:
    puzzle, solution, (new_puzzle, new_solution) = case
    assert is_solution(new_solution, new_puzzle)
    assert new_puzzle.n_givens == puzzle.n_givens
    result = solve(new_puzzle, default_method())
    assert result.solution == new_solution  # the puzzles are unique, so the solution must match


def test_transpose_twice_is_identity_and_swaps_box_shape() -> None:
    puzzle = PUZZLES[-1]
    once, geometry = transpose(puzzle.givens, puzzle.geometry)
    assert geometry == Geometry.of(3, 2)
    twice, back = transpose(once, geometry)
    assert twice == puzzle.givens and back == puzzle.geometry


def test_rows_within_a_band_and_bad_permutations() -> None:
    puzzle, solution = SOLVED[0]
    moved = Puzzle(puzzle.geometry, permute_rows_in_band(puzzle.givens, puzzle.geometry, 1,
                                                         (2, 0, 1)))
    assert is_solution(permute_rows_in_band(solution, puzzle.geometry, 1, (2, 0, 1)), moved)
    with pytest.raises(InvalidPuzzle, match="permutation"):
        relabel(solution, [1, 1, 2, 3, 4, 5, 6, 7, 8])
    with pytest.raises(InvalidPuzzle, match="band order"):
        apply(puzzle, solution, bands=(0, 1, 1))
