"""Benchmark: counting to 2 on the caged puzzles of ``tests/data/rules`` (the killer puzzles the
implied sums of :mod:`sudokit.model.implied` help), per method.

Usage (from the repository root)::

    python benchmarks/implied.py [--runs 3] [--methods fast cpsat] [--time-limit 60] [--skip SET]

Every caged puzzle of the ``sigh_*.json`` files, ``variant_solver_js_ci.json`` and the held-out
``heldout_*.json`` lists is counted to 2 (``count_solutions(puzzle, method, limit=2)``, after one
untimed warm-up call) ``--runs`` times; printed per puzzle and method: the best time in ms, the
count, nodes and conflicts, and the number of implied sums (``-`` on a tree without
``sudokit.model.implied``, so that the same script times the tree before the change). ``cpsat``
runs with one worker. Titles containing a ``--skip`` word are left out.
"""

from __future__ import annotations

import argparse
import json
import time

from common import ROOT

from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.model.puzzle import Puzzle
from sudokit.run.doors import count_solutions

RULES = ROOT / "tests" / "data" / "rules"


def caged() -> list[tuple[str, Puzzle]]:
    """(title, puzzle) of every puzzle with killer cages in ``tests/data/rules``."""
    found = [(p.stem, fpuzzles_puzzle(p.read_text())) for p in sorted(RULES.glob("sigh_*.json"))]
    for path in [RULES / "variant_solver_js_ci.json", *sorted(RULES.glob("heldout_*.json"))]:
        found += [(e["title"], fpuzzles_puzzle(decode_fpuzzles(e["puzzle"])[0]))
                  for e in json.loads(path.read_text()) if "refused" not in e]
    return [(title, puzzle) for title, puzzle in found if puzzle.geometry.cages]


def _implied(puzzle: Puzzle) -> str:
    try:
        from sudokit.model.implied import implied_sums
    except ImportError:
        return "-"
    return str(len(implied_sums(puzzle.geometry)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--methods", nargs="+", default=["fast", "cpsat"])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--skip", nargs="*", default=[])
    args = parser.parse_args()
    puzzles = [(t, p) for t, p in caged() if not any(s in t for s in args.skip)]
    for method in args.methods:
        count_solutions(puzzles[0][1], method, limit=2, time_limit=args.time_limit)
        for title, puzzle in puzzles:
            best, result = float("inf"), None
            for _ in range(args.runs):
                start = time.perf_counter()
                result = count_solutions(puzzle, method, limit=2, time_limit=args.time_limit)
                best = min(best, time.perf_counter() - start)
            stats = result.stats
            print(f"{method:6} {best * 1000:10.1f} ms  {result.status.name:8} count={result.count}"
                  f" nodes={stats.nodes} conflicts={stats.conflicts}"
                  f" implied={_implied(puzzle)}  {title}", flush=True)


if __name__ == "__main__":
    main()
