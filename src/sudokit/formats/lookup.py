"""Byte-table look-ups over many rows in compiled code: the line path's decoding of symbols to
digits and encoding of digits to symbols, once the compiled engine is loaded (NumPy's
``take`` first widens the uint8 indices to intp: about 3x slower on 81-byte rows)."""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["lookup", "INVALID"]

INVALID = 255
"""The table value (and output byte) meaning "no such symbol"."""


def lookup(values: np.ndarray, table: np.ndarray,
           out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Map every byte through a table: ``out[i, j] = table[values[i, j]]``.

    Args:
        values: uint8 ``(R, C)`` (any strides); not modified.
        table: uint8 ``(T,)``; a value >= T, or one the table maps to :data:`INVALID`, marks
            its row invalid.
        out: uint8 ``(R, C)`` to write into (any strides, e.g. a column range of a record
            array); a new array if None.

    Returns:
        ``(out, invalid)``: the mapped bytes and bool ``(R,)``, True for rows with a value
        outside the table or mapped to :data:`INVALID` (such cells hold :data:`INVALID`).
    """
    if out is None:
        out = np.empty(values.shape, np.uint8)
    invalid = np.zeros(len(values), np.bool_)
    if values.size:
        table = np.require(table, np.uint8, ("C", "W"))  # one compiled signature, warm-loaded
        _lookup(values, table, out, invalid)
    return out, invalid


@nb.njit(cache=True, nogil=True)
def _lookup(values: np.ndarray, table: np.ndarray, out: np.ndarray,
            invalid: np.ndarray) -> None:  # pragma: no cover - compiled
    size = table.shape[0]
    for i in range(values.shape[0]):
        bad = False
        for j in range(values.shape[1]):
            v = values[i, j]
            if v >= size:
                out[i, j] = INVALID
                bad = True
            else:
                d = table[v]
                out[i, j] = d
                bad |= d == INVALID
        invalid[i] = bad
