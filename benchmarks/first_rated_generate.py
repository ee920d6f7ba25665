"""First rated generation on an empty kernel cache (issue 39: ``generate --level hard`` within
10 s on a fresh install).

Each run gets its own empty cache (``NUMBA_CACHE_DIR`` a new temporary directory) and times
the whole command ``sudokit generate --level LEVEL --seed S -q`` (start-up, imports, the
interpreted generator and technique engine while the kernels compile in the background).
``--before PATH`` runs the same commands with ``PYTHONPATH=PATH`` (a ``src`` tree of an older
commit, e.g. ``git archive HEAD~1 src | tar -x -C /tmp/old``), interleaved with the current
tree, for a ratio measured in the same conditions. The background compiler each run starts is
ended (by its pid, found by its cache directory) when the command ends, so runs do not pile
up. Also ``--warm``: the same command on a warm cache (the default one), for the ratio
compiled / first use.

Run: ``python benchmarks/first_rated_generate.py [--runs 3] [--level hard]
[--before /tmp/old/src] [--warm]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children_of_cache(cache: str) -> list[int]:
    """Pids of processes whose environment names ``cache`` as NUMBA_CACHE_DIR (the background
    compilers a run started; each run has its own directory)."""
    found = []
    needle = f"NUMBA_CACHE_DIR={cache}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def one_run(level: str, seed: int, pythonpath: str | None, timeout: float,
            cold: bool = True) -> tuple[float, float]:
    """Wall seconds of one whole command (``timeout`` when it did not end in time) and its
    CPU seconds (user + system: what an idle machine's wall time comes close to)."""
    env = dict(os.environ)
    cache = tempfile.mkdtemp(prefix="sudokit-cold-") if cold else None
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    command = [sys.executable, "-m", "sudokit", "generate", "--level", level, "--seed",
               str(seed), "-q"]
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    try:
        done = subprocess.run(command, env=env, capture_output=True, timeout=timeout)
        seconds = time.perf_counter() - began
        if done.returncode != 0:
            print(f"  exit {done.returncode}: {done.stderr.decode()[-300:]}", file=sys.stderr)
    except subprocess.TimeoutExpired:
        seconds = timeout
    if cache:
        for pid in _children_of_cache(cache):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.2)
        shutil.rmtree(cache, ignore_errors=True)
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--before", default=None, help="PYTHONPATH of the older tree")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--warm", action="store_true", help="also time warm runs")
    args = parser.parse_args()
    after: list[tuple[float, float]] = []
    before: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    for run in range(args.runs):
        seed = 1000 + run
        for name, runs, path, cold in (("now", after, None, True),
                                       ("before", before, args.before, True),
                                       ("warm", warm, None, False)):
            if (name == "before" and not args.before) or (name == "warm" and not args.warm):
                continue
            runs.append(one_run(args.level, seed, path, args.timeout, cold))
            print(f"run {run} seed {seed}: {name} {runs[-1][0]:.1f} s wall, "
                  f"{runs[-1][1]:.1f} s CPU", flush=True)
    for name, runs in (("empty cache, now", after), ("empty cache, before", before),
                       ("warm cache, now", warm)):
        if runs:
            wall, cpu = [r[0] for r in runs], [r[1] for r in runs]
            print(f"generate --level {args.level}, {name}: wall median "
                  f"{statistics.median(wall):.1f} s, max {max(wall):.1f} s; CPU median "
                  f"{statistics.median(cpu):.1f} s, max {max(cpu):.1f} s ({len(runs)} runs)")
    if before:
        ratio = statistics.median(r[0] for r in before) / statistics.median(r[0] for r in after)
        print(f"ratio before/now (wall medians): {ratio:.1f}")


if __name__ == "__main__":
    main()
