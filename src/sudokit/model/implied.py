"""Implied sums: the killer "45 rule" (innies and outies) and set equivalence theory, as
redundant weighted sums a solving method may add to its model.

Every unit of an N x N grid holds the digits 1..N once, so it sums to ``N(N+1)/2``; a union of
k disjoint units sums to ``k N(N+1)/2``, and two unions of k units each (k rows and k columns,
say) hold the same multiset of digits, so their difference sums to 0 (set equivalence theory,
"SET"). Write such a fact as ``sum(a[c] * digit(c)) == K`` with ``a`` in {-1, 0, 1} (1 on the
first union, -1 on the second, 0 on both or none). Each killer cage C with total T states
``sum(digit(c) for c in C) == T``; subtracting ``m * (cage)`` for one integer ``m`` per cage
(cages are disjoint, so each cage picks its own: the most common coefficient among its cells)
zeroes the cage's cells that had coefficient ``m`` and leaves an equation over the few cells
the cages do not cover: the innies (coefficient of the union, inside it) and the outies (the
cells of a cage that sticks out, with the opposite sign). "innies - outies = constant" is one
:class:`~sudokit.model.rules.WeightedSum`.

The sums are implied by the rules (a linear combination of true equations), so no solution is
lost; they are redundant help for propagation (CP-SAT's linear constraints, the compiled
engine's sum filter) and never part of a puzzle's stated rules: no method reports, draws or
checks them. Only short ones are kept (at most ``cap`` cells): a long sum propagates little.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .geometry import Geometry
from .rules import WeightedSum

__all__ = ["IMPLIED_CAP", "implied_sums"]

IMPLIED_CAP = 6
"""The most cells an implied sum keeps (innies plus outies)."""

_Union = tuple[frozenset[int], int]  # the cells of k disjoint units, and k


def _adjacent(lines: Sequence[tuple[int, ...]], side: int) -> list[_Union]:
    """Unions of 1..side-1 consecutive rows (or columns) of each grid (``side`` lines per
    grid, in order)."""
    found = []
    for first in range(0, len(lines), side):
        grid = lines[first:first + side]
        for k in range(1, side):
            for top in range(side - k + 1):
                found.append((frozenset(c for line in grid[top:top + k] for c in line), k))
    return found


def _touching(geometry: Geometry, a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether two regions share an edge (some cells orthogonally next to each other)."""
    cells = {geometry.position(c) for c in a}
    return any((r + dr, c + dc) in cells for r, c in map(geometry.position, b)
               for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def _regions(geometry: Geometry, seen: set[frozenset[int]]) -> list[_Union]:
    """Boxes (or jigsaw regions) not already a row or a column, alone and in touching pairs."""
    boxes = [b for b in geometry.boxes if frozenset(b) not in seen]
    pairs = [(frozenset(a) | frozenset(b), 2) for i, a in enumerate(boxes)
             for b in boxes[i + 1:] if _touching(geometry, a, b)]
    return [(frozenset(b), 1) for b in boxes] + pairs


def _families(geometry: Geometry) -> list[list[_Union]]:
    """The unions of units in families (rows, columns, boxes, other units) whose members of
    the same k may be compared with each other's."""
    n = geometry.side
    rows, cols = _adjacent(geometry.rows, n), _adjacent(geometry.cols, n)
    seen = {cells for cells, k in rows + cols if k == 1}
    boxes = _regions(geometry, seen)
    seen |= {cells for cells, k in boxes if k == 1}
    extra = [(frozenset(u), 1) for u in geometry.extra_units if frozenset(u) not in seen]
    return [rows, cols, boxes, extra]


def _tries(families: list[list[_Union]], n_cells: int, unit_sum: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """The equations tried, in order: each union alone (weights 1, constant ``k`` unit sums),
    then each two unions of the same ``k`` from different families (1 on the first, -1 on the
    second, 0 on both: constant 0). Returns (int64[T, C] weights, int64[T] constants)."""
    unions = [u for family in families for u in family]
    masks = np.zeros((len(unions), n_cells), np.int64)
    for i, (cells, _) in enumerate(unions):
        masks[i, list(cells)] = 1
    ks = np.array([k for _, k in unions], np.int64)
    bounds = np.cumsum([0] + [len(f) for f in families])
    firsts, seconds = [], []
    for i in range(len(families)):
        for j in range(i + 1, len(families)):
            a, b = np.arange(bounds[i], bounds[i + 1]), np.arange(bounds[j], bounds[j + 1])
            pa, pb = np.nonzero(ks[a][:, None] == ks[b][None, :])
            firsts.append(a[pa])
            seconds.append(b[pb])
    first = np.concatenate(firsts) if firsts else np.zeros(0, np.int64)
    second = np.concatenate(seconds) if seconds else np.zeros(0, np.int64)
    differ = (masks[first] != masks[second]).any(axis=1)
    first, second = first[differ], second[differ]
    weights = np.concatenate([masks, masks[first] - masks[second]])
    constants = np.concatenate([ks * unit_sum, np.zeros(len(first), np.int64)])
    return weights, constants


def _cancel(weights: np.ndarray, constants: np.ndarray,
            cages: Sequence[tuple[tuple[int, ...], int]]) -> None:
    """Cancel each cage in every equation (rows of ``weights``, in place) by the most common
    coefficient of its cells (ties: 0 first, then the coefficient met first along the cage),
    subtracting that multiple of the cage's total from the constant.

    The cages of a geometry share no cell, so three or more are cancelled at once: their cells
    side by side; each cage's coefficients read as one base-3 number by ``reduceat`` and its
    choice looked up in a table of every pattern (:func:`_pattern_choices`, the same for every
    puzzle), or for longer cages counted (:func:`_choices`). One cage at a time
    (:func:`_cancel_one`) takes a dozen NumPy calls per cage."""
    cols = np.array([c for cells, _ in cages for c in cells], np.int64)
    if len(cages) < 3 or np.unique(cols).size < cols.size:  # few or overlapping: in order
        for cells, total in cages:
            _cancel_one(weights, constants, list(cells), total)
        return
    sizes = np.array([len(cells) for cells, _ in cages], np.int64)
    totals = np.array([total for _, total in cages], np.int64)
    if sizes.max() <= _PATTERN_CAP and weights.min() >= -1 and weights.max() <= 1:
        # cage cells as rows (reduceat along rows of a C-ordered array is fast, along
        # columns slow): each cage's pattern as one base-3 number, its choice looked up
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        place = np.arange(cols.size) - np.repeat(starts, sizes)
        part = weights.T[cols].astype(np.int16)  # [S, T]; codes < 3**8 fit int16
        part += 1
        part *= (3 ** place).astype(np.int16)[:, None]
        codes = np.add.reduceat(part, starts, axis=0, dtype=np.int16)  # [K, T]
        bases = np.array([_PATTERN_BASE[s] for s in sizes.tolist()], np.int64)
        m = _pattern_choices()[bases[:, None] + codes]  # [K, T]
        weights[:, cols] -= np.repeat(m, sizes, axis=0).T
        constants -= totals @ m
        return
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    place = np.arange(cols.size) - np.repeat(starts, sizes)  # each cell's place in its cage
    m = _choices(weights[:, cols], starts, sizes, place)
    weights[:, cols] -= np.repeat(m, sizes, axis=1)
    constants -= m @ totals


def _choices(part: np.ndarray, starts: np.ndarray, sizes: np.ndarray, place: np.ndarray
             ) -> np.ndarray:
    """int64[T, K]: each cage's most common coefficient in ``part`` (int64[T, S], cages side
    by side from ``starts``, ``sizes`` long; ``place``: each column's place in its cage), ties
    to 0, then to the value met first."""
    values = np.array([-1, 0, 1])
    keys = []
    for v in values.tolist():
        met = part == v
        count = np.add.reduceat(met.astype(np.int64), starts, axis=1)  # [T, K]
        first = np.minimum.reduceat(np.where(met, place, part.shape[1]), starts, axis=1)
        first = np.minimum(first, sizes)  # never met: the cage's length
        # the most common value; ties to 0, then to the value seen first
        keys.append(count * (2 * sizes + 2) + (v == 0) * (sizes + 1) - first)
    result: np.ndarray = values[np.stack(keys, axis=2).argmax(axis=2)]
    return result


_PATTERN_CAP = 8
"""The longest cage whose choice :func:`_cancel` looks up by its coefficient pattern."""

_PATTERN_BASE = [sum(3 ** k for k in range(s)) for s in range(_PATTERN_CAP + 1)]
"""Where the patterns of cages of each length start in :func:`_pattern_choices`."""


@lru_cache(maxsize=1)
def _pattern_choices() -> np.ndarray:
    """int64[...]: :func:`_choices` of every cage of 1.._PATTERN_CAP cells and every pattern
    of coefficients in {-1, 0, 1}, by ``_PATTERN_BASE[length] + sum((k + 1) * 3**place)``
    (only the cages' shape: the same table for every puzzle)."""
    tables = [np.zeros(1, np.int64)]  # length 0: never looked up
    for s in range(1, _PATTERN_CAP + 1):
        codes = np.arange(3 ** s)
        part = (codes[:, None] // 3 ** np.arange(s)) % 3 - 1  # [3^s, s]
        tables.append(_choices(part, np.zeros(1, np.int64), np.array([s]),
                               np.arange(s))[:, 0])
    return np.concatenate(tables)


def _cancel_one(weights: np.ndarray, constants: np.ndarray, cells: list[int], total: int
                ) -> None:
    """:func:`_cancel` of one cage."""
    part = weights[:, cells]
    values = np.array([-1, 0, 1])
    met = part[:, :, None] == values
    counts = met.sum(axis=1)  # [T, 3]
    first = np.where(met.any(axis=1), met.argmax(axis=1), len(cells))
    key = counts * (2 * len(cells) + 2) + (values == 0) * (len(cells) + 1) - first
    m = values[key.argmax(axis=1)]
    weights[:, cells] -= m[:, None]
    constants -= m * total


@lru_cache(maxsize=64)
def _unit_tries(geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_tries` of a geometry's units (cached per geometry without cages and drawn
    rules, which change no unit: every killer or rule puzzle of one grid shares them)."""
    unit_sum = geometry.side * (geometry.side + 1) // 2
    weights, constants = _tries(_families(geometry), geometry.n_cells, unit_sum)
    return weights.astype(np.int8), constants  # -1..1, cancelled to -2..2: 8x less to read


def _bare(geometry: Geometry) -> Geometry:
    """The geometry of the same units without cages, parity or drawn rules."""
    return Geometry.of(geometry.box_rows, geometry.box_cols, geometry.variant,
                       regions=geometry.regions, layout=geometry.layout,
                       extra_regions=geometry.extra_regions)


@lru_cache(maxsize=256)
def implied_sums(geometry: Geometry, cap: int = IMPLIED_CAP) -> tuple[WeightedSum, ...]:
    """The implied sums of a geometry's killer cages over its units (see the module docstring).

    Unions tried: 1..N-1 consecutive rows, the same of columns, each box (or jigsaw region)
    and each pair of touching ones, each other unit (diagonals, extra regions of N cells);
    alone (the 45 rule: ``k N(N+1)/2``) and as the difference of two unions of k units from
    different families (set equivalence: 0).

    Args:
        geometry: the grid; only its units and :attr:`~Geometry.cages` are read.
        cap: the most cells a kept sum may have (innies plus outies).

    Returns:
        Distinct ``WeightedSum`` rules named ``"implied sum"`` (integer coefficients, a
        positive first one; cells increasing), none equal to a cage or a unit's sum; ``()``
        for a geometry without cages.
    """
    if not geometry.cages:
        return ()
    cages = [(cage.cells, cage.total) for cage in geometry.cages]
    unit_sum = geometry.side * (geometry.side + 1) // 2
    shared_weights, shared_constants = _unit_tries(_bare(geometry))
    loose = np.ones(geometry.n_cells, bool)  # cells of no cage keep their coefficient
    loose[[c for cells, _ in cages for c in cells]] = False
    near = (shared_weights[:, loose] != 0).sum(axis=1) <= cap  # the others stay too long
    weights, constants = shared_weights[near], shared_constants[near]
    _cancel(weights, constants, cages)
    size = (weights != 0).sum(axis=1)
    plain = {(cells, (1,) * len(cells), total) for cells, total in cages}
    plain |= {(tuple(sorted(u)), (1,) * len(u), unit_sum) for u in geometry.units}
    kept = np.flatnonzero((size > 0) & (size <= cap))
    picked = weights[kept]
    rows, cols = np.nonzero(picked)  # row by row, cells increasing
    coefs = picked[rows, cols].tolist()
    ends = np.cumsum(size[kept]).tolist()
    found: dict[tuple[tuple[int, ...], tuple[int, ...], int], WeightedSum] = {}
    cells_of, begin = cols.tolist(), 0
    for end, constant in zip(ends, constants[kept].tolist()):
        cells, ks = tuple(cells_of[begin:end]), coefs[begin:end]
        begin = end
        if ks[0] < 0:  # a positive first coefficient
            ks, constant = [-k for k in ks], -constant
        key = (cells, tuple(ks), constant)
        if key not in plain and key not in found:
            found[key] = WeightedSum(cells, key[1], constant, "implied sum")
    return tuple(found.values())
