"""Implied sums (model/implied.py): the 45 rule's innies and outies and set equivalence, checked
on hand-made cages and on every published killer puzzle of tests/data (each implied sum holds on
the published solution), the full Janko killer set under ``shared_data``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.formats.janko import read_janko
from sudokit.model.geometry import Geometry
from sudokit.model.implied import IMPLIED_CAP, implied_sums
from sudokit.model.rules import WeightedSum
from tests.helpers import DATA, shared


def _published() -> list[tuple[str, object, tuple[int, ...]]]:
    """(title, puzzle, solution) of every caged puzzle of the f-puzzles lists in tests/data."""
    found = []
    for path in sorted((DATA / "rules").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data if isinstance(data, list) else []:
            if "refused" not in entry:
                puzzle = fpuzzles_puzzle(decode_fpuzzles(entry["puzzle"])[0])
                if puzzle.geometry.cages:
                    found.append((entry["title"], puzzle, tuple(map(int, entry["solution"]))))
    return found


def _janko(folder: Path) -> list[tuple[str, object, tuple[int, ...]]]:
    found = []
    for problem in sorted((folder / "problems").glob("*.txt")):
        tokens = (folder / "solutions" / problem.name).read_text().split()[2:]
        if tokens:  # two files of the full set publish an empty solution
            found.append((problem.name, read_janko(problem), tuple(map(int, tokens))))
    return found


def _check(cases: list) -> int:
    total = 0
    for title, puzzle, solution in cases:
        sums = implied_sums(puzzle.geometry)
        assert len(set(sums)) == len(sums), title
        for rule in sums:
            assert isinstance(rule, WeightedSum) and len(rule.cells) <= IMPLIED_CAP
            assert rule.holds([solution[c] for c in rule.cells]), (title, rule)
        total += len(sums)
    return total


def test_no_cages_no_implied_sums() -> None:
    assert implied_sums(Geometry.of(3, 3)) == ()
    assert implied_sums(Geometry.of(3, 3, "diagonal")) == ()


def test_innie_and_outie_of_one_row() -> None:
    """Row 1 holds 45: cages 10 (r1c1-4) and 30 (r1c5-8 with r2c9 sticking out) leave the
    innie r1c9 minus the outie r2c9 equal to 5, and with a cage on r2c9 alone, r1c9 = 9."""
    g = Geometry.of(3, 3, cages=[(10, (0, 1, 2, 3)), (30, (4, 5, 6, 7, 17))])
    assert WeightedSum((8, 17), (1, -1), 5, "implied sum") in implied_sums(g)
    g = Geometry.of(3, 3, cages=[(10, (0, 1, 2, 3)), (26, (4, 5, 6, 7))])
    assert WeightedSum((8,), (1,), 9, "implied sum") in implied_sums(g)


def test_set_difference_of_rows_and_columns() -> None:
    """The held-out "Solver needs SET" (a Latin square, 3-cell cages) has no short 45-rule sum
    but 12 set-equivalence ones (a row's three uncaged cells minus the next row's)."""
    title, puzzle, solution = next(c for c in _published() if c[0] == "Solver needs SET")
    sums = implied_sums(puzzle.geometry)
    assert len(sums) == 12 and all(sorted(r.coefficients) == [-1] * 3 + [1] * 3 for r in sums)
    assert _check([(title, puzzle, solution)]) == 12


def test_every_published_killer_keeps_its_solution() -> None:
    cases = _published() + _janko(DATA / "janko" / "KillerSudoku")
    assert len(cases) >= 10
    assert _check(cases) >= 100


@pytest.mark.shared_data
def test_every_shared_janko_killer_keeps_its_solution() -> None:
    cases = _janko(shared("janko") / "KillerSudoku")
    assert len(cases) >= 75 and _check(cases) >= 1000


@pytest.mark.parametrize("dtype", ["int8", "int64"])
def test_cancel_by_pattern_table_matches_one_cage_at_a_time(dtype: str) -> None:
    """The pattern lookup (cages up to 8 cells) and the counting (longer ones) of _cancel
    choose what _cancel_one chooses, cage by cage, on random equations."""
    import numpy as np

    from sudokit.model.implied import _cancel, _cancel_one

    rng = np.random.default_rng(7)
    for _ in range(60):
        order, cages, at = rng.permutation(81), [], 0
        while len(cages) < 12:
            size = int(rng.integers(1, 11))
            if at + size > 81:
                break
            cages.append((tuple(int(c) for c in order[at:at + size]), int(rng.integers(1, 45))))
            at += size
        weights = rng.integers(-1, 2, (40, 81))
        constants = rng.integers(0, 90, 40)
        fast_w, fast_c = weights.astype(dtype), constants.copy()
        _cancel(fast_w, fast_c, cages)
        slow_w, slow_c = weights.copy(), constants.copy()
        for cells, total in cages:
            _cancel_one(slow_w, slow_c, list(cells), total)
        assert (fast_w == slow_w).all() and (fast_c == slow_c).all()
