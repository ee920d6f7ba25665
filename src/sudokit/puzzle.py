"""The puzzle model: an immutable geometry plus givens, and solution verification."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Union

import numpy as np

from .errors import InvalidPuzzle
from .geometry import Geometry

__all__ = ["Grid", "Puzzle", "PuzzleLike", "Conflict", "violations", "is_solution",
           "has_duplicate_givens", "solves"]

Grid = tuple[int, ...]
"""A filled or partial grid: N**2 digits in row-major order, 0 for an empty cell."""

PuzzleLike = Union["Puzzle", str, Sequence[int], Sequence[Sequence[int]], np.ndarray]
"""What the front door takes as a puzzle (see :meth:`Puzzle.coerce`)."""


@dataclass(frozen=True)
class Conflict:
    """A digit given more than once in one unit (contradictory givens)."""

    unit: str
    digit: int
    cells: tuple[str, ...]

    def __str__(self) -> str:
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

        Raises:
            InvalidPuzzle: not exactly one valid puzzle (the error names source, line, column
                and what was expected).

        >>> Puzzle.parse("1.3. 3.1. .1.3 ....").givens[:4]
        (1, 0, 3, 0)
        """
        from .formats import parse_puzzle  # formats imports this module

        return parse_puzzle(text, box=box, alphabet=alphabet, source=source)

    @classmethod
    def coerce(cls, value: PuzzleLike) -> Puzzle:
        """Return ``value`` as a Puzzle: the one conversion behind every front-door function.

        Args:
            value: a Puzzle (returned as is); text in any form :meth:`parse` reads; or N**2
                digits (0 empty) as a flat sequence, N rows of N, or an integer NumPy array of
                shape ``(N*N,)`` or ``(N, N)`` (not modified). The geometry is inferred from
                the cell count.

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
        from .formats import DEFAULT_SYMBOLS

        return "".join(DEFAULT_SYMBOLS[d - 1] if d else empty for d in self.givens)

    def __str__(self) -> str:
        """The grid drawing of :func:`sudokit.formats.format_grid`, without its final newline
        (reads back as a puzzle)."""
        from .formats import format_grid

        return format_grid(self.givens, self.geometry).rstrip("\n")

    def __repr__(self) -> str:
        where = (f" from {self.source}:{self.source_line}"
                 if self.source and self.source != "<string>" else "")
        return (f"<Puzzle {self.geometry.shape_name}, {self.n_givens} givens{where}: "
                f"{_shorten(self.line)}>")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's display: the grid drawing."""
        printer.text(repr(self) if cycle else str(self))

    def _repr_html_(self) -> str:
        """Jupyter's display: an HTML table with box lines, givens in bold."""
        from .render import grid_html

        return grid_html(self)

    @property
    def n_givens(self) -> int:
        return sum(1 for d in self.givens if d)

    def candidates(self, cell: int) -> tuple[int, ...]:
        """Digits not given in any peer of an empty cell (the given digit for a given cell)."""
        if self.givens[cell]:
            return (self.givens[cell],)
        used = {self.givens[p] for p in self.geometry.peers[cell]}
        return tuple(d for d in range(1, self.geometry.side + 1) if d not in used)

    def conflicts(self) -> list[Conflict]:
        """Return every digit given twice in a unit (empty when the givens are consistent)."""
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
        return found


def _shorten(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def violations(grid: Sequence[int], puzzle: Puzzle) -> list[str]:
    """Return why ``grid`` is not a solution of ``puzzle``; empty when it is one.

    Checks the length, that every cell holds 1..N, that every given is kept, and that every unit
    holds each digit once.
    """
    g = puzzle.geometry
    n = g.side
    if len(grid) != g.n_cells:
        return [f"expected {g.n_cells} cells, got {len(grid)}"]
    full = set(range(1, n + 1))
    if all(set(values(grid)) == full for values in g.unit_getters) and all(
        d == grid[c] for c, d in enumerate(puzzle.givens) if d
    ):
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
    return problems


def is_solution(grid: Sequence[int], puzzle: Puzzle) -> bool:
    """Return True when ``grid`` fills every cell, keeps the givens and satisfies every unit."""
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
    return ((values[..., 1:] == values[..., :-1]) & (values[..., 1:] > 0)).any(axis=(1, 2))


@cache
def _digit_bits(side: int) -> np.ndarray:
    """[256]: bit d-1 for digit d in 1..side, 0 for anything else (0 and out of range), in the
    smallest unsigned dtype that holds ``side`` bits."""
    dtype = np.uint16 if side <= 16 else np.uint32 if side <= 32 else np.uint64
    bits = np.zeros(256, np.uint64)
    bits[1:side + 1] = np.left_shift(np.uint64(1), np.arange(side, dtype=np.uint64))
    return bits.astype(dtype)


@cache
def _unit_table(geometry: Geometry) -> np.ndarray:
    return np.asarray(geometry.units, dtype=np.intp)


def solves(grids: np.ndarray, givens: np.ndarray, geometry: Geometry) -> np.ndarray:
    """Vectorised :func:`is_solution` for many grids of one geometry: each unit a permutation of
    1..N (the OR of its digits' bits is full), every given kept.

    Args:
        grids: uint8 array ``(M, N**2)`` of candidate solutions; not modified.
        givens: int array ``(M, N**2)`` of the matching puzzles' givens (0 empty).
        geometry: the shared geometry (its units include any variant's extra units).

    Returns:
        bool array ``(M,)``: True where the grid keeps every given and every unit holds 1..N.
    """
    table = _digit_bits(geometry.side)
    units = np.bitwise_or.reduce(table[grids][:, _unit_table(geometry)], axis=2)
    full = table[1:geometry.side + 1].sum(dtype=table.dtype)
    return (units == full).all(axis=1) & ((givens == 0) | (givens == grids)).all(axis=1)
