"""Adapter for ``propagate``: constraint propagation plus search (Norvig 2006)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar

from ..csp.propagation import search
from ..model.geometry import ALL_FEATURES
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats
from ..model.rules import RULE_KINDS
from ..registry import OptionValue, register
from .base import Solver


@register
class PropagateSolver(Solver):
    """Elimination, only choice and naked twins to a fixpoint, then MRV depth-first search.

    Every variant feature: extra units and peers (cage mates, chess moves) through the geometry,
    parity as starting candidates, non-consecutive neighbours and cage combinations as further
    propagation rules (see :mod:`sudokit.csp.propagation`).
    """

    name = "propagate"
    summary = "constraint propagation (naked/hidden singles, naked twins) + MRV search; Norvig 2006"
    counters = frozenset({"nodes", "backtracks", "propagations"})
    features = ALL_FEATURES | RULE_KINDS
    options: ClassVar[Mapping[str, tuple[OptionValue, Sequence[OptionValue] | None]]] = {
        "naked_twins": (True, (True, False))}

    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        return search(puzzle, stats, limits, naked_twins=self.settings["naked_twins"])
