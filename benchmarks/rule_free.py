"""Benchmark: puzzles without drawn rules on this tree's engine against an earlier commit's (the
no-regression target of issue 26: the drawn-rule propagators cost nothing on a puzzle that has
none).

Usage (from the repository root)::

    python benchmarks/rule_free.py [--base 577c936] [--rounds 5] [--sets 16x16 killer ...]

The default base, 577c936, is main just before the drawn rules were merged. Two worker
processes hold the puzzles and a warm engine each: this tree (``src/``) and the tree of
``--base`` (extracted once with ``git archive``, as ``benchmarks/hard9.py`` does). They take
turns, A then B then B then A..., on the same puzzles, one thread each. Sets (``../shared/data``
and ``tests/data``):

* ``9x9 array``: 17-clue, first 20,000, through ``solve_array`` (the 9x9 kernel, verification);
* ``9x9 generic``: top95, the generic kernels on classic 9x9 (``solve_batch(generic=True)``);
* ``16x16``, ``25x25``: the published large grids and Janko's 16x16 puzzles;
* ``jigsaw``, ``killer``, ``even-odd``, ``samurai``: Janko's puzzles (one geometry each);
* ``diagonal``: the X-Sudoku puzzles of ``tests/data/diagonal``.

Everything but the first runs through ``sudokit.fast.solve_batch`` (one call per geometry), each
set repeated to about 0.3 s. Each round prints puzzles/s of both and their ratio (CPU time of
the worker, steadier on a shared machine); the summary gives the median CPU ratio per set and
the search nodes per puzzle of both trees (deterministic: equal when the search is the same).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from hard9 import Engine, base_tree

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
JANKO = {"jigsaw": "JigsawSudoku", "killer": "KillerSudoku", "even-odd": "EvenOddSudoku",
         "samurai": "SamuraiSudoku"}
SETS = ["9x9 array", "9x9 generic", "16x16", "25x25", "jigsaw", "killer", "even-odd",
        "samurai", "diagonal"]


def _load(name: str) -> list:
    """The set's puzzles as ``(geometry, uint8[M, C] givens)`` groups (one per geometry)."""
    import numpy as np

    from sudokit.formats.janko import read_janko
    from sudokit.formats.text import read_puzzles
    from sudokit.model.geometry import Geometry

    if name in JANKO:
        paths = sorted((DATA / "janko" / JANKO[name] / "problems").glob("*.txt"))
        puzzles = [read_janko(p) for p in paths]
    elif name == "diagonal":
        geometry = Geometry.for_side(9, "diagonal")
        rows = [r.puzzle.givens for r in read_puzzles(ROOT / "tests/data/diagonal/x_sudoku.txt")]
        return [(geometry, np.array(rows, np.uint8))]
    else:
        files = {"9x9 array": ["tdoku/puzzles2_17_clue"], "9x9 generic": [ROOT / "examples/top95.txt"],
                 "25x25": sorted((DATA / "large").glob("*25x25*.txt")),
                 "16x16": sorted((DATA / "large").glob("*16x16*.txt"))
                 + sorted((DATA / "janko/16x16Sudoku/problems").glob("*.txt"))}[name]
        puzzles = [r.puzzle for f in files for r in read_puzzles(DATA / f) if r.puzzle]
        puzzles = puzzles[:20000]
    groups: dict = {}
    for p in puzzles:
        groups.setdefault(p.geometry, []).append(p.givens)
    return [(g, np.array(rows, np.uint8)) for g, rows in groups.items()]


def worker(src: str) -> None:
    """Serve requests (a set's name) on stdin with the sources under ``src``; answer JSON."""
    sys.path.insert(0, src)
    from sudokit import solve_array
    from sudokit.fast import Stat, solve_batch

    def run(name: str, groups: list) -> None:
        if name == "9x9 array":  # the 9x9 kernel, every grid verified
            assert solve_array(groups[0][1]).found.min() == 1
            return
        for geometry, givens in groups:
            solve_batch(givens, 1, geometry=geometry, generic=True)

    def nodes_of(name: str, groups: list) -> float:
        generic = name != "9x9 array"
        return sum(float(solve_batch(g, 1, geometry=geo, generic=generic)[2][:, Stat.NODES].sum())
                   for geo, g in groups) / sum(len(g) for _, g in groups)

    sets, nodes, reps = {}, {}, {}
    for name in SETS:
        sets[name] = _load(name)
        nodes[name] = nodes_of(name, sets[name])  # compiles or loads the kernels
        run(name, sets[name])
        start = time.process_time()
        run(name, sets[name])
        reps[name] = max(1, round(0.3 / max(time.process_time() - start, 1e-6)))
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        name = line.strip()
        count = reps[name] * sum(len(g) for _, g in sets[name])
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(reps[name]):
            run(name, sets[name])
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(json.dumps({"rate": count / wall, "cpu": count / cpu, "nodes": nodes[name]}),
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="577c936", help="commit of the engine to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sets", nargs="+", choices=SETS, default=SETS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    script = Path(__file__)
    new, old = Engine(ROOT / "src", [], script), Engine(base_tree(args.base), [], script)
    rounds: dict[str, list[tuple[dict, dict]]] = {}
    print(f"{'round':>5} {'set':<12} {'this tree/s':>12} {'base/s':>12} {'ratio':>7} "
          f"{'CPU ratio':>9}")
    for r in range(args.rounds):
        for name in args.sets:
            pair = (new, old) if r % 2 == 0 else (old, new)
            first, second = (engine.run(name) for engine in pair)
            a, b = (first, second) if r % 2 == 0 else (second, first)
            rounds.setdefault(name, []).append((a, b))
            print(f"{r + 1:>5} {name:<12} {a['rate']:>12,.0f} {b['rate']:>12,.0f} "
                  f"{a['rate'] / b['rate']:>6.2f}x {a['cpu'] / b['cpu']:>8.2f}x", flush=True)
    print(f"\nbase {args.base}; median over {args.rounds} rounds (CPU: puzzles per second of "
          "the worker's CPU time); nodes per puzzle of both trees")
    print(f"{'set':<12} {'CPU/s':>10} {'base CPU/s':>10} {'CPU ratio':>9} {'min':>6} {'max':>6} "
          f"{'nodes':>8} {'base nodes':>10}")
    for name, pairs in rounds.items():
        ratios = [a["cpu"] / b["cpu"] for a, b in pairs]
        print(f"{name:<12} {statistics.median(a['cpu'] for a, _ in pairs):>10,.0f} "
              f"{statistics.median(b['cpu'] for _, b in pairs):>10,.0f} "
              f"{statistics.median(ratios):>8.3f}x {min(ratios):>5.2f}x {max(ratios):>5.2f}x "
              f"{pairs[0][0]['nodes']:>8.1f} {pairs[0][1]['nodes']:>10.1f}")
    new.close()
    old.close()


if __name__ == "__main__":
    main()
