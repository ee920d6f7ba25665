"""The puzzle model: an immutable geometry plus givens, and solution verification."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Union

import numpy as np

from ..errors import InvalidPuzzle
from .geometry import DEFAULT_SYMBOLS, Geometry
from .rules import Rule

if TYPE_CHECKING:
    from IPython.lib.pretty import PrettyPrinter

__all__ = ["Grid", "Puzzle", "PuzzleLike", "Conflict", "violations", "is_solution",
           "has_duplicate_givens", "rules_ok", "solves"]

Grid = tuple[int, ...]
"""A filled or partial grid: N**2 digits in row-major order, 0 for an empty cell."""

PuzzleLike = Union["Puzzle", str, Sequence[int], Sequence[Sequence[int]], np.ndarray]
"""What the front door takes as a puzzle (see :meth:`Puzzle.coerce`)."""


@dataclass(frozen=True)
class Conflict:
    """Contradictory givens: a digit given twice in one unit (or cage, or two cells a chess
    move apart), or givens breaking a variant rule (``reason`` then says which)."""

    unit: str
    digit: int
    cells: tuple[str, ...]
    reason: str = ""

    def __str__(self) -> str:
        if self.reason:
            return f"{self.reason} ({', '.join(self.cells)})"
        return f"digit {self.digit} is given twice in {self.unit} ({', '.join(self.cells)})"


@dataclass(frozen=True, repr=False)
class Puzzle:
    """A Sudoku instance: geometry and givens (clues).

    Build one with :meth:`parse` (text in any form :mod:`sudokit.formats` reads),
    :meth:`from_digits` (N**2 ints) or :meth:`coerce` (any of these). ``str(puzzle)`` and the
    REPL, IPython and Jupyter show it as a grid with box lines; :attr:`line` is its line form.

    Attributes:
        geometry: the grid structure.
        givens: N**2 ints in row-major order; 0 is an empty cell, 1..N a given digit.
        source: where the puzzle came from (file name, ``"<stdin>"``); not part of equality.
        source_line: 1-based line where the puzzle starts in its source; not part of equality.

    Raises:
        InvalidPuzzle: wrong number of cells or a digit outside 0..N.

    >>> p = Puzzle.from_digits([1, 0, 0, 0] * 4)
    >>> p.geometry.side, p.n_givens, p.line
    (4, 4, '1...1...1...1...')
    """

    geometry: Geometry
    givens: Grid
    source: str | None = field(default=None, compare=False)
    source_line: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        givens = tuple(map(int, self.givens))
        object.__setattr__(self, "givens", givens)
        n = self.geometry.side
        if len(givens) == self.geometry.n_cells and givens and 0 <= min(givens) and max(givens) <= n:
            return  # the common case, checked in C
        if len(givens) != self.geometry.n_cells:
            raise InvalidPuzzle(
                f"expected {self.geometry.n_cells} cells for {self.geometry.shape_name}, "
                f"got {len(givens)}",
                source=self.source,
                line=self.source_line,
            )
        for cell, digit in enumerate(givens):
            if not 0 <= digit <= n:
                raise InvalidPuzzle(
                    f"{self.geometry.label(cell)}: expected a digit 0..{n}, got {digit}",
                    source=self.source,
                    line=self.source_line,
                )

    @classmethod
    def from_digits(
        cls,
        digits: Sequence[int],
        geometry: Geometry | None = None,
        *,
        source: str | None = None,
        source_line: int | None = None,
    ) -> Puzzle:
        """Build a puzzle from N**2 ints (0 empty); the geometry is inferred from the count.

        Returns:
            The puzzle (cells row-major: cell ``row * N + column``).

        Raises:
            InvalidPuzzle: the count is not a square of 1..64 or a digit is out of range.
        """
        digits = tuple(map(int, digits))
        geometry = geometry or Geometry.for_cells(len(digits))
        return cls(geometry, digits, source, source_line)

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        box: tuple[int, int] | str | None = None,
        alphabet: str | None = None,
        source: str = "<string>",
    ) -> Puzzle:
        """Read exactly one puzzle from text in any form :func:`sudokit.formats.read_puzzles`
        takes (line form, rows, drawings, integers, headers, CSV or tdoku line).

        Args:
            text: the puzzle, e.g. 81 symbols ``"4.....8.5.3..."`` or a grid drawing.
            box: box shape ``(rows, cols)`` or ``"RxC"`` (None: inferred from the cell count).
            alphabet: symbols of digits 1..N in line form, ranges allowed (``"0-9A-Z"``).
            source: the name errors give as the place of the text.

        Returns:
            The puzzle; ``puzzle.line`` is its line form.

        Raises:
            InvalidPuzzle: not exactly one valid puzzle (the error names source, line, column
                and what was expected).

        >>> Puzzle.parse("1.3. 3.1. .1.3 ....").givens[:4]
        (1, 0, 3, 0)
        """
        from ..formats.text import parse_puzzle  # formats imports this module

        return parse_puzzle(text, box=box, alphabet=alphabet, source=source)

    @classmethod
    def coerce(cls, value: PuzzleLike) -> Puzzle:
        """Return ``value`` as a Puzzle: the one conversion behind every front-door function.

        Args:
            value: a Puzzle (returned as is); text in any form :meth:`parse` reads; or N**2
                digits (0 empty) as a flat sequence, N rows of N, or an integer NumPy array of
                shape ``(N*N,)`` or ``(N, N)`` (not modified). The geometry is inferred from
                the cell count.

        Returns:
            ``value`` itself when it is a Puzzle, else a new Puzzle.

        Raises:
            InvalidPuzzle: text that is not one valid puzzle, a cell count that is not a grid,
                a digit out of range or non-integer digits.
            TypeError: a value of another type (e.g. None or bytes).

        >>> Puzzle.coerce([[1, 0], [0, 0]]).givens, Puzzle.coerce("1...").givens
        ((1, 0, 0, 0), (1, 0, 0, 0))
        """
        if isinstance(value, Puzzle):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, (bytes, bytearray)) or not isinstance(value, (Sequence, np.ndarray)):
            raise TypeError(f"expected a Puzzle, puzzle text, or a sequence or array of digits, "
                            f"got {type(value).__name__}")
        try:
            digits = np.asarray(value)
        except ValueError as exc:  # ragged rows
            raise InvalidPuzzle(f"expected N rows of N digits: {exc}") from None
        if digits.ndim not in (1, 2) or (digits.ndim == 2 and digits.shape[0] != digits.shape[1]):
            raise InvalidPuzzle(f"expected N**2 digits or N rows of N, got shape {digits.shape}")
        if digits.size and not (np.issubdtype(digits.dtype, np.integer)
                                or digits.dtype == np.bool_):
            raise InvalidPuzzle(f"expected integer digits (0 empty), got {digits.dtype} values")
        return cls.from_digits(digits.ravel().tolist())

    @property
    def line(self) -> str:
        """The line form: one symbol per cell, ``1-9A-Z...`` digits, ``.`` empty."""
        return self.to_line()

    def to_line(self, empty: str = ".") -> str:
        """Write the givens in line form (``1-9`` then ``A``=10 ..., ``empty`` for empty cells)."""
        return "".join(DEFAULT_SYMBOLS[d - 1] if d else empty for d in self.givens)

    def __str__(self) -> str:
        """The grid drawing of :func:`sudokit.formats.format_grid`, without its final newline
        (reads back as a puzzle when the geometry is plain; regions, cages, parity and layouts
        are drawn with box-drawing lines, see :mod:`sudokit.formats.drawing`)."""
        from ..present.display import puzzle_text

        return puzzle_text(self)

    def __repr__(self) -> str:
        where = (f" from {self.source}:{self.source_line}"
                 if self.source and self.source != "<string>" else "")
        return (f"<Puzzle {self.geometry.shape_name}, {self.n_givens} givens{where}: "
                f"{_shorten(self.line)}>")

    def _repr_pretty_(self, printer: PrettyPrinter, cycle: bool) -> None:
        """IPython's display: the grid drawing."""
        printer.text(repr(self) if cycle else str(self))

    def _repr_html_(self) -> str:
        """Jupyter's display: the SVG board (box lines, regions, cages, givens in bold)."""
        from ..present.display import puzzle_html

        return puzzle_html(self)

    @property
    def constraints(self) -> tuple[Rule, ...]:
        """The rules drawn on the grid (thermometers, arrows, dots ...: the geometry's
        :attr:`~sudokit.model.geometry.Geometry.constraints`, kinds of
        :mod:`~sudokit.model.rules`)."""
        return self.geometry.constraints

    def with_constraints(self, *rules: Rule) -> Puzzle:
        """This puzzle with more rules drawn on its grid (same givens and source).

        >>> from sudokit.model.rulebook import thermometer
        >>> p = Puzzle.from_digits([0] * 16).with_constraints(*thermometer([0, 1, 2], 4))
        >>> len(p.constraints), sorted(p.geometry.features)
        (2, ['pair-relation'])

        Raises:
            InvalidPuzzle: a rule that does not fit the grid (it is named).
        """
        return Puzzle(self.geometry.with_constraints(rules), self.givens, self.source,
                      self.source_line)

    @property
    def n_givens(self) -> int:
        return sum(1 for d in self.givens if d)

    def candidates(self, cell: int) -> tuple[int, ...]:
        """Digits not given in any peer of an empty cell, allowed by its parity and not next
        to a given orthogonal neighbour's digit under the non-consecutive rule.

        Args:
            cell: a 0-based flat index ``row * N + column``.

        Returns:
            The digits in increasing order (the given digit alone for a given cell).
        """
        if self.givens[cell]:
            return (self.givens[cell],)
        g = self.geometry
        used = {self.givens[p] for p in g.peers[cell]}
        for p in g.neighbours[cell]:
            if self.givens[p]:
                used.update((self.givens[p] - 1, self.givens[p] + 1))
        allowed = g.allowed(cell) if g.parity is not None else range(1, g.side + 1)
        return tuple(d for d in allowed if d not in used)

    def conflicts(self) -> list[Conflict]:
        """Find the givens that break a rule by themselves.

        Returns:
            One :class:`Conflict` per digit given twice in a unit (and per given breaking a
            variant constraint); empty when the givens are consistent.
        """
        g = self.geometry
        found = []
        for name, unit, values in zip(g.unit_names, g.units, g.unit_getters):
            digits = [d for d in values(self.givens) if d]
            if len(set(digits)) == len(digits):
                continue  # the common case: no duplicate in this unit
            where: dict[int, list[int]] = {}
            for cell in unit:
                if self.givens[cell]:
                    where.setdefault(self.givens[cell], []).append(cell)
            for digit, cells in where.items():
                if len(cells) > 1:
                    found.append(Conflict(name, digit, tuple(g.label(c) for c in cells)))
        if not g.is_standard:
            found += _variant_conflicts(self.givens, g)
        return found


def _variant_conflicts(givens: Sequence[int], g: Geometry) -> list[Conflict]:
    """The conflicts of givens with cages, chess-move relations, non-consecutive neighbours
    and parity (what the unit check of :meth:`Puzzle.conflicts` does not see)."""
    found = []
    for a, b in g.extra_pairs:
        if givens[a] and givens[a] == givens[b]:
            where = f"cage {g.cage_of[a] + 1}" if g.cage_of[a] >= 0 and \
                g.cage_of[a] == g.cage_of[b] else "cells a chess move apart"
            found.append(Conflict(where, givens[a], (g.label(a), g.label(b))))
    for a, b in g.consecutive_pairs:
        if givens[a] and givens[b] and abs(givens[a] - givens[b]) == 1:
            found.append(Conflict("", givens[a], (g.label(a), g.label(b)),
                                  f"neighbours hold consecutive digits {givens[a]} and "
                                  f"{givens[b]}"))
    for cell, kind in enumerate(g.parity or ""):
        if givens[cell] and kind != "." and (givens[cell] % 2 == 0) != (kind == "e"):
            found.append(Conflict("", givens[cell], (g.label(cell),), f"given {givens[cell]} "
                                  f"in an {'even' if kind == 'e' else 'odd'} cell"))
    for k, cage in enumerate(g.cages):
        digits = [givens[c] for c in cage.cells if givens[c]]
        if sum(digits) > cage.total or (len(digits) == len(cage.cells)
                                        and sum(digits) != cage.total):
            found.append(Conflict("", 0, tuple(g.label(c) for c in cage.cells),
                                  f"cage {k + 1}: givens add up to {sum(digits)}, the cage "
                                  f"to {cage.total}"))
    for rule in g.constraints:  # a rule whose every cell is given
        digits = [givens[c] for c in rule.cells]
        if all(digits) and not rule.holds(digits):
            found.append(Conflict("", 0, tuple(g.label(c) for c in rule.cells),
                                  f"the givens break the {rule.describe(g.label)}"))
    return found


def _shorten(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def violations(grid: Sequence[int], puzzle: Puzzle) -> list[str]:
    """Return why ``grid`` is not a solution of ``puzzle``; empty when it is one.

    Checks the length, that every cell holds 1..N, that every given is kept, that every unit
    holds each digit once, and every variant constraint of the geometry: cage mates and cells
    a chess move apart differ, cages add up to their totals, no orthogonal neighbours hold
    consecutive digits under the non-consecutive rule, parity, and every drawn rule
    (:mod:`~sudokit.model.rules`: thermometers, arrows, dots, lines, outside clues).

    Returns:
        One line per problem (``"r1c4 changes given 5 to 3"``, ``"row 2 lacks [7]"``); an empty
        list when ``grid`` is a solution.
    """
    g = puzzle.geometry
    n = g.side
    if len(grid) != g.n_cells:
        return [f"expected {g.n_cells} cells, got {len(grid)}"]
    full = set(range(1, n + 1))
    if all(set(values(grid)) == full for values in g.unit_getters) and all(
        d == grid[c] for c, d in enumerate(puzzle.givens) if d
    ) and (g.is_standard or not _variant_violations(grid, g)):
        return []  # the common case, checked without building messages
    problems = [
        f"{g.label(c)} holds {d}, expected 1..{n}" for c, d in enumerate(grid) if not 1 <= d <= n
    ]
    problems += [
        f"{g.label(c)} changes given {d} to {grid[c]}" for c, d in enumerate(puzzle.givens)
        if d and grid[c] != d
    ]
    for name, unit in zip(g.unit_names, g.units):
        missing = full - {grid[c] for c in unit}
        if missing:
            problems.append(f"{name} lacks {sorted(missing)}")
    return problems + ([] if g.is_standard else _variant_violations(grid, g))


def _variant_violations(grid: Sequence[int], g: Geometry) -> list[str]:
    """The variant constraints a full grid breaks (see :func:`violations`)."""
    problems = [f"{g.label(a)} and {g.label(b)} both hold {grid[a]}"
                for a, b in g.extra_pairs if grid[a] == grid[b]]
    problems += [f"{g.label(a)} and {g.label(b)} hold consecutive digits {grid[a]} and {grid[b]}"
                 for a, b in g.consecutive_pairs if abs(grid[a] - grid[b]) == 1]
    problems += [f"{g.label(c)} holds {grid[c]} in an {'even' if k == 'e' else 'odd'} cell"
                 for c, k in enumerate(g.parity or "")
                 if k != "." and (grid[c] % 2 == 0) != (k == "e")]
    problems += [f"cage {k + 1} adds up to {sum(grid[c] for c in cage.cells)}, not {cage.total}"
                 for k, cage in enumerate(g.cages)
                 if sum(grid[c] for c in cage.cells) != cage.total]
    if g.constraints and all(1 <= d <= g.side for d in grid):
        problems += [why for rule in g.constraints if (why := rule.violation(grid, g.label))]
    return problems


def is_solution(grid: Sequence[int], puzzle: Puzzle) -> bool:
    """Tell whether ``grid`` fills every cell, keeps the givens and satisfies every unit and
    every constraint of the puzzle's geometry (see :func:`violations`).

    Returns:
        True when ``grid`` is a solution of ``puzzle``.
    """
    return not violations(grid, puzzle)


def _unit_values(grids: np.ndarray, geometry: Geometry) -> np.ndarray:
    """Values of every unit, sorted: shape ``(M, n_units, N)`` from grids of shape ``(M, N**2)``."""
    return np.sort(grids[:, np.asarray(geometry.units)], axis=-1)


def has_duplicate_givens(givens: np.ndarray, geometry: Geometry) -> np.ndarray:
    """Vectorised :meth:`Puzzle.conflicts` test for many puzzles of one geometry.

    Args:
        givens: int array of shape ``(M, N**2)``, 0 for empty cells; not modified.
        geometry: the shared geometry.

    Returns:
        bool array of shape ``(M,)``: True where some digit is given twice in a unit.
    """
    values = _unit_values(givens, geometry)
    repeated = (values[..., 1:] == values[..., :-1]) & (values[..., 1:] > 0)
    found: np.ndarray = repeated.any(axis=(1, 2))
    if not geometry.is_standard:
        found |= ~_variant_ok(givens, geometry, partial=True)
    return found


@lru_cache(maxsize=256)  # bounded: killer and jigsaw geometries come one per puzzle
def _variant_tables(geometry: Geometry) -> tuple[np.ndarray, ...]:
    """Index arrays of the variant checks: extra pairs [P, 2], consecutive pairs [Q, 2], even
    cells, odd cells, cage cells (flat), cage ids per flat cell, cage totals."""
    g = geometry
    pairs = np.asarray(g.extra_pairs, np.intp).reshape(-1, 2)
    consecutive = np.asarray(g.consecutive_pairs, np.intp).reshape(-1, 2)
    parity = np.frombuffer((g.parity or "").encode(), np.uint8)
    even, odd = np.flatnonzero(parity == ord("e")), np.flatnonzero(parity == ord("o"))
    cells = np.asarray([c for cage in g.cages for c in cage.cells], np.intp)
    ids = np.repeat(np.arange(len(g.cages)), [len(cage.cells) for cage in g.cages])
    totals = np.asarray([cage.total for cage in g.cages], np.int64)
    return pairs, consecutive, even, odd, cells, ids, totals


def _variant_ok(grids: np.ndarray, geometry: Geometry, partial: bool = False) -> np.ndarray:
    """bool[M]: grids (int[M, cells]) keeping every variant constraint; with ``partial``, 0
    is an empty cell that breaks nothing and a cage only has to stay within its total."""
    pairs, consecutive, even, odd, cells, ids, totals = _variant_tables(geometry)
    grids = grids.astype(np.int64)
    ok = np.ones(len(grids), bool)
    a, b = grids[:, pairs[:, 0]], grids[:, pairs[:, 1]]
    ok &= ~((a == b) & (a > 0)).any(axis=1)
    a, b = grids[:, consecutive[:, 0]], grids[:, consecutive[:, 1]]
    ok &= ~((np.abs(a - b) == 1) & (a > 0) & (b > 0)).any(axis=1)
    ok &= ~(grids[:, even] % 2 == 1).any(axis=1)
    ok &= ~((grids[:, odd] % 2 == 0) & (grids[:, odd] > 0)).any(axis=1)
    if len(totals):
        sums = np.zeros((len(grids), len(totals)), np.int64)
        np.add.at(sums.T, ids, grids[:, cells].T)  # sums[:, ids] += grids[:, cells], unbuffered
        ok &= (sums <= totals).all(axis=1) if partial else (sums == totals).all(axis=1)
        if partial:  # a full cage must reach its total
            filled = np.zeros_like(sums)
            np.add.at(filled.T, ids, (grids[:, cells] > 0).T.astype(np.int64))
            size = np.bincount(ids, minlength=len(totals))
            ok &= ((filled < size) | (sums == totals)).all(axis=1)
    if geometry.constraints:
        ok &= rules_ok(grids, geometry, partial)
    return ok


@cache
def _digit_bits(side: int) -> np.ndarray:
    """[256]: bit d-1 for digit d in 1..side, 0 for anything else (0 and out of range), in the
    smallest unsigned dtype that holds ``side`` bits."""
    dtype = np.uint16 if side <= 16 else np.uint32 if side <= 32 else np.uint64
    bits = np.zeros(256, np.uint64)
    bits[1:side + 1] = np.left_shift(np.uint64(1), np.arange(side, dtype=np.uint64))
    return bits.astype(dtype)


@lru_cache(maxsize=256)
def _unit_table(geometry: Geometry) -> np.ndarray:
    return np.asarray(geometry.units, dtype=np.intp)


def solves(grids: np.ndarray, givens: np.ndarray, geometry: Geometry) -> np.ndarray:
    """Vectorised :func:`is_solution` for many grids of one geometry: each unit a permutation of
    1..N (the OR of its digits' bits is full), every given kept.

    Args:
        grids: uint8 array ``(M, N**2)`` of candidate solutions; not modified.
        givens: int array ``(M, N**2)`` of the matching puzzles' givens (0 empty).
        geometry: the shared geometry (its units include any variant's extra units; its cages,
            chess-move relations, non-consecutive neighbours and parity are checked too).

    Returns:
        bool array ``(M,)``: True where the grid keeps every given, every unit holds 1..N and
        every variant constraint holds.
    """
    table = _digit_bits(geometry.side)
    units = np.bitwise_or.reduce(table[grids][:, _unit_table(geometry)], axis=2)
    full = table[1:geometry.side + 1].sum(dtype=table.dtype)
    ok: np.ndarray = (units == full).all(axis=1) & ((givens == 0) | (givens == grids)).all(axis=1)
    return ok if geometry.is_standard else ok & _variant_ok(grids, geometry)


def rules_ok(grids: np.ndarray, geometry: Geometry, partial: bool = False) -> np.ndarray:
    """Vectorised check of the drawn rules (:attr:`Geometry.constraints
    <sudokit.model.geometry.Geometry.constraints>`) on many grids of one geometry.

    Args:
        grids: int array ``(M, cells)``; not modified.
        geometry: the shared geometry.
        partial: 0 is an empty cell; a rule is checked only where all its cells are filled.

    Returns:
        bool array ``(M,)``: True where every (filled) rule holds.
    """
    rows = np.asarray(grids).tolist()  # plain lists: one rule's digits by list indexing
    ok = np.ones(len(rows), bool)
    for row, grid in enumerate(rows):
        for rule in geometry.constraints:
            digits = [grid[c] for c in rule.cells]
            if (not partial or all(digits)) and not rule.holds(digits):
                ok[row] = False
                break
    return ok
