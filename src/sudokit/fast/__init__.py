"""The compiled engine: Numba kernels for bitmask propagation and search, and their batch API.

Importing this package first chooses where compiled kernels are cached (see
:mod:`sudokit.fast.cache`), then defines them; they compile on first use (a few seconds, once)
and load from the disk cache afterwards.

>>> import numpy as np
>>> from sudokit.fast import solve_batch
>>> solutions, status, stats = solve_batch(np.zeros((1, 16), np.uint8))
>>> solutions.shape, int(status[0])
((1, 1, 16), 1)
"""

from . import cache

CACHE_DIR = cache.configure()
"""Directory holding the compiled kernels of this process."""

from .engine import (  # noqa: E402
    NO_NODE_LIMIT,
    BatchResult,
    ResumableSearch,
    Stat,
    solve_batch,
    uses_nine,
)
from .kernels import StopReason  # noqa: E402

__all__ = ["solve_batch", "ResumableSearch", "BatchResult", "Stat", "StopReason",
           "NO_NODE_LIMIT", "CACHE_DIR", "uses_nine"]
