"""The compiled check of solution grids (sudokit.fast.verify) against the NumPy reference."""

from __future__ import annotations

import numpy as np

from sudokit.fast import solve_batch
from sudokit.fast.verify import solves as compiled
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import solves
from tests.helpers import load


def test_classic_nine_check_rejects_every_kind_of_broken_grid() -> None:
    """Classic 9x9 grids take the check by position (_check_nine): every mutation of a solved
    grid is judged as the NumPy check judges it, and each kind of fault is caught."""
    geometry = Geometry.of(3, 3)
    givens = np.array([p.givens for p in load("tdoku/puzzles2_17_clue_first300", 60)], np.uint8)
    grids = solve_batch(givens, 1)[0][:, 0].copy()
    assert compiled(grids, givens, geometry).all()
    rng = np.random.default_rng(29)
    broken = grids.copy()
    latin = np.array([(r + c) % 9 + 1 for r in range(9) for c in range(9)], np.uint8)
    broken[0] = latin  # rows and columns hold 1..9, boxes do not
    broken[1, 40] = 10  # a digit out of range
    broken[2, 3] = 0  # an empty cell
    broken[3, [0, 1]] = broken[3, [1, 0]]  # two cells of a row swapped: columns and boxes break
    broken[4].reshape(9, 9)[:, [0, 3]] = broken[4].reshape(9, 9)[:, [3, 0]]  # boxes break
    for i in range(5, 60, 2):  # a random cell changed, or a given changed
        cell = int(rng.integers(81))
        if i % 4 == 1:
            broken[i, cell] = broken[i, cell] % 9 + 1
        else:
            givens[i, cell] = grids[i, cell] % 9 + 1
    expected = solves(broken, givens, geometry)
    assert not expected[:5].any() and not expected[5::2].any() and expected[6::2].all()
    assert np.array_equal(compiled(broken, givens, geometry), expected)
    # the units of a variant (here both diagonals) still go through the unit table
    diagonal = Geometry.of(3, 3, "diagonal")
    assert np.array_equal(compiled(grids, givens, diagonal), solves(grids, givens, diagonal))
