"""Benchmark: what "why" costs (issue 42 targets), against the verdict alone in the same run.

Usage (from the repository root)::

    python benchmarks/why.py [--broken 200] [--loose 200] [--rules] [--large]

* **No solution**: puzzles of ``../shared/data/tdoku/puzzles3_magictour_top1465`` (every 7th,
  the first ``--broken``) each made unsolvable by changing one given to a digit its peers
  allow (the first given, in cell order, whose change leaves no solution). For each: the time
  of :func:`sudokit.run.why.why`, whether its first reason holds the changed given, and whether
  the reason is minimal (its sub-puzzle has no solution; dropping any one member gives one,
  each checked by the front door, outside the timing).
* **Several**: 17-clue puzzles of ``../shared/data/tdoku/puzzles2_17_clue`` (minimal, every
  101st) with one given removed (the ``k mod 17``-th): the time of ``why`` and whether the
  removed given is among the single fixes.
* ``--rules``: each ``tests/data/rules/sigh_*.json`` puzzle with an added two-cell thermometer
  its published solution breaks (unsolvable), and with a changed given where one exists.
* ``--large``: the 16x16 puzzles of ``../shared/data/large`` with one given changed.
* ``--method NAME``: every check by that method's solves through the front door (QuickXplain)
  instead of the default, CDCL with assumptions (:mod:`sudokit.run.why_sat`) for conflicts.

The baseline of each row is the verdict alone (:func:`~sudokit.run.doors.count_solutions` to
two, default method) on the same puzzle, so the ratio says what the explanation adds. Times
are wall seconds of one process; the machine may be shared (ratios hold better than seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sudokit.formats import read_puzzles  # noqa: E402
from sudokit.model.puzzle import Puzzle  # noqa: E402
from sudokit.model.rulebook import thermometer  # noqa: E402
from sudokit.run.doors import count_solutions  # noqa: E402
from sudokit.run.why import why  # noqa: E402
from sudokit.run.why_check import sub_puzzle  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def _puzzles(path: Path, step: int, count: int) -> list[Puzzle]:
    found = [r.puzzle for r in read_puzzles(path) if r.puzzle is not None]
    return found[::step][:count]


def _solvable(puzzle: Puzzle) -> bool:
    return count_solutions(puzzle, limit=1).count == 1


def broken(puzzle: Puzzle) -> tuple[Puzzle, int] | None:
    """``puzzle`` with one given changed so that no solution is left, and the changed cell."""
    for cell, digit in enumerate(puzzle.givens):
        if not digit:
            continue
        digits = list(puzzle.givens)
        digits[cell] = 0
        for other in Puzzle(puzzle.geometry, tuple(digits)).candidates(cell):
            if other != digit:
                digits[cell] = other
                changed = Puzzle(puzzle.geometry, tuple(digits))
                if not _solvable(changed):
                    return changed, cell
    return None


def minimal(puzzle: Puzzle, members: list) -> bool:
    """The reason has no solution and each member is needed."""
    if _solvable(sub_puzzle(puzzle, members)):
        return False
    return all(_solvable(sub_puzzle(puzzle, [m for m in members if m != drop]))
               for drop in members)


METHOD: list[str | None] = [None]
"""The method of every check (``--method``): None runs the CDCL search with assumptions for
conflicts, a method name QuickXplain over that method's solves."""


def timed(puzzle: Puzzle) -> tuple[object, float, float]:
    """``why``'s answer, its seconds, and the verdict's seconds (the baseline)."""
    start = time.perf_counter()
    count_solutions(puzzle, limit=2)
    verdict = time.perf_counter() - start
    start = time.perf_counter()
    answer = why(puzzle, method=METHOD[0], time_limit=None)
    return answer, time.perf_counter() - start, verdict


def report(name: str, times: list[float], bases: list[float], hits: int, total: int,
           what: str) -> None:
    ratio = statistics.median(t / max(b, 1e-6) for t, b in zip(times, bases))
    print(f"{name:<28} n={total:<4} {what} {hits}/{total}  median {statistics.median(times):.3f} s"
          f"  max {max(times):.3f} s  verdict median {statistics.median(bases) * 1000:.2f} ms"
          f"  why/verdict x{ratio:.0f}", flush=True)


def no_solution(puzzles: list[Puzzle], name: str) -> None:
    times, bases, hits, small = [], [], 0, 0
    for puzzle in puzzles:
        made = broken(puzzle)
        if made is None:
            continue
        changed, cell = made
        answer, seconds, verdict = timed(changed)
        times.append(seconds)
        bases.append(verdict)
        members = list(answer.reasons[0].members)
        ok = any(m.kind == "given" and m.index == cell for m in members) and minimal(changed,
                                                                                 members)
        hits += ok
        small += len(members)
    report(name, times, bases, hits, len(times), "minimal+changed")
    print(f"{'':<28} mean reason size {small / max(len(times), 1):.1f} members")


def several(puzzles: list[Puzzle], name: str) -> None:
    times, bases, hits = [], [], 0
    for k, puzzle in enumerate(puzzles):
        cells = [c for c, d in enumerate(puzzle.givens) if d]
        cell = cells[k % len(cells)]
        digits = list(puzzle.givens)
        digits[cell] = 0
        answer, seconds, verdict = timed(Puzzle(puzzle.geometry, tuple(digits)))
        times.append(seconds)
        bases.append(verdict)
        hits += answer.several is not None and (cell, puzzle.givens[cell]) in answer.several.fixes
    report(name, times, bases, hits, len(times), "removed among fixes")


def rule_puzzles() -> None:
    from sudokit.formats.fpuzzles import fpuzzles_puzzle

    times, bases, hits = [], [], 0
    for path in sorted((ROOT / "tests" / "data" / "rules").glob("sigh_*.json")):
        text = path.read_text()
        puzzle, solution = fpuzzles_puzzle(text), json.loads(text)["solution"]
        n = puzzle.geometry.n_cells
        a, b = next((a, b) for a in range(n) for b in range(a + 1, n)
                    if solution[a] > solution[b] and not puzzle.givens[a]
                    and not puzzle.givens[b])
        added = puzzle.with_constraints(*thermometer([a, b], puzzle.geometry.side))
        answer, seconds, verdict = timed(added)
        times.append(seconds)
        bases.append(verdict)
        members = list(answer.reasons[0].members)
        hits += any(m.kind == "rule" and set(m.cells) == {a, b} for m in members) and minimal(
            added, members)
        print(f"  {path.stem:<32} {seconds:7.2f} s  {len(members)} members", flush=True)
    report("rule puzzles, added rule", times, bases, hits, len(times), "minimal+added")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broken", type=int, default=200)
    parser.add_argument("--loose", type=int, default=200)
    parser.add_argument("--rules", action="store_true")
    parser.add_argument("--large", action="store_true")
    parser.add_argument("--method", default=None, help="check every sub-puzzle with this "
                        "method (QuickXplain) instead of CDCL with assumptions")
    args = parser.parse_args()
    METHOD[0] = args.method
    why("." * 16, method=METHOD[0], time_limit=None)  # compile and warm the engines
    why("12341234" + "." * 73, method=METHOD[0], time_limit=None)
    if args.broken:
        no_solution(_puzzles(SHARED / "tdoku/puzzles3_magictour_top1465", 7, args.broken),
                    "9x9 top1465, one changed")
    if args.loose:
        several(_puzzles(SHARED / "tdoku/puzzles2_17_clue", 101, args.loose),
                "9x9 17-clue, one removed")
    if args.rules:
        rule_puzzles()
    if args.large:
        large = [r.puzzle for name in ("bnguyen_16x16.txt", "aprivitera_16x16.txt",
                                       "lkwaerst_16x16.txt")
                 for r in read_puzzles(SHARED / "large" / name) if r.puzzle is not None]
        no_solution(large, "16x16, one changed")


if __name__ == "__main__":
    main()
