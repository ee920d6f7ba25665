"""The compiled engine: agreement with ``propagate``, sizes, locked candidates, limits, the batch
API and the kernel cache directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit import (Geometry, Puzzle, Status, Variant, compiled, count_solutions, is_solution,
                     solve)
from sudokit.fast import ResumableSearch, Stat, StopReason, cache, rules, solve_batch
from sudokit.fast.state import Reg, State, new_state
from sudokit.fast.tables import tables_for
from tests.helpers import DATA, load, load_shared

FULL9 = np.uint64(511)


def counts(puzzles: list[Puzzle], limit: int = 2, locked: bool = True) -> list[int]:
    """Solution counts (up to ``limit``) from one batch call."""
    grids, status, stats = solve_batch(np.array([p.givens for p in puzzles], np.uint8), limit,
                                      locked=locked)
    assert (status != Status.UNKNOWN).all()
    for puzzle, found, row in zip(puzzles, grids, stats):
        assert all(is_solution(tuple(g), puzzle) for g in found[:row[Stat.SOLUTIONS]])
    return stats[:, Stat.SOLUTIONS].tolist()


def tdoku_test_puzzles() -> list[tuple[Puzzle, int]]:
    path = DATA / "invalid/tdoku_test_puzzles"
    rows = [line.split(":") for line in path.read_text().split() if line]
    return [(Puzzle.from_digits([0 if ch == "." else int(ch) for ch in text]), int(n))
            for text, n, *_ in rows]


# --- agreement with propagate (limit 2) and with known counts ------------------------------

def test_tdoku_test_puzzles_exact_counts_and_propagate_agree() -> None:
    cases = tdoku_test_puzzles()
    puzzles = [p for p, _ in cases]
    assert counts(puzzles, 1000) == [n for _, n in cases]
    assert counts(puzzles, 1000, locked=False) == [n for _, n in cases]
    assert counts(puzzles) == [count_solutions(p, "propagate", limit=2).count for p in puzzles]


SETS = [  # top95, then sets where every puzzle has two or more solutions
    pytest.param(lambda: load("norvig/sudoku-top95.txt"), id="top95"),
    pytest.param(lambda: load("tdoku/puzzles7_serg_benchmark_first300"), id="serg300"),
    pytest.param(lambda: load_shared("tdoku/puzzles7_serg_benchmark", 2000), id="serg2000",
                 marks=pytest.mark.shared_data),
]


@pytest.mark.parametrize("puzzles", SETS)
def test_counts_agree_with_propagate(puzzles) -> None:
    puzzles = puzzles()
    expected = [count_solutions(p, "propagate", limit=2).count for p in puzzles]
    assert counts(puzzles) == expected
    if len(puzzles) >= 300:  # the serg sets: every puzzle has two or more solutions
        assert set(expected) == {2}


def test_one_puzzle_api_enumerates_all_solutions_lazily() -> None:
    puzzle, n = max(tdoku_test_puzzles(), key=lambda case: case[1])  # 847 solutions
    result = count_solutions(puzzle, "fast", limit=None)
    assert result.status is Status.SOLVED and result.count == n
    assert len(set(result.solutions)) == n


# --- the specialised 9x9 engine (sudokit.fast.nine) against the generic kernels -----------

def batch(puzzles: list[Puzzle], limit: int, generic: bool) -> tuple[np.ndarray, ...]:
    return solve_batch(np.array([p.givens for p in puzzles], np.uint8), limit, generic=generic)


@pytest.mark.parametrize("puzzles", [
    *SETS, pytest.param(lambda: load("invalid/tdoku_test_puzzles"), id="tdoku-test")])
def test_nine_agrees_with_the_generic_engine(puzzles) -> None:
    puzzles = puzzles()
    for count_limit in (1, 2):
        grids, status, stats = batch(puzzles, count_limit, generic=False)
        _, generic_status, generic_stats = batch(puzzles, count_limit, generic=True)
        assert (status == generic_status).all()
        found = stats[:, Stat.SOLUTIONS]
        assert (found == generic_stats[:, Stat.SOLUTIONS]).all()
        for puzzle, row, n in zip(puzzles, grids, found):
            assert all(is_solution(tuple(g), puzzle) for g in row[:n])
    assert stats[:, Stat.PROPAGATIONS].sum() > 0 and stats[:, Stat.HIDDEN_SINGLES].sum() > 0


@pytest.mark.parametrize("name", ["tdoku/puzzles6_forum_hardest_1106_first100",
                                  "norvig/sudoku-top95.txt"])
def test_nine_searches_a_smaller_tree_on_hard_puzzles(name) -> None:
    """Triads and the bivalue-cell score (unique puzzles: the whole tree counts for limit 2)."""
    puzzles = load(name)
    for count_limit in (1, 2):
        nodes = batch(puzzles, count_limit, generic=False)[2][:, Stat.NODES].sum()
        generic = batch(puzzles, count_limit, generic=True)[2][:, Stat.NODES].sum()
        assert nodes <= 0.6 * generic


def test_nine_triads_hold_their_three_digits_and_catch_two() -> None:
    from sudokit.fast import nine

    def emptied_mini_row(keep: int) -> nine.NineState:
        """A state with every candidate, but digits keep+1..9 gone from cells r1c1-r1c3."""
        state = nine.new_nine_state()
        state.s[:27] = nine.BAND
        state.s[nine.U:nine.U + 3] = nine.BAND
        for d in range(keep, 9):
            state.s[3 * d] &= ~7
        return state

    state = emptied_mini_row(2)  # two digits for three cells: a contradiction
    assert nine._triads(state.s, state.regs) == -1
    state = emptied_mini_row(3)  # digits 1-3 fill the mini-row: they leave r1c4-r1c9
    assert nine._triads(state.s, state.regs) == 3 * 6
    for d in range(3):
        assert state.s[3 * d] & 511 == 7 and state.s[3 * d] >> 9 == nine.BAND >> 9
    assert state.s[nine.DIRTY] == 0b111


def test_nine_counts_every_solution_of_the_tdoku_test_puzzles() -> None:
    cases = tdoku_test_puzzles()
    grids, status, stats = batch([p for p, _ in cases], 1000, generic=False)
    assert stats[:, Stat.SOLUTIONS].tolist() == [n for _, n in cases]
    for (puzzle, n), row in zip(cases, grids):
        assert len({tuple(g) for g in row[:n]}) == n


def test_nine_limits_and_counters() -> None:
    puzzles = load("tdoku/puzzles6_forum_hardest_1106_first100", 20)
    _, status, stats = batch(puzzles, 2, generic=False)
    assert (stats[:, Stat.NODES] > 5).all() and (stats[:, Stat.BACKTRACKS] > 0).all()
    assert stats[:, Stat.LOCKED_ELIMINATIONS].sum() > 0
    givens = np.array([p.givens for p in puzzles], np.uint8)
    _, status, stats = solve_batch(givens, 2, node_limit=3)
    assert (status == Status.UNKNOWN).all() and (stats[:, Stat.NODES] == 3).all()
    _, status, _ = solve_batch(givens, 2, time_limit=0.0)
    assert (status == Status.UNKNOWN).all()


def test_nine_runs_only_standard_nine_by_nine() -> None:
    from sudokit.fast import uses_nine

    assert uses_nine(Geometry.of(3, 3), locked=True)
    assert not uses_nine(Geometry.of(3, 3), locked=False)
    assert not uses_nine(Geometry.of(3, 3, Variant.DIAGONAL), locked=True)
    assert not uses_nine(Geometry.of(2, 2), locked=True) and not uses_nine(Geometry.of(4, 4), True)


# --- sizes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("box", [(1, 1), (1, 2), (2, 2), (1, 5), (2, 3), (3, 3), (3, 4), (4, 4),
                                 (5, 5), (6, 6), (7, 7), (8, 8)])
def test_empty_grid_of_every_shape_solves(box: tuple[int, int]) -> None:
    puzzle = Puzzle(Geometry.of(*box), (0,) * (box[0] * box[1]) ** 2)
    result = solve(puzzle, "fast", time_limit=30)
    assert result.status is Status.SOLVED and is_solution(result.solution, puzzle)


def test_diagonal_variant_uses_extra_units() -> None:
    geometry = Geometry.of(3, 3, Variant.DIAGONAL)
    result = solve(Puzzle(geometry, (0,) * 81), "fast")
    assert result.status is Status.SOLVED
    grid = result.solution
    assert len({grid[i * 9 + i] for i in range(9)}) == 9
    assert len({grid[i * 9 + 8 - i] for i in range(9)}) == 9


@pytest.mark.parametrize("name", ["bnguyen_16x16.txt", "bnguyen_36x36.txt"])
def test_large_real_puzzles(name: str) -> None:
    path = DATA / "large" / name
    puzzle = Puzzle.from_digits([int(x) for x in path.read_text().split()])
    result = count_solutions(puzzle, "fast", limit=2, time_limit=30)
    assert result.status is Status.SOLVED and result.count == 1


def test_contradictory_givens_in_batch_are_unsatisfiable() -> None:
    givens = np.zeros((2, 81), np.uint8)
    givens[1, 0] = givens[1, 1] = 7
    _, status, _ = solve_batch(givens)
    assert status.tolist() == [Status.SOLVED, Status.UNSATISFIABLE]


# --- locked candidates on hand-made states --------------------------------------------------

def hand_state(masks: dict[int, int]) -> State:
    state = new_state(81, 9, 27)
    state.cand[:] = FULL9
    for cell, mask in masks.items():
        state.cand[cell] = np.uint64(mask)
    return state


def locked(state: State, family: str) -> int:
    """Run one locked-candidates sweep (rows or columns family) of a 9x9 state."""
    tables = tables_for(Geometry.of(3, 3))
    return rules.locked_family(tables, getattr(tables, family), state)


def test_claiming_removes_a_line_digit_from_the_rest_of_its_box() -> None:
    state = hand_state({cell: 511 & ~1 for cell in range(3, 9)})  # digit 1 of row 1 in box 1
    removed = locked(state, "rows")
    cand = state.cand
    assert removed == 6
    assert all(not cand[c] & 1 for c in (9, 10, 11, 18, 19, 20))
    assert all(cand[c] & 1 for c in (0, 1, 2, 12, 27))
    assert state.regs[Reg.LOCKED_ELIMINATIONS] == 6


def test_pointing_removes_a_box_digit_from_the_rest_of_its_line() -> None:
    state = hand_state({cell: 511 & ~2 for cell in (9, 10, 11, 18, 19, 20)})  # digit 2, box 1
    removed = locked(state, "rows")
    cand = state.cand
    assert removed == 6
    assert all(not cand[c] & 2 for c in range(3, 9))
    assert all(cand[c] & 2 for c in (0, 1, 2, 12, 30))


def test_pointing_along_a_column() -> None:
    state = hand_state({cell: 511 & ~4 for cell in (1, 2, 10, 11, 19, 20)})  # digit 3, box 1
    removed = locked(state, "cols")
    assert removed == 6
    assert all(not state.cand[r * 9] & 4 for r in range(3, 9))


def test_locked_candidates_detect_a_contradiction() -> None:
    masks = {cell: 511 & ~1 for cell in range(3, 9)}
    masks[9] = 1  # box 1 must take 1 in row 1, yet r2c1 is 1 and not yet propagated
    masks[10] = 1 | 2
    state = hand_state(masks)
    state.cand[10] = np.uint64(1)  # r2c2 left with 1 only: emptied by claiming
    state.cand[9] = FULL9
    assert locked(state, "rows") == -1


def test_locked_candidates_cut_the_search() -> None:
    puzzles = np.array([p.givens for p in load("norvig/sudoku-top95.txt")], np.uint8)
    _, _, with_lc = solve_batch(puzzles, 2)
    _, _, without = solve_batch(puzzles, 2, locked=False)
    assert with_lc[:, Stat.LOCKED_ELIMINATIONS].sum() > 0
    assert without[:, Stat.LOCKED_ELIMINATIONS].sum() == 0
    assert with_lc[:, Stat.NODES].sum() < without[:, Stat.NODES].sum()


# --- limits ---------------------------------------------------------------------------------

def test_batch_node_and_time_limits() -> None:
    empty = np.zeros((2, 256), np.uint8)
    grids, status, stats = solve_batch(empty, 50, node_limit=10)
    assert (status == Status.UNKNOWN).all() and (stats[:, Stat.NODES] <= 10).all()
    _, status, _ = solve_batch(empty, 10**6, time_limit=0.0)
    assert (status == Status.UNKNOWN).all()


def test_search_resumes_after_a_limit() -> None:
    puzzles = load("norvig/sudoku-top95.txt")
    _, _, stats = solve_batch(np.array([p.givens for p in puzzles], np.uint8))
    puzzle = puzzles[int(stats[:, Stat.NODES].argmax())]  # dozens of nodes
    reference = solve(puzzle, "fast").solution
    search = ResumableSearch(puzzle.geometry, puzzle.givens)
    outcomes = []
    while not outcomes or outcomes[-1] is StopReason.NODE_LIMIT:
        outcomes.append(search.advance(node_limit=2 * len(outcomes)))
    assert StopReason.NODE_LIMIT in outcomes and outcomes[-1] is StopReason.FOUND
    assert tuple(search.solution) == reference
    assert search.advance() is StopReason.EXHAUSTED and search.advance() is StopReason.EXHAUSTED


def test_front_door_limits_give_unknown_with_counters() -> None:
    result = count_solutions(Puzzle(Geometry.of(4, 4), (0,) * 256), "fast", limit=None,
                             node_limit=20)
    assert result.status is Status.UNKNOWN and result.stats.nodes == 20
    assert result.stats.propagations > 0 and "hidden_singles" in result.stats.extra


# --- batch API ------------------------------------------------------------------------------

def test_batch_shapes_and_dtypes() -> None:
    puzzles = np.array([p.givens for p in load("norvig/sudoku-easy50.txt", 3)], np.uint8)
    grids, status, stats = solve_batch(puzzles, 2)
    assert grids.shape == (3, 2, 81) and grids.dtype == np.uint8
    assert status.shape == (3,) and status.dtype == np.int8
    assert stats.shape == (3, len(Stat)) and stats.dtype == np.int64
    assert (stats[:, Stat.SOLUTIONS] == 1).all() and not grids[:, 1].any()
    assert (stats[:, Stat.NANOSECONDS] > 0).all()


@pytest.mark.parametrize("puzzles,limit,match", [
    (np.zeros(81, np.uint8), 1, "shape"),
    (np.zeros((1, 81), np.uint8), 0, "limit"),
    (np.zeros((1, 80), np.uint8), 1, "square number"),
    (np.full((1, 16), 5, np.uint8), 1, "above 4"),
])
def test_batch_bad_input(puzzles: np.ndarray, limit: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        solve_batch(puzzles, limit)


def test_solve_chunk_through_the_front_door() -> None:
    from sudokit import solve_many as front_solve_many

    puzzles = load("invalid/tdoku_test_puzzles")
    results = front_solve_many(puzzles, "fast", count_limit=2)
    assert [r.count for r in results] == [count_solutions(p, "fast", limit=2).count
                                          for p in puzzles]
    assert {r.label.word for r in results} == {"solved", "multiple", "unsolvable"}
    assert all(r.seconds > 0 for r in results)


# --- kernel cache directory -----------------------------------------------------------------

def test_cache_dir_prefers_the_package_then_the_user_dir(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    from numba.core import config

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    package = tmp_path / "pkg"
    assert cache.configure(package, "d1") == package / "__pycache__" / "kernels-d1"
    in_tree = package / "__pycache__"
    monkeypatch.setattr(compiled, "is_writable", lambda directory: directory != in_tree)
    user = tmp_path / "xdg" / "sudokit" / "numba" / "kernels-d1"
    assert cache.configure(package, "d1") == user
    assert config.CACHE_DIR == str(user)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "explicit"))
    assert cache.configure(package, "d1") == tmp_path / "explicit" / "kernels-d1"


def test_cache_dir_changes_with_the_kernel_sources(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """An edit of a file kernels are compiled from (not only of the kernel's own file) gives a
    new cache directory, and the stale one is removed (Numba tracks only the kernel's file)."""
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "sudokit"
    (root / "fast").mkdir(parents=True)
    (root / "fast" / "rules.py").write_text("A = 1\n")
    (root / "cli.py").write_text("B = 1\n")
    first = cache.configure(root / "fast")
    (root / "cli.py").write_text("B = 2\n")  # not a kernel source: same directory
    assert cache.configure(root / "fast") == first
    (root / "fast" / "rules.py").write_text("A = 2\n")
    second = cache.configure(root / "fast")
    assert second != first and second.is_dir() and first.is_dir()  # first: in use an hour
    os.utime(first, (0, 0))
    assert cache.configure(root / "fast") == second and not first.exists()
    assert cache.source_digest() == cache.source_digest()  # the real package: stable


def test_is_writable_on_a_read_only_directory(tmp_path: Path) -> None:
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert cache.is_writable(locked) is (os.geteuid() == 0)  # root ignores permissions
        assert cache.is_writable(tmp_path / "new" / "dir")
    finally:
        locked.chmod(0o700)


def read_only(install: Path, argv: list[str]) -> list[str]:
    """Make ``install`` read-only for the command: permissions, or (root ignores them) a
    read-only bind mount in a private mount namespace."""
    if os.geteuid() != 0:
        for path in [install, *install.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        return argv
    probe = ["unshare", "-m", "true"]
    if shutil.which("unshare") is None or subprocess.run(probe, capture_output=True).returncode:
        pytest.skip("root without mount namespaces: cannot make a directory read-only")
    return ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"',
            str(install), *argv]


@pytest.mark.slow
def test_read_only_install_still_caches(tmp_path: Path) -> None:
    """Copy the package, make it read-only, solve in two fresh processes: the first compiles
    into the user cache directory, the second loads from it."""
    import sudokit

    install = tmp_path / "site"
    shutil.copytree(Path(sudokit.__file__).parent, install / "sudokit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("import sudokit.fast as f, numpy as np; f.solve_batch(np.zeros((1, 81), np.uint8)); "
            "f.solve_batch(np.zeros((1, 16), np.uint8)); from sudokit.fast import kernels, nine; "
            "print(f.CACHE_DIR, sum(sum(k.run_batch.stats.cache_hits.values()) "
            "for k in (kernels, nine)))")
    argv = read_only(install, [sys.executable, "-c", code])
    env = {**os.environ, "PYTHONPATH": str(install), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    runs = [subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900)
            for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[-1].stderr
    first, second = (run.stdout.split() for run in runs)
    assert first[0] == second[0] == str(tmp_path / "cache" / "sudokit" / "numba")
    assert (first[1], second[1]) == ("0", "2")  # the generic and the 9x9 batch kernels
    assert list((tmp_path / "cache").rglob("*.nbi"))
    assert not list(install.rglob("*.nbi"))


def test_warm_up_loads_kernels_without_side_effects() -> None:
    from sudokit import get_solver

    solver = get_solver("fast")
    solver.warm_up()
    assert solve(Puzzle.from_digits([0] * 81), "fast").status is Status.SOLVED


# --- byte-table look-ups of the line path ------------------------------------------------------

def test_lookup_matches_numpy_and_flags_rows_outside_the_table() -> None:
    from sudokit.formats.lookup import INVALID, lookup

    rng = np.random.default_rng(7)
    table = np.full(256, INVALID, np.uint8)
    table[49:58], table[46] = np.arange(1, 10), 0
    values = rng.choice(np.array([46, *range(49, 58)], np.uint8), size=(50, 81))
    values[[3, 17], [5, 80]] = [ord("x"), ord("!")]  # not symbols of this table
    out, invalid = lookup(values, table)
    assert (out == table.take(values)).all()
    assert invalid.tolist() == [i in (3, 17) for i in range(50)]
    short = np.frombuffer(b".123", np.uint8)  # an encode table: digits 0..3 only
    records = np.zeros((2, 6), np.uint8)
    _, invalid = lookup(np.array([[1, 2, 3, 0], [1, 4, 0, 0]], np.uint8), short,
                        records[:, 1:5])  # written into a strided view
    assert bytes(records[0, 1:5]) == b"123." and invalid.tolist() == [False, True]
