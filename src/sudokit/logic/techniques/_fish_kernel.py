"""The kernel of the basic fish (X-Wing, Swordfish, Jellyfish, ...), in the search order of
:mod:`sudokit.logic.techniques.fish`, with the digit memo of
:func:`~sudokit.logic._ladder_kernel.first_found`.
"""

from __future__ import annotations

from ...fast.bits import lowest_index, popcount
from ...fast.state import ONE, ZERO, jit
from ..kernels.common import bit_at, next_combination

__all__ = ["fish"]


@jit
def fish(places, size, idx, bases, memo, flag, out):
    """The first fish in the order of ``fish._fish_of_digit`` over the digits: ``out[1]``
    digit - 1, ``out[2]`` cover offset (N: columns, 0: rows), ``out[3:3 + size]`` base lines.
    Rows are units 0..N-1 and columns N..2N-1; position i of column p is row i. Digits whose
    ``memo`` (see :func:`first_found`) has ``flag`` are skipped; digits without a fish get it."""
    side = places.shape[1]
    done = memo.shape[1] - 1
    for d in range(side):
        if memo[d, done] & flag != ZERO:
            continue
        for base_offset in (0, side):
            cover_offset = side - base_offset
            n_bases = 0
            for line in range(side):
                count = popcount(places[base_offset + line, d])
                if 2 <= count <= size:
                    bases[n_bases] = line
                    n_bases += 1
            if n_bases < size:
                continue
            for j in range(size):
                idx[j] = j
            while True:
                union = ZERO
                group = ZERO
                for j in range(size):
                    union |= places[base_offset + bases[idx[j]], d]
                    group |= bit_at(bases[idx[j]])
                if popcount(union) == size:
                    m = union
                    while m != ZERO:
                        if places[cover_offset + lowest_index(m), d] & ~group != ZERO:
                            out[1] = d
                            out[2] = cover_offset
                            for j in range(size):
                                out[3 + j] = base_offset + bases[idx[j]]
                            return True
                        m &= m - ONE
                if not next_combination(idx, size, n_bases):
                    break
        memo[d, done] |= flag
    return False
