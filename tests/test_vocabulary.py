"""One vocabulary: no two public classes or functions of the package share a name with
different meanings (DESIGN.md, "Style"; issue 25).

A name defined at module level in two modules is allowed only for the pairs kept twice on
purpose (docs/architecture.md, "Kept twice on purpose"): a compiled technique kernel of
``logic/kernels/`` (or a ``_*_kernel.py`` module of ``logic/``) beside its Python reference
finder, and the pairs listed in TWINS with the reason (the compiled verification beside the
reference one, the 9x9 kernel beside the generic one).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sudokit"

TWINS: dict[str, str] = {
    "solves": "model.puzzle.solves is the reference check of grids on arrays, fast.verify.solves "
              "its compiled twin",
    "run": "fast.nine.run is the 9x9 kernel's resumable search, fast.kernels.run the generic one",
    "start": "fast.nine.start starts the 9x9 kernel's search, fast.kernels.start the generic one",
    "run_batch": "fast.nine.run_batch is the 9x9 kernel's batch loop, fast.kernels.run_batch "
                 "the generic one",
}
"""Public names defined in more than one module on purpose (same meaning), and why."""


def public_definitions() -> dict[str, list[str]]:
    """Public class and function name -> the modules that define it at module level."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                    and not node.name.startswith("_")):
                where[node.name].append(module)
    return where


def kernel_twins(modules: list[str]) -> bool:
    """A compiled technique kernel (``logic/kernels/``, ``logic/*/_*_kernel.py``) beside its
    Python reference finder of ``logic/`` (its technique module or the chain search): one
    rule, two copies on purpose."""
    kernels = [m for m in modules if m.startswith("sudokit.logic.kernels.")
               or m.startswith("sudokit.logic.") and m.endswith("_kernel")]
    return len(modules) == 2 and len(kernels) == 1 and all(
        m.startswith("sudokit.logic.") for m in modules)


def test_no_public_name_has_two_meanings() -> None:
    clashes = {name: modules for name, modules in public_definitions().items()
               if len(modules) > 1 and name not in TWINS and not kernel_twins(modules)}
    assert not clashes, f"public names defined in several modules: {clashes}"


def test_twins_are_still_twins() -> None:
    found = public_definitions()
    assert all(len(found.get(name, [])) == 2 for name in TWINS), {
        name: found.get(name) for name in TWINS}


def test_one_status_vocabulary() -> None:
    """Outcome types are named apart from the one Status: no class is called Outcome."""
    assert "Outcome" not in public_definitions()
