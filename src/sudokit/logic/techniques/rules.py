"""The rules drawn on the grid (thermometers, arrows, dots, lines, outside clues), one technique
per kind of :mod:`sudokit.model.rules`.

Each technique runs, rule by rule, the rule's own filter (:func:`sudokit.csp.rules.rule_filter`:
the digits of each cell that some filling of the whole rule from the current candidates
supports) and turns what it removes into a step: the rule's cells are the pattern, the text
names the rule in the field's words (``"thermometer r1c1-r1c4: r1c2 must be at least 2"``,
``"black Kropki dot r3c3-r3c4: r3c4<>5"``). A filter that finds no filling at all is a
contradiction, which the state's check reports
(:func:`~sudokit.logic.rule_filters.rule_contradiction`).

Ratings (Sudoku Explainer's scale, where this module places them; the human effort of one
rule, easiest first):

* pair relation 2.5 (Kropki and XV dots, whispers, thermometer steps, palindromes, clones,
  minimum/maximum): one look at two cells, just below the intersections (pointing 2.6);
* must-contain, renban, between and lockout lines 3.0: a set of digits over a few cells, like
  the naked and hidden pairs (3.0-3.4);
* linear sum 3.5 (arrows, little killers, zipper and region-sum lines): sum combinations,
  where killer solvers place cage combinations;
* indexing 4.0 and sequences 4.2 (sandwich sums, X-sums, skyscrapers): a clue read across a
  whole row or column, at the level of the fish and wings.
"""

from __future__ import annotations

from collections.abc import Callable

from ...model.geometry import Geometry
from ...model.rules import (
    Automaton,
    Between,
    Contains,
    Index,
    Lockout,
    Relation,
    Renban,
    Rule,
    WeightedSum,
)
from ..registry import technique
from ..rule_filters import filters, plans, searched_fillings, supported
from ..state import Board, bits
from ..step import Step

__all__ = ["RULE_TECHNIQUES", "peer_step", "rule_step"]

RULE_TECHNIQUES: dict[type[Rule], tuple[str, float, str]] = {
    Relation: ("Pair Relation", 2.5, ""),
    Contains: ("Must Contain", 3.0, "its digits must appear, so "),
    Renban: ("Renban", 3.0, "its digits form a run, so "),
    Between: ("Between Line", 3.0, "the middle digits lie between the ends, so "),
    Lockout: ("Lockout Line", 3.0, "the middle digits lie outside the ends, so "),
    WeightedSum: ("Rule Sum", 3.5, "by the combinations of the sum, "),
    Index: ("Indexing", 4.0, "by the cells it indexes, "),
    Automaton: ("Sequence Clue", 4.2, "by the fillings that meet the clue, "),
}
"""Per kind of rule: the technique's name, its rating and how its text says why a candidate
goes (before the cells' conclusions)."""


def rule_step(board: Board, kind: type) -> Step | None:
    """The first rule of ``kind`` (geometry order) whose filter removes candidates, as a step
    (None: no such rule)."""
    masks = board.masks
    for rule, filtered in filters(board.geometry):
        if type(rule) is not kind:
            continue
        domains, kept = supported(masks, rule, filtered)
        if kept is None:
            continue  # a contradiction: the state's check reports it
        gone = [(c, dom & ~keep) for c, dom, keep in zip(rule.cells, domains, kept)
                if dom & ~keep]
        if gone:
            return _step(board.geometry, rule, gone, dict(zip(rule.cells, kept)))
    return None


def _step(geometry: Geometry, rule: Rule, gone: list[tuple[int, int]],
          kept: dict[int, int]) -> Step:
    name, rating, why = RULE_TECHNIQUES[type(rule)]
    eliminations = tuple((c, d) for c, mask in sorted(gone) for d in bits(mask))
    label = geometry.label
    return Step(name, rating,
                lambda: f"{rule.describe(label)}: {why}"
                        + ", ".join(_conclusion(label(c), mask, kept[c]) for c, mask in gone),
                eliminations=eliminations, cells=tuple(rule.cells),
                digits=tuple(sorted({d for _c, d in eliminations})))


def _conclusion(cell: str, gone: int, kept: int) -> str:
    """What a cell becomes: ``r1c2=5``, ``r1c2 must be at least 2`` (a bound), or
    ``r1c2<>5,7`` (masks: bit d for digit d); ``r1c2 has no candidate left`` when ``kept`` is
    empty (the rule contradicts the candidates)."""
    digits = bits(kept)
    if not digits:
        return f"{cell} has no candidate left (<>{','.join(map(str, bits(gone)))})"
    low, high = digits[0], digits[-1]
    if len(digits) == 1:
        return f"{cell}={low}"
    removed = bits(gone)
    if all(d < low or d > high for d in removed):
        if removed[0] > high:
            return f"{cell} must be at most {high}"
        if removed[-1] < low:
            return f"{cell} must be at least {low}"
        return f"{cell} must be from {low} to {high}"
    return f"{cell}<>{','.join(map(str, removed))}"


def peer_step(board: Board, kind: type) -> Step | None:
    """The first rule of ``kind`` whose fillings, its cells that are peers taking different
    digits, leave out candidates (:func:`~sudokit.logic.rule_filters.searched_fillings`)."""
    masks, geometry = board.masks, board.geometry
    for (rule, filtered), plan in zip(filters(geometry), plans(geometry)):
        if type(rule) is not kind or plan is None:
            continue  # None: no two cells of the rule see each other, the filter said it all
        domains, kept = supported(masks, rule, filtered)
        if kept is None:
            continue
        found = searched_fillings(plan, list(kept))[0]  # compiled for sums and sequences
        if found is None:
            continue
        gone = [(c, dom & ~keep) for c, dom, keep in zip(rule.cells, domains, found)
                if dom & ~keep]
        if gone:
            step = _step(geometry, rule, gone, dict(zip(rule.cells, found)))
            name, rating, _why = RULE_TECHNIQUES[kind]
            return Step(f"{name} with Peers", rating + _PEERS, lambda: step.text.replace(
                ": ", " (cells that see each other differ): ", 1),
                eliminations=step.eliminations, cells=step.cells, digits=step.digits)
    return None


_PEERS = 0.5
"""What a rule's step with its peers adds to the rule's own rating."""


def _finder(kind: type, step: Callable[[Board, type], Step | None]
            ) -> Callable[[Board], Step | None]:
    def find(board: Board) -> Step | None:
        geometry = board.geometry
        return step(board, kind) if filters(geometry) else None

    find.__doc__ = f"The first step of a {kind.__name__} rule's filter (see the module)."
    find.__name__ = find.__qualname__ = f"find_{kind.__name__.lower()}"
    return find


_EXTRA = {WeightedSum: "killer", Relation: "non-consecutive"}
"""The variant rule each kind's techniques also take (:func:`filters`)."""

for _kind, (_name, _rating, _why) in RULE_TECHNIQUES.items():
    _needs = frozenset({_kind.kind, _EXTRA.get(_kind, "")})
    technique(_name, _rating, needs=_needs)(_finder(_kind, rule_step))
    technique(f"{_name} with Peers", _rating + _PEERS, needs=_needs)(_finder(_kind, peer_step))
