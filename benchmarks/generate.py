"""Benchmark: the puzzle generator, per size and option set, with the givens and rating spreads.

Usage (from the repository root)::

    python benchmarks/generate.py [--seconds 5] [--quick] [--slow] [--skip-uniformity]
                                  [--skip-others]

Sections:

1. **Throughput**: puzzles/s of ``sudokit.generate`` (one thread, after warm-up, at least
   ``--seconds`` per row), the mean and range of givens, the share proven minimal and the spread
   of node ratings (easy/medium/hard/expert/extreme shares) for each size and option set.
2. **Levels**: puzzles/s per level band, and the tries (grids made) per accepted puzzle.
3. **Rater calibration**: the node rating of rated public sets (``../shared/data``), when present.
4. **Grid uniformity**: exact chi-square tests where every grid can be counted: 4x4 (288 grids)
   and 6x6 (normalised to first row 123456: 39,168 classes), for the exact sampler used up to
   6x6 and for the randomised search used above it.
5. **Other generators**, when installed (``pip install py-sudoku hodoku-py``; never
   dependencies): puzzles/s of py-sudoku (no uniqueness check) and hodoku-py.
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np
from common import DATA, print_header

from sudokit.generator import GenerationError
from sudokit.generator.engine import Maker, Plan, grid_table, seeds_for
from sudokit.generator.rating import LEVELS, rate_puzzles
from sudokit.model.geometry import Geometry
from sudokit.run.generate import generate

BANDS = [0.0, *(high + 0.001 for _, high in list(LEVELS.values())[:-1]), 1e9]
"""Histogram edges of the node rater's levels (easy | medium | hard | expert | extreme): each
band's high end plus 0.001, the next rating (ratings are rounded to 3 decimals)."""

ROWS = [  # label, generate() keywords, first count to try
    ("9x9 unique (default)", {}, 2000),
    ("9x9 minimal", {"minimal": True}, 2000),
    ("9x9 minimal rot180", {"minimal": True, "symmetry": "rot180"}, 2000),
    ("9x9 minimal rot90", {"minimal": True, "symmetry": "rot90"}, 2000),
    ("9x9 minimal diagonal", {"minimal": True, "symmetry": "diagonal"}, 2000),
    ("9x9 minimal dihedral", {"minimal": True, "symmetry": "dihedral"}, 1000),
    ("9x9 givens 30 (not minimal)", {"givens": 30}, 2000),
    ("9x9 X (diagonal variant) minimal", {"minimal": True, "variant": "diagonal"}, 500),
    ("4x4 minimal", {"size": 4, "minimal": True}, 5000),
    ("6x6 (2x3) minimal", {"box": "2x3", "minimal": True}, 5000),
    ("8x8 (2x4) minimal", {"box": "2x4", "minimal": True}, 1000),
    ("12x12 (3x4) unique", {"box": "3x4"}, 200),
    ("12x12 (3x4) minimal", {"box": "3x4", "minimal": True}, 100),
    ("16x16 unique", {"size": 16}, 100),
    ("16x16 unique rot180", {"size": 16, "symmetry": "rot180"}, 100),
    ("16x16 minimal", {"size": 16, "minimal": True}, 20),
    ("25x25 unique", {"size": 25}, 5),
    ("25x25 minimal (--slow)", {"size": 25, "minimal": True}, 1),
]


def timed(count: int, seconds: float, **options: object) -> tuple[list, float]:
    """Generate batches of ``count`` (fresh indices each time) until ``seconds`` have passed."""
    made: list = []
    start = time.perf_counter()
    index = 0
    while True:
        made += generate(count, seed=1, start=index, **options)
        index += count
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return made, elapsed


def spread(ratings: np.ndarray) -> str:
    shares = np.histogram(ratings, BANDS)[0] / max(1, len(ratings))
    return " ".join(f"{100 * s:5.1f}" for s in shares)


def throughput(seconds: float, quick: bool, slow: bool) -> None:
    print_header("1. Throughput (one thread)",
                 [f"{'options':<34}", "puzzles/s", " givens mean [min-max]", "minimal",
                  " rating %: easy   med  hard  exp  extr"])
    for label, options, count in ROWS:
        if "--slow" in label and not slow or quick and "16x16 minimal" in label:
            continue
        list(generate(1, seed=0, **options))  # warm-up: kernels loaded or compiled
        made, elapsed = timed(count, seconds, **options)
        givens = np.array([g.givens for g in made])
        sample = made[:400]
        ratings = rate_puzzles([g.puzzle for g in sample]) if sample[0].puzzle.geometry.side <= 16 \
            else np.array([])
        minimal = np.mean([g.minimal for g in made])
        print(f"{label:<34} {len(made) / elapsed:9,.1f}  {givens.mean():6.1f} "
              f"[{givens.min()}-{givens.max()}]  {100 * minimal:5.1f}%  "
              f"{spread(ratings) if len(ratings) else '(not rated)'}")
    counts = collections.Counter(g.givens for g in timed(2000, 0, minimal=True)[0])
    print("\n9x9 minimal, givens histogram (2,000 puzzles): "
          + ", ".join(f"{k}: {counts[k]}" for k in sorted(counts)))


def levels(seconds: float) -> None:
    print_header("2. Levels (9x9, node rater; every output is inside its band)",
                 [f"{'level':<10}", "band", "puzzles/s", "tries per puzzle"])
    for level, band in LEVELS.items():
        budget = seconds if level != "extreme" else 3 * seconds
        try:
            made, elapsed = timed(5 if level == "extreme" else 50, budget, level=level)
        except GenerationError as exc:  # report and go on
            print(f"{level:<10} {band}  failed: {exc}")
            continue
        assert all(band[0] <= g.rating <= band[1] for g in made)
        print(f"{level:<10} {band[0]:5.2f}-{band[1]:<6.2f} {len(made) / elapsed:9,.1f}  "
              f"{np.mean([g.tries for g in made]):8.1f}")


def calibration() -> None:
    sets = {
        "norvig easy50 (Project Euler)": "norvig/sudoku-easy50.txt",
        "tdoku unbiased minimal (1,000)": "tdoku/puzzles1_unbiased_first1000",
        "SE 5.2-9.1 calibration (1,045)": "rated/se_diabolical_calibration.txt",
        "magictour top1465": "tdoku/puzzles3_magictour_top1465",
        "forum hardest SE 11+ (first 1,000)": "tdoku/puzzles5_forum_hardest_1905_11+_first20000",
    }
    print_header("3. Node rating of rated public sets",
                 [f"{'set':<36}", "p10   p50   p90", "  %: easy   med  hard  exp  extr"])
    for label, path in sets.items():
        puzzles = _read(DATA / path, 1000)
        if puzzles is None:
            print(f"{label:<36} (missing: {path})")
            continue
        r = rate_puzzles(puzzles, Geometry.of(3, 3))
        print(f"{label:<36} {np.percentile(r, 10):5.2f} {np.median(r):5.2f} "
              f"{np.percentile(r, 90):5.2f}   {spread(r)}")


def _read(path, limit: int) -> np.ndarray | None:
    if not path.exists():
        return None
    rows = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if not parts or line.startswith("#"):
            continue
        text = parts[1] if len(parts) > 1 and len(parts[0]) == 12 else parts[0]
        if len(text) >= 81:
            rows.append([0 if ch in ".0" else int(ch) for ch in text[:81]])
        if len(rows) >= limit:
            break
    return np.array(rows, np.uint8)


def _grids(geometry: Geometry, count: int, exact: bool) -> np.ndarray:
    n_cells = geometry.n_cells
    plan = Plan(geometry=geometry, minimal=False, floor=0, min_givens=0, max_givens=n_cells,
                stop_at=n_cells, node_budget=0, batch=1, max_attempts=1, exact=exact)
    return Maker(geometry).make(seeds_for(7, range(count)), plan).solutions


def _normalised(grids: np.ndarray, n: int) -> np.ndarray:
    """Relabel each grid so that its first row is 1..N."""
    inverse = np.zeros((len(grids), n + 1), np.uint8)
    inverse[np.arange(len(grids))[:, None], grids[:, :n]] = np.arange(1, n + 1, dtype=np.uint8)
    return np.take_along_axis(inverse, grids.astype(np.intp), axis=1)


def uniformity(quick: bool) -> None:
    print_header("4. Grid uniformity (chi-square against uniform; dof = classes - 1)",
                 [f"{'sampler':<44}", "samples", "classes hit", "chi2 / dof", "TV distance"])
    for box, per_class in (((2, 2), 200), ((2, 3), 10 if quick else 40)):
        geometry = Geometry.of(*box)
        table = grid_table(geometry)
        index = {bytes(row): k for k, row in enumerate(table)}
        classes = len(table)
        for exact in (True, False):
            count = classes * per_class
            grids = _normalised(_grids(geometry, count, exact), geometry.side)
            hits = np.bincount([index[bytes(g)] for g in grids], minlength=classes)
            expected = count / classes
            chi2 = float(((hits - expected) ** 2 / expected).sum())
            tv = 0.5 * float(np.abs(hits / count - 1 / classes).sum())
            # TV of a uniform sample of this size, for scale
            noise = 0.5 * float(np.abs(np.random.default_rng(0).multinomial(
                count, [1 / classes] * classes) / count - 1 / classes).sum())
            name = "exact (table, relabelled)" if exact else "randomised search + shuffles"
            print(f"{geometry.shape_name + ' ' + name:<44} {count:>8,} {int((hits > 0).sum()):>8,}"
                  f"/{classes:<7,} {chi2 / (classes - 1):8.2f}   {tv:.4f} (uniform sample: "
                  f"{noise:.4f})")


def others(seconds: float) -> None:
    print_header("5. Other generators (9x9, one thread)", [f"{'generator':<44}", "puzzles/s"])
    try:
        from sudoku import Sudoku

        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            Sudoku(3, seed=count).difficulty(0.6)
            count += 1
        print(f"{'py-sudoku difficulty(0.6) (no uniqueness check)':<44} "
              f"{count / (time.perf_counter() - start):9,.1f}")
    except ImportError:
        print("py-sudoku: not installed (pip install py-sudoku)")
    try:
        import hodoku

        generator = hodoku.Generator()
        for name in ("EASY", "MEDIUM", "HARD"):
            count, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds and count < 20:
                generator.generate(hodoku.DifficultyType[name], symmetric=True)
                count += 1
            print(f"{'hodoku-py ' + name.lower() + ' (symmetric)':<44} "
                  f"{count / (time.perf_counter() - start):9,.2f}")
    except ImportError:
        print("hodoku-py: not installed (pip install hodoku-py)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per row")
    parser.add_argument("--quick", action="store_true", help="skip the slowest rows")
    parser.add_argument("--slow", action="store_true",
                        help="add 25x25 minimal (minutes per puzzle: every one of ~625 "
                             "removal checks proven, some with large searches)")
    parser.add_argument("--skip-uniformity", action="store_true")
    parser.add_argument("--skip-others", action="store_true")
    args = parser.parse_args()
    throughput(args.seconds, args.quick, args.slow)
    levels(args.seconds)
    calibration()
    if not args.skip_uniformity:
        uniformity(args.quick)
    if not args.skip_others:
        others(args.seconds)


if __name__ == "__main__":
    main()
