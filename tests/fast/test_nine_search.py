"""The 9x9 engine's inference at choice points: digit templates against a brute-force
enumeration of every placement, and the tree they cut on the hardest sample."""

from __future__ import annotations

from functools import cache
from itertools import permutations

import numpy as np

from sudokit.fast import Stat, nine, solve_batch
from sudokit.fast.templates import digit_templates, overlay
from tests.helpers import load


@cache
def every_template() -> np.ndarray:
    """The 46,656 placements of one digit (one cell per row, column and box) as band words:
    int64[46656, 3], bit ``9 * (row % 3) + col`` of word ``row // 3``."""
    rows = []
    for cols in permutations(range(9)):
        if len({(r // 3, c // 3) for r, c in enumerate(cols)}) == 9:
            words = [0, 0, 0]
            for r, c in enumerate(cols):
                words[r // 3] |= 1 << (9 * (r % 3) + c)
            rows.append(words)
    return np.array(rows, np.int64)



def search_path(givens) -> list[np.ndarray]:
    """The propagated states along one branch of a search: from the givens, place the lowest
    digit of the engine's chosen cell until a contradiction or the grid is full."""
    state = nine.new_nine_state()
    nine.start(state, np.array(givens, np.uint8))
    s, regs = state.s, state.regs
    states = []
    while nine._propagate(s, regs) and s[nine.U:nine.U + 3].any():
        states.append(s.copy())
        cell = nine._pick(s, *nine.PICK)
        assert nine._assign(s, regs, nine._low(nine._digits(s, cell)), cell)
    return states


def test_there_are_46656_templates() -> None:
    assert every_template().shape == (46656, 3)


def test_templates_keep_exactly_the_cells_of_some_placement() -> None:
    """Each digit of each state along search branches of hard puzzles keeps the union of the
    placements inside its candidates (a brute-force overlay); a digit with none is a
    contradiction."""
    puzzles = (load("tdoku/puzzles5_forum_hardest_1905_11+_first100", 25)
               + load("tdoku/puzzles3_magictour_top1465", 25))
    checked = removed = failed = 0
    for state in (s for puzzle in puzzles for s in search_path(puzzle.givens)):
        for d in range(9):
            words = state[3 * d:3 * d + 3].copy()
            inside = every_template()[((every_template() & ~words) == 0).all(axis=1)]
            narrowed = overlay(*words)
            checked += 1
            if len(inside) == 0:
                assert narrowed[0] == -1
                failed += 1
                continue
            union = np.bitwise_or.reduce(inside, axis=0)
            assert list(narrowed) == union.tolist()
            removed += sum(int(w ^ u).bit_count() for w, u in zip(words, union))
    assert checked > 300 and removed > 0 and failed > 0


def test_templates_catch_a_digit_with_no_placement() -> None:
    """Digit 1 nowhere in column 3: no placement, a contradiction (for one digit and for the
    pass over all nine)."""
    state = nine.new_nine_state()
    state.s[:27] = nine.BAND
    state.s[nine.U:nine.U + 3] = nine.BAND
    column3 = (1 << 2) | (1 << 11) | (1 << 20)
    for b in range(3):
        state.s[b] &= ~column3  # digit 1 is nowhere in column 3
    assert overlay(*state.s[:3])[0] == -1
    assert digit_templates(state.s.copy(), *state.s[nine.U:nine.U + 3], state.s, True)[0] == -1


def test_templates_cut_the_tree_on_the_hardest_sample() -> None:
    """Forum-hardest (first 100 of the 11+ set): first solution and count to 2, nodes per
    puzzle well under the 78 and 147 of the engine without templates (the full 20,000 are
    measured by benchmarks/hard9.py)."""
    givens = np.array([p.givens for p in load("tdoku/puzzles5_forum_hardest_1905_11+_first100")],
                      np.uint8)
    for limit, bound in ((1, 35), (2, 70)):
        _, _, stats = solve_batch(givens, limit)
        assert (stats[:, Stat.SOLUTIONS] == 1).all()
        assert stats[:, Stat.NODES].mean() <= bound
