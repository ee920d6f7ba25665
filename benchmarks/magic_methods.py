"""Benchmark: time to the first magic square by each method (n = 3..6), and counting order 4.

Usage (from the repository root)::

    python benchmarks/magic_methods.py [--orders 3,4,5,6] [--runs 3] [--time-limit 60]
        [--methods backtracking,forward-checking,mac,sat,lines] [--count-runs 3]

Part 1 runs every method on the empty square of each order with a time limit, ``--runs`` times,
and prints per method and order: the status (``unknown``: the limit was hit), nodes and
backtracks (deterministic except for ``sat``, from the first run), the median time to the first
square and its ratio against ``forward-checking`` (the baseline, measured in the same run; above
1 is slower). Every run starts from cold caches (the line sets of ``lines`` and the CSP tables
of ``mac`` are rebuilt). A run that hits the limit is not repeated, and that method is not run on
larger orders.

Part 2 counts every square of order 4 (7,040) with the line-based enumeration (``lines``) and the
880 canonical ones (symmetry breaking) with ``lines`` and with ``forward-checking``, the baseline
for the ratio; squares/s is the number found over the median time.
"""

from __future__ import annotations

import argparse
import statistics

from common import print_header

from sudokit.magic import MagicProblem
from sudokit.magic.count import forget_line_sets
from sudokit.magic.mac import magic_csp
from sudokit.model.result import Status
from sudokit.run.magic import METHODS, count_magic, solve_magic

BASELINE = "forward-checking"


def _count(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def _ratio(value: float) -> str:
    return f"{value:10.3g}" if value < 1000 else f"{value:10,.0f}"


def _cold_solve(n: int, name: str, limit: float):
    """Solve the empty square of order n from cold caches (line sets and CSP tables rebuilt)."""
    forget_line_sets()
    magic_csp.cache_clear()
    return solve_magic(MagicProblem(n), name, time_limit=limit)


def first_square(names: list[str], orders: list[int], runs: int, limit: float) -> None:
    """Part 1: time to the first square by each method and order."""
    print_header(f"time to the first magic square (limit {limit:g} s, median of {runs} runs)")
    print(f"{'n':>2}  {'method':<18}{'status':>9}{'nodes':>14}{'backtracks':>12}"
          f"{'median s':>11}{'ratio':>11}")
    gave_up: set[str] = set()
    for n in orders:
        base = None
        for name in names:
            if name in gave_up:
                print(f"{n:>2}  {name:<18}{'skipped (limit hit on a smaller order)':>55}")
                continue
            results = [_cold_solve(n, name, limit)]
            if results[0].status is Status.UNKNOWN:
                gave_up.add(name)  # a timeout is not repeated: the median would be the limit
            else:
                results += [_cold_solve(n, name, limit) for _ in range(runs - 1)]
            seconds = statistics.median(r.seconds for r in results)
            first = results[0]
            base = base or (seconds if name == BASELINE else None)
            ratio = f"{_ratio(seconds / base)}x" if base and name != BASELINE else "       base"
            print(f"{n:>2}  {name:<18}{first.status.name.lower():>9}{_count(first.stats.nodes):>14}"
                  f"{_count(first.stats.backtracks):>12}{seconds:>11.4f}{ratio}")


def counting(runs: int, limit: float) -> None:
    """Part 2: counting the squares of order 4."""
    print_header(f"counting the squares of order 4 (median of {runs} runs, limit {limit:g} s)")
    cases = [(BASELINE, True), ("lines", True), ("lines", False)]
    base = None
    for name, symmetry in cases:
        results = [count_magic(4, symmetry=symmetry, method=name, time_limit=limit)
                   for _ in range(runs)]
        seconds = statistics.median(r.seconds for r in results)
        first = results[0]
        base = base or seconds
        label = f"{name} ({'canonical' if symmetry else 'all'})"
        print(f"{label:<28}{first.status.name.lower():>9}{first.count:>7} squares{seconds:>9.3f} s"
              f"{first.count / seconds:>12,.0f} squares/s{_count(first.stats.nodes):>11} nodes"
              f"  speed-up {base / seconds:6.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", default="3,4,5,6")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--runs", type=int, default=3, help="timed runs per case (median)")
    parser.add_argument("--count-runs", type=int, default=3, help="timed counting runs")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    args = parser.parse_args()
    names = [m for m in args.methods.split(",") if m and METHODS[m].available]
    names = [BASELINE] + [m for m in names if m != BASELINE]
    first_square(names, [int(n) for n in args.orders.split(",")], args.runs, args.time_limit)
    if args.count_runs:
        counting(args.count_runs, args.time_limit * 2)


if __name__ == "__main__":
    main()
