"""Thermometers read whole: each cell's bounds from its place on the thermometer.

Digits strictly increase from the bulb, so the k-th cell of a thermometer of L cells holds at
least k and at most N - L + k, and more from its neighbours' candidates: at least a earlier
cell's lowest candidate plus the cells between, at most a later cell's highest candidate minus
the cells between. The text names the bound and where it comes from, in the field's words::

    thermometer r1c1-r1c7: r1c3, cell 3 of 7, at least 3 (r1c1 at least 1), at most 7 (r1c7 at most 9)

A thermometer is a chain of pair relations (:func:`sudokit.model.rulebook.thermometer`); this
technique follows each path from a bulb to a tip (a branching thermometer has several) and
runs before the Pair Relation technique at the same rating (2.5, one look along a line), so
the steps of a thermometer's pairs come as the thermometer's.
"""

from __future__ import annotations

from ...model.geometry import Geometry
from ...model.rules import Relation
from ..registry import technique
from ..state import Board, bits
from ..step import Step
from ..tables import per_geometry

__all__ = ["THERMOMETER", "thermometer_bounds", "thermometer_paths", "thermometer_step"]

THERMOMETER = 2.5
"""Rating of a thermometer step (as a pair relation's: one look along the line)."""


@per_geometry
def thermometer_paths(geometry: Geometry) -> tuple[tuple[int, ...], ...]:
    """Every path of cells from a bulb to a tip along the thermometers' steps."""
    after: dict[int, list[int]] = {}
    heads = set()
    for rule in geometry.constraints:
        if isinstance(rule, Relation) and rule.name == "thermometer":
            after.setdefault(rule.cells[0], []).append(rule.cells[1])
            heads.add(rule.cells[1])
    paths: list[tuple[int, ...]] = []

    def walk(path: tuple[int, ...]) -> None:
        nxt = [c for c in after.get(path[-1], ()) if c not in path]
        if not nxt:
            paths.append(path)
        for c in nxt:
            walk(path + (c,))

    for bulb in sorted(set(after) - heads):
        walk((bulb,))
    return tuple(paths)


def thermometer_step(board: Board) -> Step | None:
    """The first thermometer path whose bounds remove candidates, as a step."""
    masks, geometry = board.masks, board.geometry
    for path in thermometer_paths(geometry):
        low = [bits(masks[c])[0] + 1 if masks[c] else 0 for c in path]
        high = [bits(masks[c])[-1] + 1 if masks[c] else 0 for c in path]
        if not all(low):
            continue
        above = [max(range(i + 1), key=lambda j: (low[j] + i - j, -j)) for i in range(len(path))]
        below = [min(range(i, len(path)), key=lambda j: (high[j] - (j - i), j))
                 for i in range(len(path))]
        gone, parts = [], []
        for i, cell in enumerate(path):
            lo, hi = low[above[i]] + i - above[i], high[below[i]] - (below[i] - i)
            outside = [d for d in range(low[i], high[i] + 1)
                       if masks[cell] >> (d - 1) & 1 and not lo <= d <= hi]
            if outside:
                gone += [(cell, d) for d in outside]
                parts.append(_bounds(geometry, path, i, lo, hi, above[i], below[i], low, high))
        if gone:
            return _step(geometry, path, gone, parts)
    return None


def _bounds(geometry: Geometry, path: tuple[int, ...], i: int, lo: int, hi: int, first: int,
            last: int, low: list[int], high: list[int]) -> str:
    """``r1c3, cell 3 of 7, at least 3 (r1c1 at least 1), at most 7 (r1c7 at most 9)``: a
    bound whose source is the cell itself is left out."""
    label = geometry.label
    text = f"{label(path[i])}, cell {i + 1} of {len(path)}"
    if first != i and lo > low[i]:
        text += f", at least {lo} ({label(path[first])} at least {low[first]})"
    if last != i and hi < high[i]:
        text += f", at most {hi} ({label(path[last])} at most {high[last]})"
    return text


def _step(geometry: Geometry, path: tuple[int, ...], gone: list[tuple[int, int]],
          parts: list[str]) -> Step:
    ends = f"{geometry.label(path[0])}-{geometry.label(path[-1])}"
    eliminations = tuple(sorted(gone))
    return Step("Thermometer", THERMOMETER, lambda: f"thermometer {ends}: " + "; ".join(parts),
                eliminations=eliminations, cells=path,
                digits=tuple(sorted({d for _c, d in eliminations})))


@technique("Thermometer", THERMOMETER, order=-1, needs=frozenset({"pair-relation"}))
def thermometer_bounds(board: Board) -> Step | None:
    """The first thermometer whose bounds remove candidates (see the module)."""
    return thermometer_step(board) if thermometer_paths(board.geometry) else None
