"""The one decision of the method, for every front (command line, library, server, board).

No method named: a small input (at most :data:`~sudokit.registry.SMALL_INPUT` puzzles, none
larger than :data:`~sudokit.registry.SMALL_SIDE`) is answered by the *default path*:
``propagate`` (pure Python, Norvig 2006: nothing to load or compile) with a budget of
:data:`QUICK_SECONDS` per puzzle, and every puzzle it has not finished within it is handed
over, with the rest of its time limit, to :func:`handover_method`: CDCL (``sat``, CaDiCaL
through PySAT: nothing to compile, and it solves every published rule puzzle of
``tests/data/rules``), or the default large-input method where CDCL cannot run or does not take
the grid. Once the compiled engine's one-puzzle search is compiled, the hand-over to CDCL is
a race against it (:mod:`sudokit.run.race`: CDCL and the engine in two forked children, the
engine at once when a core is free, else after a head start of CDCL's), since CDCL alone ran
past 30 s on a published puzzle the engine searches in 96 nodes. No single bet: ``propagate`` alone timed out on 8-11 of 120 published rule puzzles
(issue 39), CDCL alone pays its encoding on every easy one. A larger input goes to
:func:`sudokit.registry.default_method` (``portfolio``: the compiled engine raced against
CDCL), answered by ``propagate`` while its kernels compile (:mod:`sudokit.run.warm`).

:func:`decide` is the decision; :func:`sudokit.run.chunk.solve_chunk` carries the hand-over out
(:attr:`Request.handover <sudokit.run.request.Request.handover>`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .. import registry as _registry
from ..model.result import Limits
from .request import Request

if TYPE_CHECKING:
    from ..model.geometry import Geometry
    from ..model.result import Status
    from ..model.variants import VariantLike
    from ..registry import OptionValue

__all__ = ["QUICK_METHOD", "QUICK_SECONDS", "choose_method", "decide", "handover_method",
           "is_small", "left_after", "quick_limits", "stopped_by_budget", "taker"]

QUICK_METHOD = "propagate"
"""The method that answers first on the default path of a small input."""

QUICK_SECONDS = 0.05
"""Seconds of ``propagate`` per puzzle on the default path before the puzzle is handed over
(most published rule puzzles it solves take less; those it does not finish in it take
seconds to minutes there, and tens of milliseconds in CDCL: ``benchmarks/default_path.py``)."""


def is_small(puzzles: int, side: int, complete: bool = True) -> bool:
    """Whether an input is small: complete, at most :data:`~sudokit.registry.SMALL_INPUT`
    puzzles, none with a side over :data:`~sudokit.registry.SMALL_SIDE`."""
    return complete and puzzles <= _registry.SMALL_INPUT and side <= _registry.SMALL_SIDE


def choose_method(method: str | None, puzzles: int = 0, side: int = 0,
                  complete: bool = False) -> str:
    """The method that answers first: ``method`` if named; :data:`QUICK_METHOD` for a small
    input (:func:`is_small`); else :func:`sudokit.registry.default_method`.

    Args:
        method: the method the user named, or None.
        puzzles: puzzles read so far.
        side: the largest grid side among them.
        complete: whether they are the whole input.
    """
    if method:
        return method
    if is_small(puzzles, side, complete):
        return QUICK_METHOD
    return _registry.default_method()


def handover_method() -> str:
    """The method given what ``propagate`` does not finish on the default path: ``sat`` when
    PySAT is installed, else :func:`sudokit.registry.default_method`. A grid ``sat`` does not
    take goes on to the default method (:func:`sudokit.run.chunk.solve_chunk`)."""
    if _registry.can_run("sat"):  # nothing imported: PySAT loads only when handed over to
        return "sat"
    return _registry.default_method()


def taker(method: str | None, geometry: Geometry) -> str:
    """The hand-over method for a grid: ``method`` if it takes the grid's size and rules, else
    :func:`sudokit.registry.default_method`."""
    if method is not None and _registry.get_solver(method).supports(geometry):
        return method
    return _registry.default_method()


def quick_limits(limits: Limits) -> Limits | None:
    """The limits of the quick method on the default path (:data:`QUICK_SECONDS`, the node
    limit kept), or None when the budget is the whole time limit (nothing is handed over)."""
    if limits.time_limit is not None and QUICK_SECONDS >= limits.time_limit:
        return None
    return Limits(QUICK_SECONDS, limits.node_limit)


def left_after(limits: Limits, seconds: float) -> Limits:
    """The limits of the hand-over method: the rest of the time limit after ``seconds``."""
    if limits.time_limit is None:
        return Limits(None, limits.node_limit)
    return Limits(max(0.0, limits.time_limit - seconds), limits.node_limit)


def stopped_by_budget(status: Status, message: str | None) -> bool:
    """Whether the quick method stopped on its time budget (UNKNOWN, a time limit): a puzzle
    to hand over; a node limit is the caller's own and ends the puzzle."""
    from ..model.result import Status

    return status == Status.UNKNOWN and "time limit" in (message or "")


def decide(method: str | None, options: Mapping[str, OptionValue] | None = None,
           limits: Limits = Limits(), count_limit: int | None = 1,
           variant: VariantLike = "standard", *, puzzles: int = 1, side: int = 9,
           complete: bool = True, trace: bool = False) -> Request:
    """The request a front runs: the method (:func:`choose_method`), and on the default path
    of a small input the hand-over of what :data:`QUICK_METHOD` does not finish within
    :data:`QUICK_SECONDS` (:func:`handover_method`). Options go to a named method only; with
    options and no method named, the default method takes them (no default path); so does a
    count past two solutions (CDCL enumerates by blocking each grid found: 47,688 grids took
    it over the time limit where the compiled engine counts them in a second).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: a bad method or option.
        InvalidPuzzle: no variant has the name ``variant``.
    """
    counting = count_limit is None or count_limit > 2  # CDCL blocks each grid: the engine
    chosen = method or (_registry.default_method() if options or counting else
                        choose_method(None, puzzles, side, complete))
    handover = None
    if method is None and not options and chosen == QUICK_METHOD and not trace:
        handover = handover_method()
    request = Request.build(chosen, options, limits, count_limit, variant, trace)
    return request if handover is None else request.handing_over(handover)
