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

A rule whose cells do not all see each other, or whose product outgrows ``PRODUCT_LIMIT``
(or whose (state, digit set) pairs do not fit an int64 key), keeps its own automaton (every
layer ranges over all of its states). The product is built with NumPy, a layer at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..model.geometry import Geometry
from ..model.rules import Automaton

__all__ = ["PRODUCT_LIMIT", "automaton_table", "lines_distinct"]

PRODUCT_LIMIT = 1 << 14
"""Most (state, digit set) pairs reachable forward in a sequence rule's product before it
falls back to the rule's own automaton."""

def lines_distinct(rule: Automaton, geometry: Geometry,
                   near: Sequence[frozenset[int]] | None = None) -> bool:
    """Whether every two cells of the rule see each other (so they hold distinct digits);
    ``near``: the geometry's peers as sets, when the caller has them."""
    cells = rule.cells
    if near is None:
        return all(b in geometry.peers[a] for i, a in enumerate(cells) for b in cells[i + 1:])
    key = (id(near), cells)
    found = _LINES.get(key)
    if found is not None and found[0] is near:
        return found[1]
    distinct = all(near[a].issuperset(cells[i + 1:]) for i, a in enumerate(cells))
    if len(_LINES) > 4096:
        _LINES.clear()
    _LINES[key] = (near, distinct)
    return distinct


_LINES: dict[tuple[int, tuple[int, ...]], tuple[object, bool]] = {}
""":func:`lines_distinct` by (id of the peer sets, cells) -> (those peer sets, kept alive so the
id stays theirs; the answer): the rows and columns of outside clues recur from puzzle to puzzle."""


def _step(keys: np.ndarray, trans: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Each product state's successor per digit (``keys``: state << side | mask, int64[K]):
    (int64[K, side] keys, bool[K, side] whether the digit is allowed: unread, not dead)."""
    s, m = keys >> side, keys & ((1 << side) - 1)
    bits = np.left_shift(1, np.arange(side, dtype=np.int64))
    target = trans[s]
    ok = (target >= 0) & ((m[:, None] & bits) == 0)
    return (np.maximum(target, 0) << side) | m[:, None] | bits, ok


def _layers(rule: Automaton, side: int, trans: np.ndarray) -> list[np.ndarray] | None:
    """Per layer the sorted keys reachable from the start that also reach an accepting state
    after the last cell; None past ``PRODUCT_LIMIT`` (forward)."""
    layers = [np.array([rule.start << side], np.int64)]
    total = 1
    for _ in rule.cells:
        following, ok = _step(layers[-1], trans, side)
        layers.append(np.unique(following[ok]))
        total += layers[-1].size
        if total > PRODUCT_LIMIT:
            return None
    accepting = np.zeros(len(rule.transitions), bool)
    accepting[list(rule.accepting)] = True
    layers[-1] = layers[-1][accepting[layers[-1] >> side]]
    for i in range(len(layers) - 2, -1, -1):
        following, ok = _step(layers[i], trans, side)
        live = ok & np.isin(following, layers[i + 1])
        layers[i] = layers[i][live.any(axis=1)]
    return layers


def _product(rule: Automaton, side: int) -> tuple[np.ndarray, int, int] | None:
    trans = np.array(rule.transitions, np.int64)[:, :side]
    layers = _layers(rule, side, trans)
    if layers is None:
        return None
    starts = np.cumsum([0] + [layer.size for layer in layers])
    flat = []
    for i, layer in enumerate(layers[:-1]):  # each state's successor numbers, -1 dead
        following, ok = _step(layer, trans, side)
        ahead = layers[i + 1]
        at = np.minimum(np.searchsorted(ahead, following), max(ahead.size - 1, 0))
        hit = ok & (ahead[at] == following) if ahead.size else np.zeros_like(ok)
        flat.append(np.where(hit, starts[i + 1] + at, -1))
    flat.append(np.full((layers[-1].size, side), -1))
    count = int(starts[-1])
    accepting = np.zeros(count, np.int64)
    accepting[count - layers[-1].size:] = 1  # accepting: the last layer
    bounds = np.stack([starts[:-1], starts[1:]], axis=1).ravel()
    table = np.concatenate([np.concatenate(flat).ravel(), accepting, bounds]).astype(np.int32)
    return table, 0, count


_PRODUCTS: dict[tuple, tuple[object, tuple[np.ndarray, int, int] | None]] = {}
"""Products by shape: (id of the rule's transition table, its accepting states, start, cell
count, side) -> (that
table, kept alive so the id stays its own; the product or None). The model shares one
transition table among the clues of one shape (:meth:`~sudokit.model.rules.Automaton.build`),
so a sandwich clue's product is built once per process, not once per puzzle."""


def _shared_product(rule: Automaton, side: int) -> tuple[np.ndarray, int, int] | None:
    key = (id(rule.transitions), rule.accepting, rule.start, len(rule.cells), side)
    found = _PRODUCTS.get(key)
    if found is not None and found[0] is rule.transitions:
        return found[1]
    product = _product(rule, side)
    if len(_PRODUCTS) > 1024:
        _PRODUCTS.clear()
    _PRODUCTS[key] = (rule.transitions, product)
    return product


def automaton_table(rule: Automaton, geometry: Geometry,
                    near: Sequence[frozenset[int]] | None = None
                    ) -> tuple[np.ndarray | list[int], int, int]:
    """A sequence rule's table for :class:`~sudokit.fast.drawn.Drawn` (see the module
    docstring); ``near``: the geometry's peers as sets, when the caller has them.

    Returns:
        (table, start state, state count S): the table (int32 array or list, shared: not to
        be modified) is S x N transitions (-1 dead), S accepting flags, then per layer
        0..len(cells) the range [lo, hi) of its states.
    """
    side = geometry.side
    small = side + len(rule.transitions).bit_length() <= 62  # a (state, digits) key fits int64
    distinct = small and lines_distinct(rule, geometry, near)
    found = _shared_product(rule, side) if distinct else None
    if found is not None:
        return found
    states = len(rule.transitions)
    flat = [s for row in rule.transitions for s in row]
    flat += [int(s in rule.accepting) for s in range(states)]
    return flat + [0, states] * (len(rule.cells) + 1), rule.start, states
