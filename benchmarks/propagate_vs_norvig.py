"""Benchmark: ``propagate`` against Norvig's published pure-Python solver, in the same run.

Usage (from the repository root)::

    python benchmarks/propagate_vs_norvig.py [--runs 3] [--clue17 2000]

Prints puzzles/s (median of ``--runs`` runs) for each dataset and the ratio against Norvig's
solver (benchmarks/baselines/norvig_sudoku.py) measured alongside.
"""

from __future__ import annotations

import argparse

from baselines import norvig_sudoku
from common import load, median_seconds, print_header, rate_row

from sudokit import solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per measurement (median)")
    parser.add_argument("--clue17", type=int, default=2000, help="17-clue puzzles to use")
    args = parser.parse_args()
    sets = [
        ("norvig/sudoku-top95.txt", None),
        ("norvig/sudoku-hardest.txt", None),
        ("tdoku/puzzles2_17_clue", args.clue17),
        ("tdoku/puzzles1_unbiased_first1000", None),
    ]
    print_header(f"propagate vs Norvig 2006 (median of {args.runs} runs, one core)")
    for relative, limit in sets:
        puzzles = load(relative, limit)
        texts = ["".join(str(d) if d else "." for d in p.givens) for p in puzzles]
        base = median_seconds(lambda: [norvig_sudoku.solve(t) for t in texts], args.runs)
        ours = median_seconds(lambda: [solve(p, "propagate") for p in puzzles], args.runs)
        name = relative + (f" (first {limit})" if limit else "")
        print(rate_row(f"norvig  {name}", len(puzzles), base, None))
        print(rate_row(f"propagate {name}", len(puzzles), ours, len(puzzles) / base))


if __name__ == "__main__":
    main()
