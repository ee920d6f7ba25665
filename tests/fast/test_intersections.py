"""Sums that cover a unit (sudokit.fast.intersections): the cells they hold outside it have a
known total, on the published Hailstone little killer (ISS's two sums, exactly) and on small
built grids; every kept sum holds on the solution."""

from __future__ import annotations

import json
from pathlib import Path

from sudokit.fast.drawn import drawn_for
from sudokit.fast.intersections import sum_intersections
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.model.constraints import Cage
from sudokit.model.geometry import Geometry
from sudokit.model.rules import WeightedSum

DATA = Path(__file__).resolve().parents[1] / "data" / "rules" / "iss_collections.json"
GRID = [int(ch) for ch in ("534678912672195348198342567859761423426853791"
                           "713924856961537284287419635345286179")]


def _hailstone():
    item = next(i for i in json.loads(DATA.read_text(encoding="utf-8"))
                if i["title"].startswith("Hailstone"))
    return fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0]), [int(d) for d in item["solution"]]


def test_hailstone_gives_iss_two_sums_and_they_hold() -> None:
    puzzle, solution = _hailstone()
    found = sum_intersections(puzzle.geometry)
    assert [(s.total, s.cells) for s in found] == [
        (81, (12, 21, 22, 28, 29, 38, 42, 51, 52, 58, 59, 68)),
        (83, (14, 22, 23, 33, 34, 38, 42, 46, 47, 57, 58, 66))]
    assert all(s.holds([solution[c] for c in s.cells]) for s in found)


def test_the_sums_are_redundant_rows_of_the_engine() -> None:
    puzzle, _ = _hailstone()
    drawn = drawn_for(puzzle.geometry)
    rows = {tuple(sorted(drawn.cells[drawn.start[r]:drawn.start[r + 1]].tolist()))
            for r in range(len(drawn.kind))}
    assert all(s.cells in rows for s in sum_intersections(puzzle.geometry))


HANGING = (11, 12, 15)  # r2c3, r2c4, r2c7: digits 2, 1, 3 (a tight total: the least, 6)


def _row_pieces(count: int) -> Geometry:
    """Row 1 covered by three 3-cell sums (little-killer-like: not cages), each hanging one
    cell into row 2 (the first ``count`` of them)."""
    sums = [WeightedSum.of([(3 * k + i, 1) for i in range(3)] + [(HANGING[k], 1)],
                           sum(GRID[c] for c in (3 * k, 3 * k + 1, 3 * k + 2, HANGING[k])))
            for k in range(count)]
    return Geometry.for_side(9).with_constraints(sums)


def test_pieces_that_cover_a_row_give_the_cells_outside_it() -> None:
    found = sum_intersections(_row_pieces(3))
    outside = next(s for s in found if s.cells == HANGING)
    assert outside.total == 6
    assert all(s.holds([GRID[c] for c in s.cells]) for s in found)


def test_a_row_not_covered_gives_nothing() -> None:
    assert not any(s.cells == HANGING for s in sum_intersections(_row_pieces(2)))


def test_cages_count_as_pieces_and_a_loose_sum_is_left_out() -> None:
    cages = [Cage(sum(GRID[c] for c in (3 * k, 3 * k + 1, 3 * k + 2, HANGING[k])),
                  (3 * k, 3 * k + 1, 3 * k + 2, HANGING[k])) for k in range(3)]
    found = sum_intersections(Geometry.of(3, 3, cages=cages))
    assert any(s.cells == HANGING and s.total == 6 for s in found)
    loose = [Cage(sum(GRID[c] for c in cells), cells)
             for cells in [(0, 1, 2, 9), (3, 4, 5, 14), (6, 7, 8, 16)]]  # 6 + 5 + 4: loose
    assert not any(s.cells == (9, 14, 16) for s in
                   sum_intersections(Geometry.of(3, 3, cages=loose)))
    assert sum_intersections(Geometry.for_side(9)) == ()
