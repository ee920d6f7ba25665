"""sudokit: solve Sudoku-family puzzles and related constraint problems, by many methods.

Quick start (a puzzle is text in any line or grid form, N*N digits as a list, N rows or a
NumPy array, or a :class:`Puzzle`; ``.`` or ``0`` is an empty cell)::

    >>> import sudokit
    >>> result = sudokit.solve("..3..4.221......")           # a 4x4; any size up to 64x64
    >>> result.status.name, result.solution_text()
    ('SOLVED', '1234341221434321')
    >>> print(result.solution_text("grid"))
    1 2 | 3 4
    3 4 | 1 2
    ----+----
    2 1 | 4 3
    4 3 | 2 1
    >>> sudokit.count_solutions("1...............", limit=None).count
    72
    >>> sudokit.solve("..3..4.221......", method="mac").stats.nodes
    11

More (each name below is documented by ``help(sudokit.NAME)``):

* solving: :func:`solve`, :func:`solutions`, :func:`count_solutions`, :func:`solve_many`,
  :func:`solve_array` (NumPy arrays at engine speed), :func:`default_method`;
* methods: :func:`methods` lists them, :func:`get_solver` builds one;
* like a person: :func:`explain` (every step), :func:`hint` (the next one), :func:`rate`
  (Sudoku Explainer's scale); ``print(step)`` gives ``[1.2] Hidden Single: r2c6 is the only
  place for 9 in box 2``;
* new puzzles: :func:`generate`; magic squares: :func:`solve_magic`, :func:`count_magic`,
  :func:`construct_magic`, :func:`compare_magic`, :class:`MagicProblem`;
* values: :class:`Puzzle`, :class:`Geometry`, :class:`Variant`, :class:`Result`,
  :class:`ArrayResult`, :class:`Status`, :class:`Stats`, :class:`Limits`; the exceptions are
  in :mod:`sudokit.errors`.

Cells are 0-based flat indices ``row * N + column``; texts label them ``r1c1`` (1-based).
The names are imported on first use (PEP 562), so ``import sudokit`` itself is instant; the
compiled kernels compile on their first use and are cached on disk afterwards.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import errors  # no imports of its own: the exceptions every entry point raises

__version__ = "0.1.0"

_LAZY = {
    "ArrayResult": "model.result",
    "BoardWidget": "serve.widget",  # the board in Jupyter: needs the extra sudokit[notebook]
    "compare_magic": "run.magic",
    "construct_magic": "run.magic",
    "MagicProblem": "magic.model",
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
    "BoardWidget",
    "ArrayResult",
    "Geometry",
    "Limits",
    "MagicProblem",
    "Puzzle",
    "Result",
    "Stats",
    "Status",
    "Variant",
    "compare_magic",
    "construct_magic",
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
    from .magic.model import MagicProblem
    from .model.constraints import Variant
    from .model.geometry import Geometry
    from .model.puzzle import Puzzle, is_solution, violations
    from .model.result import ArrayResult, Limits, Result, Stats, Status
    from .registry import get_solver, methods
    from .run.doors import (
        count_solutions,
        default_method,
        solutions,
        solve,
        solve_array,
        solve_many,
    )
    from .run.explain import explain, hint, rate
    from .run.generate import generate
    from .run.magic import compare_magic, construct_magic, count_magic, solve_magic
    from .serve.widget import BoardWidget


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
    """The public names only (``dir(sudokit)``, tab completion): ``__all__`` and
    ``__version__``, not the helpers this module imports."""
    return sorted([*__all__, "__version__"])
