"""The CSP core pinned on tiny problems with known outcomes, and on the seed's worked examples."""

from __future__ import annotations

import pytest

from sudokit import Geometry, Puzzle, Status, count_solutions, is_solution, solve
from sudokit.csp import (
    CSP,
    AllDifferent,
    Engine,
    Inference,
    LinearSum,
    NotEqual,
    Order,
    Search,
    Select,
    ac3_domains,
    backtracking_search,
    mask_of,
    values_of,
)
from sudokit.csp.sudoku import ac3_candidates, sudoku_csp
from sudokit.errors import LimitReached
from sudokit.model.result import Limits, Stats
from tests.helpers import load

INFERENCES = list(Inference)


def chain() -> CSP:
    """X in {1}, Y in {1, 2}, Z in {2, 3}; X != Y, Y != Z."""
    return CSP.build([[1], [1, 2], [2, 3]], [NotEqual(0, 1), NotEqual(1, 2)])


def test_ac3_on_a_three_variable_chain() -> None:
    stats = Stats(trace=[])
    domains = ac3_domains(chain(), stats)
    assert [values_of(d) for d in domains] == [[1], [2], [3]]
    # queue (X,Y) (Y,X) (Y,Z) (Z,Y): revising (Y,X) removes 1 from Y and would requeue (Z,Y),
    # already queued; revising (Z,Y) removes 2 from Z and requeues nothing but the reverse arc.
    assert stats.revisions == 4 and stats.checks == 4
    assert stats.max_queue == 4 and stats.propagations == 2
    assert stats.trace == [3, 2, 1, 0]


def test_ac3_proves_inconsistency_or_leaves_domains() -> None:
    assert ac3_domains(CSP.build([[1], [1]], [NotEqual(0, 1)])) is None
    triangle = CSP.build([[1, 2]] * 3, [AllDifferent((0, 1, 2))])
    assert ac3_domains(triangle) == [mask_of([1, 2])] * 3  # arc consistent, yet no solution
    for inference in INFERENCES:
        assert list(backtracking_search(triangle, Stats(), Limits(), inference=inference)) == []


def test_model_tables_and_errors() -> None:
    csp = sudoku_csp(Geometry.of(3, 3))
    pairs = {frozenset(p) for p in zip(csp.tables.arc_var, csp.tables.arc_other)}
    assert csp.tables.n_binary == 1620 and len(pairs) == 810
    assert csp.tables.neighbours == Geometry.of(3, 3).peers
    with pytest.raises(ValueError, match="outside"):
        CSP.build([[1]], [NotEqual(0, 1)])
    with pytest.raises(ValueError, match="non-zero"):
        CSP.build([[1], [2]], [LinearSum((0, 1), (1, 0), 3)])
    with pytest.raises(ValueError, match="non-negative"):
        mask_of([-1])


def test_forward_checking_pruning_counts() -> None:
    csp = CSP.build([[1, 2, 3, 4]] * 4, [AllDifferent((0, 1, 2, 3))])
    engine = Engine(csp, Stats.counting(("checks", "propagations", "revisions")))
    engine.value[0] = 1
    engine.set_domain(0, mask_of([1]))
    assert engine.forward_check(0)
    assert engine.stats.checks == 3 and engine.stats.propagations == 3
    assert [values_of(d) for d in engine.dom] == [[1], [2, 3, 4], [2, 3, 4], [2, 3, 4]]
    engine.undo(0)
    assert engine.dom == list(csp.domains)  # the trail restores every domain
    wiped = Engine(CSP.build([[1], [1, 2], [1]], [NotEqual(0, 2)]),
                   Stats.counting(("checks", "propagations")))
    wiped.value[0] = 1
    assert not wiped.forward_check(0)  # Z loses its only value


def hand_made() -> Search:
    """Domains 0:{1,2,3} 1:{1,2} 2:{1,2} 3:{1,2,3} 4:{1..4}; edges 0-1 0-2 0-3 0-4 1-2 2-3."""
    edges = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (2, 3)]
    csp = CSP.build([[1, 2, 3], [1, 2], [1, 2], [1, 2, 3], [1, 2, 3, 4]],
                    [NotEqual(a, b) for a, b in edges])
    engine = Engine(csp, Stats.counting(("checks", "revisions", "propagations", "max_queue")))
    return Search(engine, Select.MRV, Order.NATURAL, Inference.FORWARD_CHECKING)


@pytest.mark.parametrize("select,expected", [(Select.STATIC, 0), (Select.MRV, 1),
                                             (Select.MRV_DEGREE, 2), (Select.DEGREE, 0)])
def test_variable_ordering_on_a_hand_made_state(select: Select, expected: int) -> None:
    search = hand_made()
    search.select = select
    assert search.choose() == expected


def test_degree_counts_only_unassigned_neighbours() -> None:
    search = hand_made()
    search.select = Select.DEGREE
    assert [search.degree(v) for v in range(5)] == [4, 2, 3, 2, 1]
    search.e.value[0] = 3
    search.free.discard(0)
    assert search.degree(2) == 2 and search.choose() == 2


def test_least_constraining_value() -> None:
    search = hand_made()
    assert search.values(0) == [1, 2, 3]
    search.order = Order.LCV
    assert search.values(0) == [3, 1, 2]  # 3 is in two neighbours' domains, 1 and 2 in four


def magic3() -> CSP:
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6)]
    return CSP.build([range(1, 10)] * 9,
                     [AllDifferent(tuple(range(9)))] + [LinearSum.plain(l, 15) for l in lines])


@pytest.mark.parametrize("inference", INFERENCES)
def test_sum_constraints_count_the_eight_magic_squares(inference: Inference) -> None:
    # every 3x3 magic square has 5 in the centre: giving it keeps plain backtracking quick
    centre = {4: 5} if inference is Inference.NONE else None
    found = list(backtracking_search(magic3(), Stats(), Limits(), inference=inference,
                                     assignment=centre))
    assert len(found) == 8 and len({tuple(s) for s in found}) == 8
    assert all(s[4] == 5 and s[0] + s[1] + s[2] == 15 for s in found)


def test_sum_bounds_consistency() -> None:
    stats = Stats()
    # x + y == z with x, y in 1..5 and z in 1..3: x, y in 1..2 and z in 2..3
    csp = CSP.build([range(1, 6), range(1, 6), range(1, 4)], [LinearSum((0, 1, 2), (1, 1, -1), 0)])
    assert [values_of(d) for d in ac3_domains(csp, stats)] == [[1, 2], [1, 2], [2, 3]]
    # 2x - 3y == 1 over 0..5: y odd; bounds prune only the ends (x >= 2, y <= 3)
    csp = CSP.build([range(6), range(6)], [LinearSum((0, 1), (2, -3), 1)])
    assert sorted(tuple(s) for s in backtracking_search(csp, stats, Limits())) == [(2, 1), (5, 3)]


def test_node_limit_keeps_counters() -> None:
    stats = Stats()
    with pytest.raises(LimitReached):
        list(backtracking_search(magic3(), stats, Limits(node_limit=5), inference=Inference.NONE))
    assert stats.nodes == 5 and stats.checks > 0  # exact: the 6th node is refused


def test_search_trees_shrink_from_backtracking_to_forward_checking_to_mac() -> None:
    """With the same static ordering, MAC's tree is inside forward checking's, which is inside
    plain backtracking's (Kondrak and van Beek 1997)."""
    puzzle = load("norvig/sudoku-easy50.txt", 2)[1]
    nodes = [solve(puzzle, m, select="static", order="natural").stats.nodes
             for m in ("backtracking", "forward-checking", "mac")]
    assert nodes[0] > nodes[1] > nodes[2] > 0


def test_seed_example_solved_by_ac3_alone() -> None:
    puzzle = load("norvig/sudoku-easy50.txt", 1)[0]
    stats = Stats(trace=[])
    candidates = ac3_candidates(puzzle, stats)
    assert all(len(c) == 1 for c in candidates)
    assert is_solution([c[0] for c in candidates], puzzle)
    assert stats.max_queue == 1620 and stats.revisions >= 1620 and stats.trace[-1] == 0


def test_seed_example_needing_backtracking() -> None:
    puzzle = load("norvig/sudoku-top95.txt", 1)[0]
    candidates = ac3_candidates(puzzle)
    assert sum(len(c) == 1 for c in candidates) == 17 == puzzle.n_givens  # AC-3 decides nothing
    assert sum(len(c) for c in candidates) == 318
    result = solve(puzzle, "mac", trace=True)
    assert result.status is Status.SOLVED and result.stats.backtracks > 0
    assert all(result.solution[c] in candidates[c] for c in range(81))


def test_ac3_candidates_contradiction_and_trace_from_the_api() -> None:
    givens = [0] * 16
    givens[0] = givens[1] = 1
    assert ac3_candidates(Puzzle.from_digits(givens)) is None
    result = solve(load("norvig/sudoku-easy50.txt", 3)[2], "mac", trace=True)
    trace = result.stats.trace
    assert trace[-1] == 0 and max(trace) <= result.stats.max_queue
    assert len(trace) >= result.stats.revisions > 0


@pytest.mark.parametrize("method", ["backtracking", "forward-checking", "mac"])
@pytest.mark.parametrize("select", [s.value for s in Select])
@pytest.mark.parametrize("order", [o.value for o in Order])
def test_every_part_combination_solves_a_4x4(method: str, select: str, order: str) -> None:
    puzzle = Puzzle.from_digits([1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2])
    result = solve(puzzle, method, select=select, order=order)
    assert result.status is Status.SOLVED and is_solution(result.solution, puzzle)


@pytest.mark.parametrize("method", ["backtracking", "forward-checking", "mac"])
def test_every_4x4_grid_is_found_once(method: str) -> None:
    result = count_solutions(Puzzle.from_digits([0] * 16), method, limit=None)
    assert result.status is Status.SOLVED and result.count == 288  # the 4x4 Sudoku grids
    assert len(set(result.solutions)) == 288
