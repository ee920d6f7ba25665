"""The 9x9 engine's start state: the givens placed word-wise (sudokit.fast.givens) give the state
and counters of placing them one at a time, on valid and contradictory puzzles."""

from __future__ import annotations

import numpy as np

from sudokit.fast import nine
from sudokit.fast.kernels import Phase
from sudokit.fast.state import Reg
from tests.helpers import load


def one_at_a_time(givens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The state words and registers after placing the givens cell by cell with ``_assign``."""
    state = nine.new_nine_state()
    s, regs = state.s, state.regs
    s[:30] = nine.BAND
    ok = True
    for cell in range(81):
        if givens[cell] and ok:
            ok = givens[cell] <= 9 and nine._assign(s, regs, int(givens[cell]) - 1, cell)
    regs[Reg.PHASE] = Phase.START if ok else Phase.DONE
    return s, regs


def test_word_wise_givens_give_the_state_of_one_at_a_time() -> None:
    rng = np.random.default_rng(29)
    puzzles = [np.array(p.givens, np.uint8) for name in
               ("tdoku/puzzles2_17_clue_first300", "tdoku/puzzles3_magictour_top1465",
                "tdoku/puzzles7_serg_benchmark_first300") for p in load(name, 100)]
    broken = []
    for givens in puzzles[:120]:
        bad = givens.copy()
        cell = int(rng.integers(81))
        if len(broken) % 3 == 0:  # a digit given twice in a row, column or box (or not)
            bad[cell] = bad[int(rng.choice(np.flatnonzero(bad)))]
        elif len(broken) % 3 == 1:
            bad[cell] = rng.integers(10, 256)  # a given above 9
        else:
            bad[rng.random(81) < 0.5] = rng.integers(1, 10)  # many of one digit
        broken.append(bad)
    empty = np.zeros(81, np.uint8)
    single = empty.copy()
    single[40] = 5
    state = nine.new_nine_state()
    phases = set()
    for givens in puzzles + broken + [empty, single]:
        nine.start(state, givens)
        s, regs = one_at_a_time(givens)
        assert np.array_equal(state.s[:31], s[:31]), givens
        assert np.array_equal(state.regs, regs), givens
        phases.add(int(regs[Reg.PHASE]))
    assert phases == {Phase.START, Phase.DONE}  # both valid and contradictory puzzles seen
