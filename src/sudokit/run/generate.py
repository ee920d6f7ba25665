"""The generator's front door: ``generate`` (``sudokit.generate``), ``random_grids`` and
``is_minimal``.

The door reads the request's text forms (``box="2x3"``), checks it
(:meth:`sudokit.generator.Options.build`) and streams the puzzles the engine makes
(:func:`sudokit.generator.stream.puzzle_stream`); ``is_minimal`` counts through the Sudoku door.

>>> from sudokit import generate
>>> [g] = generate(1, size=4, seed=7)
>>> g.puzzle.geometry.side, len(g.solution), g.givens <= 16
(4, 16, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ..compiled import Kernels
from ..errors import InvalidOption
from ..formats.text import parse_box
from ..generator import Generated, GenerationError, Options, grid_geometry
from ..generator.engine import exact_grids, new_seed
from ..generator.rating import Rater
from ..generator.stream import puzzle_stream, solution_grids
from ..generator.symmetry import Symmetry
from ..model.constraints import Variant
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle
from ..model.result import Status
from .doors import count_solutions, solve

__all__ = ["generate", "is_minimal", "random_grids"]

_EXISTENCE_SECONDS = 5.0
"""Time for proving that a grid exists (past it, the generator's own bounded search decides)."""


def _geometry(size: int | None, box: tuple[int, int] | str | None,
              variant: Variant | str) -> Geometry:
    """The request's grid, its box shape read from ``"RxC"`` text (see
    :func:`~sudokit.generator.grid_geometry`)."""
    variant = Variant(variant)
    return grid_geometry(size, parse_box(box) if isinstance(box, str) else box, variant)


def _prove_a_grid_exists(geometry: Geometry) -> None:
    """Solve the empty grid of ``geometry`` first (a few seconds at most), so that rules no
    grid satisfies (``anti-king`` or ``non-consecutive`` 4x4 ...) fail at once instead
    of making the generator search in vain. Standard rules need no proof: every box shape
    R x C has the grid whose row ``r`` is the first row shifted by ``(r % R) * C + r // R``.

    Raises:
        GenerationError: the empty grid is proved unsatisfiable.
    """
    from ..registry import default_method
    from .warm import interim_method, method_job

    if geometry.variant is Variant.STANDARD:
        return
    empty = Puzzle(geometry, (0,) * geometry.n_cells)  # propagate on a first use (run.warm)
    method = interim_method(Kernels.SEARCH, method_job(default_method()))
    result = solve(empty, method, time_limit=_EXISTENCE_SECONDS)
    if result.status is Status.UNSATISFIABLE:
        raise GenerationError(f"no {geometry.shape_name} grid exists: the empty grid has no "
                              "solution under these rules, so there is no puzzle to make")


def generate(
    count: int | None = 1, *, size: int | None = None, box: tuple[int, int] | str | None = None,
    variant: Variant | str = Variant.STANDARD, symmetry: Symmetry | str = Symmetry.NONE,
    minimal: bool = False, givens: int | tuple[int, int] | str | None = None,
    level: str | None = None, rating: tuple[float, float] | str | None = None,
    rater: str | Rater | Callable[..., float] | None = None, rate: bool = False,
    seed: int | None = None, start: int = 0, jobs: int = 1, node_budget: int | None = None,
    max_tries: int = 10_000, needs: str | None = None, uses: str | None = None,
) -> Iterator[Generated]:
    """Make ``count`` new puzzles, each with exactly one solution, lazily and in order.

    The options are checked at the call; the puzzles are made as the returned iterator is
    read (``for g in generate(10, seed=1): print(g.puzzle.line)``).

    Args:
        count: how many (None: without end).
        size: grid side N (default 9, or the side of ``box``); the box shape is the usual one
            (6 -> 2x3, 12 -> 3x4).
        box: box shape ``(rows, cols)`` or ``"RxC"`` (e.g. ``"2x3"``, ``"3x4"``).
        variant: whole-grid rules, a :class:`~sudokit.model.constraints.Variant` or its name:
            ``"standard"``, ``"diagonal"`` (Sudoku X), ``"hyper"``, ``"anti-knight"``,
            ``"non-consecutive"``, ... combined with ``+`` (``"diagonal+anti-king"``); puzzle
            types (jigsaw, killer, even-odd) and layouts (samurai ...) are not generated.
        symmetry: of the givens pattern: ``none``, ``rot180``, ``rot90``, ``mirror``, ``flip``,
            ``diagonal``, ``antidiagonal``, ``dihedral`` (see :class:`Symmetry`).
        minimal: prove every given necessary (no given, or with a symmetry no orbit of givens,
            can be removed). Without it each removal check gets ``node_budget`` search nodes and
            a check over budget keeps the given: unique, nearly always minimal for 9x9, faster
            for large grids.
        givens: accepted number of givens: ``30``, ``(22, 25)`` or ``"22-25"``. Without
            ``minimal``, removal stops at the high end; with it, puzzles outside are rejected.
        level: a level of Sudoku Explainer's scale (``easy``, ``medium``, ``hard``,
            ``expert``, ``extreme``: the bands of :data:`sudokit.logic.solve.LEVEL_BANDS`,
            the same words ``sudokit rate`` prints); without a ``rater`` it rates with
            ``"se"``. The node rater has no levels.
        rating: a band of the rater's value: ``(2.0, 3.5)`` or ``"2-3.5"``.
        rater: ``"nodes"`` (default without ``level``, search nodes, see :mod:`sudokit.generator.rating`),
            ``"se"`` (Sudoku Explainer's scale, by :mod:`sudokit.logic`), a :class:`Rater`, or
            a function of one puzzle returning a float.
        rate: rate every puzzle (``Generated.rating``) even without a band.
        seed: the run's seed (None: a fresh one, see ``Generated.seed``).
        start: index of the first puzzle (to continue a run: ``start=1000`` yields puzzles
            1000, 1001, ... of the same seed).
        jobs: threads (the output is the same for any number).
        node_budget: nodes per removal check without ``minimal`` (default 100 up to 9x9, where
            nearly every puzzle still comes out minimal, 10 above).
        max_tries: grids per puzzle before :class:`~sudokit.generator.GenerationError`.
        needs: a technique the technique engine names (``"X-Wing"``, ``"XY-Wing"``,
            ``"Unique Rectangle"``, ``"Pair Relation"`` on non-consecutive grids) or a family
            (``"fish"``, ``"wings"``, ``"chains"``, ``"uniqueness"``, ``"rules"``, ...): the
            hardest step of each puzzle's logical solve is one of them (see
            :mod:`sudokit.generator.techniques`); rated with ``"se"`` unless a ``rater`` is
            given (``Generated.hardest`` names the step's technique).
        uses: the same words: some step of each puzzle's logical solve is one of them.

    Returns:
        An iterator of :class:`~sudokit.generator.Generated` records (``.puzzle``,
        ``.solution``, ``.index``, ``.seed``, ``.givens``, ``.minimal``; ``.rating`` and
        ``.level`` are None unless a band, a rater or ``rate=True`` asks for them).

    Raises:
        InvalidOption: at the call: an unknown symmetry, level, technique or box shape; a
            technique that does not apply to the grid's rules; a bad band; a negative
            ``count``.
        ValueError: at the call: ``variant`` names no whole-grid rules.
        GenerationError: at the call: no grid satisfies the rules (the empty grid is solved
            first); while iterating: no puzzle met the givens or rating band within
            ``max_tries`` grids.
    """
    geometry = _geometry(size, box, variant)
    options = Options.build(geometry, symmetry=symmetry, minimal=minimal, givens=givens,
                            level=level, rating=rating, rater=rater, rate=rate,
                            node_budget=node_budget, max_tries=max_tries, needs=needs,
                            uses=uses)
    seed = new_seed() if seed is None else seed
    if count is not None and count < 0:
        raise InvalidOption(f"count must be at least 0, got {count}")
    interim, waiting = _compiled_kernels(geometry, options)
    _prove_a_grid_exists(geometry)
    stream = puzzle_stream(options, int(seed), count, int(start), max(1, int(jobs)))
    return _first_use(stream, ([] if interim else [Kernels.GENERATOR])
                      + _foreground_kernels(options, waiting))


def _uses_techniques(options: Options) -> bool:
    """Whether ``options`` run the technique engine (the ``se`` rater, technique targets)."""
    return bool(options.targets) or (options.rate and options.rater.name == "se")


def _foreground_kernels(options: Options, waiting: bool) -> list[Kernels]:
    """The kernels a first use of ``options`` compiles in the foreground, besides the
    generator's, the technique engine's and the node rater's (interpreted meanwhile on the
    command line and in the server, ``waiting``; else compiled here): the engine that makes
    the table of every small grid (interpreted, the 6x6 table would take a minute). The
    ``se`` rater needs no search: the generator knows each puzzle's solution
    (:class:`~sudokit.generator.rating.SeRater`)."""
    nodes = options.rate and options.rater.name == "nodes"
    kernels = [Kernels.TABLES] if nodes and not waiting else []
    if exact_grids(options.geometry) and Kernels.TABLES not in kernels:
        kernels.append(Kernels.TABLES)
    return kernels


def _compiled_kernels(geometry: Geometry, options: Options) -> tuple[bool, bool]:
    """On the command line's (and the server's) first use (:mod:`sudokit.run.warm`): start
    compiling the generator's kernels, the one-puzzle search of the existence check of
    ``geometry``'s rules, and the kernels of ``options``' rating (the technique engine's for
    the ``se`` rater and technique targets, the node rater's) in a background process, and
    run the generator's interpreted copy and the rater's Python twins until each group is
    ready (:func:`sudokit.compiled.run_as_python`: the same puzzles, steps and ratings).

    Returns:
        Whether the generator's copy runs, and whether some kernels compile in the background.
        Both False when they are compiled, or outside the command line (the kernels then
        compile here, when first called).
    """
    from ..compiled import ready, run_as_python
    from ..registry import default_method
    from .warm import compiling, method_job

    jobs = [(Kernels.GENERATOR, _warm_generator)]
    rated = []
    if _uses_techniques(options):
        rated.append((Kernels.LOGIC, method_job("logic")))
    elif options.rate and options.rater.name == "nodes":
        rated.append((Kernels.TABLES, _warm_node_rater))
    jobs.extend(rated)
    if geometry.variant is not Variant.STANDARD:
        jobs.append((Kernels.SEARCH, method_job(default_method())))
    waiting = compiling(jobs)
    interim = waiting and not ready(Kernels.GENERATOR)
    run_as_python(Kernels.GENERATOR, interim, until_ready=True)
    for group, _job in rated:
        run_as_python(group, waiting and not ready(group), until_ready=True)
    return interim, waiting


def _warm_node_rater() -> None:
    """Compile (or load) the node rater's kernel: one 9x9 puzzle rated (a background job)."""
    from ..generator.rating import NODE_RATER

    geometry = grid_geometry(None, None, Variant.STANDARD)
    puzzle = np.zeros((1, geometry.n_cells), np.uint8)
    puzzle[0, :9] = np.arange(1, 10)
    NODE_RATER(puzzle, geometry)


def _warm_generator() -> None:
    """Compile (or load) the generator's kernels: one 9x9 puzzle (a background job of
    :func:`sudokit.run.warm.compile_in_background`; the kernels are the same for every grid)."""
    from ..generator.engine import Maker, seeds_for

    geometry = grid_geometry(None, None, Variant.STANDARD)
    Maker(geometry).make(seeds_for(0, [0]), Options.build(geometry).plan())


def _first_use(stream: Iterator[Generated], kernels: list[Kernels]) -> Iterator[Generated]:
    """``stream``, saying on a terminal that each of ``kernels`` compiles now if it is not
    marked compiled (:func:`sudokit.run.warm.announce`), and marking them once the first puzzle
    is out (for the next runs)."""
    from ..compiled import mark_ready
    from .warm import announce

    for each in kernels:
        announce(each)
    for number, generated in enumerate(stream):
        if number == 0:
            for each in kernels:
                mark_ready(each)
        yield generated


def random_grids(count: int, *, size: int | None = None, box: tuple[int, int] | str | None = None,
                 variant: Variant | str = Variant.STANDARD, seed: int | None = None,
                 start: int = 0) -> np.ndarray:
    """Return ``count`` random solution grids (uint8[count, N*N]) made as the generator makes
    them (grid ``i`` of a seed is the solution of puzzle ``i`` of that seed).

    Raises:
        InvalidOption: as :func:`generate` for ``size``, ``box`` and ``variant``.
        GenerationError: no grid satisfies the rules.
    """
    geometry = _geometry(size, box, variant)
    _prove_a_grid_exists(geometry)
    return solution_grids(geometry, count, new_seed() if seed is None else int(seed), start)


def is_minimal(puzzle: Puzzle, method: str = "fast") -> bool:
    """Whether ``puzzle`` (assumed unique) loses uniqueness without any single given: each given
    removed in turn, each reduced puzzle counted to 2 with ``method``."""
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
