"""Benchmark: rating CPU of this tree against an earlier commit's, same puzzles, in one run.

Usage (from the repository root)::

    python benchmarks/logic_vs.py --base e3dcfbe^ [--sample 60] [--rounds 8]

``benchmarks/logic.py`` measures one tree; this one holds two worker processes, this tree
(``src/``) and the tree of ``--base`` (extracted as :func:`hard9.base_tree` does, its kernels
compiled there once, in the foreground: ``SUDOKIT_BACKGROUND_COMPILE=0``), each rating the same
``--sample`` puzzles of logic.py's set (``sudokit.rate``, every step verified) twice before
timing. They take turns, this tree first in even rounds and the base first in odd ones; each
round prints the CPU seconds of both over the whole sample and their ratio.

The summary gives the median ratio over the rounds, then the puzzles the two trees rate
differently (a new technique or order changes what a puzzle costs) with their SE rating and
their share of each tree's time, and the median ratio over the puzzles rated alike: the cost of
the same work, apart from the cost of rating differently.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hard9 import Engine, base_tree

HERE = Path(__file__).resolve()


def worker(src: str, grids_file: str) -> None:
    """Serve requests on stdin with the sources under ``src``: ``ratings`` answers the
    ratings of the puzzles of ``grids_file`` (a JSON list of 81-digit strings); ``rate`` rates
    them all again and answers each one's CPU seconds."""
    sys.path.insert(0, src)
    from sudokit import rate

    grids = json.loads(Path(grids_file).read_text())
    ratings = [rate(g).rating for g in grids]
    for g in grids:  # a second pass: every kernel compiled, memos as in later passes
        rate(g)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if line.strip() == "ratings":
            print(json.dumps({"ratings": ratings}), flush=True)
            continue
        seconds = []
        for g in grids:
            start = time.process_time()
            rate(g)
            seconds.append(time.process_time() - start)
        print(json.dumps({"cpu": seconds}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", help="commit to compare with (required)")
    parser.add_argument("--sample", type=int, default=60, help="puzzles of logic.py's set")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    if not args.base:
        parser.error("--base COMMIT is required")
    from logic import RATED, load_rated  # imports this tree's sudokit: never in a worker

    triples = load_rated(args.sample)
    os.environ["SUDOKIT_BACKGROUND_COMPILE"] = "0"
    with tempfile.TemporaryDirectory() as tmp:
        grids_file = Path(tmp) / "grids.json"
        grids_file.write_text(json.dumps([g for g, _se, _i in triples]))
        new = Engine(HERE.parents[1] / "src", [str(grids_file)], HERE)
        old = Engine(base_tree(args.base), [str(grids_file)], HERE)
    ratings = (new.run("ratings")["ratings"], old.run("ratings")["ratings"])
    print(f"{len(triples)} puzzles of {RATED}; CPU seconds of one pass over them")
    print(f"{'round':>5} {'this tree':>10} {'base':>10} {'ratio':>7}")
    rounds: list[tuple[list[float], list[float]]] = []
    for r in range(args.rounds):
        pair = (new, old) if r % 2 == 0 else (old, new)
        first, second = (engine.run("rate")["cpu"] for engine in pair)
        a, b = (first, second) if r % 2 == 0 else (second, first)
        rounds.append((a, b))
        print(f"{r + 1:>5} {sum(a):>10.3f} {sum(b):>10.3f} {sum(a) / sum(b):>6.2f}x", flush=True)
    new.close()
    old.close()
    summary(triples, ratings, rounds, args.base)


def summary(triples: list[tuple[str, float, int]], ratings: tuple[list[float], list[float]],
            rounds: list[tuple[list[float], list[float]]], base: str) -> None:
    """Print the median ratio, the puzzles rated differently and the ratio on the others."""
    def ratio(keep: list[int]) -> float:
        return statistics.median(sum(a[k] for k in keep) / sum(b[k] for k in keep)
                                 for a, b in rounds)

    alike = [k for k, (x, y) in enumerate(zip(*ratings)) if x == y]
    apart = [k for k in range(len(triples)) if k not in alike]
    print(f"\nbase {base}; median over {len(rounds)} rounds: CPU ratio {ratio(alike + apart):.2f}x")
    for k in apart:
        share = [statistics.median(t[k] / sum(t) for t in side) for side in zip(*rounds)]
        print(f"  rated apart: line {triples[k][2]} SE {triples[k][1]}: this tree "
              f"{ratings[0][k]}, base {ratings[1][k]}; {share[0]:.0%} / {share[1]:.0%} of "
              "each tree's time")
    if alike:
        print(f"the {len(alike)} puzzles rated alike: CPU ratio {ratio(alike):.2f}x")


if __name__ == "__main__":
    main()
