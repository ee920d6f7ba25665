"""docs/architecture.md is the map of the house: it must match the tree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sudokit"
MAP = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")

# `model/`, `logic/techniques/`, `run/doors.py`, `registry.py`, `tests/test_floors.py`
PATHS = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+(?:/|\.py))`", MAP))


def _where(path: str) -> Path:
    """A named path: from the repository root (``tests/``, ``src/``), from ``src/``
    (``sudokit/...``) or, by default, inside the package."""
    if path.startswith(("tests/", "src/", "docs/", "benchmarks/")):
        return ROOT / path
    return ROOT / "src" / path if path.startswith("sudokit/") else PACKAGE / path


def test_every_path_the_map_names_exists() -> None:
    missing = [p for p in sorted(PATHS) if not _where(p).exists()]
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_every_package_is_on_the_map() -> None:
    packages = sorted(f"{p.parent.relative_to(PACKAGE).as_posix()}/"
                      for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE)
    absent = [p for p in packages if p not in PATHS]
    assert not absent, f"packages missing from docs/architecture.md: {absent}"
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert all(name in PATHS for name in root), root


def test_every_allowed_import_is_on_the_map() -> None:
    from tests.test_floors import ALLOWED

    for importer, imported in ALLOWED:
        short = (importer.removeprefix("sudokit."), imported.removeprefix("sudokit."))
        assert f"`{short[0]}` -> `{short[1]}`" in MAP, short
