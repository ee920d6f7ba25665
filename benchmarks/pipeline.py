"""Benchmark: the main job end to end, against the engine alone, in one run.

Usage (from the repository root)::

    python benchmarks/pipeline.py [--runs 3] [--million 1000000] [--jobs 1 2] [--only SECTION ...]

For each file (17-clue, forum-hardest 11+, Kaggle CSV) prints puzzles/s (median of ``--runs``)
of the compiled engine alone (``sudokit.fast.solve_batch`` on decoded arrays, one thread), of the
NumPy entry point ``sudokit.solve_array`` (decoding excluded, verification included), and of
the whole ``sudokit solve FILE`` command (a subprocess writing to a file, every solution
verified), after start-up and including it, with one job and with ``--jobs 2``; ratios are
against the engine alone. Then the whole command on files of ``--million`` lines (the 17-clue
set repeated, and the Kaggle CSV rows with their solution column), medians of ``--runs``, with
the maximum resident memory; ``--dask local -j2`` against ``-j2``; and the
start-up (wall seconds of a fresh process) of ``sudokit solve`` on one puzzle, ``sudokit --help``,
``sudokit methods`` and ``sudokit solve`` on 100 17-clue lines (the compiled engine loaded),
against ``python -c pass`` in the same run. ``--only startup million`` runs some sections only;
``--baseline TREE`` measures another source tree too in those two sections (before/after in one
run: ``git worktree add /tmp/base COMMIT``, then ``--baseline /tmp/base``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import DATA, ROOT, load, median_seconds, print_header

from sudokit import solve_array
from sudokit.fast import solve_batch

FILES = [
    "tdoku/puzzles2_17_clue",
    "tdoku/puzzles5_forum_hardest_1905_11+_first20000",
    "csv/kaggle_first5000.csv",
]
SUDOKIT = [sys.executable, "-m", "sudokit"]


def tree_env(tree: Path | None) -> dict[str, str] | None:
    """The environment that runs ``python -m sudokit`` from another source tree (its ``src``
    first on ``PYTHONPATH``), or None for this checkout."""
    if tree is None:
        return None
    return {**os.environ, "PYTHONPATH": str(Path(tree).resolve() / "src")}


def trees(args: argparse.Namespace) -> list[tuple[str, dict[str, str] | None]]:
    """(label, environment) of each source tree to measure: ``--baseline`` first, if given."""
    here = [("this tree", None)]
    return [("baseline", tree_env(args.baseline)), *here] if args.baseline else here


def run_cli(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Run ``sudokit solve ...``; return (wall seconds, start-up seconds, solving seconds) read
    from its summary."""
    start = time.perf_counter()
    done = subprocess.run([*SUDOKIT, "solve", *args], capture_output=True, text=True, cwd=ROOT,
                          check=False, env=env)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(done.stderr)
    fields = {}
    for line in done.stderr.splitlines():
        parts = line.replace("│", " ").split()
        if len(parts) >= 3 and parts[0] in ("start-up", "solving"):
            fields[parts[0]] = float(parts[-1].replace(",", ""))
    return wall, fields.get("start-up", 0.0), fields.get("solving", wall)


def files(args: argparse.Namespace) -> None:
    """Per file, ``--runs`` rounds of: the engine alone, ``solve_array``, the CLI with each
    ``--jobs``, one after the other. Figures are medians over the rounds; each ratio is the
    median of the rounds' ratios (each against the engine measured in the same round, seconds
    before: this VM's speed drifts by 10-30% within minutes, which a ratio of medians measured
    minutes apart would take for a difference of the pipeline)."""
    print_header(f"puzzles/s, median of {args.runs} rounds (engine, entry and CLI runs "
                 "interleaved); ratio to the engine alone of the same round, median",
                 ["file".ljust(48), "puzzles", "engine", "solve_array",
                  *[f"CLI -j{j} (after start-up / whole run)" for j in args.jobs]])
    for relative in FILES:
        puzzles = load(relative)
        givens = np.array([p.givens for p in puzzles], np.uint8)
        solve_batch(givens[:10])
        count = len(givens)
        rounds: list[dict[str, float]] = []
        with tempfile.TemporaryDirectory() as tmp:
            out = str(Path(tmp) / "out.txt")
            for _ in range(args.runs):
                row = {"engine": median_seconds(lambda g=givens: solve_batch(g), 1),
                       "entry": median_seconds(lambda g=givens: solve_array(g), 1)}
                for jobs in args.jobs:
                    wall, _, solving = run_cli([str(DATA / relative), "--output", out,
                                                "-j", str(jobs)])
                    row[f"after{jobs}"], row[f"whole{jobs}"] = solving, wall
                rounds.append(row)
        rate = {key: count / statistics.median(r[key] for r in rounds) for key in rounds[0]}
        ratio = {key: statistics.median(r["engine"] / r[key] for r in rounds) for key in rounds[0]}
        cells = [f"{rate['engine']:>10,.0f}", f"{rate['entry']:>10,.0f} ({ratio['entry']:.2f}x)"]
        cells += [f"{rate[f'after{j}']:>9,.0f} ({ratio[f'after{j}']:.2f}x) / "
                  f"{rate[f'whole{j}']:>9,.0f}" for j in args.jobs]
        print(f"{relative:<48} {count:>7}  " + "  ".join(cells))


MILLION = [("17-clue", "tdoku/puzzles2_17_clue", b""),
           ("Kaggle CSV", "csv/kaggle_first5000.csv", b"quizzes,solutions\n")]
"""The big files: (label, source file repeated to ``--million`` lines, header line)."""


def million(args: argparse.Namespace) -> None:
    """The whole command on ``--million`` lines of each :data:`MILLION` source (every solution
    verified; the Kaggle rows also against their solution column): medians of ``--runs``."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, relative, header in MILLION:
            source = (DATA / relative).read_bytes().splitlines(keepends=True)
            lines = [ln for ln in source if ln[:1].isdigit() or ln[:1] == b"."]
            path = Path(tmp) / "million.txt"
            with open(path, "wb") as fh:
                fh.write(header)
                fh.writelines(lines[i % len(lines)] for i in range(args.million))
            print_header(f"whole `sudokit solve` on {args.million:,} {name} lines (including "
                         f"start-up, output to a file), median of {args.runs}")
            for jobs in args.jobs:
                for label, env in trees(args):
                    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                    runs = [run_cli([str(path), "--output", str(Path(tmp) / "o.txt"), "-j",
                                     str(jobs)], env) for _ in range(args.runs)]
                    wall, startup, solving = (statistics.median(r[k] for r in runs)
                                              for k in range(3))
                    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                    print(f"{label:<10} -j{jobs}: {args.million / wall:>10,.0f} puzzles/s whole "
                          f"run ({wall:.2f} s, start-up {startup:.2f} s, other "
                          f"{wall - startup - solving:.2f} s), {args.million / solving:,.0f}/s "
                          f"after start-up; max RSS {max(rss, before) / 1024:.0f} MB (largest "
                          "child so far)")


def dask(args: argparse.Namespace) -> None:
    """``--dask local --jobs 2`` against ``--jobs 2`` on the same files (whole runs)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("\n(--dask local skipped: pip install 'sudokit[dask]')")
        return
    print_header(f"--dask local -j2 against -j2, whole run, seconds (median of {args.runs})")
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "out.txt")
        for relative, method in [(FILES[0], "fast"), (FILES[1], "fast"),
                                 ("tdoku/puzzles3_magictour_top1465", "propagate")]:
            walls = []
            for extra in ([], ["--dask", "local"]):
                args_ = [str(DATA / relative), "--output", out, "-j", "2", "-m", method, *extra]
                walls.append(statistics.median(run_cli(args_)[0] for _ in range(args.runs)))
            print(f"{relative:<48} {method:<10} -j2 {walls[0]:6.2f} s   --dask local "
                  f"{walls[1]:6.2f} s   ({walls[1] / walls[0]:.2f}x)")


def startup(args: argparse.Namespace) -> None:
    """Wall seconds of light commands in fresh processes, against the interpreter alone
    (``python -c pass``) in the same run, with the issue's targets."""
    print_header(f"start-up, wall seconds (median of {args.runs}, warm kernel cache, runs "
                 "interleaved); ratio to `python -c pass` in the same run")
    puzzle = (DATA / "norvig/sudoku-top95.txt").read_text().split()[0]
    source = (DATA / FILES[0]).read_bytes().splitlines(keepends=True)
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "hundred.txt"
        small.write_bytes(b"".join([ln for ln in source if not ln.startswith(b"#")][:100]))
        rows = [("python -c pass", [sys.executable, "-c", "pass"], None),
                ("sudokit solve <one 9x9 puzzle>", [*SUDOKIT, "solve", puzzle], 0.5),
                ("sudokit --help", [*SUDOKIT, "--help"], 0.3),
                ("sudokit methods", [*SUDOKIT, "methods"], 0.3),
                ("sudokit solve <100 17-clue lines>",
                 [*SUDOKIT, "solve", str(small), "--output", str(Path(tmp) / "o.txt")], None)]
        labels = [label for label, _ in trees(args)]
        print("  ".join(["command".ljust(34), *[f"{label:>10}" for label in labels],
                         "ratio to python -c pass", "target"]))
        base = None
        for name, command, target in rows:
            seconds = _interleaved(command, [env for _, env in trees(args)], args.runs)
            base = base or seconds
            ratios = " / ".join(f"{t / b:.1f}x" for t, b in zip(seconds, base, strict=True))
            print(f"{name:<34}  " + "  ".join(f"{t:10.3f}" for t in seconds)
                  + f"  {ratios:<23}" + (f"  <= {target} s" if target else ""))


def _interleaved(command: list[str], envs: list[dict[str, str] | None],
                 runs: int) -> list[float]:
    """Median wall seconds of ``command`` in each environment, runs interleaved (one warm-up
    each first) so that a change of the machine's load hits every tree alike."""
    def once(env: dict[str, str] | None) -> float:
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, cwd=ROOT, check=False, env=env)
        return time.perf_counter() - start

    for env in envs:
        once(env)
    times: list[list[float]] = [[] for _ in envs]
    for _ in range(runs):
        for i, env in enumerate(envs):
            times[i].append(once(env))
    return [statistics.median(t) for t in times]


SECTIONS = {"files": files, "million": million, "dask": dask, "startup": startup}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per figure (median)")
    parser.add_argument("--million", type=int, default=1_000_000, help="lines of the big file")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="--jobs values")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another source tree (e.g. a git worktree of an older commit) to "
                        "measure too in the start-up and million sections, interleaved")
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS),
                        help="run these sections only (default: all)")
    args = parser.parse_args()
    for name in args.only:
        if name != "million" or args.million:
            SECTIONS[name](args)


if __name__ == "__main__":
    main()
