"""Benchmark: our DPLL against real SAT solvers (PySAT backends, a solver binary) on Sudoku CNF.

Usage (from the repository root)::

    python benchmarks/sat_methods.py [--dataset norvig/sudoku-top95.txt] [--runs 3]
        [--time-limit 15] [--sizes 4,9,16,25,36,49,64] [--per-size 3] [--keep 0.7]
        [--skip-sizes]

Part 1 runs every method on every puzzle of the dataset, ``--runs`` times, and prints per method:
solved and unknown counts, decisions (one run), puzzles/s over the whole set (median of the runs;
a timeout costs the full limit), the ratio against the baseline ``sat:cadical195`` measured in the
same run, and the median and largest time of one puzzle (each puzzle's median over the runs).
Part 2 times each method on generated puzzles of every size (a random valid grid, relabelled and
shuffled, keeping a share ``--keep`` of its cells, default 0.7; the same puzzles for every
method): 4x4 to 36x36 through every method, 49x49 and 64x64 through PySAT only (reduced
encoding, the default). Near half the cells given these completion problems become hard for
every solver (the quasigroup-completion phase transition, Gomes and Selman 1997): try
``--keep 0.5``.
Times include encoding the CNF. Numbers are wall time on one core of a shared machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable
from typing import Any

from common import load, print_header

from sudokit import Geometry, Puzzle, Status, solve
from sudokit.model.geometry import box_shape_for_side
from sudokit.run.compare import compare
from sudokit.sat.external import default_command

BASELINE = "sat:cadical195"
METHODS = {  # label -> (method, options)
    "sat:cadical195": ("sat:cadical195", {}),
    "sat:cadical195 extended": ("sat:cadical195", {"encoding": "extended"}),
    "sat:glucose4": ("sat:glucose4", {}),
    "sat:minisat22": ("sat:minisat22", {}),
    "sat:exec": ("sat:exec", {}),
    "dpll extended": ("dpll", {"encoding": "extended"}),
    "dpll reduced": ("dpll", {"encoding": "reduced"}),
}
PYSAT_ONLY_FROM = 49


def runners(labels: list[str], time_limit: float) -> dict[str, Callable[[Puzzle], Any]]:
    def runner(method: str, options: dict[str, str]) -> Callable[[Puzzle], Any]:
        return lambda puzzle: solve(puzzle, method, time_limit=time_limit, **options)

    return {label: runner(*METHODS[label]) for label in labels}


def random_puzzle(side: int, rng: random.Random, keep: float) -> Puzzle:
    """A valid grid by the box pattern, relabelled and shuffled, with ``1 - keep`` cells removed."""
    rows_per_box, cols_per_box = box_shape_for_side(side)
    geometry = Geometry.of(rows_per_box, cols_per_box)
    pattern = [[(cols_per_box * (r % rows_per_box) + r // rows_per_box + c) % side
                for c in range(side)] for r in range(side)]
    bands = rng.sample(range(cols_per_box), cols_per_box)
    rows = [b * rows_per_box + r for b in bands for r in rng.sample(range(rows_per_box),
                                                                    rows_per_box)]
    stacks = rng.sample(range(rows_per_box), rows_per_box)
    cols = [s * cols_per_box + c for s in stacks for c in rng.sample(range(cols_per_box),
                                                                     cols_per_box)]
    labels = rng.sample(range(1, side + 1), side)
    grid = [labels[pattern[r][c]] for r in rows for c in cols]
    return Puzzle(geometry, tuple(d if rng.random() < keep else 0 for d in grid))


def _decisions(puzzles: list[Puzzle], label: str) -> str:
    """Total decisions of one run, or a dash when not measured (a binary reports none)."""
    method, options = METHODS[label]
    counts = [solve(puzzle, method, **options).stats.decisions for puzzle in puzzles]
    return "—" if None in counts else f"{sum(counts):,}"


def part_one(dataset: str, labels: list[str], runs: int, time_limit: float) -> None:
    puzzles = load(dataset)
    results = [compare(puzzles, runners(labels, time_limit), time_limit=time_limit)
               for _ in range(runs)]
    decisions = {label: _decisions(puzzles[:20], label) for label in labels}
    print_header(f"SAT methods on {dataset} ({len(puzzles)} puzzles, limit {time_limit:g} s, "
                 f"median of {runs} runs, one core of a shared 2-core machine)")
    print(f"{'method':<24}{'solved':>7}{'unknown':>8}{'decisions/20':>14}{'puzzles/s':>11}"
          f"{'ratio':>8}{'median s':>10}{'max s':>8}")
    base_rate = None
    for i, label in enumerate(labels):
        rows = [run.rows[i] for run in results]
        rate = len(puzzles) / statistics.median(r.total_seconds for r in rows)
        base_rate = base_rate or rate
        per_puzzle = [statistics.median(r.seconds[k] for r in rows) for k in range(len(puzzles))]
        print(f"{label:<24}{rows[0].solved:>7}{rows[0].unknown:>8}{decisions[label]:>14}"
              f"{rate:>11.1f}{rate / base_rate:>7.3f}x{statistics.median(per_puzzle):>10.4f}"
              f"{max(per_puzzle):>8.3f}")


def part_two(sizes: list[int], labels: list[str], per_size: int, runs: int,
             time_limit: float, keep: float) -> None:
    print_header(f"Generated puzzles by size ({keep:.0%} of cells given, {per_size} per size, "
                 f"median seconds per puzzle over {runs} runs; '-' not run, 'timeout' over "
                 f"{time_limit:g} s)")
    print(f"{'size':<8}" + "".join(f"{label:>24}" for label in labels))
    rng = random.Random(2006)
    for side in sizes:
        puzzles = [random_puzzle(side, rng, keep) for _ in range(per_size)]
        cells = []
        for label in labels:
            if side >= PYSAT_ONLY_FROM and (label.startswith(("dpll", "sat:exec"))
                                            or "extended" in label):
                cells.append("-")
                continue
            method, options = METHODS[label]
            times, late = [], False
            for puzzle in puzzles:
                one = []
                for _ in range(runs):
                    result = solve(puzzle, method, time_limit=time_limit, **options)
                    late = late or result.status is Status.UNKNOWN
                    one.append(result.seconds)
                times.append(statistics.median(one))
            cells.append("timeout" if late else f"{statistics.median(times):.4f}")
        print(f"{side}x{side:<5}" + "".join(f"{cell:>24}" for cell in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="norvig/sudoku-top95.txt",
                        help="puzzle file under ../shared/data")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (median)")
    parser.add_argument("--time-limit", type=float, default=15.0, help="seconds per puzzle")
    parser.add_argument("--sizes", default="4,9,16,25,36,49,64")
    parser.add_argument("--per-size", type=int, default=3)
    parser.add_argument("--keep", type=float, default=0.7, help="share of cells given")
    parser.add_argument("--skip-sizes", action="store_true", help="only part 1")
    args = parser.parse_args()
    labels = [label for label in METHODS if label != "sat:exec" or default_command()]
    part_one(args.dataset, labels, args.runs, args.time_limit)
    if not args.skip_sizes:
        sizes = [int(s) for s in args.sizes.split(",")]
        part_two(sizes, labels, args.per_size, args.runs, args.time_limit, args.keep)


if __name__ == "__main__":
    main()
