"""sudokit's own methods (propagate, the CSP methods, SAT, DPLL, CP-SAT) on variant Sudoku.

For every method and every feature it declares: small puzzles whose full solution sets are known
independently (4x4: every Latin square of order 4 filtered by the puzzle's own verification,
:func:`sudokit.model.puzzle.is_solution`) must come back exactly, and real puzzles of Otto Janko's
site (tests/data/janko, see tests/data/SOURCES.md) must give their published solution. A method
must refuse (UnsupportedPuzzle) every feature it does not declare.
"""

from __future__ import annotations

import importlib.util
import random
from functools import cache
from itertools import permutations
from pathlib import Path

import pytest

from sudokit.errors import UnsupportedPuzzle
from sudokit.model.geometry import Geometry
from sudokit.model.layouts import Layout
from sudokit.model.puzzle import Grid, Puzzle, is_solution
from sudokit.model.rules import RULE_KINDS
from sudokit.registry import get_solver
from sudokit.run.doors import count_solutions, solve

DATA = Path(__file__).parents[1] / "data" / "janko"
METHODS = ["propagate", "backtracking", "forward-checking", "mac", "sat", "dpll", "cpsat"]
FEATURES = ["diagonal", "main-diagonal", "anti-diagonal", "hyper", "disjoint", "anti-knight",
            "anti-king", "non-consecutive", "jigsaw", "killer", "extra-region", "even-odd",
            "multi-grid"]


def _available(method: str) -> bool:
    return method != "cpsat" or importlib.util.find_spec("ortools") is not None


def _declared(method: str) -> frozenset[str]:
    return type(get_solver(method)).features if _available(method) else frozenset()


def _pairs(declared: bool) -> list[tuple[str, str]]:
    return [(m, f) for m in METHODS if _available(m) for f in FEATURES
            if (f in _declared(m)) == declared]


# -- independent references: every Latin square of order 4 -----------------------------------

@cache
def _latin4() -> tuple[Grid, ...]:
    rows = list(permutations(range(1, 5)))

    def extend(prefix: tuple[tuple[int, ...], ...]) -> list[Grid]:
        if len(prefix) == 4:
            return [sum(prefix, ())]
        return [g for r in rows if all(r[c] != p[c] for p in prefix for c in range(4))
                for g in extend((*prefix, r))]

    return tuple(extend(()))


def _two_grids() -> tuple[Grid, ...]:
    """Every filling of two 4x4 grids overlapping in one box (the 28 cells of a 6x6 canvas)."""
    g = Geometry.of(2, 2, layout=Layout(6, 6, ((0, 0), (2, 2))))
    standard = [s for s in _latin4() if is_solution(s, Puzzle(Geometry.of(2, 2), (0,) * 16))]
    out = []
    for first in standard:
        for second in standard:
            if [first[10], first[11], first[14], first[15]] != [second[0], second[1], second[4],
                                                                  second[5]]:
                continue
            grid = [0] * g.n_cells
            for k, (r0, c0) in enumerate(((0, 0), (2, 2))):
                for i in range(16):
                    cell = g.cell_at(r0 + i // 4, c0 + i % 4)
                    grid[cell] = (first, second)[k][i]
            out.append(tuple(grid))
    return tuple(out)


def _small(feature: str) -> tuple[Geometry, tuple[Grid, ...]]:
    """A small geometry with the feature, and every filling to filter by verification."""
    if feature == "multi-grid":
        return Geometry.of(2, 2, layout=Layout(6, 6, ((0, 0), (2, 2)))), _two_grids()
    if feature == "jigsaw":
        regions = [(0, 1, 2, 5), (3, 6, 7, 11), (4, 8, 9, 12), (10, 13, 14, 15)]
        return Geometry.of(2, 2, regions=regions), _latin4()
    if feature == "killer":  # cages of a grid: 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1
        cages = [(3, (0, 1)), (7, (2, 3)), (5, (4, 8)), (5, (5, 9)), (3, (6, 7)),
                 (6, (10, 14)), (4, (11, 15)), (7, (12, 13))]
        return Geometry.of(2, 2, cages=cages), _latin4()
    if feature == "even-odd":
        return Geometry.of(2, 2, parity="e.o." + "...." + ".e.." + "o..."), _latin4()
    if feature == "extra-region":  # a unit of 4 cells and an all-different pair (f-puzzles)
        return Geometry.of(2, 2, extra_regions=[(1, 4, 11, 14), (2, 7)]), _latin4()
    return Geometry.of(2, 2, feature), _latin4()


def _reference(puzzle: Puzzle, fillings: tuple[Grid, ...]) -> set[Grid]:
    return {s for s in fillings if is_solution(s, puzzle)}


@pytest.mark.parametrize(("method", "feature"), [p for p in _pairs(True)
                                                 if p[1] not in ("anti-king", "non-consecutive")])
def test_small_puzzles_give_exactly_the_reference_solutions(method: str, feature: str) -> None:
    geometry, fillings = _small(feature)
    every = sorted(_reference(Puzzle(geometry, (0,) * geometry.n_cells), fillings))
    assert every, "the reference puzzle must have solutions"
    rng = random.Random(16)
    for _ in range(3):
        planted = rng.choice(every)
        givens = [d if rng.random() < 0.3 else 0 for d in planted]
        puzzle = Puzzle(geometry, tuple(givens))
        found = count_solutions(puzzle, method, limit=None, time_limit=60)
        assert found.status.name == "SOLVED"
        assert set(found.solutions) == _reference(puzzle, fillings)
        assert len(found.solutions) == len(set(found.solutions))


# 6x6 puzzles with one solution (4x4 grids admit none under these rules); the solution is
# checked by the verifier, and every method must find it and prove it unique.
SIX = {
    "anti-king": (".2...6.....3......6...1....5........",
                  "123456465123312645654312231564546231"),
    "non-consecutive": ("..5...................2.......6.....",
                        "135246462513246351513624351462624135"),
}


@pytest.mark.parametrize(("method", "feature"), [p for p in _pairs(True)
                                                 if p[1] in ("anti-king", "non-consecutive")])
def test_six_by_six_puzzles_with_one_solution(method: str, feature: str) -> None:
    text, solution = SIX[feature]
    geometry = Geometry.of(2, 3, feature)
    puzzle = Puzzle(geometry, tuple(0 if ch == "." else int(ch) for ch in text))
    expected = tuple(map(int, solution))
    assert is_solution(expected, puzzle)
    found = count_solutions(puzzle, method, limit=2, time_limit=60)
    assert found.solutions == (expected,)


def test_six_by_six_puzzles_need_their_rule() -> None:
    """Without the variant rule the givens leave many solutions: the rule does the work."""
    for text, _ in SIX.values():
        givens = tuple(0 if ch == "." else int(ch) for ch in text)
        assert count_solutions(Puzzle(Geometry.of(2, 3), givens), "sat", limit=2).count == 2


# -- real puzzles (janko.at) -------------------------------------------------------------------

def _janko(folder: str, name: str) -> tuple[Puzzle, Grid]:
    from sudokit.formats.janko import read_janko

    puzzle = read_janko(DATA / folder / "problems" / name)
    lines = (DATA / folder / "solutions" / name).read_text().split("\n")
    tokens = [t for line in lines[1:] for t in line.split()]
    width = puzzle.geometry.canvas[1]
    grid = tuple(int(tokens[p]) for p in puzzle.geometry.positions)
    assert len(tokens) == puzzle.geometry.canvas[0] * width
    return puzzle, grid


JANKO = {"jigsaw": ("JigsawSudoku", "94_9x9.txt"), "killer": ("KillerSudoku", "22_9x9.txt"),
         "even-odd": ("EvenOddSudoku", "2_9x9.txt"), "multi-grid": ("SamuraiSudoku", "2_21x21.txt")}
SLOW = {("backtracking", "killer"), ("forward-checking", "killer")}  # 33 s and 5 s (no GAC)


@pytest.mark.parametrize(("method", "feature"), [
    pytest.param(m, f, marks=[pytest.mark.slow] if (m, f) in SLOW else [])
    for m, f in _pairs(True) if f in JANKO])
def test_janko_puzzles_give_the_published_solution(method: str, feature: str) -> None:
    puzzle, expected = _janko(*JANKO[feature])
    assert feature in puzzle.geometry.features
    found = solve(puzzle, method, time_limit=120)
    assert found.solution == expected


def _undeclared() -> list[tuple[str, str]]:
    """Every registered method (ours and the others: fast, logic, portfolio) with each feature
    it does not declare."""
    from sudokit.registry import methods

    return [(m.name, f) for m in methods() if m.available for f in FEATURES
            if f not in m.cls.features]


@pytest.mark.parametrize(("method", "feature"), _undeclared())
def test_methods_refuse_what_they_do_not_declare(method: str, feature: str) -> None:
    geometry, _ = _small(feature) if feature not in SIX else (Geometry.of(2, 3, feature), None)
    with pytest.raises(UnsupportedPuzzle):
        solve(Puzzle(geometry, (0,) * geometry.n_cells), method)


def test_every_declared_feature_is_a_feature_of_the_model() -> None:
    for method in METHODS:
        assert _declared(method) <= set(FEATURES) | RULE_KINDS, method


# -- DIMACS round trip --------------------------------------------------------------------------

@pytest.mark.parametrize("feature", ["jigsaw", "killer", "even-odd", "multi-grid"])
def test_dimacs_names_variant_puzzles_and_reads_a_model_back(feature: str) -> None:
    """``sudokit cnf`` then a solver's model then ``sat --model``: the comments carry regions,
    cages, parity and layout, and the model (cage selectors included) decodes to the solution."""
    import io

    from sudokit.sat.dimacs import decode_answer, write_sudoku_cnf
    from sudokit.sat.encoding import Encoding

    PySatSolver = pytest.importorskip("pysat.solvers").Solver
    puzzle, expected = _janko(*JANKO[feature])
    out = io.StringIO()
    write_sudoku_cnf(out, puzzle, Encoding.EXTENDED)
    text = out.getvalue()
    clauses = [list(map(int, line.split()[:-1])) for line in text.splitlines()
               if line and line[0] not in "cp"]
    with PySatSolver(name="cadical153", bootstrap_with=clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    answer = "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"
    read, _, grid = decode_answer(text, answer)
    assert read.geometry == puzzle.geometry and read.givens == puzzle.givens
    assert grid == expected


# -- the pieces: cage supports, AC-3 with variant arcs, clause counts -------------------------

def test_cage_supports_equal_brute_force() -> None:
    from sudokit.csp.cages import cage_supports

    rng = random.Random(7)
    for _ in range(300):
        side, k = rng.choice([(4, 2), (6, 3), (6, 2), (9, 3), (9, 4)])
        domains = [sum(1 << d for d in range(1, side + 1) if rng.random() < 0.6) for _ in range(k)]
        total = rng.randint(k * (k + 1) // 2, k * (2 * side - k + 1) // 2)
        found = [0] * k
        for values in permutations(range(1, side + 1), k):
            if sum(values) == total and all(domains[i] >> v & 1 for i, v in enumerate(values)):
                for i, v in enumerate(values):
                    found[i] |= 1 << v
        expected = tuple(found) if any(found) else None
        assert cage_supports(domains, total, side) == expected


def test_ac3_prunes_by_cages_non_consecutive_and_parity() -> None:
    from sudokit.csp.sudoku import ac3_candidates
    from sudokit.model.result import Stats

    cages = Geometry.of(3, 3, cages=[(3, (0, 1)), (24, (2, 3, 4))])
    stats = Stats(trace=[])
    found = ac3_candidates(Puzzle(cages, (0,) * 81), stats)
    assert found[0] == found[1] == (1, 2)
    assert found[2] == found[3] == found[4] == (7, 8, 9)
    assert stats.trace and stats.trace[-1] == 0 and stats.revisions > 0
    apart = Geometry.of(3, 3, "non-consecutive")
    found = ac3_candidates(Puzzle(apart, (5,) + (0,) * 80))
    assert 4 not in found[1] and 6 not in found[1] and 4 not in found[9]
    assert 4 in found[2]
    odd = Geometry.of(3, 3, parity="o" + "e" + "." * 79)
    found = ac3_candidates(Puzzle(odd, (0,) * 81))
    assert found[0] == (1, 3, 5, 7, 9) and found[1] == (2, 4, 6, 8)


def test_sat_clause_counts_and_variables_cover_the_variant_clauses() -> None:
    from sudokit.sat.encoding import (
        Encoding,
        base_clauses,
        clause_count,
        n_variables,
        split_var,
    )

    puzzle, _ = _janko(*JANKO["killer"])
    g = puzzle.geometry
    clauses = base_clauses(g, Encoding.EXTENDED)
    assert len(clauses) == clause_count(g, Encoding.EXTENDED)
    assert max(abs(lit) for c in clauses for lit in c) == n_variables(g) > 729
    samurai, _ = _janko(*JANKO["multi-grid"])
    assert n_variables(samurai.geometry) == 9 * samurai.geometry.n_cells
    assert split_var(9 * samurai.geometry.n_cells, 9, samurai.geometry.n_cells) == (
        samurai.geometry.n_cells - 1, 9)
    with pytest.raises(ValueError):
        split_var(9 * samurai.geometry.n_cells + 1, 9, samurai.geometry.n_cells)


@pytest.mark.parametrize("method", [m for m in METHODS if _available(m)])
def test_givens_breaking_a_variant_rule_are_unsatisfiable(method: str) -> None:
    """The front door reports such givens; each method must also prove them unsatisfiable."""
    from sudokit.model.result import Limits, Stats

    cases = [Puzzle(Geometry.of(2, 2, "anti-knight"), (1,) + (0,) * 5 + (1,) + (0,) * 9),
             Puzzle(Geometry.of(2, 2, parity="e" + "." * 15), (1,) + (0,) * 15),
             Puzzle(Geometry.of(2, 3, "non-consecutive"), (1, 2) + (0,) * 34),
             Puzzle(Geometry.of(2, 2, cages=[(3, (0, 1))]), (2, 0, 0, 0, 0, 2) + (0,) * 10)]
    solver = get_solver(method)
    for puzzle in cases:
        assert puzzle.conflicts()
        stats = Stats.counting(solver.counters)
        assert list(solver.solutions(puzzle, stats, Limits().start())) == [], puzzle


@pytest.mark.parametrize("encoding", ["minimal", "efficient", "extended", "reduced"])
@pytest.mark.parametrize("method", ["sat", "dpll"])
def test_every_encoding_carries_the_variant_clauses(method: str, encoding: str) -> None:
    if method == "sat":
        pytest.importorskip("pysat")
    for feature in ("killer", "even-odd", "anti-knight", "multi-grid"):
        geometry, fillings = _small(feature)
        planted = min(_reference(Puzzle(geometry, (0,) * geometry.n_cells), fillings))
        puzzle = Puzzle(geometry, tuple(d if c % 5 == 0 else 0 for c, d in enumerate(planted)))
        found = count_solutions(puzzle, method, limit=None, encoding=encoding)
        assert set(found.solutions) == _reference(puzzle, fillings), feature


@pytest.mark.parametrize("feature", sorted(JANKO))
def test_a_solver_binary_solves_variants_and_proves_them_unique(feature: str) -> None:
    """``sat:exec``: the DIMACS file (with cage selectors) goes to kissat, cadical or minisat."""
    from sudokit.sat.external import default_command

    if default_command() is None:
        pytest.skip("no kissat, cadical or minisat on PATH")
    puzzle, expected = _janko(*JANKO[feature])
    found = count_solutions(puzzle, "sat:exec", limit=2, time_limit=60)
    assert found.solutions == (expected,)
