"""Benchmark: human-style rating (sudokit.rate) against Sudoku Explainer's published ratings.

Usage (from the repository root)::

    python benchmarks/logic.py [--sample 200] [--runs 3] [--magictour 100] [--hardest 20]
        [--invariance 25]
        [--peers hodoku,pencilmark,larsdoku] [--peer-sample 20] [--peer-budget 60]

Reads ``../shared/data/rated/se_diabolical_calibration.txt`` (1,045 puzzles rated 5.2-9.1 by
Sukaku Explainer) and takes ``--sample`` puzzles spread evenly over it. Prints:

- agreement of our ratings with the published ones: Spearman rank correlation, share of exact
  ratings, share within 0.5, mean absolute difference; also apart on the puzzles of even lines
  of the file (the half the ladder and its ratings were tuned on) and of odd lines (held out);
- the share of ``--invariance`` puzzles whose rating is unchanged by a random relabelling,
  transposition and band and stack permutation;
- the share solved without the trial step, on that sample and on the first ``--magictour``
  puzzles of tdoku's magictour top1465 and the first ``--hardest`` of its forum-hardest (SE 11+)
  set;
- rating speed in puzzles/s on one core, by the wall clock and by the process's CPU time (median
  of ``--runs`` passes over the sample; every step of every solve is verified against the
  solution, as always);
- the same for each peer that is installed (hodoku-py, pencilmark, larsdoku; measurement only,
  never dependencies), on the first ``--peer-sample`` puzzles of the sample or as many as fit in
  ``--peer-budget`` seconds, with our figures on exactly those puzzles beside them. hodoku-py's
  score is on its own scale, so only its rank correlation means something; larsdoku gives no
  rating at all (speed and solved share only).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np
from common import DATA, load, print_header

from sudokit import Puzzle, rate

RATED = "rated/se_diabolical_calibration.txt"
MAGICTOUR = "tdoku/puzzles3_magictour_top1465"
HARDEST = "tdoku/puzzles5_forum_hardest_1905_11+_first20000"


def load_rated(sample: int) -> list[tuple[str, float, int]]:
    """Evenly spaced ``(81 digits, SE rating, line index)`` triples of the rated set."""
    rows = [(parts[1], float(parts[2])) for parts in
            (line.split() for line in (DATA / RATED).read_text().splitlines()) if len(parts) == 3]
    step = max(1, len(rows) // sample)
    return [(g, se, i) for i, (g, se) in enumerate(rows)][::step][:sample]


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(values: Sequence[float]) -> np.ndarray:
        values = np.asarray(values, dtype=float)
        order = values.argsort(kind="stable")
        out = np.empty(len(values))
        out[order] = np.arange(len(values), dtype=float)
        for value in np.unique(values):
            tied = values == value
            out[tied] = out[tied].mean()
        return out

    ra, rb = ranks(a), ranks(b)
    if len(a) < 2 or ra.std() == 0 or rb.std() == 0:
        return float("nan")  # undefined: one side has a single value
    return float(np.corrcoef(ra, rb)[0, 1])


def agreement(ours: Sequence[float], theirs: Sequence[float]) -> str:
    diff = np.abs(np.round(np.asarray(ours) - np.asarray(theirs), 1))
    return (f"Spearman {spearman(ours, theirs):5.3f}  exact {np.mean(diff == 0):6.1%}  "
            f"within 0.5 {np.mean(diff <= 0.5):6.1%}  mean |diff| {diff.mean():4.2f}")


def invariance(grids: Sequence[str], seed: int = 1) -> float:
    """Share of puzzles rated the same after a random relabelling, transposition and band and
    stack permutation."""
    import random

    from sudokit import Geometry
    from sudokit.model.transform import permute_bands, permute_stacks, relabel, transpose

    geometry, rng, same = Geometry.of(3, 3), random.Random(seed), 0
    for grid in grids:
        digits = tuple(int(c) for c in grid)
        mapping, bands, stacks = list(range(1, 10)), [0, 1, 2], [0, 1, 2]
        for order in (mapping, bands, stacks):
            rng.shuffle(order)
        moved = transpose(relabel(digits, mapping), geometry)[0]
        moved = permute_stacks(permute_bands(moved, geometry, bands), geometry, stacks)
        same += rate(Puzzle.from_digits(digits)).rating == rate(Puzzle.from_digits(moved)).rating
    return same / max(1, len(grids))


def our_ratings(grids: Sequence[str]) -> tuple[list[float], list[bool]]:
    results = [rate(g) for g in grids]
    return [r.rating for r in results], [not r.trial for r in results]


def _peer_hodoku() -> Callable[[str], float | None]:
    from hodoku import Solver

    solver = Solver()
    return lambda grid: float(solver.rate(grid).score)


def _peer_pencilmark() -> Callable[[str], float | None]:
    import pencilmark

    def run(grid: str) -> float | None:
        card = pencilmark.rate(grid, se=True)
        return (card.get("se") or {}).get("er")

    return run


def _peer_larsdoku() -> Callable[[str], float | None]:
    import larsdoku

    def run(grid: str) -> float | None:
        result = larsdoku.solve(grid)
        return None if result.get("success") else float("nan")

    return run


PEERS = {"hodoku": ("hodoku", _peer_hodoku), "pencilmark": ("pencilmark", _peer_pencilmark),
         "larsdoku": ("larsdoku", _peer_larsdoku)}


def run_peer(name: str, rows: Sequence[tuple[str, float]], budget: float) -> None:
    module, make = PEERS[name]
    if importlib.util.find_spec(module) is None:
        print(f"{name:<12} not installed (pip install {name if name != 'hodoku' else 'hodoku-py'})")
        return
    peer = make()
    done, values, start = [], [], time.perf_counter()
    for grid, se in rows:
        values.append(peer(grid))
        done.append((grid, se))
        if time.perf_counter() - start > budget:
            break
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    ours, _no_trial = our_ratings([g for g, _ in done])
    our_seconds = time.perf_counter() - start
    se = [s for _, s in done]
    speed = f"{len(done) / seconds:8.2f} puzzles/s (ours {len(done) / our_seconds:.2f})"
    rated = [(v, s, o) for v, s, o in zip(values, se, ours) if v is not None and not math.isnan(v)]
    print(f"{name:<12} {len(done):>4} puzzles {speed}")
    if rated and name != "larsdoku":
        theirs, se_r, ours_r = zip(*rated)
        label = "score" if name == "hodoku" else "SE estimate"
        print(f"  {name} {label:<12}: {agreement(theirs, se_r)}")
        print(f"  sudokit, same puzzles: {agreement(ours_r, se_r)}")
    elif name == "larsdoku":
        solved = sum(1 for v in values if v is None)
        print(f"  larsdoku solved {solved}/{len(done)} by logic (no rating scale)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--magictour", type=int, default=100)
    parser.add_argument("--hardest", type=int, default=20,
                        help="puzzles of tdoku's forum-hardest (SE 11+) set")
    parser.add_argument("--invariance", type=int, default=25,
                        help="puzzles of the sample rated again after a random symmetry")
    parser.add_argument("--peers", default="hodoku,pencilmark,larsdoku")
    parser.add_argument("--peer-sample", type=int, default=20)
    parser.add_argument("--peer-budget", type=float, default=60.0)
    args = parser.parse_args()

    triples = load_rated(args.sample)
    rows = [(g, se) for g, se, _i in triples]
    grids, se = [g for g, _ in rows], [s for _, s in rows]
    print_header(f"sudokit.logic on {len(rows)} puzzles of {RATED} (SE 5.2-9.1)")
    times, cpu_times, ours, no_trial = [], [], [], []
    for _ in range(args.runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        ours, no_trial = our_ratings(grids)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    seconds, cpu_seconds = statistics.median(times), statistics.median(cpu_times)
    print(f"agreement with SE: {agreement(ours, se)}")
    for label, parity in (("tuning half (even lines)", 0), ("held-out half (odd lines)", 1)):
        pick = [k for k, (_g, _s, i) in enumerate(triples) if i % 2 == parity]
        print(f"  {label}, {len(pick)} puzzles: "
              f"{agreement([ours[k] for k in pick], [se[k] for k in pick])}")
    print(f"solved without trial: {np.mean(no_trial):.1%}")
    print(f"rating speed: {len(rows) / seconds:.2f} puzzles/s wall clock, "
          f"{len(rows) / cpu_seconds:.2f} puzzles/s of CPU time (median of {args.runs} runs, "
          f"one core, every step verified; on a shared machine the CPU figure is the steadier)")
    if args.invariance:
        share = invariance(grids[:args.invariance])
        print(f"same rating after relabelling, transposition, band and stack permutation: "
              f"{share:.1%} of {min(args.invariance, len(grids))}")
    for label, path, count in (("magictour top1465", MAGICTOUR, args.magictour),
                               ("forum hardest 11+", HARDEST, args.hardest)):
        if not count:
            continue
        puzzles: list[Puzzle] = load(path, count)
        start = time.perf_counter()
        results = [rate(p) for p in puzzles]
        seconds = time.perf_counter() - start
        share = np.mean([not r.trial for r in results])
        print(f"{label}, first {len(puzzles)}: solved without trial {share:.1%}, "
              f"{len(puzzles) / seconds:.2f} puzzles/s")
    if args.peers:
        print_header(f"peers on the first {args.peer_sample} puzzles of the sample "
                     f"(at most {args.peer_budget:.0f} s each)")
        for name in args.peers.split(","):
            run_peer(name.strip(), rows[:args.peer_sample], args.peer_budget)


if __name__ == "__main__":
    main()
