"""The one place method names resolve: ``register``, ``get_solver`` and ``methods``."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import MethodUnavailable, UnknownMethod

__all__ = ["register", "get_solver", "methods", "MethodInfo", "load_methods", "is_available"]

_SOLVERS: dict[str, type] = {}
_loaded = False

S = TypeVar("S", bound=type)


def register(cls: S) -> S:
    """Class decorator: add a :class:`~sudokit.solvers.base.Solver` subclass under ``cls.name``.

    Raises:
        ValueError: the name is taken by another class.
    """
    other = _SOLVERS.get(cls.name)
    if other is not None and other is not cls:
        raise ValueError(f"method name {cls.name!r} registered twice ({other} and {cls})")
    _SOLVERS[cls.name] = cls
    return cls


def load_methods() -> None:
    """Import every adapter module in :mod:`sudokit.solvers` once, so each registers itself."""
    global _loaded
    if _loaded:
        return
    from . import solvers

    for info in pkgutil.iter_modules(solvers.__path__):
        if info.name != "base":
            importlib.import_module(f"{solvers.__name__}.{info.name}")
    _loaded = True


def is_available(cls: type) -> bool:
    """Whether every optional module the method requires can be imported."""
    return all(importlib.util.find_spec(mod) is not None for mod in cls.requires)


def get_solver(name: str, **options: Any) -> Any:
    """Return a solver instance for ``name`` (``"family"`` or ``"family:backend"``).

    Args:
        name: method name as listed by :func:`methods`, optionally ``:backend``.
        **options: method options (e.g. ``select="mrv"``); dashes in keys become underscores.

    Raises:
        UnknownMethod: no such method; the message lists the choices.
        MethodUnavailable: an optional dependency is missing; the message gives the install hint.
        InvalidOption: an unknown option, backend or option value.
    """
    load_methods()
    family, _, backend = name.partition(":")
    cls = _SOLVERS.get(family)
    if cls is None:
        raise UnknownMethod(f"unknown method {name!r}; choose one of {', '.join(sorted(_SOLVERS))}")
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


def methods() -> list[MethodInfo]:
    """Return every registered method, sorted by name, with whether it can run here."""
    load_methods()
    return [
        MethodInfo(name, cls.summary, is_available(cls), tuple(cls.backends), cls)
        for name, cls in sorted(_SOLVERS.items())
    ]
