"""Benchmark: sudokit's ratings against Sudoku Explainer's (SE) from 8.5 up, side by side with SE.

Usage (from the repository root)::

    SE_DIR=/tmp/se python benchmarks/vs_se.py [FILE] [--per-band 12] [--time-limit 60]
        [--min-er 8.5] [--max-er 11.9] [--se-sample 6] [--se-timeout 300]
        [--save results.tsv] [--from-saved results.tsv]

``FILE`` (default ``../shared/data/rated/se_tuning.txt``) holds one puzzle a line: 81
characters, then SE's published ER, EP and ED ('-' where none is published) and a source tag;
``#`` lines are comments (see that file's header and ``../shared/data/SOURCES.md``). Up to
``--per-band`` puzzles are taken from each ER half-point band (8.5-8.9, 9.0-9.4, ...), evenly
spaced through it (0: every puzzle), and rated with :func:`sudokit.rate` one at a time, after
one warm-up rating (the compiled kernels loaded). Per band it prints the share of the sample,
Spearman's rank correlation of sudokit's rating with the published ER, the shares within 0.5
and within 0.2 of ER, the share that needed the trial step, the median and 95th-percentile
CPU seconds of one rating (this thread's CPU time: the background compile is not counted)
and sudokit's range of ratings; then the same for the whole sample (Spearman across all
bands: the issue's headline figure).

SE is a peer, never a dependency: ``SE_DIR`` names an extracted ``1to9only/SudokuExplainer``
tree (its ``diuf/``). The script compiles ``serate`` from it with ``javac`` into
``SE_DIR/build`` once (``org.json.simple`` from ``SE_CLASSPATH`` or
``/usr/share/java/json-simple.jar``, Debian's libjson-simple-java), then rates the first
``--se-sample`` puzzles of the sample (spread over the bands) one ``java`` process each (at
most ``--se-timeout`` wall seconds a puzzle) and prints, per puzzle, SE's ER/EP/ED beside the
published ones and sudokit's, with both times (SE's own elapsed time, JVM start-up excluded;
sudokit's CPU time) and their ratio. Without ``SE_DIR``, ``java`` or ``javac`` that part is
skipped with one line saying why.

The machine these figures come from is shared (2 cores, several agents): CPU times are less
noisy than wall times but not free of it; compare runs made together.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from common import DATA

from sudokit import rate

DEFAULT_FILE = DATA / "rated" / "se_tuning.txt"
BANDS = [(8.5 + 0.5 * i, 8.5 + 0.5 * i + 0.45) for i in range(8)]  # 8.5-8.9 ... 12.0-12.4


@dataclass
class Row:
    """One puzzle: SE's published ratings and, once rated, sudokit's."""

    grid: str
    er: float
    ep: float | None
    ed: float | None
    tag: str
    ours: float = math.nan
    ours_ep: float | None = None
    ours_ed: float | None = None
    hardest: str = ""
    trial: bool = False
    cpu: float = math.nan


def _number(text: str) -> float | None:
    return None if text == "-" else float(text)


def read_rows(path: Path) -> list[Row]:
    """Parse a rated file; raise SystemExit naming the file and line on a malformed line."""
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        try:
            if len(parts) < 2 or len(parts[0]) != 81:
                raise ValueError("expected: 81 characters, then ER [EP ED [source]]")
            ep = _number(parts[2]) if len(parts) > 2 else None
            ed = _number(parts[3]) if len(parts) > 3 else None
            rows.append(Row(parts[0], float(parts[1]), ep, ed, " ".join(parts[4:])))
        except ValueError as exc:
            raise SystemExit(f"{path}, line {number}: {exc}") from None
    return rows


def band_of(er: float) -> int:
    return max(0, min(len(BANDS) - 1, int(round((er - 8.5) * 10)) // 5))


def band_label(index: int) -> str:
    low, high = BANDS[index]
    return f"{low:.1f}-{high:.1f}"


def sample_rows(rows: list[Row], per_band: int) -> list[Row]:
    """Up to ``per_band`` rows of each band, evenly spaced (all with 0), in file order."""
    chosen: list[Row] = []
    for index in range(len(BANDS)):
        members = [r for r in rows if band_of(r.er) == index]
        if per_band and len(members) > per_band:
            step = len(members) / per_band
            members = [members[int(i * step)] for i in range(per_band)]
        chosen.extend(members)
    return chosen


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation (average ranks for ties); NaN when one side is constant."""
    def ranks(values: list[float]) -> np.ndarray:
        array = np.asarray(values, dtype=float)
        out = np.empty(len(array))
        out[array.argsort(kind="stable")] = np.arange(len(array), dtype=float)
        for value in np.unique(array):
            out[array == value] = out[array == value].mean()
        return out

    if len(a) < 2:
        return math.nan
    ra, rb = ranks(a), ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return math.nan
    return float(np.corrcoef(ra, rb)[0, 1])


def rate_ours(rows: list[Row], time_limit: float) -> None:
    """Rate every row with sudokit, filling its fields (a time-out counts as trial, NaN)."""
    rate(rows[0].grid, time_limit=None)  # warm-up: compiled kernels loaded
    for done, row in enumerate(rows, 1):
        start = time.thread_time()
        try:
            result = rate(row.grid, time_limit=time_limit)
        except Exception as exc:  # noqa: BLE001 - a benchmark reports and goes on
            row.cpu, row.trial, row.hardest = time.thread_time() - start, True, type(exc).__name__
            continue
        row.cpu = time.thread_time() - start
        row.ours, row.hardest, row.trial = result.rating, result.hardest, result.trial
        row.ours_ep = getattr(result, "pearl", None)
        row.ours_ed = getattr(result, "diamond", None)
        if done % 25 == 0:
            print(f"  rated {done}/{len(rows)}", file=sys.stderr, flush=True)


def _share(flags: list[bool]) -> str:
    return f"{sum(flags) / len(flags):6.0%}" if flags else "     -"


def summary_line(label: str, rows: list[Row], total: int) -> str:
    ours = [r.ours if not math.isnan(r.ours) else 0.0 for r in rows]
    ers = [r.er for r in rows]
    diff = [abs(round(o - e, 1)) for o, e in zip(ours, ers)]
    cpu = sorted(r.cpu for r in rows)
    p95 = cpu[min(len(cpu) - 1, int(math.ceil(0.95 * len(cpu))) - 1)]
    rated = [r.ours for r in rows if not math.isnan(r.ours)]
    span = f"{min(rated):4.1f}-{max(rated):4.1f}" if rated else "   -"
    rho = spearman(ours, ers)
    return (f"{label:<10} {len(rows):>4} {len(rows) / total:5.0%}  "
            f"{'   -  ' if math.isnan(rho) else f'{rho:6.3f}'} {_share([d <= 0.5 for d in diff])} "
            f"{_share([d <= 0.2 for d in diff])} {_share([r.trial for r in rows])} "
            f"{statistics.median(cpu):8.2f} {p95:8.2f}  {span}")


def print_table(rows: list[Row]) -> None:
    print("\nsudokit against SE's published ER, per ER band (CPU seconds of one rating)")
    print(f"{'ER band':<10} {'n':>4} {'share':>5}  {'Spear.':>6} {'<=0.5':>6} {'<=0.2':>6} "
          f"{'trial':>6} {'med s':>8} {'p95 s':>8}  ours")
    for index in range(len(BANDS)):
        members = [r for r in rows if band_of(r.er) == index]
        if members:
            print(summary_line(band_label(index), members, len(rows)))
    print(summary_line("all", rows, len(rows)))
    with_ep = [r for r in rows if r.ours_ep is not None and r.ep is not None]
    if with_ep:
        ep_ok = [abs(r.ours_ep - r.ep) <= 0.5 for r in with_ep if r.ours_ep is not None]
        ed_ok = [abs(r.ours_ed - r.ed) <= 0.5 for r in with_ep
                 if r.ours_ed is not None and r.ed is not None]
        print(f"EP within 0.5: {_share(ep_ok)}   ED within 0.5: {_share(ed_ok)}")
    hardest: dict[str, int] = {}
    for row in rows:
        hardest[row.hardest] = hardest.get(row.hardest, 0) + 1
    print("hardest steps: " + ", ".join(f"{k or '-'} {v}" for k, v in
                                         sorted(hardest.items(), key=lambda kv: -kv[1])))


def save(rows: list[Row], path: Path) -> None:
    """Write one tab-separated line per puzzle (to compare two runs later)."""
    with path.open("w") as out:
        out.write("grid\ter\tours\thardest\ttrial\tcpu\n")
        for r in rows:
            out.write(f"{r.grid}\t{r.er}\t{r.ours}\t{r.hardest}\t{int(r.trial)}\t{r.cpu:.4f}\n")


def load_saved(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text().splitlines()[1:]:
        grid, er, ours, hardest, trial, cpu = line.split("\t")
        rows.append(Row(grid, float(er), None, None, "", float(ours), None, None, hardest,
                        trial == "1", float(cpu)))
    return rows


def build_se(se_dir: Path) -> tuple[list[str], str] | str:
    """Compile serate into ``se_dir/build``; return (java command, class path) or why not."""
    source = se_dir / "diuf" / "sudoku" / "test" / "serate.java"
    java, javac = shutil.which("java"), shutil.which("javac")
    if not source.exists():
        return f"SE_DIR={se_dir} has no diuf/sudoku/test/serate.java"
    if java is None or javac is None:
        return "java/javac not found (apt-get install default-jdk-headless)"
    jar = os.environ.get("SE_CLASSPATH", "/usr/share/java/json-simple.jar")
    if not Path(jar).exists():
        return f"{jar} not found (apt-get install libjson-simple-java, or set SE_CLASSPATH)"
    build = se_dir / "build"
    classpath = f"{build}{os.pathsep}{jar}"
    if not (build / "diuf" / "sudoku" / "test" / "serate.class").exists():
        build.mkdir(exist_ok=True)
        done = subprocess.run([javac, "-nowarn", "-encoding", "ISO-8859-1", "-cp", jar,
                               "-sourcepath", str(se_dir), "-d", str(build), str(source)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return "javac failed: " + done.stderr.strip().splitlines()[-1]
    return [java, "-cp", classpath, "diuf.sudoku.test.serate"], str(build)


def se_seconds(text: str) -> float:
    """serate's %e: '7.98s', '1m12s', '2h03m'... to seconds."""
    total, number = 0.0, ""
    for char in text:
        if char.isdigit() or char == ".":
            number += char
        else:
            total += float(number or 0) * {"h": 3600, "m": 60, "s": 1}.get(char, 0)
            number = ""
    return total


def run_se(rows: list[Row], count: int, timeout: float) -> None:
    se_dir = os.environ.get("SE_DIR")
    if not se_dir:
        print("\nSE side by side: skipped (SE_DIR not set)")
        return
    built = build_se(Path(se_dir))
    if isinstance(built, str):
        print(f"\nSE side by side: skipped ({built})")
        return
    command, cwd = built
    step = max(1, len(rows) // max(1, count))
    chosen = rows[::step][:count]
    print(f"\nSE (serate) side by side, {len(chosen)} puzzles, one JVM each, "
          f"at most {timeout:.0f} s wall each")
    print(f"{'published':>14} {'SE':>14} {'sudokit':>14} {'SE s':>8} {'ours s':>7} "
          f"{'ratio':>7}  sudokit's hardest")
    ratios = []
    for row in chosen:
        try:
            done = subprocess.run(command + ["--format=%r/%p/%d %e", row.grid], cwd=cwd,
                                  capture_output=True, text=True, timeout=timeout, check=False)
            ratings, elapsed = done.stdout.split()[:2]
            seconds = se_seconds(elapsed)
        except subprocess.TimeoutExpired:
            ratings, seconds = "timeout", timeout
        except ValueError:
            ratings, seconds = "failed", math.nan
        published = f"{row.er}/{row.ep or '-'}/{row.ed or '-'}"
        ours = f"{row.ours}/{row.ours_ep or '-'}/{row.ours_ed or '-'}"
        ratio = seconds / row.cpu if row.cpu > 0 else math.nan
        ratios.append(ratio)
        print(f"{published:>14} {ratings:>14} {ours:>14} {seconds:8.2f} {row.cpu:7.2f} "
              f"{ratio:6.1f}x  {row.hardest}", flush=True)
    finite = [r for r in ratios if not math.isnan(r)]
    if finite:
        print(f"SE time / sudokit time: median {statistics.median(finite):.1f}x "
              f"(SE's elapsed is wall time with the JVM warm-up inside; ours is CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--per-band", type=int, default=12, help="puzzles per band (0: all)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="sudokit, per puzzle")
    parser.add_argument("--se-sample", type=int, default=6)
    parser.add_argument("--se-timeout", type=float, default=300.0)
    parser.add_argument("--min-er", type=float, default=0.0, help="only puzzles of ER >= this")
    parser.add_argument("--max-er", type=float, default=99.0, help="only puzzles of ER <= this")
    parser.add_argument("--save", type=Path, help="write per-puzzle results (TSV)")
    parser.add_argument("--from-saved", type=Path, help="print the table of a saved run")
    args = parser.parse_args()
    if args.from_saved:
        print_table(load_saved(args.from_saved))
        return
    rows = sample_rows([r for r in read_rows(args.file) if args.min_er <= r.er <= args.max_er],
                       args.per_band)
    if not rows:
        raise SystemExit(f"{args.file}: no puzzles")
    print(f"{args.file}: {len(rows)} puzzles ({args.per_band or 'all'} per band)")
    rate_ours(rows, args.time_limit)
    print_table(rows)
    if args.save:
        save(rows, args.save)
    if args.se_sample:
        run_se(rows, args.se_sample, args.se_timeout)


if __name__ == "__main__":
    main()
