"""Adapter for ``dpll``: our DPLL (Davis, Logemann and Loveland 1962) on a Sudoku CNF."""

from __future__ import annotations

import gc
from collections.abc import Iterator

from ..model.geometry import ALL_FEATURES
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from ..registry import register
from ..sat.dpll import DPLL_COUNTERS, dpll_models
from ..sat.encoding import (
    DEFAULT_ENCODING,
    ENCODING_CHOICES,
    Encoding,
    deadline_check,
    decode,
    encode,
    n_variables,
    paused_gc,
)
from ..sat.rules import SAT_RULE_KINDS
from .base import Solver


@register
class DpllSolver(Solver):
    """Encode the puzzle (option ``encoding``), run :class:`sudokit.sat.dpll.Dpll`, decode models.

    Nodes are DPLL decisions (a node limit N allows exactly N). The default encoding is
    ``reduced`` (Kwon and Jain 2006). The time limit covers encoding and loading the formula.
    """

    name = "dpll"
    summary = ("our pure-Python DPLL (Davis, Logemann and Loveland 1962; two watched literals) "
               "on a Sudoku CNF")
    counters = DPLL_COUNTERS
    features = ALL_FEATURES | SAT_RULE_KINDS  # every drawn rule kind: sat.rules
    options = {"encoding": (DEFAULT_ENCODING.value, ENCODING_CHOICES)}

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        encoding = Encoding(self.settings["encoding"])
        check = deadline_check(limits, stats)  # the time limit covers encoding and loading
        try:
            with paused_gc(freeze=True):  # no collection walks the formula (see paused_gc)
                clauses = encode(puzzle, encoding, check)
                try:
                    models = dpll_models(clauses, n_variables(puzzle.geometry), stats, limits, check)
                finally:
                    clauses.clear()  # the solver holds its own copy
            for model in models:
                yield decode(model, puzzle)
        finally:
            gc.unfreeze()
