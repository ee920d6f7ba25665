"""The arrays of a grid that the candidates state and the compiled kernels read, made once per
geometry.

:func:`grid_tables` (C cells, U units, N digits):

* ``peers``: int32[C, P], each cell's peers ascending, padded with -1;
* ``sees``: uint8[C, C], 1 where two cells are peers;
* ``units``: int32[U, N], the cells of each unit;
* ``units_of``: int32[C, K], the units of each cell in :attr:`Geometry.units_of` order, padded
  with -1.

Plain NumPy (no Numba): the state places its givens over ``peers`` and the kernel modules
(:mod:`sudokit.logic.kernels`) take their grid arguments from here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cache, wraps
from typing import NamedTuple, TypeVar

import numpy as np

from ..model.geometry import Geometry

__all__ = ["GridTables", "bitsets", "grid_tables", "per_geometry"]

T = TypeVar("T")


def per_geometry(build: Callable[..., T]) -> Callable[..., T]:
    """``build(geometry, *args)`` computed once per geometry and arguments (an ``functools.
    cache``), and looked up first by the geometry object's identity: hashing a
    :class:`~sudokit.model.geometry.Geometry` (a frozen dataclass) costs microseconds, and the chain
    searches ask for their tables several times per board."""
    by_value = cache(build)
    by_id: dict[tuple, tuple[Geometry, T]] = {}

    @wraps(build)
    def get(geometry: Geometry, *args: Hashable) -> T:
        key = (id(geometry), *args)
        hit = by_id.get(key)
        if hit is not None and hit[0] is geometry:  # the entry keeps the geometry alive
            return hit[1]
        value = by_value(geometry, *args)
        if len(by_id) > 256:
            by_id.clear()
        by_id[key] = (geometry, value)
        return value

    return get


class GridTables(NamedTuple):
    """The arrays of one grid the kernels read (see the module docstring)."""

    peers: np.ndarray
    sees: np.ndarray
    units: np.ndarray
    units_of: np.ndarray


@per_geometry
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


def bitsets(rows: np.ndarray) -> np.ndarray:
    """Each row of ``rows`` (bool or uint8 [R, C], nonzero: a member) as a bitset over cells:
    uint64[R, W], W = ceil(C / 64), cell c being bit c % 64 of word c // 64 (the layout every
    kernel of the package reads; ``.view(np.int64)`` for the chain kernels' signed words)."""
    packed = np.packbits(rows, axis=1, bitorder="little")
    pad = -packed.shape[1] % 8
    return np.ascontiguousarray(np.pad(packed, ((0, 0), (0, pad))).view("<u8").astype(np.uint64))
