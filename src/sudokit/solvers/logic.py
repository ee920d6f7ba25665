"""Adapter for ``logic``: human-style techniques, easiest first, with trial (branching) where
logic ends, so that it also enumerates solutions.

Only techniques that keep every solution run here (uniqueness techniques assume one solution,
which a solver may not); where they stop, the search branches on the open cell with the fewest
candidates (one node per branch) and applies the techniques again in each branch. The counters
are the nodes and, in ``extra``, the number of steps of each technique.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar

from ..logic.chains.explainer import PYTHON_ONLY
from ..logic.chains.nested import compile_nested
from ..logic.chains.rule_forcing import compile_rounds
from ..logic.registry import TechniqueKind, techniques
from ..logic.rule_filters import compile_fillings
from ..logic.solve import solve_steps
from ..logic.state import FEATURES, Candidates, bits
from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from ..registry import OptionValue, register
from .base import Solver

_LEVELS = {"singles": 2.3, "basic": 5.4, "chains": 7.5, "all": None}
"""Option ``level``: the highest technique rating (Sudoku Explainer's scale) the ladder uses.
singles: full house, hidden and naked singles; basic: also locked candidates, subsets up to
quads, X-Wing, Swordfish, Jellyfish, XY- and XYZ-Wing, the four-node single-digit patterns
(Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle) and short X-chains; chains: also the
WXYZ/VWXYZ-Wings, longer X-chains, Y-cycles, colouring, AICs, ALS-XZ and the W-Wing (rated 7.1,
as Explainer rates the chain it is); all: forcing chains too."""


@register
class LogicSolver(Solver):
    """Technique ladder (:mod:`sudokit.logic`) plus branching; option ``level`` bounds the
    ladder (see :data:`_LEVELS`): singles, basic (up to 5.4: subsets, fish, XY/XYZ-Wings,
    four-node patterns, short X-chains), chains (up to 7.5: W-Wing, AIC, ALS ...), all (forcing
    chains too)."""

    name = "logic"
    summary = ("human-style techniques easiest first (singles ... chains, forcing chains), "
               "branching where they stop; counts steps per technique")
    counters = frozenset({"nodes", "backtracks"})
    max_side = 25
    features = FEATURES
    options: ClassVar[Mapping[str, tuple[OptionValue, Sequence[OptionValue] | None]]] = {
        "level": ("basic", tuple(_LEVELS))}

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        state = Candidates.from_puzzle(puzzle)
        max_rating = _LEVELS[self.settings["level"]]
        yield from _branch(state, stats, limits, frozenset({TechniqueKind.LOGIC}), max_rating)

    def warm_up(self, geometry: Geometry | None = None) -> None:
        """Compile (or load from the disk cache) the technique engine's Numba kernels, once
        per process, so that a per-puzzle time limit measures solving, not compiling (the
        first use on a fresh install compiles for 20-40 s).

        Kernels are typed by the candidates' dtype, not by the grid side, so one 9x9 solve
        serves every size: the whole solve of :data:`_WARM_UP` (its steps reach the ladder
        kernels, chains, AICs, ALS and forcing chains), then every technique of the ladder
        once on its first board (for searches that solve did not reach), but Sudoku Explainer's
        Python-only producers (:data:`~sudokit.logic.chains.explainer.PYTHON_ONLY`, whose
        kernels :func:`~sudokit.logic.chains.nested.compile_nested` loads), the rules'
        fillings search (:func:`~sudokit.logic.rule_filters.compile_fillings`) and the rule
        forcing chains' rounds (:func:`~sudokit.logic.chains.rule_forcing.compile_rounds`).
        """
        global _warm
        if _warm:
            return
        state = Candidates.from_puzzle(Puzzle.from_digits([int(c) for c in _WARM_UP]))
        board = state.board()
        for _step in solve_steps(state, kinds=frozenset({TechniqueKind.LOGIC})):
            pass
        for technique in techniques(frozenset({TechniqueKind.LOGIC})):
            if technique.name not in PYTHON_ONLY:  # nothing to compile, seconds of search
                technique.find(board)
        compile_nested(board.geometry, [0 if v else m for m, v in zip(board.masks, board.values)])
        compile_fillings()
        compile_rounds()
        _warm = True


_WARM_UP = ("005080900000005047020400500060020300070000080004010090003004020210900000"
            "006030100")
"""A 9x9 puzzle of grantm/sudoku-exchange-puzzle-bank's SE calibration set (public domain;
Sukaku Explainer rating 8.8; see ``tests/data/SOURCES.md``, ``rated/``) whose logical solve uses 20 techniques, chains, AICs, ALS-XZ,
VWXYZ-Wings, a Y-cycle and digit forcing chains among them."""

_warm = False


def _branch(state, stats: Stats, limits: Limits, kinds, max_rating) -> Iterator[Grid]:
    if state.contradiction() is not None:
        return
    for _step in solve_steps(state, kinds=kinds, limits=limits, stats=stats,
                             max_rating=max_rating):
        if state.contradiction() is not None:
            return
    if state.solved:
        yield state.grid()
        return
    masks = state.masks.tolist()
    open_cells = [c for c, v in enumerate(state.values.tolist()) if not v]
    cell = min(open_cells, key=lambda c: masks[c].bit_count())
    for b in bits(masks[cell]):
        limits.count_node(stats)
        child = state.copy()
        child.place(cell, b + 1)
        found = False
        for grid in _branch(child, stats, limits, kinds, max_rating):
            found = True
            yield grid
        if not found:
            stats.backtracks = (stats.backtracks or 0) + 1
