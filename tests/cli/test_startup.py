"""Start-up: what importing the package and running light commands imports.

Each check runs in a fresh interpreter (``sys.modules`` of this test process holds everything
already) and asserts on the modules imported, never on timings (start-up time is measured in
``benchmarks/pipeline.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "numba", "pysat", "ortools", "matplotlib", "dask", "distributed")
"""Optional or costly libraries a light command must not import."""

PROBE = """
import json, sys, runpy
sys.argv = {argv!r}
try:
    {body}
except SystemExit:
    pass
with open({path!r}, "w") as fh:
    json.dump(sorted(sys.modules), fh)
"""


def imported(body: str, argv: list[str] | None = None) -> set[str]:
    """Run ``body`` in a fresh interpreter; return the names of the modules it left in
    ``sys.modules``, plus their top-level names (``numba.core`` adds ``numba``)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "modules.json")
        code = PROBE.format(argv=argv or ["sudokit"], body=body, path=path)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        names = json.loads(Path(path).read_text())
    return set(names) | {name.partition(".")[0] for name in names}


def cli(*args: str) -> set[str]:
    """Modules imported by ``sudokit ARGS`` (as ``python -m sudokit ARGS``)."""
    return imported("runpy.run_module('sudokit', run_name='__main__', alter_sys=True)",
                    ["sudokit", *args])


def test_import_sudokit_is_light() -> None:
    modules = imported("import sudokit")
    assert not modules & set(HEAVY)
    assert "sudokit.run.doors" not in modules and "sudokit.generator" not in modules


def test_public_names_resolve_on_first_use() -> None:
    modules = imported("import sudokit\n    sudokit.Puzzle, sudokit.solve, sudokit.Status")
    assert {"sudokit.run.doors", "sudokit.model.puzzle", "numpy"} <= modules
    assert "numba" not in modules


def test_every_public_name_exists() -> None:
    import sudokit

    for name in sudokit.__all__:
        assert getattr(sudokit, name) is not None, name
    assert set(sudokit.__all__) <= set(dir(sudokit))
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        sudokit.no_such_name  # noqa: B018


def test_generate_is_the_function_and_the_generator_a_package() -> None:
    """``sudokit.generate`` is the function; its package has another name, so importing the
    package, before or after, binds nothing over the function."""
    for first in ("import sudokit.generator\n    import sudokit",
                  "import sudokit\n    sudokit.generate\n    import sudokit.generator"):
        body = (f"{first}\n"
                "    from sudokit.generator import Options\n"
                "    from sudokit.run.generate import generate\n"
                "    assert sudokit.generate is generate, sudokit.generate\n"
                "    assert Options.__module__ == 'sudokit.generator'\n"
                "    from sudokit import generate as g\n"
                "    assert g is generate and callable(g)")
        assert "sudokit.generator" in imported(body)


def test_generate_can_be_replaced_and_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    import sudokit
    from sudokit.run.generate import generate

    monkeypatch.setattr(sudokit, "generate", len)
    assert sudokit.generate is len
    monkeypatch.undo()
    assert sudokit.generate is generate


def test_from_sudokit_import_submodule() -> None:
    assert "sudokit.run.doors" in imported("from sudokit.run import doors\n    assert doors.solve")


@pytest.mark.parametrize("args", [["--help"], ["solve", "--help"], ["methods"],
                                  ["methods", "--problem", "magic"], ["--version"]])
def test_light_commands_import_no_heavy_library(args: list[str]) -> None:
    modules = cli(*args)
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


def test_solving_one_small_puzzle_does_not_load_the_compiled_engine() -> None:
    """One 9x9 puzzle is solved by ``propagate`` (done before Numba would have loaded)."""
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    modules = cli("solve", puzzle)
    assert "numba" not in modules and "pysat" not in modules
    assert "sudokit.solvers.propagate" in modules


@pytest.mark.parametrize("problem", ["sudoku", "magic"])
def test_catalogue_matches_the_registered_classes(problem: str) -> None:
    """The registry describes methods from its catalogue: it must say what the classes say."""
    from sudokit.registry import _REGISTRY, CATALOGUE, load_methods

    load_methods(problem)
    classes = {name: cls for name, cls in _REGISTRY[problem].items()
               if cls.__module__.startswith("sudokit.")}  # not the tests' own methods
    assert set(CATALOGUE[problem]) == set(classes)
    for name, entry in CATALOGUE[problem].items():
        cls = classes[name]
        assert cls.__module__ == f"sudokit.{entry.module}", name
        assert (entry.summary, entry.requires, entry.install) == (
            cls.summary, tuple(cls.requires), cls.install), name
        if not entry.backends:
            assert tuple(cls.backends) == (), name


def test_methods_lists_without_importing_and_states_the_default_rule() -> None:
    body = ("from sudokit.registry import methods, default_method, default_rule\n"
            "    rows = {m.name: m for m in methods()}\n"
            "    assert rows['propagate'].available and rows['sat'].summary\n"
            "    assert default_method() in ('portfolio', 'fast', 'propagate')\n"
            "    assert 'propagate' in default_rule()")
    modules = imported(body)
    assert not modules & set(HEAVY)
    assert not any(name.startswith("sudokit.solvers.") for name in modules)


def test_method_info_loads_the_class_on_demand() -> None:
    from sudokit.registry import methods
    from sudokit.solvers.sat import SatSolver

    info = {m.name: m for m in methods()}
    assert info["sat"].cls is SatSolver and info["sat"].backends == tuple(SatSolver.backends)
    assert info["propagate"].backends == ()


def test_backends_column_imports_only_methods_with_backends() -> None:
    body = ("from sudokit.registry import methods\n"
            "    assert {m.name: m.backends for m in methods()}['mac'] == ()")
    modules = imported(body)
    assert "sudokit.solvers.sat" in modules
    assert not {"sudokit.solvers.csp", "sudokit.solvers.logic", "sudokit.solvers.fast"} & modules


def test_get_solver_imports_only_the_named_method() -> None:
    modules = imported("from sudokit import get_solver\n    get_solver('propagate')")
    assert "sudokit.solvers.propagate" in modules
    assert not {"sudokit.solvers.sat", "sudokit.solvers.fast", "pysat", "numba"} & modules


def test_methods_command_prints_the_default_rule() -> None:
    from typer.testing import CliRunner

    from sudokit.cli import app
    from sudokit.registry import SMALL_INPUT

    out = CliRunner().invoke(app, ["methods"])
    assert out.exit_code == 0
    assert "default (no --method)" in out.stdout and f"at most {SMALL_INPUT} puzzles" in out.stdout
    magic = CliRunner().invoke(app, ["methods", "--problem", "magic"])
    assert "lines" in magic.stdout and "default (no --method)" not in magic.stdout


def test_help_is_plain_click_text_without_rich() -> None:
    """``--help`` renders without ``typer.rich_utils`` (Rich's Markdown and markdown-it), so the
    help texts must hold no Rich markup or escapes."""
    from typer.testing import CliRunner

    from sudokit.cli import app

    assert not {"rich", "typer.rich_utils"} & cli("--help")
    runner = CliRunner()
    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    for args in [["--help"], *([name, "--help"] for name in names)]:
        out = runner.invoke(app, args)
        assert out.exit_code == 0, args
        assert "\\[" not in out.stdout and "[/" not in out.stdout, args
    assert "pip install 'sudokit[dask]'" in " ".join(runner.invoke(app, ["solve", "--help"])
                                                      .stdout.split())


def test_the_program_freezes_the_collector_on_exit() -> None:
    """``main()`` run as the program leaves every object to the permanent generation (the
    final collections would walk Numba's object graph); called with ``argv`` it does not."""
    probe = ("import atexit, gc, os, sys\n"
             "    atexit.register(lambda: os.write(2, b'@@%d' % gc.get_freeze_count()))\n"
             "    from sudokit.cli import main\n"
             "    main({argv})")
    for argv, frozen in (("None", True), ("['--version']", False)):
        code = PROBE.format(argv=["sudokit", "--version"], body=probe.format(argv=argv),
                            path=os.devnull)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT, timeout=120, check=False)
        assert (int(done.stderr.rpartition("@@")[2]) > 0) is frozen, done.stderr
