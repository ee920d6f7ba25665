"""Magic squares: model, every method, counting, constructions, givens files and the CLI."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.cli import main
from sudokit.errors import InvalidOption, InvalidPuzzle, UnknownMethod, UnsupportedPuzzle
from sudokit.magic import (
    MagicProblem,
    canonical,
    construct,
    format_square,
    is_magic,
    magic_constant,
    magic_violations,
    parse_givens,
    read_givens,
)
from sudokit.magic.count import line_sets
from sudokit.model.result import COUNTERS, Status
from sudokit.run.magic import METHODS, count_magic, get_method, solve_magic

AVAILABLE = [name for name, m in METHODS.items() if m.available]
DURER = (16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1)
DURER_CLUES = (0, 3, 0, 0, 5, 0, 0, 0, 0, 6, 0, 0, 0, 15, 0, 0)  # 4 givens, unique completion
LO_SHU = ((2, 7, 6), (9, 5, 1), (4, 3, 8))


@pytest.fixture(params=AVAILABLE)
def magic_method(request: pytest.FixtureRequest) -> str:
    """Each available magic method in turn."""
    return request.param


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``sudokit ARGS`` in-process; return (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out = capsys.readouterr()
    return exit_info.value.code or 0, out.out, out.err


# --- model ---------------------------------------------------------------------------------


def test_magic_constant_matches_the_formula() -> None:
    assert [magic_constant(n) for n in (1, 2, 3, 4, 5, 6)] == [1, 5, 15, 34, 65, 111]


def test_is_magic_accepts_rows_arrays_and_flat_squares() -> None:
    assert is_magic(LO_SHU) and is_magic(np.array(LO_SHU)) and is_magic(DURER)
    assert not is_magic([[1, 2], [3, 4]])
    assert "values are not exactly 1..9" in magic_violations([[5] * 3] * 3)
    with pytest.raises(ValueError, match="square"):
        is_magic([1, 2, 3])


def test_violations_name_the_line_and_given() -> None:
    square = [[2, 7, 6], [9, 5, 1], [4, 8, 3]]
    problems = magic_violations(square)
    assert "row 3" not in " ".join(problems)  # 4 + 8 + 3 = 15
    assert any(p.startswith("column 2 sums to 20") for p in problems)
    assert magic_violations(LO_SHU, MagicProblem(3, (0, 0, 0, 0, 0, 0, 0, 0, 2))) == [
        "cell r3c3 is 8, given 2"]
    assert magic_violations(LO_SHU, MagicProblem(4)) == ["order 3, expected 4"]


def test_problem_rejects_bad_values_and_reports_clashing_givens() -> None:
    with pytest.raises(InvalidOption):
        MagicProblem(0)
    with pytest.raises(InvalidOption):
        MagicProblem(3, (1, 2, 3))
    with pytest.raises(InvalidOption):
        MagicProblem(3, (10,) + (0,) * 8)
    with pytest.raises(InvalidOption):
        MagicProblem(3, (1,) + (0,) * 8, symmetry=True)
    assert "given twice" in MagicProblem(3, (1, 1) + (0,) * 7).conflict()
    assert "sums to 6" in MagicProblem(3, (1, 2, 3) + (0,) * 6).conflict()


@given(st.integers(0, 3), st.booleans(), st.booleans())
def test_symmetries_and_complement_keep_a_square_magic(turns: int, transpose: bool,
                                                       complement: bool) -> None:
    durer = np.array(DURER).reshape(4, 4)
    square = np.rot90(durer, turns)
    square = square.T if transpose else square
    square = 17 - square if complement else square
    assert is_magic(square)
    assert canonical(square) == canonical(17 - durer if complement else durer)


# --- methods -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 3])
def test_every_method_finds_a_verified_square(magic_method: str, n: int) -> None:
    result = solve_magic(MagicProblem(n), magic_method, time_limit=60)
    assert result.status is Status.SOLVED and result.count == 1
    assert is_magic(result.square)
    declared = get_method(magic_method).counters
    measured = {name for name in COUNTERS if getattr(result.stats, name) is not None}
    assert result.stats.nodes is not None and measured <= declared, (measured, declared)
    if result.stats.backtracks is not None:
        assert result.stats.backtracks <= result.stats.nodes


@pytest.mark.parametrize("method", [
    pytest.param(name, marks=pytest.mark.slow) if name == "backtracking" else name
    for name in AVAILABLE])  # plain backtracking needs about 5.8 million nodes (10 s)
def test_every_method_finds_a_square_of_order_4(method: str) -> None:
    result = solve_magic(MagicProblem(4), method, time_limit=120)
    assert result.status is Status.SOLVED and is_magic(result.square)


def test_every_method_proves_order_2_impossible(magic_method: str) -> None:
    result = solve_magic(MagicProblem(2), magic_method, time_limit=60)
    assert result.status is Status.UNSATISFIABLE and result.squares == ()


def test_every_method_counts_the_8_squares_of_order_3(magic_method: str) -> None:
    squares = solve_magic(MagicProblem(3), magic_method, count_limit=None, time_limit=60).squares
    assert len(squares) == len(set(squares)) == 8
    assert {canonical(s) for s in squares} == {canonical(LO_SHU)}
    one = solve_magic(MagicProblem(3, symmetry=True), magic_method, count_limit=None)
    assert one.squares == (canonical(LO_SHU),) == ((2, 9, 4, 7, 5, 3, 6, 1, 8),)


def test_every_method_completes_durer_uniquely(magic_method: str) -> None:
    result = solve_magic(MagicProblem(4, DURER_CLUES), magic_method, count_limit=2,
                         time_limit=60)
    assert result.status is Status.SOLVED
    assert result.squares == (DURER,)  # exactly one completion


def test_every_method_proves_impossible_givens_unsatisfiable(magic_method: str) -> None:
    center_one = MagicProblem(3, (0, 0, 0, 0, 1, 0, 0, 0, 0))  # the centre of order 3 is 5
    result = solve_magic(center_one, magic_method, time_limit=60)
    assert result.status is Status.UNSATISFIABLE and result.message is None
    clash = solve_magic(MagicProblem(3, (4, 0, 4) + (0,) * 6), magic_method)
    assert clash.status is Status.UNSATISFIABLE and "given twice" in clash.message


def test_every_method_reports_a_limit_as_unknown(magic_method: str) -> None:
    result = solve_magic(MagicProblem(5), magic_method, count_limit=None, node_limit=3)
    assert result.status is Status.UNKNOWN and "node limit" in result.message
    timed = solve_magic(MagicProblem(5), magic_method, count_limit=None, time_limit=0.2)
    assert timed.status is Status.UNKNOWN and timed.seconds < 10


def test_forward_checking_visits_fewer_nodes_than_backtracking_on_order_4() -> None:
    for select, order in (("static", "increasing"), ("mrv", "extremes"), ("mrv", "middle")):
        fc = solve_magic(MagicProblem(4), "forward-checking", select=select, order=order)
        assert fc.status is Status.SOLVED
        bt = solve_magic(MagicProblem(4), "backtracking", node_limit=fc.stats.nodes)
        assert bt.status is Status.UNKNOWN  # backtracking needs more nodes than fc used


def test_sat_pseudo_boolean_encoding_agrees_with_the_order_encoding() -> None:
    for encoding in ("order", "pb"):
        squares = solve_magic(MagicProblem(3), "sat", count_limit=None, encoding=encoding).squares
        assert len(set(squares)) == 8
        durer = solve_magic(MagicProblem(4, DURER_CLUES), "sat", count_limit=2, encoding=encoding)
        assert durer.squares == (DURER,)


def test_method_names_and_options_are_checked() -> None:
    with pytest.raises(UnknownMethod, match="forward-checking"):
        solve_magic(MagicProblem(3), "nope")
    with pytest.raises(InvalidOption, match="no option"):
        solve_magic(MagicProblem(3), "backtracking", select="mrv")
    with pytest.raises(InvalidOption, match="choose one of"):
        solve_magic(MagicProblem(3), "forward-checking", select="random")
    assert solve_magic(MagicProblem(3), "mac", inference="forward-checking").status is (
        Status.SOLVED)
    with pytest.raises(UnsupportedPuzzle, match="up to 12"):
        solve_magic(MagicProblem(13), "sat")


def test_models_that_grow_fast_still_honour_the_time_limit() -> None:
    for method, n in (("lines", 7), ("sat", 12), ("forward-checking", 32)):
        result = solve_magic(MagicProblem(n), method, time_limit=0.3)
        assert result.status is Status.UNKNOWN and result.seconds < 5


# --- counting ------------------------------------------------------------------------------


def test_line_sets_are_the_subsets_summing_to_the_constant() -> None:
    assert [len(line_sets(n)) for n in (1, 2, 3, 4)] == [1, 2, 8, 86]
    assert all(s.bit_count() == 4 and sum(v for v in range(17) if s >> v & 1) == 34
               for s in line_sets(4))


@pytest.fixture(scope="module")
def order_4() -> tuple[tuple[int, ...], ...]:
    """All 7,040 squares of order 4, counted once by the line-based enumeration."""
    result = count_magic(4)
    assert result.status is Status.SOLVED
    return result.squares


def test_count_order_4_gives_7040_and_880_up_to_symmetry(order_4) -> None:
    assert len(order_4) == len(set(order_4)) == 7040  # each verified by the front door
    orbits = {canonical(s) for s in order_4}
    assert len(orbits) == 880
    canonical_only = count_magic(4, symmetry=True)
    assert set(canonical_only.squares) == orbits


@settings(max_examples=20, deadline=None)
@given(clue_cells=st.sets(st.integers(0, 15), min_size=5, max_size=9), shift=st.integers(0, 7039))
def test_searches_find_exactly_the_completions_of_random_clues(order_4, clue_cells: set[int],
                                                               shift: int) -> None:
    source = order_4[shift]
    clues = tuple(source[c] if c in clue_cells else 0 for c in range(16))
    expected = {s for s in order_4 if all(s[c] == source[c] for c in clue_cells)}
    for method in ("forward-checking", "mac"):
        result = solve_magic(MagicProblem(4, clues), method, count_limit=None, time_limit=60)
        assert result.status is Status.SOLVED and set(result.squares) == expected


@pytest.mark.slow
def test_forward_checking_also_counts_880_canonical_squares_of_order_4() -> None:
    assert count_magic(4, symmetry=True, method="forward-checking").count == 880


# --- constructions -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, *range(3, 41)])
def test_construction_is_magic(n: int) -> None:
    square = construct(n)
    assert square.shape == (n, n) and square.dtype == np.int64
    assert is_magic(square)


@pytest.mark.parametrize("n", [100, 101, 102, 1000, 1001, 1002])
def test_large_constructions_are_magic(n: int) -> None:
    assert is_magic(construct(n))


def test_constructions_follow_their_classic_patterns() -> None:
    assert construct(3).tolist() == [[8, 1, 6], [3, 5, 7], [4, 9, 2]]  # Siamese: 1 top middle
    assert construct(5)[0].tolist() == [17, 24, 1, 8, 15] and construct(5)[4, 3] == 2  # wraps
    assert construct(4).tolist() == [[16, 2, 3, 13], [5, 11, 10, 8], [9, 7, 6, 12],
                                     [4, 14, 15, 1]]
    assert construct(6)[0:2, 0:2].tolist() == [[32, 29], [30, 31]]  # L block, quarter 8
    with pytest.raises(InvalidOption, match="order 2"):
        construct(2)


# --- givens files and text -----------------------------------------------------------------


def test_parse_givens_reads_rows_comments_and_empty_marks() -> None:
    text = "# Durer, 4 clues\n. 3 . 0\n5 _ . .\n\n. 6 . .  # row 3\n. 15 . .\n"
    assert parse_givens(text) == DURER_CLUES


@pytest.mark.parametrize(("text", "where", "what"), [
    (". 3 .\n. x .\n. . .\n", ":2:3:", "found 'x'"),
    (". 3 .\n. 10 .\n. . .\n", ":2:3:", "value 1..9"),
    (". 3 .\n. . . .\n. . .\n", ":2:7:", "expected 3 entries"),
    (". 3 .\n. .\n. . .\n", ":2:3:", "found 2"),
    (". 3 .\n. . .\n", ":3:1:", "expected 3 rows"),
    (". 3 .\n. . .\n. . .\n1 2 3\n", ":4:1:", "found 4"),
    ("# nothing\n", "", "found no entries"),
])
def test_bad_givens_say_file_line_and_column(tmp_path, text: str, where: str, what: str) -> None:
    path = tmp_path / "g.txt"
    path.write_text(text)
    with pytest.raises(InvalidPuzzle) as info:
        read_givens(path)
    assert str(info.value).startswith(str(path) + where) and what in str(info.value)


def test_format_square_aligns_columns() -> None:
    assert format_square(DURER).splitlines()[0] == "16  3  2 13"
    assert format_square([[0, 3], [4, 0]]) == ". 3\n4 ."


# --- CLI -----------------------------------------------------------------------------------


def test_cli_finds_and_prints_a_square(capsys) -> None:
    code, out, err = cli(capsys, "magic", "3")
    assert code == 0
    assert out == "order 3, magic constant 15\n2 9 4\n7 5 3\n6 1 8\n\n"
    assert "forward-checking: solved" in err and "nodes" in err


def test_cli_counts_and_lists_all(capsys) -> None:
    code, out, _ = cli(capsys, "magic", "4", "--count", "--symmetry")
    assert code == 0 and out == "880 magic squares of order 4 up to rotation and reflection\n"
    code, out, _ = cli(capsys, "magic", "3", "--all", "-m", "backtracking")
    assert code == 0 and out.count("magic constant 15") == 8


def test_cli_completes_givens_and_reports_bad_files(capsys, tmp_path) -> None:
    path = tmp_path / "durer.txt"
    path.write_text(format_square(DURER_CLUES) + "\n")
    code, out, _ = cli(capsys, "magic", "4", "--givens", str(path), "-m", "mac")
    assert code == 0 and format_square(DURER) in out
    path.write_text(". . .\n. ? .\n. . .\n")
    code, out, err = cli(capsys, "magic", "3", "--givens", str(path))
    assert code == 2 and out == "" and f"{path}:2:3:" in err


def test_cli_exit_codes_for_unsatisfiable_unknown_and_usage(capsys) -> None:
    code, out, err = cli(capsys, "magic", "2")
    assert code == 1 and out == "" and "unsatisfiable" in err
    code, _, err = cli(capsys, "magic", "6", "-m", "backtracking", "--node-limit", "10")
    assert code == 1 and "unknown (node limit 10 reached)" in err
    code, _, err = cli(capsys, "magic", "3", "-m", "nope")
    assert code == 2 and "unknown magic method" in err
    code, _, err = cli(capsys, "magic", "3", "-o", "select=bogus")
    assert code == 2 and "choose one of" in err


def test_cli_constructs_and_compares(capsys) -> None:
    code, out, _ = cli(capsys, "magic", "5", "--construct")
    assert code == 0 and out.startswith("order 5, magic constant 65 (constructed, verified: True)")
    code, out, _ = cli(capsys, "magic", "3", "--compare", "-m", "backtracking", "-m", "lines")
    assert code == 0 and "backtracking" in out and "lines" in out and "nodes" in out


# --- issue 17: one registry, shared SAT-under-limits, default construction, bounds on/off ---


def test_magic_methods_resolve_through_the_one_registry() -> None:
    from sudokit.registry import get_solver, methods

    names = {info.name for info in methods("magic")}
    assert {"backtracking", "forward-checking", "mac", "sat", "lines"} <= names
    assert type(get_solver("forward-checking", "magic")).__name__ == "MagicForwardChecking"
    assert type(get_solver("forward-checking")).__name__ == "ForwardCheckingSolver"  # Sudoku
    with pytest.raises(InvalidOption, match="bounds"):
        get_solver("forward-checking", "magic", bounds="sometimes")


def test_mac_declares_the_counters_of_its_inference() -> None:
    result = solve_magic(MagicProblem(3), "mac", inference="none")
    assert result.stats.checks is not None and result.stats.revisions is None
    assert result.stats.max_queue is None and result.stats.propagations is None


def test_cli_large_order_without_a_method_constructs_and_says_so(capsys) -> None:
    code, out, err = cli(capsys, "magic", "101")
    assert code == 0 and out.startswith("order 101, magic constant 515201 (constructed")
    assert "constructed by the Siamese method" in err and "-m" in err
    code, out, err = cli(capsys, "magic", "8")
    assert code == 0 and "doubly even" in err
    code, out, err = cli(capsys, "magic", "5")  # small: searched
    assert code == 0 and "forward-checking: solved" in err and "constructed" not in out


def test_cli_forward_checking_without_bounds_is_the_reports(capsys) -> None:
    """bounds=false removes values only: still correct, many more nodes (issue 17.12)."""
    with_bounds = solve_magic(MagicProblem(4), "forward-checking")
    without = solve_magic(MagicProblem(4), "forward-checking", bounds=False)
    assert without.status is Status.SOLVED and is_magic(without.square)
    assert without.stats.nodes > with_bounds.stats.nodes
    squares = solve_magic(MagicProblem(3), "forward-checking", bounds=False, count_limit=None)
    assert len(squares.squares) == 8
    code, out, err = cli(capsys, "magic", "4", "-o", "bounds=false")
    assert code == 0 and f"{without.stats.nodes:,} nodes" in err
    code, out, _ = cli(capsys, "magic", "4", "--compare", "-m", "forward-checking",
                       "-m", "forward-checking[bounds=false]")
    assert code == 0 and "forward-checking[bounds=false]" in out


def test_cli_sat_backend_without_decision_budget_honours_a_node_limit(capsys) -> None:
    """Glucose has no dec_budget: the shared limited_solve falls back to conflicts (17.13)."""
    if not METHODS["sat"].available:
        pytest.skip("needs python-sat")
    code, out, err = cli(capsys, "magic", "5", "-m", "sat", "-o", "solver_name=glucose4",
                         "--node-limit", "50")
    assert code == 1 and "unknown (node limit 50" in err and "Traceback" not in err
    code, _, err = cli(capsys, "magic", "4", "-m", "sat:glucose4")
    assert code == 0 and "sat:glucose4: solved" in err


def test_cli_compare_gives_options_to_the_methods_that_have_them(capsys) -> None:
    code, out, _ = cli(capsys, "magic", "4", "--compare", "-m", "forward-checking", "-m",
                       "lines", "-o", "order=increasing")
    assert code == 0 and "forward-checking" in out and "lines" in out
    static = solve_magic(MagicProblem(4), "forward-checking", order="increasing")
    row = next(line for line in out.splitlines() if "forward-checking" in line)
    assert f"{static.stats.nodes:,}" in row
    code, _, err = cli(capsys, "magic", "4", "--compare", "-o", "colour=red")
    assert code == 2 and "no compared magic method has option 'colour'" in err


# -- issue 30 item 7: limits cover model building; no recursion that grows with the order ----

@pytest.mark.parametrize("method", ["forward-checking", "backtracking", "lines"])
def test_orders_a_search_cannot_hold_are_refused_at_once(method: str) -> None:
    """``magic 1000 -m forward-checking --time-limit 1`` took 107 s; ``--count`` and ``-m
    lines`` died of RecursionError."""
    import time

    start = time.perf_counter()
    with pytest.raises(UnsupportedPuzzle, match="supports orders up to"):
        solve_magic(MagicProblem(1000), method, time_limit=1)
    assert time.perf_counter() - start < 1.0


def test_cli_count_of_order_1000_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["magic", "1000", "--count"])
    assert exit_info.value.code == 2
    assert "'lines' supports orders up to 7, not 1000" in capsys.readouterr().err


@pytest.mark.parametrize("method", ["backtracking", "mac"])
def test_time_limit_holds_at_the_largest_order(method: str) -> None:
    import time

    n = get_method(method).max_order
    start = time.perf_counter()
    result = solve_magic(MagicProblem(n), method, time_limit=0.5)
    assert result.status is Status.UNKNOWN and "time limit" in result.message
    assert time.perf_counter() - start < 2.0


def test_line_sets_and_partitions_do_not_recurse() -> None:
    """Depth 2,000 (past Python's recursion limit): the explicit stacks go on, the limit
    stops them."""
    from sudokit.errors import LimitReached
    from sudokit.magic.count import _partitions
    from sudokit.model.result import Limits, Stats

    singles = [1 << v for v in range(1, 2001)]
    stats = Stats.counting(COUNTERS)
    stats.nodes, stats.backtracks = 0, 0
    [partition] = _partitions(singles, (1 << 2001) - 2, stats, Limits())
    assert len(partition) == 2000 and stats.nodes == 2000
    with pytest.raises(LimitReached):
        line_sets(2000, Stats(), Limits(time_limit=0.2).start())
