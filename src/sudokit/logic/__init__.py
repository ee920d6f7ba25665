"""Human-style solving: techniques on a candidates state, steps as data, hints and ratings.

The public doors are :func:`sudokit.explain`, :func:`sudokit.hint` and :func:`sudokit.rate`
(:mod:`sudokit.run.explain`): they find the puzzle's solution and call
:func:`~sudokit.logic.solve.logical_steps`, :func:`~sudokit.logic.solve.logical_hint` or
:func:`~sudokit.logic.solve.logical_rating`, which take it as an argument.

The vocabulary is the forum's (full house, hidden single, locked candidates, X-Wing, ...); the
rating scale is Sudoku Explainer's (Nicolas Juillerat, 2006: a puzzle's rating is the rating of
the hardest step it needs). Techniques live one family per module in
:mod:`sudokit.logic.techniques` and register themselves (:mod:`sudokit.logic.registry`).
"""

# The subpackage of technique modules first: importing one of its modules later must not
# rebind ``sudokit.logic.techniques`` (the registry function below) to the subpackage.
from . import techniques as _technique_modules  # noqa: F401  (isort: skip)
from .ladder import next_step
from .registry import Technique, TechniqueKind, technique_names, techniques
from .solve import (
           LEVEL_BANDS,
           Level,
           Rating,
           apply_step,
           level_of,
           logical_hint,
           logical_rating,
           logical_states,
           logical_steps,
           solve_steps,
)
from .state import Board, Candidates
from .step import Link, LinkKind, Step

__all__ = [
           "Board",
           "Candidates",
           "LEVEL_BANDS",
           "Level",
           "Link",
           "LinkKind",
           "Rating",
           "Step",
           "Technique",
           "TechniqueKind",
           "apply_step",
           "level_of",
           "logical_hint",
           "logical_rating",
           "logical_states",
           "logical_steps",
           "next_step",
           "solve_steps",
           "technique_names",
           "techniques",
]
