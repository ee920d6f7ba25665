"""The solve loop's short cuts (sudokit.logic.solve, sudokit.logic.state): runs of singles the
compiled ladder follows ahead, copied in at their last step, and the givens placed in one
compiled pass, give the steps and states of the one-by-one paths."""

from __future__ import annotations

import pytest

from sudokit import Puzzle, solve
from tests.helpers import DATA

RATED = [line.split()[1] for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]


@pytest.mark.parametrize("text", RATED[:6])
def test_runs_of_singles_copied_in_lead_to_the_same_steps_and_state(text: str) -> None:
    from sudokit.logic import Candidates, solve_steps

    puzzle = Puzzle.parse(text)
    solution = solve(puzzle).solution
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
