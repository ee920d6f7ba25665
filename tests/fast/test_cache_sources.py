"""The kernel cache's digest covers exactly the files compiled kernels are built from
(:data:`sudokit.fast.cache.KERNEL_SOURCES`): every module defining a compiled function, every
module whose names they compile in, and no Python-only module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from sudokit.fast import cache

ROOT = cache.PACKAGE_DIR.parent
COMPILED = re.compile(r"^(@(jit|njit|intrinsic|kernel\(|nb\.njit|numba\.njit)"
                      r"|\w+ = (nb\.|numba\.)?njit\()", re.MULTILINE)
PYTHON_SIDE = {"compiled.py", "model/geometry.py", "model/puzzle.py", "model/rules.py",
               "logic/state.py", "logic/tables.py", "fast/__init__.py", "generator/__init__.py",
               "fast/drawn.py"}
"""Modules kernel modules import only for their Python side (types, table builders)."""


def covered(root: Path = ROOT) -> set[str]:
    return {p.relative_to(root).as_posix() for g in cache.KERNEL_SOURCES for p in root.glob(g)}


def compiled_modules() -> set[str]:
    return {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
            if COMPILED.search(p.read_text())}


def imported(module: str) -> set[str]:
    """The ``sudokit`` modules ``module`` imports at module level (relative paths)."""
    here = (ROOT / module).parent
    found = set()
    for node in ast.parse((ROOT / module).read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*(node.module or "").split("."))
            for name in ([a.name for a in node.names] if node.module is None else [""]):
                path = target / name if name else target
                for candidate in (path.with_suffix(".py"), path / "__init__.py"):
                    if candidate.is_file():
                        found.add(candidate.relative_to(ROOT).as_posix())
    return found


def test_every_module_with_compiled_functions_is_covered() -> None:
    modules = compiled_modules()
    assert {"fast/rules.py", "logic/_ladder_kernel.py", "logic/techniques/_fish_kernel.py",
            "logic/chains/_links_kernel.py", "generator/kernels.py"} <= modules
    assert modules - {"compiled.py"} <= covered()


def test_only_kernel_modules_and_their_compiled_in_names_are_covered() -> None:
    extra = covered() - compiled_modules()
    assert extra == {p for g in cache.COMPILED_IN for p in covered() if Path(p).match(g)}
    assert {"generator/techniques.py", "generator/rating.py", "fast/engine.py",
            "fast/automata.py", "logic/solve.py"}.isdisjoint(covered())


def test_what_kernel_modules_import_is_covered_or_python_side() -> None:
    """A new import into a kernel module must be decided: compiled in (``COMPILED_IN``) or
    used from Python only (``PYTHON_SIDE`` here)."""
    for module in sorted(compiled_modules() - {"compiled.py"}):
        assert imported(module) - covered() <= PYTHON_SIDE, module


def test_an_edit_outside_the_kernel_sources_keeps_the_digest(tmp_path: Path) -> None:
    root = tmp_path / "sudokit"
    for rel in ("generator/techniques.py", "generator/kernels.py", "logic/_ladder_kernel.py",
                "logic/techniques/_fish_kernel.py", "model/result.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("A = 1\n")
    first = cache.source_digest(root)
    (root / "generator/techniques.py").write_text("A = 2\n")
    assert cache.source_digest(root) == first
    for rel in ("generator/kernels.py", "logic/_ladder_kernel.py",
                "logic/techniques/_fish_kernel.py", "model/result.py"):
        (root / rel).write_text((root / rel).read_text() + "B = 1\n")
        assert cache.source_digest(root) != first, rel
        first = cache.source_digest(root)
