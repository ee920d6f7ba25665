"""The house in floors: every import of the package points down (DESIGN.md, docs/architecture.md).

An ``ast`` walk of every module of ``src/sudokit`` (function-level and ``TYPE_CHECKING`` imports
included) checks each import of another sudokit module against the floor order below and fails
naming the file, the line and both modules. The few imports allowed against the order are in
:data:`ALLOWED`, each with its reason. A second test finds import cycles between modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "sudokit"

FLOORS: dict[str, int] = {
    "sudokit.errors": 0,
    "sudokit.compiled": 1,  # beside model/: which code runs, compiled or Python (no model)
    "sudokit.model": 1,
    "sudokit.formats": 2,
    "sudokit.csp": 3, "sudokit.fast": 3,
    "sudokit.sat": 4,
    "sudokit.logic": 5, "sudokit.magic": 5,
    "sudokit.generator": 6,
    "sudokit.registry": 7,
    "sudokit.solvers": 8,
    "sudokit.run": 9,
    "sudokit.present": 10,
    "sudokit.cli": 11, "sudokit.serve": 11,  # the web app stands beside the CLI
    "sudokit": 12, "sudokit.__main__": 12,  # the package's lazy public names and `python -m`
}
"""Each package's floor: a module may import modules of its own package or of a lower floor.
The methods stand on floors of their own: CSP (its cage tables serve SAT too) and the compiled
engine; SAT; the logic engine and magic squares over them; the generator over the logic engine.
The registry describes methods without importing them; the adapters in ``solvers/`` register
with it."""

SIBLINGS: frozenset[frozenset[str]] = frozenset({
    frozenset({"sudokit.formats", "sudokit.sat"}), frozenset({"sudokit.formats", "sudokit.csp"}),
    frozenset({"sudokit.formats", "sudokit.fast"}), frozenset({"sudokit.formats", "sudokit.logic"}),
    frozenset({"sudokit.formats", "sudokit.magic"}),
    frozenset({"sudokit.formats", "sudokit.generator"}),
    frozenset({"sudokit.formats", "sudokit.registry"}),
    frozenset({"sudokit.formats", "sudokit.solvers"}),
})
"""Pairs that stand side by side and never import each other: parsing knows nothing of
solving, and methods know nothing of text forms (`run -> formats -> model`)."""

ALLOWED: dict[tuple[str, str], str] = {
    ("sudokit.registry", "sudokit.solvers"):
        "plugin load: the registry imports a method's adapter module on first use of its name",
    ("sudokit.model.puzzle", "sudokit.present.display"):
        "display dunders: Puzzle.__str__ and _repr_html_ draw through present/, lazily",
    ("sudokit.model.result", "sudokit.present.display"):
        "display dunders: Result.__str__ and _repr_html_ draw through present/, lazily",
    ("sudokit.logic.step", "sudokit.present.svg"):
        "display dunder: Step._repr_svg_ draws the board it applies to through present/, lazily",
    ("sudokit.cli._app", "sudokit"):
        "`sudokit --version` prints the package's __version__ (the top package imports no CLI)",
    ("sudokit.cli.serve", "sudokit.serve"):
        "`sudokit serve` runs the web app beside the CLI; imported only when the command runs",
    ("sudokit.model.puzzle", "sudokit.formats.text"):
        "Puzzle.parse / Puzzle.coerce read text through the one puzzle parser, lazily",
}
"""(importer, imported) -> why: the only imports against the floors."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> list[tuple[str, int]]:
    """(imported sudokit module, line) for every import statement of module ``name``."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.startswith("sudokit")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "sudokit" or target.startswith("sudokit."):
                for alias in node.names:  # `from . import x` imports the module x
                    sub = f"{target}.{alias.name}"
                    found.append((sub if sub in MODULES else target, node.lineno))
    return found


def floor_of(module: str) -> tuple[str, int]:
    """The package ``module`` belongs to (longest prefix in FLOORS) and its floor."""
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        prefix = ".".join(parts[:k])
        if prefix in FLOORS:
            return prefix, FLOORS[prefix]
    raise KeyError(module)


def test_every_module_has_a_floor() -> None:
    missing = [m for m in MODULES if not any(m == p or m.startswith(p + ".") for p in FLOORS)
               and m not in FLOORS]
    assert not missing, f"modules on no floor (add their package to FLOORS): {missing}"
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert root == ["__init__.py", "__main__.py", "compiled.py", "errors.py", "registry.py"]


def test_imports_point_down() -> None:
    wrong: list[str] = []
    for name in MODULES:
        home, floor = floor_of(name)
        for imported, line in imports(name):
            there, level = floor_of(imported)
            if there == home or (name, imported) in ALLOWED:
                continue
            if level >= floor or frozenset({home, there}) in SIBLINGS:
                wrong.append(f"{MODULES[name].relative_to(SRC.parent)}:{line}: {name} "
                             f"(floor {floor}) imports {imported} (floor {level})")
    assert not wrong, "imports against the floors:\n" + "\n".join(dict.fromkeys(wrong))


def test_allow_list_is_short_and_used() -> None:
    assert len(ALLOWED) <= 8
    used = {(name, imported) for name in MODULES for imported, _ in imports(name)}
    assert set(ALLOWED) <= used, f"stale entries: {set(ALLOWED) - used}"


def cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan 1972), over every import
    but the allowed lazy ones (which point up by definition, so close a loop with any import
    back down)."""
    graph = {m: sorted({i for i, _ in imports(m)
                        if i in MODULES and i != m and (m, i) not in ALLOWED}) for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    assert cycles() == []


@pytest.mark.parametrize("importer, imported", sorted(ALLOWED))
def test_allowed_imports_are_lazy(importer: str, imported: str) -> None:
    """An allowed upward import sits inside a function, so importing the module never loads the
    floor above it."""
    tree = ast.parse(MODULES[importer].read_text(encoding="utf-8"))
    top = {i for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
           for i, line in imports(importer) if line == node.lineno}
    assert imported not in top
