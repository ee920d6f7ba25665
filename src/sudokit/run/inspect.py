"""Looking inside one puzzle: its candidates after a chosen inference, and what AC-3 alone does.

The doors behind ``sudokit show`` and ``sudokit trace`` (the CLI only parses and renders): the
candidates come from the CSP package's Python steps (Norvig 2006's elimination and only-choice
passes, full propagation, or AC-3: Mackworth 1977), never from the CLI itself.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model.puzzle import Puzzle

__all__ = ["PropagationChoice", "candidates_after"]


class PropagationChoice(str, Enum):
    """What is applied to the givens before the candidates are listed (``show --after``)."""

    NONE = "none"  # the givens alone: every digit in empty cells
    ELIMINATE = "eliminate"  # one elimination pass from the givens (the notebook's first step)
    ONLY_CHOICE = "only-choice"  # one elimination pass, then one only-choice pass
    PROPAGATE = "propagate"  # every propagation rule to a fixpoint
    AC3 = "ac3"  # arc consistency over the all-different units


def candidates_after(puzzle: Puzzle, after: PropagationChoice = PropagationChoice.NONE
                     ) -> list[tuple[int, ...]] | None:
    """Each cell's candidates (digits 1..N, ascending) after the inference ``after``.

    Returns:
        One tuple per cell in row-major order (a given's tuple holds it alone); None when the
        inference empties a cell's domain (the givens contradict each other).
    """
    if after is PropagationChoice.AC3:
        from ..csp.sudoku import ac3_candidates

        return ac3_candidates(puzzle)
    if after in (PropagationChoice.ELIMINATE, PropagationChoice.ONLY_CHOICE):
        from ..csp.steps import Domains, eliminate, only_choice

        state = eliminate(Domains.of(puzzle))
        if state is not None and after is PropagationChoice.ONLY_CHOICE:
            state = only_choice(state)
        return list(state.cells) if state is not None else None
    if after is PropagationChoice.PROPAGATE:
        from ..csp.propagation import PropagationState

        propagation = PropagationState(puzzle)
        return propagation.candidates() if propagation.assign_givens() else None
    from ..csp.steps import Domains

    return list(Domains.of(puzzle).cells)
