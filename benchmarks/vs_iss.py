"""Benchmark: sudokit side by side with sigh's Interactive Sudoku Solver (ISS) on the published
drawn-rule puzzles of ``tests/data/rules`` (issue 38), counting to 2.

Usage (from the repository root)::

    ISS_DIR=/tmp/iss python benchmarks/vs_iss.py [--rounds 5] [--method portfolio]
                                                 [--time-limit 30] [--only TEXT] [--list]
    python benchmarks/vs_iss.py --trees /tmp/before /tmp/after [--rounds 5] [--only TEXT]

``--trees A B`` compares two sudokit checkouts (``git archive REV | tar -x -C DIR``) instead:
one worker process each, the same puzzle timed by each in turn, the order swapped every round.

ISS is a peer, never a dependency: ``ISS_DIR`` names a checkout of
``sigh/Interactive-Sudoku-Solver`` (its ``js/`` and ``tests/helpers/``), run by ``node``
through ``benchmarks/iss_runner.mjs``; without ``ISS_DIR`` or ``node`` only sudokit is timed
(and the ISS columns are left empty). Each puzzle (every 9x9 one of the folder: the
``sigh_*.json`` f-puzzles files and ``variant_solver_js_ci.json``, set ``rules``; the
``heldout_*.json`` lists, set ``heldout``; the SudokuPad links of ``sudokupad_links.txt``
that sudokit reads, set ``sudokupad``, their link decoded inside the timed call; the hard
puzzles of ISS's own collection in ``iss_collections.json``, set ``hard``) is given to
ISS as its constraint string (``benchmarks/iss_adapter.py``); both sides must prove it unique
with the published solution (a puzzle either side fails is reported and left out of the
figures).

Timed, per puzzle, the whole library call a setter's tool makes: sudokit parses the f-puzzles
JSON text (the lists' compressed entries are decompressed beforehand) and calls
``count_solutions(puzzle, method, limit=2)`` (model, lowering, search and verification of
every solution); ISS parses its constraint string, builds its solver and calls
``countSolutions(2)``. sudokit's tables of a puzzle (by geometry) are cleared before each
call (``--reuse`` keeps them), those of a rule's shape kept. One warm-up pass each (compiled
kernels loaded, JIT warm), then
``--rounds`` interleaved rounds (sudokit over every puzzle, then ISS over every puzzle, in
turn), one process each, so a drift in the machine's speed hits both. Per puzzle the median
wall and CPU ms over the rounds, and both search-node counters (sudokit ``stats.nodes``, ISS
``nodesSearched``). Printed: the issue's table per set (medians, geometric mean of the
per-puzzle ratios sudokit / ISS, wall and CPU, puzzles where sudokit is faster), then the
worst puzzles by ratio (every puzzle with ``--list``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT
from iss_adapter import Unsupported, iss_specs

from sudokit import count_solutions
from sudokit.fast.drawn import drawn_for
from sudokit.fast.tables import _puzzle_tables
from sudokit.errors import InvalidPuzzle
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.formats.sudokupad import link_puzzle, split_link
from sudokit.model.geometry import _puzzle_geometry
from sudokit.model.implied import implied_sums
from sudokit.model.puzzle import _unit_table, _variant_tables

RULES = ROOT / "tests" / "data" / "rules"


def sources() -> list[tuple[str, str, object, str]]:
    """(set, name, parse, solution) per 9x9 puzzle: ``parse()`` reads the f-puzzles JSON text
    into a Puzzle (the part of the timed call that parses; the lists' entries are decompressed
    beforehand, untimed, as ISS is given its string uncompressed)."""
    found = []
    for path in sorted(RULES.glob("sigh_*.json")):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        found.append(("rules", path.stem[5:], lambda t=text: fpuzzles_puzzle(json.loads(t)),
                      "".join(map(str, data["solution"]))))
    lists = [("rules", RULES / "variant_solver_js_ci.json")] + [
        ("heldout", p) for p in sorted(RULES.glob("heldout_*.json"))] + [
        ("hard", RULES / "iss_collections.json")]
    for group, path in lists:
        for item in json.loads(path.read_text(encoding="utf-8")):
            if "refused" in item:
                continue
            text = json.dumps(decode_fpuzzles(item["puzzle"])[0])  # stored compressed
            found.append((group, item["title"],
                          lambda t=text: fpuzzles_puzzle(json.loads(t)),
                          "".join(str(int(d)) for d in item["solution"])))
    for line in (RULES / "sudokupad_links.txt").read_text(encoding="utf-8").splitlines():
        link = None if line.startswith("#") else split_link(line.strip())
        if link is None:
            continue
        try:
            puzzle, solution = link_puzzle(link)
        except InvalidPuzzle:  # a link form sudokit does not read (listed in the file)
            continue
        if solution is not None:
            kinds = ",".join(sorted(puzzle.geometry.features)) or "classic"
            found.append(("sudokupad", f"sudokupad {kinds}", lambda k=link: link_puzzle(k)[0],
                          "".join(map(str, solution))))
    return [s for s in found if s[2]().geometry.side == 9]


PER_PUZZLE = [_puzzle_geometry, _puzzle_tables, drawn_for, implied_sums, _unit_table,
              _variant_tables]
"""sudokit's caches of one puzzle's own tables (by geometry): cleared before each timed call
unless ``--reuse``, so every call pays what a puzzle new to the process pays (ISS builds
everything per call); the tables of a rule's shape (a pair relation's digit pairs, a sandwich
clue's automaton) stay, as in a process that has seen other puzzles."""


def sudokit_once(parse, method: str | None, time_limit: float, reuse: bool = False) -> dict:
    """One timed call: parse, count to 2; wall and CPU ms, nodes, count and grid."""
    if not reuse:
        for cached in PER_PUZZLE:
            cached.cache_clear()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    result = count_solutions(parse(), method, limit=2, time_limit=time_limit)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    grid = "".join(map(str, result.solution)) if result.solution else ""
    return {"wall_ms": wall * 1e3, "cpu_ms": cpu * 1e3, "nodes": result.stats.nodes or 0,
            "solutions": result.count, "grid": grid}


class Iss:
    """The ISS process (``iss_runner.mjs``): checks at start, one JSON line per round."""

    def __init__(self, iss_dir: str, puzzles: list[dict]) -> None:
        self._file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(puzzles, self._file)
        self._file.close()
        self._proc = subprocess.Popen(
            ["node", str(ROOT / "benchmarks" / "iss_runner.mjs"), iss_dir, self._file.name],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.checks = json.loads(self._proc.stdout.readline())["checks"]

    def round(self) -> list[dict | None]:
        self._proc.stdin.write("round\n")
        self._proc.stdin.flush()
        return json.loads(self._proc.stdout.readline())

    def close(self) -> None:
        self._proc.stdin.write("quit\n")
        self._proc.stdin.close()
        self._proc.wait()
        os.unlink(self._file.name)


def start_iss(entries: list) -> Iss | None:
    """The ISS process over ``entries`` when ``ISS_DIR`` and ``node`` are there, else None."""
    iss_dir = os.environ.get("ISS_DIR")
    if not iss_dir or not shutil.which("node") or not Path(iss_dir, "js").is_dir():
        print("ISS_DIR (a checkout of sigh/Interactive-Sudoku-Solver) or node missing: "
              "sudokit alone")
        return None
    puzzles = []
    for _, name, parse, solution in entries:
        try:
            specs = iss_specs(parse())
        except Unsupported as exc:
            print(f"{name}: not given to ISS ({exc})")
            specs = []
        puzzles.append({"name": name, "specs": specs, "solution": solution})
    return Iss(iss_dir, puzzles)


def median_of(rows: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def geomean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


def report(entries, ours, theirs, listing: bool) -> None:
    """Print the issue's table per set, then the worst puzzles (every one with ``listing``)."""
    rows = []
    for k, (group, name, _, _) in enumerate(entries):
        s = ours[k]
        i = theirs[k] if theirs else None
        rows.append((group, name, s, i))
    print("\n| set | puzzles | sudokit median ms | ISS median ms | sudokit / ISS geometric mean, "
          "wall (CPU) | puzzles where sudokit is faster, wall (CPU) | nodes sudokit / ISS |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for group in ("rules", "heldout", "sudokupad", "hard", "all"):
        chosen = [r for r in rows if group in ("all", r[0]) and r[2]]
        if not chosen:
            continue
        both = [r for r in chosen if r[3]]
        ours_ms = statistics.median(r[2]["wall_ms"] for r in chosen) if chosen else float("nan")
        if not both:
            print(f"| {group} | {len(chosen)} | {ours_ms:.2f} | | | | |")
            continue
        wall = geomean([r[2]["wall_ms"] / r[3]["wall_ms"] for r in both])
        cpu = geomean([r[2]["cpu_ms"] / r[3]["cpu_ms"] for r in both])
        faster = sum(r[2]["wall_ms"] < r[3]["wall_ms"] for r in both)
        faster_cpu = sum(r[2]["cpu_ms"] < r[3]["cpu_ms"] for r in both)
        nodes = (sum(r[2]["nodes"] for r in both), sum(r[3]["nodes"] for r in both))
        print(f"| {group} | {len(both)} | {ours_ms:.2f} | "
              f"{statistics.median(r[3]['wall_ms'] for r in both):.2f} | {wall:.2f}x ({cpu:.2f}x) "
              f"| {faster} ({faster_cpu}) | {nodes[0]:,} / {nodes[1]:,} |")
    shown = sorted((r for r in rows if r[2]), key=lambda r: -(
        r[2]["wall_ms"] / r[3]["wall_ms"] if r[3] else r[2]["wall_ms"]))
    print(f"\n{'puzzle':40s} {'sudokit ms':>11s} {'nodes':>9s} {'ISS ms':>9s} {'nodes':>9s} "
          f"{'ratio':>8s} {'CPU ms':>8s} {'ISS CPU':>8s} {'CPU ratio':>9s}")
    for group, name, s, i in shown if listing else shown[:15]:
        ratio = f"{s['wall_ms'] / i['wall_ms']:.2f}x" if i else ""
        iss = f"{i['wall_ms']:9.2f} {i['nodes']:9,d}" if i else " " * 19
        cpu = f"{i['cpu_ms']:8.2f} {s['cpu_ms'] / i['cpu_ms']:8.2f}x" if i else ""
        print(f"{name[:40]:40s} {s['wall_ms']:11.2f} {s['nodes']:9,d} {iss} {ratio:>8s} "
              f"{s['cpu_ms']:8.2f} {cpu}")


class Tree:
    """A worker process timing the puzzles with the sudokit of one checkout (``tree/src``, its
    compiled kernels cached in ``tree/.numba_cache``): one puzzle number per line in, one
    :func:`sudokit_once` row (JSON) out."""

    def __init__(self, tree: str, args: argparse.Namespace) -> None:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tree, ".numba_cache")))
        flags = ["--worker", "--only", args.only, "--time-limit", str(args.time_limit)]
        flags += ["--method", args.method] if args.method else []
        flags += ["--reuse"] if args.reuse else []
        # the tree's sudokit imported first: common.py then puts this checkout's src first in
        # vain (the package and its modules load from the tree's)
        start = (f"import sys, runpy; sys.path.insert(0, {str(Path(tree, 'src'))!r}); "
                 f"import sudokit; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
                 f"sys.argv = {[__file__, *flags]!r}; "
                 f"runpy.run_path({__file__!r}, run_name='__main__')")
        self._proc = subprocess.Popen([sys.executable, "-c", start], env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def once(self, k: int) -> dict:
        self._proc.stdin.write(f"{k}\n")
        self._proc.stdin.flush()
        return json.loads(self._proc.stdout.readline())

    def close(self) -> None:
        self._proc.stdin.close()
        self._proc.wait()


def worker(args: argparse.Namespace) -> None:
    """``--worker``: the loop of a :class:`Tree` process."""
    entries = [e for e in sources() if args.only.lower() in e[1].lower()]
    import sudokit  # noqa: PLC0415 (the tree's, see Tree)

    print(json.dumps({"sudokit": sudokit.__file__}), file=sys.stderr, flush=True)
    for line in sys.stdin:
        parse = entries[int(line)][2]
        print(json.dumps(sudokit_once(parse, args.method, args.time_limit, args.reuse)),
              flush=True)


def compare_trees(entries: list, paths: list[str], args: argparse.Namespace) -> None:
    """``--trees A B``: two sudokit checkouts timed puzzle by puzzle in turn (A then B, B then
    A in the next round), so both see the same load; per puzzle the median ratio B / A."""
    trees = [Tree(p, args) for p in paths]
    runs: list[list[list[dict]]] = [[[] for _ in entries] for _ in trees]
    for k in range(len(entries)):  # warm-up: kernels loaded, answers compared
        rows = [t.once(k) for t in trees]
        if rows[0]["nodes"] != rows[1]["nodes"] or rows[0]["grid"] != rows[1]["grid"]:
            print(f"{entries[k][1]}: nodes {rows[0]['nodes']} / {rows[1]['nodes']}")
    for r in range(args.rounds):
        for k in range(len(entries)):
            for i in (0, 1) if (r + k) % 2 == 0 else (1, 0):
                runs[i][k].append(trees[i].once(k))
    for t in trees:
        t.close()
    print(f"B = {paths[1]} / A = {paths[0]}, {args.rounds} rounds, count to 2, medians")
    print(f"{'puzzle':40s} {'A ms':>9s} {'B ms':>9s} {'B/A':>6s} {'nodes A':>8s} {'nodes B':>8s}")
    ratios, cpu = [], [0.0, 0.0]
    for k, entry in enumerate(entries):
        a, b = (median_of(runs[i][k], "cpu_ms") for i in (0, 1))
        cpu[0], cpu[1] = cpu[0] + a, cpu[1] + b
        ratios.append(b / a)
        print(f"{entry[1][:40]:40s} {a:9.2f} {b:9.2f} {b / a:6.2f} "
              f"{runs[0][k][0]['nodes']:8,d} {runs[1][k][0]['nodes']:8,d}")
    print(f"CPU B / A: geometric mean {geomean(ratios):.3f}x, median "
          f"{statistics.median(ratios):.3f}x, sum {cpu[1]:.0f} / {cpu[0]:.0f} ms; B faster on "
          f"{sum(x < 1 for x in ratios)} of {len(ratios)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved timed rounds")
    parser.add_argument("--method", default=None, help="sudokit method (default: the default)")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per sudokit call")
    parser.add_argument("--only", default="", help="puzzles whose name contains this text")
    parser.add_argument("--list", action="store_true", help="print every puzzle")
    parser.add_argument("--reuse", action="store_true",
                        help="keep each puzzle's tables between rounds (see PER_PUZZLE)")
    parser.add_argument("--trees", nargs=2, metavar=("A", "B"),
                        help="time two sudokit checkouts against each other (no ISS)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    entries = [e for e in sources() if args.only.lower() in e[1].lower()]
    if args.trees:
        return compare_trees(entries, args.trees, args)
    iss = start_iss(entries)
    bad = set()
    for k, (_, name, parse, solution) in enumerate(entries):  # warm-up and check
        first = sudokit_once(parse, args.method, args.time_limit)
        if first["solutions"] != 1 or first["grid"] != solution:
            print(f"{name}: sudokit {first['solutions']} solution(s), not proved unique with the "
                  "published grid (left out)")
            bad.add(k)
        if iss and not iss.checks[k]["ok"]:
            print(f"{name}: ISS {iss.checks[k]['why']} (left out)")
            bad.add(k)
    ours: list[list[dict]] = [[] for _ in entries]
    theirs: list[list[dict]] = [[] for _ in entries]
    for _ in range(args.rounds):
        for k, (_, _, parse, _) in enumerate(entries):
            if k not in bad:
                ours[k].append(sudokit_once(parse, args.method, args.time_limit, args.reuse))
        if iss:
            for k, row in enumerate(iss.round()):
                if row and k not in bad:
                    theirs[k].append(row)
    if iss:
        iss.close()

    def medians(runs: list[dict]) -> dict | None:
        if not runs:
            return None
        return {key: median_of(runs, key) for key in ("wall_ms", "cpu_ms")} | {
            "nodes": runs[0]["nodes"]}

    print(f"method {args.method or 'default'}, {args.rounds} interleaved rounds, count to 2, "
          f"{'tables reused' if args.reuse else 'each puzzle new to the process'}")
    report(entries, [medians(r) for r in ours], [medians(r) for r in theirs] if iss else None,
           args.list)


if __name__ == "__main__":
    main()
