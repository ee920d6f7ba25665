"""Kernel of the rule forcing chains' rounds: singles, then every drawn rule's filter, round
after round (:func:`rounds`, the compiled plain rounds of
:func:`sudokit.logic.chains.rule_forcing.assume_with_rules`), on a grid whose rules are all
pair relations, weighted sums and automata (:mod:`sudokit.logic.chains.rule_rounds` packs them).

A rule's filter keeps in each cell the digits some filling of the whole rule supports
(generalised arc consistency, which is unique): the kernels of
:mod:`sudokit.logic._fillings_kernel` for a sum and an automaton, the supports of each digit
for a pair relation, so the same masks as :mod:`sudokit.csp.rules` gives. A round runs the due
rules in order (those with a cell changed since the last round started, and the later rules
on a cell a rule changes in the round), as :func:`sudokit.logic.rule_filters.filter_round`
with its watch: the changes and their order are the same.
"""

from __future__ import annotations

from ...fast.state import jit
from .._fillings_kernel import AUTOMATON, SUM, _automaton_filter, _sum_filter
from ._settle_kernel import settle

__all__ = ["BROKEN", "CUTOFF", "FIXPOINT", "RELATION", "SINGLES", "rounds"]

RELATION = 2
"""A pair relation's kind (beside :data:`~sudokit.logic._fillings_kernel.SUM` and
:data:`~sudokit.logic._fillings_kernel.AUTOMATON`)."""

FIXPOINT, SINGLES, BROKEN, CUTOFF = 0, 1, 2, 3
"""How :func:`rounds` ends: a round changed nothing; the singles broke; a rule broke; the last
round allowed changed something."""


@jit
def _relation(doms, fwd, bwd, side):
    """A pair relation's filter on ``doms`` (int64[2], bit d for digit d, changed in place):
    ``fwd`` / ``bwd``: int64[side + 1] per digit the partners' mask; False when a cell keeps
    nothing."""
    a, b = doms[0], doms[1]
    keep_a, keep_b = 0, 0
    for d in range(1, side + 1):
        if a >> d & 1 and fwd[d] & b:
            keep_a |= 1 << d
        if b >> d & 1 and bwd[d] & a:
            keep_b |= 1 << d
    doms[0], doms[1] = keep_a, keep_b
    return keep_a != 0 and keep_b != 0


@jit
def _filter(r, doms, n, rules, work):
    kinds, _cells, _sizes, sums, moves, pairs, _of = rules
    _doms, _before, forward, backward, back, reach, layer, alive, states_back = work
    kind = kinds[r]
    if kind == SUM:
        ks, offset, goal = sums
        return _sum_filter(doms, n, 0, ks[r], offset[r], goal[r], forward, backward, back, reach)
    if kind == AUTOMATON:
        bits, nexts, accepting, start = moves
        return _automaton_filter(doms, n, 0, bits[r], nexts[r], accepting[r], start[r], layer,
                                 alive, states_back)
    fwd, bwd, side = pairs
    return _relation(doms, fwd[r], bwd[r], side)


@jit
def _round(masks, touched, due, rules, work):
    """One round of the due rules' filters over ``masks`` (changed in place, the cells changed
    marked in ``touched``; ``due`` used up): the cells changed, or -1 - the rule that broke."""
    _kinds, cells, sizes, _sums, _moves, _pairs, of = rules
    starts, listed = of
    doms, before = work[0], work[1]
    changed = 0
    for r in range(due.shape[0]):
        if not due[r]:
            continue
        due[r] = 0
        n = sizes[r]
        for i in range(n):
            doms[i] = masks[cells[r, i]] << 1
            before[i] = doms[i]
        if not _filter(r, doms, n, rules, work):
            for j in range(r + 1, due.shape[0]):
                due[j] = 0
            return -1 - r
        for i in range(n):
            if doms[i] != before[i]:
                c = cells[r, i]
                masks[c] = doms[i] >> 1
                if not touched[c]:
                    touched[c] = 1
                    changed += 1
                for k in range(starts[c], starts[c + 1]):
                    if listed[k] > r:
                        due[listed[k]] = 1
    return changed


@jit
def rounds(masks, values, touched, n_pend, grid, scratch, rules, work, seen, due, first, last):
    """Settle (:func:`~sudokit.logic.chains._settle_kernel.settle`), then rounds of every due
    rule's filter each followed by the singles, from round ``first`` to at most ``last``.

    Args:
        masks, values, touched, n_pend, grid, scratch: as
            :func:`~sudokit.logic.chains._settle_kernel.settle` takes them (masks and values
            changed in place).
        rules: the packed rules (:func:`sudokit.logic.chains.rule_rounds.rule_arrays`).
        work: their scratch (:func:`sudokit.logic.chains.rule_rounds.rule_work`).
        seen: int64[C] the candidates when the last round started (the watch of
            :func:`~sudokit.logic.rule_filters.filter_round`), updated.
        due: uint8[R] the rules due in the next round whatever changed (used up).
        first, last: the number of the first round, and of the last allowed.

    Returns:
        (how it ends: :data:`FIXPOINT`, :data:`SINGLES`, :data:`BROKEN` or :data:`CUTOFF`;
        the round it ended in; the rule that broke, else -1).
    """
    starts, listed = rules[6]
    bad = settle(masks, values, touched, n_pend, grid, scratch)
    r = first
    while True:
        if bad:
            return SINGLES, r, -1
        for c in range(masks.shape[0]):
            touched[c] = 0
            if masks[c] != seen[c]:
                seen[c] = masks[c]
                for k in range(starts[c], starts[c + 1]):
                    due[listed[k]] = 1
        got = _round(masks, touched, due, rules, work)
        if got < 0:
            return BROKEN, r, -1 - got
        if got == 0:
            return FIXPOINT, r, -1
        bad = settle(masks, values, touched, 0, grid, scratch)
        if r >= last:
            return CUTOFF, r, -1
        r += 1
