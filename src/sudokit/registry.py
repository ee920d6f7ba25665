"""The one place method names resolve: ``register``, ``get_solver`` and ``methods``.

Methods are registered per problem type (``cls.problem``: ``"sudoku"``, the default, or
``"magic"``), so Sudoku's ``forward-checking`` and the magic squares' ``forward-checking`` are
two entries of the same registry, checked and listed the same way.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import MethodUnavailable, UnknownMethod

__all__ = ["register", "get_solver", "methods", "MethodInfo", "load_methods", "is_available",
           "PROBLEMS"]

SUDOKU, MAGIC = "sudoku", "magic"
PROBLEMS = (SUDOKU, MAGIC)
"""The problem types methods are registered for."""

_SOLVERS: dict[str, type] = {}  # the Sudoku methods
_REGISTRY: dict[str, dict[str, type]] = {SUDOKU: _SOLVERS, MAGIC: {}}
_loaded: set[str] = set()
_MODULES = {MAGIC: "magic.methods"}  # where the methods of the other problem types register

S = TypeVar("S", bound=type)


def register(cls: S) -> S:
    """Class decorator: add a :class:`~sudokit.solvers.base.Solver` subclass under ``cls.name``
    for its problem type (``cls.problem``, default ``"sudoku"``).

    Raises:
        ValueError: the name is taken by another class of the same problem type, or the
            problem type is unknown.
    """
    table = _table(getattr(cls, "problem", SUDOKU))
    other = table.get(cls.name)
    if other is not None and other is not cls:
        raise ValueError(f"method name {cls.name!r} registered twice ({other} and {cls})")
    table[cls.name] = cls
    return cls


def _table(problem: str) -> dict[str, type]:
    if problem not in _REGISTRY:
        raise ValueError(f"unknown problem type {problem!r}; known: {', '.join(PROBLEMS)}")
    return _REGISTRY[problem]


def load_methods(problem: str = SUDOKU) -> None:
    """Import the modules whose methods register for ``problem``, once: every adapter module in
    :mod:`sudokit.solvers` for Sudoku, :mod:`sudokit.magic.methods` for magic squares (so a
    Sudoku run never imports the magic-square code)."""
    if problem in _loaded:
        return
    _table(problem)
    if problem == SUDOKU:
        from . import solvers

        for info in pkgutil.iter_modules(solvers.__path__):
            if info.name != "base":
                importlib.import_module(f"{solvers.__name__}.{info.name}")
    else:
        importlib.import_module(f"{__package__}.{_MODULES[problem]}")
    _loaded.add(problem)


def is_available(cls: type) -> bool:
    """Whether every optional module the method requires can be imported."""
    return all(importlib.util.find_spec(mod) is not None for mod in cls.requires)


def get_solver(name: str, problem: str = SUDOKU, **options: Any) -> Any:
    """Return a solver instance for ``name`` (``"family"`` or ``"family:backend"``).

    Args:
        name: method name as listed by :func:`methods`, optionally ``:backend``.
        problem: the problem type (``"sudoku"`` or ``"magic"``).
        **options: method options (e.g. ``select="mrv"``); dashes in keys become underscores.

    Raises:
        UnknownMethod: no such method; the message lists the choices.
        MethodUnavailable: an optional dependency is missing; the message gives the install hint.
        InvalidOption: an unknown option, backend or option value.
    """
    load_methods(problem)
    family, _, backend = name.partition(":")
    table = _table(problem)
    cls = table.get(family)
    if cls is None:
        kind = "" if problem == SUDOKU else f"{problem} "
        raise UnknownMethod(f"unknown {kind}method {name!r}; choose one of "
                            f"{', '.join(sorted(table))}")
    if not is_available(cls):
        missing = [m for m in cls.requires if importlib.util.find_spec(m) is None]
        raise MethodUnavailable(
            f"method {family!r} needs {', '.join(missing)}: install it with "
            f"'pip install {cls.install or ' '.join(missing)}'"
        )
    return cls(backend or None, **options)


@dataclass(frozen=True)
class MethodInfo:
    """One row of the method list."""

    name: str
    summary: str
    available: bool
    backends: tuple[str, ...]
    cls: type


def methods(problem: str = SUDOKU) -> list[MethodInfo]:
    """Return every method registered for ``problem``, sorted by name, with whether it can run
    here."""
    load_methods(problem)
    return [
        MethodInfo(name, cls.summary, is_available(cls), tuple(cls.backends), cls)
        for name, cls in sorted(_table(problem).items())
    ]
