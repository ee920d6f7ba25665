"""The making of a run: puzzles in chunks, in order, on one thread or several.

Puzzle ``i`` of a run depends only on the seed, ``i`` and the options (see
:func:`sudokit.generator.engine.seeds_for`), so the chunks may be made on any thread: the output
is the same for any number. Chunks grow from one puzzle to a size worth a kernel call, so the
first puzzle comes out at once.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..model.geometry import Geometry
from ..model.puzzle import Puzzle
from . import Generated, GenerationError, Options
from .digging import dig_toward, digs, fill_toward, fills
from .engine import Batch, Maker, Plan, seeds_for
from .grids import RESTARTS
from .rating import SeRater, band_of

if TYPE_CHECKING:
    from .techniques import Judgement

__all__ = ["puzzle_stream", "solution_grids"]


_local = threading.local()


def _maker(geometry: Geometry) -> Maker:
    """This thread's :class:`~sudokit.generator.engine.Maker` for ``geometry``."""
    makers = getattr(_local, "makers", None)
    if makers is None:
        makers = _local.makers = {}
    if geometry not in makers:
        makers[geometry] = Maker(geometry)
    return makers[geometry]


def _make_chunk(indices: Sequence[int], seed: int, options: Options) -> list[Generated]:
    """Make the puzzles ``indices`` of the run ``seed`` (retrying each until it meets the
    givens and rating bands and the technique targets)."""
    maker = _maker(options.geometry)
    plan = options.plan()
    done: dict[int, Generated] = {}
    calls = dict.fromkeys(indices, 0)  # kernel calls so far: the stream key of the next one
    tries = dict.fromkeys(indices, 0)  # grids made so far
    pending = list(indices)
    seen: list[float] = []
    dig = digs(options.targets, options.minimal)
    while pending:
        again: list[int] = []
        kernel = [i for i in pending if not dig or calls[i] % 2 == 0]
        for i in (i for i in pending if dig and calls[i] % 2 == 1):  # every other try digs
            calls[i] += 1
            tries[i] += 1
            record = _dug(maker, i, seed, calls[i] - 1, options, tries[i], seen)
            if record is not None:
                done[i] = record
            elif tries[i] >= options.max_tries:
                raise GenerationError(_failure(options, tries[i], seen))
            else:
                again.append(i)
        if kernel:
            seeds = seeds_for(seed, kernel, np.array([calls[i] for i in kernel]))
            left = min(options.max_tries - tries[i] for i in kernel)  # never past max_tries
            batch = maker.make(seeds, plan if left >= plan.max_attempts
                               else replace(plan, max_attempts=left))
            passed, hardest, ratings = _judged(batch, options)
        for row, i in enumerate(kernel):
            calls[i] += 1
            tries[i] += int(batch.info[row, 3])
            ok = row in passed
            rating = ratings.get(row)
            if ok and options.band is not None:
                seen.append(rating)  # type: ignore[arg-type]
                ok = options.band[0] <= rating <= options.band[1]  # type: ignore[operator]
            if ok:
                done[i] = _record(batch, row, i, seed, options, rating, tries[i],
                                  hardest.get(row))
            elif tries[i] >= options.max_tries:
                raise GenerationError(_failure(options, tries[i], seen))
            else:
                again.append(i)
        pending = sorted(again)
    return [done[i] for i in indices]


def _dug(maker: Maker, index: int, seed: int, call: int, options: Options, tries: int,
         seen: list[float]) -> Generated | None:
    """Puzzle ``index`` dug toward the targets from the grid of its try ``call`` (the grid
    the kernels make from that try's seed), judged as a kernel-made puzzle is; None when no
    puzzle along the dig met the targets and the bands."""
    from .techniques import judge

    g = options.geometry
    seeds = seeds_for(seed, [index], call)
    grid_plan = Plan(geometry=g, minimal=False, floor=0, min_givens=0, max_givens=g.n_cells,
                     stop_at=g.n_cells, node_budget=0, batch=1, max_attempts=1)
    batch = maker.make(seeds, grid_plan)
    if not batch.info[0, 5]:
        return None
    solution = batch.solutions[0].tolist()
    rng = np.random.default_rng(seeds[0].tolist())
    found = dig_toward(options.targets, g, solution, rng, symmetry=options.symmetry,
                       givens=options.givens)
    if found is None:
        return None
    judgement = judge(options.targets, found.puzzle, solution)
    if not judgement.ok or judgement.rating is None:
        return None
    rating: float | None = None
    if options.rater.name == "se":  # as _judged: the judged solve's rating
        rating = float(judgement.rating.rating)
    elif options.rate:
        rating = float(options.rater(np.array([found.puzzle.givens], np.uint8), g)[0])
    if options.band is not None:
        seen.append(rating)  # type: ignore[arg-type]
        if not options.band[0] <= rating <= options.band[1]:  # type: ignore[operator]
            return None
    givens = sum(1 for v in found.puzzle.givens if v)
    return Generated(puzzle=found.puzzle, solution=tuple(solution), index=index, seed=seed,
                     givens=givens, minimal=False, symmetry=options.symmetry, rating=rating,
                     level=None if rating is None else band_of(rating, options.rater.levels),
                     tries=tries, checks=found.solves, nodes=0,
                     rater=options.rater.name if rating is not None else None,
                     hardest=judgement.rating.hardest)


def _judged(batch: Batch, options: Options
            ) -> tuple[set[int], dict[int, str], dict[int, float]]:
    """The rows of ``batch`` the kernels accepted (givens band) that meet the technique
    targets, the hardest technique of those a ``needs`` solve rated, and the rating of each
    (when asked: the ``se`` rater's is the judged solve's own when there is one)."""
    from .techniques import judge

    passed = {row for row in range(len(batch.info)) if batch.info[row, 5]}
    hardest: dict[int, str] = {}
    ratings: dict[int, float] = {}
    if options.targets:
        fill = fills(options.targets, options.minimal)
        for row in sorted(passed):
            puzzle = Puzzle(options.geometry, tuple(batch.puzzles[row].tolist()))
            judgement = judge(options.targets, puzzle, batch.solutions[row].tolist())
            if fill and judgement.stalled:
                judgement = _filled(batch, row, puzzle, options)
            if not judgement.ok:
                passed.discard(row)
            elif judgement.rating is not None:
                hardest[row] = judgement.rating.hardest
                if options.rater.name == "se":
                    ratings[row] = float(judgement.rating.rating)
    rows = sorted(row for row in passed if row not in ratings)
    if options.rate and rows:
        if isinstance(options.rater, SeRater):  # the known solutions; the band's high end
            values = options.rater(batch.puzzles[rows], options.geometry,
                                   batch.solutions[rows],
                                   None if options.band is None else options.band[1])
        else:
            values = options.rater(batch.puzzles[rows], options.geometry)
        for row, value in zip(rows, values):
            ratings[row] = float(value)
    return passed, hardest, ratings


def _filled(batch: Batch, row: int, puzzle: Puzzle, options: Options) -> Judgement:
    """Fill the stalled puzzle of ``row`` toward the targets (:func:`.digging.fill_toward`,
    its order drawn from the puzzle itself, so the run stays reproducible); a filled puzzle
    that meets them replaces it in ``batch`` (its givens counted, not proven minimal)."""
    from .techniques import Judgement, judge

    solution = batch.solutions[row].tolist()
    rng = np.random.default_rng(batch.puzzles[row].tolist())
    found = fill_toward(options.targets, puzzle, solution, rng, symmetry=options.symmetry,
                        givens=options.givens)
    if found is None:
        return Judgement(False, stalled=True)
    judgement = judge(options.targets, found.puzzle, solution)
    if judgement.ok:
        batch.puzzles[row] = found.puzzle.givens
        batch.info[row, 0] = sum(1 for v in found.puzzle.givens if v)
        batch.info[row, 6] = max(1, int(batch.info[row, 6]))  # "unproven": not minimal
    return judgement


def _record(batch: Batch, row: int, index: int, seed: int, options: Options,
            rating: float | None, tries: int, hardest: str | None = None) -> Generated:
    """The record of puzzle ``index``, made in row ``row`` of ``batch`` (columns of ``info``:
    :data:`sudokit.generator.kernels.INFO`)."""
    givens, checks, nodes, _, _, _, unproven = (int(v) for v in batch.info[row])
    return Generated(
        puzzle=Puzzle(options.geometry, tuple(batch.puzzles[row].tolist())),
        solution=tuple(batch.solutions[row].tolist()), index=index, seed=seed, givens=givens,
        minimal=unproven == 0, symmetry=options.symmetry, rating=rating,
        level=None if rating is None else band_of(rating, options.rater.levels), tries=tries,
        checks=checks, nodes=nodes, rater=options.rater.name if rating is not None else None,
        hardest=hardest)


def _failure(options: Options, tries: int, seen: list[float]) -> str:
    what = []
    low, high = options.givens
    if (low, high) != (0, options.geometry.n_cells):
        what.append(f"{low}..{high} givens" if low != high else f"{low} givens")
    if options.band is not None:
        name = f"level {options.level!r} " if options.level else ""
        what.append(f"{name}rating {options.band[0]:g}..{options.band[1]:g} "
                    f"({options.rater.name})")
    what.extend(f"a solve that {target.text}" for target in options.targets)
    text = (f"no {options.geometry.shape_name} puzzle with {' and '.join(what) or 'these options'}"
            f" in {tries} {'try' if tries == 1 else 'tries'}")
    if seen:
        top = max(seen)
        shown = f"{top:.2f}" if np.isfinite(top) else "above the band"
        text += (f"; ratings seen: {min(seen):.2f}..{shown}, median "
                 f"{float(np.median(seen)):.2f}")
    return text + (" (raise --max-tries, or widen the band)" if not options.targets else
                   " (raise --max-tries, or ask for a less rare technique)")


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


def puzzle_stream(options: Options, seed: int, count: int | None, start: int, jobs: int
                  ) -> Iterator[Generated]:
    """Yield puzzles ``start``, ``start + 1``, ... of the run ``seed`` (``count`` of them; None:
    without end), made on ``jobs`` threads (by the kernels or their interpreted copy, as
    :meth:`~sudokit.generator.engine.Maker.make` says: the same puzzles).

    Raises:
        GenerationError: a puzzle met neither band within ``options.max_tries`` grids.
    """
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


def solution_grids(geometry: Geometry, count: int, seed: int, start: int = 0) -> np.ndarray:
    """Return ``count`` random solution grids (uint8[count, N*N]) made as puzzles are made
    (grid ``i`` of a seed is the solution of puzzle ``i`` of that seed).

    Raises:
        GenerationError: a search for a grid got stuck :data:`~sudokit.generator.grids.RESTARTS`
            times in a row (as when no grid of these rules exists).
    """
    n_cells = geometry.n_cells
    plan = Plan(geometry=geometry, minimal=False, floor=0, min_givens=0, max_givens=n_cells,
                stop_at=n_cells, node_budget=0, batch=1, max_attempts=1)
    batch = Maker(geometry).make(seeds_for(seed, range(start, start + count)), plan)
    if count and not batch.info[:, 5].all():
        raise GenerationError(f"no {geometry.shape_name} solution grid found in "
                              f"{RESTARTS} searches")
    return batch.solutions
