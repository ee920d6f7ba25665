"""Every rule kind's CNF (sudokit.sat.rules) against the model's own check (Rule.holds).

For random rules on 1..4 cells with digits 1..N (N 3..6), each digit tuple is tested by a PySAT
solve under the assumptions ``x(cell, digit)``, with exactly one digit per cell: the formula is
satisfiable exactly for the tuples the rule accepts. The same enumeration through our DPLL
(projecting its models on the cells) gives the same set.
"""

from __future__ import annotations

import io
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudokit.errors import InvalidPuzzle
from sudokit.model import rulebook
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, is_solution
from sudokit.model.result import Limits, Stats
from sudokit.model.rules import (
    RULE_KINDS,
    Automaton,
    Between,
    Contains,
    Index,
    Lockout,
    Relation,
    Renban,
    Rule,
    WeightedSum,
)
from sudokit.sat.dimacs import (
    decode_answer,
    leading_comments,
    puzzle_from_comments,
    read_dimacs,
    write_sudoku_cnf,
)
from sudokit.sat.dpll import dpll_models
from sudokit.sat.encoding import Encoding
from sudokit.sat.rules import SAT_RULE_KINDS, rule_clauses

KINDS_SEEN: set[str] = set()


def _cell_clauses(k: int, side: int) -> list[list[int]]:
    out = []
    for c in range(k):
        lits = [c * side + d for d in range(1, side + 1)]
        out.append(lits)
        out += [[-a, -b] for a, b in combinations(lits, 2)]
    return out


def _formula(rule: Rule, k: int, side: int) -> tuple[list[list[int]], int]:
    clauses, n_aux = rule_clauses(rule, side, k * side + 1)
    return clauses + _cell_clauses(k, side), k * side + n_aux


def _accepted(rule: Rule, k: int, side: int) -> set[tuple[int, ...]]:
    return {t for t in product(range(1, side + 1), repeat=k)
            if rule.holds([t[c] for c in rule.cells])}


def _assert_exact(rule: Rule, k: int, side: int) -> None:
    KINDS_SEEN.add(rule.kind)
    clauses, _ = _formula(rule, k, side)
    want = _accepted(rule, k, side)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        got = {t for t in product(range(1, side + 1), repeat=k)
               if solver.solve(assumptions=[c * side + d for c, d in enumerate(t)])}
    assert got == want, (rule, sorted(got ^ want)[:5])


sides = st.integers(3, 6)


@st.composite
def cells(draw: st.DrawFn, least: int = 1, most: int = 4) -> tuple[int, tuple[int, ...]]:
    """(k, a permutation of k cells): rules read their cells in any order."""
    k = draw(st.integers(least, most))
    return k, tuple(draw(st.permutations(range(k))))


@settings(max_examples=60, deadline=None)
@given(sides, cells(2, 2), st.data())
def test_pair_relation(side: int, kc: tuple[int, tuple[int, ...]], data: st.DataObject) -> None:
    k, cs = kc
    digits = range(1, side + 1)
    pairs = data.draw(st.frozensets(st.tuples(st.sampled_from(digits), st.sampled_from(digits))))
    _assert_exact(Relation(cs, pairs), k, side)


@settings(max_examples=80, deadline=None)
@given(sides, cells(), st.data())
def test_linear_sum(side: int, kc: tuple[int, tuple[int, ...]], data: st.DataObject) -> None:
    k, cs = kc
    coefs = data.draw(st.lists(st.sampled_from([-10, -3, -1, 1, 2, 5]), min_size=k, max_size=k))
    total = data.draw(st.integers(-12, 24))
    _assert_exact(WeightedSum(cs, tuple(coefs), total), k, side)


@settings(max_examples=80, deadline=None)
@given(sides, cells(), st.integers(0, 30), st.sampled_from(
    ["sandwich", "x_sum", "skyscraper", "numbered_room"]))
def test_sequence_rules(side: int, kc: tuple[int, tuple[int, ...]], clue: int,
                        name: str) -> None:
    k, cs = kc
    if name in ("skyscraper", "numbered_room"):
        clue = clue % (side + 1)
    rule = getattr(rulebook, name)(cs, max(clue, 1) if name == "numbered_room" else clue, side)[0]
    _assert_exact(rule, k, side)


@settings(max_examples=60, deadline=None)
@given(sides, cells(), st.integers(1, 5), st.data())
def test_random_automaton(side: int, kc: tuple[int, tuple[int, ...]], states: int,
                          data: st.DataObject) -> None:
    k, cs = kc
    table = tuple(tuple(data.draw(st.lists(st.integers(-1, states - 1), min_size=side,
                                           max_size=side))) for _ in range(states))
    accepting = data.draw(st.frozensets(st.integers(0, states - 1)))
    _assert_exact(Automaton(cs, table, accepting, data.draw(st.integers(0, states - 1))), k, side)


@settings(max_examples=60, deadline=None)
@given(sides, cells(), st.data())
def test_must_contain(side: int, kc: tuple[int, tuple[int, ...]], data: st.DataObject) -> None:
    k, cs = kc
    digits = data.draw(st.lists(st.integers(1, side), max_size=k))
    _assert_exact(Contains(cs, tuple(sorted(digits))), k, side)


@settings(max_examples=60, deadline=None)
@given(sides, cells(), st.integers(0, 5), st.sampled_from(["renban", "between", "lockout"]))
def test_lines(side: int, kc: tuple[int, tuple[int, ...]], gap: int, name: str) -> None:
    k, cs = kc
    if name == "renban":
        rule: Rule = Renban(cs)
    elif k < 2:
        return
    else:
        rule = Between(cs) if name == "between" else Lockout(cs, gap % side)
    _assert_exact(rule, k, side)


@settings(max_examples=60, deadline=None)
@given(sides, cells(2, 4), st.data())
def test_indexing(side: int, kc: tuple[int, tuple[int, ...]], data: st.DataObject) -> None:
    k, cs = kc
    targets = data.draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=side))
    _assert_exact(Index(cs, tuple(targets), data.draw(st.integers(1, side))), k, side)


@settings(max_examples=30, deadline=None)
@given(sides, cells(2, 3), st.integers(-5, 15))
def test_dpll_enumerates_the_same_tuples(side: int, kc: tuple[int, tuple[int, ...]],
                                         total: int) -> None:
    k, cs = kc
    rule = WeightedSum(cs, (1,) * (k - 1) + (-1,), total % side)
    clauses, n_vars = _formula(rule, k, side)
    got = set()
    for model in dpll_models(clauses, n_vars, Stats(), Limits()):
        true = {lit for lit in model if 0 < lit <= k * side}
        got.add(tuple(next(d for d in range(1, side + 1) if c * side + d in true)
                      for c in range(k)))
    assert got == _accepted(rule, k, side)


def test_every_kind_is_encoded() -> None:
    assert SAT_RULE_KINDS == RULE_KINDS


@settings(max_examples=30, deadline=None)
@given(sides, cells(1, 3), st.integers(0, 20), st.sampled_from(["sum", "sandwich", "renban"]))
def test_one_model_per_accepted_tuple(side: int, kc: tuple[int, tuple[int, ...]], clue: int,
                                      name: str) -> None:
    """Auxiliary variables are determined: the model count over every variable is the count
    of accepted tuples (a #SAT count of `sudokit cnf` output counts grids)."""
    k, cs = kc
    rule = {"sum": lambda: WeightedSum(cs, (1,) * k, clue),
            "sandwich": lambda: rulebook.sandwich(cs, clue, side)[0],
            "renban": lambda: Renban(cs)}[name]()
    clauses, n_vars = _formula(rule, k, side)
    count = 0
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            count += 1
            solver.add_clause([-lit for lit in solver.get_model()[:n_vars]])
    assert count == len(_accepted(rule, k, side))


def one_of_each_kind() -> Puzzle:
    """A 4x4 with one rule of each kind; its unique solution 1234/3412/2143/4321."""
    rules = (rulebook.thermometer([0, 1], 4) + rulebook.sandwich([4, 5, 6, 7], 0, 4)
             + rulebook.little_killer([0, 5, 10], 9) + rulebook.quadruple([10, 11, 14, 15], [1, 2])
             + rulebook.renban([8, 9]) + rulebook.between_line([12, 13, 14])
             + rulebook.lockout_line([5, 9, 8], 4, 2) + rulebook.indexer(15, [3, 7, 11], 4))
    return Puzzle(Geometry.of(2, 2, constraints=rules), (0,) * 16)


def test_dimacs_header_carries_every_rule() -> None:
    """`sudokit cnf` output names the rules (c rule {json}); a solver's model read back is
    checked against every one of them."""
    puzzle = one_of_each_kind()
    assert {r.kind for r in puzzle.constraints} == RULE_KINDS
    out = io.StringIO()
    write_sudoku_cnf(out, puzzle, Encoding.REDUCED)
    text = out.getvalue()
    assert puzzle_from_comments(leading_comments(text)).geometry == puzzle.geometry
    cnf = read_dimacs(text)
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
        _, _, grid = decode_answer(text, "v " + " ".join(map(str, model)) + " 0\n")
        assert is_solution(grid, puzzle)
        solver.add_clause([-(c * 4 + d) for c, d in enumerate(grid)])
        assert not solver.solve()  # unique
    broken = [lit if lit != 1 * 4 + grid[1] else -lit for lit in model]
    with pytest.raises(InvalidPuzzle):
        decode_answer(text, "v " + " ".join(map(str, broken)) + " 0\n")


def test_bad_rule_comment_is_a_clear_error() -> None:
    with pytest.raises(InvalidPuzzle, match="not a rule"):
        puzzle_from_comments(["box 2x2 variant standard", 'rule {"kind": "thermometer"}',
                              "givens " + " ".join("0" * 16)])
