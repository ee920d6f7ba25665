"""Sudoku as CNF: the four classic encodings for any box shape and any set of units.

Variables: one Boolean ``x(cell, digit)`` per cell and digit, "cell holds digit". With
``cell = r * N + c`` (0-based row r and column c) and ``digit`` in 1..N, its DIMACS number is

    v = cell * N + digit = (r * N + c) * N + d          (1-based: 1 .. N**3)

so ``v - 1 = (cell, digit - 1)`` read in base N (see :func:`var` and :func:`split_var`).

Clause families (Lynce and Ouaknine 2006, "Sudoku as a SAT problem"):

* cell at-least-one (*definedness*): each cell holds some digit (N**2 clauses of N literals);
* cell at-most-one (*uniqueness*): no cell holds two digits (pairwise ``-x v -y``);
* unit at-most-one (*validity*): no digit twice in a unit (pairwise, every unit of the geometry);
* unit at-least-one: each digit somewhere in each unit (N literals).

Encodings: ``minimal`` = cell ALO + unit AMO; ``efficient`` = minimal + cell AMO; ``extended`` =
efficient + unit ALO; ``reduced`` (Kwon and Jain 2006, "Optimized CNF encoding for Sudoku
puzzles") = extended with the givens applied at encoding time: clauses satisfied by a given are
dropped and literals made false by a given are removed, so fixed cells produce no clauses and the
formula has no unit clauses for givens. The other encodings state each given as a unit clause.
Pairwise clauses shared by two units (two cells in one row and one box) are kept twice, as in the
published clause counts (9x9: minimal 8,829, efficient 11,745, extended 11,988).

Variant constraints (:func:`variant_clauses`, added to every encoding; units such as diagonals,
hyper boxes, jigsaw regions and the grids of a layout are already in ``geometry.units``):

* cells that must differ but share no unit (cage mates, anti-knight and anti-king moves,
  :attr:`~sudokit.model.geometry.Geometry.extra_pairs`): ``-x(a, d) v -x(b, d)`` for every digit;
* non-consecutive neighbours: ``-x(a, d) v -x(b, d+1)`` and ``-x(a, d+1) v -x(b, d)``;
* parity: a unit clause ``-x(c, d)`` for each digit the cell's parity forbids;
* killer cages, by an exact allowed-combinations encoding (the "support" encoding of a table
  constraint, Bacchus 2007, "GAC via unit propagation"): one selector variable per set of
  distinct digits reaching the cage's total (numbered after the ``x`` variables,
  ``N * cells + 1`` on); ``x(c, d)`` implies some selector whose set holds d; a selector
  forbids every digit outside its set in every cage cell, and needs each digit of its set in
  some cage cell. With the cage's cells distinct (pairwise clauses above or a shared unit), a
  model's cage digits are exactly one selected set, so they add up to the total. Unit
  propagation on these clauses keeps every cell's digits within the combinations still open.
  Measured against PySAT's pseudo-Boolean encodings of ``sum(d * x(c, d)) == total``
  (``pysat.pb.PBEnc``, which needs pypblib; Eén and Sörensson 2006, "Translating
  pseudo-Boolean constraints into SAT"), each with the same unit and cage-mate clauses, on the
  80 9x9 killer puzzles of janko/, encoding plus CaDiCaL 1.9.5, median of 3 runs per puzzle:
  allowed combinations 40 ms per puzzle (13.8k clauses), PBEnc ``best`` 168 ms (25.6k),
  ``bdd`` 234 ms (28.0k); a second run on 20 puzzles, once each, on a busier machine:
  combinations 174 ms, ``best`` 200 ms, ``bdd`` 339 ms, ``seqcounter`` 791 ms (45.4k). So
  combinations are kept, and no dependency on pypblib is needed;
* the rules drawn on the grid (:attr:`~sudokit.model.geometry.Geometry.constraints`: pair
  relations, linear sums, sequence automata, quadruples, renban, between and lockout lines,
  indexing), one encoding per kind (:mod:`sudokit.sat.rules`), their auxiliary variables
  numbered after the cage selectors.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from functools import lru_cache
from itertools import chain, combinations
from typing import TYPE_CHECKING

from ..errors import InvalidPuzzle, LimitReached
from ..model.geometry import Geometry
from .rules import rule_clauses

if TYPE_CHECKING:  # annotations only: importing the encoding (cli option types) needs no NumPy
    from ..model.puzzle import Grid, Puzzle
    from ..model.result import Limits, Stats

__all__ = [
    "Encoding",
    "Clause",
    "Check",
    "paused_gc",
    "deadline_check",
    "RELEASE_SHARE",
    "var",
    "split_var",
    "clause_stream",
    "encode",
    "base_clauses",
    "clause_count",
    "decode",
    "given_clauses",
    "ENCODING_CHOICES",
    "DEFAULT_ENCODING",
    "n_variables",
    "variant_clauses",
]

Clause = list[int]
"""A disjunction of DIMACS literals: ``v`` is "x true", ``-v`` is "x false"; never contains 0."""

Check = Callable[[], None]
"""A callback run while a formula is built (about every thousand clauses); it may raise, e.g.
:class:`~sudokit.errors.LimitReached` at a deadline, to stop the encoding."""


def _no_check() -> None:
    return None


RELEASE_SHARE = 0.6
"""Time kept in reserve to release a formula that a deadline interrupts, as a share of the time
spent building it (measured on an empty 36x36 under a 1 s limit: freeing millions of clause
lists and unwinding took 0.3x to 0.55x of their building; with 0.4 the call ended at
0.85-1.11 s, with 0.6 at 0.74-0.76 s)."""


def deadline_check(limits: Limits, stats: Stats) -> Check:
    """Return the :data:`Check` a solver passes while it encodes and loads a formula.

    It raises like ``limits.check(stats)``, and also once the time left is less than
    :data:`RELEASE_SHARE` of the time spent building so far: what was built must still be
    freed (a single C call that holds the GIL) before the deadline.

    Raises (when called):
        LimitReached: the deadline passed or comes before what was built could be released.
    """
    started = time.perf_counter()

    def check() -> None:
        limits.check(stats)
        if limits.deadline is not None:
            now = time.perf_counter()
            if now + RELEASE_SHARE * (now - started) > limits.deadline:
                raise LimitReached(f"time limit {limits.time_limit} s reached "
                                   "(while building the formula)")

    return check


@contextmanager
def paused_gc(freeze: bool = False) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while millions of clause lists are built.

    The clauses hold no cycles, but each collection would walk all of them: an empty 36x36
    grid (3.3 million clauses) encodes in 0.6 s with the collector paused and 1.7 s without.
    Reference counting still frees everything; the collector's previous state is restored.

    Args:
        freeze: on exit, move every object alive to the collector's permanent generation
            (``gc.freeze()``) so that a formula kept for a search is not walked by later
            collections (a pause of 0.2-0.3 s per collection on a 36x36 formula, at any
            moment, deadline or not); call ``gc.unfreeze()`` when the search is over.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if freeze:
                gc.freeze()
            gc.enable()


class Encoding(Enum):
    """Which clause families a Sudoku CNF contains (Lynce and Ouaknine 2006; Kwon and Jain 2006)."""

    MINIMAL = "minimal"
    EFFICIENT = "efficient"
    EXTENDED = "extended"
    REDUCED = "reduced"


_FAMILIES = {  # (cell ALO, cell AMO, unit AMO, unit ALO)
    Encoding.MINIMAL: (True, False, True, False),
    Encoding.EFFICIENT: (True, True, True, False),
    Encoding.EXTENDED: (True, True, True, True),
    Encoding.REDUCED: (True, True, True, True),
}

ENCODING_CHOICES = tuple(e.value for e in Encoding)
"""Values of the ``encoding`` option of the SAT methods."""

DEFAULT_ENCODING = Encoding.REDUCED
"""The SAT methods' default: the smallest formula. Measured (benchmarks/sat_methods.py) faster
than ``extended`` for our DPLL and for PySAT's solvers from 9x9 up, and the only one that stays
small on 49x49 and 64x64 grids (extended 64x64 has 33 million clauses)."""


def var(cell: int, digit: int, side: int) -> int:
    """Return the 1-based DIMACS variable of "cell holds digit" (``cell * N + digit``).

    >>> var(0, 1, 9), var(80, 9, 9), var(9 * 2 + 3, 5, 9)
    (1, 729, 194)
    """
    return cell * side + digit


def split_var(v: int, side: int, n_cells: int | None = None) -> tuple[int, int]:
    """Return ``(cell, digit)`` of a DIMACS variable (the inverse of :func:`var`).

    Args:
        v: the variable; side: N; n_cells: the grid's cells (default N**2; a layout has more).

    Raises:
        ValueError: v outside 1..N * cells (a cage selector, or no variable at all).

    >>> split_var(194, 9)
    (21, 5)
    """
    top = side * (side * side if n_cells is None else n_cells)
    if not 1 <= v <= top:
        raise ValueError(f"variable {v} outside 1..{top} for a {side}x{side} grid")
    cell, digit = divmod(v - 1, side)
    return cell, digit + 1


def n_variables(geometry: Geometry) -> int:
    """The variables of a puzzle's CNF: ``N`` per cell, then one selector per digit
    combination of each killer cage, then the auxiliary variables of the drawn rules (see
    :func:`variant_clauses`).

    >>> n_variables(Geometry.of(3, 3)), n_variables(Geometry.of(2, 2, cages=[(3, (0, 1))]))
    (729, 65)
    """
    return _first_rule_variable(geometry) - 1 + _rule_part(geometry)[1]


def _first_rule_variable(geometry: Geometry) -> int:
    """The first variable after the cells' and the cage selectors'."""
    from ..csp.cages import cage_combinations

    n = geometry.side
    return 1 + geometry.n_cells * n + sum(len(cage_combinations(len(c.cells), c.total, n))
                                          for c in geometry.cages)


@lru_cache(maxsize=64)
def _rule_part(geometry: Geometry) -> tuple[tuple[Clause, ...], int]:
    """The clauses of the geometry's drawn rules (:mod:`sudokit.sat.rules`) and the number of
    auxiliary variables they number after the cage selectors."""
    first = nxt = _first_rule_variable(geometry)
    out: list[Clause] = []
    for rule in geometry.constraints:
        clauses, n_aux = rule_clauses(rule, geometry.side, nxt)
        out += clauses
        nxt += n_aux
    return tuple(out), nxt - first


@lru_cache(maxsize=64)
def variant_clauses(geometry: Geometry) -> tuple[Clause, ...]:
    """The clauses of a geometry's constraints beyond its units (module docstring): pairs that
    must differ, non-consecutive neighbours, parity, killer cages and drawn rules; empty for a
    grid of units only (cached; do not modify the lists).

    >>> g = Geometry.of(2, 2, cages=[(3, (0, 1))])  # two cells adding up to 3: {1, 2}
    >>> [c for c in variant_clauses(g) if 65 in c or -65 in c][-3:]
    [[-65, -8], [-65, 1, 5], [-65, 2, 6]]
    """
    from ..csp.cages import cage_combinations

    n, out = geometry.side, []
    for a, b in geometry.extra_pairs:
        out += [[-(a * n + d), -(b * n + d)] for d in range(1, n + 1)]
    for a, b in geometry.consecutive_pairs:
        for d in range(1, n):
            out += [[-(a * n + d), -(b * n + d + 1)], [-(a * n + d + 1), -(b * n + d)]]
    for cell in range(geometry.n_cells if geometry.parity is not None else 0):
        allowed = geometry.allowed(cell)
        out += [[-(cell * n + d)] for d in range(1, n + 1) if d not in allowed]
    selector = geometry.n_cells * n
    for cage in geometry.cages:
        combos = cage_combinations(len(cage.cells), cage.total, n)
        first = selector + 1
        selector += len(combos)
        for cell in cage.cells:
            for d in range(1, n + 1):
                out.append([-(cell * n + d)] + [first + k for k, c in enumerate(combos)
                                                if d in c])
        for k, combo in enumerate(combos):
            out += [[-(first + k), -(cell * n + d)] for cell in cage.cells
                    for d in range(1, n + 1) if d not in combo]
            out += [[-(first + k)] + [cell * n + d for cell in cage.cells] for d in combo]
    return tuple(out) + _rule_part(geometry)[0]


def _simplified(clauses: Iterable[Clause], value: Sequence[bool | None],
                check: Check) -> Iterator[Clause]:
    """Yield ``clauses`` without those a fixed value satisfies and without false literals
    (variables beyond ``value``, cage selectors, are never fixed)."""
    size = len(value)
    for i, clause in enumerate(clauses):
        if not i & 1023:
            check()
        kept = []
        for lit in clause:
            v = lit if lit > 0 else -lit
            fixed = value[v] if v < size else None
            if fixed is None:
                kept.append(lit)
            elif fixed is (lit > 0):
                break
        else:
            yield kept  # may be empty: the givens break a variant rule


def _cell_groups(geometry: Geometry) -> Iterator[list[int]]:
    n = geometry.side
    return ([c * n + d for d in range(1, n + 1)] for c in range(geometry.n_cells))


def _unit_groups(geometry: Geometry) -> Iterator[list[int]]:
    n = geometry.side
    return ([c * n + d for c in unit] for unit in geometry.units for d in range(1, n + 1))


def _at_least_one(groups: Iterable[list[int]], value: Sequence[bool | None] | None,
                  check: Check) -> Iterator[Clause]:
    """Yield "one of the group is true" for each group, simplified by the fixed ``value``s."""
    for i, group in enumerate(groups):
        if not i & 63:
            check()
        if value is None:
            yield group
        elif not any(value[v] for v in group):
            yield [v for v in group if value[v] is None]  # may be empty: unsatisfiable


def _at_most_one(groups: Iterable[list[int]], value: Sequence[bool | None] | None,
                 check: Check) -> Iterator[Clause]:
    """Yield pairwise "not both" clauses for each group, simplified by the fixed ``value``s."""
    for group in groups:
        check()  # a group of N gives up to N(N-1)/2 clauses: 2,016 on 64x64
        if value is not None:
            true = [v for v in group if value[v]]
            group = [v for v in group if value[v] is None]
            if len(true) > 1:
                yield []
                continue
            if true:  # every other member must be false
                yield from ([-v] for v in group)
                continue
        yield from ([-a, -b] for a, b in combinations(group, 2))


def _families(geometry: Geometry, encoding: Encoding, value: Sequence[bool | None] | None,
              check: Check = _no_check) -> Iterator[Clause]:
    """Yield the clause families of ``encoding`` in their fixed order (cell ALO, cell AMO,
    unit AMO, unit ALO, then the variant clauses), simplified by ``value`` when given."""
    cell_alo, cell_amo, unit_amo, unit_alo = _FAMILIES[encoding]
    if cell_alo:
        yield from _at_least_one(_cell_groups(geometry), value, check)
    if cell_amo:
        yield from _at_most_one(_cell_groups(geometry), value, check)
    if unit_amo:
        yield from _at_most_one(_unit_groups(geometry), value, check)
    if unit_alo:
        yield from _at_least_one(_unit_groups(geometry), value, check)
    if not geometry.is_standard:
        if value is None:
            yield from variant_clauses(geometry)
        else:
            yield from _simplified(variant_clauses(geometry), value, check)


def _clauses(geometry: Geometry, encoding: Encoding, value: Sequence[bool | None] | None,
             check: Check = _no_check) -> list[Clause]:
    """Build the clause families of ``encoding``; if ``check`` raises, free what was built
    before the exception leaves (with the collector paused, see :func:`paused_gc`)."""
    out: list[Clause] = []
    with paused_gc():
        try:
            out.extend(_families(geometry, encoding, value, check))
        except BaseException:
            out.clear()
            raise
    return out


_BASE_CACHE: dict[tuple[Geometry, Encoding], tuple[Clause, ...]] = {}
_BASE_CACHE_SIZE = 8


def base_clauses(geometry: Geometry, encoding: Encoding,
                 check: Check | None = None) -> tuple[Clause, ...]:
    """Return the clauses of an encoding before givens (cached; do not modify the lists).

    ``reduced`` without givens equals ``extended``. The counts are the published oracles:
    9x9 minimal 8,829, efficient 11,745, extended 11,988; 16x16 extended 123,904.

    Args:
        geometry: the grid; encoding: which clause families.
        check: called while the clauses are built (see :data:`Check`); a formula it stops is
            not cached.

    >>> len(base_clauses(Geometry.of(3, 3), Encoding.MINIMAL))
    8829
    """
    key = (geometry, encoding)
    cached = _BASE_CACHE.get(key)
    if cached is None:
        cached = tuple(_clauses(geometry, encoding, None, check or _no_check))
        if len(_BASE_CACHE) >= _BASE_CACHE_SIZE:
            _BASE_CACHE.pop(next(iter(_BASE_CACHE)), None)
        _BASE_CACHE[key] = cached
    return cached


def clause_count(geometry: Geometry, encoding: Encoding) -> int:
    """Return ``len(base_clauses(geometry, encoding))`` without building the clauses.

    >>> clause_count(Geometry.of(6, 6), Encoding.EXTENDED)
    3271104
    """
    cell_alo, cell_amo, unit_amo, unit_alo = _FAMILIES[encoding]
    n, cells = geometry.side, geometry.n_cells
    pairs = n * (n - 1) // 2
    unit_pairs = sum(len(u) * (len(u) - 1) // 2 for u in geometry.units)
    return (cells * cell_alo + cells * pairs * cell_amo + n * unit_pairs * unit_amo
            + len(geometry.units) * n * unit_alo
            + (0 if geometry.is_standard else len(variant_clauses(geometry))))


def given_clauses(puzzle: Puzzle) -> list[Clause]:
    """Return one unit clause ``[x(cell, given)]`` per given, in cell order."""
    n = puzzle.geometry.side
    return [[var(cell, d, n)] for cell, d in enumerate(puzzle.givens) if d]


def _fixed_values(puzzle: Puzzle, check: Check = _no_check) -> list[bool | None]:
    """Truth values the givens force: x(given) true; other digits of a given cell and the given
    digit in its peers false; None elsewhere. Index 0 is unused."""
    g = puzzle.geometry
    n = g.side
    value: list[bool | None] = [None] * (g.n_cells * n + 1)
    for cell, d in enumerate(puzzle.givens):
        if not d:
            continue
        if not cell & 63:
            check()
        for other in range(1, n + 1):
            value[var(cell, other, n)] = False
        for peer in g.peers[cell]:
            if not puzzle.givens[peer]:
                value[var(peer, d, n)] = False
    for cell, d in enumerate(puzzle.givens):
        if d:
            value[var(cell, d, n)] = True
    return value


def encode(puzzle: Puzzle, encoding: Encoding | str = Encoding.EXTENDED,
           check: Check | None = None) -> list[Clause]:
    """Return the CNF of a puzzle: a new list of clauses over ``var(cell, digit, N)``.

    Args:
        puzzle: the puzzle (any box shape and variant; the geometry's units are used).
        encoding: an :class:`Encoding` or its name.
        check: called about every thousand clauses while the formula is built (see
            :data:`Check`), so a solver's deadline covers the encoding (an empty 64x64 grid
            has 33 million clauses).

    Returns:
        Clauses over variables 1..:func:`n_variables` (N**3 without killer cages). ``reduced`` has no clauses on given cells and contains
        an empty clause when the givens leave a cell or a unit-digit with no place (or repeat a
        digit in a unit); the other encodings append one unit clause per given.

    Raises:
        ValueError: an unknown encoding name.
        Exception: whatever ``check`` raises.

    >>> from sudokit.model.puzzle import Puzzle
    >>> p = Puzzle.from_digits([1, 0, 0, 0] * 4)
    >>> len(encode(p, "extended")) - len(base_clauses(p.geometry, Encoding.EXTENDED))
    4
    """
    encoding = Encoding(encoding)
    check = check or _no_check
    with paused_gc():
        if encoding is Encoding.REDUCED:
            return _clauses(puzzle.geometry, encoding, _fixed_values(puzzle, check), check)
        return list(base_clauses(puzzle.geometry, encoding, check)) + given_clauses(puzzle)


STREAM_FROM = 1_000_000
"""Formulas of more clauses than this are streamed by :func:`clause_stream` rather than built
as one list (an empty 64x64 grid has 33 million clauses: 4.1 GB as Python lists)."""


def clause_stream(puzzle: Puzzle, encoding: Encoding | str = Encoding.EXTENDED
                  ) -> tuple[int, Iterator[Clause]]:
    """Return the clause count of :func:`encode`'s formula and an iterator over its clauses,
    the same clauses in the same order, without holding the formula in memory when it is large.

    Writing a DIMACS file needs the count first (its problem line). For the encodings that
    state givens as unit clauses it is :func:`clause_count` plus one per given; for
    ``reduced`` (whose size depends on the givens) a large formula is generated twice, once to
    count it. Memory stays at one clause block whatever the grid size.

    Raises:
        ValueError: an unknown encoding name.
    """
    encoding = Encoding(encoding)
    g = puzzle.geometry
    if clause_count(g, Encoding.EXTENDED) <= STREAM_FROM or (g, encoding) in _BASE_CACHE:
        clauses = encode(puzzle, encoding)
        return len(clauses), iter(clauses)
    if encoding is Encoding.REDUCED:
        value = _fixed_values(puzzle)
        count = sum(1 for _ in _families(g, encoding, value))
        return count, _families(g, encoding, value)
    givens = given_clauses(puzzle)
    return (clause_count(g, encoding) + len(givens),
            chain(_families(g, encoding, None), givens))


def decode(model: Sequence[int], puzzle: Puzzle,
           place: Callable[[int], tuple[int | None, int | None]] | None = None) -> Grid:
    """Return the grid a model describes: the givens plus each true ``x(cell, digit)``.

    Variables the givens fix are not read: the reduced encoding leaves them out of the formula,
    so a solver may report them either way (the other encodings force them with clauses).

    Args:
        model: DIMACS literals (any order; negative and out-of-range literals are ignored, so a
            solver's full model over extra auxiliary variables is fine).
        puzzle: the puzzle whose CNF the model satisfies.
        place: the ``line`` and ``column`` of the model's i-th literal in its file, for the
            error (None: not named).

    Raises:
        InvalidPuzzle: a cell gets two digits (at the second literal), or none.

    >>> from sudokit.model.puzzle import Puzzle
    >>> p = Puzzle.from_digits([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])
    >>> decode([var(15, 1, 4)], p)[-1]
    1
    """
    g = puzzle.geometry
    n = g.side
    fixed = _fixed_values(puzzle)
    grid = list(puzzle.givens)
    for index, lit in enumerate(model):
        if not 0 < lit <= g.n_cells * n or fixed[lit] is not None:
            continue  # a negative literal, a cage selector, or fixed by the givens
        cell, digit = split_var(lit, n, g.n_cells)
        if grid[cell]:
            twice = (f"{digit} twice" if grid[cell] == digit
                     else f"both {grid[cell]} and {digit}")
            line, column = place(index) if place else (None, None)
            raise InvalidPuzzle(f"model sets {g.label(cell)} to {twice}", line=line, column=column)
        grid[cell] = digit
    empty = [g.label(c) for c, d in enumerate(grid) if not d]
    if empty:
        raise InvalidPuzzle(f"model leaves {len(empty)} cell(s) without a digit: "
                            f"{', '.join(empty[:5])}")
    return tuple(grid)
