"""sudokit: solve Sudoku-family puzzles and related constraint problems, by many methods.

>>> from sudokit import Puzzle, solve
>>> solve(Puzzle.from_digits([0, 0, 0, 0] * 4), "propagate").status.name
'SOLVED'

The public names below are imported on first use (PEP 562 ``__getattr__``), so ``import
sudokit`` and the ``sudokit`` command start without NumPy, Numba or PySAT until a name that needs
them is touched.

``sudokit.generate`` is the function :func:`sudokit.generate.generate`, also once the subpackage
of the same name has been imported (``import sudokit.generate`` works and binds nothing over it;
the subpackage is ``sys.modules["sudokit.generate"]``, and ``from sudokit.generate import
Options`` reads from it as usual).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from . import errors  # no imports of its own: the exceptions every entry point raises

__version__ = "0.1.0"

_LAZY = {
    "ArrayResult": "api",
    "count_solutions": "api",
    "default_method": "api",
    "solutions": "api",
    "solve": "api",
    "solve_array": "api",
    "solve_many": "api",
    "Geometry": "geometry",
    "Variant": "geometry",
    "Puzzle": "puzzle",
    "is_solution": "puzzle",
    "violations": "puzzle",
    "get_solver": "registry",
    "methods": "registry",
    "Limits": "result",
    "Result": "result",
    "Stats": "result",
    "Status": "result",
    "explain": "logic",
    "hint": "logic",
    "rate": "logic",
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
    "solve_many",
    "violations",
]

if TYPE_CHECKING:  # what the names are, for type checkers and IDEs
    from .api import (
        ArrayResult,
        count_solutions,
        default_method,
        solutions,
        solve,
        solve_array,
        solve_many,
    )
    from .generate import generate
    from .geometry import Geometry, Variant
    from .logic import explain, hint, rate
    from .puzzle import Puzzle, is_solution, violations
    from .registry import get_solver, methods
    from .result import Limits, Result, Stats, Status


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


class _Package(types.ModuleType):
    """The class of the ``sudokit`` module: ``generate`` names the function, not the subpackage.

    Importing the subpackage ``sudokit.generate`` makes the import system set the attribute
    ``generate`` of ``sudokit`` to it; the property keeps the function there (as an eager
    ``from .generate import generate`` did), and a value other than the subpackage (a test's
    monkeypatch) replaces the function until deleted.
    """

    @property
    def generate(self) -> Any:
        replaced = self.__dict__.get("_generate_replaced")
        if replaced is not None:
            return replaced
        return importlib.import_module(".generate", __name__).generate

    @generate.setter
    def generate(self, value: Any) -> None:
        if value is not sys.modules.get(f"{__name__}.generate"):
            self.__dict__["_generate_replaced"] = value

    @generate.deleter
    def generate(self) -> None:
        self.__dict__.pop("_generate_replaced", None)


sys.modules[__name__].__class__ = _Package
