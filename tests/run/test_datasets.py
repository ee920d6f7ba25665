"""Acceptance on the public datasets: every puzzle solves, verifies and gets its status.

The samples in ``tests/data`` run by default with the default method (the fastest available);
the full sets in ``../shared/data`` run under the opt-in ``shared_data`` marker (CI runs it), the
longest of them also marked slow.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from sudokit.formats.text import read_puzzles
from sudokit.model.puzzle import is_solution
from sudokit.model.result import Status
from sudokit.run.batch import solve_records
from sudokit.run.doors import default_method
from tests.helpers import DATA, shared

TDOKU = "tdoku/"


def solved(path: Path, limit: int | None = None, **kwargs) -> list:
    records = itertools.islice(read_puzzles(path), limit)
    return list(solve_records(records, default_method(), time_limit=60, **kwargs))


def outcomes(relative: str, limit: int | None = None, **kwargs) -> list:
    """Outcomes of a sample file under ``tests/data``."""
    return solved(DATA / relative, limit, **kwargs)


def shared_outcomes(relative: str, limit: int | None = None, **kwargs) -> list:
    """Outcomes of a full set under ``../shared/data`` (``shared_data`` tests only)."""
    return solved(shared(relative), limit, **kwargs)


def assert_all_solved(results: list, at_least: int) -> None:
    assert len(results) >= at_least
    bad = [(o.record.line, o.label.word, o.error) for o in results if not o.ok]
    assert not bad, bad[:5]
    assert all(is_solution(o.solution, o.record.puzzle) for o in results)


@pytest.mark.parametrize("name", ["sudoku-easy50.txt", "sudoku-top95.txt", "sudoku-hardest.txt"])
def test_norvig_files(name: str) -> None:
    assert_all_solved(outcomes(f"norvig/{name}"), 11)


@pytest.mark.parametrize(("name", "count"), [
    ("puzzles3_magictour_top1465", 1465),
    ("puzzles2_17_clue_first300", 300),
    ("puzzles5_forum_hardest_1905_11+_first100", 100),
    ("puzzles6_forum_hardest_1106_first100", 100),
])
def test_tdoku_acceptance(name: str, count: int) -> None:
    assert_all_solved(outcomes(TDOKU + name), count)


@pytest.mark.shared_data
@pytest.mark.parametrize(("name", "limit", "count"), [
    ("puzzles1_unbiased_first1000", None, 1000),
    ("puzzles2_17_clue", None, 49158),
    ("puzzles5_forum_hardest_1905_11+_first20000", 500, 500),
    ("puzzles6_forum_hardest_1106", None, 375),
])
def test_tdoku_full_sets(name: str, limit: int | None, count: int) -> None:
    assert_all_solved(shared_outcomes(TDOKU + name, limit), count)


@pytest.mark.shared_data
@pytest.mark.slow
def test_forum_hardest_first_2000() -> None:
    """About 50 s with ``propagate``; a few seconds with ``fast``."""
    assert_all_solved(shared_outcomes(TDOKU + "puzzles5_forum_hardest_1905_11+_first20000", 2000),
                      2000)


def test_tdoku_test_puzzles_counts_with_unique() -> None:
    results = outcomes("invalid/tdoku_test_puzzles", count_limit=2)
    assert len(results) == 43
    labels = [o.label for o in results]
    assert labels.count(Status.SOLVED) == 18 and labels.count(Status.UNSATISFIABLE) == 10
    assert labels.count(Status.MULTIPLE) == 15
    for o in results:  # each status agrees with the count written in the file
        assert o.error is None or o.label is Status.UNSATISFIABLE, (o.record.line, o.error)
        if o.record.expected is not None:
            assert o.solution == o.record.expected


@pytest.mark.parametrize(("path", "label", "message"), [
    *[(f"unsolvable/duplicate_{u}.txt", Status.UNSATISFIABLE, "given twice in " + w)
      for u, w in (("box", "box"), ("col", "column"), ("row", "row"))],
    *[(f"unsolvable/unsolvable_{u}.txt", Status.UNSATISFIABLE, None)
      for u in ("box", "col", "row", "square")],
    *[(f"multiple_solutions/{n}.txt", Status.MULTIPLE, None)
      for n in ("two_solutions", "three_solutions", "four_solutions", "ten_solutions",
                "125_solutions", "insufficient_givens")],
])
def test_sudopedia_cases(path: str, label: Status, message: str | None) -> None:
    (outcome,) = outcomes(str(Path("invalid/sudopedia_cp468") / path), count_limit=2)
    assert outcome.label is label
    if message:
        assert message in outcome.error


@pytest.mark.parametrize("name", ["bnguyen_16x16.txt", "bnguyen_36x36.txt",
                                  "aprivitera_16x16.txt", "aprivitera_25x25.txt",
                                  "lkwaerst_16x16.txt"])
def test_large_files_solve_uniquely(name: str) -> None:
    (outcome,) = outcomes(f"large/{name}", count_limit=2)
    assert outcome.ok and outcome.label is Status.SOLVED


def test_bnguyen_16x16_matches_its_solution_file() -> None:
    (outcome,) = outcomes("large/bnguyen_16x16.txt")
    (solution,) = read_puzzles(DATA / "large" / "bnguyen_16x16s.txt")
    assert outcome.solution == solution.puzzle.givens


@pytest.mark.slow
def test_sam_25x25_zero_based_solves() -> None:
    """Several solutions and hard for ``propagate`` (over 90 s); seconds with ``fast``."""
    (outcome,) = outcomes("large/sam_25x25_medium.txt")
    assert outcome.ok


def test_kaggle_slice_equals_given_solutions() -> None:
    results = outcomes("csv/kaggle_first200.csv")
    assert_all_solved(results, 200)
    assert all(o.solution == o.record.expected for o in results)


@pytest.mark.shared_data
def test_kaggle_first5000_equals_given_solutions() -> None:
    results = shared_outcomes("csv/kaggle_first5000.csv")
    assert_all_solved(results, 5000)
    assert all(o.solution == o.record.expected for o in results)


def test_kyubyong_csv_with_bom_and_header() -> None:
    results = outcomes("csv/kyubyong_test.csv")
    assert_all_solved(results, 30)


def test_messy_file_one_record_per_puzzle(tmp_path: Path) -> None:
    good = (DATA / "norvig" / "sudoku-top95.txt").read_text().splitlines()[:3]
    dup = "55" + good[0][2:]
    lines = [good[0], good[1][:-1], good[1][:40] + "?" + good[1][41:], "x" * 1_000_000,
             dup, good[2]]
    path = tmp_path / "messy.txt"
    path.write_bytes("\n".join(lines[:4]).encode() + b"\n\x00\xff\xfe binary \x81\n"
                     + "\n".join(lines[4:]).encode() + b"\n")
    results = list(solve_records(read_puzzles(path), default_method()))
    assert [o.record.line for o in results] == [1, 2, 3, 4, 5, 6, 7]
    assert [o.label for o in results] == [Status.SOLVED, Status.INVALID, Status.INVALID,
                                          Status.INVALID, Status.INVALID, Status.UNSATISFIABLE,
                                          Status.SOLVED]
    errors = [o.error for o in results]
    assert "messy.txt:2:1: whole line: expected a square number of cells" in errors[1]
    assert "messy.txt:3:41: r5c5: expected a digit symbol" in errors[2]
    assert "messy.txt:4:1: line of 1,000,000 characters" in errors[3]
    assert "messy.txt:5:1: expected digit symbols or empty markers" in errors[4]
    assert "digit 5 is given twice in row 1" in errors[5]
