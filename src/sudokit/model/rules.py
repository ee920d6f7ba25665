"""The rules setters draw on a grid, as a few generic kinds of constraint over cells.

Most variant Sudoku published today (f-puzzles, SudokuPad) is built from a shared vocabulary:
thermometers, arrows, Kropki dots, XV, whispers, renban, palindromes, little killers,
sandwiches, between lines, quadruples ... The leading solvers (sigh's Interactive Sudoku
Solver, Rangsk's SudokuSolver) reduce their long lists to a handful of generic propagators;
sudokit does the same. A rule is an instance of one of eight **kinds** (frozen dataclasses;
the feature name first, the digits ``d`` of ``cells`` in order):

* ``pair-relation``, :class:`Relation`: ``(d0, d1)`` is one of the allowed ``pairs`` (a table);
* ``linear-sum``, :class:`WeightedSum`: ``sum(k * d) == total`` for integer coefficients ``k``
  (repeats allowed: no all-different);
* ``sequence``, :class:`Automaton`: a deterministic finite automaton reading the digits from
  ``start`` ends in an ``accepting`` state;
* ``must-contain``, :class:`Contains`: the listed ``digits`` (a multiset) all appear;
* ``renban``, :class:`Renban`: distinct digits forming a run of consecutive values;
* ``between-line``, :class:`Between`: every middle digit lies strictly between the two ends;
* ``lockout-line``, :class:`Lockout`: the ends differ by at least ``gap``; no middle digit lies
  between them or equals either;
* ``indexing``, :class:`Index`: ``d0`` points at its ``d0``-th target, which holds ``value``.

The named rules (thermometer, white Kropki dot, arrow, sandwich ...) are constructors over
these kinds in :mod:`~sudokit.model.rulebook`; each instance keeps the rule's ``name`` in the
field's words for messages. A :class:`~sudokit.model.geometry.Geometry` carries them in its
``constraints`` (so the array paths, pickling and the method declarations see them like cages)
and adds their kinds to its :attr:`~sudokit.model.geometry.Geometry.features`: a method that
does not declare a kind never sees a puzzle using it. Digits are 1..N for any grid side N.

A named rule remembers how the setter drew it: the first rule a constructor returns carries a
:class:`RuleDrawing` in its ``drawing`` field (the rule's name, its cells in drawn order, the
clue written on it), which a board draws back (:mod:`sudokit.present.glyphs`); a drawing is part
of a rule's identity (two thermometers 1-2 and 2-3 are not the thermometer 1-2-3 on a board).

Every rule answers :meth:`Rule.holds` (its cells' digits in order) and
:meth:`Rule.violation` (a full grid: why it breaks the rule, or None); :func:`check_rules`
validates cells and parameters with an :class:`~sudokit.errors.InvalidPuzzle` naming the rule.
The sequence kind is the regular constraint of Pesant 2004 ("A regular language membership
constraint for finite sequences of variables", CP 2004): a propagator filters it forward and
backward over the layered automaton, a SAT encoding unrolls the same layers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from ..errors import InvalidPuzzle

__all__ = [
    "RULE_KINDS",
    "check_rules",
    "drawn_as",
    "Automaton",
    "Between",
    "Contains",
    "Index",
    "Lockout",
    "Relation",
    "Renban",
    "Rule",
    "RuleDrawing",
    "WeightedSum",
]

RULE_KINDS = frozenset({"pair-relation", "linear-sum", "sequence", "must-contain", "renban",
                        "between-line", "lockout-line", "indexing"})
"""The feature name of every kind of :class:`Rule` (what a method declares to take them)."""


@dataclass(frozen=True)
class RuleDrawing:
    """How a setter drew a named rule, for a board to draw it back.

    Attributes:
        name: the named rule, in the field's words (``"thermometer"``, ``"arrow"``,
            ``"white Kropki dot"``, ``"sandwich sum"``: the ``name`` of its rules).
        cells: its cells in drawn order: a line from its start (a thermometer from the bulb,
            an arrow's shaft from the circle), a dot's or sign's two cells (a greater-than
            sign points from the first to the second), the row, column or diagonal an
            outside clue reads (from the clue), a quadruple's cells, a marked cell.
        value: the clue written on it, ``""`` for none: a dot's difference or ratio (when not
            the Kropki default), ``"X"``/``"V"``, an outside clue's number, a quadruple's
            digits (``"1 2 9"``).
        extra: a second group of cells: an arrow's circle or pill, a clone's copy.
    """

    name: str
    cells: tuple[int, ...]
    value: str = ""
    extra: tuple[int, ...] = ()


def drawn_as(rules: Sequence[Rule], name: str, cells: Sequence[int], value: object = "",
             extra: Sequence[int] = ()) -> tuple[Rule, ...]:
    """The rules of one named rule, the first carrying its :class:`RuleDrawing` (no rules: no
    drawing)."""
    if not rules:
        return tuple(rules)
    drawing = RuleDrawing(name, tuple(map(int, cells)), str(value), tuple(map(int, extra)))
    return (_with_drawing(rules[0], drawing),) + tuple(rules[1:])


def _with_drawing(rule: Rule, drawing: RuleDrawing) -> Rule:
    """``rule`` with ``drawing``: :func:`dataclasses.replace` without its field-by-field
    ``__init__`` (the kinds are frozen dataclasses without ``__post_init__``; a third of an
    f-puzzles read of 27 dots went to ``replace``)."""
    fields = getattr(rule, "__dict__", None)
    if fields is None or "drawing" not in fields:
        return replace(rule, drawing=drawing)  # type: ignore[type-var]
    copy = object.__new__(type(rule))
    object.__setattr__(copy, "__dict__", {**fields, "drawing": drawing})
    return copy


class Rule:
    """What every kind of rule offers (the kinds are frozen dataclasses with ``cells`` and
    ``name`` fields).

    Attributes:
        kind: the kind's feature name (one of :data:`RULE_KINDS`).
        cells: the cells the rule reads, in the rule's order (cell indices).
        name: the rule in the field's words (``"thermometer"``, ``"white Kropki dot"``).
        drawing: how the named rule was drawn (on the first rule of a named rule), or None.
    """

    kind: ClassVar[str]
    cells: tuple[int, ...]
    name: str
    drawing: RuleDrawing | None

    def holds(self, digits: Sequence[int]) -> bool:
        """Whether the digits of :attr:`cells` (in order, each 1..N) keep the rule."""
        raise NotImplementedError

    def violation(self, grid: Sequence[int], label: Callable[[int], str]) -> str | None:
        """Why a full grid breaks the rule (``label`` names a cell), or None when it keeps it."""
        digits = [grid[c] for c in self.cells]
        if self.holds(digits):
            return None
        shown = ", ".join(f"{label(c)}={d}" for c, d in zip(self.cells[:6], digits))
        more = ", ..." if len(self.cells) > 6 else ""
        return f"{self.describe(label)} is broken ({shown}{more})"

    def describe(self, label: Callable[[int], str]) -> str:
        """The rule and where it is: ``"thermometer r1c1-r1c4"``."""
        ends = label(self.cells[0]) + (f"-{label(self.cells[-1])}" if len(self.cells) > 1 else "")
        return f"{self.name} {ends}"

    def _check(self, side: int) -> str | None:
        """What is wrong with the rule's parameters for digits 1..``side`` (None: nothing)."""
        return None


def _digit_ok(d: int, side: int) -> bool:
    return 1 <= d <= side


def function_key(fn: Callable[..., object]) -> Hashable | None:
    """What a function computes, as a dictionary key: its code and the values it closes over
    and defaults to (None when one of them is not hashable). Two lambdas written at the same
    place with equal captured values (``lambda x, y: x + y == total`` for the same ``total``)
    get the same key, so a table built from one serves the other (the rule tables of
    :mod:`~sudokit.model.rulebook` are built once per shape, not once per rule)."""
    try:
        cells = tuple(c.cell_contents for c in fn.__closure__ or ())
        key = (fn.__code__, cells, fn.__defaults__)
        hash(key)
    except (AttributeError, TypeError, ValueError):
        return None
    return key


_CHECKED: dict[int, tuple[object, int]] = {}
"""Shared tables (pair sets, transition tables) already found valid, by ``id``: the table
kept alive beside the side it was checked for, so one table shared by many rules is checked
once (cleared when large)."""


def _checked_once(table: object, side: int, check: Callable[[], str | None]) -> str | None:
    """``check()``, skipped when this very ``table`` already passed it for ``side``."""
    seen = _CHECKED.get(id(table))
    if seen is not None and seen[0] is table and seen[1] == side:
        return None
    problem = check()
    if problem is None:
        if len(_CHECKED) > 65536:
            _CHECKED.clear()
        _CHECKED[id(table)] = (table, side)
    return problem


@dataclass(frozen=True)
class Relation(Rule):
    """Two cells whose digits form one of the allowed pairs (a pair relation).

    Attributes:
        cells: the two cells ``(a, b)``.
        pairs: the allowed ``(digit of a, digit of b)`` pairs, digits 1..N.
        name: e.g. ``"white Kropki dot"``, ``"thermometer"``, ``"German whispers"``.
    """

    cells: tuple[int, int]
    pairs: frozenset[tuple[int, int]]
    name: str = "pair relation"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "pair-relation"

    def holds(self, digits: Sequence[int]) -> bool:
        return (digits[0], digits[1]) in self.pairs

    def _check(self, side: int) -> str | None:
        if len(self.cells) != 2 or self.cells[0] == self.cells[1]:
            return "expected two different cells"
        return _checked_once(self.pairs, side, lambda: None if all(
            _digit_ok(a, side) and _digit_ok(b, side) for a, b in self.pairs)
            else f"a pair holds a digit outside 1..{side}")


@dataclass(frozen=True)
class WeightedSum(Rule):
    """``sum(coefficients[i] * digit(cells[i])) == total``; digits may repeat.

    A total held by other cells moves to the left with negative coefficients: an arrow is
    ``circle - sum(arrow) == 0``, a 2-cell pill ``10 * first + second - sum(arrow) == 0``.
    Build one with :meth:`of` to merge repeated cells.

    Attributes:
        cells: distinct cells.
        coefficients: one non-zero integer per cell.
        total: the integer the weighted sum equals.
        name: e.g. ``"arrow"``, ``"little killer"``, ``"zipper line"``.
    """

    cells: tuple[int, ...]
    coefficients: tuple[int, ...]
    total: int
    name: str = "sum"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "linear-sum"

    @classmethod
    def of(cls, terms: Sequence[tuple[int, int]], total: int, name: str = "sum") -> WeightedSum:
        """The sum of ``(cell, coefficient)`` terms, a repeated cell's coefficients added and
        zero terms dropped (cells in first-seen order)."""
        merged: dict[int, int] = {}
        for cell, k in terms:
            merged[int(cell)] = merged.get(int(cell), 0) + int(k)
        kept = [(c, k) for c, k in merged.items() if k]
        return cls(tuple(c for c, _ in kept), tuple(k for _, k in kept), int(total), name)

    def holds(self, digits: Sequence[int]) -> bool:
        return sum(k * d for k, d in zip(self.coefficients, digits)) == self.total

    def _check(self, side: int) -> str | None:
        if len(self.coefficients) != len(self.cells) or not self.cells:
            return "expected one coefficient per cell and at least one cell"
        if len(set(self.cells)) != len(self.cells) or 0 in self.coefficients:
            return "expected distinct cells with non-zero coefficients (use WeightedSum.of)"
        return None


@dataclass(frozen=True)
class Automaton(Rule):
    """A sequence rule: a deterministic finite automaton reads the digits of ``cells`` in
    order from ``start``; the rule holds when it ends in an ``accepting`` state.

    ``transitions[state][digit - 1]`` is the next state, -1 for none (the sequence is
    rejected). Build one with :meth:`build` from a start state, a step function and an accept
    test (sandwich sums, X-sums, skyscrapers, numbered rooms in
    :mod:`~sudokit.model.rulebook`).

    Attributes:
        cells: the cells read, in order (from the clue's side for outside clues).
        transitions: per state, N next states (-1: dead).
        accepting: the accepting states.
        start: the state before the first cell.
        name: e.g. ``"sandwich sum"``.
    """

    cells: tuple[int, ...]
    transitions: tuple[tuple[int, ...], ...]
    accepting: frozenset[int]
    start: int = 0
    name: str = "sequence"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "sequence"

    @classmethod
    def build(cls, cells: Sequence[int], side: int, start: Hashable,
              step: Callable[[Hashable, int], Hashable | None],
              accept: Callable[[Hashable], bool], name: str = "sequence") -> Automaton:
        """The automaton of the states reachable from ``start`` within ``len(cells)`` steps.

        Args:
            cells: the cells read, in order.
            side: N (digits 1..N).
            start: the first state (any hashable value).
            step: ``step(state, digit)``: the next state, or None when the digit is refused.
            accept: whether a final state accepts.
            name: the rule's name.

        The table depends only on the number of cells, ``side``, ``start`` and what ``step``
        and ``accept`` compute (:func:`function_key`), so it is built once per such shape and
        shared (a 9x9 sandwich clue of 12: one table for every row and column holding it).
        """
        key = (len(cells), side, start, function_key(step), function_key(accept))
        table = None if None in key[3:] else _AUTOMATA.get(key)
        if table is None:
            table = _automaton_table(len(cells), side, start, step, accept)
            if None not in key[3:]:
                if len(_AUTOMATA) > 4096:
                    _AUTOMATA.clear()
                _AUTOMATA[key] = table
        return cls(tuple(map(int, cells)), table[0], table[1], 0, name)

    def holds(self, digits: Sequence[int]) -> bool:
        state = self.start
        for d in digits:
            if not 1 <= d <= len(self.transitions[state]):
                return False
            state = self.transitions[state][d - 1]
            if state < 0:
                return False
        return state in self.accepting

    def _check(self, side: int) -> str | None:
        if not 0 <= self.start < len(self.transitions):
            return f"expected {side} transitions per state and a start state"
        return _checked_once(self.transitions, side, lambda: self._check_table(side))

    def _check_table(self, side: int) -> str | None:
        n = len(self.transitions)
        if any(len(row) != side for row in self.transitions):
            return f"expected {side} transitions per state and a start state"
        if any(not -1 <= s < n for row in self.transitions for s in row):
            return "a transition leads to no state"
        return None


_AUTOMATA: dict[Hashable, tuple[tuple[tuple[int, ...], ...], frozenset[int]]] = {}
"""Transition tables and accepting states by shape (see :meth:`Automaton.build`)."""


def _automaton_table(length: int, side: int, start: Hashable,
                     step: Callable[[Hashable, int], Hashable | None],
                     accept: Callable[[Hashable], bool]
                     ) -> tuple[tuple[tuple[int, ...], ...], frozenset[int]]:
    """The transitions (per state, N next states, -1 dead) and accepting states of the states
    reachable from ``start`` (numbered 0) within ``length`` steps."""
    number = {start: 0}
    rows: list[list[int]] = []
    layer = [start]
    for _ in range(length + 1):
        following = []
        for state in layer:
            while len(rows) <= number[state]:
                rows.append([-1] * side)
            for digit in range(1, side + 1):
                nxt = step(state, digit)
                if nxt is None:
                    continue
                if nxt not in number:
                    number[nxt] = len(number)
                    following.append(nxt)
                rows[number[state]][digit - 1] = number[nxt]
        layer = following
    while len(rows) < len(number):
        rows.append([-1] * side)
    accepting = frozenset(i for state, i in number.items() if accept(state))
    return tuple(map(tuple, rows)), accepting


@dataclass(frozen=True)
class Contains(Rule):
    """The cells hold every listed digit (a multiset: a digit listed twice appears twice);
    quadruples.

    Attributes:
        cells: the cells (a quadruple's four cells around a corner).
        digits: the digits they must contain, increasing.
        name: e.g. ``"quadruple"``.
    """

    cells: tuple[int, ...]
    digits: tuple[int, ...]
    name: str = "must-contain"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "must-contain"

    def holds(self, digits: Sequence[int]) -> bool:
        have = Counter(digits)
        return all(have[d] >= k for d, k in Counter(self.digits).items())

    def _check(self, side: int) -> str | None:
        if len(self.digits) > len(self.cells) or not all(_digit_ok(d, side) for d in self.digits):
            return f"expected at most {len(self.cells)} digits 1..{side}"
        return None


@dataclass(frozen=True)
class Renban(Rule):
    """Distinct digits forming a set of consecutive values, in any order.

    Attributes:
        cells: the line's cells (at most N).
        name: ``"renban"``.
    """

    cells: tuple[int, ...]
    name: str = "renban"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "renban"

    def holds(self, digits: Sequence[int]) -> bool:
        return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1

    def _check(self, side: int) -> str | None:
        return None if len(self.cells) <= side else f"expected at most {side} cells"


@dataclass(frozen=True)
class Between(Rule):
    """Every digit strictly inside the line lies strictly between the digits at its two ends
    (the circles), whichever end is larger.

    Attributes:
        cells: the line from one end to the other (at least 2 cells).
        name: ``"between line"``.
    """

    cells: tuple[int, ...]
    name: str = "between line"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "between-line"

    def holds(self, digits: Sequence[int]) -> bool:
        low, high = sorted((digits[0], digits[-1]))
        return all(low < d < high for d in digits[1:-1])

    def _check(self, side: int) -> str | None:
        return None if len(self.cells) >= 2 else "expected at least 2 cells"


@dataclass(frozen=True)
class Lockout(Rule):
    """The end digits (the diamonds) differ by at least ``gap``; no digit inside the line lies
    between them or equals either.

    Attributes:
        cells: the line from one end to the other (at least 2 cells).
        gap: the least difference of the ends (4 on 9x9).
        name: ``"lockout line"``.
    """

    cells: tuple[int, ...]
    gap: int
    name: str = "lockout line"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "lockout-line"

    def holds(self, digits: Sequence[int]) -> bool:
        low, high = sorted((digits[0], digits[-1]))
        return high - low >= self.gap and all(not low <= d <= high for d in digits[1:-1])

    def _check(self, side: int) -> str | None:
        if len(self.cells) < 2 or not 0 <= self.gap < side:
            return f"expected at least 2 cells and a gap 0..{side - 1}"
        return None


@dataclass(frozen=True)
class Index(Rule):
    """Indexing: the digit ``d`` of the first cell points at the ``d``-th target, which holds
    ``value``. A 159-style row indexer in column 1 of row r: the digit ``d`` at r?c1 puts 1 at
    r?c``d`` (the indexing cell is then its own first target).

    Attributes:
        cells: the indexing cell first, then the other cells pointed into (distinct).
        targets: per digit 1..k, the position in ``cells`` of the cell it points at.
        value: the digit the pointed cell holds.
        name: e.g. ``"row indexer"``, ``"column indexer"``.
    """

    cells: tuple[int, ...]
    targets: tuple[int, ...]
    value: int
    name: str = "indexing"
    drawing: RuleDrawing | None = field(default=None, repr=False)
    kind: ClassVar[str] = "indexing"

    @classmethod
    def of(cls, cell: int, targets: Sequence[int], value: int, name: str = "indexing") -> Index:
        """The indexing of ``cell`` into the cells ``targets`` (digit 1 points at the first)."""
        cells = [int(cell)] + [int(t) for t in dict.fromkeys(targets) if t != cell]
        return cls(tuple(cells), tuple(cells.index(int(t)) for t in targets), int(value), name)

    def holds(self, digits: Sequence[int]) -> bool:
        d = digits[0]
        return 1 <= d <= len(self.targets) and digits[self.targets[d - 1]] == self.value

    def _check(self, side: int) -> str | None:
        if not self.targets or not _digit_ok(self.value, side) or not all(
                0 <= t < len(self.cells) for t in self.targets):
            return f"expected an indexing cell, the cells it points into and a value 1..{side}"
        return None


def check_rules(rules: Sequence[Rule], side: int, n_cells: int,
                label: Callable[[int], str]) -> None:
    """Validate rules: known kinds, cells inside the grid, parameters that fit digits 1..N.

    Raises:
        InvalidPuzzle: (``constraint="constraints"``) naming the first bad rule, its number
            and where it starts.
    """
    def where(k: int, rule: object) -> str:  # only for the message: most rules pass
        return f"constraint {k + 1} ({getattr(rule, 'name', type(rule).__name__)})"

    passed = _PASSED.setdefault((side, n_cells), {})
    get = passed.get
    for k, rule in [(k, r) for k, r in enumerate(rules) if get(id(r)) is not r]:
        if not isinstance(rule, Rule) or getattr(rule, "kind", None) not in RULE_KINDS:
            raise InvalidPuzzle(f"{where(k, rule)}: not a rule of a known kind",
                                constraint="constraints")
        cells = rule.cells
        if isinstance(cells, tuple) and len(cells) == 2:  # a pair: most rules
            inside = (isinstance(cells[0], int) and isinstance(cells[1], int)
                      and 0 <= cells[0] < n_cells and 0 <= cells[1] < n_cells)
        else:
            inside = bool(cells) and all(isinstance(c, int) and 0 <= c < n_cells for c in cells)
        if not inside:
            raise InvalidPuzzle(f"{where(k, rule)}: a cell is outside the grid (expected "
                                f"0..{n_cells - 1})", constraint="constraints")
        if (cells[0] == cells[1]) if len(cells) == 2 else len(set(cells)) != len(cells):
            raise InvalidPuzzle(f"{where(k, rule)} at {label(cells[0])}: a cell appears "
                                "twice", constraint="constraints")
        problem = rule._check(side)
        if problem:
            raise InvalidPuzzle(f"{where(k, rule)} at {label(rule.cells[0])}: {problem}",
                                constraint="constraints")
        if len(passed) > 65536:
            passed.clear()
        passed[id(rule)] = rule


_PASSED: dict[tuple[int, int], dict[int, Rule]] = {}
"""Rules :func:`check_rules` passed, by the (side, cell count) they were checked for, then by
``id``: the rule kept alive (another object at that id is checked), so a rule checked where it
was read (each f-puzzles entry, to name its key) is not checked again when its geometry is
built; the pending rules found by one comprehension (cleared when large)."""
