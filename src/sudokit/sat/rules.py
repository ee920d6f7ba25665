"""CNF of the rules a geometry carries (:mod:`sudokit.model.rules`), one encoding per kind.

Over ``x(cell, digit) = cell * N + digit`` (:func:`~sudokit.sat.encoding.var`), with auxiliary
variables numbered from ``first`` on:

===============  ==========================================================================
kind             encoding
===============  ==========================================================================
pair-relation    support clauses of the table (:func:`~sudokit.sat.kinds.pair_clauses`)
linear-sum       a layered graph of the partial sums, one variable per reachable partial sum
                 that can still reach the total (:func:`~sudokit.sat.layered.sum_layers`)
sequence         the automaton unrolled over the cells and pruned, one variable per state
                 kept (:func:`~sudokit.sat.layered.layered_clauses`)
must-contain     at-least-m clauses per listed digit
                 (:func:`~sudokit.sat.kinds.must_contain_clauses`)
renban           distinct digits plus one selector per window of consecutive digits
                 (:func:`~sudokit.sat.kinds.sets_clauses`)
between-line     per middle cell: ``x(mid, v) and x(end, d)`` imply the other end beyond v
                 (from both ends), with the implied pair tables of the ends and of each
                 end with each middle cell
lockout-line     the same, outside the ends, and the ends' gap in their pair table
indexing         ``x(indexer, d)`` implies ``x(cells[targets[d - 1]], value)``
===============  ==========================================================================

Linear sums are exact without PySAT's pseudo-Boolean encodings (which need ``pypblib``): a
partial sum is a state, so a sum is the regular constraint of its digit sequence. Measured by
``benchmarks/rule_encodings.py`` on the 5 published sum puzzles of tests/data/rules (CaDiCaL,
solve and uniqueness proof, median of 3): layered sums 84 ms and 6.4k rule clauses per puzzle,
``PBEnc.equals`` (``best``) 577 ms and 66k; pair tables on 11 puzzles: support clauses 21 ms
and 0.8k clauses, one binary clause per forbidden pair 34 ms and 1.6k.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Hashable
from typing import Any

from ..model import rules as model
from .kinds import (
    distinct_clauses,
    index_clauses,
    must_contain_clauses,
    pair_clauses,
    sets_clauses,
    triple_clauses,
)
from .layered import Layered, layered, layered_clauses, sum_layers

__all__ = ["SAT_RULE_KINDS", "rule_clauses", "rule_from_json", "rule_json", "rule_layers"]

SAT_RULE_KINDS = frozenset({"pair-relation", "linear-sum", "sequence", "must-contain", "renban",
                            "between-line", "lockout-line", "indexing"})
"""The rule kinds :func:`rule_clauses` encodes (every kind of :mod:`sudokit.model.rules`)."""

Clauses = tuple[list[list[int]], int]


def rule_layers(rule: model.WeightedSum | model.Automaton, side: int) -> Layered:
    """The pruned layered graph of a linear sum or a sequence rule (digits 1..``side``)."""
    if isinstance(rule, model.WeightedSum):
        return sum_layers(list(zip(rule.coefficients, rule.cells)), rule.total, side)
    table = rule.transitions

    def step(_: int, state: Hashable, digit: int) -> int | None:
        assert isinstance(state, int)  # the automaton's states
        nxt = table[state][digit - 1]
        return None if nxt < 0 else nxt

    return layered(rule.cells, side, rule.start, step, rule.accepting.__contains__)


def _between(low_ok: bool) -> Callable[[int, int, int], bool]:
    """The middle-digit test of a between line (``low_ok`` False) or a lockout line (True)."""
    if low_ok:
        return lambda d, e, v: not min(d, e) <= v <= max(d, e)
    return lambda d, e, v: min(d, e) < v < max(d, e)


def _line(rule: model.Between | model.Lockout, side: int) -> list[list[int]]:
    """Between and lockout lines: the three-cell clauses from either end, plus (implied, for
    unit propagation) the ends' pair table and each end's pair table with each middle cell,
    the projections of the rule."""
    a, b = rule.cells[0], rule.cells[-1]
    digits = range(1, side + 1)
    lockout = isinstance(rule, model.Lockout)
    ok = _between(lockout)
    gap = rule.gap if isinstance(rule, model.Lockout) else 0
    ends = {(d, e) for d in digits for e in digits
            if (abs(d - e) >= gap if lockout else abs(d - e) >= 2 or len(rule.cells) == 2)}
    out = pair_clauses(a, b, ends, side)
    for inner in rule.cells[1:-1]:
        out += triple_clauses(a, b, inner, ok, side) + triple_clauses(b, a, inner, ok, side)
        seen = {(d, v) for d, e in ends for v in digits if ok(d, e, v)}
        out += pair_clauses(a, inner, seen, side) + pair_clauses(b, inner, seen, side)
    return out


def _renban(rule: model.Renban, side: int, first: int) -> Clauses:
    size = len(rule.cells)
    windows = [frozenset(range(lo, lo + size)) for lo in range(1, side - size + 2)]
    clauses, n_aux = sets_clauses(rule.cells, windows, side, first)
    return distinct_clauses(rule.cells, side) + clauses, n_aux


def rule_clauses(rule: model.Rule, side: int, first: int) -> Clauses:
    """The CNF of one rule.

    Args:
        rule: any rule of :data:`SAT_RULE_KINDS`; side: N; first: the first free variable.

    Returns:
        ``(clauses, n_aux)``: clauses over ``x`` and the auxiliary variables
        ``first .. first + n_aux - 1``; ``[[]]`` when no digits can keep the rule.

    Raises:
        ValueError: a rule of another kind.
    """
    if isinstance(rule, model.Relation):
        return pair_clauses(*rule.cells, rule.pairs, side), 0
    if isinstance(rule, (model.WeightedSum, model.Automaton)):
        return layered_clauses(rule_layers(rule, side), side, first)
    if isinstance(rule, model.Contains):
        return must_contain_clauses(rule.cells, rule.digits, side), 0
    if isinstance(rule, model.Renban):
        return _renban(rule, side, first)
    if isinstance(rule, (model.Between, model.Lockout)):
        return _line(rule, side), 0
    if isinstance(rule, model.Index):
        targets = [rule.cells[t] for t in rule.targets]
        return index_clauses(rule.cells[0], targets, rule.value, side), 0
    raise ValueError(f"no CNF encoding for rules of kind {rule.kind!r}")


def rule_json(rule: model.Rule) -> str:
    """One line of JSON holding a rule's kind and fields (the ``c rule ...`` comments of a CNF
    written by sudokit, so that a model can be checked against every rule from the file alone).

    >>> from sudokit.model.rules import Relation
    >>> rule_json(Relation((0, 1), frozenset({(2, 1)}), "black Kropki dot"))
    '{"kind": "pair-relation", "cells": [0, 1], "pairs": [[2, 1]], "name": "black Kropki dot"}'
    """
    fields: dict[str, object] = {"kind": rule.kind}
    for f in dataclasses.fields(rule):  # type: ignore[arg-type]
        value = getattr(rule, f.name)
        if isinstance(value, frozenset):
            value = sorted(value)
        elif dataclasses.is_dataclass(value):  # the rule's drawing
            value = dataclasses.asdict(value)  # type: ignore[arg-type]
        if value is not None:
            fields[f.name] = value
    return json.dumps(fields)


def rule_from_json(text: str) -> model.Rule:
    """The rule of a :func:`rule_json` line.

    Raises:
        ValueError: not a JSON object of a known kind with that kind's fields.
    """
    classes: dict[str, type[model.Rule]] = {cls.kind: cls for cls in (
        model.Relation, model.WeightedSum, model.Automaton, model.Contains, model.Renban,
        model.Between, model.Lockout, model.Index)}
    try:
        fields = json.loads(text)
        cls = classes[fields.pop("kind")]
        return cls(**{k: _frozen(k, v) for k, v in fields.items()})
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a rule: {text[:60]!r} ({exc})") from None


def _frozen(name: str, value: Any) -> Any:
    """A JSON field back in the dataclass's types (tuples; frozensets for sets)."""
    if name == "pairs":
        return frozenset(tuple(p) for p in value)
    if name == "accepting":
        return frozenset(value)
    if name == "drawing":
        return model.RuleDrawing(**{k: _frozen(k, v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen("", v) for v in value)
    return value
