"""Paths to the test data and small loaders every test package shares.

``DATA`` (``tests/data``) holds the small samples every test may use (see its SOURCES.md); the full
public sets in ``../shared/data`` (``SHARED``) are read only by tests marked ``shared_data``, which
the default run leaves out (``python -m pytest -m shared_data`` runs them; CI does).
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest

from sudokit.formats import read_puzzles
from sudokit.registry import methods

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data"
EXAMPLES = ROOT / "examples"


def method_names() -> list[str]:
    """Every registered method that can run here, with each of its backends."""
    names = []
    for info in methods():
        if not info.available:
            continue
        names.append(info.name)
        names += [f"{info.name}:{b}" for b in info.backends if b != info.cls.default_backend]
    return names


def load(relative: str, limit: int | None = None) -> list:
    """Puzzles of a sample file under ``tests/data`` (first ``limit``); it must exist."""
    return [r.puzzle for r in itertools.islice(read_puzzles(DATA / relative), limit)]


def sigh_rule_puzzle(name: str) -> tuple:
    """(puzzle, published solution) of ``tests/data/rules/sigh_NAME.json`` (f-puzzles data)."""
    from sudokit.formats.fpuzzles import fpuzzles_puzzle

    text = (DATA / "rules" / f"sigh_{name}.json").read_text()
    return fpuzzles_puzzle(text), tuple(json.loads(text)["solution"])


def ci_rule_puzzle(title: str) -> tuple:
    """(puzzle, published solution) of the entry ``title`` of SudokuVariantSolverJS's CI list
    (``tests/data/rules/variant_solver_js_ci.json``: compressed f-puzzles data)."""
    from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle

    item = next(i for i in json.loads((DATA / "rules" / "variant_solver_js_ci.json").read_text())
                if i["title"] == title)
    return fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0]), tuple(map(int, item["solution"]))


def shared(relative: str) -> Path:
    """Path of a full public set under ``../shared/data``, for ``shared_data`` tests only.

    Fails (never skips) when it is absent: these tests run only when asked for, and CI has the
    directory, so a missing file is a broken set-up, not a reason to pass quietly.
    """
    path = SHARED / relative
    if not path.exists():
        pytest.fail(f"{path} is missing: tests marked shared_data need ../shared/data beside "
                    "the repository (see tests/data/SOURCES.md)")
    return path


def load_shared(relative: str, limit: int | None = None) -> list:
    """Puzzles of a full public set under ``../shared/data`` (see :func:`shared`)."""
    return [r.puzzle for r in itertools.islice(read_puzzles(shared(relative)), limit)]


def proc_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (Linux), or None when the
    process is gone: ``[0]`` the state (``Z`` a zombie), ``[1]`` the parent's pid, ``[11]`` and
    ``[12]`` the user and system CPU time in clock ticks."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def proc_parents() -> dict[int, int]:
    """Every running process's pid -> its parent's pid (Linux ``/proc``)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := proc_fields(int(entry.name))) is not None:
            found[int(entry.name)] = int(fields[1])
    return found


def proc_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not reaped, does not)."""
    fields = proc_fields(pid)
    return fields is not None and fields[0] != "Z"


def proc_cpu_seconds(pid: int) -> float:
    """The user and system CPU seconds of ``pid`` so far (0 when it is gone)."""
    import os

    fields = proc_fields(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf(
        "SC_CLK_TCK")


def processes_with_cache(cache: Path) -> list[int]:
    """Processes (background compiles) whose NUMBA_CACHE_DIR is ``cache``."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"NUMBA_CACHE_DIR={cache}".encode() in environ:
            pids.append(int(pid))
    return pids
