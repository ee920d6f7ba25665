"""The rating front door's short cuts (sudokit.logic.solve): a plain 81-symbol line read
straight to its givens, and the solution of a standard 9x9 puzzle taken from the compiled
engine directly; both give what the general paths (Puzzle.parse, api.count_solutions) give."""

from __future__ import annotations

import pytest

from sudokit import Puzzle, count_solutions
from sudokit.errors import InvalidPuzzle
from sudokit.logic.solve import _coerce, _solution

from tests.helpers import DATA

RATED = [line.split()[1] for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]


@pytest.mark.parametrize("text", [RATED[0], RATED[1].replace("0", "."), RATED[2][:-1] + "."])
def test_line_read_as_parse_reads_it(text: str) -> None:
    fast, parsed = _coerce(text), Puzzle.parse(text)
    assert fast == parsed
    assert (fast.source, fast.source_line) == (parsed.source, parsed.source_line)


@pytest.mark.parametrize("text", ["1" * 80, RATED[0][:-1] + "x", RATED[0] + " ", "1...",
                                  RATED[0][:-1] + "\u0663"])
def test_other_text_goes_through_parse(text: str) -> None:
    try:
        expected = Puzzle.parse(text)
    except InvalidPuzzle as exc:
        with pytest.raises(InvalidPuzzle) as got:
            _coerce(text)
        assert str(got.value) == str(exc)
    else:
        assert _coerce(text) == expected


def test_solution_is_the_default_methods_first() -> None:
    for text in RATED[:10]:
        puzzle = _coerce(text)
        result = count_solutions(puzzle, limit=2)
        assert _solution(puzzle) == (result.solutions[0], result.count == 1)


def test_several_solutions_and_none() -> None:
    many = Puzzle.parse("." * 80 + "1")
    grid, unique = _solution(many)
    assert not unique and grid == count_solutions(many, limit=2).solutions[0]
    clash = Puzzle.parse("11" + "." * 79)
    with pytest.raises(InvalidPuzzle, match="no solution: digit 1 is given twice in row 1"):
        _solution(clash)
    dead = Puzzle.parse("123456780" + "." * 8 + "9" + "." * 63)  # r1c9 has no candidate
    with pytest.raises(InvalidPuzzle, match="no solution"):
        _solution(dead)


@pytest.mark.parametrize("text", RATED[:6])
def test_runs_of_singles_copied_in_lead_to_the_same_steps_and_state(text: str) -> None:
    from sudokit.logic import Candidates, solve_steps

    puzzle = _coerce(text)
    solution, _ = _solution(puzzle)
    one_by_one, copied = Candidates.from_puzzle(puzzle), Candidates.from_puzzle(puzzle)
    steps = list(solve_steps(one_by_one, solution=solution))
    assert list(solve_steps(copied, solution=solution, every_state=False)) == steps
    assert copied.masks.tolist() == one_by_one.masks.tolist()
    assert copied.grid() == one_by_one.grid() == solution
    assert sum(s.technique in ("Full House", "Hidden Single", "Naked Single") for s in steps) > 5


@pytest.mark.parametrize("shape", [(3, 3, "standard"), (2, 3, "standard"), (4, 4, "standard"),
                                   (3, 3, "diagonal"), (3, 3, "anti-knight")])
def test_givens_placed_in_one_pass_as_place_puts_them(shape: tuple[int, int, str]) -> None:
    import random

    import numpy as np

    from sudokit import Geometry
    from sudokit.logic import Candidates

    geometry = Geometry.of(*shape)
    rng = random.Random(7)
    full = (1 << geometry.side) - 1
    for _ in range(10):  # random givens, clashes included (a clash empties a cell's mask)
        givens = tuple(rng.choice((0, 0, 0, rng.randrange(1, geometry.side + 1)))
                       for _ in range(geometry.n_cells))
        one_by_one = Candidates(geometry, np.full(geometry.n_cells, full, dtype=np.uint64),
                                np.zeros(geometry.n_cells, dtype=np.int16))
        for cell, digit in enumerate(givens):
            if digit:
                one_by_one.place(cell, digit)
        state = Candidates.from_puzzle(Puzzle(geometry, givens))
        assert state.masks.tolist() == one_by_one.masks.tolist()
        assert state.values.tolist() == one_by_one.values.tolist()
        assert state.contradiction() == one_by_one.contradiction()
