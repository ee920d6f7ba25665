"""Where Numba keeps the compiled kernels on disk.

Kernels are cached next to the package (``fast/__pycache__``) when that directory is writable;
a read-only install (system site-packages, a container image) would otherwise recompile on
every start, so :func:`configure` then uses a user cache directory. An explicit
``NUMBA_CACHE_DIR`` wins over both.

Numba checks a cached kernel only against its own source file's time stamp, not against the
files of the functions it calls and inlines (numba/numba#6845): after an edit of ``rules.py``,
the cached ``run_batch`` of ``nine.py`` would still run the old rules. So the kernels live in
a subdirectory named by a digest of every source they are compiled from (:func:`source_digest`);
any edit there starts a fresh directory, and the stale ones beside it are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

__all__ = ["user_cache_dir", "is_writable", "kernel_dir", "configure", "source_digest",
           "COMPILED_IN", "KERNEL_MODULES", "KERNEL_SOURCES"]

PACKAGE_DIR = Path(__file__).resolve().parent
KERNEL_MODULES = ("fast/bits.py", "fast/givens.py", "fast/kernels.py", "fast/lines.py",
                  "fast/nine.py", "fast/rulecheck.py", "fast/rules.py", "fast/scores.py",
                  "fast/state.py", "fast/sums.py", "fast/templates.py", "fast/trail.py",
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
_PREFIX = "kernels-"
_STALE_SECONDS = 3600.0


def _age(path: Path) -> float:
    """Seconds since ``path`` was last modified (0 if it is gone)."""
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def source_digest(root: Path = PACKAGE_DIR.parent) -> str:
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


def kernel_dir(package_dir: Path = PACKAGE_DIR, digest: str | None = None) -> Path:
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
    return base / (_PREFIX + (digest or source_digest(package_dir.parent)))


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
    for stale in path.parent.glob(_PREFIX + "*"):
        if stale != path and _age(stale) > _STALE_SECONDS:
            shutil.rmtree(stale, ignore_errors=True)
    config.CACHE_DIR = str(path)
    return path
