"""The library's first calls in a real notebook on an empty kernel cache (issue 39): a Jupyter
kernel (ipykernel, driven by nbclient) runs ``sudokit.solve``, ``hint``, ``rate`` and
``generate(level="hard")`` in turn with ``NUMBA_CACHE_DIR`` a new empty directory. None may
compile in the foreground (the issue measured 25.6 s for ``solve``, 43.9 s for ``hint``,
75-155 s for rated generation): each returns within twice the issue's target (room for a
shared machine; the targets are 3 s, 5 s and 10 s), and the compile notice shows under a cell.

Opt-in marker ``jupyterlab`` (a kernel starts and compiles in the background: 20-40 s); CI runs
it with the JupyterLab test. Skips without nbclient or ipykernel."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.helpers import processes_with_cache

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")

pytestmark = [pytest.mark.jupyterlab,
              pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")]

TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
BOUNDS = {"solve": 2 * 3.0, "hint": 2 * 5.0, "rate": 2 * 5.0, "generate": 2 * 10.0}
"""Seconds each first call may take: twice the issue's targets (3 s solve, 5 s hint, 10 s
rated generation; rate as hint)."""

CALLS = {"solve": "sudokit.solve(TOP)", "hint": "sudokit.hint(TOP)", "rate": "sudokit.rate(TOP)",
         "generate": "list(sudokit.generate(level='hard', seed=1))"}


def _cell(name: str, call: str) -> str:
    return (f"start = time.perf_counter()\nvalue = {call}\n"
            f"print('TIMED', json.dumps([{name!r}, time.perf_counter() - start, "
            f"type(value).__name__]))")


def test_first_calls_in_a_notebook_do_not_compile_in_the_foreground(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))  # the kernel inherits the environment
    monkeypatch.setenv("SUDOKIT_BACKGROUND_COMPILE", "1")  # the library's default
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_code_cell(f"import json, time\nimport sudokit\nTOP = {TOP!r}")]
    book.cells += [nbformat.v4.new_code_cell(_cell(name, call)) for name, call in CALLS.items()]
    try:
        nbclient.NotebookClient(book, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        for pid in processes_with_cache(cache):  # the detached compiles the kernel started
            os.kill(pid, 9)
    outputs = [o for cell in book.cells for o in cell.get("outputs", [])]
    stdout = "".join(o.get("text", "") for o in outputs if o.get("name") == "stdout")
    stderr = "".join(o.get("text", "") for o in outputs if o.get("name") == "stderr")
    timed = {name: (seconds, kind) for name, seconds, kind in
             (json.loads(line[6:]) for line in stdout.splitlines() if line.startswith("TIMED "))}
    assert set(timed) == set(CALLS), stdout + stderr
    print("first calls, empty cache (s):", {k: round(v[0], 2) for k, v in timed.items()})
    assert timed["solve"][1] == "Result" and timed["hint"][1] == "Step"
    assert timed["rate"][1] == "Rating" and timed["generate"][1] == "list"
    for name, (seconds, _kind) in timed.items():
        assert seconds <= BOUNDS[name], (name, timed)
    assert "sudokit: compiling" in stderr and "in the background" in stderr, stderr
