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

It also spares the engine's loading a third-party import no kernel needs: Numba's target
context, on its first use in a process, imports ``numba.np.arraymath``, which probes for BLAS
by importing ``scipy.linalg`` (0.17 CPU seconds of the 0.5 the engine takes to load, measured
on a warm cache; :func:`skip_blas_probe`).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from ..compiled import (COMPILED_IN, KERNEL_DIR_PREFIX, KERNEL_MODULES, KERNEL_SOURCES, is_writable,
                        kernel_dir, source_digest, user_cache_dir)

__all__ = ["user_cache_dir", "is_writable", "kernel_dir", "configure", "source_digest",
           "skip_blas_probe", "COMPILED_IN", "KERNEL_MODULES", "KERNEL_SOURCES"]

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

    skip_blas_probe()
    path = kernel_dir(package_dir, digest)
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(KERNEL_DIR_PREFIX + "*"):
        if stale != path and _age(stale) > _STALE_SECONDS:
            shutil.rmtree(stale, ignore_errors=True)
    config.CACHE_DIR = str(path)  # type: ignore[attr-defined]  # read from the environment
    return path


def skip_blas_probe() -> None:
    """Import ``numba.np.arraymath`` without its BLAS probe.

    At import, that module calls ``numba.np.linalg.ensure_blas`` once, which imports
    ``scipy.linalg`` (with NumPy's f2py and SciPy's array API layers: about 0.17 CPU seconds),
    only to record whether ``np.convolve`` and ``np.correlate`` on floats may call ``np.dot``
    (``arraymath._HAVE_BLAS``). sudokit's kernels use neither. Here the probe
    answers "no BLAS" instead, so in this process those two functions, if another library's
    kernel uses them, take Numba's plain loop; ``ensure_blas`` itself is put back at once, so
    ``np.dot`` and ``np.linalg`` in kernels still find SciPy when they compile. If Numba's
    names differ (another version), the module is imported as usual. Once ``arraymath`` is
    imported, a second call changes nothing (the import returns the loaded module).
    """
    from numba.np import linalg

    probe = getattr(linalg, "ensure_blas", None)
    if probe is None:
        return

    def absent() -> None:
        raise ImportError("BLAS probe skipped by sudokit (no kernel of it uses BLAS)")

    linalg.ensure_blas = absent
    try:
        import numba.np.arraymath as arraymath
    finally:
        linalg.ensure_blas = probe
    if getattr(arraymath, "ensure_blas", None) is absent:
        arraymath.ensure_blas = probe
