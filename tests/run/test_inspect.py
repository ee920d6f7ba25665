"""The inspection door: a puzzle's candidates after each inference, from the CSP package."""

from __future__ import annotations

from sudokit.csp.sudoku import ac3_candidates
from sudokit.model.puzzle import Puzzle
from sudokit.run.inspect import PropagationChoice, candidates_after

# 4x4: the first row holds 1 2 3, so its last cell can only be 4
PUZZLE = Puzzle.parse("123. .... .... ....")


def test_candidates_narrow_as_inference_grows() -> None:
    none = candidates_after(PUZZLE)
    assert none is not None and none[3] == (1, 2, 3, 4) and none[0] == (1,)
    eliminated = candidates_after(PUZZLE, PropagationChoice.ELIMINATE)
    assert eliminated is not None and eliminated[3] == (4,)
    sizes = [sum(map(len, candidates_after(PUZZLE, after) or [])) for after in PropagationChoice]
    assert sizes[0] >= sizes[1] >= sizes[2] >= sizes[3]  # none, eliminate, only-choice, propagate
    assert candidates_after(PUZZLE, PropagationChoice.AC3) == ac3_candidates(PUZZLE)


def test_a_contradiction_has_no_candidates() -> None:
    clash = Puzzle.parse("11.. .... .... ....")
    assert candidates_after(clash, PropagationChoice.ELIMINATE) is None
    assert candidates_after(clash, PropagationChoice.AC3) is None
