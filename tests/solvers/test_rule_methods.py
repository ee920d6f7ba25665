"""sat, dpll and cpsat on grids with drawn rules (sudokit.model.rulebook), against the checker.

4x4: a random Sudoku solution is planted, random rules that it keeps are drawn on random cells
(every named rule of the rulebook, each kind of sudokit.model.rules), a few givens are kept; the
solutions each method enumerates must be exactly the 4x4 Sudoku grids the model's checker
(``is_solution``, every drawn rule included) accepts. cpsat runs when OR-Tools is installed.
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from functools import cache
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.model import rulebook as rb
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Grid, Puzzle, is_solution
from sudokit.model.rules import RULE_KINDS, Rule
from sudokit.registry import get_solver
from sudokit.run.doors import count_solutions
from tests.sat.test_rule_kinds_cnf import one_of_each_kind

SIDE = 4
METHODS = ["sat", "dpll"] + (["cpsat"] if importlib.util.find_spec("ortools") else [])


@cache
def _sudokus() -> tuple[Grid, ...]:
    """Every 4x4 Sudoku solution (288)."""
    g = Geometry.of(2, 2)
    rows = list(permutations(range(1, 5)))
    grids: list[tuple[int, ...]] = [()]
    for _ in range(4):  # add rows whose columns stay distinct
        grids = [s + r for s in grids for r in rows
                 if all(r[c] not in s[c::4] for c in range(4))]
    return tuple(s for s in grids if is_solution(s, Puzzle(g, (0,) * 16)))


def _catalogue(cells: list[int], rng: random.Random) -> list[tuple[Rule, ...]]:
    """Rules of every named kind over ``cells`` (random parameters; the caller keeps those
    the planted grid satisfies)."""
    a, b, *_ = cells
    row = [rng.randrange(4) * 4 + c for c in range(4)]
    row = row if rng.random() < 0.5 else [row[0] % 4 + 4 * r for r in range(4)]
    line = cells[:rng.randint(2, len(cells))]
    clue = rng.randint(0, 10)
    return [
        rb.kropki_white(a, b, SIDE), rb.kropki_black(a, b, SIDE), rb.greater_than(a, b, SIDE),
        rb.sum_pair(a, b, SIDE, rng.randint(3, 7)), rb.difference_dot(a, b, SIDE, 2),
        (rb.negated(rb.kropki_white(a, b, SIDE)[0], SIDE),), rb.thermometer(line, SIDE),
        rb.slow_thermometer(line, SIDE), rb.whispers(line, SIDE, 2), rb.palindrome(line, SIDE),
        rb.modular_line(line, SIDE, 3), rb.parity_line(line, SIDE),
        rb.nabner(line, SIDE), rb.minimum(a, line[1:], SIDE), rb.maximum(a, line[1:], SIDE),
        rb.clone(line[:1], [cells[-1]], SIDE) if cells[-1] not in line[:1] else (),
        rb.arrow(line[:1], line[1:]), rb.double_arrow(line) if len(line) > 2 else (),
        rb.little_killer(line, clue), rb.zipper_line(line),
        rb.region_sum_line(line, lambda c: (c // 8) * 2 + (c % 4) // 2),
        rb.sandwich(row, clue % 6, SIDE), rb.x_sum(row, clue, SIDE),
        rb.skyscraper(row, clue % 5, SIDE), rb.numbered_room(row, clue % 4 + 1, SIDE),
        rb.quadruple(cells[:4], sorted(rng.sample(range(1, 5), min(2, len(cells))))),
        rb.renban(line), rb.between_line(line), rb.lockout_line(line, SIDE, rng.randint(0, 3)),
        rb.indexer(row[rng.randrange(4)], row, rng.randint(1, 4)),
    ]


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    """A 4x4 puzzle with 1..4 rules its planted solution keeps and a few givens."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    planted = rng.choice(_sudokus())
    rules: list[Rule] = []
    for _ in range(draw(st.integers(1, 4))):
        cells = rng.sample(range(16), rng.randint(2, 5))
        kept = [r for r in _catalogue(cells, rng)
                if r and all(rule.holds([planted[c] for c in rule.cells]) for rule in r)]
        rules += rng.choice(kept)
    share = draw(st.sampled_from([0.2, 0.35]))
    givens = tuple(d if rng.random() < share else 0
                   for d in planted)
    return Puzzle(Geometry.of(2, 2, constraints=rules), givens)


def _assert_exact(puzzle: Puzzle, method: str) -> None:
    want = {s for s in _sudokus() if is_solution(s, puzzle)}
    found = count_solutions(puzzle, method, limit=None, time_limit=60)
    assert found.status.name == "SOLVED"
    assert len(found.solutions) == len(set(found.solutions))
    assert set(found.solutions) == want


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=20, deadline=None)
@given(puzzles())
def test_solutions_are_exactly_the_grids_the_checker_accepts(method: str,
                                                              puzzle: Puzzle) -> None:
    _assert_exact(puzzle, method)


N_NAMED = len(_catalogue(list(range(5)), random.Random(0)))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("index", range(N_NAMED))
def test_each_named_rule_alone(method: str, index: int) -> None:
    """Each named rule of the catalogue, planted twice, with about 30% of the givens."""
    rng = random.Random(index)
    done = 0
    while done < 2:
        planted = rng.choice(_sudokus())
        rules = _catalogue(rng.sample(range(16), rng.randint(2, 5)), rng)[index]
        if not rules or not all(r.holds([planted[c] for c in r.cells]) for r in rules):
            continue
        givens = tuple(d if rng.random() < 0.3 else 0 for d in planted)
        _assert_exact(Puzzle(Geometry.of(2, 2, constraints=rules), givens), method)
        done += 1


@pytest.mark.parametrize("method", METHODS)
def test_every_rule_kind_is_declared(method: str) -> None:
    assert RULE_KINDS <= type(get_solver(method)).features


@pytest.mark.parametrize("method", [
    "sat:minisat22", "sat:glucose4", "sat:exec", "dpll", "sat", "cpsat",
    *(f"sat/{e}" for e in ("minimal", "efficient", "extended"))])
def test_every_backend_and_encoding(method: str) -> None:
    if method == "sat:exec" and not shutil.which("cadical") and not shutil.which("minisat") \
            and not shutil.which("kissat"):
        pytest.skip("no SAT solver binary on PATH")
    if method == "cpsat" and "cpsat" not in METHODS:
        pytest.skip("ortools is not installed")
    name, _, encoding = method.partition("/")
    options = {"encoding": encoding} if encoding else {}
    puzzle = one_of_each_kind()
    assert {r.kind for r in puzzle.constraints} == RULE_KINDS
    found = count_solutions(puzzle, name, limit=None, time_limit=60, **options)
    assert found.solutions == ((1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1),)
