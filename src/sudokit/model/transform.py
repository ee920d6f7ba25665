"""Validity-preserving transformations of grids: relabelling, transposition, row/column shuffles.

Each maps a puzzle (and, applied the same way, its solution) to an equivalent one: a grid solves
a puzzle exactly when the transformed grid solves the transformed puzzle. They generate the
Sudoku symmetry group used to count essentially different grids (Felgenhauer and Jarvis 2006;
Russell and Jarvis 2006), and give property tests and benchmarks new instances for free.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidPuzzle
from .geometry import Geometry
from .puzzle import Grid, Puzzle
from .rules import RULE_KINDS

__all__ = ["relabel", "transpose", "permute_bands", "permute_stacks", "permute_rows_in_band",
           "apply"]


def relabel(grid: Sequence[int], mapping: Sequence[int]) -> Grid:
    """Replace digit d by ``mapping[d - 1]`` (0, an empty cell, stays 0).

    Args:
        grid: N**2 digits.
        mapping: a permutation of 1..N.

    Raises:
        InvalidPuzzle: ``mapping`` is not a permutation of 1..N.
    """
    if sorted(mapping) != list(range(1, len(mapping) + 1)):
        raise InvalidPuzzle(f"a relabelling must be a permutation of 1..{len(mapping)}")
    return tuple(mapping[d - 1] if d else 0 for d in grid)


def _cells(grid: Sequence[int], order: Sequence[int]) -> Grid:
    """The grid whose cell i holds ``grid[order[i]]``."""
    return tuple(grid[c] for c in order)


def transpose(grid: Sequence[int], geometry: Geometry) -> tuple[Grid, Geometry]:
    """Swap rows and columns; R x C boxes become C x R boxes."""
    n = geometry.side
    order = [c * n + r for r in range(n) for c in range(n)]
    return _cells(grid, order), Geometry.of(geometry.box_cols, geometry.box_rows,
                                            geometry.variant)


def _check(order: Sequence[int], size: int, what: str) -> None:
    if sorted(order) != list(range(size)):
        raise InvalidPuzzle(f"{what} must be a permutation of 0..{size - 1}, got {list(order)}")


def permute_bands(grid: Sequence[int], geometry: Geometry, order: Sequence[int]) -> Grid:
    """Reorder the bands (horizontal stacks of boxes): new band i is old band ``order[i]``."""
    n, h = geometry.side, geometry.box_rows
    _check(order, n // h, "a band order")
    rows = [order[r // h] * h + r % h for r in range(n)]
    return _cells(grid, [rows[r] * n + c for r in range(n) for c in range(n)])


def permute_stacks(grid: Sequence[int], geometry: Geometry, order: Sequence[int]) -> Grid:
    """Reorder the stacks (vertical columns of boxes): new stack i is old stack ``order[i]``."""
    n, w = geometry.side, geometry.box_cols
    _check(order, n // w, "a stack order")
    cols = [order[c // w] * w + c % w for c in range(n)]
    return _cells(grid, [r * n + cols[c] for r in range(n) for c in range(n)])


def permute_rows_in_band(grid: Sequence[int], geometry: Geometry, band: int,
                         order: Sequence[int]) -> Grid:
    """Reorder the rows of one band: its new row i is its old row ``order[i]``."""
    n, h = geometry.side, geometry.box_rows
    _check(order, h, "a row order")
    rows = list(range(n))
    for i, old in enumerate(order):
        rows[band * h + i] = band * h + old
    return _cells(grid, [rows[r] * n + c for r in range(n) for c in range(n)])


def apply(puzzle: Puzzle, grid: Sequence[int] | None, *, mapping: Sequence[int] | None = None,
          transposed: bool = False, bands: Sequence[int] | None = None,
          stacks: Sequence[int] | None = None) -> tuple[Puzzle, Grid | None]:
    """Apply the same transformations to a puzzle and (optionally) a grid such as its solution.

    Order: relabel, transpose, then permute bands and stacks of the transposed geometry.

    Raises:
        InvalidPuzzle: a transformation that would not map the puzzle's constraints onto
            themselves: relabelling with killer cages, even/odd cells or the non-consecutive
            rule; transposing or permuting a grid with regions, cages, parity or a layout;
            permuting bands or stacks under any whole-grid variant rule.
    """
    geometry = puzzle.geometry
    if not geometry.is_standard:
        _check_rules(geometry, mapping is not None, transposed or bands is not None
                     or stacks is not None, bands is not None or stacks is not None)
    grids = [puzzle.givens] + ([tuple(grid)] if grid is not None else [])
    if mapping is not None:
        grids = [relabel(g, mapping) for g in grids]
    if transposed:
        pairs = [transpose(g, geometry) for g in grids]
        grids, geometry = [p[0] for p in pairs], pairs[0][1]
    if bands is not None:
        grids = [permute_bands(g, geometry, bands) for g in grids]
    if stacks is not None:
        grids = [permute_stacks(g, geometry, stacks) for g in grids]
    return Puzzle(geometry, grids[0]), (grids[1] if grid is not None else None)


def _check_rules(geometry: Geometry, relabels: bool, moves: bool, permutes: bool) -> None:
    """Refuse the transformations of :func:`apply` that break a variant's constraints."""
    if relabels and geometry.features & ({"killer", "even-odd", "non-consecutive"} | RULE_KINDS):
        raise InvalidPuzzle(f"relabelling digits breaks the rules of {geometry.shape_name}")
    if moves and not geometry.is_plain:
        raise InvalidPuzzle(f"moving cells breaks the regions, cages, parity or layout of "
                            f"{geometry.shape_name}")
    if permutes and geometry.features:
        raise InvalidPuzzle(f"permuting bands or stacks breaks the rules of {geometry.shape_name}")
