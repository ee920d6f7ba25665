"""Matplotlib figures: the AC-3 queue length per step, and the time per instance of each method.

Figures are built with :class:`matplotlib.figure.Figure` (Agg canvas), never through pyplot's
global state, so they work headless, in threads and in notebooks (a Figure displays inline).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .compare import Comparison
from .result import Status

__all__ = ["queue_figure", "times_figure", "save_figure"]


def _figure(width: float = 8.0, height: float = 4.0) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def queue_figure(trace: Sequence[int], title: str = "AC-3 queue length") -> Any:
    """Plot the AC-3 queue length after every step (x: step, y: arcs in the queue).

    The line drops to zero where each AC-3 call ends (one call per MAC assignment).

    Args:
        trace: queue lengths, e.g. ``solve(puzzle, "mac", trace=True).stats.trace``.
        title: the axes title.

    Returns:
        A ``matplotlib.figure.Figure``; its one line holds ``trace`` as y data.

    Raises:
        ValueError: an empty trace (the method recorded no AC-3 step).
    """
    if not trace:
        raise ValueError("empty trace: the method recorded no AC-3 step (use an AC-3 method, "
                         "e.g. mac)")
    figure = _figure()
    axes = figure.add_subplot()
    axes.plot(range(len(trace)), trace, linewidth=0.8)
    axes.set_xlabel("AC-3 step (arc revised)")
    axes.set_ylabel("queue length (arcs)")
    axes.set_title(title)
    axes.set_xlim(0, max(1, len(trace) - 1))
    axes.set_ylim(bottom=0)
    return figure


def times_figure(comparison: Comparison, title: str = "time per instance") -> Any:
    """Plot each method's wall time per instance on a log scale, timeouts marked with x.

    Args:
        comparison: from :func:`sudokit.compare.compare`.
        title: the axes title.

    Returns:
        A ``matplotlib.figure.Figure`` with one line per method (x: instance number from 1,
        y: seconds) and, with a time limit, a dashed horizontal line at it.
    """
    from matplotlib.ticker import MaxNLocator

    figure = _figure()
    axes = figure.add_subplot()
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    for row in comparison.rows:
        xs = range(1, len(row.seconds) + 1)
        seconds = [max(s, 1e-6) for s in row.seconds]
        (line,) = axes.plot(xs, seconds, marker=".", linewidth=0.6, label=row.method)
        late = [(x, s) for x, s, st in zip(xs, seconds, row.statuses) if st is Status.UNKNOWN]
        if late:
            axes.scatter(*zip(*late), marker="x", s=40, color=line.get_color())
    if comparison.time_limit:
        axes.axhline(comparison.time_limit, linestyle="--", color="grey", linewidth=0.8,
                     label=f"limit {comparison.time_limit:g} s (x: timeout)")
    axes.set_yscale("log")
    axes.set_xlabel("instance")
    axes.set_ylabel("seconds")
    axes.set_title(title)
    axes.legend(fontsize="small")
    return figure


def save_figure(figure: Any, path: str | Path, dpi: int = 120) -> Path:
    """Write ``figure`` to ``path`` (PNG, SVG or PDF by extension) and return the path.

    Raises:
        OSError: the file cannot be written.
    """
    path = Path(path)
    figure.savefig(path, dpi=dpi)
    return path
