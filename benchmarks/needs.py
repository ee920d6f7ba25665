"""Technique-targeted generation (issue 42 item 5): puzzles a minute for ``needs``/``uses``,
each puzzle's hardest step (or a step) checked by ``sudokit.rate`` / the logical solve.

Run: ``python benchmarks/needs.py [--seconds 60] [--cap 20000] [--only X-Wing,AIC]``. One
thread (one core); the kernels are loaded before the clock starts. For each target it makes
puzzles one at a time (at most ``--cap`` grids each; a target not met within it ends its row)
until ``--count`` are made or ``--seconds`` of CPU time pass, and prints the rate per minute of
CPU time (the process's, so a shared machine's load does not count; the checks not counted), the
wall time, the grids tried per puzzle and whether every puzzle's claim held by the rating engine
(``verified``). Targets of base rating up to 3.0 dig every other try toward the target
(:mod:`sudokit.generator.digging`).
"""

from __future__ import annotations

import argparse
import statistics
import time

import sudokit
from sudokit.generator import GenerationError
from sudokit.generator.techniques import resolve_target
from sudokit.logic.solve import logical_steps
from sudokit.run.generate import _geometry

TARGETS: list[tuple] = [
    ("X-Wing", True, "standard"), ("Swordfish", True, "standard"),
    ("XY-Wing", True, "standard"), ("W-Wing", True, "standard"),
    ("Unique Rectangle", True, "standard"), ("AIC", True, "standard"),
    ("fish", True, "standard"), ("wings", True, "standard"), ("chains", True, "standard"),
    ("XY-Wing", False, "standard"), ("X-Wing", True, "diagonal"),
    ("Swordfish", True, "diagonal"),
    ("Pair Relation", True, "non-consecutive"), ("Pair Relation with Peers", True,
                                                 "non-consecutive"),
    ("rules", False, "non-consecutive"), ("Rule Forcing Chain", True, "non-consecutive"),
    ("Pair Relation", False, "non-consecutive"), ("X-Chain (short)", True, "standard"),
    ("Pair Relation", True, "non-consecutive", {"givens": (30, 40)}),
    ("Pair Relation with Peers", True, "non-consecutive", {"givens": (26, 34)}),
]
"""(word, needs, variant[, more generate() arguments]): the generator's non-consecutive puzzles
keep about 12 givens and need a Rule Forcing Chain, so the easy rule techniques are asked with
a givens band too."""


def verified(g: sudokit.Generated, names: frozenset[str], needs: bool) -> bool:
    """The claim checked apart from the generator: ``sudokit.rate``'s hardest step (needs), or
    a step of the whole logical solve (uses)."""
    if needs:
        return sudokit.rate(g.puzzle).hardest in names
    steps = logical_steps(g.puzzle, g.solution, unique=True)
    return any(step.technique in names for step in steps)


def run(word: str, needs: bool, variant: str, count: int, seconds: float, seed: int,
        cap: int, more: dict | None = None) -> str:
    names = resolve_target(word, _geometry(None, None, variant), needs=needs).names
    [warm] = sudokit.generate(1, variant=variant, seed=seed + 1)
    sudokit.rate(warm.puzzle)  # the generator's and the technique engine's kernels loaded
    kw = {"needs" if needs else "uses": word, **(more or {})}
    made, tries, checks, spent, wall, failed = 0, [], [], 0.0, 0.0, 0
    for index in range(count):
        began, began_wall = time.process_time(), time.perf_counter()
        try:  # one puzzle at a time, at most ``cap`` grids: a rare technique stops in time
            [g] = sudokit.generate(1, variant=variant, seed=seed, start=index, max_tries=cap,
                                   **kw)
        except GenerationError:
            failed += cap
            [g] = [None]
        spent += time.process_time() - began
        wall += time.perf_counter() - began_wall
        if g is None:
            break
        made += 1
        tries.append(g.tries)
        checks.append(verified(g, names, needs))
        if spent > seconds:
            break
    per_min = 60 * made / spent
    grids = (sum(tries) + failed) / made if made else float("inf")
    return (f"{'needs' if needs else 'uses':5} {word:24} {variant:15} {made:3} puzzles "
            f"{spent:6.1f} s CPU ({wall:6.1f} s wall) {per_min:7.1f}/min {str(more or ''):20}  "
            f"grids per puzzle {grids:8.0f}  verified {sum(checks)}/{made}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=int, default=20_000, help="grids tried per puzzle at most")
    parser.add_argument("--only", default="", help="comma-separated words")
    args = parser.parse_args()
    only = {w.strip() for w in args.only.split(",") if w.strip()}
    for word, needs, variant, *more in TARGETS:
        if not only or word in only:
            row = run(word, needs, variant, args.count, args.seconds, args.seed, args.cap,
                      *more)
            print(row, flush=True)


if __name__ == "__main__":
    main()
