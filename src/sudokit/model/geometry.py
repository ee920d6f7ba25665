"""Grid geometry: cells, units, peers and every other constraint of a Sudoku-family puzzle.

A grid has boxes of ``box_rows x box_cols`` cells; its side is ``N = box_rows * box_cols`` and,
in the standard case, it has ``N**2`` cells numbered ``cell = row * N + col`` (0-based). A *unit*
is a row, a column, a box (or jigsaw region) or an extra region of a variant; each unit holds N
cells that must hold every digit 1..N once. The *peers* of a cell are the other cells that must
hold a different digit: those sharing a unit or a cage with it, and those a chess move away under
the anti-knight and anti-king rules (Norvig 2006 for units and peers).

Beyond units and peers a geometry may carry the constraints of variant Sudoku
(:mod:`~sudokit.model.constraints`: :class:`Variant` rules, jigsaw regions, killer cages, extra
regions, parity), the rules drawn on it (:mod:`~sudokit.model.rules`: thermometers, arrows,
dots, lines, outside clues) and a :class:`~sudokit.model.layouts.Layout` of overlapping N x N grids on a
larger canvas (samurai, butterfly, sohei ...); cells are then the canvas cells covered by some
grid, in canvas row-major order, and :meth:`Geometry.position` gives a cell's ``(row, column)``
on the canvas.

Every size from 1x1 to 64x64 goes through the same code; nothing assumes 9x9. Methods declare
which :attr:`Geometry.features` they understand (:data:`ALL_FEATURES` names them all), so none
ever ignores a constraint silently.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from functools import cache, cached_property, lru_cache
from itertools import combinations
from operator import itemgetter

from ..errors import InvalidPuzzle
from .constraints import (
    RULE_NAMES,
    Cage,
    Variant,
    check_cages,
    check_extra_regions,
    check_parity,
    check_regions,
)
from .layouts import Layout, check_layout
from .rules import Rule, check_rules

__all__ = [
    "ALL_FEATURES",
    "DEFAULT_SYMBOLS",
    "MAX_SIDE",
    "Geometry",
    "box_shape_for_side",
]

MAX_SIDE = 64
"""Largest grid side supported (one 64-bit candidate mask per cell in the compiled engine)."""

DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%"
"""Symbols of digits 1..64 in line form: ``DEFAULT_SYMBOLS[d - 1]`` writes digit d."""


def box_shape_for_side(side: int) -> tuple[int, int]:
    """Return the usual ``(box_rows, box_cols)`` for a grid side N.

    Square boxes when N is a perfect square (9 -> 3x3); otherwise the most square factorisation
    with fewer rows than columns (6 -> 2x3, 12 -> 3x4); a prime N gets 1xN boxes (a Latin square).

    Raises:
        InvalidPuzzle: N outside 1..64.

    >>> box_shape_for_side(9), box_shape_for_side(6), box_shape_for_side(12)
    ((3, 3), (2, 3), (3, 4))
    """
    if not 1 <= side <= MAX_SIDE:
        raise InvalidPuzzle(f"grid side must be between 1 and {MAX_SIDE}, got {side}")
    rows = math.isqrt(side)
    while side % rows:
        rows -= 1
    return rows, side // rows


_KINDS: tuple[tuple[str, Callable[[Geometry], bool]], ...] = (
    ("jigsaw", lambda g: g.regions is not None),
    ("killer", lambda g: bool(g.cages)),
    ("extra-region", lambda g: bool(g.extra_regions)),
    ("even-odd", lambda g: g.parity is not None),
    ("multi-grid", lambda g: g.layout is not None),
)
"""The puzzle-type features of :attr:`Geometry.features`, each with its test."""

ALL_FEATURES = frozenset((*RULE_NAMES, *(name for name, _ in _KINDS)))
"""Every name :attr:`Geometry.features` can hold: the 8 whole-grid rules and the 5 puzzle
types; a method that enforces every constraint declares it as its ``features``."""

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))


@dataclass(frozen=True)
class Geometry:
    """The structure of a grid: cells, units, peers and variant constraints; every derived table
    is computed once.

    Use :meth:`of` (cached) rather than the constructor so equal geometries share their tables.

    Attributes:
        box_rows: rows per box (>= 1).
        box_cols: columns per box (>= 1).
        variant: the whole-grid rules (:class:`Variant`, combinable).
        regions: jigsaw regions replacing the boxes: N tuples of N cells partitioning the grid,
            or None for rectangular boxes.
        cages: killer cages (:class:`Cage`), disjoint; empty for none.
        extra_regions: sets of 1..N cells holding distinct digits (increasing cell tuples, any
            overlap with each other, boxes or cages allowed); those of N cells are units too.
        parity: one character per cell, ``e`` (even digit), ``o`` (odd digit) or ``.``; None
            for none.
        layout: overlapping grids (:class:`Layout`), or None for one N x N grid.
        constraints: the rules drawn on the grid (:mod:`~sudokit.model.rules`: thermometers,
            arrows, dots, lines, outside clues ... as pair relations, linear sums, automata
            ...); their kinds are :attr:`features` too. Empty for none.

    Raises:
        InvalidPuzzle: a box dimension below 1 or a side above 64; a variant the grid cannot
            have (hyper on non-square boxes, diagonal on a layout); regions that are not N
            regions of N cells covering every cell once; a cage outside the grid, overlapping
            another, larger than N or with a total no distinct digits reach; an extra region
            empty, larger than N, with a repeated cell or a cell outside the grid; a parity
            string of the wrong length or with other characters; a rule with a cell outside
            the grid, a repeated cell or parameters that do not fit digits 1..N (the message
            names the rule).

    >>> g = Geometry.of(3, 3)
    >>> g.side, g.n_cells, len(g.units), len(g.peers[0]), g.n_arcs
    (9, 81, 27, 20, 1620)
    """

    box_rows: int
    box_cols: int
    variant: Variant = Variant.STANDARD
    regions: tuple[tuple[int, ...], ...] | None = None
    cages: tuple[Cage, ...] = ()
    parity: str | None = None
    layout: Layout | None = None
    extra_regions: tuple[tuple[int, ...], ...] = ()
    constraints: tuple[Rule, ...] = ()

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1:
            raise InvalidPuzzle(f"box shape must be positive, got {self.box_rows}x{self.box_cols}")
        if self.box_rows * self.box_cols > MAX_SIDE:
            raise InvalidPuzzle(
                f"grid side {self.box_rows * self.box_cols} is above the maximum {MAX_SIDE}"
            )
        if not self.is_standard:
            self._check()

    def _check(self) -> None:
        """Validate the variant parts (see the class's Raises)."""
        n, cells = self.side, self.n_cells
        if Variant.HYPER in self.variant and (self.box_rows != self.box_cols or n < 4):
            raise InvalidPuzzle(f"hyper needs square boxes of side >= 2, got "
                                f"{self.box_rows}x{self.box_cols}")
        if self.layout is not None:
            if self.variant is not Variant.STANDARD or self.regions is not None:
                raise InvalidPuzzle("overlapping grids take no whole-grid variant and no regions")
            check_layout(self.layout, n, self._cell_at)
        if self.regions is not None:
            check_regions(self.regions, n, cells)
        check_cages(self.cages, n, cells, self.label)
        check_extra_regions(self.extra_regions, n, cells)
        if self.parity is not None:
            check_parity(self.parity, cells)
        check_rules(self.constraints, n, cells, self.label)

    def __hash__(self) -> int:
        """The hash of every field, computed once (the kernels' table caches look a geometry
        up on every solve; hashing its drawn rules each time cost more than the lookup)."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = hash(tuple(
                getattr(self, f.name) for f in fields(self)))
        return found

    def __reduce__(self) -> tuple[Callable[..., Geometry], tuple[object, ...]]:
        """Pickle by reference: the receiving process rebuilds (or reuses) its own shared
        geometry with :meth:`of` instead of receiving the cached tables."""
        return _rebuild, (self.box_rows, self.box_cols, self.variant, self.regions, self.cages,
                          self.parity, self.layout, self.extra_regions, self.constraints)

    @staticmethod
    def of(box_rows: int, box_cols: int, variant: Variant | str = Variant.STANDARD, *,
           regions: Sequence[Sequence[int]] | None = None,
           cages: Sequence[Cage | tuple[int, Sequence[int]]] = (),
           parity: str | None = None, layout: Layout | None = None,
           extra_regions: Sequence[Sequence[int]] = (),
           constraints: Sequence[Rule] = ()) -> Geometry:
        """Return the shared geometry for this box shape, variant and constraints (cached).

        Raises:
            InvalidPuzzle: as the class; ValueError for an unknown variant name.
        """
        rules = Variant(variant)
        if (regions is None and not cages and parity is None and layout is None
                and not extra_regions and not constraints):
            return _shared_geometry(int(box_rows), int(box_cols), rules)
        return _puzzle_geometry(
            int(box_rows), int(box_cols), rules,
            None if regions is None else tuple(tuple(sorted(map(int, r))) for r in regions),
            tuple(Cage(int(t), tuple(sorted(map(int, c)))) for t, c in cages),
            None if parity is None else parity.lower(), layout,
            tuple(tuple(sorted(map(int, r))) for r in extra_regions), tuple(constraints))

    @staticmethod
    def for_side(side: int, variant: Variant | str = Variant.STANDARD) -> Geometry:
        """Return the geometry of side N with the usual box shape (see box_shape_for_side)."""
        return Geometry.of(*box_shape_for_side(side), variant)

    @staticmethod
    def for_cells(n_cells: int, variant: Variant | str = Variant.STANDARD) -> Geometry:
        """Return the geometry whose cell count is n_cells (81 -> 9x9, 256 -> 16x16).

        Raises:
            InvalidPuzzle: n_cells is not the square of a side in 1..64.
        """
        side = math.isqrt(n_cells)
        if side * side != n_cells or not 1 <= side <= MAX_SIDE:
            raise InvalidPuzzle(
                f"expected a square number of cells (16, 36, 81, 256, ... up to 4096), got {n_cells}"
            )
        return Geometry.for_side(side, variant)

    def with_variant(self, variant: Variant | str) -> Geometry:
        """This geometry under other whole-grid rules (regions, cages, parity, layout, extra
        regions and constraints kept)."""
        return Geometry.of(self.box_rows, self.box_cols, variant, regions=self.regions,
                           cages=self.cages, parity=self.parity, layout=self.layout,
                           extra_regions=self.extra_regions, constraints=self.constraints)

    def with_constraints(self, constraints: Sequence[Rule]) -> Geometry:
        """This geometry with more rules (:mod:`~sudokit.model.rules`) after its own.

        Raises:
            InvalidPuzzle: a rule that does not fit the grid (see the class).
        """
        return Geometry.of(self.box_rows, self.box_cols, self.variant, regions=self.regions,
                           cages=self.cages, parity=self.parity, layout=self.layout,
                           extra_regions=self.extra_regions,
                           constraints=self.constraints + tuple(constraints))

    @cached_property
    def is_plain(self) -> bool:
        """True for one N x N grid with rectangular boxes, no cages, no parity, no extra
        regions and no drawn rules (any :class:`Variant` allowed): the grids the line form and
        the box drawing describe fully."""
        return (self.regions is None and not self.cages and self.parity is None
                and self.layout is None and not self.extra_regions and not self.constraints)

    @cached_property
    def is_standard(self) -> bool:
        """True for classic Sudoku: plain, with no variant rule."""
        return self.variant is Variant.STANDARD and self.is_plain

    @cached_property
    def features(self) -> frozenset[str]:
        """What a method must understand to solve this grid: the variant names
        (``"diagonal"``, ``"main-diagonal"``, ``"anti-knight"`` ...) and ``"jigsaw"``,
        ``"killer"``, ``"extra-region"``, ``"even-odd"``, ``"multi-grid"`` (a subset of
        :data:`ALL_FEATURES`), and the kind of every drawn rule (``"pair-relation"``,
        ``"linear-sum"``, ``"sequence"`` ...: :data:`~sudokit.model.rules.RULE_KINDS`); empty
        for classic Sudoku. See ``Solver.features``."""
        kinds = {name for name, present in _KINDS if present(self)}
        return _names_of(self.variant) | kinds | {r.kind for r in self.constraints}

    @property
    def side(self) -> int:
        """N, the number of digits (and of rows, columns and boxes of each grid)."""
        return self.box_rows * self.box_cols

    @cached_property
    def n_cells(self) -> int:
        """The number of cells: N**2, or the canvas cells covered by a layout's grids."""
        return self.side * self.side if self.layout is None else len(self.positions)

    @property
    def shape_name(self) -> str:
        """E.g. ``"9x9 (3x3 boxes)"``, ``"9x9 (3x3 boxes, diagonal)"``, ``"9x9 (jigsaw,
        killer)"``, ``"21x21 canvas, 5 grids of 9x9"``."""
        n = self.side
        extra = sorted(self.features - {"jigsaw", "multi-grid"})
        if self.layout is not None:
            text = (f"{self.layout.rows}x{self.layout.cols} canvas, "
                    f"{len(self.layout.origins)} grids of {n}x{n}")
            return text + "".join(f", {e}" for e in extra)
        parts = ["jigsaw"] if self.regions is not None else [
            f"{self.box_rows}x{self.box_cols} boxes"]
        return f"{n}x{n} ({', '.join(parts + extra)})"

    # -- cells on the canvas -------------------------------------------------------------------

    @property
    def canvas(self) -> tuple[int, int]:
        """``(rows, columns)`` of the drawing: ``(N, N)``, or the layout's canvas."""
        if self.layout is None:
            return self.side, self.side
        return self.layout.rows, self.layout.cols

    @cached_property
    def positions(self) -> tuple[int, ...]:
        """Per cell, its canvas index ``row * canvas_columns + column`` (identity for one grid)."""
        if self.layout is None:
            return tuple(range(self.side * self.side))
        n, width = self.side, self.layout.cols
        covered = {(r0 + i) * width + c0 + j for r0, c0 in self.layout.origins
                   for i in range(n) for j in range(n)}
        return tuple(sorted(covered))

    @cached_property
    def _cell_at(self) -> dict[tuple[int, int], int]:
        """Canvas ``(row, column)`` -> cell, for the cells of a layout."""
        width = self.canvas[1]
        return {divmod(p, width): cell for cell, p in enumerate(self.positions)}

    def position(self, cell: int) -> tuple[int, int]:
        """The 0-based canvas ``(row, column)`` of a cell."""
        if self.layout is None:
            return divmod(cell, self.side)
        return divmod(self.positions[cell], self.layout.cols)

    def cell_at(self, row: int, col: int) -> int | None:
        """The cell at canvas ``(row, column)`` (0-based), or None where no grid covers it."""
        if self.layout is None:
            n = self.side
            return row * n + col if 0 <= row < n and 0 <= col < n else None
        return self._cell_at.get((row, col))

    def box_of(self, cell: int) -> int:
        """Index into :attr:`boxes` of the box (or jigsaw region) holding a cell."""
        if self.is_plain:
            r, c = divmod(cell, self.side)
            return (r // self.box_rows) * (self.side // self.box_cols) + c // self.box_cols
        return self._box_index[cell]

    @cached_property
    def _box_index(self) -> tuple[int, ...]:
        owner = [0] * self.n_cells
        for b, box in enumerate(self.boxes):
            for cell in box:
                owner[cell] = b
        return tuple(owner)

    # -- units -----------------------------------------------------------------------------------

    def _grid_cells(self) -> list[Callable[[int, int], int]]:
        """Per grid, a map from its (row, column) to a cell."""
        if self.layout is None:
            n = self.side
            return [lambda r, c: r * n + c]
        at = self._cell_at

        def shifted(r0: int, c0: int) -> Callable[[int, int], int]:
            return lambda r, c: at[(r0 + r, c0 + c)]
        return [shifted(r0, c0) for r0, c0 in self.layout.origins]

    @property
    def _plain(self) -> Geometry | None:
        """The classic geometry of this box shape, whose rows, columns and boxes this one has
        too (one grid); None on a layout or for that geometry itself. Its tables are built once
        per box shape, not once per puzzle."""
        if self.layout is not None or self.is_standard:
            return None
        return _shared_geometry(self.box_rows, self.box_cols, Variant.STANDARD)

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The row units of every grid."""
        plain = self._plain
        if plain is not None:
            return plain.rows
        n = self.side
        return tuple(tuple(at(r, c) for c in range(n)) for at in self._grid_cells()
                     for r in range(n))

    @cached_property
    def cols(self) -> tuple[tuple[int, ...], ...]:
        """The column units of every grid."""
        plain = self._plain
        if plain is not None:
            return plain.cols
        n = self.side
        return tuple(tuple(at(r, c) for r in range(n)) for at in self._grid_cells()
                     for c in range(n))

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        """The boxes (row-major, 0 top-left; a box shared by two grids appears once), or the
        jigsaw regions."""
        if self.regions is not None:
            return self.regions
        plain = self._plain
        if plain is not None:
            return plain.boxes
        n, br, bc = self.side, self.box_rows, self.box_cols
        found: dict[tuple[int, ...], None] = {}
        for at in self._grid_cells():
            for top in range(0, n, br):
                for left in range(0, n, bc):
                    box = tuple(sorted(at(top + i, left + j) for i in range(br)
                                       for j in range(bc)))
                    found.setdefault(box)
        return tuple(found)

    @cached_property
    def diagonals(self) -> tuple[tuple[int, ...], ...]:
        """The diagonal units: the main diagonal (r1c1..rNcN) under ``MAIN_DIAGONAL``, then the
        anti-diagonal (rNc1..r1cN, listed from r1cN) under ``ANTI_DIAGONAL``; cells increasing.
        """
        n, found = self.side, []
        if Variant.MAIN_DIAGONAL in self.variant:
            found.append(tuple(i * n + i for i in range(n)))
        if Variant.ANTI_DIAGONAL in self.variant:
            found.append(tuple(i * n + n - 1 - i for i in range(n)))
        return tuple(found)

    @cached_property
    def region_units(self) -> tuple[tuple[int, ...], ...]:
        """The :attr:`extra_regions` of N cells (units); smaller ones only add peers."""
        return tuple(r for r in self.extra_regions if len(r) == self.side)

    @cached_property
    def extra_units(self) -> tuple[tuple[int, ...], ...]:
        """Units beyond rows, columns and boxes: diagonals, hyper boxes, disjoint groups, a
        layout's extra units and extra regions of N cells, in that order."""
        n, br, bc = self.side, self.box_rows, self.box_cols
        units: list[tuple[int, ...]] = list(self.diagonals)
        if Variant.HYPER in self.variant:
            starts = [1 + k * (br + 1) for k in range(br - 1)]
            units += [tuple((top + i) * n + left + j for i in range(br) for j in range(bc))
                      for top in starts for left in starts]
        if Variant.DISJOINT in self.variant:
            units += [tuple((top + i) * n + left + j for top in range(0, n, br)
                            for left in range(0, n, bc)) for i in range(br) for j in range(bc)]
        if self.layout is not None:
            at = self._cell_at
            units += [tuple(sorted(at[p] for p in unit)) for unit in self.layout.extra]
        return tuple(units) + self.region_units

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every unit: rows, then columns, then boxes, then extra units; each N cells."""
        return self.rows + self.cols + self.boxes + self.extra_units

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """A name per unit, parallel to :attr:`units`: ``"row 1"``, ``"column 3"``, ``"box 9"``
        (``"grid 2 row 1"`` on a layout, ``"region 4"`` for jigsaw regions)."""
        n, plain = self.side, self._plain
        if plain is not None and self.regions is None:
            names = list(plain.unit_names)
        else:
            grids = 1 if self.layout is None else len(self.layout.origins)
            prefix = [""] if grids == 1 else [f"grid {g + 1} " for g in range(grids)]
            names = [f"{p}row {i + 1}" for p in prefix for i in range(n)]
            names += [f"{p}column {i + 1}" for p in prefix for i in range(n)]
            kind = "region" if self.regions is not None else "box"
            names += [f"{kind} {i + 1}" for i in range(len(self.boxes))]
        names += [f"diagonal {i + 1}" for i in range(len(self.diagonals))]
        if Variant.HYPER in self.variant:
            names += [f"hyper box {i + 1}" for i in range((self.box_rows - 1) ** 2)]
        if Variant.DISJOINT in self.variant:
            names += [f"disjoint group {i + 1}" for i in range(n)]
        if self.layout is not None:
            names += [f"extra unit {i + 1}" for i in range(len(self.layout.extra))]
        names += [f"extra region {k + 1}" for k, r in enumerate(self.extra_regions)
                  if len(r) == n]
        return tuple(names)

    @cached_property
    def unit_getters(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
        """Per unit, an ``operator.itemgetter`` returning the unit's values from a grid (fast)."""
        plain, units = self._plain, self.units
        shared = plain.unit_getters[:len(plain.units) if self.regions is None else
                                    2 * self.side] if plain is not None else ()
        return shared + tuple(itemgetter(*unit) if len(unit) > 1 else _single(unit[0])
                              for unit in units[len(shared):])

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into :attr:`units`) of the units that contain it."""
        variant = self._variant_plain if self.regions is None and not self.extra_regions else None
        if variant is not None:  # the same units
            return variant.units_of
        owners: list[list[int]] = [[] for _ in range(self.n_cells)]
        for u, unit in enumerate(self.units):
            for cell in unit:
                owners[cell].append(u)
        return tuple(tuple(o) for o in owners)

    # -- other constraints ------------------------------------------------------------------------

    @cached_property
    def cage_of(self) -> tuple[int, ...]:
        """Per cell, the index of its cage in :attr:`cages`, or -1."""
        owner = [-1] * self.n_cells
        for k, cage in enumerate(self.cages):
            for cell in cage.cells:
                owner[cell] = k
        return tuple(owner)

    def _moves(self, steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
        result = []
        for cell in range(self.n_cells):
            r, c = self.position(cell)
            found = (self.cell_at(r + dr, c + dc) for dr, dc in steps)
            result.append(tuple(sorted(x for x in found if x is not None)))
        return tuple(result)

    @cached_property
    def relations(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the cells that must differ from it by the anti-knight and anti-king rules
        (empty tuples without them); part of :attr:`peers`."""
        steps = ((_KNIGHT if Variant.ANTI_KNIGHT in self.variant else ())
                 + (_KING if Variant.ANTI_KING in self.variant else ()))
        if not steps:
            return ((),) * self.n_cells
        variant = self._variant_plain
        return variant.relations if variant is not None else self._moves(steps)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, its orthogonal neighbours when the non-consecutive rule holds (their digits
        never differ by 1), else empty tuples."""
        if Variant.NON_CONSECUTIVE not in self.variant:
            return ((),) * self.n_cells
        variant = self._variant_plain
        return variant.neighbours if variant is not None else self._moves(_ORTHOGONAL)

    @property
    def _variant_plain(self) -> Geometry | None:
        """The shared geometry of this box shape and variant alone (its chess moves and
        neighbours are this one's, computed once per shape and variant); None on a layout or
        for that geometry itself."""
        if self.layout is not None or self.is_plain:
            return None
        return _shared_geometry(self.box_rows, self.box_cols, self.variant)

    @cached_property
    def _region_mates(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the cells of the extra regions holding it (the cell itself included)."""
        mates: list[set[int]] = [set() for _ in range(self.n_cells)]
        for region in self.extra_regions:
            for cell in region:
                mates[cell].update(region)
        return tuple(tuple(sorted(m)) for m in mates)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells that must hold another digit, increasing: unit mates, cage
        and extra-region mates and chess-move relations (9x9 standard: 20 each)."""
        if not self.cages and not self.extra_regions and self.regions is None \
                and self.layout is None:  # the peers of the plain grid of this shape
            plain = Geometry.of(self.box_rows, self.box_cols, self.variant)
            if plain is not self:
                return plain.peers
        result = []
        cage_of = self.cage_of if self.cages else None
        mates = self._region_mates if self.extra_regions else None
        shared = (None if self.regions is not None or self.layout is not None or self.is_plain
                  else _shared_geometry(self.box_rows, self.box_cols, self.variant).peers)
        for cell in range(self.n_cells):  # unit mates and chess moves, then cages and regions
            seen = set(shared[cell]) if shared is not None else {
                p for u in self.units_of[cell] for p in self.units[u]} | set(self.relations[cell])
            if cage_of is not None and cage_of[cell] >= 0:
                seen.update(self.cages[cage_of[cell]].cells)
            if mates is not None:
                seen.update(mates[cell])
            seen.discard(cell)
            result.append(tuple(sorted(seen)))
        return tuple(result)

    @cached_property
    def extra_pairs(self) -> tuple[tuple[int, int], ...]:
        """Pairs ``(a, b)``, ``a < b``, that must differ but share no unit: cage mates, mates in
        an extra region of fewer than N cells and chess-move relations (what the unit checks of
        verification do not already cover)."""
        if not self.cages and all(len(r) == self.side for r in self.extra_regions) \
                and not any(self.relations):
            return ()  # every peer is a unit mate
        groups = [c.cells for c in self.cages] + [
            r for r in self.extra_regions if len(r) < self.side]  # a whole one is a unit
        pairs = {(a, b) if a < b else (b, a) for g in groups for a, b in combinations(g, 2)}
        pairs.update((a, b) for a in range(self.n_cells) for b in self.relations[a] if a < b)
        owners = self.units_of  # the pairs of peers that share no unit, without all the peers
        return tuple(sorted(p for p in pairs if not set(owners[p[0]]).intersection(owners[p[1]])))

    @cached_property
    def consecutive_pairs(self) -> tuple[tuple[int, int], ...]:
        """Pairs ``(a, b)``, ``a < b``, of orthogonal neighbours under the non-consecutive rule."""
        if Variant.NON_CONSECUTIVE not in self.variant:
            return ()
        return tuple((a, b) for a in range(self.n_cells) for b in self.neighbours[a] if a < b)

    def parity_of(self, cell: int) -> str:
        """``"e"`` (even), ``"o"`` (odd) or ``"."`` (either) for a cell."""
        return "." if self.parity is None else self.parity[cell]

    def allowed(self, cell: int) -> tuple[int, ...]:
        """The digits a cell may hold before any given is placed (parity applied)."""
        digits = range(1, self.side + 1)
        kind = self.parity_of(cell)
        return tuple(d for d in digits if kind == "." or (d % 2 == 0) == (kind == "e"))

    @property
    def n_arcs(self) -> int:
        """Directed arcs of the constraint graph: the sum of peer counts (9x9: 1,620)."""
        return sum(len(p) for p in self.peers)

    def symbol(self, digit: int) -> str:
        """Return the symbol of a digit as the grid is written (:data:`DEFAULT_SYMBOLS`:
        ``10`` is ``A`` on a 16x16): the one way messages name a digit."""
        return DEFAULT_SYMBOLS[digit - 1]

    def symbols(self, digits: Iterable[int], sep: str = "") -> str:
        """The symbols of several digits joined by ``sep`` (``"19A"``, ``"1, 9, A"``)."""
        return sep.join(DEFAULT_SYMBOLS[d - 1] for d in digits)

    def label(self, cell: int) -> str:
        """Return the 1-based ``r{row}c{col}`` label of a cell (``r1c1`` is top-left; canvas
        coordinates on a layout)."""
        r, c = self.position(cell)
        return f"r{r + 1}c{c + 1}"


def _single(cell: int) -> Callable[[Sequence[int]], tuple[int, ...]]:
    return lambda grid: (grid[cell],)


_Regions = tuple[tuple[int, ...], ...]


def _rebuild(box_rows: int, box_cols: int, variant: Variant, regions: _Regions | None,
             cages: tuple[Cage, ...], parity: str | None, layout: Layout | None,
             extra_regions: _Regions = (), constraints: tuple[Rule, ...] = ()) -> Geometry:
    return Geometry.of(box_rows, box_cols, variant, regions=regions, cages=cages, parity=parity,
                       layout=layout, extra_regions=extra_regions, constraints=constraints)


@cache
def _names_of(variant: Variant) -> frozenset[str]:
    return frozenset(variant.names)


@cache
def _shared_geometry(box_rows: int, box_cols: int, variant: Variant) -> Geometry:
    return Geometry(box_rows, box_cols, variant)


@lru_cache(maxsize=256)
def _puzzle_geometry(box_rows: int, box_cols: int, variant: Variant, regions: _Regions | None,
                     cages: tuple[Cage, ...], parity: str | None, layout: Layout | None,
                     extra_regions: _Regions, constraints: tuple[Rule, ...]) -> Geometry:
    """Geometries of one puzzle (jigsaw, killer ...): a bounded cache, as a file may hold
    millions of them."""
    return Geometry(box_rows, box_cols, variant, regions, cages, parity, layout, extra_regions,
                    constraints)
