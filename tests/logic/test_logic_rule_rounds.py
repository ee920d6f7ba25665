"""The rule forcing chains' compiled rounds (sudokit.logic.chains.rule_rounds): which grids
they take, how a grid's rules are packed, and that the warm-up reaches every kind of filter
(the rounds beside their Python reference: tests/test_twins.py, "rule assumptions")."""

from __future__ import annotations

import numpy as np

from sudokit.compiled import Kernels, forced
from sudokit.logic.chains.rule_forcing import assume_with_rules
from sudokit.logic.chains.rule_rounds import rule_arrays
from sudokit.logic.state import Candidates
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.model.rules import Automaton, Relation, Renban, WeightedSum


def _warm_up_geometry() -> Geometry:
    automaton = Automaton((8, 9), ((1, 1, 1, 1), (2, 2, 2, 2), (2, 2, 2, 2)), frozenset({2}))
    return Geometry.for_side(4).with_constraints((
        WeightedSum.of([(0, 1), (1, 1)], 3, "warm-up"),
        Relation((4, 5), frozenset({(1, 2), (2, 1)}), "warm-up"), automaton))


def test_the_rules_are_packed_per_kind_in_the_filters_order() -> None:
    arrays = rule_arrays(_warm_up_geometry())
    assert arrays is not None
    kinds, cells, sizes, (ks, offsets, goals), moves, (fwd, bwd, side), (starts, listed) = arrays
    assert kinds.tolist() == [0, 2, 1]  # sum, relation, automaton
    assert cells.tolist() == [[0, 1], [4, 5], [8, 9]] and sizes.tolist() == [2, 2, 2]
    assert ks[0].tolist() == [1, 1] and (offsets[0], goals[0]) == (0, 3)
    assert fwd[1].tolist() == [0, 0b100, 0b10, 0, 0] and bwd[1].tolist() == fwd[1].tolist()
    assert side == 4 and moves[3][2] == 0 and moves[2][2].tolist()[:3] == [0, 0, 1]
    assert listed[starts[4]:starts[5]].tolist() == [1] and starts[2] == starts[3] == 2


def test_a_grid_with_another_kind_of_rule_stays_python() -> None:
    geometry = Geometry.for_side(4).with_constraints((Renban((0, 1)),))
    assert rule_arrays(geometry) is None
    assert rule_arrays(Geometry.for_side(4)) is None  # no rule: nothing to compile


def test_both_paths_break_the_rules_alike() -> None:
    """1 in r1c1 forces 2 in r1c2 (the sum 3), so the relation r2c1-r2c2 (1 and 2, in the
    same box) breaks in round 1; 3 in r1c1 breaks the sum at once: compiled and in Python."""
    board = Candidates.from_puzzle(Puzzle(_warm_up_geometry(), (0,) * 16)).board()
    for digit in (1, 3):
        with forced(Kernels.LOGIC, True):
            compiled = assume_with_rules(board, 0, digit, True)
        with forced(Kernels.LOGIC, False):
            python = assume_with_rules(board, 0, digit, True)
        assert compiled == python
        assert compiled[:2] == ({1: "warm-up r2c1-r2c2", 3: "warm-up r1c1-r1c2"}[digit]
                                + " cannot be kept", 1)
    assert np.asarray(compiled[2]).shape == (16,)
