"""sudokit: solve Sudoku-family puzzles and related constraint problems, by many methods.

>>> from sudokit import Puzzle, solve
>>> solve(Puzzle.from_digits([0, 0, 0, 0] * 4), "propagate").status.name
'SOLVED'
"""

from . import errors
from .api import (
    ArrayResult,
    count_solutions,
    default_method,
    solutions,
    solve,
    solve_array,
    solve_many,
)
from .geometry import Geometry, Variant
from .puzzle import Puzzle, is_solution, violations
from .registry import get_solver, methods
from .result import Limits, Result, Stats, Status
from .generate import generate  # noqa: E402  # binds the function over the subpackage's name
from .logic import explain, hint, rate  # noqa: E402

__all__ = [
    "Puzzle",
    "Geometry",
    "Variant",
    "solve",
    "solutions",
    "count_solutions",
    "solve_many",
    "solve_array",
    "generate",
    "explain",
    "hint",
    "rate",
    "ArrayResult",
    "default_method",
    "methods",
    "get_solver",
    "Result",
    "Stats",
    "Status",
    "Limits",
    "is_solution",
    "violations",
    "errors",
]
__version__ = "0.1.0"
