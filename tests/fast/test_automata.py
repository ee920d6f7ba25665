"""The product tables of sequence rules over distinct cells (:mod:`sudokit.fast.automata`)."""

from __future__ import annotations

from itertools import permutations, product

from sudokit.fast.automata import automaton_table
from sudokit.model.geometry import Geometry
from sudokit.model.rulebook import sandwich, x_sum


def _accepted(table: list[int], start: int, states: int, side: int, length: int) -> set:
    """Every digit sequence the table accepts (walked by brute force)."""
    found = set()
    for digits in product(range(1, side + 1), repeat=length):
        s = start
        for d in digits:
            s = table[s * side + d - 1] if s >= 0 else -1
        if s >= 0 and table[states * side + s]:
            found.add(digits)
    return found


def test_a_row_clue_accepts_exactly_its_distinct_sequences() -> None:
    geometry = Geometry.for_side(4)
    row = [0, 1, 2, 3]
    for make, clue in ((sandwich, 2), (sandwich, 5), (x_sum, 7), (x_sum, 10)):
        (rule,) = make(row, clue, 4)
        table, start, states = automaton_table(rule, geometry)
        wanted = {p for p in permutations(range(1, 5)) if rule.holds(p)}
        assert _accepted(table, start, states, 4, 4) == wanted


def test_cells_that_do_not_see_each_other_keep_the_rule_automaton() -> None:
    geometry = Geometry.for_side(4)
    (rule,) = sandwich([0, 5, 10, 15], 2, 4)  # the diagonal: no two cells are peers
    table, start, states = automaton_table(rule, geometry)
    assert (start, states) == (rule.start, len(rule.transitions))
    wanted = {p for p in product(range(1, 5), repeat=4) if rule.holds(p)}
    assert _accepted(table, start, states, 4, 4) == wanted


def test_a_product_is_built_once_per_shape() -> None:
    geometry = Geometry.for_side(4)
    (row,), (col,) = sandwich([0, 1, 2, 3], 2, 4), sandwich([1, 5, 9, 13], 2, 4)
    (other,) = sandwich([0, 1, 2, 3], 5, 4)
    first, again = automaton_table(row, geometry), automaton_table(col, geometry)
    assert first[0] is again[0] and first[1:] == again[1:]
    assert automaton_table(other, geometry)[0] is not first[0]
    assert _accepted(*again, 4, 4) == {p for p in permutations(range(1, 5)) if col.holds(p)}
