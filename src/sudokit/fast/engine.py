"""Python entry points of the compiled engine: the batch API and a resumable one-puzzle search.

Both call the kernels of :mod:`sudokit.fast.kernels` with arrays only; the batch API loops over
puzzles inside compiled code, so Python overhead is paid once per batch. Kernels release the GIL
(``nogil=True``), so several threads may run batches at once (each call has its own state).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

import numpy as np

from ..model.geometry import Geometry
from . import kernels, nine
from .kernels import StopReason
from .state import Reg, State, new_state, rule_state
from .tables import tables_for

__all__ = ["Stat", "BatchResult", "solve_batch", "ResumableSearch", "NO_NODE_LIMIT",
           "uses_nine"]

NO_NODE_LIMIT = np.iinfo(np.int64).max
"""The node limit meaning "none"."""


class Stat(IntEnum):
    """Columns of the batch ``stats`` array (int64)."""

    NODES = 0  # branches tried (a digit put in a chosen cell)
    BACKTRACKS = 1  # choice points exhausted
    PROPAGATIONS = 2  # candidates removed
    HIDDEN_SINGLES = 3  # digits placed by the hidden-single rule
    LOCKED_ELIMINATIONS = 4  # candidates removed by pointing / claiming
    SOLUTIONS = 5  # solutions found (at most the limit)
    NANOSECONDS = 6  # wall time of this puzzle


class BatchResult(NamedTuple):
    """Output of :func:`solve_batch` (unpacks as ``solutions, status, stats``).

    Attributes:
        solutions: uint8[M, limit, N*N]; ``solutions[i, j]`` is the j-th solution of puzzle i
            (digits 1..N) for ``j < stats[i, Stat.SOLUTIONS]``, zeros after.
        status: int8[M] of :class:`~sudokit.model.result.Status` codes: SOLVED, UNSATISFIABLE or
            UNKNOWN (a limit was reached; ``stats[:, Stat.NODES]`` tells which one).
        stats: int64[M, len(Stat)], columns as in :class:`Stat`.
    """

    solutions: np.ndarray
    status: np.ndarray
    stats: np.ndarray


def _node_limit(node_limit: int | None) -> int:
    return NO_NODE_LIMIT if node_limit is None else max(0, int(node_limit))


def uses_nine(geometry: Geometry, locked: bool) -> bool:
    """Whether the specialised 9x9 engine (:mod:`sudokit.fast.nine`) runs this geometry: standard
    3x3 boxes with locked candidates on (its band-permutation rule cannot be switched off)."""
    return (locked and geometry.box_rows == 3 and geometry.box_cols == 3
            and geometry.is_standard)


def _geometry(puzzles: np.ndarray, geometry: Geometry | None) -> Geometry:
    geometry = geometry or Geometry.for_cells(puzzles.shape[1])
    if puzzles.shape[1] != geometry.n_cells:
        raise ValueError(f"puzzles have {puzzles.shape[1]} cells, {geometry.shape_name} has "
                         f"{geometry.n_cells}")
    if puzzles.size and int(puzzles.max()) > geometry.side:
        raise ValueError(f"a given above {geometry.side} in a {geometry.shape_name} puzzle")
    return geometry


def solve_batch(
    puzzles: np.ndarray | Sequence[Sequence[int]],
    limit: int = 1,
    *,
    geometry: Geometry | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    locked: bool = True,
    generic: bool = False,
) -> BatchResult:
    """Solve (or count up to ``limit`` solutions of) many puzzles in one compiled loop.

    Args:
        puzzles: uint8[M, N*N] givens, 0 for an empty cell (other integer arrays are converted).
        limit: solutions to look for per puzzle (1 solves, 2 tells unique from multiple).
        geometry: the grid (default: the standard geometry with N*N cells); variants such as
            Sudoku X need it given.
        node_limit: most search nodes per puzzle (None: no limit).
        time_limit: seconds per puzzle (None: no limit); checked every 1,024 nodes.
        locked: apply locked candidates (pointing / claiming) during propagation. Standard 9x9
            puzzles with ``locked`` run on the specialised engine of :mod:`sudokit.fast.nine`
            (same counts, different node counts possible), every other case on the generic one.
        generic: use the generic kernels even where the 9x9 engine applies (for comparisons).

    Returns:
        A :class:`BatchResult`. A puzzle whose givens contradict each other gets
        ``Status.UNSATISFIABLE``.

    Raises:
        ValueError: ``puzzles`` is not 2-D, ``limit`` < 1, the cell count is not that of
            ``geometry`` (or of any square grid up to 64x64), or a given exceeds N.
    """
    puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8)
    if puzzles.ndim != 2:
        raise ValueError(f"expected puzzles of shape [M, N*N], got shape {puzzles.shape}")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    geometry = _geometry(puzzles, geometry)
    m, n_cells = puzzles.shape
    result = BatchResult(np.zeros((m, limit, n_cells), np.uint8), np.zeros(m, np.int8),
                         np.zeros((m, len(Stat)), np.int64))
    seconds = math.inf if time_limit is None else float(time_limit)
    if not generic and uses_nine(geometry, locked):
        nine.run_batch(nine.new_nine_state(), puzzles, int(limit), _node_limit(node_limit),
                         seconds, *result)
        return result
    state = new_state(n_cells, geometry.side, len(geometry.units), len(geometry.cages))
    kernels.run_batch(tables_for(geometry), state, puzzles, int(limit), _node_limit(node_limit),
                        seconds, bool(locked), *result, rule_state(geometry))
    return result


class ResumableSearch:
    """A resumable depth-first search over one puzzle: each :meth:`advance` finds the next
    solution, proves there is none left, or stops at a limit and can be called again.

    Args:
        geometry: the grid.
        givens: N*N ints, 0 for an empty cell (values 0..N; not checked here).
        locked: apply locked candidates (standard 9x9 with ``locked`` runs on
            :mod:`sudokit.fast.nine`).

    Attributes:
        solution: uint8[N*N], the last solution found by :meth:`advance`.
    """

    def __init__(self, geometry: Geometry, givens: Sequence[int], locked: bool = True) -> None:
        self._nine = uses_nine(geometry, locked)
        self._locked = bool(locked)
        self._out = np.zeros((1, geometry.n_cells), np.uint8)
        cells = np.asarray(givens, dtype=np.uint8)
        if self._nine:
            self._state: nine.NineState | State = nine.new_nine_state()
            nine.start(self._state, cells)
        else:
            self._tables = tables_for(geometry)
            self._state = new_state(geometry.n_cells, geometry.side,
                                    self._tables.units.shape[0], len(geometry.cages))
            self._rules = rule_state(geometry)
            kernels.start(self._tables, self._state, cells, self._rules)

    @property
    def solution(self) -> np.ndarray:
        return self._out[0]

    def stop(self) -> None:
        """Stop the search for good from another thread: a running :meth:`advance` returns
        ``StopReason.TIME_LIMIT`` within 1,024 nodes, and so does every later call (at once).

        The specialised 9x9 engine has no stop request (its searches take microseconds)."""
        if not self._nine:
            self._state.regs[Reg.STOP] = 1

    def counter(self, stat: Stat) -> int:
        """Return a counter of the search so far (a :class:`Stat` column other than time)."""
        return int(self._state.regs[stat])

    def counters(self) -> list[int]:
        """The search's counters so far, in :class:`Stat` column order from ``NODES`` to
        ``LOCKED_ELIMINATIONS`` (5 values; one read instead of five :meth:`counter` calls)."""
        return self._state.regs[:Stat.SOLUTIONS].tolist()

    def advance(self, node_limit: int | None = None, time_limit: float | None = None) -> StopReason:
        """Search on until the next solution, exhaustion or a limit.

        Args:
            node_limit: stop before the node count of the whole search exceeds this.
            time_limit: seconds for this call (None: no limit).

        Returns:
            ``StopReason.FOUND`` (see :attr:`solution`), ``StopReason.EXHAUSTED`` (no more
            solutions; later calls return it again), ``StopReason.NODE_LIMIT`` or
            ``StopReason.TIME_LIMIT`` (call again with a larger limit to go on).
        """
        deadline = math.inf if time_limit is None else kernels.clock() + time_limit
        nodes = _node_limit(node_limit)
        if self._nine:
            return StopReason(nine.run(self._state, 1, nodes, deadline, self._out))
        return StopReason(kernels.run(self._tables, self._state, 1, nodes, deadline,
                                      self._locked, self._out, self._rules))
