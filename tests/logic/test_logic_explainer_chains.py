"""Sudoku Explainer's forcing chains (issue 40): the propagation with parents, its complexity,
the "(+)" rules inside it, and ratings of real puzzles against SE's published ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sudokit import rate
from sudokit.logic.chains.advanced import advanced_offs
from sudokit.logic.chains.explainer import nested_forcing_chain
from sudokit.logic.chains.nested import forcing_chain_offs, multiple_chain_offs
from sudokit.logic.chains.nested_dynamic import dynamic_chain_offs
from sudokit.compiled import Kernels, forced
from sudokit.logic.chains.implications import (ancestor_count, chain_implications,
                                               contradictions, static_reach)
from sudokit.logic.state import Board
from sudokit.logic.step import length_bonus

from .boards import G, board, cell

SAMPLE = Path(__file__).parents[1] / "data" / "rated" / "se_tuning_sample.txt"


def pot(row: int, col: int, digit: int, on: bool) -> int:
    return ((cell(row, col) * 9 + digit - 1) << 1) | on


def test_on_potential_turns_off_its_peers_and_cell() -> None:
    b = board({(1, 1): "12"})
    prop = chain_implications(G, b.masks, pot(1, 1, 1, True))
    assert prop.parents[pot(1, 1, 2, False)] == (pot(1, 1, 1, True),)
    assert prop.parents[pot(1, 5, 1, False)] == (pot(1, 1, 1, True),)
    assert ancestor_count(prop, pot(1, 5, 1, False)) == 2
    assert prop.contradiction is None


def _row_of_fives() -> Board:
    """5 in row 1 only at r1c1, r1c2 and r1c4."""
    return board({(1, c): "12346789" for c in (3, 5, 6, 7, 8, 9)})


def test_dynamic_links_record_their_hidden_parents() -> None:
    b = _row_of_fives()
    start = pot(2, 1, 5, True)
    dynamic = chain_implications(G, b.masks, start, dynamic=True)
    # r1c1<>5 went first, so when r1c2<>5 is followed r1c4 is the last 5 of row 1
    assert dynamic.parents[pot(1, 4, 5, True)] == (pot(1, 2, 5, False), pot(1, 1, 5, False))
    assert ancestor_count(dynamic, pot(1, 4, 5, True)) == 4
    static = chain_implications(G, b.masks, start, dynamic=False)
    assert pot(1, 4, 5, True) not in static.parents


def test_a_contradiction_ends_the_propagation() -> None:
    # r1c1 and r1c2 both {1,2}: r1c3=1 leaves two cells for the digit 2 alone
    b = board({(1, 1): "12", (1, 2): "12"})
    prop = chain_implications(G, b.masks, pot(1, 3, 1, True))
    assert prop.contradiction is not None
    on, off, _own = prop.contradiction
    assert on | 1 == on and off == on & ~1


def test_contradictions_in_one_call_are_those_of_each_propagation() -> None:
    # 1 in rows 1 and 2 only in columns 1 and 2: a 1 elsewhere in those columns is absurd
    b = board({(r, c): "23456789" for r in (1, 2) for c in range(3, 10)})
    masks0 = [0 if v else m for m, v in zip(b.masks, b.values)]
    starts = [((c * 9 + d) << 1) | on for c in b.open_cells[:30] for d in range(9)
              if masks0[c] >> d & 1 for on in (1, 0)]
    with forced(Kernels.LOGIC, True):
        found = contradictions(G, masks0, np.array(masks0, dtype=np.int64), starts, True, False)
    with forced(Kernels.LOGIC, False):
        each = {q for q in starts
                if chain_implications(G, masks0, q, True, False).contradiction is not None}
        assert contradictions(G, masks0, np.array(masks0), starts, True, False) is None
    assert found == each and each


def test_static_reach_in_one_call_is_that_of_each_propagation() -> None:
    b = board({(r, c): "23456789" for r in (1, 2) for c in range(3, 10)})
    masks0 = [0 if v else m for m, v in zip(b.masks, b.values)]
    starts = [((c * 9 + d) << 1) | 1 for c in b.open_cells[:20] for d in range(9)
              if masks0[c] >> d & 1]
    array = np.array(masks0, dtype=np.int64)
    with forced(Kernels.LOGIC, True):
        compiled = static_reach(G, masks0, array, starts)
    with forced(Kernels.LOGIC, False):
        python = static_reach(G, masks0, array, starts)
    for row, s in zip(compiled, starts):
        reached = set(np.flatnonzero(row).tolist())
        assert reached == set(chain_implications(G, masks0, s, dynamic=False).reached())
    assert (compiled == python).all() and compiled.sum() > len(starts)


def test_locked_candidates_after_a_removal_name_it_as_parent() -> None:
    marks = {(r, c): "12345689" for r in (1, 2, 3) for c in (1, 2, 3)}
    marks.update({(1, 1): "7", (1, 2): "17", (2, 1): "27"})
    b = board(marks)
    before = b.masks
    after = list(before)
    after[cell(2, 1)] &= ~(1 << 6)  # r2c1<>7: box 1's 7s now lie in row 1
    offs = dict(advanced_offs(G, before, after))
    assert set(offs) == {pot(1, c, 7, False) for c in range(4, 10)}
    assert set(offs.values()) == {(pot(2, 1, 7, False),)}
    assert advanced_offs(G, before, before) == []


NESTED = Path(__file__).parents[1] / "data" / "logic" / "positions.jsonl"


def _nested_position() -> dict:
    import json

    for line in NESTED.read_text().splitlines():
        record = json.loads(line)
        if record["finder"] == "Dynamic Forcing Chain (+ Forcing Chains)":
            return record
    raise AssertionError("no nested position")


def _board_of(record: dict) -> Board:
    masks = [sum(1 << (d - 1) for d in marks) for marks in record["marks"]]
    return Board(G, masks, record["values"])


def test_nested_forcing_chains_eliminate_only_what_the_working_grid_allows() -> None:
    """On a working grid that lost only candidates the solution does not hold (the outer
    assumption is true), every inner elimination is a candidate the solution does not hold,
    and its rule parents are some of those removals; with no removal there is none."""
    record = _nested_position()
    solution = record["solution"]
    b = _board_of(record)
    masks0 = [0 if v else m for m, v in zip(b.masks, b.values)]
    assert forcing_chain_offs(G, masks0, masks0) == []
    assert dynamic_chain_offs(G, masks0, masks0) == []
    wrong = [(c, d) for c in b.open_cells for d in range(9)
             if masks0[c] >> d & 1 and solution[c] != d + 1]
    masks = list(masks0)
    removed = set()
    for c, d in wrong[::3]:
        if (masks[c] & ~(1 << d)) and len(removed) < 12:
            masks[c] &= ~(1 << d)
            removed.add((c * 9 + d) << 1)
    offs = forcing_chain_offs(G, masks0, masks)
    multiple = multiple_chain_offs(G, masks0, masks)
    dynamic = dynamic_chain_offs(G, masks0, masks)
    assert offs and multiple and dynamic
    assert len({q for q, _, _ in dynamic}) == len(dynamic)  # each elimination once
    for q, parents, inner in offs + multiple + dynamic:
        cell_, d0 = divmod(q >> 1, 9)
        assert solution[cell_] != d0 + 1 and masks[cell_] >> d0 & 1
        assert parents and set(parents) <= removed
        assert inner.complexity >= 2
        assert any(w in inner.text for w in ("implies its opposite", " each imply ",
                                              "leads to a contradiction", " both imply "))


def test_compiled_nested_propagation_equals_its_reference() -> None:
    """At levels 1-3 the compiled propagation (the "(+)" rules in the kernel, the nested rule
    run in Python between kernel calls) gives the Python reference's parents, nested chains,
    contradictions and complexities, and the ones after it are unchanged by what it left in
    the reused arrays."""
    from sudokit.logic.chains.nested import nested_rule

    b = _board_of(_nested_position())
    masks0 = [0 if v else m for m, v in zip(b.masks, b.values)]
    starts = [((c * 9 + d) << 1) | on for c in b.open_cells for d in range(9)
              if masks0[c] >> d & 1 for on in (1, 0)]
    seen_inner = seen_rules = 0
    for level, picked in ((1, starts[::5]), (2, starts[3::29]), (3, starts[7::41])):
        inner = nested_rule(G, level) if level >= 2 else None
        for start in picked:
            compiled = chain_implications(G, masks0, start, level=level, inner=inner)
            with forced(Kernels.LOGIC, False):
                python = chain_implications(G, masks0, start, level=level, inner=inner)
            assert compiled == python
            assert compiled.inner == python.inner
            seen_inner += bool(python.inner)
            seen_rules += any(not q & 1 and ps and not ps[0] & 1  # an off from removals
                              for q, ps in python.parents.items())
            if python.contradiction is not None:
                on, off, own = python.contradiction
                assert ancestor_count(compiled, off, None if off in compiled.parents else own) \
                    == ancestor_count(python, off, None if off in python.parents else own)
    assert seen_inner and seen_rules  # the nested rule and the "(+)" rules were used


def test_the_records_reset_whatever_the_last_call_left() -> None:
    """The kernel's arrays keep beside the records the count of those written since the last
    reset: a follow resumed below it (records dropped) leaves nothing indexed that the next
    propagation inherits (before, only what the last call listed was reset)."""
    from sudokit.logic.chains import _implications_kernel as k
    from sudokit.logic.chains.kernel_arrays import _work

    b = _board_of(_nested_position())
    masks0 = [0 if v else m for m, v in zip(b.masks, b.values)]
    starts = [((c * 9 + d) << 1) | on for c in b.open_cells for d in range(9)
              if masks0[c] >> d & 1 for on in (1, 0)]
    work = _work(G)
    array = np.array(masks0, dtype=np.int64)
    longest = 0
    for start, after in zip(starts[::7], starts[3::7]):
        listed = k.implications(array, start, 7, work.tables, work.masks, work.out,
                                work.hidden)[0]
        longest = max(longest, listed)
        k.follow(array, 7, work.tables, work.masks, work.out, work.hidden, listed // 2,
                 listed // 2)  # resumed below what was written: the rest dropped
        compiled = chain_implications(G, masks0, after)  # level 0: on the same arrays
        with forced(Kernels.LOGIC, False):
            assert compiled == chain_implications(G, masks0, after)
    assert longest > 20  # records were dropped


def test_static_chains_of_a_working_grid_are_kept_for_the_next_search() -> None:
    """The static forcing and multiple chains of a working grid depend on it alone: a second
    search of the same grid (another outer grid before it) reads them from the memo and gives
    what a fresh search gives."""
    from sudokit.logic.chains import nested

    record = _nested_position()
    b = _board_of(record)
    masks0 = [0 if v else m for m, v in zip(b.masks, b.values)]
    masks = list(masks0)
    wrong = [(c, d) for c in b.open_cells for d in range(9)
             if masks0[c] >> d & 1 and record["solution"][c] != d + 1]
    for c, d in wrong[::5][:10]:
        masks[c] &= ~(1 << d)
    first = (forcing_chain_offs(G, masks0, masks), multiple_chain_offs(G, masks0, masks))
    kept = nested.per_thread("static chains", G, nested._new_memo)
    assert tuple(masks) in kept
    other = list(masks0)  # rule parents are read against the grid before: fewer removals
    c, d = wrong[0]
    other[c] &= ~(1 << d)
    again = (forcing_chain_offs(G, other, masks), multiple_chain_offs(G, other, masks))
    kept.clear()
    nested.per_thread("static reach", G, nested._new_memo).clear()
    fresh = (forcing_chain_offs(G, other, masks), multiple_chain_offs(G, other, masks))
    assert first[0] and again == fresh


def test_the_nested_warm_up_compiles_the_outer_propagation() -> None:
    """compile_nested leaves the outer propagation's kernels (the propagation and its going on
    after the nested rule) with a compiled signature, so a first nested step compiles none."""
    from sudokit.logic.chains import _implications_kernel as k
    from sudokit.logic.chains.nested import compile_nested

    b = _board_of(_nested_position())
    compile_nested(G, [0 if v else m for m, v in zip(b.masks, b.values)])
    assert k.implications.signatures and k.follow.signatures


def test_inner_search_kernel_writes_the_python_searchs_hints() -> None:
    """Level 4's compiled inner search (every hint, its complexity, kind, order, cause and
    first assumption; the hints kept and their rule parents) equals its Python reference on
    working grids of a nested position, and both give the same eliminations with the same
    rule parents and complexities."""
    from sudokit.logic.chains import nested_dynamic as nd

    b = _board_of(_nested_position())
    masks0 = [0 if v else m for m, v in zip(b.masks, b.values)]
    grids = []
    starts = [((c * 9 + d) << 1) | on for c in b.open_cells for d in range(9)
              if masks0[c] >> d & 1 for on in (1, 0)]
    for start in starts[5::37]:
        prop = chain_implications(G, masks0, start, dynamic=True, y_links=True)
        masks = list(masks0)
        for q in prop.off:
            masks[(q >> 1) // 9] &= ~(1 << ((q >> 1) % 9))
        if prop.contradiction is None:
            grids.append(masks)
    checked = 0
    for masks in [masks0] + grids:
        with forced(Kernels.LOGIC, True):
            found = nd.inner_search(G, masks0, masks)
            compiled = dynamic_chain_offs(G, masks0, masks)
        assert found is not None
        rows, kept = nd._python_winners(nd._Inner(G, masks0, masks))
        assert sorted(map(tuple, found[0].tolist())) == rows and found[1] == kept
        checked += len(found[1])
        with forced(Kernels.LOGIC, False):
            python = dynamic_chain_offs(G, masks0, masks)
        assert [(q, p, i.complexity, i.text) for q, p, i in compiled] == [
            (q, p, i.complexity, i.text) for q, p, i in python]
    assert checked > 20


def test_a_nested_step_names_its_inner_chains_and_adds_their_complexity() -> None:
    record = _nested_position()
    step = nested_forcing_chain(_board_of(record))
    assert step is not None and step.text == record["text"]
    outer, nested = step.text.split("; nested: ")
    nodes = int(outer.rsplit("(", 1)[1].split()[0])
    inner_nodes = [int(part.rsplit("(", 1)[1].split()[0]) for part in nested.split("; ")]
    assert nodes > sum(inner_nodes) > 0  # the outer count includes the inner chains'
    assert step.rating == round(9.5 + length_bonus(nodes - 2), 1)


def _sample() -> list[tuple[str, tuple[float, float, float], str]]:
    rows = []
    for line in SAMPLE.read_text().splitlines():
        if line and not line.startswith("#"):
            parts = line.split()
            rows.append((parts[0], (float(parts[1]), float(parts[2]), float(parts[3])),
                         parts[4]))
    return rows


def test_the_sample_has_its_source_header() -> None:
    text = SAMPLE.read_text()
    assert "SE rating" in text and "magictour" in text
    assert len(_sample()) >= 4


@pytest.mark.parametrize(("grid", "published", "tag"), _sample())
def test_rating_matches_sudoku_explainers(grid: str, published: tuple[float, float, float],
                                          tag: str) -> None:
    """Each step is checked against the solution by the solve loop; the hardest step is one of
    SE's forcing chains, rated as SE rates it (ER), and EP and ED are SE's too."""
    result = rate(grid, time_limit=None)
    assert not result.trial
    assert (result.rating, result.pearl, result.diamond) == published, tag
    assert "Forcing Chain" in result.hardest


def test_classic_sudoku_climbs_explainers_forcing_chains() -> None:
    """Classic 9x9 Sudoku gets SE's producers in SE's order; other grids keep the digit, cell
    and unit forcing chains."""
    from sudokit.logic.registry import techniques

    def forcing(side: int, features: frozenset[str]) -> list[str]:
        return [t.name for t in techniques(side=side, features=features)
                if t.name.endswith(("Forcing Chain", "(+)", "Chains)")) and not t.name.startswith("Rule")]

    assert forcing(9, frozenset()) == ["Nishio Forcing Chain", "Multiple Forcing Chain",
                                       "Dynamic Forcing Chain", "Dynamic Forcing Chain (+)",
                                       "Dynamic Forcing Chain (+ Forcing Chains)",
                                       "Dynamic Forcing Chain (+ Multiple Forcing Chains)",
                                       "Dynamic Forcing Chain (+ Dynamic Forcing Chains)"]
    assert forcing(9, frozenset({"jigsaw"})) == ["Digit Forcing Chain", "Cell Forcing Chain",
                                                 "Unit Forcing Chain"]
    assert forcing(16, frozenset()) == ["Digit Forcing Chain", "Cell Forcing Chain",
                                        "Unit Forcing Chain"]


def test_cdcl_completion_agrees_with_the_python_search() -> None:
    """The trial step's search (CDCL where PySAT is installed) finds a completion exactly where
    the Python depth-first search does, and it keeps to the candidates (a removed candidate
    the givens alone would allow stays out)."""
    from sudokit.logic.chains import dynamic

    record = _nested_position()
    b = _board_of(record)
    solution = record["solution"]
    cell = next(c for c in b.open_cells if b.masks[c].bit_count() >= 3)
    for d0 in range(9):
        if not b.masks[cell] >> d0 & 1:
            continue
        masks = list(b.masks)
        masks[cell] = 1 << d0
        fast = dynamic.search_solution(b, masks, None)
        slow = dynamic.search_solution(b, masks, None, budget=[10**9])
        assert (fast is None) == (slow is None) == (solution[cell] != d0 + 1)
        if fast is not None:
            assert all(v == fast[c] if v else masks[c] >> (fast[c] - 1) & 1
                       for c, v in enumerate(b.values))
    masks = list(b.masks)
    masks[cell] &= ~(1 << (solution[cell] - 1))  # by hand: the puzzle's one solution is gone
    assert dynamic.search_solution(b, masks, None) is None
