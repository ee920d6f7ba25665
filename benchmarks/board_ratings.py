"""The board's ``rate`` and ``explain`` of every published rule puzzle of ``tests/data/rules``
(issue 39's target: each within 3 s, warm), through the functions the server's endpoints run.

    PYTHONPATH=src python benchmarks/board_ratings.py [--only WORD] [--limit 15]

Each puzzle's f-puzzles JSON is sent as the board sends it (``{"puzzle": TEXT}``) to the
``rate`` and ``explain`` endpoints' functions of :mod:`sudokit.serve.api`, in this process
after a warm-up (the server answers from a warm worker: ``sudokit serve`` warms up at start),
with the board's time limit. Prints one line per puzzle (wall and CPU seconds of each, and a
digest of the answer without its times, or the error), then the medians, maxima and the count
answered within 3 s (wall, and CPU: a call stopped by the limit counts in neither). Wall time
on a shared machine includes other processes' load: the CPU seconds are the steadier figure.
Two trees give the same ratings and steps when their digests agree (run each from its own
``git archive`` copy, with its own ``NUMBA_CACHE_DIR``, and compare the lines).

    PYTHONPATH=src python benchmarks/board_ratings.py --endpoint rate --only Orbit --limit 300
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from default_path import puzzles  # noqa: E402

TARGET = 3.0
"""Seconds the issue allows each ``rate`` / ``explain`` on the board."""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(endpoint: str, text: str, limit: float) -> tuple[float, float, str, str]:
    """Wall and CPU seconds of one endpoint call, "" or its error, and the answer's digest."""
    from sudokit.serve.api import ENDPOINTS

    start, cpu = time.perf_counter(), _cpu()
    digest = ""
    try:
        answer = ENDPOINTS[endpoint]({"puzzle": text}, limit)
        error = ""
        digest = hashlib.md5(json.dumps(_timeless(answer), sort_keys=True, default=str)
                             .encode()).hexdigest()[:10]
    except Exception as exc:  # noqa: BLE001 - reported, the run goes on
        error = f"{type(exc).__name__}: {exc}"[:80]
    return time.perf_counter() - start, _cpu() - cpu, error, digest


def _timeless(answer: object) -> object:
    """The answer without its times (keys naming seconds, time or elapsed)."""
    if isinstance(answer, dict):
        return {k: _timeless(v) for k, v in answer.items()
                if "second" not in k and "time" not in k and k != "elapsed"}
    if isinstance(answer, list):
        return [_timeless(v) for v in answer]
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="puzzles whose name holds this word")
    parser.add_argument("--limit", type=float, default=15.0, help="the board's time limit")
    parser.add_argument("--endpoint", choices=("rate", "explain"), action="append",
                        help="only this endpoint (repeatable; default both)")
    args = parser.parse_args()
    items = [p for p in puzzles() if args.only in p[0]]
    timed("rate", items[0][1], args.limit)  # warm-up, as the server's
    results: dict[str, list[tuple[float, float, str]]] = {
        e: [] for e in args.endpoint or ("rate", "explain")}
    for name, text, _solution in items:
        line = []
        for endpoint, runs in results.items():
            wall, cpu, error, digest = timed(endpoint, text, args.limit)
            runs.append((wall, cpu, error))
            line.append(f"{endpoint} {wall:6.2f} s cpu {cpu:6.2f} s {error or digest}")
        print(" | ".join(line), name, flush=True)
    for endpoint, runs in results.items():
        walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
        within = sum(w <= TARGET and not e for w, _, e in runs)
        print(f"{endpoint}: {within}/{len(runs)} within {TARGET:.0f} s wall "
              f"({sum(c <= TARGET and not e for _, c, e in runs)} in CPU); "
              f"median {statistics.median(walls):.2f} s, "
              f"max {max(walls):.2f} s; CPU median {statistics.median(cpus):.2f} s, "
              f"max {max(cpus):.2f} s; errors {sum(bool(r[2]) for r in runs)}", flush=True)


if __name__ == "__main__":
    main()
