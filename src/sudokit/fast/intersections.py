"""Sums that cover a unit: the cells they hold outside it have a known total (the "45 rule"
with any sum as a piece, not only killer cages).

Every unit of an N x N grid holds the digits 1..N once, so it sums to ``N(N+1)/2``. When sums
of distinct digits or repeated ones (killer cages, little killers, any drawn sum with every
coefficient 1) that do not overlap cover a unit U, with the gaps filled by whole other units
that fit inside them, the cells they hold outside U sum to their totals minus ``N(N+1)/2``
(and minus any whole unit those outside cells still contain). Hailstone's little killers
crossing one diagonal give a sum of 81 over 12 cells, which cuts its search by a factor of five
in sigh's Interactive Sudoku Solver.

This is the construction of ISS (``js/solver/optimizer.js``, ``_makeHiddenCageHandlers`` and
``_addSumIntersectionHandler``: the pieces per unit chosen greedily, those overlapping the
fewest others first; a sum kept only when it is tight: the spread of its cells' possible
totals more than four times its distance to the nearer bound); this code is sudokit's own.
The sums are implied by the rules, so no solution is lost: they are redundant rows of the
compiled engine (:func:`sudokit.fast.drawn.drawn_for`), never checked or reported.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.geometry import Geometry
from ..model.rules import WeightedSum

__all__ = ["TIGHTNESS", "sum_intersections"]

TIGHTNESS = 4
"""A sum is kept when the spread of its cells' possible totals is more than this many times
the distance from its total to the nearer bound (ISS's rule)."""

_Piece = tuple[int, int]  # a sum's cells (a bit per cell) and total


def _mask(cells: Sequence[int]) -> int:
    return sum(1 << c for c in cells)


def _pieces(geometry: Geometry) -> list[_Piece]:
    """The killer cages, then the drawn sums whose coefficients are all 1, in order."""
    found = [(_mask(cage.cells), cage.total) for cage in geometry.cages]
    for rule in geometry.constraints:
        if isinstance(rule, WeightedSum) and all(k == 1 for k in rule.coefficients):
            found.append((_mask(rule.cells), rule.total))
    return found


def _disjoint(pieces: list[_Piece]) -> list[_Piece]:
    """A subset of ``pieces`` that do not overlap: those overlapping the fewest of the others
    first (greedy; stable on ties)."""
    overlaps = [sum(1 for b in pieces if a[0] & b[0]) for a in pieces]
    chosen: list[_Piece] = []
    used = 0
    for k in sorted(range(len(pieces)), key=overlaps.__getitem__):
        cells = pieces[k][0]
        if not cells & used:
            chosen.append(pieces[k])
            used |= cells
    return chosen


def _bounds(cells: Sequence[int], geometry: Geometry) -> tuple[int, int]:
    """The least and largest total of ``cells`` (cells that see each other hold distinct
    digits: each clique of a first-fit split counts ``1 + 2 + ... + s`` at least)."""
    side = geometry.side
    cliques: list[list[int]] = []
    for c in cells:
        home = next((q for q in cliques if all(d in geometry.peers[c] for d in q)), None)
        if home is None:
            cliques.append([c])
        else:
            home.append(c)
    low = sum(len(q) * (len(q) + 1) // 2 for q in cliques)
    return low, low + sum((side - len(q)) * len(q) for q in cliques)


def _outside(unit: int, pieces: list[_Piece], houses: list[int], unit_sum: int
             ) -> _Piece | None:
    """The cells the pieces crossing ``unit`` hold outside it, and their total, or None when
    those pieces (with gaps filled by whole houses) do not cover the unit (cells as bits)."""
    crossing = _disjoint([p for p in pieces if p[0] & unit])
    if not crossing:
        return None
    cells = total = 0
    for piece, piece_total in crossing:
        cells |= piece
        total += piece_total
    gap = unit & ~cells
    for house in houses:
        if not gap:
            break
        inside = house & unit
        if house & cells or inside.bit_count() < 2 or inside & ~gap:
            continue
        cells |= house
        total += unit_sum
        gap &= ~house
    if gap:
        return None
    cells &= ~unit
    total -= unit_sum
    for house in houses:
        if house & ~cells == 0:
            cells &= ~house
            total -= unit_sum
    return (cells, total) if cells else None


def sum_intersections(geometry: Geometry) -> tuple[WeightedSum, ...]:
    """The tight sums (see :data:`TIGHTNESS`) of the cells that the sums crossing each unit
    hold outside it, one per cell set (in unit order).

    Args:
        geometry: a grid with killer cages or drawn sums (others give no sums).

    Returns:
        Weighted sums with every coefficient 1, named ``"sum intersection"``.
    """
    pieces = _pieces(geometry)
    if not pieces:
        return ()
    side = geometry.side
    unit_sum = side * (side + 1) // 2
    houses = [_mask(u) for u in geometry.units if len(u) == side]
    found: dict[int, WeightedSum] = {}
    for unit in houses:
        outside = _outside(unit, pieces, houses, unit_sum)
        if outside is None or outside[0] in found:
            continue
        cells, total = outside
        order = [c for c in range(cells.bit_length()) if cells >> c & 1]
        low, high = _bounds(order, geometry)
        slack = min(total - low, high - total)
        if high > low and high - low > TIGHTNESS * slack:
            found[cells] = WeightedSum(tuple(order), (1,) * len(order), total,
                                       "sum intersection")
    return tuple(found.values())
