"""The named rules setters use, as constructors over the generic kinds of
:mod:`~sudokit.model.rules`.

Every constructor returns a tuple of rules (a thermometer is a chain of pair relations, an
arrow one linear sum) named in the field's words, for digits 1..``side``; cells are cell
indices in the rule's drawn order, and the first rule carries how it was drawn
(:class:`~sudokit.model.rules.RuleDrawing`: name, cells, clue). The rules follow their common
statement (f-puzzles, SudokuPad, the Cracking the Cryptic glossary):

* dots and signs on two orthogonal neighbours: :func:`kropki_white` (digits differ by 1),
  :func:`kropki_black` (one is double the other), :func:`difference_dot`, :func:`ratio_dot`,
  :func:`sum_pair` (X: 10, V: 5), :func:`greater_than`; :func:`negated` turns any of them
  into its negative form ("all dots are given": the relation is forbidden on an unmarked pair);
* lines of pair relations: :func:`thermometer` (strictly increasing from the bulb),
  :func:`slow_thermometer` (never decreasing), :func:`whispers` (German: neighbours differ by at
  least 5 on 9x9, Dutch: 4), :func:`nabner` (no two digits equal or consecutive),
  :func:`entropic_line` and :func:`modular_line` (any 3 consecutive cells hold one digit of
  each third / residue mod 3), :func:`parity_line`, :func:`palindrome`, :func:`clone`,
  :func:`minimum` / :func:`maximum` (a cell below / above its orthogonal neighbours);
* sums: :func:`arrow` (the circle, or a 2-3 cell pill read as a number, equals the arrow's sum),
  :func:`double_arrow`, :func:`little_killer`, :func:`zipper_line`, :func:`region_sum_line`;
* outside clues read by an automaton: :func:`sandwich` (the digits between 1 and N add up to
  the clue), :func:`x_sum` (the first X digits, X the first digit), :func:`skyscraper` (digits
  seen from the clue, taller hiding shorter), :func:`numbered_room` (the X-th digit, X the
  first digit, is the clue);
* the other kinds: :func:`quadruple`, :func:`renban`, :func:`between_line`,
  :func:`lockout_line`, :func:`indexer` (row and column indexers).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import cast

from ..errors import InvalidPuzzle
from .rules import (
    Automaton,
    Between,
    Contains,
    Index,
    Lockout,
    Relation,
    Renban,
    Rule,
    WeightedSum,
    drawn_as,
    function_key,
)

__all__ = [
    "arrow",
    "between_line",
    "clone",
    "difference_dot",
    "double_arrow",
    "entropic_line",
    "given_candidates",
    "greater_than",
    "indexer",
    "kropki_black",
    "kropki_white",
    "little_killer",
    "lockout_line",
    "maximum",
    "minimum",
    "modular_line",
    "nabner",
    "negated",
    "numbered_room",
    "pair_rule",
    "palindrome",
    "parity_line",
    "quadruple",
    "ratio_dot",
    "region_sum_line",
    "renban",
    "sandwich",
    "skyscraper",
    "slow_thermometer",
    "sum_pair",
    "thermometer",
    "whispers",
    "x_sum",
    "zipper_line",
]

Rules = tuple[Rule, ...]


_PAIRS: dict[Hashable, frozenset[tuple[int, int]]] = {}
"""Allowed digit pairs by (side, what the test computes): built once, shared by every rule
of the same test (a puzzle's 60 thermometer links hold one set)."""


def pair_rule(a: int, b: int, side: int, test: Callable[[int, int], bool], name: str) -> Relation:
    """The pair relation on cells ``a``, ``b`` allowing the digit pairs ``test`` accepts (the
    table is cached by ``side`` and :func:`~sudokit.model.rules.function_key` of ``test``)."""
    key = (side, function_key(test))
    pairs = _PAIRS.get(key) if key[1] is not None else None
    if pairs is None:
        digits = range(1, side + 1)
        pairs = frozenset((x, y) for x in digits for y in digits if test(x, y))
        if key[1] is not None:
            if len(_PAIRS) > 4096:
                _PAIRS.clear()
            _PAIRS[key] = pairs
    return Relation((int(a), int(b)), pairs, name)


def negated(relation: Relation, side: int, name: str | None = None) -> Relation:
    """The negative form of a pair relation: every pair it allows is forbidden, every other
    allowed ("no dot": the cells are not consecutive)."""
    key = (side, "negated", relation.pairs)
    pairs = _PAIRS.get(key)
    if pairs is None:
        digits = range(1, side + 1)
        pairs = frozenset((x, y) for x in digits for y in digits
                          if (x, y) not in relation.pairs)
        _PAIRS[key] = pairs
    return Relation(relation.cells, pairs, name or f"no {relation.name}")


def kropki_white(a: int, b: int, side: int) -> Rules:
    """A white Kropki dot: the digits differ by 1."""
    return drawn_as((pair_rule(a, b, side, lambda x, y: abs(x - y) == 1, "white Kropki dot"),),
                    "white Kropki dot", (a, b))


def kropki_black(a: int, b: int, side: int) -> Rules:
    """A black Kropki dot: one digit is double the other."""
    return drawn_as((pair_rule(a, b, side, lambda x, y: x == 2 * y or y == 2 * x,
                               "black Kropki dot"),), "black Kropki dot", (a, b))


def difference_dot(a: int, b: int, side: int, difference: int = 1) -> Rules:
    """A difference dot: the digits differ by ``difference``."""
    name = "white Kropki dot" if difference == 1 else f"difference {difference} dot"
    rules = (pair_rule(a, b, side, lambda x, y: abs(x - y) == difference, name),)
    return drawn_as(rules, name, (a, b), difference if difference != 1 else "")


def ratio_dot(a: int, b: int, side: int, ratio: int = 2) -> Rules:
    """A ratio dot: one digit is ``ratio`` times the other."""
    name = "black Kropki dot" if ratio == 2 else f"ratio {ratio} dot"
    rules = (pair_rule(a, b, side, lambda x, y: x == ratio * y or y == ratio * x, name),)
    return drawn_as(rules, name, (a, b), ratio if ratio != 2 else "")


def sum_pair(a: int, b: int, side: int, total: int) -> Rules:
    """X (``total`` 10), V (5) or another sum sign: the two digits add up to ``total``."""
    name = {10: "X", 5: "V"}.get(total, f"sum {total} sign")
    rules = (pair_rule(a, b, side, lambda x, y: x + y == total, name),)
    return drawn_as(rules, name, (a, b), name if total in (5, 10) else total)


def greater_than(a: int, b: int, side: int) -> Rules:
    """A greater-than sign pointing from ``a`` to ``b``: ``a`` holds the larger digit."""
    return drawn_as((pair_rule(a, b, side, lambda x, y: x > y, "greater-than sign"),),
                    "greater-than sign", (a, b))


def _chain(cells: Sequence[int], side: int, test: Callable[[int, int], bool], name: str,
           reach: int = 1) -> Rules:
    """Pair relations between cells at most ``reach`` apart along a line (drawn as the line)."""
    return drawn_as([pair_rule(cells[i], cells[j], side, test, name) for i in range(len(cells))
                     for j in range(i + 1, min(len(cells), i + reach + 1))], name, cells)


def thermometer(cells: Sequence[int], side: int) -> Rules:
    """A thermometer from its bulb: digits strictly increase along it."""
    return _chain(cells, side, lambda x, y: x < y, "thermometer")


def slow_thermometer(cells: Sequence[int], side: int) -> Rules:
    """A slow thermometer from its bulb: digits never decrease along it."""
    return _chain(cells, side, lambda x, y: x <= y, "slow thermometer")


def whispers(cells: Sequence[int], side: int, gap: int | None = None,
             name: str | None = None) -> Rules:
    """Whispers: neighbours on the line differ by at least ``gap`` (default: German whispers,
    ``(N + 1) // 2``, 5 on 9x9; Dutch whispers are ``N // 2``, 4 on 9x9)."""
    gap = (side + 1) // 2 if gap is None else gap
    name = name or {5: "German whispers", 4: "Dutch whispers"}.get(gap, f"whispers {gap}")
    return _chain(cells, side, lambda x, y: abs(x - y) >= gap, name)


def nabner(cells: Sequence[int], side: int) -> Rules:
    """A nabner line: no two digits on it are equal or consecutive."""
    return _chain(cells, side, lambda x, y: abs(x - y) >= 2, "nabner line", len(cells))


def entropic_line(cells: Sequence[int], side: int) -> Rules:
    """An entropic line: any 3 consecutive cells hold a low, a middle and a high digit (the
    thirds of 1..N; N a multiple of 3).

    Raises:
        InvalidPuzzle: N is not a multiple of 3.
    """
    if side % 3:
        raise InvalidPuzzle(f"entropic line: {side} digits do not split into thirds",
                            constraint="constraints")
    third = side // 3
    return _chain(cells, side, lambda x, y: (x - 1) // third != (y - 1) // third,
                  "entropic line", 2)


def modular_line(cells: Sequence[int], side: int, modulus: int = 3) -> Rules:
    """A modular line: any ``modulus`` consecutive cells hold digits of every residue."""
    return _chain(cells, side, lambda x, y: x % modulus != y % modulus, "modular line",
                  modulus - 1)


def parity_line(cells: Sequence[int], side: int) -> Rules:
    """A parity line: neighbours on it alternate odd and even."""
    return _chain(cells, side, lambda x, y: (x - y) % 2 == 1, "parity line")


def palindrome(cells: Sequence[int], side: int) -> Rules:
    """A palindrome line: it reads the same from both ends."""
    n = len(cells)
    return drawn_as([pair_rule(cells[i], cells[n - 1 - i], side, lambda x, y: x == y,
                               "palindrome") for i in range(n // 2)], "palindrome", cells)


def clone(cells: Sequence[int], copies: Sequence[int], side: int) -> Rules:
    """Clones: each cell holds the digit of the matching cell of the other shape.

    Raises:
        InvalidPuzzle: the shapes have different sizes.
    """
    if len(cells) != len(copies):
        raise InvalidPuzzle(f"clone: shapes of {len(cells)} and {len(copies)} cells",
                            constraint="constraints")
    return drawn_as([pair_rule(a, b, side, lambda x, y: x == y, "clone")
                     for a, b in zip(cells, copies) if a != b], "clone", cells, extra=copies)


def minimum(cell: int, neighbours: Sequence[int], side: int) -> Rules:
    """A minimum cell: its digit is below each orthogonal neighbour's."""
    return drawn_as([pair_rule(cell, n, side, lambda x, y: x < y, "minimum")
                     for n in neighbours], "minimum", (cell,))


def maximum(cell: int, neighbours: Sequence[int], side: int) -> Rules:
    """A maximum cell: its digit is above each orthogonal neighbour's."""
    return drawn_as([pair_rule(cell, n, side, lambda x, y: x > y, "maximum")
                     for n in neighbours], "maximum", (cell,))


def arrow(circle: Sequence[int], line: Sequence[int]) -> Rules:
    """An arrow: the digits on the line add up to the circle, or to the number a 2-3 cell pill
    reads (first cell the leading digit)."""
    k = len(circle)
    terms = [(c, 10 ** (k - 1 - i)) for i, c in enumerate(circle)] + [(c, -1) for c in line]
    return drawn_as((WeightedSum.of(terms, 0, "arrow"),), "arrow", line, extra=circle)


def double_arrow(cells: Sequence[int]) -> Rules:
    """A double arrow: the two end circles add up to the sum of the cells between them."""
    terms = [(cells[0], 1), (cells[-1], 1)] + [(c, -1) for c in cells[1:-1]]
    return drawn_as((WeightedSum.of(terms, 0, "double arrow"),), "double arrow", cells)


def little_killer(cells: Sequence[int], total: int) -> Rules:
    """A little killer: the digits on the diagonal add up to ``total`` (repeats allowed)."""
    return drawn_as((WeightedSum.of([(c, 1) for c in cells], total, "little killer"),),
                    "little killer", cells, total)


def zipper_line(cells: Sequence[int]) -> Rules:
    """A zipper line: cells the same distance from the middle add up to the same total, the
    middle digit on a line of odd length."""
    n = len(cells)
    pairs = [(cells[i], cells[n - 1 - i]) for i in range(n // 2)]
    if n % 2:
        middle = cells[n // 2]
        rules = [WeightedSum.of([(a, 1), (b, 1), (middle, -1)], 0, "zipper line")
                 for a, b in pairs]
    else:
        rules = [WeightedSum.of([(a, 1), (b, 1), (c, -1), (d, -1)], 0, "zipper line")
                 for (a, b), (c, d) in zip(pairs, pairs[1:])]
    return drawn_as(rules, "zipper line", cells)


def region_sum_line(cells: Sequence[int], region_of: Callable[[int], int]) -> Rules:
    """A region sum line: box borders cut it into segments with the same sum."""
    segments: list[list[int]] = []
    for i, cell in enumerate(cells):
        if i == 0 or region_of(cell) != region_of(cells[i - 1]):
            segments.append([])
        segments[-1].append(cell)
    return drawn_as([WeightedSum.of([(c, 1) for c in a] + [(c, -1) for c in b], 0,
                                    "region sum line") for a, b in zip(segments, segments[1:])],
                    "region sum line", cells)


def _walk(cells: Sequence[int], side: int, start: Hashable,
          step: Callable[[Hashable, int], Hashable | None], accept: Callable[[Hashable], bool],
          name: str, clue: int) -> Rules:
    """The automaton of an outside clue reading ``cells`` (drawn as the clue before them)."""
    return drawn_as((Automaton.build(cells, side, start, step, accept, name),), name, cells, clue)


def sandwich(cells: Sequence[int], total: int, side: int) -> Rules:
    """A sandwich clue: the line holds 1 and N once each, and the digits between them add up
    to ``total``. States: ``"out"`` (no crust yet), ``(crust, sum)``, ``"done"``."""

    def step(state: Hashable, d: int) -> Hashable | None:
        crust = d in (1, side)
        if state == "out":
            return (d, 0) if crust else state
        if state == "done":
            return None if crust else state
        first, s = cast("tuple[int, int]", state)
        if crust:
            return "done" if d != first and s == total else None
        return (first, s + d) if s + d <= total else None

    return _walk(cells, side, "out", step, lambda s: s == "done", "sandwich sum", total)


def x_sum(cells: Sequence[int], total: int, side: int) -> Rules:
    """An X-sum clue: the first X digits from the clue add up to ``total``, X the first digit.
    States: ``"start"``, ``(left, sum)`` while counting, ``"done"``."""

    def step(state: Hashable, d: int) -> Hashable | None:
        if state == "done":
            return state
        left, s = (d, 0) if state == "start" else cast("tuple[int, int]", state)
        left, s = left - 1, s + d
        if s > total:
            return None
        return ("done" if s == total else None) if left == 0 else (left, s)

    return _walk(cells, side, "start", step, lambda s: s == "done", "X-sum", total)


def skyscraper(cells: Sequence[int], count: int, side: int) -> Rules:
    """A skyscraper clue: ``count`` digits are seen from the clue (a digit hides every
    smaller one behind it). States: ``(tallest, seen)``."""

    def step(state: Hashable, d: int) -> Hashable | None:
        tallest, seen = cast("tuple[int, int]", state)
        if d > tallest:
            tallest, seen = d, seen + 1
        return (tallest, seen) if seen <= count else None

    return _walk(cells, side, (0, 0), step, lambda s: cast("tuple[int, int]", s)[1] == count,
                 "skyscraper", count)


def numbered_room(cells: Sequence[int], digit: int, side: int) -> Rules:
    """A numbered room clue: the X-th digit from the clue is ``digit``, X the first digit.
    States: ``"start"``, ``left`` cells to go, ``"done"``."""

    def step(state: Hashable, d: int) -> Hashable | None:
        if state == "done":
            return state
        left = (d if state == "start" else cast(int, state)) - 1
        if left == 0:
            return "done" if d == digit else None
        return left

    return _walk(cells, side, "start", step, lambda s: s == "done", "numbered room", digit)


def given_candidates(cell: int, digits: Sequence[int], side: int) -> Rules:
    """Given candidates (f-puzzles ``givenPencilMarks`` on an empty cell): the cell holds one
    of ``digits``; a one-cell sequence rule, so every method that reads sequences takes it."""
    allowed = frozenset(map(int, digits))
    rule = Automaton.build((cell,), side, 0, lambda state, d: 1 if d in allowed else None,
                           lambda state: state == 1, "given candidates")
    return drawn_as((rule,), "given candidates", (cell,), " ".join(map(str, sorted(allowed))))


def quadruple(cells: Sequence[int], digits: Sequence[int]) -> Rules:
    """A quadruple: the cells around the circle hold every digit written in it."""
    rule = Contains(tuple(map(int, cells)), tuple(sorted(map(int, digits))), "quadruple")
    return drawn_as((rule,), "quadruple", cells, " ".join(map(str, rule.digits)))


def renban(cells: Sequence[int]) -> Rules:
    """A renban line: distinct consecutive digits in any order."""
    return drawn_as((Renban(tuple(map(int, cells))),), "renban", cells)


def between_line(cells: Sequence[int]) -> Rules:
    """A between line: digits on it lie strictly between its two circled ends."""
    return drawn_as((Between(tuple(map(int, cells))),), "between line", cells)


def lockout_line(cells: Sequence[int], side: int, gap: int | None = None) -> Rules:
    """A lockout line: its diamond ends differ by at least ``gap`` (default ``(N - 1) // 2``,
    4 on 9x9) and no digit on it lies between them or equals either."""
    gap = (side - 1) // 2 if gap is None else gap
    return drawn_as((Lockout(tuple(map(int, cells)), int(gap)),), "lockout line", cells)


def indexer(cell: int, targets: Sequence[int], value: int, name: str = "indexer") -> Rules:
    """An indexer: the digit d of ``cell`` puts ``value`` in the d-th cell of ``targets``.

    A row indexer at r?c? (Rangsk's and f-puzzles' ``rowindexer``): ``targets`` is the cell's
    column from the top and ``value`` its row number; a column indexer: its row from the left
    and its column number.
    """
    return drawn_as((Index.of(cell, targets, value, name),), name, (cell,))
