"""Layered automata: a constraint over a sequence of cells decided by a small automaton whose
state walks the cells, unrolled over the positions and pruned to the states that can still
accept (the "layered graph", or multi-valued decision diagram, of a regular constraint: Pesant
2004, "A regular language membership constraint for finite sequences of variables"; Quimper and
Walsh 2006, "Global grammar constraints").

Every sequence rule (sandwich, X-sum, skyscraper, numbered room) and every linear sum (a state is
the partial sum, accepting only the total) becomes one :class:`Layered` graph. The SAT encoding
(:func:`layered_clauses`) and OR-Tools' ``AddAutomaton`` (``solvers/cpsat.py``) both read it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import cast

__all__ = ["Layered", "Step", "layered", "layered_clauses", "sum_layers"]

Step = Callable[[int, Hashable, int], Hashable | None]
"""``step(position, state, digit)``: the state after reading ``digit`` at ``position``, or None
when the digit is not allowed there."""


@dataclass(frozen=True)
class Layered:
    """The pruned layered graph of an automaton over ``len(cells)`` positions.

    Attributes:
        cells: the cell read at each position (a cell may repeat).
        states: per layer 0..L, the states kept (layer 0 is the start state alone, layer L
            the accepting states reached), each a tuple in a fixed order.
        moves: per position k, the kept transitions ``(i, digit, j)``: state ``states[k][i]``
            reading ``digit`` goes to ``states[k + 1][j]``.
    """

    cells: tuple[int, ...]
    states: tuple[tuple[Hashable, ...], ...]
    moves: tuple[tuple[tuple[int, int, int], ...], ...]

    @property
    def empty(self) -> bool:
        """True when no digit sequence is accepted."""
        return not self.states[-1]


def layered(cells: Sequence[int], side: int, start: Hashable, step: Step,
            accept: Callable[[Hashable], bool]) -> Layered:
    """Unroll an automaton over ``cells`` (digits 1..``side``) and keep only the states on a
    path from ``start`` to an accepting state.

    Args:
        cells: the cells read in order; side: N; start: the state before the first cell.
        step: the transition function (:data:`Step`); accept: the final-state test.
    """
    forward: list[dict[Hashable, None]] = [{start: None}]
    raw: list[list[tuple[Hashable, int, Hashable]]] = []
    for k in range(len(cells)):
        layer: dict[Hashable, None] = {}
        edges = []
        for s in forward[-1]:
            for d in range(1, side + 1):
                t = step(k, s, d)
                if t is not None:
                    layer[t] = None
                    edges.append((s, d, t))
        forward.append(layer)
        raw.append(edges)
    alive = [s for s in forward[-1] if accept(s)]
    kept: list[list[Hashable]] = [alive]
    moves: list[tuple[tuple[int, int, int], ...]] = []
    for edges in reversed(raw):
        index = {s: i for i, s in enumerate(kept[0])}
        useful = [(s, d, t) for s, d, t in edges if t in index]
        before = list(dict.fromkeys(s for s, _, _ in useful))
        at = {s: i for i, s in enumerate(before)}
        moves.insert(0, tuple((at[s], d, index[t]) for s, d, t in useful))
        kept.insert(0, before)
    if not kept[0]:  # nothing accepted: no path, every layer empty
        kept = [[] for _ in kept]
        moves = [() for _ in moves]
    return Layered(tuple(cells), tuple(map(tuple, kept)), tuple(moves))


def sum_layers(terms: Sequence[tuple[int, int]], total: int, side: int) -> Layered:
    """The layered graph of ``sum(coef * digit(cell)) == total`` (repeats allowed): a state is
    the partial sum.

    Args:
        terms: ``(coef, cell)`` pairs, read in this order; total: the constant; side: N.
    """
    coefs = [c for c, _ in terms]
    return layered([cell for _, cell in terms], side, 0,
                   lambda k, s, d: cast(int, s) + coefs[k] * d, lambda s: s == total)


def layered_clauses(graph: Layered, side: int, first: int) -> tuple[list[list[int]], int]:
    """The CNF of a layered graph over ``x(cell, digit) = cell * N + digit``.

    One variable ``q(k, s)`` per kept state of the inner layers 1..L-1 (numbered ``first``
    on; the start state and the accepting states are true by definition). Clauses: a state and
    a digit imply the next state (or are incompatible when the move leaves the graph); a state
    needs some digit leaving it and some state before it; a digit needs some state it leaves
    from; a state needs some digit entering it; each inner layer holds exactly one state. The first
    family alone makes the formula exact (the states of the digits' run are forced true, and
    a run leaving the graph falsifies a clause); the others are implied by the run and give
    unit propagation the backward reasoning.

    Every auxiliary variable is determined by the digits, so the formula's models are in one
    to one correspondence with the digit sequences accepted (a model count is a grid count).

    Returns:
        ``(clauses, n_aux)``: the clauses and the number of auxiliary variables used (the
        ``q`` variables, then the ladder variables of each layer's exactly-one).
    """
    if graph.empty:
        return [[]], 0
    n_layers = len(graph.cells)
    ids: list[list[int]] = []  # 0: true by definition (variables are numbered from 1)
    nxt = first
    for k, states in enumerate(graph.states):
        if k == 0 or k == n_layers:
            ids.append([0] * len(states))
        else:
            ids.append(list(range(nxt, nxt + len(states))))
            nxt += len(states)
    out: list[list[int]] = []
    for k, cell in enumerate(graph.cells):
        _position_clauses(graph.moves[k], ids[k], ids[k + 1], cell * side, side, out)
    for layer in ids[1:n_layers]:
        nxt = _exactly_one(layer, nxt, out)
    return out, nxt - first


def _exactly_one(group: list[int], first: int, out: list[list[int]]) -> int:
    """Append "exactly one of ``group``" by the ladder encoding (Gent and Nightingale 2004,
    "A new encoding of AllDifferent into SAT"): ``y_j`` (numbered ``first`` on) is "the true
    member comes after member j", so every ``y`` is determined by the group; return the next
    free variable."""
    m = len(group)
    y = [first + j for j in range(m - 1)]
    for j in range(m - 2):
        out.append([-y[j + 1], y[j]])
    for i, q in enumerate(group):
        after_prev = [y[i - 1]] if i > 0 else []  # y_{i-1}: true by definition for i == 0
        before_next = [-y[i]] if i < m - 1 else []  # not y_i: true by definition at the end
        out += [[-q, lit] for lit in after_prev + before_next]
        out.append([q] + [-lit for lit in after_prev + before_next])
    return first + m - 1


def _position_clauses(moves: Sequence[tuple[int, int, int]], here: list[int], there: list[int],
                      base: int, side: int, out: list[list[int]]) -> None:
    """The clauses of one position (see :func:`layered_clauses`); ids 0 are true."""
    succ = {(i, d): j for i, d, j in moves}
    leaving: dict[int, set[int]] = defaultdict(set)  # state -> digits leaving it
    froms: dict[int, set[int]] = defaultdict(set)  # digit -> states it leaves from
    preds: dict[int, set[int]] = defaultdict(set)  # next state -> states before it
    entering: dict[int, set[int]] = defaultdict(set)  # next state -> digits entering it
    for i, d, j in moves:
        leaving[i].add(d)
        froms[d].add(i)
        preds[j].add(i)
        entering[j].add(d)
    for i, q in enumerate(here):
        head = [-q] if q else []
        for d in range(1, side + 1):
            t = succ.get((i, d))
            if t is None:
                out.append(head + [-(base + d)])
            elif there[t]:
                out.append(head + [-(base + d), there[t]])
        out.append(head + sorted(base + d for d in leaving[i]))
    if all(here):
        for d in range(1, side + 1):
            out.append([-(base + d)] + sorted(here[i] for i in froms[d]))
    for j, r in enumerate(there):
        if r:
            if all(here):
                out.append([-r] + sorted(here[i] for i in preds[j]))
            out.append([-r] + sorted(base + d for d in entering[j]))
