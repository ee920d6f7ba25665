"""The compiled engine (and the default method, the portfolio) on every variant feature.

Real puzzles: the Janko samples of ``tests/data/janko`` (jigsaw, killer, even/odd, 16x16 and
the overlapping multi-grid types), each solved and compared with its published solution. Rule
flags without published samples (diagonal, hyper, disjoint, anti-knight, anti-king,
non-consecutive) are checked on grids the engine fills from empty or from a few givens: the
independent check :func:`sudokit.model.puzzle.is_solution` must accept them, which the classic
grids the engine would find without the rule break. A Hypothesis property draws random killer
cages and even/odd marks over a solution grid.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import Status, count_solutions, solve
from sudokit.fast import solve_batch
from sudokit.fast.tables import (
    COMBINATION_LIMIT,
    _puzzle_tables,
    combination_masks,
    tables_for,
)
from sudokit.fast.verify import solves as compiled_solves
from sudokit.formats.janko import read_janko
from sudokit.model.constraints import Cage
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution, solves
from sudokit.registry import solver_class
from tests.helpers import DATA

JANKO = sorted((DATA / "janko").glob("*/problems/*.txt"))


def published_solution(problem: Path) -> list[int]:
    """The digits of a Janko solution file, in cell order (canvas row-major, gaps skipped)."""
    tokens = (problem.parent.parent / "solutions" / problem.name).read_text().split()[2:]
    return [int(t) for t in tokens if t.isdigit()]


def engine_grid(puzzle: Puzzle, limit: int = 1) -> tuple[int, np.ndarray, np.ndarray]:
    """(status code, solutions, stats row) of the batch engine on one puzzle."""
    grids, status, stats = solve_batch(np.array([puzzle.givens], np.uint8), limit,
                                       geometry=puzzle.geometry, time_limit=30)
    return int(status[0]), grids[0], stats[0]


# -- real puzzles ------------------------------------------------------------------------------

def test_janko_samples_cover_every_type() -> None:
    types = {p.parent.parent.name for p in JANKO}
    assert {"JigsawSudoku", "KillerSudoku", "EvenOddSudoku", "SamuraiSudoku"} <= types


@pytest.mark.parametrize("path", JANKO, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_janko_puzzle_solves_to_its_published_solution(path: Path) -> None:
    puzzle = read_janko(path)
    expected = published_solution(path)
    result = count_solutions(puzzle, limit=2)  # the default method, counting
    assert result.status.name == "SOLVED"
    assert list(result.solutions[0]) == expected
    assert len(result.solutions) == 1  # unique: --unique works on variants
    code, grids, _ = engine_grid(puzzle)
    assert code == Status.SOLVED and grids[0].tolist() == expected


def test_default_method_declares_every_janko_geometry() -> None:
    for path in JANKO:
        geometry = read_janko(path).geometry
        for name in ("fast", "portfolio"):
            assert solver_class(name).supports(geometry), (name, path)


@pytest.mark.parametrize("feature", ["jigsaw", "killer", "even-odd", "multi-grid"])
def test_each_feature_has_a_sample(feature: str) -> None:
    assert any(feature in read_janko(p).geometry.features for p in JANKO)


def test_wrong_published_grid_is_rejected_by_both_verifications() -> None:
    """A killer grid with two digits swapped inside rows keeps every unit but breaks cages."""
    path = next(p for p in JANKO if p.parent.parent.name == "KillerSudoku")
    puzzle = read_janko(path)
    grid = np.array([published_solution(path)], np.uint8)
    givens = np.array([puzzle.givens], np.uint8)
    assert solves(grid, givens, puzzle.geometry)[0] and compiled_solves(grid, givens,
                                                                        puzzle.geometry)[0]
    swapped = grid.copy()
    # swap two columns of the whole grid: units stay permutations, cage sums change
    swapped[0].reshape(9, 9)[:, [0, 3]] = swapped[0].reshape(9, 9)[:, [3, 0]]
    assert not solves(swapped, givens, puzzle.geometry)[0]
    assert not compiled_solves(swapped, givens, puzzle.geometry)[0]


# -- rule flags: grids filled by the engine must satisfy the rule ------------------------------

FLAGS = ["diagonal", "main-diagonal", "anti-diagonal", "hyper", "disjoint", "anti-knight",
         "anti-king", "non-consecutive",
         "diagonal+anti-knight", "hyper+disjoint", "anti-king+non-consecutive"]


@pytest.mark.parametrize("variant", FLAGS)
def test_empty_variant_grid_is_filled_by_the_rules(variant: str) -> None:
    geometry = Geometry.of(3, 3, variant)
    puzzle = Puzzle(geometry, (0,) * 81)
    code, grids, _ = engine_grid(puzzle)
    assert code == Status.SOLVED
    assert is_solution(tuple(grids[0].tolist()), puzzle)
    # the same grid read as classic Sudoku is no proof: the classic engine's first grid breaks
    # the rule, so the check above can fail
    code, plain, _ = engine_grid(Puzzle(Geometry.of(3, 3), (0,) * 81))
    assert not is_solution(tuple(plain[0].tolist()), puzzle)


@pytest.mark.parametrize("variant", FLAGS)
def test_variant_puzzle_with_half_the_cells_given(variant: str) -> None:
    geometry = Geometry.of(3, 3, variant)
    _, full, _ = engine_grid(Puzzle(geometry, (0,) * 81))
    rng = random.Random(variant)
    givens = [d if rng.random() < 0.35 else 0 for d in full[0].tolist()]
    puzzle = Puzzle(geometry, tuple(givens))
    result = solve(puzzle)  # the default method, verified by the front door
    assert result.status.name == "SOLVED" and is_solution(result.solutions[0], puzzle)


def latin_squares(side: int) -> list[tuple[int, ...]]:
    """Every side x side Latin square, row-major (576 for side 4)."""
    rows = list(itertools.permutations(range(1, side + 1)))
    found: list[tuple[int, ...]] = []

    def extend(square: list[tuple[int, ...]]) -> None:
        if len(square) == side:
            found.append(tuple(d for row in square for d in row))
            return
        for row in rows:
            if all(row[c] != other[c] for other in square for c in range(side)):
                extend([*square, row])

    extend([])
    return found


@pytest.mark.parametrize("variant", ["standard", "diagonal", "hyper", "anti-knight",
                                     "anti-king", "non-consecutive", "diagonal+non-consecutive"])
@pytest.mark.parametrize("first", [0, 1, 2])
def test_counting_matches_brute_force_on_4x4(variant: str, first: int) -> None:
    """Every solution, counted by the engine, against every Latin square the independent
    check accepts (with r1c1 given as ``first`` when not 0)."""
    geometry = Geometry.of(2, 2, variant)
    givens = (first,) + (0,) * 15
    puzzle = Puzzle(geometry, givens)
    brute = {g for g in latin_squares(4) if is_solution(g, puzzle)}
    found = count_solutions(puzzle, "fast", limit=None).solutions if brute else ()
    assert set(found) == brute and len(found) == len(brute)
    code, _, stats = engine_grid(puzzle, 300)
    assert stats[5] == len(brute) and code == (Status.SOLVED if brute else Status.UNSATISFIABLE)


# -- killer cages ------------------------------------------------------------------------------

@pytest.mark.parametrize("size,side", [(1, 9), (2, 9), (3, 9), (4, 9), (5, 9), (3, 16)])
def test_cage_combinations_match_brute_force(size: int, side: int) -> None:
    for total in range(1, side * size + 1):
        brute = sorted(sum(1 << (d - 1) for d in c)
                       for c in itertools.combinations(range(1, side + 1), size)
                       if sum(c) == total)
        assert sorted(combination_masks(size, total, side) or ()) == brute


def test_cage_combinations_too_many_is_none() -> None:
    assert combination_masks(12, 300, 49) is None
    assert len(combination_masks(8, 68, 16) or ()) <= COMBINATION_LIMIT


def killer_geometry(grid: list[int], rng: random.Random, side: int = 9, box: int = 3,
                    largest: int = 4) -> Geometry:
    """Random connected cages of 1..largest cells over a solution grid, totals from it."""
    free = set(range(side * side))
    cages = []
    while free:
        cell = min(free)
        cells = [cell]
        free.discard(cell)
        want = rng.randint(1, largest)
        while len(cells) < want:
            options = [c for x in cells for c in (x + 1, x + side)
                       if c in free and (c != x + 1 or c % side)]
            options = [c for c in options if grid[c] not in {grid[x] for x in cells}]
            if not options:
                break
            pick = rng.choice(options)
            free.discard(pick)
            cells.append(pick)
        cages.append(Cage(sum(grid[c] for c in cells), tuple(cells)))
    return Geometry.of(box, box, cages=cages)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), largest=st.integers(2, 5), parity=st.booleans())
def test_random_killer_over_a_solution_grid_is_solved(seed: int, largest: int,
                                                      parity: bool) -> None:
    rng = random.Random(seed)
    base = Geometry.of(3, 3)
    givens = [0] * 81
    for cell in rng.sample(range(81), 3):  # a random grid: a few random givens, then fill
        givens[cell] = rng.randint(1, 9)
    code, grids, _ = engine_grid(Puzzle(base, tuple(givens)))
    if code != Status.SOLVED:
        givens = [0] * 81
        _, grids, _ = engine_grid(Puzzle(base, tuple(givens)))
    grid = grids[0].tolist()
    geometry = killer_geometry(grid, rng, largest=largest)
    if parity:
        marks = "".join(rng.choice(".." + ("e" if d % 2 == 0 else "o")) for d in grid)
        geometry = Geometry.of(3, 3, cages=geometry.cages, parity=marks)
    puzzle = Puzzle(geometry, (0,) * 81)
    code, found, _ = engine_grid(puzzle)
    assert code == Status.SOLVED
    assert is_solution(tuple(found[0].tolist()), puzzle)


def test_killer_without_combination_tables_uses_sum_bounds() -> None:
    """A 49x49 grid (7x7 boxes) with one 12-cell cage, more combinations than tabled: the
    bounds path must still reach the grid the givens and the cage force."""
    geometry = Geometry.of(7, 7)
    _, grids, _ = engine_grid(Puzzle(geometry, (0,) * 49 * 49))
    grid = grids[0].tolist()
    cells = tuple(range(0, 48, 4))  # digits spread over 1..49: far too many combinations
    killer = Geometry.of(7, 7, cages=[Cage(sum(grid[c] for c in cells), cells)])
    assert killer.cages and combination_masks(12, killer.cages[0].total, 49) is None
    assert tables_for(killer).cages.combo_start.tolist() == [0, 0]
    givens = list(grid)
    for c in (*cells[:6], 49 + 3, 98 + 41):
        givens[c] = 0
    puzzle = Puzzle(killer, tuple(givens))
    code, found, _ = engine_grid(puzzle, 2)
    assert code == Status.SOLVED and is_solution(tuple(found[0].tolist()), puzzle)


def test_killer_wrong_total_is_unsatisfiable() -> None:
    _, grids, _ = engine_grid(Puzzle(Geometry.of(2, 2), (0,) * 16))
    grid = grids[0].tolist()
    cages = [Cage(grid[0] + grid[1] + (1 if grid[0] + grid[1] < 7 else -1), (0, 1))]
    puzzle = Puzzle(Geometry.of(2, 2, cages=cages), tuple(grid[:0] + [0] * 2 + grid[2:]))
    code, _, _ = engine_grid(puzzle)
    assert code == Status.UNSATISFIABLE


# -- tables ------------------------------------------------------------------------------------

def test_per_puzzle_tables_are_bounded() -> None:
    rng = random.Random(3)
    _, grids, _ = engine_grid(Puzzle(Geometry.of(3, 3), (0,) * 81))
    for _ in range(80):
        tables_for(killer_geometry(grids[0].tolist(), rng))
    assert _puzzle_tables.cache_info().currsize <= 64


def test_jigsaw_intersections_hold_shared_cells_only() -> None:
    path = next(p for p in JANKO if p.parent.parent.name == "JigsawSudoku")
    geometry = read_janko(path).geometry
    inter = tables_for(geometry).inter
    assert tables_for(geometry).rows.cells.shape[0] == 0
    units = [set(u) for u in geometry.units]
    for s in range(len(inter.start) - 1):
        cells = set(inter.cells[inter.start[s]:inter.start[s + 1]].tolist())
        assert 2 <= len(cells) < 9
        holders = [u for u in units if cells <= u]
        assert inter.pair_start[s + 1] - inter.pair_start[s] == len(holders) >= 2


def test_parity_sets_initial_candidates() -> None:
    marks = "eo" + "." * 14
    tables = tables_for(Geometry.of(2, 2, parity=marks))
    assert tables.initial[:3].tolist() == [0b1010, 0b0101, 0b1111]


@pytest.mark.parametrize("method", ["fast", "portfolio"])
def test_batch_path_solves_and_counts_every_janko_sample(method: str) -> None:
    """The chunk path (one compiled call per geometry, compiled verification)."""
    from sudokit import solve_many as front_solve_many

    puzzles = [read_janko(p) for p in JANKO]
    results = front_solve_many(puzzles, method, count_limit=2)
    for path, result in zip(JANKO, results):
        assert result.status.name == "SOLVED" and len(result.solutions) == 1, path
        assert list(result.solutions[0]) == published_solution(path), path


def test_compiled_verification_checks_each_variant_rule() -> None:
    """A grid valid for every unit but breaking one rule at a time is rejected."""
    base = Geometry.of(2, 2)
    grid = np.array([[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]], np.uint8)
    empty = np.zeros_like(grid)
    assert compiled_solves(grid, empty, base)[0]
    broken = {
        "anti-king": Geometry.of(2, 2, "anti-king"),  # r2c2 = 4 touches r3c3 = 4
        "non-consecutive": Geometry.of(2, 2, "non-consecutive"),
        "parity": Geometry.of(2, 2, parity="e" + "." * 15),
        "cage": Geometry.of(2, 2, cages=[Cage(4, (0, 1))]),
    }
    for name, geometry in broken.items():
        expected = bool(solves(grid, empty, geometry)[0])
        assert compiled_solves(grid, empty, geometry)[0] == expected, name
        assert is_solution(tuple(grid[0].tolist()), Puzzle(geometry, (0,) * 16)) == expected
        assert not expected, name


def test_default_method_counts_a_16x16_killer() -> None:
    """Above 9x9 the portfolio may race CDCL (when ``sat`` declares killer): every grid it
    reports, from either side, is verified by the front door."""
    _, grids, _ = engine_grid(Puzzle(Geometry.of(4, 4), (0,) * 256))
    geometry = killer_geometry(grids[0].tolist(), random.Random(1), side=16, box=4)
    puzzle = Puzzle(geometry, (0,) * 256)
    result = count_solutions(puzzle, limit=2, time_limit=60)
    assert result.status.name == "SOLVED" and result.solutions
    assert all(is_solution(grid, puzzle) for grid in result.solutions)
