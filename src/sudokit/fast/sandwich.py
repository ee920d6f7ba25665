"""The sandwich clue's own propagator: where the 1 and the N can stand and which digits fill
the cells between them, on candidate masks, without the rule's automaton.

A sandwich clue reads a whole row or column of an N x N grid (its N cells see each other, so
they hold 1..N once each): the digits strictly between the 1 and the N add up to the clue.
The clue fixes the possible fillings: the sets ``c`` of digits from 2..N-1 that add up to the
total (:func:`~sudokit.fast.drawn.sandwich_combinations`, a few per clue, built once per (total, N)). A filling of
``k`` digits puts the crusts (1 and N, either way round) ``k + 1`` cells apart, and the line
then holds ``c`` inside the crusts and the rest of 2..N-1 outside them. A placement (the first
crust's position ``i``, the filling ``c``, the crusts' order) is kept when

* the two crust cells can take their crusts;
* every cell between them can take a digit of ``c`` and together they can take all of ``c``;
* every cell outside can take a digit of the rest and together they can take all of it;

and each cell keeps the digits of the kept placements that can stand there (its crust, its
part of ``c`` or of the rest). This is the combination method of killer cages (each cell in
some combination, the combination covered) applied to the two parts of the line, as sigh's
Interactive Sudoku Solver's ``Lunchbox`` handler does (which checks the outside by a count of
its digits only); a line that breaks the clue leaves some cell without a digit.

Ten to twenty fillings x N positions x 2 parts: a few microseconds a call, where the regular
filter over the rule's product with the digits read so far (:mod:`sudokit.fast.automata`,
which this replaces on such lines) walked about 900 states a clue. It is weaker than that
product's filter only where a Hall set inside one part decides (two cells between the crusts
that can hold only one digit of ``c`` between them): the unit's own singles see most of those.

:func:`sandwich_support` is the compiled filter (the engine's, :mod:`sudokit.fast.lines`);
:func:`supports_reference` says the same in plain Python (the specification and the test
oracle); :func:`sandwich_supports` runs one or the other (``tests/test_twins.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from ..compiled import Kernels, twin, use_compiled
from .bits import popcount
from .drawn import sandwich_combinations
from .state import ONE, ZERO, jit

__all__ = ["sandwich_support", "sandwich_supports", "supports_reference"]


@jit
def sandwich_support(cand, cells, first, n, combos, c_first, c_last, out):
    """The filter of one sandwich clue (see the module docstring).

    Args:
        cand: uint64[...] candidate masks, read at ``cells[first:first + n]``.
        cells: int32[...] the line's cells from the clue.
        first: where the line starts in ``cells``.
        n: the line's length, which is N (the crusts are digits 1 and n).
        combos: uint64[...] the clue's fillings (:func:`~sudokit.fast.drawn.
            sandwich_combinations`) at
            ``c_first:c_last``.
        out: uint64[>= n] written: per cell of the line, the digits it keeps.

    Returns:
        False when some cell keeps no digit (no placement is left), else True.
    """
    low = ONE
    high = ONE << np.uint64(n - 1)
    mid = (~ZERO >> np.uint64(64 - n)) & ~(low | high)
    for p in range(n):
        out[p] = ZERO
    for q in range(c_first, c_last):
        c = combos[q]
        rest = mid & ~c
        span = popcount(c) + 1
        for i in range(n - span):
            j = i + span
            a = cand[cells[first + i]]
            b = cand[cells[first + j]]
            up = a & low != ZERO and b & high != ZERO  # 1 first, then N
            down = a & high != ZERO and b & low != ZERO
            if not (up or down) or _part(cand, cells, first, i + 1, j, c) != c:
                continue
            before = _part(cand, cells, first, 0, i, rest)
            after = _part(cand, cells, first, j + 1, n, rest)
            if before == ~ZERO or after == ~ZERO or before | after != rest:
                continue
            out[i] |= (low if up else ZERO) | (high if down else ZERO)
            out[j] |= (high if up else ZERO) | (low if down else ZERO)
            for p in range(n):
                if p < i or p > j:
                    out[p] |= cand[cells[first + p]] & rest
                elif p > i and p < j:
                    out[p] |= cand[cells[first + p]] & c
    for p in range(n):
        if out[p] == ZERO:
            return False
    return True


@jit
def _part(cand, cells, first, lo, hi, digits):
    """The digits of ``digits`` the cells at positions ``lo..hi-1`` can take together, or all
    bits set when one of them can take none."""
    cover = ZERO
    for p in range(lo, hi):
        m = cand[cells[first + p]] & digits
        if m == ZERO:
            return ~ZERO
        cover |= m
    return cover


def supports_reference(masks: Sequence[int], total: int) -> list[int]:
    """What :func:`sandwich_support` keeps, in plain Python: per cell of a whole line of N
    cells (``masks``: their candidates, bit d-1 for digit d, from the clue), the digits of the
    placements left (a crust pair, a filling between them, the rest outside), all 0 when none
    is left.

    >>> full = (1 << 9) - 1
    >>> supports_reference([1, 1 << 8] + [full] * 7, 0)[:3] == [1, 1 << 8, full - 1 - (1 << 8)]
    True
    """
    n = len(masks)
    low, high = 1, 1 << (n - 1)
    mid = (1 << n) - 1 - low - high
    kept = [0] * n
    for digits in range(n - 1):
        for filling in combinations(range(2, n), digits):
            if sum(filling) != total:
                continue
            inside = sum(1 << (d - 1) for d in filling)
            outside = mid - inside
            for i in range(n - digits - 1):
                j = i + digits + 1
                between = masks[i + 1:j]
                around = [*masks[:i], *masks[j + 1:]]
                if not (_takes(between, inside) and _takes(around, outside)):
                    continue
                for x, y in ((low, high), (high, low)):
                    if masks[i] & x and masks[j] & y:
                        kept[i] |= x
                        kept[j] |= y
                        for p in range(n):
                            if i < p < j:
                                kept[p] |= masks[p] & inside
                            elif p != i and p != j:
                                kept[p] |= masks[p] & outside
    return kept if all(kept) else [0] * n


def _takes(masks: Sequence[int], digits: int) -> bool:
    """Whether each of ``masks`` holds one of ``digits`` and together they hold them all."""
    union = 0
    for m in masks:
        if not m & digits:
            return False
        union |= m & digits
    return union == digits


@twin(Kernels.ENGINE, "sudokit.fast.sandwich:sandwich_support",
      "sudokit.fast.sandwich:supports_reference", "sandwich lines")
def sandwich_supports(masks: Sequence[int], total: int) -> list[int]:
    """The digits each cell of a sandwich clue's line keeps (:func:`sandwich_support` where
    :func:`sudokit.compiled.use_compiled` says so, else :func:`supports_reference`).

    Args:
        masks: the candidates of the line's N cells from the clue (bit d-1 for digit d), N
            from 3 to 64.
        total: the clue.

    Returns:
        Per cell, the digits it keeps; all 0 when the line cannot meet the clue.
    """
    n = len(masks)
    if not use_compiled(Kernels.ENGINE, n * n):
        return supports_reference(masks, total)
    combos = np.array(sandwich_combinations(total, n), np.uint64)
    out = np.zeros(n, np.uint64)
    ok = sandwich_support(np.array(masks, np.uint64), np.arange(n, dtype=np.int32), 0, n,
                          combos, 0, len(combos), out)
    return [int(m) for m in out] if ok else [0] * n
