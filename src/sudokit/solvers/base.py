"""The one abstract base every Sudoku method implements.

A method is a class with a few declarations and one generator, ``solutions``; solving takes its
first grid and uniqueness counts up to two. Timing, limits-to-status mapping and verification are
the front door's job (:mod:`sudokit.run.doors`), never the solver's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidOption
from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats

if TYPE_CHECKING:
    import numpy as np

    from ..model.result import ChunkResult
    from ..registry import OptionValue

__all__ = ["Solver"]


_BOOL_WORDS = {"true": True, "yes": True, "on": True, "1": True,
               "false": False, "no": False, "off": False, "0": False}
_KIND_WORDS = {bool: "true or false", int: "an integer", float: "a number"}


def _option_text(choice: object) -> str:
    """A declared choice as typed on the command line: ``true``, ``none``, ``mrv``, ``2``."""
    return str(choice).lower()


class Solver(ABC):
    """A Sudoku solving method.

    Class attributes (declarations):
        name: registry name (``"propagate"``); a backend may follow a colon (``"sat:glucose4"``).
        summary: one line for ``sudokit methods``.
        requires: optional modules the method imports (checked before use).
        install: the pip requirement that provides them, for the error message (default: the
            module names).
        counters: the :class:`~sudokit.model.result.Stats` fields it fills.
        min_side, max_side: grid sides it supports.
        features: the variant features it understands (:attr:`Geometry.features
            <sudokit.model.geometry.Geometry.features>`: ``"diagonal"``, ``"killer"`` ...); a
            method never sees a grid with a feature it does not declare.
        options: option name -> (default, allowed values or None for any value).
        backends: names allowed after the colon (empty: none); ``default_backend`` is used without one.
        chunk_size: puzzles per ``solve_chunk`` call in batch work (1: one at a time).
        releases_gil: True when solving releases the GIL, so batch work may use threads
            (otherwise processes).
        local_only: backends and option names that run a program or name a path on this
            machine (``sat:exec`` and its ``cmd``): refused when the request comes from
            another program (:func:`sudokit.registry.check_remote`, used by ``sudokit serve``).

    Instances hold the chosen backend and options; they are cheap and stateless between calls.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    requires: ClassVar[tuple[str, ...]] = ()
    install: ClassVar[str] = ""
    counters: frozenset[str] = frozenset({"nodes"})  # a class's, or an instance's (its options)
    min_side: ClassVar[int] = 1
    max_side: ClassVar[int] = 64
    features: ClassVar[frozenset[str]] = frozenset({"diagonal"})
    options: ClassVar[Mapping[str, tuple[OptionValue, Sequence[OptionValue] | None]]] = {}
    backends: ClassVar[tuple[str, ...]] = ()
    default_backend: ClassVar[str | None] = None
    chunk_size: ClassVar[int] = 1
    releases_gil: ClassVar[bool] = False
    local_only: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, backend: str | None = None, **options: OptionValue) -> None:
        if backend is not None and self.backends and backend not in self.backends:
            raise InvalidOption(
                f"method {self.name!r} has no backend {backend!r}; choose one of "
                f"{', '.join(self.backends)}"
            )
        if backend is not None and not self.backends:
            raise InvalidOption(f"method {self.name!r} takes no backend after ':'")
        self.backend = backend or self.default_backend
        self.settings: dict[str, Any] = {}  # each option's declared type (its default's)
        for key, (default, _choices) in self.options.items():
            self.settings[key] = default
        for key, value in options.items():
            key = key.replace("-", "_")
            if key not in self.options:
                known = ", ".join(self.options) or "none"
                raise InvalidOption(f"method {self.name!r} has no option {key!r} (options: {known})")
            self.settings[key] = self._checked_option(key, value)

    @classmethod
    def _checked_option(cls, key: str, value: OptionValue) -> OptionValue:
        """An option value checked against its declaration: one of its choices, or of its
        default's type (bool, int or float; any text when the default is None). Text (from
        the command line, ``-o KEY=VALUE``) is converted: ``true``/``false`` (also yes/no,
        on/off) for a bool, numbers for numbers, a choice by its text.

        Raises:
            InvalidOption: a value outside the choices or not of the declared type.
        """
        default, choices = cls.options[key]
        if choices is not None:
            for choice in choices:
                if value == choice and isinstance(value, bool) is isinstance(choice, bool) or (
                        isinstance(value, str) and _option_text(choice) == value.lower()):
                    return choice
            raise InvalidOption(f"option {key}={value!r} of method {cls.name!r}: choose one of "
                                f"{', '.join(_option_text(c) for c in choices)}")
        if default is None:
            return value
        kind = type(default)
        if isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
            return value
        if isinstance(value, str):
            try:
                return _BOOL_WORDS[value.lower()] if kind is bool else kind(value)
            except (KeyError, ValueError):
                pass
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        raise InvalidOption(f"option {key}={value!r} of method {cls.name!r}: expected "
                            f"{_KIND_WORDS.get(kind, kind.__name__)}")

    @property
    def full_name(self) -> str:
        """``name`` or ``name:backend``."""
        return f"{self.name}:{self.backend}" if self.backend else self.name

    @classmethod
    def supports(cls, geometry: Geometry) -> bool:
        """Whether this method declares support for the geometry's side and every feature."""
        return (cls.min_side <= geometry.side <= cls.max_side
                and geometry.features <= cls.features)

    @abstractmethod
    def solutions(self, puzzle: Puzzle, stats: Stats, limits: Limits) -> Iterator[Grid]:
        """Yield solutions of ``puzzle`` one by one (each N**2 ints, row-major).

        Args:
            puzzle: the puzzle; its givens are consistent (no duplicate in a unit: the front door
                checks that first).
            stats: counters to increment (the ones in ``counters``); modified in place.
            limits: enter every search node through ``limits.count_node(stats)`` (node limits
                are exact: at most ``node_limit`` nodes) and call ``limits.check(stats)`` during
                any long step without nodes (building a formula), so the time limit holds.

        Raises:
            LimitReached: through ``limits.check``.
        """

    def warm_up(self, geometry: Geometry | None = None) -> None:
        """Load or compile what the first solve would (compiled kernels), so timings exclude it.

        Args:
            geometry: load only what this grid needs (None: everything).

        The default does nothing; comparisons and benchmarks call it before timing a method.
        """

    def solve_chunk(self, givens: np.ndarray, geometry: Geometry, limits: Limits,
                    count_limit: int) -> ChunkResult | None:
        """Solve many puzzles in one call, or return None to let the front door loop.

        A batch-capable method (the compiled engine) overrides this to pay Python overhead once
        per chunk.

        Args:
            givens: uint8[M, N*N] givens of one geometry (0 empty); not modified. Rows may
                hold a digit given twice in a unit: they must come back UNSATISFIABLE.
            geometry: the grid of every row.
            limits: ``time_limit`` (seconds) and ``node_limit`` apply to each puzzle separately.
            count_limit: solutions to look for per puzzle.

        Returns:
            A :class:`~sudokit.run.chunk.ChunkResult` (grids are verified by the caller), or None.
        """
        return None
