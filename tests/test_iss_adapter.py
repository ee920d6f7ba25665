"""The adapter that gives sigh's Interactive Sudoku Solver each benchmark puzzle
(``benchmarks/iss_adapter.py``; ISS itself is run only by ``benchmarks/vs_iss.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sudokit.model import rulebook as rb
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from iss_adapter import Unsupported, cell_id, iss_specs  # noqa: E402


def test_rules_become_iss_constraints() -> None:
    rules = (rb.thermometer([0, 1], 9) + rb.sandwich(list(range(9, 18)), 12, 9)
             + rb.arrow([20], [21, 22]) + rb.renban([30, 31, 32]))
    givens = [0] * 81
    givens[80] = 7
    specs = iss_specs(Puzzle(Geometry.for_side(9).with_constraints(rules), tuple(givens)))
    assert ["new", "Given", "R9C9", 7] in specs
    pair = next(s for s in specs if s[0] == "pair")
    assert pair[2:] == ["R1C1", "R1C2"] and [1, 2] in pair[1] and [2, 1] not in pair[1]
    assert ["outside", "Sandwich", 12, [cell_id(c) for c in range(9, 18)], None] in specs
    total = next(s for s in specs if s[:2] == ["new", "Sum"])
    assert total[2] == 0 and sorted(total[3:]) == [["R3C3", 1], ["R3C4", -1], ["R3C5", -1]]
    assert ["new", "Renban", "R4C4", "R4C5", "R4C6"] in specs


def test_jigsaw_regions_drop_the_boxes_and_large_grids_are_refused() -> None:
    regions = [[r * 9 + c for c in range(9)] for r in range(9)]  # rows as regions
    puzzle = Puzzle(Geometry.of(3, 3, regions=regions), (0,) * 81)
    specs = iss_specs(puzzle)
    assert ["new", "NoBoxes"] in specs and any(s[0] == "jigsaw" for s in specs)
    with pytest.raises(Unsupported):
        iss_specs(Puzzle(Geometry.for_side(16), (0,) * 256))
