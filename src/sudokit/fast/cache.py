"""Where Numba keeps the compiled kernels on disk.

Kernels are cached next to the package (``fast/__pycache__``) when that directory is writable;
a read-only install (system site-packages, a container image) would otherwise recompile on
every start, so :func:`configure` then uses a user cache directory. An explicit
``NUMBA_CACHE_DIR`` wins over both.

Numba checks a cached kernel only against its own source file's time stamp, not against the
files of the functions it calls and inlines (numba/numba#6845): after an edit of ``rules.py``,
the cached ``run_batch`` of ``nine.py`` would still run the old rules. So the kernels live in
a subdirectory named by a digest of every source they are compiled from (:func:`source_digest`);
any edit there starts a fresh directory, and the stale ones beside it are removed. The directory
is computed in :mod:`sudokit.compiled` (standard library only: its readiness markers live there
too); this module hands it to Numba.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from ..compiled import (COMPILED_IN, KERNEL_DIR_PREFIX, KERNEL_MODULES, KERNEL_SOURCES, is_writable,
                        kernel_dir, source_digest, user_cache_dir)

__all__ = ["user_cache_dir", "is_writable", "kernel_dir", "configure", "source_digest",
           "COMPILED_IN", "KERNEL_MODULES", "KERNEL_SOURCES"]

PACKAGE_DIR = Path(__file__).resolve().parent
"""The ``sudokit.fast`` package directory (the in-tree cache's default base)."""
_STALE_SECONDS = 3600.0


def _age(path: Path) -> float:
    """Seconds since ``path`` was last modified (0 if it is gone)."""
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def configure(package_dir: Path = PACKAGE_DIR, digest: str | None = None) -> Path:
    """Choose the kernel cache directory (:func:`kernel_dir`), tell Numba
    (``numba.config.CACHE_DIR``) and return it.

    Other ``kernels-*`` directories beside it untouched for an hour are removed (best effort:
    they hold kernels of other sources; the hour spares a process still running on them).
    Must run before the kernel modules are imported (Numba picks the directory when a cached
    function is defined).
    """
    from numba.core import config

    path = kernel_dir(package_dir, digest)
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(KERNEL_DIR_PREFIX + "*"):
        if stale != path and _age(stale) > _STALE_SECONDS:
            shutil.rmtree(stale, ignore_errors=True)
    config.CACHE_DIR = str(path)
    return path
