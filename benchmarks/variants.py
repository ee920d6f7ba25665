"""Benchmark: every method on every variant type of ``../shared/data/janko``, with puzzlekit
(OR-Tools CP-SAT models of the same types) as the external anchor.

Usage (from the repository root)::

    python benchmarks/variants.py [--count 10] [--runs 3] [--time-limit 2] [--types ...]
                                  [--methods ...] [--no-puzzlekit]

For each type (folder of ``janko/``: 16x16, jigsaw, killer, even/odd and the overlapping
multi-grid types) the first ``--count`` puzzles are read with :func:`sudokit.formats.janko.
read_janko`; every available method whose ``supports`` accepts their geometry solves each of
them through ``sudokit.solve`` (one puzzle at a time, verification included, after one untimed
warm-up solve), ``--runs`` times (the default method also as one ``sudokit.solve_many`` call
over all of them, "(batch)": the path of ``sudokit solve FILE``); a puzzle's time is the median of its runs. Printed per type
and method: puzzles/s (puzzles over the sum of their median times), the median milliseconds
per puzzle, time-outs (``--time-limit`` seconds, not re-run), grids different from the
published solution, and the ratio of puzzles/s to the default method in the same run.
puzzlekit (``pip install puzzlekit``; never a dependency of sudokit) runs on the same files
(one CP-SAT worker) when installed.

Targets of issue 16: killer 9x9 median <= 5 ms and samurai <= 20 ms with the default method.

Drawn rules (issue 26: thermometers, arrows, dots, lines, outside clues; ``--rules``, default
``tests/data/rules``): the real puzzles of that folder (read by ``sudokit.formats.read_puzzles``
with their published solutions), grouped by the rule kinds they use (``pair-relation``,
``linear-sum``, ``sequence`` ...; a puzzle counts in each of its kinds); every available method
that declares those kinds solves each, OR-Tools CP-SAT with one worker (``cpsat``, option
``workers=1``) beside them as the external anchor; printed as above plus ``unique`` (puzzles
whose uniqueness the method proved, one untimed ``count_solutions(limit=2)``) and the ratio of
puzzles/s to CP-SAT. ``--rules-only`` skips the janko types.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import statistics
import time
from pathlib import Path

from common import DATA, ROOT

from sudokit import count_solutions, solve, solve_many
from sudokit.formats import read_puzzles
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.formats.janko import read_janko
from sudokit.registry import default_method, get_solver, methods

JANKO = DATA / "janko"
RULES = ROOT / "tests" / "data" / "rules"


def published(problem: Path) -> tuple[int, ...]:
    """The digits of a puzzle's solution file, in cell order (empty when the file has none)."""
    tokens = (problem.parent.parent / "solutions" / problem.name).read_text().split()[2:]
    return tuple(int(t) for t in tokens if t.isdigit())


def puzzlekit_type(folder: str) -> str:
    """``KillerSudoku`` -> ``killer_sudoku``, ``Clueless1Sudoku`` -> ``clueless_1_sudoku``,
    ``16x16Sudoku`` -> ``sudoku``."""
    if folder.startswith("16x16"):
        return "sudoku"
    return re.sub(r"(?<!^)(?=[A-Z]|(?<![0-9])[0-9])", "_", folder).lower()


def time_method(method: str, puzzles: list, runs: int, limit: float,
                expected: list | None = None, **options: object) -> dict:
    """Solve every puzzle ``runs`` times; per puzzle the median seconds, time-outs, wrong
    (against ``expected``, default each janko path's published solution)."""
    expected = expected or [published(path) for path, _ in puzzles]
    solve(puzzles[0][1], method, time_limit=limit, **options)  # warm-up: kernels, imports
    seconds, timeouts, wrong = [], 0, 0
    for (_, puzzle), solution in zip(puzzles, expected):
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            result = solve(puzzle, method, time_limit=limit, **options)
            times.append(time.perf_counter() - start)
            if result.status.name != "SOLVED":
                break
        if result.status.name != "SOLVED":
            timeouts += 1
            seconds.append(limit)
            continue
        wrong += bool(solution) and tuple(result.solutions[0]) != tuple(solution)
        seconds.append(statistics.median(times))
    return {"seconds": seconds, "timeouts": timeouts, "wrong": wrong}


def time_batch(method: str, puzzles: list, runs: int, limit: float) -> dict:
    """All puzzles in one ``sudokit.solve_many`` call (grouped by geometry, chunk path,
    verification on arrays), ``runs`` times; every puzzle gets the median call time / count."""
    batch = [puzzle for _, puzzle in puzzles]
    times, results = [], []
    for _ in range(runs):
        start = time.perf_counter()
        results = solve_many(batch, method, time_limit=limit)
        times.append(time.perf_counter() - start)
    share = statistics.median(times) / len(batch)
    wrong = sum(bool(published(path)) and r.status.name == "SOLVED"
                and tuple(r.solutions[0]) != published(path)
                for (path, _), r in zip(puzzles, results))
    timeouts = sum(r.status.name != "SOLVED" for r in results)
    return {"seconds": [share] * len(batch), "timeouts": timeouts, "wrong": wrong}


def time_puzzlekit(folder: str, puzzles: list, runs: int, limit: float) -> dict | None:
    """The same puzzles through puzzlekit (its own reader on the same files), or None."""
    try:
        import puzzlekit
    except ImportError:
        return None
    kind = puzzlekit_type(folder)
    options = {"num_search_workers": 1, "time_limit_sec": limit}
    seconds, timeouts, wrong = [], 0, 0
    quiet = io.StringIO()
    for path, _ in puzzles:
        text = re.sub(r"(?<=\s)\.(?=\s)", "-", path.read_text())  # no-grid cells as '-'
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            with contextlib.redirect_stdout(quiet):
                result = puzzlekit.solve(text, kind, solver_options=options)
            times.append(time.perf_counter() - start)
        if not result.is_solved:
            timeouts += 1
            seconds.append(limit)
            continue
        grid = str(result.solution_data.get("solution_grid", "")).split()[2:]
        digits = tuple(int(t) for t in grid if t.isdigit())
        expected = published(path)
        wrong += bool(expected) and digits != expected
        seconds.append(statistics.median(times))
    return {"seconds": seconds, "timeouts": timeouts, "wrong": wrong}


def row(folder: str, name: str, figures: dict, base: float | None) -> str:
    total = sum(figures["seconds"])
    rate = len(figures["seconds"]) / total if total else float("inf")
    ratio = f"{rate / base:6.2f}x" if base else "   1.00x"
    median = statistics.median(figures["seconds"]) * 1e3
    return (f"{folder:18s} {name:18s} {rate:10,.1f} {median:10.2f} {figures['timeouts']:9d} "
            f"{figures['wrong']:6d}  {ratio}")


def rule_puzzles(path: Path) -> list:
    """``(where, puzzle, solution)`` of a file: any form ``read_puzzles`` reads with solutions,
    or a JSON list of ``{"puzzle": compressed f-puzzles data, "solution": ...}`` entries (the
    CI list of SudokuVariantSolverJS)."""
    records = [r for r in read_puzzles(path) if r.puzzle is not None and r.expected is not None]
    if records or path.suffix != ".json":
        return [((path.name, r.line), r.puzzle, r.expected) for r in records]
    entries = json.loads(path.read_text())
    return [((path.name, e.get("title")), fpuzzles_puzzle(decode_fpuzzles(e["puzzle"])[0]),
             tuple(map(int, e["solution"]))) for e in entries if "puzzle" in e]


def rule_sets(folder: Path) -> dict[str, list]:
    """The puzzles of ``folder`` with drawn rules, by rule kind (a puzzle in each of its
    kinds): ``(where, puzzle, solution)``."""
    groups: dict[str, list] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix != ".md"):
        for item in rule_puzzles(path):
            for kind in sorted({k.kind for k in item[1].constraints}) or ["(none)"]:
                groups.setdefault(kind, []).append(item)
    return groups


def proved_unique(method: str, puzzles: list, limit: float, **options: object) -> int:
    """How many puzzles the method proves to have exactly one solution (untimed)."""
    return sum(count_solutions(p, method, limit=2, time_limit=limit, **options).status.name
               == "SOLVED" for _, p in puzzles)


def bench_rules(folder: Path, args: argparse.Namespace) -> None:
    """The drawn-rule puzzles of ``folder``, each kind's set by every method beside CP-SAT."""
    default = default_method()
    available = [m.name for m in methods() if m.available]
    print(f"\ndrawn rules: puzzles of {folder} by rule kind; median of {args.runs} runs; "
          f"ratio: puzzles/s over cpsat (1 worker); unique: proved by count_solutions(limit=2)")
    print(f"{'kind':18s} {'method':18s} {'puzzles/s':>10s} {'median ms':>10s} "
          f"{'time-outs':>9s} {'wrong':>6s}  {'ratio':>7s} unique")
    for kind, group in rule_sets(folder).items():
        puzzles = [(where, puzzle) for where, puzzle, _ in group]
        expected = [solution for _, _, solution in group]
        names = [m for m in (args.methods or available)
                 if all(get_solver(m).supports(p.geometry) for _, p in puzzles)]
        names = (["cpsat"] if "cpsat" in names else []) + sorted(
            (m for m in names if m != "cpsat"), key=lambda m: m != default)
        base = None
        for name in names:
            options = {"workers": 1} if name == "cpsat" else {}
            figures = time_method(name, puzzles, args.runs, args.time_limit, expected,
                                  **options)
            unique = proved_unique(name, puzzles, args.time_limit, **options)
            label = "cpsat (1 worker)" if name == "cpsat" else name
            print(f"{row(kind, label, figures, base)} {unique:3d}/{len(puzzles)}", flush=True)
            if base is None and name == "cpsat":
                base = len(figures["seconds"]) / sum(figures["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="puzzles per type")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per puzzle (median)")
    parser.add_argument("--time-limit", type=float, default=2.0, help="seconds per puzzle")
    parser.add_argument("--types", nargs="+", help="folders of janko/ (default: every one)")
    parser.add_argument("--methods", nargs="+", help="methods (default: every available one "
                        "that supports the type)")
    parser.add_argument("--no-puzzlekit", action="store_true", help="skip the puzzlekit anchor")
    parser.add_argument("--rules", type=Path, default=RULES,
                        help="folder of puzzles with drawn rules and their solutions")
    parser.add_argument("--rules-only", action="store_true", help="skip the janko types")
    args = parser.parse_args()
    if not args.rules_only:
        bench_janko(args)
    bench_rules(args.rules, args)


def bench_janko(args: argparse.Namespace) -> None:
    """Every janko type by every method beside puzzlekit (see the module docstring)."""
    folders = args.types or sorted(p.name for p in JANKO.iterdir() if p.is_dir())
    default = default_method()
    available = [m.name for m in methods() if m.available]
    print(f"puzzles of ../shared/data/janko, first {args.count} per type; median of "
          f"{args.runs} runs; time limit {args.time_limit} s; ratio: puzzles/s over the "
          f"default method ({default})")
    print(f"{'type':18s} {'method':18s} {'puzzles/s':>10s} {'median ms':>10s} "
          f"{'time-outs':>9s} {'wrong':>6s}  ratio")
    for folder in folders:
        paths = sorted((JANKO / folder / "problems").glob("*.txt"),
                       key=lambda p: int(p.name.split("_")[0]))[:args.count]
        puzzles = [(p, read_janko(p)) for p in paths]
        geometry = puzzles[0][1].geometry
        names = [m for m in (args.methods or available)
                 if get_solver(m).supports(geometry)]
        names.sort(key=lambda m: m != default)
        base = None
        for name in names:
            figures = time_method(name, puzzles, args.runs, args.time_limit)
            print(row(folder, name, figures, base), flush=True)
            if name == default:
                base = len(figures["seconds"]) / sum(figures["seconds"])
                batch = time_batch(name, puzzles, args.runs, args.time_limit)
                print(row(folder, f"{name} (batch)", batch, base), flush=True)
        if not args.no_puzzlekit:
            figures = time_puzzlekit(folder, puzzles, args.runs, args.time_limit)
            if figures is not None:
                print(row(folder, "puzzlekit (CP-SAT)", figures, base), flush=True)


if __name__ == "__main__":
    main()
