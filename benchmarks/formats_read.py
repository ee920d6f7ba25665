"""Benchmark: reading puzzle files with ``sudokit.formats.read_puzzles``, and the batch pipeline.

Usage (from the repository root)::

    python benchmarks/formats_read.py [--runs 3] [--limit 20000]

Prints puzzles/s (median of ``--runs`` runs) of:

* the baseline: a bare 81-character line parser (strip, map ``.``/``0`` to 0, build a Puzzle),
  which is all the provisional reader did and handles none of the other forms;
* ``read_puzzles`` on the same line-form file (every form recognised, errors located);
* ``read_puzzles`` on the Kaggle CSV (puzzle plus solution column decoded);
* the whole ``sudokit solve`` pipeline in-process (read, solve with the default method, verify,
  format each record in line form), to show where reading sits in an end-to-end run.

Ratios are against the baseline measured in the same run. The machine is shared: expect noise.
"""

from __future__ import annotations

import argparse
import io
import itertools

from common import DATA, median_seconds, print_header, rate_row

from sudokit.formats.text import read_puzzles
from sudokit.model.puzzle import Puzzle
from sudokit.run.batch import solve_records
from sudokit.run.doors import default_method
from sudokit.run.output import OutputFormat, format_outcome

LINES = DATA / "tdoku" / "puzzles2_17_clue"
CSV = DATA / "csv" / "kaggle_first5000.csv"


def bare_lines(path, limit: int) -> int:
    count = 0
    with open(path, encoding="utf-8") as fh:
        for text in itertools.islice((t for t in fh if t[:1] != "#"), limit):
            text = text.strip()
            Puzzle.from_digits([0 if ch in ".0" else int(ch) for ch in text])
            count += 1
    return count


def read_all(path, limit: int) -> int:
    return sum(1 for _ in itertools.islice(read_puzzles(path), limit))


def pipeline(path, limit: int, method: str) -> int:
    out = io.StringIO()
    for outcome in solve_records(itertools.islice(read_puzzles(path), limit), method):
        out.write(format_outcome(outcome, OutputFormat.LINE))
    return limit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=int, default=20000)
    args = parser.parse_args()
    n = args.limit
    method = default_method()
    print_header(f"reading {n:,} puzzles (median of {args.runs} runs)")
    base = n / median_seconds(lambda: bare_lines(LINES, n), args.runs)
    print(rate_row("baseline: bare 81-char line parser", n, n / base, None))
    rows = [
        ("read_puzzles, line form (17-clue)", n, lambda: read_all(LINES, n)),
        ("read_puzzles, Kaggle CSV with solutions", 5000, lambda: read_all(CSV, 5000)),
        (f"read + solve ({method}) + verify + write", n, lambda: pipeline(LINES, n, method)),
    ]
    for label, count, run in rows:
        print(rate_row(label, count, median_seconds(run, args.runs), base))


if __name__ == "__main__":
    main()
