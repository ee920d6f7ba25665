"""Shared helpers for the benchmark scripts: dataset loading and median timing.

Run every benchmark from the repository root, e.g. ``python benchmarks/propagate_vs_norvig.py``;
datasets are read from ``../shared/data`` (see its SOURCES.md).
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "src"))

from sudokit.formats.text import read_puzzles  # noqa: E402
from sudokit.model.puzzle import Puzzle  # noqa: E402


def load(relative: str, limit: int | None = None) -> list[Puzzle]:
    """Return the valid puzzles of a dataset file under ``../shared/data`` (first ``limit``)."""
    records = read_puzzles(DATA / relative)
    return [r.puzzle for r in itertools.islice(records, limit) if r.puzzle is not None]


def median_seconds(run: Callable[[], object], runs: int) -> float:
    """Return the median wall time of ``runs`` calls of ``run``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rate_row(label: str, count: int, seconds: float, baseline: float | None) -> str:
    """Format one result line: puzzles/s and the ratio against the baseline's puzzles/s."""
    rate = count / seconds
    ratio = f"{rate / baseline:7.2f}x" if baseline else "   base "
    return f"{label:<44} {count:>6} puzzles {rate:>12,.1f} puzzles/s {ratio}"


def print_header(title: str, columns: Sequence[str] = ()) -> None:
    print(f"\n{title}")
    print("-" * max(len(title), 80))
    if columns:
        print("  ".join(columns))
