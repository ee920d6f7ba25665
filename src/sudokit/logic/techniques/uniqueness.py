"""Uniqueness techniques: Unique Rectangle types 1-4 and BUG+1.

They assume the puzzle has exactly one solution (a deadly pattern, whose digits could be swapped,
cannot be the solution); the solve loop uses them only then. A swap stays a solution only where
every constraint is a unit: under the anti-knight and anti-king rules (must-differ pairs that
are no unit) neither technique applies, and a rectangle must meet every unit, extra units
(diagonals, hyper boxes, disjoint groups) included, in 0 or 2 of its corners. Ratings (Sudoku Explainer):
Unique Rectangle 4.5 (type 3: 4.5 plus 0.1 per cell of its naked subset), BUG+1 5.6.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from ...model.geometry import Geometry
from ..registry import TechniqueKind, technique
from ..state import Board, bits, digits_of
from ..step import Step, cells_text, eliminations_text

__all__ = ["bug_plus_one", "rectangle_shapes", "rectangle_step", "swappable", "unique_rectangle"]


@cache
def rectangle_shapes(geometry: Geometry) -> tuple[tuple[int, int, int, int], ...]:
    """Every rectangle of cells (corners in row-major order) lying in exactly two boxes whose
    digits could be swapped: each extra unit holds 0 or 2 of its corners; none without a
    swap argument (see the module docstring)."""
    n = geometry.side
    if not swappable(geometry):
        return ()
    extra = [frozenset(unit) for unit in geometry.extra_units]
    out = []
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if len({geometry.box_of(c) for c in cells}) == 2 and all(
                    len(unit.intersection(cells)) in (0, 2) for unit in extra):
                out.append(cells)
    return tuple(out)


_shapes = rectangle_shapes  # the former private name (tests use it)


def swappable(geometry: Geometry) -> bool:
    """Whether every constraint of the geometry is a unit (so deadly patterns exist)."""
    return geometry.features <= {"diagonal", "hyper", "disjoint", "jigsaw"}


def _rectangles(board: Board):
    """Yield ``(cells, x, y)`` for every rectangle of open cells in two boxes sharing x, y."""
    masks, values = board.masks, board.values
    for cells in rectangle_shapes(board.geometry):
        a, b, c, d = cells
        common = masks[a] & masks[b] & masks[c] & masks[d]
        if common.bit_count() >= 2 and not (values[a] or values[b] or values[c] or values[d]):
            for x, y in combinations(digits_of(common), 2):
                yield cells, x, y


def _step(board: Board, kind: str, cells: tuple[int, ...], x: int, y: int,
          eliminations: tuple[tuple[int, int], ...], rating: float = 4.5) -> Step:
    g = board.geometry
    return Step("Unique Rectangle", rating,
                lambda: f"{kind}: {cells_text(g, cells)} would form a deadly pattern on "
                        f"{g.symbols((x, y))}: {eliminations_text(g, eliminations)}",
                eliminations=eliminations, cells=cells, digits=(x, y))


@technique("Unique Rectangle", 4.5, kind=TechniqueKind.UNIQUENESS)
def unique_rectangle(board: Board) -> Step | None:
    """Types 1 to 4 (see module docstring)."""
    for cells, x, y in _rectangles(board):
        step = rectangle_step(board, cells, x, y)
        if step is not None:
            return step
    return None


def rectangle_step(board: Board, cells: tuple[int, ...], x: int, y: int) -> Step | None:
    """The Unique Rectangle step of one rectangle of open cells (corners in row-major order)
    on digits x < y, trying type 1, then 2, 4 and 3; None when it has none (the compiled
    ladder names the rectangle, :func:`unique_rectangle` tries each in turn)."""
    masks = board.masks
    pair = (1 << (x - 1)) | (1 << (y - 1))
    floor = [c for c in cells if masks[c] == pair]
    roof = [c for c in cells if masks[c] != pair]
    if len(floor) == 3:
        target = roof[0]
        eliminations = ((target, x), (target, y))
        return _step(board, "type 1", cells, x, y, eliminations)
    if len(floor) != 2 or not board.sees(roof[0], roof[1]):
        return None
    return (_type2(board, cells, roof, pair, x, y) or _type4(board, cells, roof, x, y)
            or _type3(board, cells, roof, pair, x, y))


def _type2(board: Board, cells: tuple[int, ...], roof: list[int], pair: int,
           x: int, y: int) -> Step | None:
    masks = board.masks
    extra = (masks[roof[0]] | masks[roof[1]]) & ~pair
    if extra.bit_count() != 1 or masks[roof[0]] != masks[roof[1]]:
        return None
    z = extra.bit_length()
    seen = board.cells_of[z - 1] & board.peer_masks[roof[0]] & board.peer_masks[roof[1]]
    if not seen:
        return None
    return _step(board, "type 2", cells, x, y, tuple((c, z) for c in bits(seen)))


def _type4(board: Board, cells: tuple[int, ...], roof: list[int], x: int, y: int) -> Step | None:
    g = board.geometry
    shared = set(g.units_of[roof[0]]) & set(g.units_of[roof[1]])
    for u in shared:
        for keep, drop in ((x, y), (y, x)):
            if board.places[u][keep - 1].bit_count() == 2:
                eliminations = tuple((c, drop) for c in roof)
                return _step(board, "type 4", cells, x, y, eliminations)
    return None


def _type3(board: Board, cells: tuple[int, ...], roof: list[int], pair: int,
           x: int, y: int) -> Step | None:
    g, masks = board.geometry, board.masks
    extra = (masks[roof[0]] | masks[roof[1]]) & ~pair
    shared = set(g.units_of[roof[0]]) & set(g.units_of[roof[1]])
    for u in sorted(shared):
        others = [c for c in g.units[u] if not board.values[c] and c not in roof]
        for size in range(1, 4):
            for group in combinations(others, size):
                union = extra
                for c in group:
                    union |= masks[c]
                if union.bit_count() != size + 1:
                    continue
                eliminations = tuple((c, d + 1) for c in others if c not in group
                                     for d in bits(masks[c] & union))
                if eliminations:
                    return _step(board, f"type 3 with {cells_text(g, group)}", cells, x, y,
                                 eliminations, 4.5 + 0.1 * size)
    return None


@technique("BUG+1", 5.6, kind=TechniqueKind.UNIQUENESS)
def bug_plus_one(board: Board) -> Step | None:
    """Every open cell is bivalue but one, with three candidates: the digit that would
    otherwise appear an odd number of times in its units goes there."""
    g, masks = board.geometry, board.masks
    if not swappable(g):
        return None
    extra = [c for c in board.open_cells if masks[c].bit_count() != 2]
    if len(extra) != 1 or masks[extra[0]].bit_count() != 3:
        return None
    cell = extra[0]
    for digit in digits_of(masks[cell]):
        if all(board.places[u][digit - 1].bit_count() == 3 for u in g.units_of[cell]):
            return Step("BUG+1", 5.6,
                        lambda: f"every open cell but {g.label(cell)} has two "
                        f"candidates: without {g.symbol(digit)} there it would be a deadly "
                        f"pattern (BUG), so it is {g.symbol(digit)}",
                        placements=((cell, digit),), cells=(cell,), digits=(digit,))
    return None
