"""Where Numba keeps the compiled kernels on disk.

Numba caches next to the source (``__pycache__``) when that directory is writable. A read-only
install (system site-packages, a container image) would otherwise recompile on every start, so
:func:`configure` points Numba at a user cache directory instead, before any kernel is defined.
An explicit ``NUMBA_CACHE_DIR`` always wins.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["user_cache_dir", "is_writable", "configure"]

PACKAGE_DIR = Path(__file__).resolve().parent


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


def configure(package_dir: Path = PACKAGE_DIR) -> Path:
    """Choose the kernel cache directory and tell Numba; return it.

    Order: ``NUMBA_CACHE_DIR`` if set; else ``package_dir/__pycache__`` if writable (Numba's
    default, nothing to change); else :func:`user_cache_dir`, set as ``numba.config.CACHE_DIR``.
    Must run before the kernels module is imported (Numba picks the directory when a cached
    function is defined).
    """
    from numba.core import config

    explicit = os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    in_tree = package_dir / "__pycache__"
    if is_writable(in_tree):
        return in_tree
    path = user_cache_dir()
    path.mkdir(parents=True, exist_ok=True)
    config.CACHE_DIR = str(path)
    return path
