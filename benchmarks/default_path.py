"""Whole-command time of the default path: ``sudokit solve P.json --unique`` (no method named)
for every published rule puzzle of ``tests/data/rules`` (issue 39), warm and on an empty kernel
cache.

    PYTHONPATH=src python benchmarks/default_path.py [--cold N] [--limit T] [--only WORD]
        [--method M] [--out FILE]

Each puzzle is written as f-puzzles JSON to a temporary file and solved by a new process (the
whole command: interpreter start, imports, kernel loading or compiling, solving, exit), warm
(the usual kernel cache) and, with ``--cold N``, for the first N puzzles again with an empty
cache each (``NUMBA_CACHE_DIR`` a new temporary directory). Python's bytecode cache is on for
the commands, as in an install (with ``PYTHONDONTWRITEBYTECODE`` set, a tree never given its
``.pyc`` files recompiles about 90 modules a run). A run counts as good when it exits
0 (solved and proved unique) and its grid is the published solution. Prints one line per run,
then the median and maximum seconds and the count of good runs per cache state. The machine
may be shared: compare two commits in the same session, not with figures of another day.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

RULES = Path(__file__).parents[1] / "tests/data/rules"


def puzzles() -> Iterator[tuple[str, str, str]]:
    """(name, f-puzzles JSON text, published solution as digits) of every rule puzzle."""
    from sudokit.formats.fpuzzles import decode_fpuzzles

    for path in sorted(RULES.glob("sigh_*.json")):
        text = path.read_text()
        yield path.stem, text, "".join(map(str, json.loads(text)["solution"]))
    lists = [RULES / "variant_solver_js_ci.json", *sorted(RULES.glob("heldout_*.json")),
             RULES / "iss_collections.json"]
    for path in lists:
        for item in json.loads(path.read_text()):
            if "refused" not in item:
                yield (f"{path.stem}:{item['title']}", decode_fpuzzles(item["puzzle"])[0],
                       str(item["solution"]))


def run(text: str, solution: str, env: dict[str, str], limit: float, method: str | None
        ) -> tuple[float, float, bool, int]:
    """Wall seconds of one whole command, its CPU seconds (user + system, children included:
    on a shared machine the steadier figure), whether it solved the puzzle uniquely as
    published, and its exit code (-9: killed at ``limit + 30`` seconds)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(text)
    command = [sys.executable, "-m", "sudokit", "solve", file.name, "--unique", "-q",
               "--time-limit", str(limit)] + (["-m", method] if method else [])
    start, cpu = time.perf_counter(), _children_cpu()
    try:
        done = subprocess.run(command, env=env, capture_output=True, timeout=limit + 30)
        code, out = done.returncode, done.stdout.decode()
    except subprocess.TimeoutExpired:
        code, out = -9, ""
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    os.unlink(file.name)
    return seconds, cpu, code == 0 and _grid(out) == solution, code


def _children_cpu() -> float:
    """CPU seconds (user + system) of every waited-for child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _grid(out: str) -> str:
    """The digits of the f-puzzles grid a line-form record holds ("" if none)."""
    try:
        rows = json.loads(out.splitlines()[0])["grid"]
        return "".join(str(cell.get("value", 0)) for row in rows for cell in row)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return ""


def _wait_for_compiles(cache: str, seconds: float = 300.0) -> None:
    """Wait until no background compile child writes to ``cache`` (a detached child outlives
    the command; it must not run beside the next measurement)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        busy = False
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:
                continue
            busy = busy or f"NUMBA_CACHE_DIR={cache}".encode() in environ.split(b"\0")
        if not busy:
            return
        time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=int, default=0, help="puzzles also run on empty caches")
    parser.add_argument("--limit", type=float, default=60.0, help="--time-limit of each run")
    parser.add_argument("--only", default="", help="puzzles whose name holds this word")
    parser.add_argument("--method", default=None, help="a method to name (default: none)")
    args = parser.parse_args()
    items = [p for p in puzzles() if args.only in p[0]]
    env = dict(os.environ, SUDOKIT_BACKGROUND_COMPILE="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an install has its bytecode cached: 0.15-0.2 s
    states: list[tuple[str, list[tuple[str, str, str]], str | None]] = [("warm", items, None)]
    if args.cold:
        states.append(("cold", items[:args.cold], "cold"))
    for state, chosen, cold in states:
        times, cpus, good = [], [], 0
        for name, text, solution in chosen:
            with tempfile.TemporaryDirectory() as cache:
                here = dict(env, NUMBA_CACHE_DIR=cache) if cold else env
                seconds, cpu, ok, code = run(text, solution, here, args.limit, args.method)
                if cold:
                    _wait_for_compiles(cache)
            times.append(seconds)
            cpus.append(cpu)
            good += ok
            print(f"{state} {seconds:7.2f} s  cpu {cpu:6.2f} s  exit {code:3d}  {'ok ' if ok else 'BAD'} {name}",
                  flush=True)
        if times:
            print(f"{state}: {good}/{len(times)} solved and proved unique; median "
                  f"{statistics.median(times):.2f} s, max {max(times):.2f} s; CPU median "
                  f"{statistics.median(cpus):.2f} s, max {max(cpus):.2f} s", flush=True)


if __name__ == "__main__":
    main()
