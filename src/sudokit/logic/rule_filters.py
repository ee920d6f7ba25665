"""The filters of the rules on a grid, for the candidates state and the rule techniques.

:func:`filters` pairs each rule of a geometry with its filter
(:func:`sudokit.csp.rules.rule_filter`), killer cages and the non-consecutive rule included as
rules; :func:`rule_contradiction` is the state's check that some filling keeps every rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..csp.rules import Filter, rule_filter
from ..model.geometry import Geometry
from ..model.rules import Relation, Rule, WeightedSum
from .tables import per_geometry

__all__ = ["filter_round", "filters", "rule_contradiction", "supported"]


@per_geometry
def filters(geometry: Geometry) -> tuple[tuple[Rule, Filter], ...]:
    """Each rule of the geometry with its filter (made once per geometry); a killer cage with
    a total counts as a sum (its digits differ as peers: the rule steps with peers see that), and the
    non-consecutive rule as a pair relation on each two orthogonal neighbours."""
    n = geometry.side
    cages = tuple(WeightedSum.of([(c, 1) for c in cage.cells], cage.total, "killer cage")
                  for cage in geometry.cages if cage.total)
    apart = frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1)
                      if abs(a - b) != 1)
    neighbours = tuple(Relation((a, b), apart, "non-consecutive pair")
                       for a, b in geometry.consecutive_pairs)
    return tuple((rule, rule_filter(rule, n))
                 for rule in geometry.constraints + cages + neighbours)


def supported(masks: Sequence[int], rule: Rule, filtered: Filter
              ) -> tuple[list[int], tuple[int, ...] | None]:
    """The candidates of the rule's cells (bit d for digit d, the filters' convention) and
    what its filter keeps of them (None: no filling keeps the rule)."""
    domains = [masks[c] << 1 for c in rule.cells]
    return domains, filtered(domains)


def rule_contradiction(geometry: Geometry, masks: Sequence[int]) -> str | None:
    """Why no filling of the candidates ``masks`` (bit d-1 for digit d) keeps some rule of
    the geometry, or None."""
    for rule, filtered in filters(geometry):
        if supported(masks, rule, filtered)[1] is None:
            return f"{rule.describe(geometry.label)} cannot be kept"
    return None


def filter_round(geometry: Geometry, masks: list[int]) -> str | dict[int, int]:
    """Apply every rule's filter once to ``masks`` (changed in place): per cell changed, one
    digit it lost; or the rule (described) no filling keeps."""
    changed: dict[int, int] = {}
    for rule, filtered in filters(geometry):
        domains = [masks[c] << 1 for c in rule.cells]
        kept = filtered(domains)
        if kept is None:
            return rule.describe(geometry.label)
        for c, dom, keep in zip(rule.cells, domains, kept):
            if dom != keep:
                masks[c] = keep >> 1
                lost = dom & ~keep
                changed[c] = (lost & -lost).bit_length() - 1  # its lowest digit
    return changed
