"""Benchmark: the classic CSP methods (nodes, time per puzzle), with ``propagate`` as baseline.

Usage (from the repository root)::

    python benchmarks/csp_methods.py [--dataset norvig/sudoku-top95.txt] [--runs 3]
        [--methods backtracking,forward-checking,mac] [--time-limit 15] [--limit K]

Runs every method (and the baseline ``propagate``, in the same run) on every puzzle of the
dataset with a per-puzzle time limit, ``--runs`` times. Prints per method: solved and unknown
(limit hit) counts, nodes, backtracks and checks (deterministic, from one run), puzzles/s over the
whole set (median of the runs; a timeout costs the full limit), the ratio against the baseline,
the median and the largest time of one puzzle. E.g. ``--dataset
tdoku/puzzles3_magictour_top1465 --methods mac --runs 1`` checks that ``mac`` solves every puzzle
within the limit.
"""

from __future__ import annotations

import argparse
import statistics

from common import load, print_header

from sudokit.run.compare import compare, sudoku_runners

BASELINE = "propagate"


def _count(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="norvig/sudoku-top95.txt",
                        help="puzzle file under ../shared/data")
    parser.add_argument("--methods", default="backtracking,forward-checking,mac")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (median)")
    parser.add_argument("--time-limit", type=float, default=15.0, help="seconds per puzzle")
    parser.add_argument("--limit", type=int, default=None, help="only the first K puzzles")
    args = parser.parse_args()
    puzzles = load(args.dataset, args.limit)
    names = [BASELINE] + [m for m in args.methods.split(",") if m and m != BASELINE]
    runners = sudoku_runners(names, time_limit=args.time_limit)
    runs = [compare(puzzles, runners, time_limit=args.time_limit) for _ in range(args.runs)]
    print_header(f"CSP methods on {args.dataset} ({len(puzzles)} puzzles, limit "
                 f"{args.time_limit:g} s, median of {args.runs} runs, one core)")
    print(f"{'method':<18}{'solved':>7}{'unknown':>8}{'nodes':>13}{'backtracks':>12}"
          f"{'checks':>15}{'puzzles/s':>11}{'ratio':>8}{'median s':>10}{'max s':>8}")
    base_rate = None
    for i, name in enumerate(names):
        rows = [run.rows[i] for run in runs]
        rate = len(puzzles) / statistics.median(r.total_seconds for r in rows)
        base_rate = base_rate or rate
        first = rows[0]
        print(f"{name:<18}{first.solved:>7}{first.unknown:>8}{_count(first.nodes):>13}"
              f"{_count(first.backtracks):>12}{_count(first.checks):>15}{rate:>11.2f}"
              f"{rate / base_rate:>7.3f}x"
              f"{statistics.median(r.median_seconds for r in rows):>10.4f}"
              f"{max(max(r.seconds) for r in rows):>8.2f}")


if __name__ == "__main__":
    main()
