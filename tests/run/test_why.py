"""Why a puzzle has no solution or several (sudokit.run.why), on published puzzles.

Every claim is checked independently through the front door: a reason has no solution and
each of its members is needed (dropping it gives a solvable puzzle); the two solutions are
solutions; the unavoidable set is exactly where the alternative differs; each fixing given makes
the puzzle unique.
"""

from __future__ import annotations

import pytest

from sudokit.model.puzzle import Puzzle, is_solution
from sudokit.model.rulebook import thermometer
from sudokit.run.doors import count_solutions
from sudokit.run.why import Why, why
from sudokit.run.why_check import members, sub_puzzle
from tests.helpers import DATA, load, sigh_rule_puzzle


def _solvable(puzzle: Puzzle) -> bool:
    return count_solutions(puzzle, limit=1).count == 1


def _broken(puzzle: Puzzle, nth: int) -> tuple[Puzzle, int]:
    """``puzzle`` (unique) with its ``nth`` given or a later one changed to a digit its peers
    allow, so that no solution is left; the changed cell."""
    givens = [c for c, d in enumerate(puzzle.givens) if d]
    for cell in givens[nth:]:
        digits = list(puzzle.givens)
        digits[cell] = 0
        for digit in Puzzle(puzzle.geometry, tuple(digits)).candidates(cell):
            if digit != puzzle.givens[cell]:
                digits[cell] = digit
                broken = Puzzle(puzzle.geometry, tuple(digits))
                if not _solvable(broken):
                    return broken, cell
    raise AssertionError("no change of one given broke the puzzle")


def _check_reasons(puzzle: Puzzle, found: Why) -> None:
    """Each reason unsolvable, each member needed, reasons pairwise disjoint."""
    assert found.verdict == "none" and found.reasons
    seen: set = set()
    for reason in found.reasons:
        kept = list(reason.members)
        assert kept and not seen & set(kept)
        seen |= set(kept)
        assert not _solvable(sub_puzzle(puzzle, kept))
        for member in kept:
            assert _solvable(sub_puzzle(puzzle, [m for m in kept if m != member])), member


@pytest.mark.parametrize("method", [None, "fast"])  # the compiled engine; a named method
@pytest.mark.parametrize("index", [0, 7, 100, 400, 1000])
def test_one_changed_given_is_in_a_minimal_reason(index: int, method: str | None) -> None:
    puzzle = load("tdoku/puzzles3_magictour_top1465", index + 1)[index]
    broken, cell = _broken(puzzle, 3)
    found = why(broken, method=method)
    _check_reasons(broken, found)
    assert cell in [m.index for m in found.reasons[0].members if m.kind == "given"]
    assert found.reasons[0].contradiction  # the techniques refute these small conflicts
    assert "cannot all hold" in found.text()


def test_published_unsolvable_puzzles_have_minimal_reasons() -> None:
    lines = (DATA / "invalid" / "tdoku_test_puzzles").read_text().split()
    unsolvable = [line.split(":")[0] for line in lines if line.split(":")[1] == "0"]
    assert len(unsolvable) >= 5
    for text in unsolvable[:5]:
        puzzle = Puzzle.parse(text)
        _check_reasons(puzzle, why(puzzle))


def test_duplicate_givens_are_the_reason_and_several_are_listed() -> None:
    puzzle = load("invalid/sudopedia_cp468/unsolvable/duplicate_row.txt")[0]
    found = why(puzzle)
    _check_reasons(puzzle, found)
    assert len(found.reasons[0].members) == 2
    assert "given twice" in found.reasons[0].contradiction
    # a digit given twice in row 1 and again in row 9: two disjoint reasons
    base = load("norvig/sudoku-easy50.txt", 1)[0]
    digits = list(base.givens)
    for row in (0, 8):
        cells = range(row * 9, row * 9 + 9)
        given = next(c for c in cells if digits[c])
        digits[next(c for c in cells if not digits[c])] = digits[given]
    twice = Puzzle(base.geometry, tuple(digits))
    found = why(twice)
    _check_reasons(twice, found)
    assert len(found.reasons) == 2
    assert found.text().startswith("no solution: 2 disjoint reasons")


@pytest.mark.parametrize("method", [None, "fast"])  # CDCL with assumptions; QuickXplain
def test_a_broken_rule_puzzle_names_its_rules(method: str | None) -> None:
    puzzle, solution = sigh_rule_puzzle("thermosudoku")
    a, b = next((a, b) for a in range(81) for b in range(81)
                 if a != b and solution[a] > solution[b] and not puzzle.givens[a]
                 and not puzzle.givens[b] and a // 9 != b // 9)
    broken = puzzle.with_constraints(*thermometer([a, b], 9))  # the solution breaks it
    found = why(broken, method=method)
    _check_reasons(broken, found)
    rules = [m for m in found.reasons[0].members if m.kind == "rule"]
    assert any(set(m.cells) == {a, b} for m in rules)  # the added thermometer
    assert all(m.text.startswith("thermometer") for m in rules)


@pytest.mark.parametrize("method", [None, "fast"])  # CDCL with assumptions; QuickXplain
def test_a_killer_puzzle_names_its_cages(method: str | None) -> None:
    puzzle = load("janko/KillerSudoku/problems/22_9x9.txt")[0]
    cage = puzzle.geometry.cages[0]
    solution = count_solutions(puzzle).solutions[0]
    cell = cage.cells[0]
    digits = list(puzzle.givens)
    digits[cell] = next(d for d in range(1, 10) if d != solution[cell])
    broken = Puzzle(puzzle.geometry, tuple(digits))
    found = why(broken, method=method)
    _check_reasons(broken, found)
    assert any(m.kind == "given" and m.index == cell for m in found.reasons[0].members)


def test_17_clue_puzzle_without_one_given_names_it_among_the_fixes() -> None:
    for index, puzzle in enumerate(load("tdoku/puzzles2_17_clue_first300", 6)):
        cell = [c for c, d in enumerate(puzzle.givens) if d][index * 2]
        digits = list(puzzle.givens)
        digits[cell] = 0
        loose = Puzzle(puzzle.geometry, tuple(digits))
        found = why(loose)
        assert found.verdict == "several"
        several = found.several
        assert (cell, puzzle.givens[cell]) in several.fixes
        first, second = several.solutions
        assert is_solution(first, loose) and is_solution(second, loose)
        assert list(several.differ) == [c for c in range(81) if first[c] != second[c]]
        alternative = several.alternative
        assert is_solution(alternative, loose)
        assert list(several.unavoidable) == [c for c in range(81)
                                             if first[c] != alternative[c]]
        for fix_cell, digit in several.fixes:
            digits[fix_cell] = digit
            assert count_solutions(Puzzle(puzzle.geometry, tuple(digits))).count == 1
            digits[fix_cell] = 0
        assert found.as_dict()["fixes"]


def test_no_single_given_fixes_an_empty_4x4_but_a_set_does() -> None:
    found = why("." * 16)
    several = found.several
    assert found.verdict == "several" and not several.fixes and several.complete
    digits = [0] * 16
    for cell, digit in several.fix_set:
        digits[cell] = digit
    assert count_solutions(Puzzle.from_digits(digits)).count == 1
    assert "no single given" in found.text()


def test_a_rule_puzzle_missing_a_rule_names_fixes() -> None:
    puzzle, solution = sigh_rule_puzzle("xv_kropki")
    parts = members(puzzle)
    loose = next(sub for m in parts if m.kind == "rule"
                 for sub in [sub_puzzle(puzzle, [p for p in parts if p != m])]
                 if count_solutions(sub).count == 2)
    found = why(loose)
    assert found.verdict == "several"
    digits = list(loose.givens)
    for cell, digit in found.several.fixes:
        digits[cell] = digit
        assert count_solutions(Puzzle(loose.geometry, tuple(digits))).count == 1
        digits[cell] = 0
    assert any(solution[c] == d for c, d in found.several.fixes)


def test_a_unique_puzzle_says_so() -> None:
    found = why(load("norvig/sudoku-easy50.txt", 1)[0])
    assert found.verdict == "unique" and found.as_dict()["verdict"] == "unique"
    assert str(found) == "the puzzle has exactly one solution"


def test_a_rule_step_that_empties_a_cell_is_written() -> None:
    """A rule step's text when the rule leaves a cell no digit (the sub-conflicts why() looks
    at): an IndexError before."""
    from sudokit.logic.techniques.rules import _conclusion

    assert _conclusion("r1c2", 0b1010, 0) == "r1c2 has no candidate left (<>1,3)"
    assert _conclusion("r1c2", 0b1000, 0b100) == "r1c2=2"
