"""Which code runs: a compiled kernel or its Python twin, decided in one place.

Every compiled (Numba) kernel of sudokit stands beside a Python twin that computes the same
thing: a reference written apart (a technique finder, :func:`sudokit.model.puzzle.solves`,
NumPy's ``take``) or the kernel's own source run by the interpreter (:func:`interpreted`). The
twin answers while the kernel would cost more than it saves: before it is compiled (20-90 s on
a fresh install, see :mod:`sudokit.run.warm`), on grids larger than the kernel serves, or when
nothing else has loaded the compiled engine. That choice is made here only:

* the kernel groups (:class:`Kernels`: what compiles together, with what a notice says of it);
* the readiness markers (:func:`ready`, :func:`mark_ready`: a group compiled in this version's
  disk cache) and whether a group is loaded in this process (:func:`loaded`, set when a kernel
  module declares its kernels with :func:`kernel`);
* :func:`use_compiled`, the one decision for a group and a grid size, which every caller asks;
  :func:`run_as_python` and :func:`forced` turn a group to its twins (process-wide, or in a
  ``with`` block for tests);
* :func:`twin`, the declaration of each kernel beside its reference (``tests/test_twins.py``
  runs every declared pair on shared inputs and requires equal results).

This module imports only the standard library at import time; Numba is imported inside
:func:`interpreted`. The kernel cache directory, which holds the markers (:func:`kernel_dir`,
named by :func:`source_digest`), is computed here, so a marker look-up loads neither Numba nor
the engine; :mod:`sudokit.fast.cache` hands it to Numba.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

if TYPE_CHECKING:  # Numba (and NumPy) are imported only where a kernel is copied
    import numpy as np
    from numba.core.dispatcher import Dispatcher

__all__ = ["COMPILED_IN", "KERNEL_DIR_PREFIX", "KERNEL_MODULES",
           "KERNEL_SOURCES", "Kernels", "Twin", "forced",
           "interpreted", "is_writable", "kernel", "kernel_dir", "loaded", "mark_ready", "ready",
           "run_as_python", "source_digest", "twin", "twins", "use_compiled", "user_cache_dir"]

F = TypeVar("F")


class Kernels(Enum):
    """A group of kernels compiled together, with what stderr says of it (name, seconds on a
    2-core machine, measured with an empty cache: ``NUMBA_CACHE_DIR=$(mktemp -d)``)."""

    NINE = ("the compiled 9x9 engine", 10)  # solve_batch on 9x9, its verification, look-ups
    ENGINE = ("the compiled engine", 15)  # the general engine (other sizes and variants)
    ENGINE_RULES = ("the compiled engine's version for drawn rules", 40)  # its RuleState run_batch
    SEARCH = ("the compiled one-puzzle search", 10)  # ResumableSearch (count, explain, hint)
    RULES = ("the compiled search of puzzles with drawn rules", 40)  # its RuleState version
    LOGIC = ("the technique engine", 35)  # logic kernels: ladder, chains, ALS, forcing
    GENERATOR = ("the puzzle generator", 60)
    TABLES = ("the engine for ratings and small-grid tables", 60)  # generate's node rater, 6x6
    VERIFY = ("the compiled verification", 5)  # compiled with NINE or ENGINE, never alone
    LOOKUP = ("the compiled byte look-up", 2)  # compiled with NINE or ENGINE, never alone

    __hash__ = object.__hash__  # members are singletons: the C hash (asked on every decision)

    @property
    def label(self) -> str:
        """What a notice calls the group."""
        return str(self.value[0])

    @property
    def seconds(self) -> int:
        """About how long the group takes to compile, in seconds."""
        return int(self.value[1])


# -- readiness markers (the disk cache) and loaded groups (this process) -----------------------


# -- the kernel cache on disk (where the markers live; standard library only) ------------------

_SUDOKIT_DIR = Path(__file__).resolve().parent
"""The ``sudokit`` package directory."""
KERNEL_MODULES = ("fast/bits.py", "fast/givens.py", "fast/kernels.py", "fast/lines.py",
                  "fast/nine.py", "fast/rulecheck.py", "fast/rules.py", "fast/sandwich.py",
                  "fast/scores.py", "fast/state.py", "fast/sums.py", "fast/sumsets.py",
                  "fast/templates.py", "fast/trail.py",
                  "fast/verify.py",
                  "formats/lookup.py", "generator/grids.py", "generator/kernels.py",
                  "logic/kernels/arrays.py", "logic/kernels/common.py", "logic/**/_*_kernel.py")
"""Globs (under the ``sudokit`` package) of the modules that define compiled functions (Numba
``jit`` or an ``intrinsic``); ``logic/**/`` matches ``logic/`` itself as well."""
COMPILED_IN = ("fast/layout.py", "fast/tables.py", "logic/kernels/bundles.py", "model/result.py")
"""Modules without compiled functions whose names or layouts kernels compile in: the rule
codes (``RuleCode``) and the ``Drawn`` arrays (``fast/layout.py``; the lowering that fills them,
``fast/drawn.py``, is not compiled in), the engine tables' NamedTuples (read by field
position), the ladder's argument bundles (built inside kernels) and the ``Status`` codes."""
KERNEL_SOURCES = KERNEL_MODULES + COMPILED_IN
"""Globs of every file the disk cache's digest covers, and of no other: an edit of a Python
module (``generator/techniques.py``, ``fast/engine.py``) keeps everyone's compiled kernels."""
KERNEL_DIR_PREFIX = "kernels-"
"""The kernel cache directory's name before the digest."""


def source_digest(root: Path = _SUDOKIT_DIR) -> str:
    """Return a short hex digest (16 characters) of the :data:`KERNEL_SOURCES` under ``root``
    (the ``sudokit`` package directory): their relative paths and contents."""
    digest = hashlib.sha256()
    files = sorted({path for pattern in KERNEL_SOURCES for path in root.glob(pattern)})
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def user_cache_dir() -> Path:
    """Return ``$XDG_CACHE_HOME/sudokit/numba`` (default ``~/.cache/sudokit/numba``)."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "sudokit" / "numba"


def is_writable(directory: Path) -> bool:
    """Whether a file can be created in ``directory`` (created if missing), as Numba needs.

    Tries for real rather than trusting ``os.access``, which says yes to root on a read-only
    mount.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return False
    return True


def kernel_dir(package_dir: Path = _SUDOKIT_DIR / "fast", digest: str | None = None) -> Path:
    """Return the directory the kernels of these sources are cached in, without creating it or
    loading Numba: ``base/kernels-<digest>``.

    The base is ``NUMBA_CACHE_DIR`` if set; else ``package_dir/__pycache__`` if writable; else
    :func:`user_cache_dir`. ``digest`` defaults to :func:`source_digest` of the package
    holding ``package_dir``.
    """
    explicit = os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        base = Path(explicit)
    elif is_writable(package_dir / "__pycache__"):
        base = package_dir / "__pycache__"
    else:
        base = user_cache_dir()
    return base / (KERNEL_DIR_PREFIX + (digest or source_digest(package_dir.parent)))


@cache
def _kernel_dir() -> Path:
    """This process's kernel cache directory (:func:`kernel_dir`), asked once."""
    return kernel_dir()


def _marker(kernels: Kernels) -> Path:
    return _kernel_dir() / f"ready-{kernels.name.lower()}"


def ready(kernels: Kernels) -> bool:
    """Whether ``kernels`` are compiled in this version's cache (a marker written once they
    are: by :func:`mark_ready`)."""
    return _marker(kernels).exists()


def mark_ready(kernels: Kernels) -> None:
    """Record that ``kernels`` are in the cache (best effort: a read-only cache stays unmarked,
    which only means the next run checks again)."""
    marker = _marker(kernels)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass


_LOADED: set[Kernels] = set()
"""Groups whose kernel modules this process has imported (:func:`kernel`)."""

_PYTHON_EQUIVALENTS: dict[int, Callable[..., object]] = {}
"""id of a compiled primitive (an intrinsic) -> its Python equivalent, for :func:`interpreted`."""


def kernel(group: Kernels, python: Callable[..., object] | None = None) -> Callable[[F], F]:
    """Declare a kernel of ``group`` (a decorator returning the kernel unchanged): importing
    its module makes the group :func:`loaded`. ``python`` is the Python equivalent of a
    compiled primitive that has no Python source of its own (an LLVM intrinsic), which
    :func:`interpreted` puts in its place: the pair is a :class:`Twin` too (its inputs
    ``"words"``: uint64 masks)."""

    module = sys._getframe(1).f_globals.get("__name__", "")  # the kernel's module

    def declare(obj: F) -> F:
        _LOADED.add(group)
        if python is not None:
            _PYTHON_EQUIVALENTS[id(obj)] = python
            name = f"{module}:{getattr(obj, '_name', getattr(obj, '__name__', '?'))}"
            _TWINS.append(Twin(group, name, f"{python.__module__}:{python.__qualname__}", name,
                               "words"))
        return obj

    return declare


def loaded(group: Kernels) -> bool:
    """Whether a module of ``group``'s kernels is imported in this process."""
    return group in _LOADED


# -- the decision ----------------------------------------------------------------------------

_LOADED_BY = {Kernels.VERIFY: Kernels.VERIFY, Kernels.LOOKUP: Kernels.ENGINE}
"""Groups compiled only once a group is loaded for another reason (never loaded for
themselves alone: a method answering in Python, as on a first use while the kernels compile,
is checked and encoded in Python), and that group."""

_PYTHON: dict[Kernels, bool] = {}
"""Groups answered by their twins (:func:`run_as_python`) -> until their marker appears."""

_FORCED: dict[Kernels, bool] = {}
"""Groups forced one way by :func:`forced` -> compiled."""


def use_compiled(group: Kernels, n_cells: int = 0, limit: int | None = None) -> bool:
    """Whether ``group``'s kernels run (else their Python twins) on a grid of ``n_cells``
    cells, for a kernel serving grids up to ``limit`` cells (None: any).

    False on a larger grid; else as :func:`forced` says in its block; else False while
    :func:`run_as_python` holds (until the group's marker appears, if it was asked so); else
    False for a group compiled only once another is loaded (:data:`_LOADED_BY`) while that one
    is not; else True.
    """
    if limit is not None and n_cells > limit:
        return False
    if not _FORCED and not _PYTHON:  # the usual case: nothing turned to Python
        by = _LOADED_BY.get(group)
        return by is None or by in _LOADED
    if group in _FORCED:
        return _FORCED[group]
    if group in _PYTHON:
        if not _PYTHON[group] or not ready(group):
            return False
        _PYTHON.pop(group, None)  # compiled from now on (the marker stays)
    by = _LOADED_BY.get(group)
    return by is None or by in _LOADED


def run_as_python(group: Kernels, on: bool = True, until_ready: bool = False) -> None:
    """Run ``group``'s twins (``on``) from the next call on, process-wide, or its kernels
    again (``off``); with ``until_ready``, only until the group's marker appears (a background
    compile finished)."""
    if on:
        _PYTHON[group] = until_ready
    else:
        _PYTHON.pop(group, None)


@contextmanager
def forced(group: Kernels, compiled: bool) -> Iterator[None]:
    """Within the block, run ``group``'s kernels (``compiled``) or their twins, wherever the
    grid size allows (the twins' tests run each pair both ways)."""
    before = _FORCED.get(group)
    _FORCED[group] = compiled
    try:
        yield
    finally:
        if before is None:
            _FORCED.pop(group, None)
        else:
            _FORCED[group] = before


# -- twins declared ----------------------------------------------------------------------------


class Twin(NamedTuple):
    """A compiled kernel beside its Python reference.

    Attributes:
        group: the kernels' group, which :func:`use_compiled` decides on.
        kernel: ``module:name`` of the compiled kernel.
        reference: ``module:name`` of the Python reference (the kernel's own name when the
            reference is its source run by the interpreter, :func:`interpreted`).
        entry: ``module:qualname`` of the function that runs one or the other as
            :func:`use_compiled` says (the declared function).
        inputs: the kind of inputs both are run on in ``tests/test_twins.py`` (``"grids"``,
            ``"rows"``, ``"plans"``, ``"boards"``, ...).
    """

    group: Kernels
    kernel: str
    reference: str
    entry: str
    inputs: str


_TWINS: list[Twin] = []


def twin(group: Kernels, kernel: str, reference: str, inputs: str) -> Callable[[F], F]:
    """Declare that the decorated function runs ``kernel`` or its Python ``reference``, as
    :func:`use_compiled` decides for ``group`` (a decorator returning the function unchanged;
    see :class:`Twin`)."""

    def declare(entry: F) -> F:
        name = f"{getattr(entry, '__module__')}:{getattr(entry, '__qualname__')}"
        _TWINS.append(Twin(group, kernel, reference, name, inputs))
        return entry

    return declare


def twins() -> list[Twin]:
    """The twins declared by the modules imported so far."""
    return list(_TWINS)


# -- the interpreted copy of a kernel ------------------------------------------------------------

_COPIES: dict[object, object] = {}  # Python function -> its copy; module -> its copy


def _copy(value: object) -> object:
    """The interpreted copy of a module global: kernels, compiled primitives and sudokit
    modules are replaced, anything else is shared."""
    from numba.core.dispatcher import Dispatcher
    from numba.core.extending import _Intrinsic

    if isinstance(value, Dispatcher):
        return _function(value)
    if isinstance(value, _Intrinsic):
        return _PYTHON_EQUIVALENTS[id(value)]
    if isinstance(value, types.ModuleType) and value.__name__.startswith("sudokit."):
        return _module(value)
    return value


def _function(dispatcher: Dispatcher) -> Callable[..., Any]:
    func = dispatcher.py_func
    if func not in _COPIES:
        globals_ = _module(sys.modules[func.__module__]).__dict__
        _COPIES[func] = types.FunctionType(func.__code__, globals_, func.__name__,
                                           func.__defaults__, func.__closure__)
    return cast("Callable[..., Any]", _COPIES[func])


def _module(module: types.ModuleType) -> types.ModuleType:
    if module not in _COPIES:
        copy = types.ModuleType(module.__name__)
        _COPIES[module] = copy  # before its globals: modules and kernels refer to each other
        copy.__dict__.update({name: _copy(value) for name, value in vars(module).items()
                              if not name.startswith("__") or name == "__builtins__"})
    return cast(types.ModuleType, _COPIES[module])


def _widen(value: object, written: list[tuple[np.ndarray, np.ndarray]]) -> object:
    """``value`` with every integer array narrower than 64 bits replaced by an int64 copy
    (recorded in ``written`` for the copy back), inside tuples and named tuples too."""
    import numpy as np

    if isinstance(value, np.ndarray):
        if value.dtype.kind in "iu" and value.dtype.itemsize < 8:
            wide = value.astype(np.int64)
            written.append((value, wide))
            return wide
        return value
    if isinstance(value, tuple):
        items = [_widen(item, written) for item in value]
        return getattr(type(value), "_make")(items) if hasattr(value, "_fields") else tuple(items)
    return value


def interpreted(kernel: Dispatcher) -> Callable[..., Any]:
    """Return the Python copy of the compiled ``kernel`` (a Numba dispatcher of the
    ``sudokit`` package): same arguments, same effects, nothing compiled.

    The copy is a function with the kernel's code object whose globals are a copy of its
    module's, in which every compiled kernel is replaced by its own copy (recursively, through
    modules imported whole) and each compiled primitive by the Python equivalent its
    :func:`kernel` declaration names; nothing of the compiled kernels is touched. It runs
    about a hundred times more slowly than the kernel.

    Numba types an integer literal as int64, so ``u8 - 1`` or ``1 << u8`` with a uint8 ``u8``
    read from an array is an int64 in a kernel, but a uint8 for NumPy (NEP 50: a Python int
    takes the other operand's type). The copy therefore runs on int64 copies of the integer
    arrays narrower than 64 bits it is given (in named tuples too), copied back when it returns.
    """
    import numpy as np

    copy = _function(kernel)

    def run(*args: object) -> Any:
        written: list[tuple[np.ndarray, np.ndarray]] = []
        wide = [_widen(arg, written) for arg in args]
        with np.errstate(over="ignore"):  # uint64 arithmetic wraps around, as in the kernels
            result = copy(*wide)
        for array, wider in written:
            if array.flags.writeable:
                array[...] = wider
        return result

    return run

