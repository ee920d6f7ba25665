"""sudokit: solve Sudoku-family puzzles and related constraint problems, by many methods.

>>> from sudokit import Puzzle, solve
>>> solve(Puzzle.from_digits([0, 0, 0, 0] * 4), "propagate").status.name
'SOLVED'

The public names below are imported on first use (PEP 562 ``__getattr__``), so ``import
sudokit`` and the ``sudokit`` command start without NumPy, Numba or PySAT until a name that needs
them is touched.

``sudokit.generate`` is the function :func:`sudokit.run.generate.generate`; the generator's
package is :mod:`sudokit.generator` (``from sudokit.generator import Options, rating``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import errors  # no imports of its own: the exceptions every entry point raises

__version__ = "0.1.0"

_LAZY = {
    "ArrayResult": "model.result",
    "compare_magic": "run.magic",
    "count_magic": "run.magic",
    "count_solutions": "run.doors",
    "default_method": "run.doors",
    "solutions": "run.doors",
    "solve": "run.doors",
    "solve_array": "run.doors",
    "solve_magic": "run.magic",
    "solve_many": "run.doors",
    "Geometry": "model.geometry",
    "Variant": "model.constraints",
    "Puzzle": "model.puzzle",
    "is_solution": "model.puzzle",
    "violations": "model.puzzle",
    "get_solver": "registry",
    "methods": "registry",
    "Limits": "model.result",
    "Result": "model.result",
    "Stats": "model.result",
    "Status": "model.result",
    "explain": "run.explain",
    "generate": "run.generate",
    "hint": "run.explain",
    "rate": "run.explain",
}
"""Public name -> the submodule that defines it (imported on first access)."""

__all__ = [
    "ArrayResult",
    "Geometry",
    "Limits",
    "Puzzle",
    "Result",
    "Stats",
    "Status",
    "Variant",
    "compare_magic",
    "count_magic",
    "count_solutions",
    "default_method",
    "errors",
    "explain",
    "generate",
    "get_solver",
    "hint",
    "is_solution",
    "methods",
    "rate",
    "solutions",
    "solve",
    "solve_array",
    "solve_magic",
    "solve_many",
    "violations",
]

if TYPE_CHECKING:  # what the names are, for type checkers and IDEs
    from .model.constraints import Variant
    from .model.geometry import Geometry
    from .model.puzzle import Puzzle, is_solution, violations
    from .model.result import Limits, Result, Stats, Status
    from .registry import get_solver, methods
    from .run.doors import (
        ArrayResult,
        count_solutions,
        default_method,
        solutions,
        solve,
        solve_array,
        solve_many,
    )
    from .run.explain import explain, hint, rate
    from .run.generate import generate
    from .run.magic import compare_magic, count_magic, solve_magic


def __getattr__(name: str) -> Any:
    """Import a public name's module on first access (PEP 562) and keep the name.

    Raises:
        AttributeError: ``name`` is no public name (``from sudokit import api`` then imports
            the submodule, as for any package).
    """
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
