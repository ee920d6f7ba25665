"""Kernels of the dynamic forcing chains: a candidate assumed true or false, followed by singles
to a fixpoint (:func:`assume_candidate`, the compiled
:func:`sudokit.logic.chains.dynamic.consequences`), and the searches of
:mod:`sudokit.logic.chains.forcing` over every candidate, cell or unit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...fast.state import jit
from ..kernels.common import count_bits, lowest_bit

__all__ = ["Branch", "ForcingGrid", "SinglesScratch", "assume_candidate", "digit_forcing_keys",
           "forcing_best", "singles"]


class ForcingGrid(NamedTuple):
    """A grid's tables for these kernels (:func:`sudokit.logic.tables.grid_tables`; C cells,
    U units of N cells).

    Attributes:
        peers: int64[C, P] each cell's peers, padded with -1.
        units: int64[U, N] the cells of each unit.
        units_of: int64[C, K] each cell's units, padded with -1.
        n: the grid's side N.
    """

    peers: np.ndarray
    units: np.ndarray
    units_of: np.ndarray
    n: int


class Branch(NamedTuple):
    """One assumption's fixpoint, filled by :func:`assume_candidate`.

    Attributes:
        masks: int64[C] candidates per cell; values: int64[C] digits (0 open).
        placed_wave: int64[C] the wave of each cell's placement, -1 if none.
        elim_wave: int64[C * N] the wave of each elimination (cell * N + digit - 1), -1 if none.
    """

    masks: np.ndarray
    values: np.ndarray
    placed_wave: np.ndarray
    elim_wave: np.ndarray


class SinglesScratch(NamedTuple):
    """The work arrays of :func:`assume_candidate`.

    Attributes:
        touched: uint8[C].
        pend_c, pend_d: int32[C * N + U * N + C] each, room for one wave's singles.
        unit_done: uint8[U].
    """

    touched: np.ndarray
    pend_c: np.ndarray
    pend_d: np.ndarray
    unit_done: np.ndarray


@jit
def assume_candidate(masks0, values0, cell, d0, true, grid, branch, scratch):
    """Assume ``cell`` is (``true``) or is not digit ``d0 + 1``; apply basic eliminations,
    naked and hidden singles to a fixpoint, as :func:`sudokit.logic.chains.dynamic.consequences`.

    ``grid``, ``branch`` and ``scratch``: a :class:`ForcingGrid`, :class:`Branch` (filled with
    the fixpoint) and :class:`SinglesScratch` as plain tuples. Returns ``(contradiction,
    waves)``.

    Long on purpose: one loop of waves, whose order decides what each wave records.
    """
    peers, units, units_of, n = grid
    masks, values, placed_wave, elim_wave = branch
    touched, pend_c, pend_d, unit_done = scratch
    c_count = masks0.size
    for i in range(c_count):
        masks[i] = masks0[i]
        values[i] = values0[i]
        placed_wave[i] = -1
        touched[i] = 0
    for i in range(c_count * n):
        elim_wave[i] = -1
    n_pend = 0
    if true:
        pend_c[0] = cell
        pend_d[0] = d0
        n_pend = 1
    else:
        masks[cell] &= ~(1 << d0)
        elim_wave[cell * n + d0] = 0
        if masks[cell] == 0:
            return True, 0
    touched[cell] = 1
    wave = 0
    while True:
        wave += 1
        while n_pend > 0:
            n_pend -= 1
            c = pend_c[n_pend]
            d = pend_d[n_pend]
            if values[c]:
                if values[c] != d + 1:
                    return True, wave
                continue
            bit = 1 << d
            if not masks[c] & bit:
                return True, wave
            values[c] = d + 1
            masks[c] = bit
            placed_wave[c] = wave
            for j in range(peers.shape[1]):
                p = peers[c, j]
                if p < 0:
                    break
                if masks[p] & bit:
                    if values[p]:
                        return True, wave
                    masks[p] &= ~bit
                    elim_wave[p * n + d] = wave
                    touched[p] = 1
                    if masks[p] == 0:
                        return True, wave
        n_found = singles(masks, values, touched, units, units_of, n, pend_c, pend_d,
                          unit_done)
        if n_found < 0:
            return True, wave
        if n_found == 0:
            return False, wave
        n_pend = n_found
        for i in range(n_found):
            touched[pend_c[i]] = 1


@jit
def singles(masks, values, touched, units, units_of, n, pend_c, pend_d, unit_done):
    """Naked singles among the touched cells, then hidden singles in their units, into the
    pending arrays; the touched cells cleared (one wave of :func:`assume_candidate` and of
    :func:`sudokit.logic.chains._settle_kernel.settle`). Returns how many, or -1 on a unit
    without a place for a digit."""
    c_count = masks.size
    for u in range(unit_done.size):
        unit_done[u] = 0
    n_found = 0
    for c in range(c_count):
        if not touched[c]:
            continue
        m = masks[c]
        if not values[c] and m and not m & (m - 1):
            pend_c[n_found] = c
            pend_d[n_found] = lowest_bit(m)
            n_found += 1
        for j in range(units_of.shape[1]):
            u = units_of[c, j]
            if u < 0:
                break
            unit_done[u] = 1
        touched[c] = 0
    for u in range(unit_done.size):
        if not unit_done[u]:
            continue
        once = 0
        twice = 0
        placed = 0
        for i in range(n):
            x = units[u, i]
            if values[x]:
                placed |= masks[x]
                continue
            twice |= once & masks[x]
            once |= masks[x]
        if count_bits(once | placed) != n:
            return -1
        single = once & ~twice & ~placed
        while single:
            b = lowest_bit(single)
            single &= single - 1
            for i in range(n):
                x = units[u, i]
                if not values[x] and (masks[x] >> b) & 1:
                    pend_c[n_found] = x
                    pend_d[n_found] = b
                    n_found += 1
                    break
    return n_found


@jit
def _common_two(masks0, values0, n, pw_a, val_a, ew_a, pw_b, val_b, ew_b):
    """``(count, waves)`` of what two live branches both imply, as
    :func:`sudokit.logic.chains.forcing._common` counts it."""
    count = 0
    waves = 0
    c_count = masks0.size
    for c in range(c_count):
        if values0[c]:
            continue
        if pw_a[c] >= 0 and pw_b[c] >= 0 and val_a[c] == val_b[c]:
            count += 1
            waves = max(waves, pw_a[c], pw_b[c])
            continue  # every elimination in a placed cell is left out
        m = masks0[c]
        for d in range(n):
            if not (m >> d) & 1:
                continue
            wa = ew_a[c * n + d]
            wb = ew_b[c * n + d]
            if wa >= 0 and wb >= 0:
                count += 1
                waves = max(waves, wa, wb)
    return count, waves


@jit
def digit_forcing_keys(masks0, values0, grid, out, on, off, scratch):
    """For every candidate of every open cell (cells ascending, then digits), what
    :func:`sudokit.logic.chains.forcing._digit_step` finds, in ``out`` (int64[K] each):
    ``out_kind`` 0 nothing, 1 its truth is contradictory, 2 its falsehood is, 3 both outcomes
    share facts; ``out_waves`` the waves the step needs, ``out_count`` its placements and
    eliminations. ``grid``, ``on``, ``off`` and ``scratch``: as :func:`assume_candidate`
    takes them (``on``/``off``: the two outcomes' :class:`Branch`). Returns the number of
    candidates."""
    n = grid[3]
    out_kind, out_waves, out_count = out
    _masks, values, pw, ew = on
    _masks2, values2, pw2, ew2 = off
    k = 0
    for cell in range(masks0.size):
        if values0[cell]:
            continue
        m = masks0[cell]
        for d in range(n):
            if not (m >> d) & 1:
                continue
            on_bad, on_waves = assume_candidate(masks0, values0, cell, d, True, grid, on,
                                                scratch)
            off_bad, off_waves = assume_candidate(masks0, values0, cell, d, False, grid, off,
                                                  scratch)
            kind = 0
            waves = 0
            count = 0
            if on_bad and (not off_bad or on_waves <= off_waves):
                kind, waves, count = 1, on_waves, 1
            elif off_bad:
                kind, waves, count = 2, off_waves, 1
            else:
                count, waves = _common_two(masks0, values0, n, pw, values, ew, pw2, values2,
                                           ew2)
                if count:
                    kind = 3
            out_kind[k] = kind
            out_waves[k] = waves
            out_count[k] = count
            k += 1
    return k


@jit
def _common_many(masks0, values0, n, k, bad, pw, val, ew):
    """``(count, waves)`` of what every live branch of ``k`` implies (branch b: ``bad[b]``
    contradiction, ``pw[b]``, ``val[b]``, ``ew[b]`` as :func:`assume_candidate` fills them), as
    :func:`sudokit.logic.chains.forcing._common` counts it."""
    count = 0
    waves = 0
    live = 0
    for b in range(k):
        if not bad[b]:
            live += 1
    if live == 0:
        return 0, 0
    for c in range(masks0.size):
        if values0[c]:
            continue
        placed = True
        digit = -1
        w = 0
        for b in range(k):
            if bad[b]:
                continue
            if pw[b, c] < 0 or (digit >= 0 and val[b, c] != digit):
                placed = False
                break
            digit = val[b, c]
            w = max(w, pw[b, c])
        if placed:
            count += 1
            waves = max(waves, w)
            continue  # every elimination in a placed cell is left out
        m = masks0[c]
        for d in range(n):
            if not (m >> d) & 1:
                continue
            every = True
            w = 0
            for b in range(k):
                if bad[b]:
                    continue
                if ew[b, c * n + d] < 0:
                    every = False
                    break
                w = max(w, ew[b, c * n + d])
            if every:
                count += 1
                waves = max(waves, w)
    return count, waves


@jit
def forcing_best(by_unit, masks0, values0, grid, branches, scratch):
    """The cell forcing chain (``by_unit`` False: every candidate of a cell) or unit forcing
    chain (True: every place of a digit in a unit) of fewest waves that implies something,
    first in order (cells ascending; units, then digits), as
    :func:`sudokit.logic.chains.forcing.cell_forcing_chain` and ``unit_forcing_chain``
    find it. ``branches``: ``(pw, val, ew, bad, masks)``, scratch: int64[N, C] twice,
    int64[N, C * N], uint8[N], int64[C]; ``grid`` and ``scratch`` as :func:`assume_candidate`
    takes them. Returns ``(cell or unit * N + digit - 1, waves)`` or ``(-1, 0)``."""
    units, n = grid[1], grid[3]
    pw, val, ew, bad, masks = branches
    best = -1
    best_waves = 0
    if by_unit:
        for u in range(units.shape[0]):
            for d in range(n):
                k = 0
                for i in range(n):
                    c = units[u, i]
                    if not values0[c] and (masks0[c] >> d) & 1:
                        k += 1
                if k < 2:
                    continue
                b = 0
                for i in range(n):
                    c = units[u, i]
                    if not values0[c] and (masks0[c] >> d) & 1:
                        bad[b], _w = assume_candidate(masks0, values0, c, d, True, grid,
                                                      (masks, val[b], pw[b], ew[b]), scratch)
                        b += 1
                count, waves = _common_many(masks0, values0, n, k, bad, pw, val, ew)
                if count and (best < 0 or waves < best_waves):
                    best = u * n + d
                    best_waves = waves
    else:
        for c in range(masks0.size):
            if values0[c]:
                continue
            k = 0
            for d in range(n):
                if (masks0[c] >> d) & 1:
                    bad[k], _w = assume_candidate(masks0, values0, c, d, True, grid,
                                                  (masks, val[k], pw[k], ew[k]), scratch)
                    k += 1
            count, waves = _common_many(masks0, values0, n, k, bad, pw, val, ew)
            if count and (best < 0 or waves < best_waves):
                best = c
                best_waves = waves
    return best, best_waves
