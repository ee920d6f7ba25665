"""The killer 45 rule: innies and outies.

A house (row, column, box) holds 1..N once, so its digits add up to N(N+1)/2 (45 on 9x9); a
band of k houses of one kind adds up to k times that. Take away the sums wholly inside
(killer cages with totals, little killers and other sums of plain cells): the cells left,
the **innies**, add up to the rest. Or add the sums that cross the band's border until they
cover it: the cells they have outside, the **outies**, add up to what they total beyond the
band. Either way a few cells get a known sum, filtered like a cage (their cells that see
each other differ)::

    45 rule on row 1: the sums inside total 38, so the innies r1c8+r1c9 = 7: r1c8<>7,8,9, ...

Rated 3.8 for one house (after the sums' own combinations, 3.5; the step killer solvers teach
right after cage combinations), 0.2 more per further house of the band.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...csp.rules import Filter, rule_filter
from ...model.geometry import Geometry
from ...model.rules import WeightedSum
from ..registry import technique
from ..rule_filters import FillingsPlan, filters, later_peers, searched_fillings
from ..state import Board, bits
from ..step import Step
from ..tables import per_geometry

__all__ = ["INNIES", "Derived", "derived_sums", "innies_outies"]

INNIES = 3.8
"""Rating of an innies/outies step on one house (0.2 more per further house)."""

_MOST = 4
"""The most innies or outies a derived sum may have (a person counts a few cells)."""


@dataclass(frozen=True)
class Derived:
    """A sum the 45 rule gives.

    Attributes:
        where: the band, ``"row 1"`` or ``"rows 1-2"``.
        houses: how many houses the band has.
        cells: the innies or outies, ascending.
        total: what they add up to.
        why: how, ``"the sums inside total 38, so the innies"``.
        filtered: the sum's filter (:func:`~sudokit.csp.rules.rule_filter`).
        later: per cell, the later cells that are its peers.
        plan: its fillings search (:func:`~sudokit.logic.rule_filters.searched_fillings`).
    """

    where: str
    houses: int
    cells: tuple[int, ...]
    total: int
    why: str
    filtered: Filter
    later: list[list[int]]
    plan: FillingsPlan


def _bands(geometry: Geometry) -> list[tuple[str, int, frozenset[int]]]:
    """Rows, columns and boxes alone, and bands of 2-3 consecutive rows or columns."""
    n = geometry.side
    out = [(name, 1, frozenset(unit))
           for name, unit in zip(geometry.unit_names[:3 * n], geometry.units[:3 * n])]
    for kind, lines in (("rows", geometry.rows), ("columns", geometry.cols)):
        for width in (2, 3):
            for first in range(n - width + 1):
                cells = frozenset().union(*lines[first:first + width])
                out.append((f"{kind} {first + 1}-{first + width}", width, cells))
    return out


@per_geometry
def derived_sums(geometry: Geometry) -> tuple[Derived, ...]:
    """Every innies and outies sum of the grid's bands (of at most :data:`_MOST` cells)."""
    if geometry.layout is not None:
        return ()  # a layout's rows and columns are per grid
    sums = [(frozenset(rule.cells), rule.total) for rule, _f in filters(geometry)
            if isinstance(rule, WeightedSum) and set(rule.coefficients) == {1}]
    house = geometry.side * (geometry.side + 1) // 2
    out = []
    for where, k, band in _bands(geometry):
        used: frozenset[int] = frozenset()
        inside, crossing = 0, []
        for cells, total in sums:
            if cells <= band and not cells & used:
                inside, used = inside + total, used | cells
        rest = band - used
        if 0 < len(rest) <= _MOST:
            out.append(_derived(geometry, where, k, rest, k * house - inside,
                                f"the sums inside total {inside}, so the innies"))
        outside: frozenset[int] = frozenset()
        covered, beyond = used, inside
        for cells, total in sums:
            if cells & rest and not cells <= band and not cells & covered:
                covered, beyond = covered | cells, beyond + total
                outside |= cells - band
                crossing.append(cells)
        if crossing and band <= covered and 0 < len(outside) <= _MOST:
            out.append(_derived(geometry, where, k, outside, beyond - k * house,
                                f"the sums covering it total {beyond}, so the outies"))
    return tuple(out)


def _derived(geometry: Geometry, where: str, k: int, cells: frozenset[int], total: int,
             why: str) -> Derived:
    ordered = tuple(sorted(cells))
    rule = WeightedSum(ordered, (1,) * len(ordered), total, "45 rule")
    filtered, later = rule_filter(rule, geometry.side), later_peers(geometry, ordered)
    return Derived(where, k, ordered, total, why, filtered, later,
                   FillingsPlan(rule, geometry.side, filtered, later))


@technique("Innies and Outies", INNIES, needs=frozenset({"killer", "linear-sum"}))
def innies_outies(board: Board) -> Step | None:
    """The first innies or outies sum (see the module) that removes candidates."""
    masks, geometry = board.masks, board.geometry
    best = None
    for derived in derived_sums(geometry):
        domains = [masks[c] << 1 for c in derived.cells]
        kept = derived.filtered(domains)
        if kept is None:
            continue  # a contradiction: the rules' own check reports it
        found = searched_fillings(derived.plan, list(kept))[0] if any(
            derived.later) else None
        keep = kept if found is None else found
        gone = [(c, dom & ~kp) for c, dom, kp in zip(derived.cells, domains, keep)
                if dom & ~kp]
        if gone and (best is None or derived.houses < best[0].houses):
            best = (derived, gone)
            if derived.houses == 1:
                break
    return None if best is None else _step(geometry, *best)


def _step(geometry: Geometry, derived: Derived, gone: Sequence[tuple[int, int]]) -> Step:
    eliminations = tuple((c, d) for c, mask in sorted(gone) for d in bits(mask))
    label = geometry.label
    added = "+".join(label(c) for c in derived.cells)
    why = derived.why if len(derived.cells) > 1 else derived.why[:-1]  # "the innie"
    return Step("Innies and Outies", INNIES + 0.2 * (derived.houses - 1),
                lambda: f"45 rule on {derived.where}: {why} {added} = {derived.total}: "
                        + ", ".join(f"{label(c)}<>{','.join(map(str, bits(mask)))}"
                                    for c, mask in sorted(gone)),
                eliminations=eliminations, cells=derived.cells,
                digits=tuple(sorted({d for _c, d in eliminations})))
