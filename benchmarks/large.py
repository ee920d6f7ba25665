"""Benchmark: hard and large grids, every method and the portfolio side by side.

Usage (from the repository root)::

    python benchmarks/large.py [--suites qcp published unique empty] [--sizes 16 25 36]
        [--ratios 0.42 0.5] [--count 4] [--seeds 1 2] [--time-limit 15]
        [--methods fast sat:cadical195 portfolio]
    python benchmarks/large.py --suites qcp --sizes 36 --ratios 0.5 --write-cnf DIR

``--write-cnf DIR`` writes each qcp instance as a DIMACS file instead of solving
(``DIR/qcp{side}_{ratio}_s{seed}_{i}.cnf``, the compact CNF of ``sudokit.sat.compact`` that the
CDCL methods load), so that other SAT solvers can be run on the same instances under a CPU-time
limit (``ulimit -t``), e.g. kissat (on PyPI in ``passagemath-kissat``, which ships the binary).

Suites:

* ``qcp``: quasigroup-completion instances near the phase transition (Gomes and Selman 1997;
  Achlioptas et al. 2000): a random valid grid (``sudokit.run.generate.random_grids``: randomised
  search, relabelling, band/stack/row/column shuffles), each cell kept as a given with
  probability ``ratio`` (35% to 65% is the hard region), seeded; ``--count`` per size, ratio
  and seed (several ``--seeds`` keep a result from resting on one set of puzzles).
  Such puzzles may have several solutions: solving takes the first.
* ``published``: the large puzzles of ``../shared/data/large`` (16x16 to 36x36).
* ``unique``: counting up to two solutions (``--unique``) on 36x36 qcp instances with 35% of
  cells given (several solutions): the answer should be ``multiple``.
* ``empty``: the empty 64x64 grid.
* ``nine``: 9x9 throughput (puzzles/s, median of ``--runs``) of ``fast`` and ``portfolio``
  through ``sudokit.solve_array`` on the 17-clue and forum-hardest sets, with the ratio: the
  portfolio must cost nothing there.

Each method runs every puzzle once under ``--time-limit`` (seconds); a row gives solved/total,
the median and the worst wall time (time-outs count as the limit), the median CPU time (this
process and the child processes it waited for, e.g. a forked CDCL search: on a shared machine
wall time alone says little) and, for the portfolio, how often
it kept within 1.5x the best other method's time + 0.1 s (the target of issue 13).
``cpsat`` joins ``--methods`` when OR-Tools and a ``cpsat`` method are installed.
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections.abc import Sequence

import numpy as np
from common import DATA, print_header

from sudokit.formats.text import read_puzzles
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.registry import get_solver, methods
from sudokit.run.doors import count_solutions

NINE = ["tdoku/puzzles2_17_clue", "tdoku/puzzles5_forum_hardest_1905_11+_first20000"]
PUBLISHED = ["large/aprivitera_16x16.txt", "large/bnguyen_16x16.txt", "large/lkwaerst_16x16.txt",
             "large/aprivitera_25x25.txt", "large/sam_25x25_medium.txt",
             "large/bnguyen_36x36.txt"]


def qcp_instances(side: int, ratio: float, count: int, seed: int) -> list[Puzzle]:
    """Return ``count`` seeded puzzles: random valid grids with a share ``ratio`` of givens."""
    from sudokit.run.generate import random_grids

    geometry = Geometry.for_side(side)
    grids = random_grids(count, size=side, seed=seed)
    rng = np.random.default_rng([seed, side, int(ratio * 1000)])
    keep = rng.random(grids.shape) < ratio
    return [Puzzle(geometry, tuple(np.where(k, g, 0).tolist())) for g, k in zip(grids, keep)]


def published() -> list[tuple[str, Puzzle]]:
    """The published large puzzles that read as valid puzzles."""
    out = []
    for name in PUBLISHED:
        path = DATA / name
        if path.exists():
            out += [(f"{name.split('/')[-1]}#{i}", r.puzzle)
                    for i, r in enumerate(read_puzzles(path)) if r.puzzle is not None]
    return out


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of its waited-for children."""
    return sum(os.times()[:4])


def run(puzzle: Puzzle, method: str, limit: int, time_limit: float) -> tuple[str, float, float]:
    """Return the record word, the wall seconds and the CPU seconds of one method on one
    puzzle."""
    cpu = cpu_seconds()
    result = count_solutions(puzzle, method, limit=limit, time_limit=time_limit)
    return result.label.word, result.seconds, cpu_seconds() - cpu


def compare(title: str, puzzles: Sequence[tuple[str, Puzzle]], names: Sequence[str],
            limit: int, time_limit: float, verbose: bool) -> None:
    """Run every method on every puzzle and print one row per method."""
    print_header(f"{title}: {len(puzzles)} puzzles, {time_limit:g} s limit, count limit {limit}",
                 ["method".ljust(16), "solved", "median s", "worst s", "median CPU s",
                  "within 1.5x best+0.1"])
    times: dict[str, list[float]] = {name: [] for name in names}
    cpus: dict[str, list[float]] = {name: [] for name in names}
    words: dict[str, list[str]] = {name: [] for name in names}
    for label, puzzle in puzzles:
        for name in names:
            word, seconds, cpu = run(puzzle, name, limit, time_limit)
            words[name].append(word)
            times[name].append(seconds if word != "timeout" else time_limit)
            cpus[name].append(cpu)
        if verbose:
            print(f"  {label:<28}" + " ".join(f"{n}={words[n][-1]}:{times[n][-1]:.2f}"
                                              f"(cpu {cpus[n][-1]:.2f})" for n in names))
    for name in names:
        solved = sum(w != "timeout" for w in words[name])
        ok = ""
        others = [n for n in names if n != name]
        if name == "portfolio" and others:
            best = [min(times[n][i] for n in others) for i in range(len(puzzles))]
            hit = [times[name][i] <= 1.5 * best[i] + 0.1 for i in range(len(puzzles))
                   if best[i] < time_limit]
            ok = f"{sum(hit)}/{len(hit)}"
        print(f"{name:<16}  {solved:>3}/{len(puzzles):<3} {statistics.median(times[name]):>8.2f}"
              f" {max(times[name]):>8.2f} {statistics.median(cpus[name]):>12.2f}  {ok}")


def write_cnf(directory: str, name: str, puzzle: Puzzle) -> str:
    """Write ``puzzle``'s compact CNF (:func:`sudokit.sat.compact.compact_cnf`) as
    ``directory/name.cnf`` in DIMACS; return the path."""
    from sudokit.sat.compact import compact_cnf
    from sudokit.sat.dimacs import write_dimacs

    cnf = compact_cnf(puzzle)
    path = os.path.join(directory, f"{name}.cnf")
    with open(path, "w", encoding="ascii") as fh:
        write_dimacs(fh, cnf.clauses, cnf.n_vars + cnf.n_aux, [f"sudokit qcp instance {name}"])
    return path


def nine(runs: int) -> None:
    """Print 9x9 puzzles/s of the engine alone and of the portfolio, in one run."""
    from common import load, median_seconds, rate_row

    from sudokit import solve_array

    print_header(f"9x9 through solve_array, puzzles/s, median of {runs} runs")
    for name in NINE:
        givens = np.array([p.givens for p in load(name)], np.uint8)
        base = None
        for method in ("fast", "portfolio"):
            solve_array(givens[:10], method=method)
            seconds = median_seconds(lambda m=method, g=givens: solve_array(g, method=m), runs)
            print(rate_row(f"{name.split('/')[-1][:30]} {method}", len(givens), seconds, base))
            base = base or len(givens) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", nargs="+", default=["nine", "qcp", "published", "unique", "empty"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[16, 25, 36])
    parser.add_argument("--ratios", nargs="+", type=float, default=[0.42, 0.5])
    parser.add_argument("--count", type=int, default=4, help="qcp puzzles per size and ratio")
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2],
                        help="qcp and unique suites: one set of --count puzzles per seed")
    parser.add_argument("--time-limit", type=float, default=15.0, help="seconds per puzzle")
    parser.add_argument("--methods", nargs="+",
                        default=["fast", "sat:cadical195", "portfolio"])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of the nine suite")
    parser.add_argument("--verbose", action="store_true", help="one line per puzzle")
    parser.add_argument("--write-cnf", metavar="DIR",
                        help="write the qcp instances as DIMACS files to DIR instead of solving")
    args = parser.parse_args()
    if args.write_cnf:
        os.makedirs(args.write_cnf, exist_ok=True)
        for side in args.sizes:
            for ratio in args.ratios:
                for seed in args.seeds:
                    for i, p in enumerate(qcp_instances(side, ratio, args.count, seed)):
                        print(write_cnf(args.write_cnf, f"qcp{side}_{ratio:g}_s{seed}_{i}", p))
        return
    names = list(args.methods)
    if "cpsat" not in names and any(m.name == "cpsat" and m.available for m in methods()):
        names.append("cpsat")
    for name in names:
        get_solver(name).warm_up()
    if "nine" in args.suites:
        nine(args.runs)
    seeds = " ".join(map(str, args.seeds))
    if "qcp" in args.suites:
        for side in args.sizes:
            for ratio in args.ratios:
                puzzles = [(f"{side}x{side} {ratio:.0%} s{seed}#{i}", p) for seed in args.seeds
                           for i, p in enumerate(qcp_instances(side, ratio, args.count, seed))]
                compare(f"qcp {side}x{side}, {ratio:.0%} givens, seeds {seeds}", puzzles,
                        names, 1, args.time_limit, args.verbose)
    if "published" in args.suites:
        compare("published large puzzles", published(), names, 1, args.time_limit, args.verbose)
    if "unique" in args.suites:
        puzzles = [(f"36x36 35% s{seed}#{i}", p) for seed in args.seeds
                   for i, p in enumerate(qcp_instances(36, 0.35, args.count, seed))]
        compare("36x36, 35% givens, --unique", puzzles, names, 2, args.time_limit, args.verbose)
    if "empty" in args.suites:
        empty = Geometry.for_side(64)
        compare("empty 64x64", [("empty", Puzzle(empty, (0,) * empty.n_cells))],
                [n for n in names if not n.startswith("sat")], 1, args.time_limit, args.verbose)


if __name__ == "__main__":
    main()
