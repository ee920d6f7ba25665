"""The generator's kernels run by the Python interpreter: the same source, the same puzzles,
no compiling.

Numba keeps the Python function behind each compiled kernel (``dispatcher.py_func``), but a
kernel calls the others by their global names, which name compiled dispatchers: calling
``py_func`` would compile them. :func:`interpreted` makes a twin of a kernel instead: a function
with the same code object whose globals are a copy of its module's, in which every compiled
kernel is replaced by its own twin (recursively, through modules imported whole such as
``nine``), and each of the four LLVM intrinsics of :mod:`sudokit.fast.bits` by its Python
equivalent. Nothing of the compiled kernels is touched, and nothing is compiled.

The twin computes what the kernel computes, on NumPy scalars and arrays instead of machine
words (NumPy's 64-bit integers wrap around as the kernels' do; narrower integer arrays are
widened, see :func:`interpreted`), about a hundred times more slowly: a 9x9 puzzle takes about
half a second. The command line uses it while the kernels compile in the background
(:mod:`sudokit.run.warm`), so the first puzzle of a fresh install comes at once, and it is the
same puzzle as the compiled generator makes for that seed (``tests/generator`` checks this).
"""

from __future__ import annotations

import sys
import time
import types
from collections.abc import Callable
from typing import Any

import numpy as np
from numba.core.dispatcher import Dispatcher
from numba.core.extending import _Intrinsic

__all__ = ["interpreted"]


def _popcount(mask: Any) -> np.int64:
    return np.int64(int(mask).bit_count())


def _lowest_index(mask: Any) -> np.int64:
    m = int(mask)
    return np.int64((m & -m).bit_length() - 1)


def _highest_index(mask: Any) -> np.int64:
    return np.int64(int(mask).bit_length() - 1)


def _monotonic() -> float:
    return time.monotonic()


_INTRINSICS: dict[str, Callable[..., Any]] = {
    "popcount": _popcount, "lowest_index": _lowest_index, "highest_index": _highest_index,
    "monotonic": _monotonic}
"""Python equivalents of the intrinsics of :mod:`sudokit.fast.bits`, by name."""

_twins: dict[Any, Any] = {}


def _twin(value: Any) -> Any:
    """The interpreted twin of a module global: kernels, intrinsics and sudokit modules are
    replaced, anything else is shared."""
    if isinstance(value, Dispatcher):
        return _function(value)
    if isinstance(value, _Intrinsic):
        return _INTRINSICS[value._name]
    if isinstance(value, types.ModuleType) and value.__name__.startswith("sudokit."):
        return _module(value)
    return value


def _function(dispatcher: Dispatcher) -> Callable[..., Any]:
    func = dispatcher.py_func
    if func not in _twins:
        globals_ = _module(sys.modules[func.__module__]).__dict__
        _twins[func] = types.FunctionType(func.__code__, globals_, func.__name__,
                                          func.__defaults__, func.__closure__)
    return _twins[func]


def _module(module: types.ModuleType) -> types.ModuleType:
    if module not in _twins:
        twin = types.ModuleType(module.__name__)
        _twins[module] = twin  # before its globals: modules and kernels refer to each other
        twin.__dict__.update({name: _twin(value) for name, value in vars(module).items()
                              if not name.startswith("__") or name == "__builtins__"})
    return _twins[module]


def _widen(value: Any, written: list[tuple[np.ndarray, np.ndarray]]) -> Any:
    """``value`` with every integer array narrower than 64 bits replaced by an int64 copy
    (recorded in ``written`` for the copy back), inside tuples and named tuples too."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "iu" and value.dtype.itemsize < 8:
            wide = value.astype(np.int64)
            written.append((value, wide))
            return wide
        return value
    if isinstance(value, tuple):
        items = [_widen(item, written) for item in value]
        return type(value)._make(items) if hasattr(value, "_fields") else tuple(items)
    return value


def interpreted(kernel: Dispatcher) -> Callable[..., Any]:
    """Return the Python twin of the compiled ``kernel`` (a Numba dispatcher of the
    ``sudokit`` package): same arguments, same effects, nothing compiled.

    Numba types an integer literal as int64, so ``u8 - 1`` or ``1 << u8`` with a uint8 ``u8``
    read from an array is an int64 in a kernel, but a uint8 for NumPy (NEP 50: a Python int
    takes the other operand's type). The twin therefore runs on int64 copies of the integer
    arrays narrower than 64 bits it is given (in named tuples too), copied back when it returns.
    """
    twin = _function(kernel)

    def run(*args: Any) -> Any:
        written: list[tuple[np.ndarray, np.ndarray]] = []
        wide = [_widen(arg, written) for arg in args]
        with np.errstate(over="ignore"):  # uint64 arithmetic wraps around, as in the kernels
            result = twin(*wide)
        for array, copy in written:
            if array.flags.writeable:
                array[...] = copy
        return result

    return run
