"""Kernels of the single-digit patterns of :mod:`sudokit.logic.techniques.single_digit`:
Turbot Fish (Skyscraper, 2-String Kite), Empty Rectangle and simple colouring, in the search
order of their Python finders, with the digit memo of
:func:`~sudokit.logic._ladder_kernel.first_found`.
"""

from __future__ import annotations

import numpy as np

from ...fast.bits import lowest_index, popcount
from ...fast.state import ONE, ZERO, jit
from ..kernels.common import bit_at, meet

__all__ = ["empty_rectangle", "simple_colouring", "turbot_fish"]


@jit
def _conjugate_pairs(units, places, d, pairs):
    """Fill ``pairs[k] = (unit, cell, cell)`` for the units where digit d+1 has exactly two
    places, in unit order; return how many."""
    count = 0
    for u in range(units.shape[0]):
        where = places[u, d]
        if popcount(where) == 2:
            pairs[count, 0] = u
            pairs[count, 1] = units[u, lowest_index(where)]
            pairs[count, 2] = units[u, lowest_index(where & (where - ONE))]
            count += 1
    return count


@jit
def _cells_with(masks, values, d, cells):
    """Fill ``cells`` with the open cells holding digit d+1, ascending; return how many."""
    bit = bit_at(d)
    count = 0
    for cell in range(masks.shape[0]):
        if values[cell] == 0 and masks[cell] & bit != ZERO:
            cells[count] = cell
            count += 1
    return count


@jit
def turbot_fish(units, ukind, places, sees, box_of, pairs, peer_bits, dbits, everywhere,
                memo, flag, out):
    """Two strong links on a digit whose near ends see each other and whose far ends do not,
    with a cell holding the digit that sees both far ends (as ``single_digit.turbot_fish``):
    the first Skyscraper (two rows or two columns) or 2-String Kite (a row and a column whose
    near ends share a box), else the first Turbot Fish, digits ascending. Fills ``out[1:8]``
    with (digit - 1, first unit, second unit, far end, near end, near end, far end). Digits
    whose ``memo`` (see :func:`first_found`) has ``flag`` are skipped; digits without any of
    these patterns get it."""
    found = False
    done = memo.shape[1] - 1
    for d in range(units.shape[1]):
        if memo[d, done] & flag != ZERO:
            continue
        n_pairs = _conjugate_pairs(units, places, d, pairs)
        if n_pairs < 2:
            memo[d, done] |= flag
            continue
        seen_here = False
        for i in range(n_pairs):
            p1, p2 = pairs[i, 1], pairs[i, 2]
            for j in range(i + 1, n_pairs):
                q1, q2 = pairs[j, 1], pairs[j, 2]
                if p1 == q1 or p1 == q2 or p2 == q1 or p2 == q2:
                    continue
                k1, k2 = ukind[pairs[i, 0]], ukind[pairs[j, 0]]
                for ea in range(2):
                    a, far_a = (p1, p2) if ea == 0 else (p2, p1)
                    for eb in range(2):
                        b, far_b = (q1, q2) if eb == 0 else (q2, q1)
                        if sees[a, b] == 0 or sees[far_a, far_b] != 0:
                            continue
                        if not meet(dbits[d], peer_bits[far_a], peer_bits[far_b],
                                    everywhere):
                            continue
                        seen_here = True
                        named = ((k1 == k2 and k1 <= 1)
                                 or (k1 + k2 == 1 and box_of[a] == box_of[b]))
                        if named or not found:
                            out[1] = d
                            out[2] = pairs[i, 0]
                            out[3] = pairs[j, 0]
                            out[4] = far_a
                            out[5] = a
                            out[6] = b
                            out[7] = far_b
                            found = True
                        if named:
                            return True
        if not seen_here:
            memo[d, done] |= flag
    return found


@jit
def _er_with_pair(grid, box, near, n_near, far, n_far, pairs, n_pairs, digit_bits, er_bits,
                  everywhere, out):
    """``grid.cell_units[c, 2]`` is the box of cell c (units are rows, columns, boxes, ...),
    ``grid.peer_bits`` the cells' peers; ``digit_bits``: the digit's open cells; ``er_bits``:
    uint64[4, W], the ends of its strong links, the cells outside the box, and scratch for the
    digit's cells outside the box seeing every far cell and the link ends outside it seeing
    every near cell (bitsets). The strong link found goes to ``out[6:8]`` (its end seeing the
    near cells, its other end)."""
    cell_units, peer_bits = grid.cell_units, grid.peer_bits
    ends, outside, targets, seeing = er_bits[0], er_bits[1], er_bits[2], er_bits[3]
    some_end = False
    some_target = False
    for w in range(targets.shape[0]):
        # the digit's cells outside the box seeing every far cell; the cells seeing every near
        targets[w] = digit_bits[w] & outside[w]
        for k in range(n_far):
            targets[w] &= peer_bits[far[k], w]
        seeing[w] = ends[w] & outside[w]
        for k in range(n_near):
            seeing[w] &= peer_bits[near[k], w]
        some_target = some_target or targets[w] != ZERO
        some_end = some_end or seeing[w] != ZERO
    if not (some_end and some_target):
        return False
    for k in range(n_pairs):
        p, q = pairs[k, 1], pairs[k, 2]
        if seeing[p >> 6] & bit_at(p & 63) == ZERO and seeing[q >> 6] & bit_at(q & 63) == ZERO:
            continue  # neither end sees the near cells
        if cell_units[p, 2] == box or cell_units[q, 2] == box:
            continue
        for e in range(2):
            x, y = (p, q) if e == 0 else (q, p)
            if seeing[x >> 6] & bit_at(x & 63) == ZERO:
                continue
            if meet(targets, peer_bits[y], everywhere, everywhere):
                out[6] = x
                out[7] = y
                return True
    return False


@jit
def empty_rectangle(grid, places, pairs, near, far, line_places, dbits, everywhere, bitsets,
                    memo, flag, out):
    """A box whose places for a digit lie on one row and one column, with a strong link
    outside the box (as ``single_digit.empty_rectangle``); boxes are units 2N..3N-1. Fills
    ``out[1:8]`` with (digit - 1, box, row, column, whether the near cells are the column's,
    strong link's ends). Digits whose ``memo`` (see :func:`first_found`) has ``flag`` are
    skipped; digits without an Empty Rectangle get it.

    ``grid``: the arrays of :class:`~sudokit.logic.ladder.LadderGrid` (units, cell_units,
    peer_bits, unit_bits); ``bitsets``: uint64[4, W] scratch (see :func:`_er_with_pair`).

    Long on purpose: boxes, rows and columns in the order of the Python finder."""
    units, cell_units, unit_bits = grid.units, grid.cell_units, grid.unit_bits
    side = units.shape[1]
    done = memo.shape[1] - 1
    for d in range(side):
        if memo[d, done] & flag != ZERO:
            continue
        n_pairs = _conjugate_pairs(units, places, d, pairs)
        if n_pairs == 0:
            memo[d, done] |= flag
            continue
        ends = bitsets[0]
        ends[:] = ZERO
        for k in range(n_pairs):
            for e in range(1, 3):
                ends[pairs[k, e] >> 6] |= bit_at(pairs[k, e] & 63)
        for box in range(2 * side, 3 * side):
            inside = places[box, d]
            if popcount(inside) < 2:
                continue
            outside = bitsets[1]
            for w in range(outside.shape[0]):
                outside[w] = ~unit_bits[box, w]
            lines = ZERO  # rows (bits 0..N-1) and columns (bits N..2N-1) the places lie on
            m = inside
            while m != ZERO:
                i = lowest_index(m)
                m &= m - ONE
                on_row = cell_units[units[box, i], 0]
                on_col = cell_units[units[box, i], 1]
                if lines & bit_at(on_row) == ZERO:
                    line_places[on_row] = 0
                if lines & bit_at(on_col) == ZERO:
                    line_places[on_col] = 0
                lines |= bit_at(on_row) | bit_at(on_col)
                line_places[on_row] |= np.int64(1) << i  # places (positions in the box) on lines
                line_places[on_col] |= np.int64(1) << i
            row_bits = lines & (bit_at(side) - ONE)
            while row_bits != ZERO:  # the rows, then the columns, of the places, ascending
                row = lowest_index(row_bits)
                row_bits &= row_bits - ONE
                on_row = line_places[row]
                col_bits = lines >> np.uint64(side)
                while col_bits != ZERO:
                    col = lowest_index(col_bits)
                    col_bits &= col_bits - ONE
                    on_col = line_places[side + col] & ~on_row
                    if on_col == 0 or (on_row | on_col) != np.int64(inside):
                        continue  # near cells: on the row; far: on the column, off the row
                    n_row = 0
                    n_col = 0
                    for i in range(side):
                        if (on_row >> i) & 1 != 0:
                            near[n_row] = units[box, i]
                            n_row += 1
                        elif (on_col >> i) & 1 != 0:
                            far[n_col] = units[box, i]
                            n_col += 1
                    out[1] = d
                    out[2] = box
                    out[3] = row
                    out[4] = col
                    out[5] = 0
                    if _er_with_pair(grid, box, near, n_row, far, n_col, pairs, n_pairs,
                                     dbits[d], bitsets, everywhere, out):
                        return True
                    out[5] = 1
                    if _er_with_pair(grid, box, far, n_col, near, n_row, pairs, n_pairs,
                                     dbits[d], bitsets, everywhere, out):
                        return True
        memo[d, done] |= flag
    return False


@jit
def simple_colouring(masks, values, units, places, sees, pairs, colour, stack, cells):
    """A component (over two cells) of a digit's conjugate-pair graph, two-coloured, with two
    cells of one colour seeing each other (wrap) or a cell outside it holding the digit that
    sees both colours (trap), as ``single_digit.simple_colouring``. On a consistent state the
    graph is bipartite, so the colouring (up to a swap) does not depend on the search order."""
    n_cells = masks.shape[0]
    for d in range(units.shape[1]):
        n_pairs = _conjugate_pairs(units, places, d, pairs)
        if n_pairs < 2:
            continue
        n_with = _cells_with(masks, values, d, cells)
        for c in range(n_cells):
            colour[c] = -1
        for k in range(n_pairs):
            start = pairs[k, 1]
            if colour[start] >= 0:
                continue
            colour[start] = 0
            stack[0] = start
            depth = 1
            size = 1
            while depth > 0:
                depth -= 1
                cell = stack[depth]
                for j in range(n_pairs):
                    if pairs[j, 1] == cell:
                        other = pairs[j, 2]
                    elif pairs[j, 2] == cell:
                        other = pairs[j, 1]
                    else:
                        continue
                    if colour[other] < 0:
                        colour[other] = 1 - colour[cell]
                        stack[depth] = other
                        depth += 1
                        size += 1
            if size > 2 and _wrap_or_trap(sees, colour, cells, n_with):
                return True
            for c in range(n_with):  # done: colours 2, 3 (earlier components)
                if colour[cells[c]] == 0 or colour[cells[c]] == 1:
                    colour[cells[c]] += 2
    return False


@jit
def _wrap_or_trap(sees, colour, cells, n_with):
    """Whether the component coloured 0/1 (among the digit's ``cells``) has a wrap or a
    trap (see :func:`simple_colouring`)."""
    for c in range(n_with):
        a = cells[c]
        if colour[a] == 0 or colour[a] == 1:
            for e in range(c + 1, n_with):
                b = cells[e]
                if colour[b] == colour[a] and sees[a, b] != 0:
                    return True
    for c in range(n_with):
        cell = cells[c]
        if colour[cell] == 0 or colour[cell] == 1:
            continue
        seen0 = False
        seen1 = False
        for e in range(n_with):
            other = cells[e]
            if colour[other] == 0 and sees[cell, other] != 0:
                seen0 = True
            elif colour[other] == 1 and sees[cell, other] != 0:
                seen1 = True
        if seen0 and seen1:
            return True
    return False
