"""Numba kernels for the cheap techniques of the solve ladder: which one finds a step first.

The solve loop restarts from the easiest technique after every step (Sudoku Explainer's rule,
Juillerat 2006), so the cheap techniques (singles, locked candidates, subsets, basic fish,
XY/XYZ-Wing, Unique Rectangle, BUG+1, Turbot Fish, Empty Rectangle, simple colouring) run dozens of
times per puzzle, nearly always finding nothing. :func:`first_found` runs a run of consecutive cheap
techniques of the ladder on the candidate masks in compiled code and returns the position of the
first one that has a step (and, for the singles, the step itself: unit, cell and digit, found in the
same order as the Python finders of :mod:`sudokit.logic.techniques.singles`). The Python finder of
that technique then builds the :class:`~sudokit.logic.step.Step`, so steps, texts and their order
are those of the Python ladder; the kernels only decide *whether* each technique applies, with the
same conditions as its Python finder (tests compare the two on every state of many solves).

Technique codes are the ``T_*`` constants; :data:`CODES` maps technique names to them.
The techniques' kernels are beside their finders (``logic/techniques/_<family>_kernel.py``).
Kernels compile on first use and are cached on disk (:mod:`sudokit.fast.cache`, whose
``KERNEL_SOURCES`` must cover every ``_*_kernel.py`` of ``logic/`` and ``logic/kernels/*.py``: a
kernel inlines the kernels it calls from the other modules).
"""

from __future__ import annotations

from ..fast.state import ZERO, jit
from .kernels.bundles import LadderGrid, LadderMemo, LadderScratch
from .kernels.common import bit_at, fill_digit_bits, fill_places
from .techniques._fish_kernel import fish
from .techniques._intersections_kernel import locked
from .techniques._single_digit_kernel import empty_rectangle, simple_colouring, turbot_fish
from .techniques._singles_kernel import full_house, hidden_single, naked_single
from .techniques._subsets_kernel import hidden_subset, naked_subset, refresh_units
from .techniques._uniqueness_kernel import bug_plus_one, unique_rectangle
from .techniques._wings_kernel import wing

__all__ = ["CODES", "first_found"]

T_FULL_HOUSE = 1
T_HIDDEN_BOX = 2
T_HIDDEN_LINE = 3
T_NAKED_SINGLE = 4
T_POINTING = 5
T_CLAIMING = 6
T_NAKED_2 = 7
T_NAKED_3 = 8
T_NAKED_4 = 9
T_HIDDEN_2 = 10
T_HIDDEN_3 = 11
T_HIDDEN_4 = 12
T_FISH_2 = 13
T_FISH_3 = 14
T_FISH_4 = 15
T_XY_WING = 16
T_XYZ_WING = 17
T_UNIQUE_RECTANGLE = 18
T_BUG_PLUS_ONE = 19
T_TURBOT_FISH = 20
T_EMPTY_RECTANGLE = 21
T_SIMPLE_COLOURING = 22

CODES = {
    "Full House": T_FULL_HOUSE,
    "Hidden Single (box)": T_HIDDEN_BOX,
    "Hidden Single (line)": T_HIDDEN_LINE,
    "Naked Single": T_NAKED_SINGLE,
    "Pointing": T_POINTING,
    "Claiming": T_CLAIMING,
    "Naked Pair": T_NAKED_2,
    "Naked Triple": T_NAKED_3,
    "Naked Quad": T_NAKED_4,
    "Hidden Pair": T_HIDDEN_2,
    "Hidden Triple": T_HIDDEN_3,
    "Hidden Quad": T_HIDDEN_4,
    "X-Wing": T_FISH_2,
    "Swordfish": T_FISH_3,
    "Jellyfish": T_FISH_4,
    "XY-Wing": T_XY_WING,
    "XYZ-Wing": T_XYZ_WING,
    "Unique Rectangle": T_UNIQUE_RECTANGLE,
    "BUG+1": T_BUG_PLUS_ONE,
    "Turbot Fish": T_TURBOT_FISH,
    "Empty Rectangle": T_EMPTY_RECTANGLE,
    "Simple Colouring": T_SIMPLE_COLOURING,
}
"""Registered technique name -> kernel code, for the techniques :func:`first_found` decides."""


@jit
def first_found(codes, masks, values, grid_tuple, scratch_tuple, memo_tuple, out):
    """Run the techniques ``codes`` (``T_*``, ladder order) on a candidates state; return the
    position in ``codes`` of the first that has a step, or -1.

    Args:
        codes: int64[K] technique codes.
        masks: uint64[C] candidate masks (a placed cell: its digit's bit); values: int16[C]
            placed digits (0 open).
        grid_tuple: the grid's arrays, a :class:`~sudokit.logic.kernels.bundles.LadderGrid`
            as a plain tuple (why: :mod:`sudokit.logic.kernels.bundles`; shapes and dtypes
            there).
        scratch_tuple: the work arrays, a
            :class:`~sudokit.logic.kernels.bundles.LadderScratch` as a plain tuple (``places``
            is filled with the digits' places per unit).
        memo_tuple: a :class:`~sudokit.logic.kernels.bundles.LadderMemo` as a plain tuple,
            kept between calls (zeros at first). The answer of fish, Turbot Fish and Empty
            Rectangle on a digit depends on its cells alone, so a digit whose cells did not
            change is skipped by the techniques marked in ``memo``; a digit whose cells changed
            has its marks cleared (``unit_memo``: the same for the subsets, per unit).
        out: int64[8] filled for a single: (position, unit or -1, cell, digit); for locked
            candidates: (position, row of ``inter``, digit - 1); for a subset: (position,
            unit, its cells or digits - 1); for a wing: (position, pivot, pincers); for a
            fish: (position, digit - 1, cover offset, base lines); for a Turbot Fish:
            (position, digit - 1, unit, unit, far end, near end, near end, far end); for an
            Empty Rectangle: (position, digit - 1, box, row, column - N, flipped, strong
            link's ends); for a Unique Rectangle: (position, row of ``rects``, x - 1, y - 1).

    Long on purpose: the dispatch over technique codes; most of it is this docstring.
    """
    grid = LadderGrid(*grid_tuple)
    scratch = LadderScratch(*scratch_tuple)
    memos = LadderMemo(*memo_tuple)
    units, ukind, inter, sees, cell_units = (grid.units, grid.ukind, grid.inter, grid.sees,
                                             grid.cell_units)
    box_of, peer_bits, swappable = grid.box_of, grid.peer_bits, grid.swappable
    places, work, vals, pairs, bitsets = (scratch.places, scratch.work, scratch.vals,
                                          scratch.pairs, scratch.bitsets)
    memo, unit_memo = memos.memo, memos.unit_memo
    n_cells = masks.shape[0]
    side = units.shape[1]
    fill_places(masks, values, units, places)
    width = max(n_cells, side)
    idx = work[:4]
    work_cells = work[4:4 + width]
    shared = work[4 + width:4 + width + cell_units.shape[1]]
    near = work[4 + width + cell_units.shape[1]:4 + width + cell_units.shape[1] + side]
    far = work[4 + width + cell_units.shape[1] + side:4 + width + cell_units.shape[1] + 2 * side]
    rest = 4 + width + cell_units.shape[1] + 2 * side
    colour_stack = work[rest:rest + n_cells]
    cells = work[rest + n_cells:rest + 2 * n_cells]
    dbits = bitsets[:side]  # the digits' open cells
    everywhere = bitsets[side]
    er_bits = bitsets[side + 1:side + 5]  # Empty Rectangle's scratch bitsets
    everywhere[:] = ~ZERO
    fill_digit_bits(masks, values, dbits)
    n_words = dbits.shape[1]
    for d in range(side):  # the memo's marks hold for a digit whose cells are unchanged
        same = True
        for w in range(n_words):
            if memo[d, w] != dbits[d, w]:
                same = False
                memo[d, w] = dbits[d, w]
        if not same:
            memo[d, n_words] = ZERO
    units_fresh = False
    out[0] = -1
    for k in range(codes.shape[0]):
        code = codes[k]
        found = False
        if code == T_FULL_HOUSE:
            found = full_house(masks, values, units, out)
        elif code == T_HIDDEN_BOX:
            found = hidden_single(units, ukind, places, True, out)
        elif code == T_HIDDEN_LINE:
            found = hidden_single(units, ukind, places, False, out)
        elif code == T_NAKED_SINGLE:
            found = naked_single(masks, values, out)
        elif code == T_POINTING:
            found = locked(places, inter, True, out)
        elif code == T_CLAIMING:
            found = locked(places, inter, False, out)
        elif T_NAKED_2 <= code <= T_HIDDEN_4:
            if not units_fresh:
                refresh_units(masks, values, units, unit_memo)
                units_fresh = True
            if code <= T_NAKED_4:
                found = naked_subset(masks, values, units, code - T_NAKED_2 + 2, idx,
                                     work_cells, vals, unit_memo, bit_at(code), out)
            else:
                found = hidden_subset(masks, units, places, code - T_HIDDEN_2 + 2, idx,
                                      work_cells, vals, unit_memo, bit_at(code), out)
        elif T_FISH_2 <= code <= T_FISH_4:
            found = fish(places, code - T_FISH_2 + 2, idx, work_cells, memo, bit_at(code), out)
        elif code == T_XY_WING or code == T_XYZ_WING:
            found = wing(masks, values, peer_bits, dbits, everywhere,
                         2 if code == T_XY_WING else 3, work_cells, out)
        elif code == T_UNIQUE_RECTANGLE:
            found = unique_rectangle(masks, values, grid, places, idx, work_cells, shared,
                                     dbits, everywhere, out)
        elif code == T_BUG_PLUS_ONE:
            found = swappable and bug_plus_one(masks, values, places, cell_units)
        elif code == T_TURBOT_FISH:
            found = turbot_fish(units, ukind, places, sees, box_of, pairs, peer_bits, dbits,
                                everywhere, memo, bit_at(code), out)
        elif code == T_SIMPLE_COLOURING:
            found = simple_colouring(masks, values, units, places, sees, pairs, work_cells,
                                     colour_stack, cells)
        elif code == T_EMPTY_RECTANGLE:
            found = empty_rectangle(grid, places, pairs, near, far, work_cells, dbits,
                                    everywhere, er_bits, memo, bit_at(code), out)
        if found:
            out[0] = k
            return k
    return -1
