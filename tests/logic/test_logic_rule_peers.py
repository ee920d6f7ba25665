"""Cells the drawn rules keep apart as peers (logic/rule_peers.py), the rules' filters with
peers and locked candidates that follow a rule forcing chain further (logic/rule_filters.py,
logic/chains/rule_forcing.py), thermometers read whole
(logic/techniques/thermometers.py) and the 45 rule (logic/techniques/innies.py)."""

from __future__ import annotations

import random

import pytest

from sudokit.formats.fpuzzles import fpuzzles_puzzle
from sudokit.logic.rule_filters import filter_round, peer_filters
from sudokit.logic.rule_peers import logic_geometry, rule_peers
from sudokit.logic.state import Board, Candidates
from sudokit.logic.techniques.innies import derived_sums, innies_outies
from sudokit.logic.chains.rule_forcing import assume_with_rules, locked_round
from sudokit.logic.techniques.thermometers import thermometer_paths, thermometer_step
from sudokit.model import rulebook as rb
from sudokit.model.constraints import Variant
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from tests.helpers import DATA


def c(row: int, col: int) -> int:
    return (row - 1) * 9 + col - 1


def test_a_thermometer_keeps_every_two_of_its_cells_apart() -> None:
    cells = [c(1, 1), c(2, 4), c(4, 7)]  # no two share a unit
    geometry = Geometry.of(3, 3, constraints=rb.thermometer(cells, 9))
    assert rule_peers(geometry) == ((c(1, 1), c(2, 4)), (c(1, 1), c(4, 7)), (c(2, 4), c(4, 7)))


def test_a_zipper_middle_differs_from_its_pair_and_a_palindrome_shares_peers() -> None:
    zipper = Geometry.of(3, 3, constraints=rb.zipper_line([c(1, 1), c(2, 4), c(4, 7)]))
    assert set(rule_peers(zipper)) == {(c(1, 1), c(2, 4)), (c(2, 4), c(4, 7))}
    mirror = Geometry.of(3, 3, constraints=rb.palindrome([c(1, 1), c(9, 9)], 9))
    peers = rule_peers(mirror)
    assert (c(1, 1), c(9, 5)) in peers and (c(1, 5), c(9, 9)) in peers
    assert (c(1, 1), c(9, 9)) not in peers  # equal, not apart


def test_the_state_places_a_digit_away_from_its_rule_peers() -> None:
    cells = [c(1, 1), c(2, 4), c(4, 7)]
    puzzle = Puzzle(Geometry.of(3, 3, constraints=rb.thermometer(cells, 9)), (5,) + (0,) * 80)
    state = Candidates.from_puzzle(puzzle)
    assert state.geometry is logic_geometry(puzzle.geometry)
    assert not state.has(c(4, 7), 5) and not state.has(c(2, 4), 5) and state.has(c(4, 6), 5)


def test_a_pair_relation_on_peers_loses_its_equal_pairs() -> None:
    no_dot = rb.negated(rb.kropki_black(c(1, 1), c(1, 2), 9)[0], 9)
    geometry = Geometry.of(3, 3, constraints=(no_dot,))
    masks = [0x1FF] * 81
    masks[c(1, 1)] = 1 << 4  # 5
    assert filter_round(geometry, masks) == {}  # no black dot allows 5 and 5
    assert filter_round(geometry, masks, peers=True) == {c(1, 2): 5}
    assert masks[c(1, 2)] == 0x1FF & ~(1 << 4)
    assert len(peer_filters(geometry)) == 1


def test_locked_candidates_follow_an_assumption() -> None:
    geometry = Geometry.of(3, 3)
    masks, values = [0x1FF] * 81, [0] * 81
    for cell in range(9, 27):  # rows 2 and 3 of box 1 lose 1: it points along row 1
        if cell % 9 < 3:
            masks[cell] &= ~1
    changed = locked_round(geometry, masks, values)
    assert changed == {c(1, k): 1 for k in range(4, 10)}


def _locked_by_units(geometry: Geometry, masks: list[int], values: list[int]
                     ) -> dict[int, int]:
    """Locked candidates as first written: per unit and digit its open cells, then per
    intersection (the reference :func:`locked_round` keeps, change for change)."""
    from sudokit.logic.units import intersections

    where = [[sum(1 << c for c in unit if not values[c] and masks[c] >> b & 1)
              for b in range(geometry.side)] for unit in geometry.units]
    changed: dict[int, int] = {}
    for inter in intersections(geometry):
        for b, inside in enumerate(where[inter.first]):
            if inside and not inside & ~inter.cells:
                for c in range(len(masks)):
                    if (where[inter.second][b] & ~inside) >> c & 1 and masks[c] >> b & 1:
                        masks[c] &= ~(1 << b)
                        changed[c] = b + 1
    return changed


def test_locked_candidates_match_the_unit_by_unit_reading() -> None:
    rng = random.Random(39)
    for geometry in (Geometry.of(2, 3), Geometry.of(3, 3), Geometry.of(3, 3, variant=Variant.HYPER),
                     Geometry.of(3, 3, variant=Variant.MAIN_DIAGONAL | Variant.DISJOINT)):
        cells, found = geometry.side ** 2, 0
        for _ in range(150):
            dense = rng.random()
            masks = [sum(1 << d for d in range(geometry.side) if rng.random() < dense)
                     for _ in range(cells)]
            values = [(m.bit_length() if m.bit_count() == 1 and rng.random() < 0.8 else 0)
                      for m in masks]
            mine, reference = list(masks), list(masks)
            changed = locked_round(geometry, mine, values)
            assert list(changed.items()) == list(_locked_by_units(geometry, reference,
                                                                  values).items())
            assert mine == reference
            found += bool(changed)
        assert found > 10


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_the_singles_after_a_round_settle_as_one_cell_after_another(compiled: bool) -> None:
    from sudokit.compiled import Kernels, forced
    from sudokit.logic.chains.dynamic import consequences
    from sudokit.logic.chains.rule_forcing import _settle

    rng = random.Random(39)
    geometry = Geometry.of(3, 3)
    board = Board(geometry, [0x1FF] * 81, [0] * 81)
    outcomes = set()
    for _ in range(300):
        out = consequences(board, rng.randrange(81), rng.randrange(1, 10), True)
        masks, values = out.masks, out.values
        lost: dict[int, int] = {}
        for c in rng.sample(range(81), rng.randrange(1, 30)):  # a filter's round of removals
            gone = [b for b in range(9) if masks[c] >> b & 1 and rng.random() < 0.4]
            if gone and not values[c]:
                for b in gone:
                    masks[c] &= ~(1 << b)
                lost[c] = gone[0] + 1
        one = consequences(board, 0, 1, True)  # a fresh result, then the state reached
        one.masks, one.values, one.contradiction = list(masks), list(values), False
        for c, gone_digit in lost.items():
            one = consequences(board, c, gone_digit, False, one.masks, one.values)
            if one.contradiction:
                break
        with forced(Kernels.LOGIC, compiled):
            contradiction, masks, values = _settle(geometry, masks, values, set(lost))
        assert contradiction == one.contradiction
        if not contradiction:
            assert (masks, values) == (one.masks, one.values)
        outcomes.add(contradiction)
    assert outcomes == {False, True}


def test_a_forcing_chain_plus_sees_more_than_the_plain_one() -> None:
    # an arrow r1c1 = r1c2 + r2c1 + r2c2 inside box 1: its cells differ, so 1+2+3 = 6 is
    # the least circle; the plain filter allows 1+1+1 = 3
    geometry = Geometry.of(3, 3, constraints=rb.arrow([c(1, 1)], [c(1, 2), c(2, 1), c(2, 2)]))
    board = Board(geometry, [0x1FF] * 81, [0] * 81)
    assert assume_with_rules(board, c(1, 1), 4)[0] is None
    why, _rounds, _masks = assume_with_rules(board, c(1, 1), 4, plus=True)
    assert why == "arrow r1c1-r2c2 cannot be kept"


def test_a_thermometer_step_names_each_cells_place_and_bound() -> None:
    cells = [c(1, k) for k in range(1, 8)]
    geometry = Geometry.of(3, 3, constraints=rb.thermometer(cells, 9))
    assert thermometer_paths(geometry) == (tuple(cells),)
    step = thermometer_step(Board(geometry, [0x1FF] * 81, [0] * 81))
    assert step is not None and step.technique == "Thermometer" and step.cells == tuple(cells)
    assert step.text.startswith("thermometer r1c1-r1c7: r1c1, cell 1 of 7, at most 3 "
                                "(r1c7 at most 9); ")
    assert "; r1c3, cell 3 of 7, at least 3 (r1c1 at least 1), at most 5 (r1c7 at most 9);" \
        in step.text  # 2 cells below it, 4 above
    assert (c(1, 3), 2) in step.eliminations and (c(1, 3), 6) in step.eliminations
    assert (c(1, 3), 3) not in step.eliminations and (c(1, 3), 5) not in step.eliminations


def test_the_45_rule_gives_innies_and_outies_on_a_killer_puzzle() -> None:
    puzzle = fpuzzles_puzzle((DATA / "fpuzzles/janko_killer_22.json").read_text())
    sums = derived_sums(puzzle.geometry)
    assert any(d.where == "row 1" and d.cells == (c(1, 9),) and d.total == 8 for d in sums)
    assert any("outies" in d.why for d in sums)
    board = Candidates.from_puzzle(puzzle).board()
    step = innies_outies(board)
    assert step is not None and step.technique == "Innies and Outies" and step.rating == 3.8
    assert step.text.startswith("45 rule on row 1: the sums inside total 37, so the innie "
                                "r1c9 = 8: r1c9<>")
    assert (c(1, 9), 8) not in step.eliminations and (c(1, 9), 9) in step.eliminations


def _rule_board(name: str) -> Board:
    from tests.helpers import sigh_rule_puzzle

    return Candidates.from_puzzle(sigh_rule_puzzle(name)[0]).board()


@pytest.mark.parametrize("name", ["little_killer", "xv_kropki", "renban"])
@pytest.mark.parametrize("peers", [False, True], ids=["plain", "peers"])
def test_a_watched_filter_round_changes_what_a_full_one_changes(name: str, peers: bool) -> None:
    """filter_round with a Watch passes over rules whose cells did not change: round after
    round of random removals (as singles would make), the same changes, in the same order, and
    the same contradiction as running every rule."""
    from sudokit.logic.rule_filters import board_watch

    board = _rule_board(name)
    geometry = board.geometry
    rng = random.Random(len(name))
    outcomes = set()
    for _ in range(40):
        watch = board_watch(geometry, board.masks, peers)
        mine, full = list(board.masks), list(board.masks)
        for _round in range(8):
            for cell in rng.sample(range(81), 12):
                if full[cell].bit_count() > 1:
                    gone = 1 << rng.choice([b for b in range(9) if full[cell] >> b & 1])
                    mine[cell] &= ~gone
                    full[cell] &= ~gone
            got = filter_round(geometry, mine, peers, watch)
            want = filter_round(geometry, full, peers)
            assert (got if isinstance(got, str) else list(got.items())) == \
                (want if isinstance(want, str) else list(want.items()))
            assert mine == full
            outcomes.add("str" if isinstance(want, str) else f"dict{bool(want)}")
            if isinstance(want, str):
                break
    assert "dictTrue" in outcomes and len(outcomes) >= 2


@pytest.mark.parametrize("plus", [False, True], ids=["plain", "plus"])
def test_forcing_chains_knowing_earlier_boards_find_the_same_steps(plus: bool) -> None:
    """The assumptions remembered from earlier boards (rule_forcing._Known) skip only what the
    full search would also pass over: step after step, the same step as a search that knows
    nothing, and some assumptions were skipped."""
    from sudokit.logic.chains import rule_forcing as rf

    board = _rule_board("little_killer")
    rf._KNOWN.clear()
    skipped = 0
    for _ in range(3):
        for find in (rf.rule_forcing_chain, rf.rule_cell_forcing_chain):
            holds = rf._Known.holds
            hits = [0]

            def counted(self: rf._Known, cell: int, digit: int,
                        holds: object = holds) -> list[int] | None:
                out = holds(self, cell, digit)  # type: ignore[operator]
                hits[0] += out is not None
                return out

            rf._Known.holds = counted  # type: ignore[method-assign]
            try:
                known = find(board, plus)
            finally:
                rf._Known.holds = holds  # type: ignore[method-assign]
            rf._KNOWN.clear()
            fresh = find(board, plus)
            skipped += hits[0]
            assert repr(known) == repr(fresh) and str(known) == str(fresh)
        step = rf.rule_forcing_chain(board, plus) or rf.rule_cell_forcing_chain(board, plus)
        assert step is not None
        masks = list(board.masks)
        for cell, digit in step.eliminations:
            masks[cell] &= ~(1 << (digit - 1))
        board = Board(board.geometry, masks, list(board.values))
    assert skipped > 0
