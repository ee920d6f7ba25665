"""Rule forcing chains: a candidate whose assumption, followed by singles and every drawn
rule's filter (:mod:`sudokit.logic.techniques.rules`), ends in a contradiction is false.

Sudoku Explainer's Nishio forcing chains (Juillerat 2006: a contradiction reached from one
candidate, 7.5) with the drawn rules among the links: the rule-aware counterpart of the digit
forcing chains of :mod:`~sudokit.logic.techniques.forcing` (whose compiled search sees units
and peers only). Rated 7.5 plus the length bonus of twice the rounds of singles and filters
the contradiction needs. Tried after every other logical technique, on grids with rules.
"""

from __future__ import annotations

from ...model.geometry import Geometry
from ..dynamic import consequences
from ..registry import technique
from ..rule_filters import filter_round
from ..state import Board, bits
from ..step import Step, eliminations_text, length_bonus

__all__ = ["RULE_CELL_FORCING", "RULE_FORCING", "assume_with_rules", "rule_cell_forcing_chain",
           "rule_forcing_chain"]

RULE_FORCING = 7.5
"""Base rating of a rule forcing chain (Explainer's Nishio forcing chains)."""

RULE_CELL_FORCING = 8.2
"""Base rating of a rule cell forcing chain (as the cell forcing chains of
:mod:`~sudokit.logic.techniques.forcing`)."""

_ROUNDS = 30
"""The most rounds (singles, then every rule's filter) one assumption is followed for."""


def assume_with_rules(board: Board, cell: int, digit: int
                      ) -> tuple[str | None, int, list[int]]:
    """Assume ``cell`` holds ``digit``; apply singles and the rules' filters in rounds.

    Returns:
        why the assumption fails (the rule or the singles that break), or None when no
        contradiction comes within :data:`_ROUNDS` rounds; the rounds used; the candidates
        reached (N*N masks, bit d-1 for digit d).
    """
    geometry = board.geometry
    out = consequences(board, cell, digit, True)
    for rounds in range(1, _ROUNDS + 1):
        if out.contradiction:
            return ("the singles that follow leave a cell or a digit without a place", rounds,
                    out.masks)
        broken = filter_round(geometry, out.masks)
        if isinstance(broken, str):
            return f"{broken} cannot be kept", rounds, out.masks
        if not broken:
            return None, rounds, out.masks
        for c, gone in broken.items():  # the singles each removal leads to
            out = consequences(board, c, gone, False, out.masks, out.values)
            if out.contradiction:
                break
    return None, _ROUNDS, out.masks


_NEEDS = frozenset({"pair-relation", "linear-sum", "sequence", "must-contain", "renban",
                    "between-line", "lockout-line", "indexing", "killer", "non-consecutive"})


@technique("Rule Forcing Chain", RULE_FORCING, max_side=16, order=1, needs=_NEEDS)
def rule_forcing_chain(board: Board) -> Step | None:
    """The first candidate (cells with fewest candidates first) whose assumption breaks a
    rule or the units, followed by singles and the rules' filters."""
    geometry = board.geometry
    masks = board.masks
    for cell in sorted(board.open_cells, key=lambda c: (masks[c].bit_count(), c)):
        for b in bits(masks[cell]):
            why, rounds, _masks = assume_with_rules(board, cell, b + 1)
            if why is not None:
                return _step(geometry, cell, b + 1, why, rounds)
    return None


def _step(geometry: Geometry, cell: int, digit: int, why: str, rounds: int) -> Step:
    label = geometry.label(cell)
    return Step("Rule Forcing Chain", RULE_FORCING + length_bonus(2 * rounds),
                lambda: f"if {label}={digit}, singles and the rules lead to a contradiction "
                        f"({why}): {label}<>{digit}",
                eliminations=((cell, digit),), cells=(cell,), digits=(digit,))


@technique("Rule Cell Forcing Chain", RULE_CELL_FORCING, max_side=16, order=1, needs=_NEEDS)
def rule_cell_forcing_chain(board: Board) -> Step | None:
    """The first cell (fewest candidates first) such that every candidate of it, followed by
    singles and the rules' filters, removes the same candidate elsewhere."""
    geometry = board.geometry
    masks = board.masks
    for cell in sorted(board.open_cells, key=lambda c: (masks[c].bit_count(), c)):
        common, rounds = None, 0
        for b in bits(masks[cell]):
            why, used, reached = assume_with_rules(board, cell, b + 1)
            if why is None:
                rounds = max(rounds, used)
                common = reached if common is None else [x | y for x, y in zip(common, reached)]
        if common is None:
            continue
        gone = tuple((c, b + 1) for c, (m, kept) in enumerate(zip(masks, common))
                     for b in bits(m & ~kept) if c != cell)
        if gone:
            return _cell_step(geometry, cell, gone, rounds)
    return None


def _cell_step(geometry: Geometry, cell: int, gone: tuple[tuple[int, int], ...],
               rounds: int) -> Step:
    label = geometry.label(cell)
    return Step("Rule Cell Forcing Chain", RULE_CELL_FORCING + length_bonus(2 * rounds),
                lambda: f"whichever digit {label} holds, singles and the rules remove "
                        f"{eliminations_text(geometry, gone)}",
                eliminations=gone, cells=(cell,), digits=tuple(sorted({d for _c, d in gone})))
