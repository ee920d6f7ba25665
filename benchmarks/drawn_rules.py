"""Benchmark: the default method against OR-Tools CP-SAT (one worker) on the 9x9 puzzles with
drawn rules of ``tests/data/rules`` (issue 26 target: median <= 20 ms and >= 10x faster).

Usage (from the repository root)::

    python benchmarks/drawn_rules.py [--runs 3] [--methods portfolio cpsat] [--time-limit 30]
                                     [--heldout]

Every 9x9 published puzzle of the folder (``sigh_*.json`` f-puzzles files and the compressed
entries of ``variant_solver_js_ci.json``) is solved by each method through ``sudokit.solve``
(verification included, after one untimed warm-up solve), ``--runs`` times in turn (method by
method per puzzle, so a drift of the machine's speed hits both); a puzzle's time is the median
of its runs, and every grid must equal the published solution. Printed: each puzzle's median
ms per method, then per method the median and the mean ms per puzzle, and the ratio of the
first method's median to each other's. ``cpsat`` runs with ``workers=1``; a method that does
not declare a puzzle's rules is reported, not timed. ``--heldout`` times the held-out set
instead: the entries of ``heldout_*.json`` (puzzles from other sources, compressed f-puzzles
data and a solution each; an entry marked ``refused`` is left out). A solve that ends at the
time limit without a grid is printed as such, and its puzzle left out of every method's figures.

``--count`` instead counts to 2 with the first method (default ``fast``) on both sets, once per
puzzle after a warm-up pass: per puzzle the CPU ms of ``count_solutions`` (set-up, search and
verification) and the search nodes (deterministic), then their totals; a puzzle not proved
unique with its published solution (at the time limit) is printed as such and left out of them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from common import ROOT

from sudokit import count_solutions, solve
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.model.puzzle import Puzzle
from sudokit.registry import solver_class

RULES = ROOT / "tests" / "data" / "rules"


def published(heldout: bool = False) -> list[tuple[str, Puzzle, tuple[int, ...]]]:
    """(name, puzzle, published solution) of every 9x9 puzzle of ``tests/data/rules`` (of its
    ``heldout_*.json`` lists when ``heldout``)."""
    found = []
    lists = sorted(RULES.glob("heldout_*.json")) if heldout else [
        RULES / "variant_solver_js_ci.json"]
    for path in [] if heldout else sorted(RULES.glob("sigh_*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found.append((path.stem[5:], fpuzzles_puzzle(data), tuple(data["solution"])))
    for item in (i for path in lists for i in json.loads(path.read_text(encoding="utf-8"))
                 if "refused" not in i):
        found.append((item["title"], fpuzzles_puzzle(decode_fpuzzles(item["puzzle"])[0]),
                      tuple(int(d) for d in item["solution"])))
    return [entry for entry in found if entry[1].geometry.side == 9]


def timed(puzzle: Puzzle, solution: tuple[int, ...], method: str, runs: int,
          time_limit: float) -> float | None:
    """The median seconds of ``runs`` solves (each checked against the published solution);
    None when a solve ends at the time limit without a grid."""
    options = {"workers": 1} if method == "cpsat" else {}
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        result = solve(puzzle, method, time_limit=time_limit, **options)
        seconds.append(time.perf_counter() - start)
        if result.status.name == "UNKNOWN":  # the time limit came first
            return None
        if result.solution != solution:
            raise SystemExit(f"{method}: {result.status.name}, not the published solution")
    return statistics.median(seconds)


def counted(method: str, time_limit: float) -> None:
    """Count to 2 on both sets (see ``--count``) and print each puzzle's CPU ms and nodes."""
    puzzles = published(False) + published(True)
    for _, puzzle, _ in puzzles:  # warm-up: kernels loaded, rule tables built
        count_solutions(puzzle, method, limit=2, time_limit=0.05)
    total_ms = total_nodes = 0.0
    for name, puzzle, solution in puzzles:
        start = time.process_time()
        result = count_solutions(puzzle, method, limit=2, time_limit=time_limit)
        ms = (time.process_time() - start) * 1e3
        nodes = result.stats.nodes or 0
        if result.count != 1 or result.solution != solution:
            print(f"{name[:32]:32s} {ms:10.1f} ms {nodes:10,d} nodes: {result.status.name}, "
                  f"{result.count} solution(s), not proved unique with the published grid")
            continue
        total_ms, total_nodes = total_ms + ms, total_nodes + nodes
        print(f"{name[:32]:32s} {ms:10.1f} ms {nodes:10,d} nodes")
    print(f"{method}: {len(puzzles)} puzzles, {total_ms:.0f} ms CPU, {total_nodes:,.0f} nodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per puzzle (median)")
    parser.add_argument("--methods", nargs="+", default=["portfolio", "cpsat"])
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per solve")
    parser.add_argument("--heldout", action="store_true",
                        help="time the heldout_*.json lists (puzzles from other sources)")
    parser.add_argument("--count", action="store_true",
                        help="count to 2 with the first method (default fast) on both sets")
    args = parser.parse_args()
    if args.count:
        counted("fast" if args.methods == parser.get_default("methods") else args.methods[0],
                args.time_limit)
        return
    puzzles = published(args.heldout)
    methods = [m for m in args.methods
               if all(solver_class(m).supports(p.geometry) for _, p, _ in puzzles)]
    for m in set(args.methods) - set(methods):
        print(f"{m}: does not declare every rule of these puzzles (not timed)")
    for m in methods:  # warm-up: kernels loaded, models built once
        solve(puzzles[0][1], m, **({"workers": 1} if m == "cpsat" else {}))
    print(f"{'puzzle':32s}" + "".join(f"{m:>14s}" for m in methods) + "   (median ms)")
    times: dict[str, list[float]] = {m: [] for m in methods}
    for name, puzzle, solution in puzzles:
        row = {m: timed(puzzle, solution, m, args.runs, args.time_limit) for m in methods}
        print(f"{name[:32]:32s}" + "".join(
            f"{'over limit' if t is None else f'{t * 1e3:.2f}':>14s}" for t in row.values()))
        if None not in row.values():  # a puzzle counts only if every method finished it
            for m in methods:
                times[m].append(row[m])
    first = statistics.median(times[methods[0]])
    for m in methods:
        median = statistics.median(times[m])
        print(f"{m}: median {median * 1e3:.2f} ms/puzzle, mean "
              f"{statistics.mean(times[m]) * 1e3:.2f} ms over {len(times[m])} puzzles; "
              f"median ratio to {methods[0]} {median / first:.1f}x")


if __name__ == "__main__":
    main()
