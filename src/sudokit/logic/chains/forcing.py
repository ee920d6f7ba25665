"""Forcing chains: digit (a candidate true and false), cell (every candidate of a cell) and unit
(every place of a digit in a unit), followed by singles (dynamic forcing chains).

Each branch assumes one outcome and derives what singles force
(:mod:`sudokit.logic.chains.dynamic`).
A fact that holds in every branch holds; a branch that ends in a contradiction is false.
Ratings on Sudoku Explainer's scale, each plus the length bonus of a chain of twice the waves of
singles the longest branch needs: digit forcing chains (contradiction, or both ways) 8.1, cell
and unit forcing chains 8.2. With singles between links these chains lie between Explainer's
static forcing chains (Nishio 7.5, multiple 8.0) and its dynamic ones (8.5); the bases were
fitted to the published ratings of the rated set of ``benchmarks/logic.py``.
"""

from __future__ import annotations

import numpy as np

from ...model.geometry import Geometry
from ...compiled import Kernels, twin, use_compiled
from .dynamic import Implications, consequences
from ..registry import technique
from ..state import Board, bits
from ..step import Step, eliminations_text, length_bonus
from ..tables import grid_tables

__all__ = ["cell_forcing_chain", "digit_forcing_chain", "unit_forcing_chain"]

DIGIT = 8.1
"""Base rating of digit forcing chains (see the module docstring)."""
KERNEL_CELLS = 256
"""Largest grid (cells) whose forcing chains are searched compiled (sides up to 16)."""


def _common(board: Board, branches: list[Implications]) -> tuple[list, list, int]:
    """Placements and eliminations every live branch implies, and the waves they need."""
    live = [b for b in branches if not b.contradiction]
    if not live:
        return [], [], 0
    placed = {(c, d) for c, (d, _w) in live[0].placed.items()
              if not board.values[c] and all(o.placed.get(c, (0,))[0] == d for o in live[1:])}
    eliminated = {e for e in live[0].eliminated
                  if all(e in o.eliminated for o in live[1:])}
    for c, d in placed:
        eliminated -= {(c, x + 1) for x in bits(board.masks[c])}
    eliminated = {(c, d) for c, d in eliminated if board.masks[c] >> (d - 1) & 1}
    waves = 0
    for c, d in placed:
        waves = max(waves, max(o.placed[c][1] for o in live))
    for e in eliminated:
        waves = max(waves, max(o.eliminated[e] for o in live))
    return sorted(placed), sorted(eliminated), waves


def _step(board: Board, name: str, base: float, premise: str, placements: list,
          eliminations: list, waves: int, cells: tuple[int, ...], digits: tuple[int, ...]) -> Step:
    g = board.geometry
    what = ", ".join(f"{g.label(c)}={g.symbol(d)}" for c, d in placements)
    if eliminations:
        what = ", ".join(filter(None, [what, eliminations_text(g, eliminations)]))
    return Step(name, base + length_bonus(2 * waves + 1),
                f"{premise} all lead to {what}", placements=tuple(placements),
                eliminations=tuple(eliminations), cells=cells, digits=digits)


def digit_forcing_chain(board: Board) -> Step | None:
    """A candidate whose truth leads to a contradiction is false; one whose falsehood does is
    true; what follows from both its truth and its falsehood holds. The shortest wins."""
    kinds, waves, counts = _digit_keys(board)
    best: tuple[tuple[float, int], int, int] | None = None
    k = 0
    for cell in board.open_cells:
        for b in bits(board.masks[cell]):
            if kinds[k]:
                key = (DIGIT + length_bonus(2 * waves[k] + 1), -counts[k])
                if best is None or key < best[0]:
                    best = (key, cell, b + 1)
            k += 1
    return _digit_step(board, best[1], best[2]) if best else None


@twin(Kernels.LOGIC, "sudokit.logic.chains._forcing_kernel:digit_forcing_keys",
      "sudokit.logic.chains.forcing:_digit_keys_reference", "boards")
def _digit_keys(board: Board) -> tuple[list[int], list[int], list[int]]:
    """Per candidate (open cells ascending, then digits), what :func:`_digit_step` finds (0
    nothing, 1 a contradiction of its truth, 2 of its falsehood, 3 common facts), the waves of
    singles it needs and its count of placements and eliminations (compiled:
    :func:`~sudokit.logic.chains._forcing_kernel.digit_forcing_keys`; the Python reference
    :func:`_digit_keys_reference` while :func:`sudokit.compiled.use_compiled` says so)."""
    if not use_compiled(Kernels.LOGIC, board.geometry.n_cells, KERNEL_CELLS):
        return _digit_keys_reference(board)
    from ..kernels.arrays import board_arrays
    from ._forcing_kernel import digit_forcing_keys

    g = board.geometry
    arrays = board_arrays(board)
    size = int(arrays.cand.sum())
    kinds, waves, counts = (np.zeros(size, dtype=np.int64) for _ in range(3))
    k = digit_forcing_keys(arrays.masks, arrays.values, _grid(g), (kinds, waves, counts),
                           _branch(g), _branch(g), _scratch(g))
    return kinds[:k].tolist(), waves[:k].tolist(), counts[:k].tolist()


def _digit_keys_reference(board: Board) -> tuple[list[int], list[int], list[int]]:
    """:func:`_digit_keys` in Python: both outcomes of every candidate followed by singles."""
    kinds: list[int] = []
    waves: list[int] = []
    counts: list[int] = []
    for cell in board.open_cells:
        for b in bits(board.masks[cell]):
            on = consequences(board, cell, b + 1, True)
            off = consequences(board, cell, b + 1, False)
            if on.contradiction and (not off.contradiction or on.waves <= off.waves):
                kind, wave, count = 1, on.waves, 1
            elif off.contradiction:
                kind, wave, count = 2, off.waves, 1
            else:
                placements, eliminations, wave = _common(board, [on, off])
                count = len(placements) + len(eliminations)
                kind = 3 if count else 0
            kinds.append(kind)
            waves.append(wave)
            counts.append(count)
    return kinds, waves, counts


def _digit_step(board: Board, cell: int, digit: int) -> Step | None:
    g = board.geometry
    on = consequences(board, cell, digit, True)
    off = consequences(board, cell, digit, False)
    where, sym = g.label(cell), g.symbol(digit)
    if on.contradiction and (not off.contradiction or on.waves <= off.waves):
        return Step("Digit Forcing Chain", DIGIT + length_bonus(2 * on.waves + 1),
                    f"{where}={sym} leads to a contradiction by singles: {where}<>{sym}",
                    eliminations=((cell, digit),), cells=(cell,), digits=(digit,))
    if off.contradiction:
        return Step("Digit Forcing Chain", DIGIT + length_bonus(2 * off.waves + 1),
                    f"{where}<>{sym} leads to a contradiction by singles: {where}={sym}",
                    placements=((cell, digit),), cells=(cell,), digits=(digit,))
    placements, eliminations, waves = _common(board, [on, off])
    if not placements and not eliminations:
        return None
    return _step(board, "Digit Forcing Chain", DIGIT, f"{where}={sym} and {where}<>{sym}",
                 placements, eliminations, waves, (cell,), (digit,))


def cell_forcing_chain(board: Board) -> Step | None:
    """Every candidate of one cell leads to the same facts (the cell of fewest waves, first
    in order; searched compiled: :func:`~sudokit.logic.chains._forcing_kernel.forcing_best`)."""
    best = _forcing_best(board, False)
    return None if best < 0 else _cell_step(board, best)[1]


def _cell_step(board: Board, cell: int) -> tuple[int, Step | None]:
    """The waves and step of the cell forcing chain of ``cell`` (None: nothing common)."""
    g = board.geometry
    digits = [b + 1 for b in bits(board.masks[cell])]
    branches = [consequences(board, cell, d, True) for d in digits]
    placements, eliminations, waves = _common(board, branches)
    if not placements and not eliminations:
        return waves, None
    premise = " and ".join(f"{g.label(cell)}={g.symbol(d)}" for d in digits)
    return waves, _step(board, "Cell Forcing Chain", 8.2, premise, placements, eliminations,
                        waves, (cell,), tuple(digits))


def unit_forcing_chain(board: Board) -> Step | None:
    """Every place of a digit in one unit leads to the same facts (the unit and digit of
    fewest waves, first in order; searched compiled)."""
    best = _forcing_best(board, True)
    return None if best < 0 else _unit_step(board, best // board.side, best % board.side)[1]


def _unit_step(board: Board, u: int, d0: int) -> tuple[int, Step | None]:
    """The waves and step of the unit forcing chain of digit ``d0 + 1`` in unit ``u`` (None:
    fewer than two places, or nothing common)."""
    g = board.geometry
    where = board.places[u][d0]
    if where.bit_count() < 2:
        return 0, None
    cells = [g.units[u][p] for p in bits(where)]
    branches = [consequences(board, c, d0 + 1, True) for c in cells]
    placements, eliminations, waves = _common(board, branches)
    if not placements and not eliminations:
        return waves, None
    premise = " and ".join(f"{g.label(c)}={d0 + 1}" for c in cells)
    return waves, _step(board, "Unit Forcing Chain", 8.2, f"{premise} ({g.unit_names[u]})",
                        placements, eliminations, waves, tuple(cells), (d0 + 1,))


def _grid(geometry: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The :class:`~sudokit.logic.chains._forcing_kernel.ForcingGrid` of ``geometry``, as the
    plain tuple the kernels take."""
    t = grid_tables(geometry)
    return (t.peers, t.units, t.units_of, geometry.side)


def _branch(geometry: Geometry) -> tuple[np.ndarray, ...]:
    """An empty :class:`~sudokit.logic.chains._forcing_kernel.Branch`, as a plain tuple."""
    c = geometry.n_cells
    return (np.empty(c, dtype=np.int64), np.empty(c, dtype=np.int64),
            np.empty(c, dtype=np.int64), np.empty(c * geometry.side, dtype=np.int64))


def _scratch(geometry: Geometry) -> tuple[np.ndarray, ...]:
    """The :class:`~sudokit.logic.chains._forcing_kernel.SinglesScratch` of
    :func:`~sudokit.logic.chains._forcing_kernel.assume_candidate`, as a plain tuple: the
    pending singles have room for one wave's (a naked single per cell, a hidden single per
    unit and digit) and for the first assumption, int32 each."""
    size = geometry.n_cells * geometry.side + len(geometry.units) * geometry.side \
        + geometry.n_cells
    return (np.empty(geometry.n_cells, dtype=np.uint8), np.empty(size, dtype=np.int32),
            np.empty(size, dtype=np.int32), np.empty(len(geometry.units), dtype=np.uint8))


@twin(Kernels.LOGIC, "sudokit.logic.chains._forcing_kernel:forcing_best",
      "sudokit.logic.chains.forcing:_forcing_best_reference", "forcing")
def _forcing_best(board: Board, by_unit: bool) -> int:
    """The search of the cell (unit) forcing chain of fewest waves, first in order: its cell
    (unit * N + digit - 1), or -1. Compiled, or in Python while
    :func:`sudokit.compiled.use_compiled` says so (:func:`_forcing_best_reference`)."""
    if not use_compiled(Kernels.LOGIC, board.geometry.n_cells, KERNEL_CELLS):
        return _forcing_best_reference(board, by_unit)
    from ..kernels.arrays import board_arrays
    from ._forcing_kernel import forcing_best

    g = board.geometry
    c, n = g.n_cells, g.side
    branches = (np.empty((n, c), dtype=np.int64), np.empty((n, c), dtype=np.int64),
                np.empty((n, c * n), dtype=np.int64), np.empty(n, dtype=np.uint8),
                np.empty(c, dtype=np.int64))
    best, _waves = forcing_best(by_unit, *board_arrays(board)[:2], _grid(g), branches,
                                _scratch(g))
    return int(best)


def _forcing_best_reference(board: Board, by_unit: bool) -> int:
    """:func:`_forcing_best` in Python, from the same steps the technique then shows."""
    n = board.side
    if by_unit:
        steps = ((u * n + d, _unit_step(board, u, d))
                 for u in range(len(board.geometry.units)) for d in range(n))
    else:
        steps = ((cell, _cell_step(board, cell)) for cell in board.open_cells)
    best, best_waves = -1, 0
    for key, (waves, step) in steps:
        if step is not None and (best < 0 or waves < best_waves):
            best, best_waves = key, waves
    return best



technique("Digit Forcing Chain", DIGIT, max_side=16, classic=False)(digit_forcing_chain)
technique("Cell Forcing Chain", 8.2, max_side=16, classic=False)(cell_forcing_chain)
technique("Unit Forcing Chain", 8.2, max_side=16, order=1, classic=False)(unit_forcing_chain)
