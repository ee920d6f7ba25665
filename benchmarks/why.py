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
* ``--large``: the 16x16 puzzles of ``../shared/data/large`` with one given changed (``--per``
  different givens each, each its own puzzle).
* ``--sukaku N``: N top1465 puzzles written as 729-character pencil-mark lines: read as 9x9
  (none as 27x27), with the puzzle's solution, rating and hardest step.
* ``--method NAME``: every check by that method's solves through the front door (QuickXplain)
  instead of the default, CDCL with assumptions (:mod:`sudokit.run.why_sat`) for conflicts.

The baseline of each row is the verdict alone (:func:`~sudokit.run.doors.count_solutions` to
two, default method) on the same puzzle, so the ratio says what the explanation adds. Times
are wall seconds of one process; the machine may be shared (ratios hold better than seconds).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import os
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


def broken(puzzle: Puzzle, skip: set[int] | None = None) -> tuple[Puzzle, int] | None:
    """``puzzle`` with one given changed so that no solution is left, and the changed cell
    (the first given in cell order, not in ``skip``, with such a change)."""
    for cell, digit in enumerate(puzzle.givens):
        if not digit or cell in (skip or ()):
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


CPU: list[float] = []
"""The CPU seconds of every timed ``why`` (this process's, all threads): on a shared machine
the wall time counts the other processes' load too; the forked CDCL children's time is
counted as well."""


def timed(puzzle: Puzzle) -> tuple[object, float, float]:
    """``why``'s answer, its seconds, and the verdict's seconds (the baseline); its CPU
    seconds go to :data:`CPU`."""
    start = time.perf_counter()
    count_solutions(puzzle, limit=2)
    verdict = time.perf_counter() - start
    start, cpu = time.perf_counter(), _cpu()
    answer = why(puzzle, method=METHOD[0], time_limit=None)
    CPU.append(_cpu() - cpu)
    return answer, time.perf_counter() - start, verdict


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for (the portfolio's CDCL runs
    in a forked child)."""
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


def report(name: str, times: list[float], bases: list[float], hits: int, total: int,
           what: str) -> None:
    ratio = statistics.median(t / max(b, 1e-6) for t, b in zip(times, bases))
    cpu = CPU[-len(times):]
    print(f"{name:<28} n={total:<4} {what} {hits}/{total}  median {statistics.median(times):.3f} s"
          f"  max {max(times):.3f} s  (CPU median {statistics.median(cpu):.3f} s, max "
          f"{max(cpu):.3f} s)  verdict median {statistics.median(bases) * 1000:.2f} ms"
          f"  why/verdict x{ratio:.0f}", flush=True)


def no_solution(puzzles: list[Puzzle], name: str, verbose: bool = False, per: int = 1) -> None:
    times, bases, hits, small = [], [], 0, 0
    for puzzle in puzzles:
        for changed, cell in broken_ways(puzzle, per):
            ok, size = _one_broken(changed, cell, times, bases)
            hits += ok
            small += size
            if verbose:
                print(f"  {name}: {times[-1]:7.2f} s  {size} members  ok={ok}", flush=True)
    report(name, times, bases, hits, len(times), "minimal+changed")
    print(f"{'':<28} mean reason size {small / max(len(times), 1):.1f} members")


def broken_ways(puzzle: Puzzle, per: int) -> list[tuple[Puzzle, int]]:
    """Up to ``per`` versions of ``puzzle`` each with another given changed (see
    :func:`broken`)."""
    found: list[tuple[Puzzle, int]] = []
    skip: set[int] = set()
    while len(found) < per:
        made = broken(puzzle, skip)
        if made is None:
            break
        found.append(made)
        skip.add(made[1])
    return found


def _one_broken(changed: Puzzle, cell: int, times: list[float],
                bases: list[float]) -> tuple[bool, int]:
    """Time ``why`` on one unsolvable puzzle; whether its first reason is minimal and holds
    the changed cell's given, and the reason's size."""
    answer, seconds, verdict = timed(changed)
    times.append(seconds)
    bases.append(verdict)
    members = list(answer.reasons[0].members)
    ok = any(m.kind == "given" and m.index == cell for m in members) and minimal(changed,
                                                                             members)
    return ok, len(members)


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
    changed = [fpuzzles_puzzle(path.read_text())
               for path in sorted((ROOT / "tests" / "data" / "rules").glob("sigh_*.json"))]
    no_solution([p for p in changed if any(p.givens)], "rule puzzles, one changed",
                verbose=True)


def sukaku(puzzles: list[Puzzle]) -> None:
    """Each puzzle written as a 729-character pencil-mark line (its candidates after the
    givens' eliminations), read back: a 9x9 (never 27x27), the same solution, the same
    rating and hardest step as the puzzle; seconds to read, solve and rate the lines."""
    from sudokit.run.explain import rate

    lines = ["".join(str(d) if d in puzzle.candidates(cell) else "0" for cell in
                     range(81) for d in range(1, 10)) for puzzle in puzzles]
    start = time.perf_counter()
    read = [r.puzzle for r in read_puzzles(io.StringIO("\n".join(lines)))]
    sides = [p.geometry.side if p is not None else 0 for p in read]
    same = 0
    for original, marks in zip(puzzles, read, strict=True):
        assert marks is not None
        solved = count_solutions(marks).solutions == count_solutions(original).solutions
        a, b = rate(marks, time_limit=None), rate(original, time_limit=None)
        same += solved and (a.rating, a.hardest) == (b.rating, b.hardest)
    seconds = time.perf_counter() - start
    print(f"{'Sukaku lines (729 chars)':<28} n={len(lines):<4} read as 9x9 {sides.count(9)}, "
          f"as 27x27 {sides.count(27)}; same solution, rating and hardest {same}/{len(lines)}"
          f"  {seconds:.1f} s (both rated)", flush=True)


def public_sukaku() -> None:
    """Every public pencil-mark puzzle of ``tests/data/sukaku`` (the 729-character lines of
    sukaku-forge's tests and the three published candidate grids): read (its side), solved
    (solutions counted up to 1000) and rated with no time limit, one line each."""
    from sudokit.run.explain import rate

    sides, rated = [], 0
    for name in ("sukaku_forge_positions.txt", "candidate_grids.txt"):
        for record in read_puzzles(ROOT / "tests" / "data" / "sukaku" / name):
            puzzle = record.puzzle
            assert puzzle is not None, record.error
            sides.append(puzzle.geometry.side)
            start, cpu = time.perf_counter(), time.process_time()
            found = count_solutions(puzzle, limit=1000)
            rating = rate(puzzle, time_limit=None)
            rated += rating.rating > 0
            print(f"  {name}:{record.line:<3} {puzzle.geometry.side}x{puzzle.geometry.side} "
                  f"{found.count:4} solution(s)  rating {rating.rating:4.1f} {rating.hardest:<28}"
                  f" {time.perf_counter() - start:6.2f} s ({time.process_time() - cpu:.2f} s "
                  f"CPU)", flush=True)
    print(f"{'public Sukaku puzzles':<28} n={len(sides):<4} read as 9x9 {sides.count(9)}, "
          f"as 27x27 {sides.count(27)}; solved and rated {rated}/{len(sides)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broken", type=int, default=200)
    parser.add_argument("--loose", type=int, default=200)
    parser.add_argument("--rules", action="store_true")
    parser.add_argument("--large", action="store_true")
    parser.add_argument("--per", type=int, default=10, help="--large: changed givens per "
                        "16x16 puzzle (each its own unsolvable puzzle)")
    parser.add_argument("--sukaku", type=int, default=0, help="top1465 puzzles (every 7th) "
                        "written as 729-character pencil-mark lines, read, solved and rated")
    parser.add_argument("--method", default=None, help="check every sub-puzzle with this "
                        "method (QuickXplain) instead of CDCL with assumptions")
    parser.add_argument("--sukaku-public", action="store_true", help="read, solve and rate "
                        "every public pencil-mark puzzle of tests/data/sukaku")
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
        no_solution(large, "16x16, one changed", per=args.per)
    if args.sukaku_public:
        public_sukaku()
    if args.sukaku:
        sukaku(_puzzles(SHARED / "tdoku/puzzles3_magictour_top1465", 7, args.sukaku))


if __name__ == "__main__":
    main()
