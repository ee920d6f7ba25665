"""Difficulty of puzzles, behind a small interface: a rater maps puzzles to floats, and named
levels are bands of that float.

The default :class:`NodeRater` measures how much *search* a puzzle takes: the search nodes the
compiled engine spends, with naked and hidden singles as its only inference, to solve the puzzle
and prove it has no second solution. Node counts depend on the order in which cells and digits
are tried, so the rating is the mean of ``log2(1 + nodes)`` over eight fixed equivalent copies of
the puzzle (relabelled, rows and columns shuffled within bands and stacks, transposed for square
boxes): the same puzzle always gets the same rating, and equivalent puzzles get close ones. A
puzzle that singles alone solve rates exactly 0.

A rater of human techniques (Sudoku Explainer's scale) can be plugged in with the same
interface: any callable ``rate(puzzles uint8[M, N*N], geometry) -> float64[M]``, with its own
level bands (see :class:`Rater`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol, runtime_checkable

import numpy as np

from ..compiled import Kernels, twin
from ..errors import InvalidOption
from ..model.constraints import Variant
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle

__all__ = [
    "NODE_RATER",
    "FunctionRater",
    "NodeRater",
    "Rater",
    "SeRater",
    "se_levels",
    "se_rating",
    "band_of",
    "get_rater",
    "parse_band",
    "rate_puzzles",
]


@runtime_checkable
class Rater(Protocol):
    """What :func:`sudokit.generate` needs from a difficulty rater.

    Attributes:
        name: shown in output records (``"nodes"``, ``"se"``).
        levels: named bands ``(low, high)`` (inclusive) of the rating, for ``level=``.
    """

    @property
    def name(self) -> str:
        """Shown in output records."""

    @property
    def levels(self) -> Mapping[str, tuple[float, float]]:
        """Named bands of the rating."""

    def __call__(self, puzzles: np.ndarray, geometry: Geometry) -> np.ndarray:
        """Rate puzzles (uint8[M, N*N], unique) of one geometry: float64[M], higher is harder."""


@cache
def _copies(geometry: Geometry, k: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """``k`` fixed cell orders (int[k, N*N]) and relabellings (uint8[k, N + 1]) giving
    equivalent puzzles (the first is the identity)."""
    rng = np.random.default_rng(20240615)
    n, br, bc = geometry.side, geometry.box_rows, geometry.box_cols
    full = geometry.variant is Variant.STANDARD
    orders, labels = [np.arange(n * n)], [np.arange(n + 1)]
    for _ in range(k - 1):
        rows, cols = np.arange(n), np.arange(n)
        if full:
            rows = np.concatenate([b * br + rng.permutation(br) for b in rng.permutation(n // br)])
            cols = np.concatenate([b * bc + rng.permutation(bc) for b in rng.permutation(n // bc)])
        order = (rows[:, None] * n + cols[None, :])
        if br == bc and rng.random() < 0.5:
            order = order.T
        orders.append(order.reshape(-1))
        labels.append(np.concatenate([[0], 1 + rng.permutation(n)]))
    return np.array(orders), np.array(labels, np.uint8)


@dataclass(frozen=True)
class NodeRater:
    """The search-node rating (see the module docstring); ``copies`` equivalent copies each.

    It names no levels: a level name (``easy`` ... ``extreme``) means one band of Sudoku
    Explainer's scale everywhere (:data:`sudokit.logic.solve.LEVEL_BANDS`, the ``se`` rater).
    Measured on rated public sets (see docs/generate.md): a puzzle singles alone solve rates 0; the SE-rated
    "diabolical" calibration set (SE 5.2-9.1) spreads over 0.01-5.5 with its median in
    2.01-3.5; the classic hard list (magictour top 1465) mostly rates 3.51-5.5; puzzles rated
    SE 11+ rate above 5.5.

    Attributes:
        node_limit: most nodes per copy (a copy over it counts as this many).
    """

    name: str = "nodes"
    levels: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    copies: int = 8
    node_limit: int = 1_000_000

    def __call__(self, puzzles: np.ndarray, geometry: Geometry) -> np.ndarray:
        puzzles = np.ascontiguousarray(puzzles, np.uint8)
        if len(puzzles) == 0:
            return np.zeros(0)
        orders, labels = _copies(geometry, self.copies)
        total = np.zeros(len(puzzles))
        for order, label in zip(orders, labels):
            copy = np.ascontiguousarray(label[puzzles[:, order]])
            total += np.log2(1.0 + _nodes(copy, geometry, self.node_limit))
        return np.round(total / len(orders), 3)


@twin(Kernels.TABLES, "sudokit.fast.kernels:run_batch",
      "sudokit.fast.kernels:run_batch (interpreted)", "ratings")
def _nodes(puzzles: np.ndarray, geometry: Geometry, node_limit: int) -> np.ndarray:
    """Search nodes (int64[M]) of the generic engine with singles only, counting ``puzzles``
    (uint8[M, N*N]) to two: compiled, or while :func:`sudokit.compiled.use_compiled` says no
    for :attr:`~sudokit.compiled.Kernels.TABLES` (a first use, compiling in the background)
    the same kernel run as Python (:func:`sudokit.compiled.interpreted`: the same counts)."""
    from ..compiled import interpreted, use_compiled
    from ..fast import Stat, solve_batch

    if use_compiled(Kernels.TABLES):
        _, _, stats = solve_batch(puzzles, 2, geometry=geometry, node_limit=node_limit,
                                  locked=False, generic=True)
        return stats[:, Stat.NODES]
    from ..fast import kernels
    from ..fast.engine import BatchResult, new_state, rule_state, tables_for

    m, n_cells = puzzles.shape
    result = BatchResult(np.zeros((m, 2, n_cells), np.uint8), np.zeros(m, np.int8),
                         np.zeros((m, len(Stat)), np.int64))
    state = new_state(n_cells, geometry.side, len(geometry.units), len(geometry.cages))
    interpreted(kernels.run_batch)(tables_for(geometry), state, puzzles, 2, int(node_limit),
                                   math.inf, False, *result, rule_state(geometry))
    return result[2][:, Stat.NODES]


@dataclass(frozen=True)
class FunctionRater:
    """A rater from a function of one puzzle (e.g. a human-technique rater returning an SE
    rating), with its own level bands."""

    function: Callable[..., float]
    name: str = "custom"
    levels: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    def __call__(self, puzzles: np.ndarray, geometry: Geometry) -> np.ndarray:
        return np.array([float(self.function(Puzzle(geometry, tuple(p)))) for p in puzzles])


NODE_RATER = NodeRater()
"""The default rater."""


def get_rater(name: str | Rater | Callable[..., float] | None) -> Rater:
    """Return a rater by name (``"nodes"``, or ``"se"``: :func:`se_rating`, Sudoku Explainer's
    scale from the logic engine), or wrap a rater object or a function of one puzzle.

    Raises:
        InvalidOption: an unknown name.
    """
    if name is None or name == "nodes":
        return NODE_RATER
    if isinstance(name, Rater):
        return name
    if callable(name):
        return FunctionRater(name)
    if name == "se":
        return SeRater()
    raise InvalidOption(f"unknown rater {name!r}: expected 'nodes' or 'se'")


def se_levels() -> dict[str, tuple[float, float]]:
    """Level bands on Sudoku Explainer's scale as closed ranges of ratings (in steps of 0.1):
    the logic engine's :data:`sudokit.logic.solve.LEVEL_BANDS` (half-open), written as this
    module's bands are (``"easy": (0.0, 2.49)``, ..., ``"extreme": (8.0, 99.0)``)."""
    from ..logic.solve import LEVEL_BANDS

    return {level.value: (low, round(high - 0.01, 2) if math.isfinite(high) else 99.0)
            for level, (low, high) in LEVEL_BANDS.items()}


def se_rating(puzzle: Puzzle) -> float:
    """The rating of ``puzzle`` on Sudoku Explainer's scale: its solution (and whether it is the
    only one) found by the compiled engine, then the logic engine's hardest step
    (:func:`sudokit.logic.solve.logical_rating`).

    Raises:
        InvalidOption: the puzzle has no solution (a generated puzzle always has one).
    """
    from ..fast import Stat, solve_batch
    from ..logic.solve import logical_rating

    grids, _, stats = solve_batch(np.array([puzzle.givens], np.uint8), 2,
                                  geometry=puzzle.geometry)
    found = int(stats[0, Stat.SOLUTIONS])
    if found == 0:
        raise InvalidOption("the 'se' rater rates puzzles that have a solution")
    return logical_rating(puzzle, grids[0, 0].tolist(), unique=found == 1).rating


@dataclass(frozen=True)
class SeRater:
    """Sudoku Explainer's scale (:func:`se_rating`), with its levels. The generator, which
    knows each puzzle's only solution, passes it (no search), and the high end of its band:
    a puzzle whose easiest-first solve stalls with the techniques of a base rating up to it
    needs a harder one and rates ``inf`` without being solved further (:func:`se_within`)."""

    name: str = "se"
    levels: Mapping[str, tuple[float, float]] = field(default_factory=se_levels)

    def __call__(self, puzzles: np.ndarray, geometry: Geometry,
                 solutions: np.ndarray | None = None, ceiling: float | None = None
                 ) -> np.ndarray:
        """Ratings float64[M] of ``puzzles`` (uint8[M, N*N]); ``solutions`` uint8[M, N*N]
        (their only solutions) or None (found by the compiled engine)."""
        if solutions is None:
            return np.array([se_rating(Puzzle(geometry, tuple(p))) for p in puzzles])
        return np.array([se_within(Puzzle(geometry, tuple(p)), s.tolist(), ceiling)
                         for p, s in zip(puzzles, solutions)])


def se_within(puzzle: Puzzle, solution: Sequence[int], ceiling: float | None = None) -> float:
    """The rating of ``puzzle`` (unique, with ``solution``) on Sudoku Explainer's scale, or
    ``inf`` when it is above ``ceiling``: the logic engine's easiest-first solve with the
    techniques of a base rating up to ``ceiling`` (no trial) takes the whole solve's steps
    while it goes on; where it stalls, the whole solve needs a technique of a higher base
    rating. None: the whole solve (:func:`sudokit.logic.solve.logical_rating`)."""
    from ..logic.registry import TechniqueKind
    from ..logic.solve import logical_rating, rating_of, solve_steps
    from ..logic.state import Candidates

    if ceiling is None or not math.isfinite(ceiling):
        return logical_rating(puzzle, solution, unique=True).rating
    state = Candidates.from_puzzle(puzzle)
    steps = list(solve_steps(state, kinds=frozenset(TechniqueKind) - {TechniqueKind.TRIAL},
                             solution=solution, max_rating=ceiling, every_state=False))
    return rating_of(steps, True).rating if state.solved else math.inf


def rate_puzzles(puzzles: np.ndarray | Sequence[Puzzle] | Puzzle,
                 geometry: Geometry | None = None,
                 rater: str | Rater | Callable[..., float] | None = None) -> np.ndarray:
    """Rate puzzles with ``rater`` (see :func:`get_rater`; default :data:`NODE_RATER`).

    Args:
        puzzles: uint8[M, N*N] givens (0 empty), or Puzzles of one geometry (or one Puzzle).
        geometry: their grid (default: the puzzles', or the usual one for N*N cells).
        rater: a rater name, a :class:`Rater` or a function of one puzzle.

    Returns:
        float64[M], higher is harder.

    Raises:
        InvalidOption: an unknown rater name.
    """
    if isinstance(puzzles, Puzzle):
        puzzles = [puzzles]
    if len(puzzles) and isinstance(puzzles[0], Puzzle):
        geometry = geometry or puzzles[0].geometry
        puzzles = np.array([p.givens for p in puzzles], np.uint8)
    array = np.asarray(puzzles, np.uint8)
    geometry = geometry or Geometry.for_cells(array.shape[1])
    return get_rater(rater)(array, geometry)


def band_of(rating: float, levels: Mapping[str, tuple[float, float]]) -> str | None:
    """The name of the first band of ``levels`` holding ``rating`` (None: between bands); any
    rater's bands (for the SE scale's levels as an Enum, see :func:`sudokit.logic.level_of`)."""
    for name, (low, high) in levels.items():
        if low <= rating <= high:
            return name
    return None


def parse_band(text: str) -> tuple[float, float]:
    """Parse a rating band ``"4.0-6.0"`` (or one number, a band of width 0, or ``"4-"``: 4 and
    above).

    Raises:
        InvalidOption: not one or two numbers, or low above high.
    """
    low_text, sep, high_text = text.strip().partition("-")
    try:
        low = float(low_text) if low_text.strip() else 0.0
        high = (float(high_text) if high_text.strip() else float("inf")) if sep else low
    except ValueError:
        raise InvalidOption(f"expected a rating band such as 4.0-6.0, got {text!r}") from None
    if low > high:
        raise InvalidOption(f"rating band {text!r}: low end above high end")
    return low, high
