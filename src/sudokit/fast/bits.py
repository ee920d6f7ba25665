"""Bit and clock primitives for the Numba kernels, as LLVM intrinsics.

Numba has no population count, count-trailing/leading-zeros or clock of its own in nopython
mode. These intrinsics emit ``llvm.ctpop``, ``llvm.cttz``, ``llvm.ctlz`` and a call to the C
library's ``clock_gettime`` by symbol name, so the kernels that use them stay cacheable (a ctypes function
pointer would be a "dynamic global" and disable Numba's disk cache).

The clock is ``CLOCK_MONOTONIC`` (POSIX: Linux and macOS), the clock behind Python's
``time.monotonic()`` and, on Linux, ``time.perf_counter()``. Kernels only ever compare two
readings of it, so no other clock needs to agree with it.
"""

from __future__ import annotations

import sys
import time
from typing import SupportsInt

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..compiled import Kernels, kernel

__all__ = ["highest_index", "lowest_index", "monotonic", "popcount"]

_CLOCK_MONOTONIC = 6 if sys.platform == "darwin" else 1
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_F64 = ir.DoubleType()


def _popcount(mask: SupportsInt) -> np.int64:
    return np.int64(int(mask).bit_count())


def _lowest_index(mask: SupportsInt) -> np.int64:
    m = int(mask)
    return np.int64((m & -m).bit_length() - 1)


def _highest_index(mask: SupportsInt) -> np.int64:
    return np.int64(int(mask).bit_length() - 1)


@kernel(Kernels.ENGINE, python=_popcount)  # its Python equivalent, for interpreted copies
@intrinsic
def popcount(typingctx, mask):  # type: ignore[no-untyped-def]
    """Return the number of set bits of a uint64 mask (``llvm.ctpop``), as int64."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@kernel(Kernels.ENGINE, python=_lowest_index)  # its Python equivalent, for interpreted copies
@intrinsic
def lowest_index(typingctx, mask):  # type: ignore[no-untyped-def]
    """Return the index of the lowest set bit of a non-zero uint64 mask (``llvm.cttz``)."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.uint64), codegen


@kernel(Kernels.ENGINE, python=_highest_index)  # its Python equivalent, for interpreted copies
@intrinsic
def highest_index(typingctx, mask):  # type: ignore[no-untyped-def]
    """Return the index of the highest set bit of a non-zero uint64 mask (63 - ``llvm.ctlz``)."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(_I64(63), zeros)

    return types.int64(types.uint64), codegen


@kernel(Kernels.ENGINE, python=time.monotonic)  # its Python equivalent, for interpreted copies
@intrinsic
def monotonic(typingctx):  # type: ignore[no-untyped-def]
    """Return ``clock_gettime(CLOCK_MONOTONIC)`` in seconds, as float64."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        timespec = ir.LiteralStructType([_I64, _I64])
        fnty = ir.FunctionType(_I32, [_I32, timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        now = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [_I32(_CLOCK_MONOTONIC), now])
        sec = builder.load(cgutils.gep_inbounds(builder, now, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, now, 0, 1))
        return builder.fadd(builder.sitofp(sec, _F64),
                            builder.fmul(builder.sitofp(nsec, _F64), _F64(1e-9)))

    return types.float64(), codegen
