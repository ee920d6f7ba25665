"""The layered tables of the sequence rules (:class:`~sudokit.model.rules.Automaton`) the
compiled filter of :mod:`sudokit.fast.lines` walks.

A sequence rule read over cells that all see each other (an outside clue's row or column: a
sandwich, an X-sum, a skyscraper, a numbered room) holds distinct digits, which the rule's own
automaton cannot know: its state forgets which digits were read, so the regular filter (Pesant
2004) keeps sequences that repeat a digit (a sandwich's filling "2 2" for a 4). Such a rule is
lowered here to the product of its automaton with the set of digits read so far, a state
(automaton state, digit mask) per layer (cell), pruned to the states reachable from the start
and reaching an accepting state after the last cell, so the filter is domain consistent on the
rule together with the line's all-different. The product's states are numbered layer by layer
(a state of layer i reads the i-th cell), so the filter visits each layer's range only.

A rule whose cells do not all see each other, or whose product outgrows ``PRODUCT_LIMIT``,
keeps its own automaton (every layer ranges over all of its states).
"""

from __future__ import annotations

from ..model.geometry import Geometry
from ..model.rules import Automaton

__all__ = ["PRODUCT_LIMIT", "automaton_table"]

PRODUCT_LIMIT = 1 << 14
"""Most (state, digit set) pairs reachable forward in a sequence rule's product before it
falls back to the rule's own automaton."""

_Layer = dict[tuple[int, int], int]


def _distinct(rule: Automaton, geometry: Geometry) -> bool:
    """Whether every two cells of the rule see each other (so they hold distinct digits)."""
    return all(b in geometry.peers[a] for i, a in enumerate(rule.cells)
               for b in rule.cells[i + 1:])


def _forward(rule: Automaton, side: int) -> list[_Layer] | None:
    """Per layer the (state, mask) pairs reachable from the start (values unnumbered), None
    past ``PRODUCT_LIMIT``."""
    layers: list[_Layer] = [{(rule.start, 0): 0}]
    total = 1
    for _ in rule.cells:
        following: _Layer = {}
        for s, m in layers[-1]:
            row = rule.transitions[s]
            for d in range(side):
                bit = 1 << d
                if not m & bit and row[d] >= 0:
                    following[(row[d], m | bit)] = 0
        total += len(following)
        if total > PRODUCT_LIMIT:
            return None
        layers.append(following)
    return layers


def _prune(rule: Automaton, side: int, layers: list[_Layer]) -> list[list[tuple[int, int]]]:
    """Per layer the reachable pairs that also reach an accepting state after the last cell."""
    live = [[key for key in layers[-1] if key[0] in rule.accepting]]
    for layer in reversed(layers[:-1]):
        ahead = set(live[0])
        kept = []
        for s, m in layer:
            row = rule.transitions[s]
            if any(not m >> d & 1 and (row[d], m | 1 << d) in ahead for d in range(side)):
                kept.append((s, m))
        live.insert(0, kept)
    return live


def _product(rule: Automaton, side: int) -> tuple[list[int], int, int] | None:
    layers = _forward(rule, side)
    if layers is None:
        return None
    live = _prune(rule, side, layers)
    number: dict[tuple[int, int, int], int] = {}
    bounds = []
    for i, layer in enumerate(live):
        base = len(number)
        bounds += [base, base + len(layer)]
        number.update(((i, s, m), base + k) for k, (s, m) in enumerate(layer))
    flat = [-1] * (len(number) * side)
    for (i, s, m), k in number.items():
        row = rule.transitions[s]
        for d in range(side):
            if not m >> d & 1 and row[d] >= 0:
                flat[k * side + d] = number.get((i + 1, row[d], m | 1 << d), -1)
    last = len(rule.cells)
    flat += [int(key[0] == last) for key in number]
    return flat + bounds, 0, len(number)


def automaton_table(rule: Automaton, geometry: Geometry) -> tuple[list[int], int, int]:
    """A sequence rule's table for :class:`~sudokit.fast.drawn.Drawn` (see the module
    docstring).

    Returns:
        (table, start state, state count S): the table is S x N transitions (-1 dead), S
        accepting flags, then per layer 0..len(cells) the range [lo, hi) of its states.
    """
    side = geometry.side
    found = _product(rule, side) if side <= 63 and _distinct(rule, geometry) else None
    if found is not None:
        return found
    states = len(rule.transitions)
    flat = [s for row in rule.transitions for s in row]
    flat += [int(s in rule.accepting) for s in range(states)]
    return flat + [0, states] * (len(rule.cells) + 1), rule.start, states
