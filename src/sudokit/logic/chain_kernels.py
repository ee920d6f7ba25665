"""Numba kernels for the expensive chain techniques: propagation by singles (forcing chains) and
the breadth-first walk of alternating inference chains.

The kernels repeat, on arrays, what the Python code of :mod:`sudokit.logic.dynamic` and
:mod:`sudokit.logic.chains` does, in the same order, so that every step found is the same
(the tests compare both on every state of many solves). They return numbers and paths only; the
Python side builds the one :class:`~sudokit.logic.step.Step` (texts, links, rating).

Arrays of a grid (:func:`grid_tables`, cached per geometry; C cells, U units, N digits):

* ``peers``: int32[C, P], each cell's peers ascending, padded with -1;
* ``sees``: uint8[C, C], 1 where two cells are peers;
* ``units``: int32[U, N], the cells of each unit;
* ``units_of``: int32[C, K], the units of each cell in :attr:`Geometry.units_of` order, padded
  with -1.

Candidate masks are int64 (bit d - 1 for digit d; the chain techniques run up to side 16).
Kernels compile on first use and are cached on disk (:mod:`sudokit.fast.cache` lists this
file's pattern, ``logic/chain_*.py``).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ..fast.state import jit
from ..geometry import Geometry

__all__ = ["GridTables", "digit_forcing_keys", "grid_tables", "propagate"]


class GridTables(NamedTuple):
    """The arrays of one grid the kernels read (see the module docstring)."""

    peers: np.ndarray
    sees: np.ndarray
    units: np.ndarray
    units_of: np.ndarray


@cache
def grid_tables(geometry: Geometry) -> GridTables:
    """Return the :class:`GridTables` of ``geometry`` (computed once per geometry)."""
    c = geometry.n_cells
    width = max((len(p) for p in geometry.peers), default=0)
    peers = np.full((c, max(width, 1)), -1, dtype=np.int32)
    sees = np.zeros((c, c), dtype=np.uint8)
    for cell, ps in enumerate(geometry.peers):
        peers[cell, :len(ps)] = sorted(ps)
        sees[cell, list(ps)] = 1
    units = np.asarray(geometry.units, dtype=np.int32).reshape(len(geometry.units),
                                                               geometry.side)
    k = max((len(u) for u in geometry.units_of), default=0)
    units_of = np.full((c, max(k, 1)), -1, dtype=np.int32)
    for cell, us in enumerate(geometry.units_of):
        units_of[cell, :len(us)] = us
    return GridTables(peers, sees, units, units_of)


@jit
def _pop(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@jit
def _low(m):
    i = 0
    while not (m >> i) & 1:
        i += 1
    return i


@jit
def propagate(masks0, values0, cell, d0, true, peers, units, units_of, n, masks, values,
              placed_wave, elim_wave, touched, pend_c, pend_d, unit_done):
    """Assume ``cell`` is (``true``) or is not digit ``d0 + 1``; apply basic eliminations,
    naked and hidden singles to a fixpoint, as :func:`sudokit.logic.dynamic.consequences`.

    Fills ``masks``, ``values`` (the fixpoint), ``placed_wave[c]`` (wave of the placement in
    ``c``, -1 if none), ``elim_wave[c * n + d]`` (wave of the elimination, -1 if none).
    ``touched`` (uint8[C]), ``pend_c``/``pend_d`` (int32[C * n]) and ``unit_done`` (uint8[U])
    are scratch. Returns ``(contradiction, waves)``.
    """
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
        # singles among the touched cells and in their units
        for u in range(unit_done.size):
            unit_done[u] = 0
        n_found = 0
        for c in range(c_count):
            if not touched[c]:
                continue
            m = masks[c]
            if not values[c] and m and not m & (m - 1):
                pend_c[n_found] = c
                pend_d[n_found] = _low(m)
                n_found += 1
        for c in range(c_count):
            if not touched[c]:
                continue
            for j in range(units_of.shape[1]):
                u = units_of[c, j]
                if u < 0:
                    break
                if unit_done[u]:
                    continue
                unit_done[u] = 1
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
                if _pop(once | placed) != n:
                    return True, wave
                single = once & ~twice & ~placed
                while single:
                    b = _low(single)
                    single &= single - 1
                    for i in range(n):
                        x = units[u, i]
                        if not values[x] and (masks[x] >> b) & 1:
                            pend_c[n_found] = x
                            pend_d[n_found] = b
                            n_found += 1
                            break
        for c in range(c_count):
            touched[c] = 0
        if n_found == 0:
            return False, wave
        n_pend = n_found
        for i in range(n_found):
            touched[pend_c[i]] = 1


@jit
def _common_two(masks0, values0, n, pw_a, val_a, ew_a, pw_b, val_b, ew_b):
    """``(count, waves)`` of what two live branches both imply, as
    :func:`sudokit.logic.techniques.forcing._common` counts it."""
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
def digit_forcing_keys(masks0, values0, peers, units, units_of, n, out_kind, out_waves,
                       out_count, masks, values, pw, ew, masks2, values2, pw2, ew2, touched,
                       pend_c, pend_d, unit_done):
    """For every candidate of every open cell (cells ascending, then digits), what
    :func:`sudokit.logic.techniques.forcing._digit_step` finds: ``out_kind`` 0 nothing,
    1 its truth is contradictory, 2 its falsehood is, 3 both outcomes share facts;
    ``out_waves`` the waves the step needs, ``out_count`` its placements and eliminations.
    Returns the number of candidates."""
    k = 0
    for cell in range(masks0.size):
        if values0[cell]:
            continue
        m = masks0[cell]
        for d in range(n):
            if not (m >> d) & 1:
                continue
            on_bad, on_waves = propagate(masks0, values0, cell, d, True, peers, units,
                                         units_of, n, masks, values, pw, ew, touched, pend_c,
                                         pend_d, unit_done)
            off_bad, off_waves = propagate(masks0, values0, cell, d, False, peers, units,
                                           units_of, n, masks2, values2, pw2, ew2, touched,
                                           pend_c, pend_d, unit_done)
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
