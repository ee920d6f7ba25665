"""WXYZ-Wing and VWXYZ-Wing: an almost locked set joined to a bivalue cell (Sukaku Explainer).

An almost locked set (ALS) is n cells of one unit holding n + 1 digits. With a bivalue cell
{x,z} outside it whose two digits both lie in the ALS, where every ALS cell holding x sees the
bivalue cell (x is a *restricted common*): if the bivalue cell is not x it is z, and if it is x
the ALS loses x and is locked, so it holds z. Either way z is in the bivalue cell or in the ALS:
z leaves every cell seeing the bivalue cell and all the ALS cells holding z. When z is restricted
too (doubly linked), x leaves the cells seeing its places in both, and every other ALS digit
leaves the cells seeing all its places in the ALS (the ALS is then locked).

n = 3 is the WXYZ-Wing, n = 4 the VWXYZ-Wing; both are ALS-XZ (Hobiwan 2008) with a bivalue cell
as the smaller set. Ratings are Sukaku Explainer's (SudokuMonster 2019, ``WXYZWingHint`` and
``VWXYZWingHint``): base 5.5 (n = 3) or 6.2 (n = 4), plus 0.1 * ((n - 2) - |3 - b|), b the
largest candidate count of an ALS cell: WXYZ-Wing 5.5 (b = 2 or 4) or 5.6 (b = 3); VWXYZ-Wing
6.2 to 6.4. The easiest pattern is reported, then the one with the most eliminations.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...compiled import Kernels, twin
from ...errors import SolverBug
from ..registry import technique
from ..state import Board, bits, digits_of
from ..step import Step, cells_text, eliminations_text
from .als import Als, almost_locked_sets, als_arrays, als_of

__all__ = ["als_wing", "als_wing_rating", "vwxyz_wing", "wxyz_wing"]

BASE = {3: 5.5, 4: 6.2}
NAMES = {3: "WXYZ-Wing", 4: "VWXYZ-Wing"}


def als_wing_rating(size: int, biggest: int) -> float:
    """Sukaku Explainer's rating of an ALS wing of ``size`` ALS cells whose largest cell holds
    ``biggest`` candidates (see the module docstring)."""
    return round(BASE[size] + 0.1 * ((size - 2) - abs(3 - biggest)), 1)


def _restricted(board: Board, als: Als, pivot: int, d0: int) -> bool:
    """Whether every ALS cell holding ``d0 + 1`` sees ``pivot``."""
    return als.places[d0] & ~board.peer_masks[pivot] == 0


def _wing_eliminations(board: Board, als: Als, pivot: int, x: int, z: int,
                       double: bool) -> list[tuple[int, int]]:
    pattern = als.cells | (1 << pivot)
    out: set[tuple[int, int]] = set()
    for d0 in ((x, z) if double else (z,)):
        seen = (board.cells_of[d0] & board.peer_masks[pivot]
                & board.common_peers(als.places[d0]) & ~pattern)
        out.update((c, d0 + 1) for c in bits(seen))
    if double:
        for d0 in bits(als.digits & ~((1 << x) | (1 << z))):
            seen = board.cells_of[d0] & board.common_peers(als.places[d0]) & ~pattern
            out.update((c, d0 + 1) for c in bits(seen))
    return sorted(out)


@twin(Kernels.LOGIC, "sudokit.logic.techniques._als_wings_kernel:als_wing_best",
      "sudokit.logic.techniques.als_wings:_wing", "wings")
def als_wing(board: Board, size: int) -> Step | None:
    """Find the easiest ALS wing with an ALS of ``size`` cells (see module docstring)."""
    masks = board.masks
    arrays = als_arrays(board)
    if arrays is not None:  # compiled, same order and tests
        from ._als_wings_kernel import als_wing_best

        index, pivot = als_wing_best(arrays.cells, arrays.digits, arrays.n_sets, size,
                                     arrays.masks, arrays.values, arrays.sees, arrays.peers,
                                     _ratings(size, board.side), board.side, arrays.bivalue)
        if index < 0:
            return None
        als = als_of(board, arrays, index)
        biggest = max(masks[c].bit_count() for c in bits(als.cells))
        found = _wing(board, size, als, pivot, als_wing_rating(size, biggest))
        if found is None:
            raise SolverBug(f"the compiled {NAMES[size]} search found a wing that "
                            "als_wing does not")
        return found[1]
    by_pair: dict[int, list[int]] = {}  # bivalue cells by their candidates
    for c in board.open_cells:
        if masks[c].bit_count() == 2:
            by_pair.setdefault(masks[c], []).append(c)
    if not by_pair:
        return None
    best: tuple[tuple[float, int], Step] | None = None
    for als in almost_locked_sets(board, size, size):
        biggest = max(masks[c].bit_count() for c in bits(als.cells))
        rating = als_wing_rating(size, biggest)
        if best is not None and rating > best[0][0]:
            continue
        pivots = sorted(c for pair, cells in by_pair.items() if not pair & ~als.digits
                        for c in cells if not als.cells >> c & 1)
        for pivot in pivots:
            found = _wing(board, size, als, pivot, rating)
            if found is not None and (best is None or found[0] < best[0]):
                best = found
    return best[1] if best else None


@cache
def _ratings(size: int, side: int) -> np.ndarray:
    """float64[side + 1]: the rating of a wing of ``size`` ALS cells whose largest cell holds
    b candidates, at index b."""
    return np.asarray([als_wing_rating(size, b) if b else 0.0 for b in range(side + 1)],
                      dtype=np.float64)


def _wing(board: Board, size: int, als: Als, pivot: int, rating: float
          ) -> tuple[tuple[float, int], Step] | None:
    """The wing of ``als`` and the bivalue cell ``pivot`` (its sort key and step), or None
    when no digit is restricted or nothing is eliminated."""
    d1, d2 = bits(board.masks[pivot])
    r1, r2 = _restricted(board, als, pivot, d1), _restricted(board, als, pivot, d2)
    if not (r1 or r2):
        return None
    x, z = (d1, d2) if r1 else (d2, d1)
    eliminations = _wing_eliminations(board, als, pivot, x, z, r1 and r2)
    if not eliminations:
        return None
    return ((rating, -len(eliminations)),
            _step(board, size, als, pivot, x, z, r1 and r2, rating, eliminations))


def _step(board: Board, size: int, als: Als, pivot: int, x: int, z: int, double: bool,
          rating: float, eliminations: list[tuple[int, int]]) -> Step:
    g = board.geometry

    def text() -> str:
        digits = g.symbols(digits_of(als.digits))
        sx, sz = g.symbol(x + 1), g.symbol(z + 1)
        link = (f"{sx} and {sz} restricted (doubly linked)" if double
                else f"{sx} restricted, so {sz} is in one of them")
        return (f"ALS {cells_text(g, bits(als.cells))} {{{digits}}} and {g.label(pivot)} "
                f"{{{sx}{sz}}}: {link}: {eliminations_text(g, eliminations)}")

    return Step(NAMES[size], rating, text,
                eliminations=tuple(eliminations), cells=tuple(sorted(bits(als.cells | 1 << pivot))),
                digits=tuple(digits_of(als.digits)))


@technique("WXYZ-Wing", BASE[3], max_side=16)
def wxyz_wing(board: Board) -> Step | None:
    """A three-cell ALS and a bivalue cell sharing a restricted common digit."""
    return als_wing(board, 3)


@technique("VWXYZ-Wing", BASE[4], max_side=16)
def vwxyz_wing(board: Board) -> Step | None:
    """A four-cell ALS and a bivalue cell sharing a restricted common digit."""
    return als_wing(board, 4)
