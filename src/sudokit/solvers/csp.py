"""Adapters for the classic CSP methods: ``backtracking``, ``forward-checking`` and ``mac``.

Each is :func:`sudokit.csp.search.backtracking_search` on the Sudoku CSP with one inference
(none, forward checking, MAC) and options ``select`` (variable ordering) and ``order`` (value
ordering), e.g. ``get_solver("mac", select="mrv", order="natural")`` or the CLI's
``--option select=mrv``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from ..csp.search import Inference, Order, Select, counters_for
from ..csp.sudoku import sudoku_solutions
from ..model.geometry import ALL_FEATURES
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from ..model.rules import RULE_KINDS
from ..registry import register
from .base import Solver

SELECTS = tuple(s.value for s in Select)
ORDERS = tuple(o.value for o in Order)


class _CspSolver(Solver):
    """Backtracking search on the Sudoku CSP with this class's inference (every variant:
    extra units and ``!=`` pairs, non-consecutive pairs, killer cages, parity domains; see
    :mod:`sudokit.csp.sudoku`)."""

    inference: ClassVar[Inference]
    features = ALL_FEATURES | RULE_KINDS

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        return sudoku_solutions(puzzle, stats, limits, select=Select(self.settings["select"]),
                                order=Order(self.settings["order"]), inference=self.inference)


@register
class BacktrackingSolver(_CspSolver):
    """Plain backtracking: no inference, each assignment checked against assigned peers.

    The default ordering is MRV over legal values (AIMA's BACKTRACKING-SEARCH); ``select=static``
    gives chronological backtracking in cell order, which cannot finish hard puzzles.
    """

    name = "backtracking"
    summary = "plain backtracking, checks against assigned peers, MRV (AIMA ch. 6)"
    inference = Inference.NONE
    counters = counters_for(Inference.NONE)
    max_side = 16
    options = {"select": ("mrv", SELECTS), "order": ("natural", ORDERS)}


@register
class ForwardCheckingSolver(_CspSolver):
    """Backtracking with forward checking and fail-first (MRV) ordering."""

    name = "forward-checking"
    summary = "backtracking + forward checking, MRV (Haralick and Elliott 1980)"
    inference = Inference.FORWARD_CHECKING
    counters = counters_for(Inference.FORWARD_CHECKING)
    max_side = 25
    options = {"select": ("mrv", SELECTS), "order": ("natural", ORDERS)}


@register
class MacSolver(_CspSolver):
    """Backtracking maintaining arc consistency (AC-3 after each assignment)."""

    name = "mac"
    summary = "backtracking + AC-3 after each assignment (MAC), MRV+degree, LCV; Mackworth 1977"
    inference = Inference.MAC
    counters = counters_for(Inference.MAC)
    max_side = 25
    options = {"select": ("mrv+degree", SELECTS), "order": ("lcv", ORDERS)}
