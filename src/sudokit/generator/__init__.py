"""Make puzzles: unique, minimal, symmetric, at a chosen difficulty, in any size and box shape.

>>> from sudokit.generate import generate
>>> [g] = generate(1, size=4, seed=7)
>>> g.puzzle.geometry.side, len(g.solution), g.givens <= 16
(4, 16, True)

Each puzzle is made in compiled code (:mod:`sudokit.generator.kernels`): a random solution grid
(a randomised search, then a random relabelling, band, stack, row and column shuffle and
transposition), then givens removed in a random order of the symmetry's cell orbits while the
grid stays the only solution, each removal checked by the compiled engine. Puzzle ``i`` of a run
depends only on the seed, ``i`` and the options, so the same seed gives the same puzzles with any
number of threads, on any machine.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InvalidOption, SudokuError
from ..model.geometry import Geometry, Variant, box_shape_for_side
from ..model.puzzle import Grid, Puzzle
from .rating import LEVELS, NODE_RATER, Rater, get_rater, level_of, parse_band
from .symmetry import Symmetry, is_symmetric, orbits

__all__ = [
    "LEVELS",
    "NODE_RATER",
    "Generated",
    "GenerationError",
    "Options",
    "Rater",
    "Symmetry",
    "generate",
    "get_rater",
    "is_minimal",
    "is_symmetric",
    "level_of",
    "orbits",
    "parse_band",
    "random_grids",
    "rate",
]


class GenerationError(SudokuError):
    """No puzzle met the request within the allowed number of tries."""


@dataclass(frozen=True)
class Generated:
    """One generated puzzle and how it was made.

    ``str(g)`` draws the puzzle; ``g.line`` is its line form.

    Attributes:
        puzzle: the puzzle (unique solution).
        solution: its solution, N**2 digits.
        index: its position in the run (0-based): with ``seed`` it makes the puzzle again.
        seed: the run's seed.
        givens: number of givens.
        minimal: True when every given (every orbit of givens, with a symmetry) was proven
            necessary: always with ``minimal=True``; without it, when every removal check
            finished within its node budget and no givens target stopped the removal early.
        symmetry: the givens pattern's symmetry.
        rating: the rater's value (None when no rating was asked for).
        level: the level band holding ``rating`` (None when unrated or between bands).
        tries: grids made for this puzzle (more than 1 when a givens or rating band rejected
            some).
        checks: uniqueness searches run for the accepted puzzle.
        nodes: search nodes of those checks.
    """

    puzzle: Puzzle
    solution: Grid
    index: int
    seed: int
    givens: int
    minimal: bool
    symmetry: Symmetry
    rating: float | None = None
    level: str | None = None
    tries: int = 1
    checks: int = 0
    nodes: int = 0
    rater: str | None = field(default=None, repr=False)

    @property
    def line(self) -> str:
        return self.puzzle.line

    def __str__(self) -> str:
        return str(self.puzzle)

    def as_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values (puzzle and solution in line form)."""
        from ..formats.text import format_line

        return {"index": self.index, "seed": self.seed, "puzzle": self.puzzle.line,
                "solution": format_line(self.solution), "size": self.puzzle.geometry.side,
                "box": f"{self.puzzle.geometry.box_rows}x{self.puzzle.geometry.box_cols}",
                "variant": self.puzzle.geometry.variant.text, "givens": self.givens,
                "minimal": self.minimal, "symmetry": self.symmetry.value,
                "rating": self.rating, "rater": self.rater, "level": self.level,
                "tries": self.tries, "checks": self.checks, "nodes": self.nodes}


def _geometry(size: int | None, box: tuple[int, int] | str | None,
              variant: Variant | str) -> Geometry:
    from ..formats.text import parse_box

    variant = Variant(variant)
    if box is not None:
        shape = parse_box(box) if isinstance(box, str) else (int(box[0]), int(box[1]))
        geometry = Geometry.of(*shape, variant)
        if size is not None and geometry.side != size:
            raise InvalidOption(f"--size {size} does not match {shape[0]}x{shape[1]} boxes "
                                f"(side {geometry.side})")
        return geometry
    side = 9 if size is None else int(size)
    if side < 1 or side > 64:
        raise InvalidOption(f"size must be 1..64, got {side}")
    shape = box_shape_for_side(side)
    if shape[0] == 1 and side > 3:
        raise InvalidOption(f"size {side} has no box shape but 1x{side} (a Latin square); "
                            f"pass --box 1x{side} to mean that")
    return Geometry.of(*shape, variant)


def _givens_band(givens: int | tuple[int, int] | str | None, n_cells: int) -> tuple[int, int]:
    if givens is None:
        return 0, n_cells
    if isinstance(givens, str):
        low, high = parse_band(givens)
        if low != int(low) or (high != float("inf") and high != int(high)):
            raise InvalidOption(f"givens must be whole numbers, got {givens!r}")
        band = int(low), int(min(high, n_cells))
    elif isinstance(givens, (tuple, list)):
        band = int(givens[0]), int(givens[1])
    else:
        band = int(givens), int(givens)
    if not 0 <= band[0] <= band[1] <= n_cells:
        raise InvalidOption(f"givens {band[0]}..{band[1]} is outside 0..{n_cells}")
    return band


@dataclass(frozen=True)
class Options:
    """A checked request (built by :func:`generate`).

    Attributes:
        geometry, symmetry, minimal: as in :func:`generate`.
        givens: accepted givens counts ``(low, high)``.
        band: accepted ratings ``(low, high)``, or None.
        rater: the rater (used when ``band`` is set or ``rate`` is True).
        rate: rate every puzzle (for output) even without a band.
        node_budget: nodes per uniqueness check when not ``minimal``.
        max_tries: grids per puzzle before giving up.
    """

    geometry: Geometry
    symmetry: Symmetry
    minimal: bool
    givens: tuple[int, int]
    band: tuple[float, float] | None
    rater: Rater
    rate: bool
    node_budget: int
    max_tries: int
    level: str | None = None

    def plan(self) -> Any:
        from .engine import Plan

        low, high = self.givens
        exact_target = not self.minimal and high < self.geometry.n_cells
        return Plan(self.geometry, self.symmetry, self.minimal, 0 if self.minimal else low, low,
                    high, high if exact_target else -1, self.node_budget, 1, 16)


def _options(size: int | None, box: Any, variant: Any, symmetry: Any, minimal: bool,
             givens: Any, level: str | None, rating: Any, rater: Any, rate: bool,
             node_budget: int | None, max_tries: int) -> Options:
    geometry = _geometry(size, box, variant)
    try:
        symmetry = Symmetry(symmetry)
    except ValueError:
        raise InvalidOption(f"unknown symmetry {symmetry!r}: expected one of "
                            f"{', '.join(s.value for s in Symmetry)}") from None
    the_rater = get_rater(rater)
    band = None
    if level is not None and rating is not None:
        raise InvalidOption("give a level or a rating band, not both")
    if level is not None:
        if level not in the_rater.levels:
            raise InvalidOption(f"unknown level {level!r} for the {the_rater.name!r} rater: "
                                f"expected one of {', '.join(the_rater.levels)}")
        band = the_rater.levels[level]
    elif rating is not None:
        band = parse_band(rating) if isinstance(rating, str) else (float(rating[0]),
                                                                   float(rating[1]))
    if max_tries < 1:
        raise InvalidOption(f"max_tries must be at least 1, got {max_tries}")
    budget = (100 if geometry.side <= 9 else 10) if node_budget is None else int(node_budget)
    return Options(geometry, symmetry, bool(minimal), _givens_band(givens, geometry.n_cells),
                   band, the_rater, bool(rate) or band is not None, max(0, budget), max_tries,
                   level)


_local = threading.local()


def _maker(geometry: Geometry) -> Any:
    from .engine import Maker

    makers = getattr(_local, "makers", None)
    if makers is None:
        makers = _local.makers = {}
    if geometry not in makers:
        makers[geometry] = Maker(geometry)
    return makers[geometry]


def _make_chunk(indices: Sequence[int], seed: int, options: Options) -> list[Generated]:
    """Make the puzzles ``indices`` of the run ``seed`` (retrying each until it meets the
    givens and rating bands)."""
    from .engine import seeds_for

    maker = _maker(options.geometry)
    plan = options.plan()
    done: dict[int, Generated] = {}
    calls = dict.fromkeys(indices, 0)  # kernel calls so far: the stream key of the next one
    tries = dict.fromkeys(indices, 0)  # grids made so far
    pending = list(indices)
    seen: list[float] = []
    while pending:
        seeds = seeds_for(seed, pending, np.array([calls[i] for i in pending]))
        batch = maker.make(seeds, plan)
        ratings = (options.rater(batch.puzzles, options.geometry) if options.rate
                   else [None] * len(pending))
        again = []
        for row, i in enumerate(pending):
            info = batch.info[row]
            calls[i] += 1
            tries[i] += int(info[3])
            ok = bool(info[5])
            rating = None if ratings[row] is None else float(ratings[row])
            if ok and options.band is not None:
                seen.append(rating)  # type: ignore[arg-type]
                ok = options.band[0] <= rating <= options.band[1]  # type: ignore[operator]
            if ok:
                done[i] = Generated(
                    Puzzle(options.geometry, tuple(batch.puzzles[row].tolist())),
                    tuple(batch.solutions[row].tolist()), i, seed, int(info[0]),
                    int(info[6]) == 0, options.symmetry, rating,
                    None if rating is None else level_of(rating, options.rater.levels),
                    tries[i], int(info[1]), int(info[2]),
                    options.rater.name if rating is not None else None)
            elif tries[i] >= options.max_tries:
                raise GenerationError(_failure(options, tries[i], seen))
            else:
                again.append(i)
        pending = again
    return [done[i] for i in indices]


def _failure(options: Options, tries: int, seen: list[float]) -> str:
    what = []
    low, high = options.givens
    if (low, high) != (0, options.geometry.n_cells):
        what.append(f"{low}..{high} givens" if low != high else f"{low} givens")
    if options.band is not None:
        name = f"level {options.level!r} " if options.level else ""
        what.append(f"{name}rating {options.band[0]:g}..{options.band[1]:g} "
                    f"({options.rater.name})")
    text = (f"no {options.geometry.shape_name} puzzle with {' and '.join(what) or 'these options'}"
            f" in {tries} tries")
    if seen:
        text += (f"; ratings seen: {min(seen):.2f}..{max(seen):.2f}, median "
                 f"{float(np.median(seen)):.2f}")
    return text + " (raise --max-tries, or widen the band)"


def generate(
    count: int | None = 1,
    *,
    size: int | None = None,
    box: tuple[int, int] | str | None = None,
    variant: Variant | str = Variant.STANDARD,
    symmetry: Symmetry | str = Symmetry.NONE,
    minimal: bool = False,
    givens: int | tuple[int, int] | str | None = None,
    level: str | None = None,
    rating: tuple[float, float] | str | None = None,
    rater: str | Rater | Callable[..., float] | None = None,
    rate: bool = False,
    seed: int | None = None,
    start: int = 0,
    jobs: int = 1,
    node_budget: int | None = None,
    max_tries: int = 10_000,
) -> Iterator[Generated]:
    """Yield ``count`` new puzzles, each with exactly one solution, lazily and in order.

    Args:
        count: how many (None: without end).
        size: grid side N (default 9, or the side of ``box``); the box shape is the usual one
            (6 -> 2x3, 12 -> 3x4).
        box: box shape ``(rows, cols)`` or ``"RxC"`` (e.g. ``"2x3"``, ``"3x4"``).
        variant: ``"standard"`` or ``"diagonal"`` (Sudoku X).
        symmetry: of the givens pattern: ``none``, ``rot180``, ``rot90``, ``mirror``, ``flip``,
            ``diagonal``, ``antidiagonal``, ``dihedral`` (see :class:`Symmetry`).
        minimal: prove every given necessary (no given, or with a symmetry no orbit of givens,
            can be removed). Without it each removal check gets ``node_budget`` search nodes and
            a check over budget keeps the given: unique, nearly always minimal for 9x9, faster
            for large grids.
        givens: accepted number of givens: ``30``, ``(22, 25)`` or ``"22-25"``. Without
            ``minimal``, removal stops at the high end; with it, puzzles outside are rejected.
        level: a named difficulty band of the rater (``easy``, ``medium``, ``hard``,
            ``expert``, ``extreme`` for the default; see :data:`LEVELS`).
        rating: a band of the rater's value: ``(2.0, 3.5)`` or ``"2-3.5"``.
        rater: ``"nodes"`` (default, search nodes, see :mod:`sudokit.generator.rating`),
            ``"se"`` (once :mod:`sudokit.logic` exists), a :class:`Rater`, or a function of one
            puzzle returning a float.
        rate: rate every puzzle (``Generated.rating``) even without a band.
        seed: the run's seed (None: a fresh one, see ``Generated.seed``).
        start: index of the first puzzle (to continue a run: ``start=1000`` yields puzzles
            1000, 1001, ... of the same seed).
        jobs: threads (the output is the same for any number).
        node_budget: nodes per removal check without ``minimal`` (default 100 up to 9x9, where
            nearly every puzzle still comes out minimal, 10 above).
        max_tries: grids per puzzle before :class:`GenerationError`.

    Yields:
        :class:`Generated` records (``.puzzle``, ``.solution``, ``.rating`` ...).

    Raises:
        InvalidOption: an unknown symmetry, level, variant or box shape; a bad band.
        GenerationError: no puzzle met the givens or rating band within ``max_tries`` grids.
    """
    options = _options(size, box, variant, symmetry, minimal, givens, level, rating, rater,
                       rate, node_budget, max_tries)
    if seed is None:
        from .engine import new_seed

        seed = new_seed()
    if count is not None and count < 0:
        raise InvalidOption(f"count must be at least 0, got {count}")
    return _run(options, int(seed), count, int(start), max(1, int(jobs)))


def _chunks(count: int | None, start: int, cells: int) -> Iterator[list[int]]:
    """Index chunks growing from 1 to a size worth a kernel call (fast first output)."""
    cap = max(1, 20_000 // cells)
    size = 1
    index = start
    end = None if count is None else start + count
    while end is None or index < end:
        take = size if end is None else min(size, end - index)
        yield list(range(index, index + take))
        index += take
        size = min(cap, size * 2)


def _run(options: Options, seed: int, count: int | None, start: int,
         jobs: int) -> Iterator[Generated]:
    chunks = _chunks(count, start, options.geometry.n_cells)
    if jobs == 1:
        for chunk in chunks:
            yield from _make_chunk(chunk, seed, options)
        return
    with ThreadPoolExecutor(jobs, thread_name_prefix="sudokit-generate") as pool:
        queue: list[Future[list[Generated]]] = []
        for chunk in itertools.islice(chunks, 2 * jobs):
            queue.append(pool.submit(_make_chunk, chunk, seed, options))
        try:
            while queue:
                done = queue.pop(0).result()
                nxt = next(chunks, None)
                if nxt is not None:
                    queue.append(pool.submit(_make_chunk, nxt, seed, options))
                yield from done
        finally:
            for future in queue:
                future.cancel()


def rate(puzzles: Any, geometry: Geometry | None = None, rater: Any = None) -> np.ndarray:
    """Rate puzzles (uint8[M, N*N], or a list of Puzzles) with ``rater`` (default: nodes)."""
    if isinstance(puzzles, Puzzle):
        puzzles = [puzzles]
    if len(puzzles) and isinstance(puzzles[0], Puzzle):
        geometry = geometry or puzzles[0].geometry
        puzzles = np.array([p.givens for p in puzzles], np.uint8)
    array = np.asarray(puzzles, np.uint8)
    geometry = geometry or Geometry.for_cells(array.shape[1])
    return get_rater(rater)(array, geometry)


def random_grids(count: int, *, size: int | None = None, box: Any = None,
                 variant: Variant | str = Variant.STANDARD, seed: int | None = None,
                 start: int = 0) -> np.ndarray:
    """Return ``count`` random solution grids (uint8[count, N*N]) made as the generator makes
    them (grid ``i`` of a seed is the solution of puzzle ``i`` of that seed)."""
    from .engine import Maker, Plan, new_seed, seeds_for

    geometry = _geometry(size, box, variant)
    seed = new_seed() if seed is None else int(seed)
    maker = Maker(geometry)
    plan = Plan(geometry, Symmetry.NONE, False, 0, 0, geometry.n_cells, geometry.n_cells, 0, 1, 1)
    return maker.make(seeds_for(seed, range(start, start + count)), plan).solutions


def is_minimal(puzzle: Puzzle, method: str = "fast") -> bool:
    """Whether ``puzzle`` (assumed unique) loses uniqueness without any single given: each given
    removed in turn, each reduced puzzle counted to 2 with ``method``."""
    from ..run.doors import count_solutions

    givens = list(puzzle.givens)
    for cell, digit in enumerate(puzzle.givens):
        if not digit:
            continue
        givens[cell] = 0
        reduced = Puzzle(puzzle.geometry, tuple(givens))
        givens[cell] = digit
        if count_solutions(reduced, method, limit=2).count < 2:
            return False
    return True

