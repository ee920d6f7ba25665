"""Benchmark: the 9x9 engine on hard sets against the engine of an earlier commit (issue 29).

Usage (from the repository root)::

    python benchmarks/hard9.py [--base d4a26fd] [--rounds 5] [--hardest 20000] [--clue17 50000]

Two worker processes hold the puzzles and a warm engine each: this tree (``src/``) and the tree
of ``--base`` (extracted with ``git archive`` into ``~/.cache/sudokit/bench/<commit>``, its
kernels compiled there once). They take turns, A then B then B then A..., on the same arrays
(17-clue, forum-hardest 11+, top1465 from ``../shared/data/tdoku``), one thread each, through
``solve_array`` (every solution verified), first solution (``count_limit=1``) and count to 2.
A set that takes less than ``MIN_CPU`` (0.25 s) is solved again within one timing. Each round
prints puzzles/s of both and their ratio; the summary gives the median ratio and the search
nodes per puzzle of each engine (deterministic; from :func:`sudokit.fast.solve_batch`).

External anchor (issue 29; tdoku, T. Dillon's SIMD C++ solver, ``-O3 -march=native``, on this
machine, one thread, same files; tdoku counts one guess per binary decision, both branches):

========================  ===========  =======================================
set                       tdoku        search per puzzle
========================  ===========  =======================================
17-clue, first solution   282,000/s
forum-hardest 11+, first  33,300/s     37 guesses
top1465, first solution   155,000/s
forum-hardest, count to 2              67 guesses
========================  ===========  =======================================

tdoku's published figures (364,000/s 17-clue, 24,000/s forum-hardest) are count-to-2 runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SETS = {"17-clue": "tdoku/puzzles2_17_clue",
        "forum-hardest": "tdoku/puzzles5_forum_hardest_1905_11+_first20000",
        "top1465": "tdoku/puzzles3_magictour_top1465"}
TDOKU = {("17-clue", 1): 282_000, ("forum-hardest", 1): 33_300, ("top1465", 1): 155_000}
MIN_CPU = 0.25
"""Seconds of CPU a timing should last at least: a set solved faster (top1465 takes about
11 ms) is solved again within the timing, the same number of times in every round, so that one
disturbance of the machine does not decide a round."""


def base_tree(rev: str) -> Path:
    """Extract ``src/`` of commit ``rev`` once into the user cache; return its ``src``."""
    commit = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    target = home / "sudokit" / "bench" / commit[:12]
    if not (target / "src").is_dir():
        archive = subprocess.run(["git", "archive", commit, "src"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
    return target / "src"


def load_sets(data: Path, sizes: dict[str, int]) -> dict[str, Any]:
    """The first ``sizes[name]`` puzzles of each of :data:`SETS` under ``data``, as uint8[M, 81]
    givens (in a worker: the ``sudokit`` of its own tree, already on ``sys.path``)."""
    import numpy as np

    from sudokit.formats.text import read_puzzles

    arrays = {}
    for name, relative in SETS.items():
        records = read_puzzles(data / relative)
        rows = [r.puzzle.givens for r, _ in zip(records, range(sizes[name])) if r.puzzle]
        arrays[name] = np.array(rows, np.uint8)
    return arrays


def repetitions(call: Callable[[], object]) -> int:
    """How many calls of ``call`` (warm) last about :data:`MIN_CPU` of CPU, from one timed call."""
    start = time.process_time()
    call()
    return max(1, round(MIN_CPU / max(time.process_time() - start, 1e-6)))


def arguments(base: str, hardest: int, clue17: int) -> tuple[argparse.Namespace, dict[str, int]]:
    """The command line of this script and ``nine_node.py`` (defaults given), with the number of
    puzzles of each set."""
    parser = argparse.ArgumentParser(description=sys.modules["__main__"].__doc__.split("\n")[0])
    parser.add_argument("--base", default=base, help="commit of the engine to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hardest", type=int, default=hardest, help="forum-hardest puzzles")
    parser.add_argument("--clue17", type=int, default=clue17,
                        help="17-clue puzzles (all 49,158 at 50,000)")
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    return args, {"17-clue": args.clue17, "forum-hardest": args.hardest, "top1465": 1465}


def worker(src: str, data: Path, sizes: dict[str, int]) -> None:
    """Serve requests ``name limit`` on stdin with the sources under ``src``: run solve_array,
    answer a JSON line."""
    sys.path.insert(0, src)
    from sudokit import solve_array
    from sudokit.fast import Stat, solve_batch

    arrays = load_sets(data, sizes)
    nodes = {}
    reps = {}
    for name, givens in arrays.items():
        for limit in (1, 2):
            nodes[name, limit] = float(solve_batch(givens, limit)[2][:, Stat.NODES].mean())
            solve_array(givens[:100], count_limit=limit)  # warm up
            reps[name, limit] = repetitions(lambda: solve_array(givens, count_limit=limit))
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        name, limit = line.split()
        givens, repeat = arrays[name], reps[name, int(limit)]
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(repeat):
            out = solve_array(givens, count_limit=int(limit))
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        assert (out.found >= 1).all(), f"{name}: a puzzle was not solved"
        solved = repeat * len(givens)
        print(json.dumps({"rate": solved / wall, "cpu": solved / cpu,
                          "nodes": nodes[name, int(limit)]}), flush=True)


class Engine:
    """One worker process running the sources under ``src``: ``script --worker SRC ARGV``,
    answering one JSON line for each line of words it is sent (also used by rule_free.py)."""

    def __init__(self, src: Path, argv: list[str], script: Path = Path(__file__)) -> None:
        env = dict(os.environ, NUMBA_NUM_THREADS="1")
        self.proc = subprocess.Popen([sys.executable, str(script), "--worker", str(src), *argv],
                                     env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert json.loads(self.proc.stdout.readline())["ready"]

    def run(self, *words: object) -> dict[str, float]:
        self.proc.stdin.write(" ".join(map(str, words)) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def interleave(new: Engine, old: Engine, n_rounds: int,
               rounds: dict[tuple[str, int], list[tuple[dict, dict]]]):
    """Run every set at limits 1 and 2 on both engines in turn, ``n_rounds`` times (this tree
    first in even rounds, the base first in odd ones); record each (this tree, base) pair of
    answers in ``rounds`` and yield ``(round, set, limit, this tree's, base's)``."""
    for r in range(n_rounds):
        for name in SETS:
            for limit in (1, 2):
                pair = (new, old) if r % 2 == 0 else (old, new)
                first, second = (engine.run(name, limit) for engine in pair)
                a, b = (first, second) if r % 2 == 0 else (second, first)
                rounds.setdefault((name, limit), []).append((a, b))
                yield r, name, limit, a, b


def main() -> None:
    args, sizes = arguments("d4a26fd", 20000, 50000)
    if args.worker:
        worker(args.worker, args.data, sizes)
        return
    from common import DATA  # imports this tree's sudokit: never in a worker

    argv = ["--hardest", str(args.hardest), "--clue17", str(args.clue17), "--data", str(DATA)]
    new, old = Engine(ROOT / "src", argv), Engine(base_tree(args.base), argv)
    rounds: dict[tuple[str, int], list[tuple[dict, dict]]] = {}
    print(f"{'round':>5} {'set':<14} {'limit':>5} {'this tree/s':>12} {'base/s':>12} "
          f"{'ratio':>7} {'CPU ratio':>9}")
    for r, name, limit, a, b in interleave(new, old, args.rounds, rounds):
        print(f"{r + 1:>5} {name:<14} {limit:>5} {a['rate']:>12,.0f} {b['rate']:>12,.0f} "
              f"{a['rate'] / b['rate']:>6.2f}x {a['cpu'] / b['cpu']:>8.2f}x", flush=True)
    print(f"\nbase {args.base}; median over {args.rounds} rounds; nodes per puzzle "
          "(search nodes: digits tried at choice points)")
    print("(CPU: puzzles per second of the worker's CPU time, steadier on a shared machine)")
    print(f"{'set':<14} {'limit':>5} {'this tree/s':>12} {'ratio':>7} {'CPU/s':>10} "
          f"{'CPU ratio':>9} {'nodes':>8} {'base nodes':>10} {'tdoku/s':>9} {'CPU/tdoku':>9}")
    for (name, limit), pairs in rounds.items():
        rate, cpu = (statistics.median(a[key] for a, _ in pairs) for key in ("rate", "cpu"))
        ratio, cpu_ratio = (statistics.median(a[key] / b[key] for a, b in pairs)
                            for key in ("rate", "cpu"))
        anchor = TDOKU.get((name, limit))
        versus = f"{cpu / anchor:.2f}x" if anchor else ""
        print(f"{name:<14} {limit:>5} {rate:>12,.0f} {ratio:>6.2f}x {cpu:>10,.0f} "
              f"{cpu_ratio:>8.2f}x {pairs[0][0]['nodes']:>8.1f} {pairs[0][1]['nodes']:>10.1f} "
              f"{anchor or '':>9} {versus:>9}")
    new.close()
    old.close()


if __name__ == "__main__":
    main()
