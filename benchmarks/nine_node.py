"""Benchmark: the cost per search node of the 9x9 kernel, this tree against an earlier commit.

Usage (from the repository root)::

    python benchmarks/nine_node.py [--base HEAD~1] [--rounds 5] [--hardest 3000] [--clue17 15000]

Where ``benchmarks/hard9.py`` times ``solve_array`` (the kernel, then every grid verified in
Python), this script times the kernel alone (``sudokit.fast.solve_batch``: the 9x9 engine's
``run_batch``), so that a change of a few percent in the kernel's time per node shows. Two worker
processes hold the puzzles (forum-hardest 11+, top1465, 17-clue from ``../shared/data/tdoku``)
and a warm kernel each: this tree and the tree of ``--base`` (extracted once with ``git archive``,
as ``hard9.py`` does). They take turns, A then B then B then A..., one thread each, each set
repeated to about 0.25 s of CPU. Each round prints both CPU times and their ratio; the summary
gives the median ratio per set and limit, the nodes per puzzle of both, and whether both trees
return the same solutions and node counts (a change of the cost per node alone keeps them).
"""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

from hard9 import Engine, arguments, base_tree, interleave, load_sets, repetitions

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def worker(src: str, sizes: dict[str, int]) -> None:
    """Serve requests ``name limit`` on stdin with the sources under ``src``; answer JSON."""
    sys.path.insert(0, src)
    from sudokit.fast import Stat, solve_batch

    arrays, reps = load_sets(DATA, sizes), {}
    for name, givens in arrays.items():
        solve_batch(givens, 1)  # compiles or loads the kernel
        reps[name] = repetitions(lambda: solve_batch(givens, 1))
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        name, limit = line.split()
        start = time.process_time()
        for _ in range(reps[name]):
            solutions, _, stats = solve_batch(arrays[name], int(limit))
        cpu = (time.process_time() - start) / reps[name]
        digest = hashlib.sha256(solutions.tobytes() + stats[:, Stat.NODES].tobytes()).hexdigest()
        print(json.dumps({"cpu": cpu, "nodes": float(stats[:, Stat.NODES].mean()),
                          "digest": digest}), flush=True)


def main() -> None:
    args, sizes = arguments("HEAD~1", 3000, 15000)
    if args.worker:
        worker(args.worker, sizes)
        return
    argv = ["--hardest", str(args.hardest), "--clue17", str(args.clue17)]
    script = Path(__file__)
    new, old = Engine(ROOT / "src", argv, script), Engine(base_tree(args.base), argv, script)
    rounds: dict[tuple[str, int], list[tuple[dict, dict]]] = {}
    print(f"{'round':>5} {'set':<14} {'limit':>5} {'this tree s':>11} {'base s':>8} {'speed':>7}")
    for r, name, limit, a, b in interleave(new, old, args.rounds, rounds):
        print(f"{r + 1:>5} {name:<14} {limit:>5} {a['cpu']:>11.4f} {b['cpu']:>8.4f} "
              f"{b['cpu'] / a['cpu']:>6.3f}x", flush=True)
    print(f"\nbase {args.base}; speed = the base's CPU time over this tree's, median over "
          f"{args.rounds} rounds; nodes per puzzle of both trees")
    print(f"{'set':<14} {'limit':>5} {'speed':>7} {'min':>6} {'max':>6} {'nodes':>8} "
          f"{'base nodes':>10}  same solutions and nodes")
    for (name, limit), pairs in rounds.items():
        speeds = [b["cpu"] / a["cpu"] for a, b in pairs]
        a, b = pairs[0]
        print(f"{name:<14} {limit:>5} {statistics.median(speeds):>6.3f}x {min(speeds):>5.2f}x "
              f"{max(speeds):>5.2f}x {a['nodes']:>8.2f} {b['nodes']:>10.2f}  "
              f"{'yes' if a['digest'] == b['digest'] else 'NO'}")
    new.close()
    old.close()


if __name__ == "__main__":
    main()
