"""Digit templates (pattern overlay) on the 9x9 engine's band words.

A digit's *template* is one of its 46,656 complete placements in a 9x9 grid: one cell per row,
column and box. A cell holds the digit in some solution only if it lies on a template inside
the digit's candidates, and a digit with no such template is a contradiction; this single-digit
rule subsumes every fish (X-wing, swordfish, jellyfish, finned fish). The overlay is cheap in
the band words of :mod:`sudokit.fast.nine` (bit ``9 * row_in_band + col``): in one band a
digit's three placements take one column per stack, a *column mask* (27 of them, index
``c0 + 3 * c1 + 9 * c2`` for column ``3 * s + c_s`` of stack s), and three bands' masks join
when every stack's three columns differ. The masks a band allows come from its nine mini-rows
(6 row-to-stack permutations); the join takes the eight turns of a mask set (each stack's column
moved by 1 or 2, modulo 3), bit-parallel.

The rule is the pattern overlay method (Sudopedia, "Pattern Overlay Method"); the split by
bands follows the band and stack permutations of JCZSolve (zhouyundong_2012). Measured in
docs/benchmarks.md, "Hard 9x9".
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from .bits import popcount
from .state import jit

__all__ = ["digit_templates", "overlay"]


def _template_tables() -> tuple[np.ndarray, ...]:
    """Build the tables of digit templates per band (int64). A column mask takes one column per
    stack: index ``c0 + 3 * c1 + 9 * c2`` for column ``3 * s + c_s`` of stack s (27 masks)."""
    index = [(c0, c1, c2) for c2 in range(3) for c1 in range(3) for c0 in range(3)]
    up = np.array([sum(1 << i for i, cs in enumerate(index) if cs[s] < 3 - by)
                   for s in range(3) for by in (1, 2)], np.int64)  # [6]: masks a turn moves up
    slices = np.array([sum(1 << i for i, cs in enumerate(index) if cs[s] == c)
                       for s in range(3) for c in range(3)], np.int64)  # [9]: masks with c_s = c
    stacks = np.array(list(permutations(range(3))), np.int64)  # [6, 3]: the stack of each row
    stack_sets = np.array([sum(1 << i for i, cs in enumerate(index) if a >> cs[s] & 1)
                           for s in range(3) for a in range(8)], np.int64)  # [24]: 8 * s + a
    return up, slices, stacks, stack_sets


TURN_UP, SLICE, PERM_STACK, STACK_SETS = _template_tables()


@jit
def _mini_rows(w):
    """Return, for a digit's band word, the column masks (27 bits, see the module docstring)
    compatible with each mini-row's candidates: entry ``3 * r + s`` for row r, stack s."""
    return (STACK_SETS[w & 7], STACK_SETS[8 + ((w >> 3) & 7)], STACK_SETS[16 + ((w >> 6) & 7)],
            STACK_SETS[(w >> 9) & 7], STACK_SETS[8 + ((w >> 12) & 7)],
            STACK_SETS[16 + ((w >> 15) & 7)], STACK_SETS[(w >> 18) & 7],
            STACK_SETS[8 + ((w >> 21) & 7)], STACK_SETS[16 + ((w >> 24) & 7)])


@jit
def _band_masks(g):
    """Return the column masks (27 bits) a digit's placements in a band can take (one cell per
    row, the three rows in different stacks), from its :func:`_mini_rows` ``g``."""
    return (g[0] & g[4] & g[8] | g[0] & g[5] & g[7] | g[1] & g[3] & g[8]
            | g[1] & g[5] & g[6] | g[2] & g[3] & g[7] | g[2] & g[4] & g[6])


@jit
def _band_keep(g, feasible):
    """Return the band cells (27 bits) in some placement whose column mask is in ``feasible``,
    from the band's :func:`_mini_rows` ``g``."""
    keep = 0
    for p in range(6):
        s0, s1, s2 = PERM_STACK[p, 0], PERM_STACK[p, 1], PERM_STACK[p, 2]
        q = g[s0] & g[3 + s1] & g[6 + s2] & feasible
        if q == 0:
            continue
        for r, st in ((0, s0), (1, s1), (2, s2)):
            for c in range(3):
                if q & SLICE[3 * st + c] != 0:
                    keep |= np.int64(1) << (9 * r + 3 * st + c)
    return keep


@jit
def _turn(x, coord, by):
    """Return the column masks ``x`` (27 bits) with coordinate ``coord`` (stack 0-2) of each
    moved by ``by`` (1 or 2) modulo 3."""
    unit = 1 if coord == 0 else 3 if coord == 1 else 9
    up = TURN_UP[2 * coord + by - 1]
    return (x & up) << (by * unit) | (x & ~up) >> ((3 - by) * unit)


@jit
def _rotations(x):
    """Return the eight turns of the column masks ``x``: entry k moves coordinate s by 1 + bit s
    of k (the column mask of another band with a different column in every stack)."""
    a, b = _turn(x, 0, 1), _turn(x, 0, 2)
    c, d, e, f = _turn(a, 1, 1), _turn(b, 1, 1), _turn(a, 1, 2), _turn(b, 1, 2)
    return (_turn(c, 2, 1), _turn(d, 2, 1), _turn(e, 2, 1), _turn(f, 2, 1),
            _turn(c, 2, 2), _turn(d, 2, 2), _turn(e, 2, 2), _turn(f, 2, 2))


@jit
def overlay(w0, w1, w2):
    """Keep the cells of a digit's three band words (int64, 27 bits each) that lie on one of its
    templates.

    Returns:
        The three narrowed band words; the first is -1 if the digit has no template (a
        contradiction).
    """
    g0, g1, g2 = _mini_rows(w0), _mini_rows(w1), _mini_rows(w2)
    m0, m1, m2 = _band_masks(g0), _band_masks(g1), _band_masks(g2)
    r0, r1, r2 = _rotations(m0), _rotations(m1), _rotations(m2)
    f0 = f1 = f2 = 0
    for k in range(8):  # band 1 at band 0 turned by k, band 2 at band 0 turned by 7 - k
        f0 |= r1[7 - k] & r2[k]
        f1 |= r0[k] & r2[7 - k]
        f2 |= r0[7 - k] & r1[k]
    f0 &= m0
    if f0 == 0:
        return np.int64(-1), w1, w2
    f1 &= m1
    f2 &= m2
    return (w0 if f0 == m0 else _band_keep(g0, f0), w1 if f1 == m1 else _band_keep(g1, f1),
            w2 if f2 == m2 else _band_keep(g2, f2))


@jit
def _count(x):
    return popcount(np.uint64(x))


@jit
def digit_templates(s, u0, u1, u2, prev, fresh):
    """Apply :func:`overlay` to the digits of a 9x9 engine state (int64 words; digit d's band
    words at ``s[3 * d + b]``, narrowed in place) with 8 or more unsolved cells (``u0``, ``u1``,
    ``u2``: the unsolved cells of each band; fewer never lose one) and, unless ``fresh``, band
    words unlike ``prev``'s (the state of the choice point above, templated there).

    Returns:
        (removed, narrowed): the candidates removed (-1 on a contradiction) and the digits
        that lost some (bit d).
    """
    removed = narrowed = 0
    for d in range(9):
        w0, w1, w2 = s[3 * d], s[3 * d + 1], s[3 * d + 2]
        if _count(w0 & u0) + _count(w1 & u1) + _count(w2 & u2) < 8 or not (
                fresh or w0 != prev[3 * d] or w1 != prev[3 * d + 1] or w2 != prev[3 * d + 2]):
            continue
        n0, n1, n2 = overlay(w0, w1, w2)
        if n0 < 0:
            return -1, narrowed
        k = _count(w0 ^ n0) + _count(w1 ^ n1) + _count(w2 ^ n2)
        if k != 0:
            s[3 * d], s[3 * d + 1], s[3 * d + 2] = n0, n1, n2
            removed += k
            narrowed |= 1 << d
    return removed, narrowed
