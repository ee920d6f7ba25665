"""Benchmark: the final check of the drawn rules compiled (``sudokit.fast.rulecheck``) against
the Python check it replaced in the compiled verification (``sudokit.model.puzzle.rules_ok``),
in the same process, on puzzles of ``tests/data/rules`` that propagation alone solves.

Usage (from the repository root)::

    python benchmarks/rule_check.py [--calls 400] [--rounds 5]

Per puzzle (the held-out sandwich puzzle: 42 rules; the held-out entropic-line puzzle:
142 rules; the held-out "X" puzzle: 282 rules, searched), rounds alternate the two checks
(after, before, before, after, ...); each round times ``--calls`` calls and keeps the median
wall time of one call of:

* ``check``: the drawn rules of the published solution (one grid), ``rules_hold`` compiled
  against ``rules_ok``;
* ``library``: ``sudokit.count_solutions(puzzle, "fast", limit=2)`` on the parsed puzzle, with
  the compiled verification calling the compiled check (after) or ``rules_ok`` (before).

Printed: per puzzle and measure the median over rounds of both, and before / after.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sudokit  # noqa: E402
from sudokit.compiled import Kernels, forced  # noqa: E402
from sudokit.fast import verify  # noqa: E402
from sudokit.fast.rulecheck import rules_hold, rules_hold_into  # noqa: E402
from sudokit.model.puzzle import rules_ok  # noqa: E402
from tests.fast.test_rulecheck import published_puzzles  # noqa: E402

PUZZLES = {"sandwich": "sandwich sum", "entropic line": "entropic line", "X": "X"}
"""Label -> the name of the first rule of the puzzle (the largest such puzzle is taken)."""


def _python_into(grids: np.ndarray, geometry, out: np.ndarray, partial: bool = False) -> None:
    out &= rules_ok(grids, geometry, partial)


def _median_call(run, calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _pick(name: str) -> tuple:
    found = [(p, s) for p, s in published_puzzles() if p.geometry.constraints[0].name == name
             and len(p.geometry.constraints) >= 18]
    return max(found, key=lambda ps: len(ps[0].geometry.constraints))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{'puzzle':18} {'rules':>5} {'measure':8} {'before µs':>10} {'after µs':>10} "
          f"{'before/after':>12}")
    for label, name in PUZZLES.items():
        puzzle, solution = _pick(name)
        geometry = puzzle.geometry
        grid = np.array([solution], np.uint8)
        assert sudokit.count_solutions(puzzle, "fast", limit=2).solutions == (solution,)
        checks = {"after": lambda: rules_hold(grid, geometry),
                  "before": lambda: rules_ok(grid, geometry)}
        library = {name: (lambda into=into: _library(puzzle, into))
                   for name, into in (("after", rules_hold_into), ("before", _python_into))}
        for measure, runs in (("check", checks), ("library", library)):
            times: dict[str, list[float]] = {"before": [], "after": []}
            with forced(Kernels.VERIFY, True):
                for r in range(args.rounds):
                    for side in (("after", "before") if r % 2 == 0 else ("before", "after")):
                        times[side].append(_median_call(runs[side], args.calls))
            before, after = (statistics.median(times[k]) * 1e6 for k in ("before", "after"))
            print(f"{label:18} {len(geometry.constraints):5} {measure:8} {before:10.1f} "
                  f"{after:10.1f} {before / after:11.2f}x", flush=True)


def _library(puzzle, into) -> None:
    verify.rules_hold_into = into
    try:
        sudokit.count_solutions(puzzle, "fast", limit=2)
    finally:
        verify.rules_hold_into = rules_hold_into


if __name__ == "__main__":
    main()
