"""The arrays the compiled chaining propagation works in
(:mod:`sudokit.logic.chains._implications_kernel`): per thread and geometry, the units'
tables, the working grid and the records, built once and reused; and each cell's units in
Sudoku Explainer's order."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ...model.geometry import Geometry

__all__ = ["implications_tables", "per_thread", "se_units_of"]


_SE_UNITS: dict[int, tuple[tuple[int, ...], ...]] = {}


def se_units_of(geometry: Geometry) -> tuple[tuple[int, ...], ...]:
    """Per cell, its units in Sudoku Explainer's order: box, row, column, then the others."""
    key = id(geometry)
    table = _SE_UNITS.get(key)
    if table is None:
        n = geometry.side

        def rank(u: int) -> tuple[int, int]:
            kind = u // n
            return ({2: 0, 0: 1, 1: 2}.get(kind, 3) if u < 3 * n else 3, u)

        table = _SE_UNITS[key] = tuple(tuple(sorted(us, key=rank)) for us in geometry.units_of)
    return table


@dataclass
class _Work:
    """The arrays of :func:`~sudokit.logic.chains.implications.chain_implications`' kernel
    for one geometry (reused)."""

    masks0: np.ndarray
    tables: tuple[np.ndarray, np.ndarray]
    masks: np.ndarray
    out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    hidden: np.ndarray
    seen: np.ndarray
    stack: np.ndarray
    own: np.ndarray


_LOCAL = threading.local()
"""Per thread, the kernels' arrays by geometry: the kernels run without the GIL and write into
them, so two threads (a Dask worker's, a library user's) must not share them."""
_T = TypeVar("_T")


def per_thread(name: str, geometry: Geometry, build: Callable[[Geometry], _T]) -> _T:
    """This thread's arrays ``name`` for ``geometry``, built by ``build`` on first use. Kept
    by ``id`` beside the geometry itself, so that a geometry freed and another given its id
    never meet the first one's arrays (a jigsaw's units are not another jigsaw's); at most 64
    geometries a name and thread."""
    kept: dict[int, tuple[Geometry, _T]] = _LOCAL.__dict__.setdefault(name, {})
    entry = kept.get(id(geometry))
    if entry is not None and entry[0] is geometry:
        return entry[1]
    if len(kept) >= 64:
        kept.clear()
    found = build(geometry)
    kept[id(geometry)] = (geometry, found)
    return found


def _work(geometry: Geometry) -> _Work:
    return per_thread("work", geometry, _new_work)


def implications_tables(geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' ``(unit_cells, cell_units)`` for ``geometry`` (see
    :func:`~sudokit.logic.chains._implications_kernel.implications`)."""
    return _work(geometry).tables


def _new_work(geometry: Geometry) -> _Work:
    c, n = geometry.n_cells, geometry.side
    units = [sorted(u) for u in geometry.units]
    m = max(len(u) for u in units)
    unit_cells = np.full((len(units), m), -1, dtype=np.int64)
    for i, u in enumerate(units):
        unit_cells[i, :len(u)] = u
    se = se_units_of(geometry)
    cell_units = np.full((c, max(len(us) for us in se)), -1, dtype=np.int64)
    for cell, us in enumerate(se):
        cell_units[cell, :len(us)] = us
    size = 2 * c * n
    index = np.full(size + 1, -1, dtype=np.int64)
    index[size] = 0  # records to reset on the next call
    out = (np.empty(size + 1, dtype=np.int64), np.empty(size + 2, dtype=np.int64),
           np.empty((size + 1) * (m + n + 1), dtype=np.int64), index)
    return _Work(np.empty(c, dtype=np.int64), (unit_cells, cell_units),
                 np.empty(c, dtype=np.int64), out, np.empty(2 * (2 * m + n), dtype=np.int64),
                 np.empty(size, dtype=np.uint8), np.empty(out[2].size, dtype=np.int64),
                 np.empty(0, dtype=np.int64))
