"""Kernels of the singles (full house, hidden single, naked single), in the search order of
:mod:`sudokit.logic.techniques.singles`, and :func:`singles_chain`, which follows the singles
from a state.
"""

from __future__ import annotations

from ...fast.bits import lowest_index
from ...fast.state import jit
from ..kernels.common import bit_at, fill_places, is_single

__all__ = ["full_house", "hidden_single", "naked_single", "singles_chain"]


KIND_BOX = 2
"""``ukind`` of a box (0 row, 1 column, 2 box, 3 extra unit: :class:`~.units.UnitKind`)."""


@jit
def full_house(masks, values, units, out):
    n_units, side = units.shape
    for u in range(n_units):
        count = 0
        last = -1
        for i in range(side):
            if values[units[u, i]] == 0:
                count += 1
                last = units[u, i]
        if count == 1 and is_single(masks[last]):
            out[1] = u
            out[2] = last
            out[3] = lowest_index(masks[last]) + 1
            return True
    return False


@jit
def hidden_single(units, ukind, places, box, out):
    n_units, side = units.shape
    for u in range(n_units):
        if (ukind[u] == KIND_BOX) != box:
            continue
        for d in range(side):
            where = places[u, d]
            if is_single(where):
                out[1] = u
                out[2] = units[u, lowest_index(where)]
                out[3] = d + 1
                return True
    return False


@jit
def naked_single(masks, values, out):
    for cell in range(masks.shape[0]):
        if values[cell] == 0 and is_single(masks[cell]):
            out[1] = -1
            out[2] = cell
            out[3] = lowest_index(masks[cell]) + 1
            return True
    return False


@jit
def singles_chain(masks, values, units, ukind, sees, places, seq):
    """Follow the singles from a state: repeatedly take the first of full house, hidden single
    (box), hidden single (line), naked single, in that order (codes 1-4 of a ladder run), and
    place it as :meth:`~sudokit.logic.state.Candidates.place` does (the digit leaves the
    cell's peers); stop where no single applies or the grid is full.

    Args:
        masks: uint64[C], values: int16[C]: a copy of the state (modified).
        units, ukind, sees: as for :func:`first_found`; places: uint64[U, N] scratch.
        seq: int64[C, 4] filled with (code - 1, unit or -1, cell, digit) per single.

    Returns:
        the number of singles found.
    """
    n_cells = masks.shape[0]
    count = 0
    out = seq[0]
    while count < n_cells:
        fill_places(masks, values, units, places)
        out = seq[count]
        if full_house(masks, values, units, out):
            out[0] = 0
        elif hidden_single(units, ukind, places, True, out):
            out[0] = 1
        elif hidden_single(units, ukind, places, False, out):
            out[0] = 2
        elif naked_single(masks, values, out):
            out[0] = 3
        else:
            break
        count += 1
        cell = out[2]
        bit = bit_at(out[3] - 1)
        values[cell] = out[3]
        masks[cell] = bit
        for other in range(n_cells):
            if sees[cell, other] != 0:
                masks[other] &= ~bit
        full = True
        for other in range(n_cells):
            if values[other] == 0:
                full = False
                break
        if full:
            break
    return count
