"""The solve ladder with its cheap techniques run in compiled code.

A ladder (the techniques of :func:`~sudokit.logic.registry.techniques`, easiest first) is cut
into runs of consecutive techniques that :mod:`sudokit.logic._ladder_kernel` decides (singles,
locked candidates, subsets, basic fish, XY/XYZ-Wing, Unique Rectangle, BUG+1, Turbot Fish, Empty
Rectangle, simple colouring) and the techniques between them, which run in Python as before.
For a run, one kernel call says which of its techniques is the first to find a step. The steps
of singles, locked candidates and subsets are built from what the kernel found (in the
finder's own search order, with the finder's step builder); any other step comes from that
technique's own Python finder. So every step (technique, rating, text, placements,
eliminations) and the order of steps are those of the Python ladder (Sudoku Explainer's rule,
Juillerat 2006: the easiest step first).

After a single, :func:`first_steps` follows the singles that come next in one more kernel call
(:func:`~sudokit.logic.techniques._singles_kernel.singles_chain`): each is the ladder's next step once the ones
before it are placed, since the singles are the easiest techniques; the solve loop still checks,
applies and yields them one at a time.

Grids over 1,024 cells (sides above 32) run every technique in Python.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from ..errors import SolverBug
from ..model.geometry import Geometry
from ..compiled import Kernels, twin, use_compiled
from .kernels.bundles import LadderGrid, LadderMemo
from .registry import Technique
from .state import Board, bits
from .step import Step
from .deadline import check_deadline
from .tables import bitsets, grid_tables
from .techniques.fish import fish_step
from .techniques.intersections import locked_step
from .techniques.single_digit import er_parts, er_step, turbot_step
from .techniques.singles import (
    full_house_step,
    hidden_single_step,
    naked_single_step,
    single_steps,
)
from .techniques.subsets import hidden_subset_step, naked_subset_step
from .techniques.uniqueness import rectangle_shapes, rectangle_step, swappable
from .techniques.wings import wing_step
from .units import intersections, unit_kind

__all__ = ["MAX_CELLS", "LadderTables", "Run", "first_step", "first_steps", "ladder_tables",
           "next_step", "next_steps", "plan"]

MAX_CELLS = 1024
"""Largest grid (cells) the kernels run on (their peer matrix is cells x cells bytes)."""


class LadderTables(LadderGrid):
    """The arrays :func:`~sudokit.logic._ladder_kernel.first_found` reads for one grid geometry: a
    :class:`~.kernels.bundles.LadderGrid` (its fields, shapes and dtypes) with the work size."""

    @cached_property
    def work(self) -> int:
        """The length of the kernel's int64 work array: 4 + max(C, N) + K + 2N + 2C."""
        n_cells, n = self.sees.shape[0], self.units.shape[1]
        return 4 + max(n_cells, n) + self.cell_units.shape[1] + 2 * n + 2 * n_cells

    @cached_property
    def grid(self) -> tuple[object, ...]:
        """The arrays as the kernel takes them: a plain tuple (see :mod:`~.kernels.bundles`)."""
        return tuple(self)


@cache
def ladder_tables(geometry: Geometry) -> LadderTables:
    """The kernel tables of a geometry (computed once per geometry)."""
    n_cells = geometry.n_cells
    grid = grid_tables(geometry)
    units = grid.units.astype(np.int64)
    ukind = np.asarray([("row", "column", "box", "extra").index(unit_kind(geometry, u).value)
                        for u in range(len(units))], dtype=np.int64)
    position = [{cell: i for i, cell in enumerate(unit)} for unit in geometry.units]
    inter = np.zeros((len(intersections(geometry)), 5), dtype=np.int64)
    for row, it in zip(inter, intersections(geometry)):
        first, second = geometry.units[it.first], geometry.units[it.second]
        shared = sum(1 << position[it.first][c] for c in first if it.cells >> c & 1)
        outside = sum(1 << position[it.second][c] for c in second if c not in position[it.first])
        row[:] = (it.first, it.second, ukind[it.first] == 2, shared, outside)
    sees = grid.sees
    cell_units = grid.units_of.astype(np.int64)
    rects = np.asarray(rectangle_shapes(geometry), dtype=np.int64).reshape(-1, 4)
    box_of = np.asarray([geometry.box_of(c) for c in range(n_cells)], dtype=np.int64)
    if np.diagonal(sees).any():
        raise ValueError("a cell listed as its own peer")  # the kernels' bitsets assume not
    return LadderTables(units, ukind, inter, sees, cell_units, rects, box_of, bitsets(sees),
                        bitsets(_members(units, n_cells)), swappable(geometry))


def _members(units: np.ndarray, n_cells: int) -> np.ndarray:
    """bool[U, C]: whether each cell is in each unit."""
    member = np.zeros((len(units), n_cells), dtype=bool)
    member[np.arange(len(units))[:, None], units] = True
    return member


_SUBSETS = {f"{kind} {name}": size for kind in ("Naked", "Hidden")
            for name, size in (("Pair", 2), ("Triple", 3), ("Quad", 4))}
_FISH = {"X-Wing": 2, "Swordfish": 3, "Jellyfish": 4}
_SINGLES = ("Full House", "Hidden Single (box)", "Hidden Single (line)", "Naked Single")


@dataclass(frozen=True)
class Run:
    """Consecutive techniques of a ladder decided by one kernel call.

    Attributes:
        techniques: the techniques, in ladder order.
        codes: int64[K], their kernel codes.
        tables: the grid's :class:`LadderTables`.
    """

    techniques: tuple[Technique, ...]
    codes: np.ndarray
    tables: LadderTables

    def step(self, board: Board) -> Step | None:
        """The step of the first technique of the run that finds one on ``board``, or None.

        Raises:
            SolverBug: the kernel and the technique's Python finder disagree.
        """
        t = self.tables
        places = np.empty(t.units.shape, dtype=np.uint64)
        work, vals, pairs, bitsets, out = _scratch(t)
        k = _ladder_kernels().first_found(self.codes, board.array, board.value_array, t.grid,
                                          (places, work, vals, pairs, bitsets),  # LadderScratch
                                          _memos(board, t), out)
        board.set_places(places)
        if k < 0:
            return None
        tech = self.techniques[k]
        _, unit, cell, digit, *rest = out.tolist()
        if tech.name in _SINGLES:
            return self.single_step(board.geometry, k, unit, cell, digit)
        if tech.name in ("Pointing", "Claiming"):
            return self._locked(board, tech, places, unit, cell)
        size = _SUBSETS.get(tech.name)
        if tech.name in ("XY-Wing", "XYZ-Wing"):
            step = wing_step(board, unit, cell, digit, tech.name, tech.rating)
        elif tech.name in _FISH:
            step = fish_step(board, unit, tuple(((digit, *rest))[:_FISH[tech.name]]), cell,
                             tech.rating)
        elif tech.name == "Empty Rectangle":
            d0, box, row = unit, cell, digit
            col, flipped, x, y = rest
            near, far = er_parts(board, d0, box, row, board.side + col)
            step = er_step(board, d0, box, *((far, near) if flipped else (near, far)), x, y)
        elif tech.name == "Unique Rectangle":
            step = rectangle_step(board, tuple(int(c) for c in self.tables.rects[unit]),
                                  cell + 1, digit + 1)  # rectangle, x - 1, y - 1
        elif tech.name == "Turbot Fish":
            step = turbot_step(board, unit, cell, digit, *rest)  # d0, u1, u2, ends
        elif size is not None:
            group = tuple((cell, digit, *rest)[:size])
            make = naked_subset_step if tech.name.startswith("Naked") else hidden_subset_step
            step = make(board, unit, group, tech.rating)
        else:
            step = tech.find(board)
        if step is None:
            raise SolverBug(f"the compiled ladder found a {tech.name} step that its finder "
                            "does not find")
        return step

    @cached_property
    def singles_first(self) -> bool:
        """Whether the run starts with the four singles in ladder order (see
        :func:`first_steps`)."""
        return tuple(t.name for t in self.techniques[:4]) == _SINGLES

    def single_step(self, geometry: Geometry, k: int, unit: int, cell: int, digit: int) -> Step:
        """The step of the single found by technique ``k`` of the run (a full house or hidden
        single in ``unit``; a naked single)."""
        tech = self.techniques[k]
        if tech.name == "Full House":
            return full_house_step(geometry, unit, cell, digit)
        if tech.name == "Naked Single":
            return naked_single_step(geometry, cell, digit)
        return hidden_single_step(geometry, unit, cell, digit, tech.rating)

    def single_steps(self, geometry: Geometry, found: list[list[int]]) -> list[Step]:
        """The steps of the singles ``found``, rows of (k, unit, cell, digit) as
        :meth:`single_step` takes them, on a run that starts with the four singles."""
        return single_steps(geometry, found, tuple(t.rating for t in self.techniques[:4]))

    def _locked(self, board: Board, tech: Technique, places: np.ndarray, row: int,
                d0: int) -> Step:
        """The locked-candidates step of intersection ``row`` of the tables, digit d0 + 1."""
        first, second, _, _, outside = (int(v) for v in self.tables.inter[row])
        units = self.tables.units
        inside = int(places[first, d0])
        targets = int(places[second, d0]) & outside
        return locked_step(board.geometry, tech.name, tech.rating, first, second, d0 + 1,
                           sorted(int(units[first, p]) for p in bits(inside)),
                           sorted(int(units[second, p]) for p in bits(targets)))


_LOCAL = threading.local()
_MEMO = f"{__name__}.single_digit"
"""Key in ``board.history`` (kept through one solve) of the kernel's memos of the digits on
which the single-digit techniques, and of the units in which the subsets, found nothing (see
:func:`~sudokit.logic._ladder_kernel.first_found`)."""


def _memos(board: Board, t: LadderTables) -> tuple[np.ndarray, ...]:
    """The kernel's memos (digits, units) of ``board``'s solve, made on first use: a
    :class:`~.kernels.bundles.LadderMemo` as a plain tuple."""
    memos = board.history.get(_MEMO)
    side = t.units.shape[1]
    if memos is None or memos[0].shape != (side, t.peer_bits.shape[1] + 1):
        memos = board.history[_MEMO] = tuple(LadderMemo(
            np.zeros((side, t.peer_bits.shape[1] + 1), dtype=np.uint64),
            np.zeros((len(t.units), side + 1), dtype=np.uint64)))
    return memos


def _scratch(t: LadderTables) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """This thread's scratch arrays for the kernel on grids of ``t`` (work, vals, pairs,
    bitsets, out)."""
    arrays = getattr(_LOCAL, "arrays", None)
    if (arrays is None or arrays[0].shape[0] != t.work or arrays[1].shape[0] != t.units.shape[1]
            or arrays[2].shape[0] != len(t.units) or arrays[3].shape[1] != t.peer_bits.shape[1]):
        arrays = _LOCAL.arrays = (np.empty(t.work, dtype=np.int64),
                                  np.empty(t.units.shape[1], dtype=np.uint64),
                                  np.empty((len(t.units), 3), dtype=np.int64),
                                  np.empty((t.units.shape[1] + 5, t.peer_bits.shape[1]),
                                           dtype=np.uint64),
                                  np.empty(8, dtype=np.int64))
    return arrays


def _chain_scratch(t: LadderTables) -> tuple[np.ndarray, np.ndarray]:
    """This thread's scratch arrays for :func:`~sudokit.logic.techniques._singles_kernel.singles_chain` on
    grids of ``t`` (seq, places)."""
    arrays = getattr(_LOCAL, "chain", None)
    if arrays is None or arrays[0].shape[0] != t.sees.shape[0] or arrays[1].shape != t.units.shape:
        arrays = _LOCAL.chain = (np.empty((t.sees.shape[0], 4), dtype=np.int64),
                                 np.empty(t.units.shape, dtype=np.uint64))
    return arrays


@cache
def _ladder_kernels():  # the module, imported on first use (it loads Numba)
    from . import _ladder_kernel

    return _ladder_kernel


@cache
def _singles_kernels():  # the module, imported on first use (it loads Numba)
    from .techniques import _singles_kernel

    return _singles_kernel


def plan(ladder: tuple[Technique, ...], geometry: Geometry) -> tuple[Technique | Run, ...]:
    """Cut ``ladder`` into :class:`Run` s of kernel techniques and the Python techniques
    between them (all Python on a grid over :data:`MAX_CELLS` cells, and while
    :func:`sudokit.compiled.use_compiled` says Python)."""
    if not use_compiled(Kernels.LOGIC, geometry.n_cells, MAX_CELLS):
        return ladder
    return _plan(ladder, geometry)


@cache
def _plan(ladder: tuple[Technique, ...], geometry: Geometry) -> tuple[Technique | Run, ...]:
    out: list[Technique | Run] = []
    pending: list[Technique] = []

    def flush() -> None:
        if pending:
            codes = _ladder_kernels().CODES
            out.append(Run(tuple(pending), np.asarray([codes[t.name] for t in pending],
                                                      dtype=np.int64), ladder_tables(geometry)))
            pending.clear()

    for tech in ladder:
        if (tech.name in _ladder_kernels().CODES and _registered_finder(tech)
                and (tech.name != "Empty Rectangle" or len(geometry.units) >= 3 * geometry.side)):
            pending.append(tech)
        else:
            flush()
            out.append(tech)
    flush()
    return tuple(out)


def _registered_finder(tech: Technique) -> bool:
    """Whether ``tech`` is the sudokit technique of that name (not a homonym registered
    elsewhere), so its kernel decides the same thing."""
    return tech.find.__module__.startswith(f"{__package__}.techniques.")


@twin(Kernels.LOGIC, "sudokit.logic._ladder_kernel:first_found",
      "sudokit.logic.ladder:first_step", "ladders")
def next_step(board: Board, ladder: Sequence[Technique]) -> Step | None:
    """Return the first step of the easiest technique of ``ladder`` that finds one, or None
    (as trying each technique's finder in turn; see the module docstring)."""
    return first_step(board, plan(tuple(ladder), board.geometry))


def first_steps(board: Board, items: Sequence[Technique | Run]) -> list[Step]:
    """The next step of the ladder ``items`` (cut by :func:`plan`) on ``board`` and, when it
    is a single and the ladder starts with the four singles, the singles that follow it, each
    the next step once the ones before it are placed (the ladder restarts from the easiest
    technique after every step, and the singles come first); empty when no step is found.
    Following them in compiled code spares a board snapshot and a kernel call per single."""
    return next_steps(board, items)[0]


def next_steps(board: Board, items: Sequence[Technique | Run]
               ) -> tuple[list[Step], tuple[np.ndarray, np.ndarray] | None]:
    """:func:`first_steps`, with the candidate masks (uint64[C]) and placed digits (int16[C])
    after the last of the steps when they are singles followed in compiled code (the state
    they lead to, computed anyway: a caller may take it instead of placing them one by one);
    None otherwise."""
    first = items[0] if items else None
    if isinstance(first, Run) and first.singles_first:
        t = first.tables
        seq, places = _chain_scratch(t)
        masks, values = board.array.copy(), board.value_array.copy()
        count = _singles_kernels().singles_chain(masks, values, t.units, t.ukind, t.sees, places,
                                                 seq)
        if count:
            return first.single_steps(board.geometry, seq[:count].tolist()), (masks, values)
    step = first_step(board, items)
    return ([] if step is None else [step]), None


def first_step(board: Board, items: Sequence[Technique | Run]) -> Step | None:
    """Like :func:`next_step` with the ladder already cut by :func:`plan`.

    Raises:
        LimitReached: the deadline of the solve running (:mod:`sudokit.logic.deadline`)
            passed, checked before each technique.
    """
    for item in items:
        check_deadline()
        step = item.step(board) if isinstance(item, Run) else item.find(board)
        if step is not None:
            return step
    return None
