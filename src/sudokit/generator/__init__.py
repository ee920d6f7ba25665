"""Make puzzles: unique, minimal, symmetric, at a chosen difficulty, in any size and box shape.

Each puzzle is made by the kernels of :mod:`sudokit.generator.kernels` (compiled by Numba, or run
as Python by :func:`sudokit.compiled.interpreted` while a first use compiles them): a random solution grid
(a randomised search, then a random relabelling, band, stack, row and column shuffle and
transposition), then givens removed in a random order of the symmetry's cell orbits while the
grid stays the only solution, each removal checked by the engine. Puzzle ``i`` of a run
depends only on the seed, ``i`` and the options, so the same seed gives the same puzzles with any
number of threads, on any machine.

This package is the engine: the checked request (:class:`Options`), its record
(:class:`Generated`), the making (:mod:`.stream`, :mod:`.engine`, :mod:`.kernels`), the raters
(:mod:`.rating`) and the symmetries (:mod:`.symmetry`). The front door is
:func:`sudokit.generate` (:mod:`sudokit.run.generate`). Importing this module loads no NumPy.

>>> grid_geometry(None, (2, 3), "standard").shape_name
'6x6 (2x3 boxes)'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import GenerationError, InvalidOption
from ..model.constraints import Variant
from ..model.geometry import Geometry, box_shape_for_side
from .symmetry import Symmetry

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..model.puzzle import Grid, Puzzle
    from .engine import Plan
    from .rating import Rater
    from .techniques import TechniqueTarget

__all__ = ["GenerationError", "Generated", "Options", "grid_geometry"]


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
        rater: the rater's name (None when unrated).
        hardest: the technique of the hardest step of the puzzle's logical solve, when a
            ``needs`` target had it found (None otherwise).
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
    hardest: str | None = None

    @property
    def line(self) -> str:
        return self.puzzle.line

    def __str__(self) -> str:
        return str(self.puzzle)

    def as_dict(self) -> dict[str, object]:
        """The fields as JSON-ready values (puzzle and solution in line form)."""
        from ..model.puzzle import Puzzle

        geometry = self.puzzle.geometry
        return {"index": self.index, "seed": self.seed, "puzzle": self.puzzle.line,
                "solution": Puzzle(geometry, self.solution).line, "size": geometry.side,
                "box": f"{geometry.box_rows}x{geometry.box_cols}",
                "variant": geometry.variant.text, "givens": self.givens,
                "minimal": self.minimal, "symmetry": self.symmetry.value,
                "rating": self.rating, "rater": self.rater, "level": self.level,
                "tries": self.tries, "checks": self.checks, "nodes": self.nodes,
                **({"hardest": self.hardest} if self.hardest is not None else {})}


def grid_geometry(size: int | None, box: tuple[int, int] | None,
                  variant: Variant | str) -> Geometry:
    """Return the grid of a request: ``box`` shape (its side must be ``size`` when both are
    given), else the usual box shape of side ``size`` (default 9).

    Raises:
        InvalidOption: ``size`` and ``box`` disagree, ``size`` is outside 1..64, or it has no
            box shape but 1 x N (a Latin square: ask for ``box=(1, N)``).
        InvalidPuzzle: an unknown variant or an impossible box shape.
    """
    variant = Variant(variant)
    if box is not None:
        shape = int(box[0]), int(box[1])
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
    from .rating import parse_band

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


def _rating_band(rater: Rater, level: str | None,
                 rating: tuple[float, float] | str | None) -> tuple[float, float] | None:
    from .rating import parse_band

    if level is not None and rating is not None:
        raise InvalidOption("give a level or a rating band, not both")
    if level is not None:
        if not rater.levels:
            raise InvalidOption(f"the {rater.name!r} rater has no levels (a level is a band "
                                f"of Sudoku Explainer's scale, rater 'se'); give a rating "
                                f"band instead")
        if level not in rater.levels:
            raise InvalidOption(f"unknown level {level!r} for the {rater.name!r} rater: "
                                f"expected one of {', '.join(rater.levels)}")
        return rater.levels[level]
    if rating is not None:
        return parse_band(rating) if isinstance(rating, str) else (float(rating[0]),
                                                                   float(rating[1]))
    return None


@dataclass(frozen=True)
class Options:
    """A checked request (built by :meth:`build`).

    Attributes:
        geometry, symmetry, minimal: as in :func:`sudokit.generate`.
        givens: accepted givens counts ``(low, high)``.
        band: accepted ratings ``(low, high)``, or None.
        rater: the rater (used when ``band`` is set or ``rate`` is True).
        rate: rate every puzzle (for output) even without a band.
        node_budget: nodes per uniqueness check when not ``minimal``.
        max_tries: grids per puzzle before giving up.
        level: the level band asked for by name (None: none, or a rating band).
        targets: technique targets every puzzle meets (:mod:`.techniques`; empty: none).
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
    targets: tuple[TechniqueTarget, ...] = ()

    @classmethod
    def build(cls, geometry: Geometry, *, symmetry: Symmetry | str = Symmetry.NONE,
              minimal: bool = False, givens: int | tuple[int, int] | str | None = None,
              level: str | None = None, rating: tuple[float, float] | str | None = None,
              rater: str | Rater | Callable[..., float] | None = None, rate: bool = False,
              node_budget: int | None = None, max_tries: int = 10_000,
              needs: str | None = None, uses: str | None = None) -> Options:
        """Check a request's values (the keywords of :func:`sudokit.generate`, which documents
        them) and return its options.

        Raises:
            InvalidOption: an unknown symmetry, rater, level or technique; a level and a
                rating band together; a bad band; ``max_tries`` below 1.
        """
        from .rating import get_rater
        from .techniques import resolve_target

        try:
            symmetry = Symmetry(symmetry)
        except ValueError:
            raise InvalidOption(f"unknown symmetry {symmetry!r}: expected one of "
                                f"{', '.join(s.value for s in Symmetry)}") from None
        targets = tuple(resolve_target(word, geometry, needs=need)
                        for word, need in ((needs, True), (uses, False)) if word is not None)
        if (level is not None or targets) and rater is None:  # a level is a band of SE's scale
            rater = "se"
        the_rater = get_rater(rater)
        band = _rating_band(the_rater, level, rating)
        if max_tries < 1:
            raise InvalidOption(f"max_tries must be at least 1, got {max_tries}")
        budget = (100 if geometry.side <= 9 else 10) if node_budget is None else int(node_budget)
        return cls(geometry=geometry, symmetry=symmetry, minimal=bool(minimal),
                   givens=_givens_band(givens, geometry.n_cells), band=band, rater=the_rater,
                   rate=bool(rate) or band is not None, node_budget=max(0, budget),
                   max_tries=max_tries, level=level, targets=targets)

    def plan(self) -> Plan:
        """What the kernels make for these options (one kernel call tries 16 grids per
        puzzle at most, and never more than ``max_tries``)."""
        from .engine import Plan

        low, high = self.givens
        exact_target = not self.minimal and high < self.geometry.n_cells
        return Plan(geometry=self.geometry, symmetry=self.symmetry, minimal=self.minimal,
                    floor=0 if self.minimal else low, min_givens=low, max_givens=high,
                    stop_at=high if exact_target else -1, node_budget=self.node_budget,
                    batch=1, max_attempts=min(16, self.max_tries))
