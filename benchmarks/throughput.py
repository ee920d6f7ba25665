"""Benchmark: throughput of the compiled engine ``fast``, with ``propagate`` as the baseline.

Usage (from the repository root)::

    python benchmarks/throughput.py [--runs 5] [--baseline 100] [--single 2000] [--no-startup]

Prints, per 9x9 dataset, puzzles/s (median of ``--runs`` runs, one thread) of ``fast`` through
the batch API (limit 1, by wall and by CPU time, then limit 2 for uniqueness and the cost
ratio; these use the specialised 9x9 engine), of the generic kernels on the same batch (limit 1,
by CPU time: the speed-up of the 9x9 engine), through the one-puzzle API
(``sudokit.solve`` per puzzle, on the first ``--single``), and of ``propagate`` (on the first
``--baseline`` puzzles: the full sets would take minutes) with the ratio batch / propagate.
Then the solve time of every ``large/`` puzzle and of an empty 64x64 grid, the batch rate on two
threads, and the cold (empty kernel cache) and warm start-up of ``sudokit solve`` on one puzzle.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from common import DATA, ROOT, load, median_seconds, print_header

from sudokit import Geometry, Puzzle, count_solutions, solve
from sudokit.fast import solve_batch
from sudokit.model.result import Status

SETS = [
    ("norvig/sudoku-top95.txt", None),
    ("tdoku/puzzles2_17_clue", None),
    ("tdoku/puzzles5_forum_hardest_1905_11+_first20000", 5000),
    ("tdoku/puzzles6_forum_hardest_1106", None),
    ("csv/kaggle_first5000.csv", None),
]
LARGE = sorted(p.name for p in (DATA / "large").glob("*.txt") if not p.name.endswith("s.txt"))


def batch_rate(givens: np.ndarray, limit: int, runs: int, generic: bool = False
               ) -> tuple[float, float]:
    """Median puzzles/s of the batch API, by wall time and by this process's CPU time (the
    machine is shared: CPU time shows the speed of one uncontended core better)."""
    _, status, _ = solve_batch(givens, limit, generic=generic)
    assert (status == Status.SOLVED).all(), "a benchmark puzzle was not solved"
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        solve_batch(givens, limit, generic=generic)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return len(givens) / statistics.median(wall), len(givens) / statistics.median(cpu)


def nine_by_nine(args: argparse.Namespace) -> None:
    print_header(f"9x9 puzzles/s (median of {args.runs} runs, one thread; propagate on the first "
                 f"{args.baseline}, one-puzzle API on the first {args.single})",
                 ["dataset".ljust(62), "puzzles", "batch", "(CPU)", "limit=2", "cost x",
                  "generic (CPU)", "one-puzzle", "propagate", "batch/propagate"])
    for relative, limit in SETS:
        puzzles = load(relative, limit)
        givens = np.array([p.givens for p in puzzles], np.uint8)
        (one, one_cpu), (two, _) = (batch_rate(givens, limit, args.runs) for limit in (1, 2))
        _, generic = batch_rate(givens, 1, args.runs, generic=True)
        few = puzzles[:args.single]
        single = len(few) / median_seconds(lambda: [solve(p, "fast") for p in few], args.runs)
        base = puzzles[:args.baseline]
        slow = len(base) / median_seconds(lambda: [solve(p, "propagate") for p in base],
                                          args.runs)
        name = relative + (f" (first {limit})" if limit else "")
        print(f"{name:<62} {len(puzzles):>7} {one:>9,.0f} {one_cpu:>9,.0f} {two:>9,.0f} "
              f"{one / two:>6.2f} {generic:>13,.0f} "
              f"{single:>10,.0f} {slow:>10,.1f} {one / slow:>10,.0f}x")


def large(args: argparse.Namespace) -> None:
    print_header(f"Large grids: seconds per solve (median of {args.runs} runs; unique = count "
                 "up to 2)")
    cases = [(name, load(f"large/{name}")[0]) for name in LARGE]
    cases.append(("empty 64x64", Puzzle(Geometry.of(8, 8), (0,) * 4096)))
    for name, puzzle in cases:
        result = count_solutions(puzzle, "fast", limit=2)
        seconds = median_seconds(lambda: solve(puzzle, "fast"), args.runs)
        unique = median_seconds(lambda: count_solutions(puzzle, "fast", limit=2), args.runs)
        print(f"{name:<28} {puzzle.geometry.shape_name:<22} {result.label:<9} solve "
              f"{seconds:8.4f} s   count to 2 {unique:8.4f} s")


def threads(args: argparse.Namespace) -> None:
    print_header("Batch API on threads (kernels release the GIL): 17-clue, puzzles/s")
    givens = np.array([p.givens for p in load("tdoku/puzzles2_17_clue")], np.uint8)
    for jobs in (1, 2):
        parts = np.array_split(givens, jobs * 8)
        with ThreadPoolExecutor(jobs) as pool:
            seconds = median_seconds(lambda: list(pool.map(solve_batch, parts)), args.runs)
        print(f"{jobs} thread(s): {len(givens) / seconds:12,.0f} puzzles/s")


def startup(args: argparse.Namespace) -> None:
    print_header("Start-up of `sudokit solve` on one puzzle (seconds, whole process)")
    puzzle = (DATA / "norvig/sudoku-top95.txt").read_text().split()[0]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        command = [sys.executable, "-m", "sudokit", "solve", puzzle]

        def once() -> float:
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True, cwd=ROOT)
            return time.perf_counter() - start

        cold = once()
        warm = statistics.median(once() for _ in range(args.runs))
    print(f"cold (empty kernel cache, compiles): {cold:6.2f} s")
    print(f"warm (cached kernels, median of {args.runs}): {warm:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per measurement (median)")
    parser.add_argument("--baseline", type=int, default=100, help="puzzles for propagate")
    parser.add_argument("--single", type=int, default=2000, help="puzzles for the one-puzzle API")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up timing")
    args = parser.parse_args()
    solve_batch(np.zeros((1, 81), np.uint8))  # load (or compile) the kernels before timing
    nine_by_nine(args)
    large(args)
    threads(args)
    if not args.no_startup:
        startup(args)


if __name__ == "__main__":
    main()
