"""The magic-square model: order, magic constant, lines, givens, symmetry breaking, verification.

A magic square of order n holds each of 1..n² once, and each of its n rows, n columns and two
diagonals sums to the magic constant M(n) = n(n² + 1)/2 (15, 34, 65, 111 for n = 3..6). As a CSP:
n² cells (variables) with domains 1..n², one all-different constraint and 2n + 2 linear sum
constraints (the lines). Completing a partly filled square is CSPLib prob019.

Cells are numbered row-major, ``cell = r * n + c``. A square is either flat (a tuple of n² ints,
row-major, as search methods produce it) or two-dimensional (n rows of n ints, or an (n, n) NumPy
array, as constructions produce it).

Symmetry breaking removes the 8 rotations and reflections of the dihedral group D4: the smallest
corner is at the top-left, and the top-right corner is smaller than the bottom-left one. No square
with distinct entries is fixed by a non-identity symmetry (each moves some cell), so every orbit has
exactly 8 squares and exactly one of them is canonical.

Reference: T. Walsh, CSPLib prob019, "Magic Squares and Sequences".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InvalidOption
from ..model.result import Result

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "Square",
    "format_square",
    "magic_constant",
    "lines",
    "corner_order",
    "MagicProblem",
    "MagicResult",
    "as_array",
    "magic_violations",
    "is_magic",
    "canonical",
]

Square = tuple[int, ...]
"""A flat square: n² ints, row-major."""


def magic_constant(n: int) -> int:
    """Return M(n) = n(n² + 1)/2, the sum of every line of a magic square of order n.

    >>> [magic_constant(n) for n in (1, 3, 4, 5, 6)]
    [1, 15, 34, 65, 111]
    """
    return n * (n * n + 1) // 2


@cache
def lines(n: int) -> tuple[tuple[int, ...], ...]:
    """Return the 2n + 2 lines of order n as cell tuples: rows, columns, diagonal, anti-diagonal.

    >>> lines(2)
    ((0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2))
    """
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    diagonal = tuple(i * n + i for i in range(n))
    anti = tuple(i * n + n - 1 - i for i in range(n))
    return (*rows, *cols, diagonal, anti)


@cache
def corner_order(n: int) -> tuple[tuple[int, int], ...]:
    """Return the symmetry-breaking pairs ``(a, b)`` meaning ``square[a] < square[b]``.

    The top-left corner is the smallest corner and top-right < bottom-left; empty for n < 2.
    """
    if n < 2:
        return ()
    top_left, top_right, bottom_left, bottom_right = 0, n - 1, n * (n - 1), n * n - 1
    return ((top_left, top_right), (top_left, bottom_left), (top_left, bottom_right),
            (top_right, bottom_left))


@dataclass(frozen=True)
class MagicProblem:
    """A magic-square instance: the order, optional givens and optional symmetry breaking.

    Attributes:
        n: the order (side), at least 1.
        givens: n² ints, row-major; 0 is an empty cell, 1..n² a given value. Empty tuple: none.
        symmetry: keep only the canonical square of each D4 orbit (see the module docstring);
            not allowed with givens, which already fix an orientation.

    Raises:
        InvalidOption: n < 1, givens of the wrong length or out of range, or givens together
            with symmetry breaking.
    """

    n: int
    givens: Square = ()
    symmetry: bool = False

    def __post_init__(self) -> None:
        n = self.n
        if n < 1:
            raise InvalidOption(f"the order of a magic square must be at least 1, got {n}")
        givens = tuple(int(v) for v in self.givens) or (0,) * (n * n)
        object.__setattr__(self, "givens", givens)
        if len(givens) != n * n:
            raise InvalidOption(f"givens of order {n} need {n * n} cells, got {len(givens)}")
        bad = [v for v in givens if not 0 <= v <= n * n]
        if bad:
            raise InvalidOption(f"given value {bad[0]} outside 1..{n * n}")
        if self.symmetry and any(givens):
            raise InvalidOption("symmetry breaking cannot be combined with givens")

    @property
    def constant(self) -> int:
        """The magic constant M(n)."""
        return magic_constant(self.n)

    @property
    def has_givens(self) -> bool:
        """Whether any cell is given."""
        return any(self.givens)

    def conflict(self) -> str | None:
        """Return why the givens alone are contradictory, or None.

        Detects a value given twice and a full line of givens that does not sum to M(n); other
        contradictions are for the search to prove.
        """
        seen: dict[int, str] = {}
        for cell, value in enumerate(self.givens):
            label = f"r{cell // self.n + 1}c{cell % self.n + 1}"
            if value and value in seen:
                return f"value {value} given twice (cells {seen[value]} and {label})"
            seen[value] = label
        for line in lines(self.n):
            values = [self.givens[c] for c in line]
            if all(values) and sum(values) != self.constant:
                return f"a full line of givens sums to {sum(values)}, not {self.constant}"
        return None


@dataclass(frozen=True, repr=False)
class MagicResult(Result):
    """The outcome of finding or counting magic squares: a :class:`~sudokit.model.result.Result`
    whose puzzle is a :class:`MagicProblem` and whose solutions are flat squares.

    Attributes (as Result's, with magic-square names as properties):
        problem: the instance (``puzzle``).
        status: SOLVED (at least one square), UNSATISFIABLE (proved none) or UNKNOWN (a limit hit).
        squares: verified squares found, flat row-major (``solutions``; at most the requested
            count).
        method, seconds, stats, count_limit, message: as in Result (uncounted counters None;
            ``count_limit`` None: all squares were asked for).
    """

    @property
    def problem(self) -> MagicProblem:
        """The instance solved."""
        return self.puzzle  # type: ignore[return-value]

    @property
    def squares(self) -> tuple[Square, ...]:
        """The verified squares found, flat row-major."""
        return self.solutions

    @property
    def square(self) -> np.ndarray | None:
        """The first square as an (n, n) int64 array (the type :func:`construct` returns), or
        None when none was found."""
        return as_array(self.squares[0]) if self.squares else None

    def __str__(self) -> str:
        """The summary line, then the first square (if any) as an aligned grid."""
        shown = f"\n{format_square(self.squares[0])}" if self.squares else ""
        return f"{self.summary()}{shown}"

    def __repr__(self) -> str:
        return f"<MagicResult {self.summary()}>"

    def _repr_html_(self) -> str:
        """Jupyter's display: the summary over the first square."""
        from html import escape

        return f"<div><p>{escape(self.summary())}</p><pre>{escape(str(self))}</pre></div>"


def as_array(square: ArrayLike) -> np.ndarray:
    """Return a square as an (n, n) int64 NumPy array.

    Args:
        square: n rows of n ints, an (n, n) array, or a flat sequence of n² ints (row-major).

    Raises:
        ValueError: the shape is not square.
    """
    array = np.asarray(square, dtype=np.int64)
    if array.ndim == 1:
        side = int(round(np.sqrt(array.size)))
        if side * side != array.size:
            raise ValueError(f"a flat square needs a square number of cells, got {array.size}")
        array = array.reshape(side, side)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(f"a square must be n x n, got shape {array.shape}")
    return array


def magic_violations(square: ArrayLike, problem: MagicProblem | None = None) -> list[str]:
    """List what keeps ``square`` from being a magic square (solving ``problem``, if given).

    Vectorised with NumPy: O(n²), a 1,001 x 1,001 square checks in milliseconds.

    Args:
        square: see :func:`as_array`.
        problem: when given, the order, every given and the symmetry breaking are checked too.

    Returns:
        Human-readable problems; empty when the square is magic.
    """
    array = as_array(square)
    n = array.shape[0]
    if problem is not None and problem.n != n:
        return [f"order {n}, expected {problem.n}"]
    target = magic_constant(n)
    problems = []
    if not np.array_equal(np.sort(array, axis=None), np.arange(1, n * n + 1)):
        problems.append(f"values are not exactly 1..{n * n}")
    sums = np.concatenate([array.sum(axis=1), array.sum(axis=0),
                           [np.trace(array), np.trace(array[:, ::-1])]])
    for k in np.flatnonzero(sums != target)[:3]:
        problems.append(f"{_line_name(int(k), n)} sums to {sums[k]}, not {target}")
    if problem is not None:
        problems += _problem_violations(array.ravel(), problem)
    return problems


def _line_name(k: int, n: int) -> str:
    """Name line ``k`` in the order of :func:`lines`: ``row 2``, ``column 1``, ``diagonal``."""
    if k < 2 * n:
        return f"row {k + 1}" if k < n else f"column {k - n + 1}"
    return "diagonal" if k == 2 * n else "anti-diagonal"


def _problem_violations(flat: np.ndarray, problem: MagicProblem) -> list[str]:
    problems = []
    if problem.has_givens:
        givens = np.asarray(problem.givens)
        wrong = np.flatnonzero((givens != 0) & (flat != givens))
        problems += [f"cell r{c // problem.n + 1}c{c % problem.n + 1} is {flat[c]}, "
                     f"given {givens[c]}" for c in wrong[:3]]
    if problem.symmetry and not all(flat[a] < flat[b] for a, b in corner_order(problem.n)):
        problems.append("not the canonical orientation (smallest corner top-left, "
                        "top-right < bottom-left)")
    return problems


def is_magic(square: ArrayLike, problem: MagicProblem | None = None) -> bool:
    """Return whether ``square`` is a magic square (solving ``problem``, if given).

    >>> is_magic([[2, 7, 6], [9, 5, 1], [4, 3, 8]])
    True
    >>> is_magic([[1, 2], [3, 4]])
    False
    """
    return not magic_violations(square, problem)


@cache
def _symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """The 8 rotations and reflections of order n as cell maps: ``image[c] = square[map[c]]``."""
    cells = np.arange(n * n).reshape(n, n)
    return tuple(tuple(int(c) for c in np.rot90(a, k).ravel())
                 for a in (cells, cells.T) for k in range(4))


def canonical(square: Sequence[int] | np.ndarray) -> Square:
    """Return the canonical member of a square's D4 orbit (see the module docstring), flat.

    A square whose orbit has no canonical member (repeated corner values) is returned as is.

    >>> canonical([[2, 7, 6], [9, 5, 1], [4, 3, 8]])
    (2, 9, 4, 7, 5, 3, 6, 1, 8)
    """
    flat = [int(v) for v in as_array(square).ravel()]
    n = round(len(flat) ** 0.5)
    pairs = corner_order(n)
    for cell_map in _symmetries(n):
        if all(flat[cell_map[a]] < flat[cell_map[b]] for a, b in pairs):
            return tuple(flat[c] for c in cell_map)
    return tuple(flat)


def format_square(square: ArrayLike) -> str:
    """Return a square as right-aligned rows (``.`` for an empty cell).

    Args:
        square: flat (n² ints, row-major), n rows of n ints or an (n, n) array.

    Raises:
        ValueError: the shape is not square.

    >>> print(format_square((2, 7, 6, 9, 5, 1, 4, 3, 8)))
    2 7 6
    9 5 1
    4 3 8
    """
    array = as_array(square)
    n, flat = array.shape[0], array.ravel().tolist()
    width = len(str(n * n))
    cells = [str(v).rjust(width) if v else ".".rjust(width) for v in flat]
    return "\n".join(" ".join(cells[r * n:(r + 1) * n]) for r in range(n))
