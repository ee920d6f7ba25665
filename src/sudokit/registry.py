"""The one place method names resolve: ``register``, ``get_solver``, ``methods`` and the default.

Methods are registered per problem type (``cls.problem``: ``"sudoku"``, the default, or
``"magic"``), so Sudoku's ``forward-checking`` and the magic squares' ``forward-checking`` are
two entries of the same registry, checked and listed the same way.

The registry describes every shipped method from its :data:`CATALOGUE` (module, summary,
optional requirements) without importing it: ``sudokit methods`` and the choice of the default
method import neither NumPy nor Numba, PySAT or OR-Tools. A method's module is imported when the
method is asked for (:func:`get_solver`, :func:`solver_class`), and every adapter module when an
unknown name is asked for or :func:`load_methods` runs; a test checks the catalogue against the
classes.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, Union

from .errors import InvalidOption, MethodUnavailable, UnknownMethod

if TYPE_CHECKING:
    from .solvers import Solver  # the type only (ALLOWED in tests/test_floors.py)

__all__ = [
    "CATALOGUE",
    "PREFERRED",
    "PROBLEMS",
    "SMALL_INPUT",
    "SMALL_SIDE",
    "Entry",
    "MethodInfo",
    "OptionValue",
    "default_method",
    "can_run",
    "check_remote",
    "default_rule",
    "get_solver",
    "is_available",
    "load_methods",
    "methods",
    "register",
    "solver_class",
]

SUDOKU, MAGIC = "sudoku", "magic"
PROBLEMS = (SUDOKU, MAGIC)
"""The problem types methods are registered for."""

OptionValue = Union[str, int, float, bool, None]
"""A method option's value as given (``**options``, ``-o KEY=VALUE``): text, a bool, an int, a
float or None; the method checks it against its declaration and converts text
(:meth:`sudokit.solvers.base.Solver._checked_option`)."""

_SOLVERS: dict[str, type[Solver]] = {}  # the Sudoku methods
_REGISTRY: dict[str, dict[str, type[Solver]]] = {SUDOKU: _SOLVERS, MAGIC: {}}
_loaded: set[str] = set()
_MODULES = {MAGIC: "solvers.magic"}  # where the methods of the other problem types register


@dataclass(frozen=True)
class Entry:
    """What the registry knows of a shipped method before importing it.

    Attributes:
        module: the module (relative to ``sudokit``) whose import registers the method.
        summary: the method's one line (the class's ``summary``).
        requires: optional top-level modules it imports (the class's ``requires``).
        install: the pip requirement providing them (the class's ``install``; "" when the
            module names are the requirement).
        backends: whether the method takes a backend after ``:`` (their names come from the
            class, e.g. the PySAT solvers that build here; False: the class declares none).
    """

    module: str
    summary: str
    requires: tuple[str, ...] = ()
    install: str = ""
    backends: bool = False


_CSP, _MAGIC = "solvers.csp", _MODULES[MAGIC]
CATALOGUE: dict[str, dict[str, Entry]] = {
    SUDOKU: {
        "backtracking": Entry(_CSP, "plain backtracking, checks against assigned peers, MRV "
                                    "(AIMA ch. 6)"),
        "cpsat": Entry("solvers.cpsat", "OR-Tools CP-SAT (lazy clause generation) on ExactlyOne "
                       "per cell and unit-digit; optional: pip install 'sudokit[ortools]'",
                       ("ortools",), "sudokit[ortools]"),
        "dpll": Entry("solvers.dpll", "our pure-Python DPLL (Davis, Logemann and Loveland 1962; "
                      "two watched literals) on a Sudoku CNF"),
        "fast": Entry("solvers.fast", "compiled bitmask engine (Numba): naked/hidden singles, "
                      "locked candidates, MRV search; batch API", ("numba",)),
        "forward-checking": Entry(_CSP, "backtracking + forward checking, MRV (Haralick and "
                                        "Elliott 1980)"),
        "logic": Entry("solvers.logic", "human-style techniques easiest first (singles ... "
                       "chains, forcing chains), branching where they stop; counts steps per "
                       "technique"),
        "mac": Entry(_CSP, "backtracking + AC-3 after each assignment (MAC), MRV+degree, LCV; "
                           "Mackworth 1977"),
        "portfolio": Entry("solvers.portfolio", "compiled engine, then the engine raced against "
                           "CDCL (CaDiCaL): never far behind the better of the two, on any grid "
                           "size", ("numba",)),
        "propagate": Entry("solvers.propagate", "constraint propagation (naked/hidden singles, "
                           "naked twins) + MRV search; Norvig 2006"),
        "sat": Entry("solvers.sat", "Sudoku CNF (Lynce and Ouaknine 2006 / Kwon and Jain 2006) "
                     "solved by a real SAT solver: PySAT backends or any DIMACS binary "
                     "(sat:exec)", ("pysat",), "python-sat", backends=True),
    },
    MAGIC: {
        "backtracking": Entry(_MAGIC, "chronological backtracking, each line checked when full"),
        "forward-checking": Entry(_MAGIC, "forward checking: all-different, partial-sum bounds "
                                          "(bounds=false: off), MRV"),
        "lines": Entry(_MAGIC, "line-based enumeration: row sets, orthogonal column sets, "
                               "orders"),
        "mac": Entry(_MAGIC, "MAC (AC-3 with bounds-consistent sums) through the generic CSP "
                             "core"),
        "sat": Entry(_MAGIC, "CNF (order-encoded line sums) solved by PySAT (sat:glucose4 ...; "
                             "default CaDiCaL)", ("pysat",), "python-sat", backends=True),
    },
}
"""Problem type -> method name -> :class:`Entry`, for every method shipped with sudokit."""

PREFERRED = ("portfolio", "fast", "propagate")
"""The default Sudoku method: the first of these that can run here (see :func:`default_method`)."""

SMALL_INPUT = 8
"""An input of at most this many puzzles, none larger than :data:`SMALL_SIDE`, is answered by
``propagate`` (handing over to CDCL what it does not finish quickly, see
:mod:`sudokit.run.choice`) when no method is named: it finishes before the compiled engine would have loaded
(``sudokit solve <one 9x9 puzzle>``: about 0.1 s of solving where loading Numba and the 9x9
kernels takes 0.4-0.6 s; measured by ``benchmarks/pipeline.py``, start-up section)."""

SMALL_SIDE = 9
"""The largest grid side of a small input (see :data:`SMALL_INPUT`)."""


S = TypeVar("S", bound="type[Solver]")


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


def _table(problem: str) -> dict[str, type[Solver]]:
    if problem not in _REGISTRY:
        raise ValueError(f"unknown problem type {problem!r}; known: {', '.join(PROBLEMS)}")
    return _REGISTRY[problem]


def load_methods(problem: str = SUDOKU) -> None:
    """Import the modules whose methods register for ``problem``, once: every adapter module in
    :mod:`sudokit.solvers` for Sudoku but those of the other problem types (:data:`_MODULES`),
    :mod:`sudokit.solvers.magic` for magic squares (so a Sudoku run never imports the
    magic-square code)."""
    if problem in _loaded:
        return
    _table(problem)
    if problem == SUDOKU:
        from . import solvers

        others = set(_MODULES.values())
        for info in pkgutil.iter_modules(solvers.__path__):
            if info.name != "base" and f"solvers.{info.name}" not in others:
                importlib.import_module(f"{solvers.__name__}.{info.name}")
    else:
        importlib.import_module(f"{__package__}.{_MODULES[problem]}")
    _loaded.add(problem)


def _module_available(requires: tuple[str, ...]) -> bool:
    return all(importlib.util.find_spec(mod) is not None for mod in requires)


def is_available(cls: type[Solver]) -> bool:
    """Whether every optional module the method requires can be imported (found, not
    imported)."""
    return _module_available(cls.requires)


def solver_class(name: str, problem: str = SUDOKU) -> type[Solver]:
    """Return the class of method ``name`` (family only, no ``:backend``), importing its module.

    Only the method's own module is imported when the :data:`CATALOGUE` lists it; every adapter
    module of ``problem`` otherwise (a method registered by a module not in the catalogue).

    Raises:
        UnknownMethod: no such method; the message lists the choices.
    """
    table = _table(problem)
    if name not in table:
        entry = CATALOGUE.get(problem, {}).get(name)
        if entry is not None:
            importlib.import_module(f"{__package__}.{entry.module}")
        if name not in table:
            load_methods(problem)
    cls = table.get(name)
    if cls is None:
        kind = "" if problem == SUDOKU else f"{problem} "
        raise UnknownMethod(f"unknown {kind}method {name!r}; choose one of "
                            f"{', '.join(sorted(table))}")
    return cls


def get_solver(name: str, problem: str = SUDOKU, **options: OptionValue) -> Solver:
    """Return a solver instance for ``name`` (``"family"`` or ``"family:backend"``).

    Args:
        name: method name as listed by :func:`methods`, optionally ``:backend``.
        problem: the problem type (``"sudoku"`` or ``"magic"``).
        **options: method options (e.g. ``select="mrv"``); dashes in keys become underscores.

    Returns:
        The method's solver object, configured (``.solutions(puzzle, stats, limits)`` yields
        grids; the doors :func:`sudokit.solve` and others verify them).

    Raises:
        UnknownMethod: no such method; the message lists the choices.
        MethodUnavailable: an optional dependency is missing; the message gives the install hint.
        InvalidOption: an unknown option, backend or option value.
    """
    family, _, backend = name.partition(":")
    cls = solver_class(family, problem)
    if not is_available(cls):
        missing = [m for m in cls.requires if importlib.util.find_spec(m) is None]
        raise MethodUnavailable(
            f"method {family!r} needs {', '.join(missing)}: install it with "
            f"'pip install {cls.install or ' '.join(missing)}'"
        )
    return cls(backend or None, **options)


def check_remote(name: str | None, options: Mapping[str, object], problem: str = SUDOKU) -> None:
    """Refuse a method choice that a request from another program may not make: a backend or
    an option that runs a program or names a path on this machine (the solver class's
    ``local_only``, e.g. ``sat:exec`` and its ``cmd``). ``sudokit serve`` asks this of every
    request, so a web page can never make it run a command.

    Args:
        name: the method as requested (``"family"`` or ``"family:backend"``; None: the
            default, which runs nothing outside the package).
        options: the requested method options (their names are checked, not their values).
        problem: the problem type.

    Raises:
        UnknownMethod: no such method.
        InvalidOption: the backend or an option is local-only; the message names it.
    """
    if name is None:
        return
    family, _, backend = name.partition(":")
    local = solver_class(family, problem).local_only
    if backend and backend in local:
        raise InvalidOption(f"method {name!r} runs a program on this machine: refused for "
                            "requests from other programs (use the command line)")
    for key in options:
        if key.replace("-", "_") in local:
            raise InvalidOption(f"option {key!r} of method {family!r} names a program or a "
                                "path on this machine: refused for requests from other "
                                "programs (use the command line)")


@dataclass(frozen=True)
class MethodInfo:
    """One row of the method list.

    ``cls`` imports the method's module on first access, and so does ``backends`` for a method
    that takes backends (the SAT methods, which probe their PySAT backends then); name, summary
    and availability do not.
    """

    name: str
    summary: str
    available: bool
    _backends: tuple[str, ...] | None = field(default=None, repr=False, compare=False)
    _cls: type[Solver] | None = field(default=None, repr=False, compare=False)
    problem: str = SUDOKU
    _takes_backends: bool = field(default=True, repr=False, compare=False)

    @property
    def cls(self) -> type[Solver]:
        """The method's class (its module is imported)."""
        return self._cls if self._cls is not None else solver_class(self.name, self.problem)

    @property
    def backends(self) -> tuple[str, ...]:
        """Names allowed after ``name:`` (empty: none)."""
        if self._backends is not None:
            return self._backends
        return tuple(self.cls.backends) if self._takes_backends else ()


def methods(problem: str = SUDOKU) -> list[MethodInfo]:
    """Return every method of ``problem``, sorted by name, with whether it can run here.

    Shipped methods are described from the :data:`CATALOGUE` without importing them; methods
    registered otherwise (already imported) are listed from their classes.

    Returns:
        One :class:`MethodInfo` per method (``name``, ``summary``, ``available``,
        ``backends``), sorted by name.
    """
    rows = {name: MethodInfo(name, entry.summary, _module_available(entry.requires),
                             problem=problem, _takes_backends=entry.backends)
            for name, entry in CATALOGUE.get(problem, {}).items()}
    for name, cls in _table(problem).items():
        if name not in rows:
            rows[name] = MethodInfo(name, cls.summary, is_available(cls), None, cls, problem)
    return [rows[name] for name in sorted(rows)]


def can_run(name: str) -> bool:
    """Whether Sudoku method ``name`` can run here (its optional modules are found), without
    importing it."""
    return _can_run(name)


def _can_run(name: str) -> bool:
    entry = CATALOGUE[SUDOKU].get(name)
    if entry is not None:
        return _module_available(entry.requires)
    cls = _SOLVERS.get(name)
    return cls is not None and is_available(cls)


def default_method() -> str:
    """Return the default Sudoku method for a large input: the first of :data:`PREFERRED`
    (``portfolio``, ``fast``, ``propagate``) that can run here. Nothing is imported.

    For a small input every front answers with ``propagate`` first and hands over what it
    does not finish quickly (:func:`sudokit.run.choice.decide`, rule in :func:`default_rule`).

    Returns:
        The method's name (``"portfolio"`` on an installed sudokit).

    Raises:
        LookupError: none of them is registered (never for an installed sudokit).
    """
    for name in PREFERRED:
        if _can_run(name):
            return name
    raise LookupError("no Sudoku method is registered")  # pragma: no cover


def default_rule() -> str:
    """The default-method rule in one sentence, as ``sudokit methods`` prints it."""
    return (f"default (no --method): {default_method()}, the first that can run here of "
            f"{', '.join(PREFERRED)}; an input of at most {SMALL_INPUT} puzzles, none larger "
            f"than {SMALL_SIDE}x{SMALL_SIDE}, is answered by propagate, and each puzzle it "
            "has not finished within 0.05 s by sat (CDCL), raced against the compiled "
            "engine once its one-puzzle search is compiled")
