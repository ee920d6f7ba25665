"""Sudoku Explainer's multiple and dynamic forcing chains, rated by their complexity, and the
technique "Dynamic Forcing Chain (+)" (9.0).

:func:`best_hint` is SE's ``Chaining.getMultipleChainsHintList`` (SE 1.2.1,
``1to9only/SudokuExplainer``, ``diuf/sudoku/solver/rules/chaining/Chaining.java``) for one of
its producers (:class:`Producer`): for every open cell (row by row) and candidate, the
assumption on and off is followed
(:func:`~sudokit.logic.chains.implications.chain_implications`);
a contradiction of either proves the other (``BinaryChainingHint``, absurd), a potential both
imply holds (double implication, cells of three candidates or more); a potential implied by
every candidate of a cell (``CellChainingHint``) or every place of the digit in a unit
(``RegionChainingHint``) holds. Each hint is rated ``base + length_bonus(complexity - 2)``, the
complexity being the sum over its branches of the potentials the conclusion descends from
(:func:`~sudokit.logic.chains.implications.ancestor_count`); the best is the lowest rating,
then the lowest complexity, then SE's order of kinds (double 1, cell 5, region 6, absurd 7),
then the first found.

The propagations run compiled (:mod:`.implications`; Nishio's contradictions for every
candidate in one call; the "(+)" rules of level 1 and up inside the kernel, the nested rules
of levels 2-4 between its calls), the search around them in Python; the level-0 producers are tried only where the faster forcing chains
(:mod:`.forcing`) find something.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .advanced import _digit_cells, _unit_bits
from .implications import (InnerRule, Propagation, ancestor_count, chain_implications,
                           contradictions, reached_by_all)
from .kernel_arrays import se_units_of
from .nested import nested_rule
from ..deadline import check_deadline
from ..registry import technique
from ..state import Board, bits
from ..step import Step, length_bonus

__all__ = ["ONE_SOLUTION_ONLY", "PYTHON_ONLY", "Hint", "Producer", "best_hint", "classic", "dynamic_forcing_chain",
           "dynamic_plus_forcing_chain", "hint_step", "multiple_forcing_chain",
           "nested_dynamic_forcing_chain", "nested_forcing_chain",
           "nested_multiple_forcing_chain", "nishio_forcing_chain"]


@dataclass(frozen=True)
class Producer:
    """One of SE's chaining producers (``new Chaining(multiple, dynamic, nishio, level)``)."""

    multiple: bool
    dynamic: bool
    nishio: bool
    level: int

    @property
    def base(self) -> float:
        """``Chaining.getDifficulty``."""
        if self.level >= 2:
            return 9.5 + 0.5 * (self.level - 2)
        if self.level == 1:
            return 9.0
        return 7.5 if self.nishio else 8.5 if self.dynamic else 8.0


@dataclass(frozen=True)
class Hint:
    """A forcing chain found: its rating, complexity, kind (SE's sort key), the potential it
    proves (``(cell * N + digit - 1) * 2 + on``) and what it assumed (text)."""

    rating: float
    complexity: int
    kind: int
    order: int
    target: int
    premise: str
    name: str
    inner: tuple[str, ...] = ()


def _anc(prop: Propagation, pot: int, own: tuple[int, ...]) -> int:
    return ancestor_count(prop, pot, None if pot in prop.reached() else own)


def _absurd(prop: Propagation) -> tuple[int, Ends]:
    """The complexity of ``prop``'s contradiction (both its chains; a nested chain both rely on
    counted once, as ``getNestedComplexity``) and its two chain ends."""
    assert prop.contradiction is not None
    a, b, own = prop.contradiction
    ends: Ends = ((prop, a, None if a in prop.reached() else ()),
                  (prop, b, None if b in prop.reached() else own))
    if not prop.inner:
        return _anc(prop, a, ()) + _anc(prop, b, own), ends
    sets = [prop.ancestor_set(p, o) for _, p, o in ends]
    return (len(sets[0]) + len(sets[1])
            + sum(i.complexity for i in prop.inners(sets[0] | sets[1]))), ends


class _Search:
    """The state of one :func:`best_hint` run: the board, memoised propagations, the best."""

    def __init__(self, board: Board, producer: Producer) -> None:
        self.board, self.producer = board, producer
        self.n = board.side
        self.masks0 = [0 if v else m for m, v in zip(board.masks, board.values)]
        self.memo: dict[int, Propagation] = {}
        self.cells0 = _digit_cells(self.n, self.masks0)
        self.array = np.array(self.masks0, dtype=np.int64)
        self.contradicted: set[int] | None = None
        if producer.nishio:  # only contradictions count: found in one compiled call
            starts = [((c * self.n + b) << 1) | on for c in board.open_cells
                      for b in bits(self.masks0[c]) for on in (1, 0)]
            self.contradicted = contradictions(board.geometry, self.masks0, self.array, starts,
                                               producer.dynamic, False)
        self.best: Hint | None = None
        self.best_ends: Ends = ()
        self.count = 0
        self.inner: InnerRule | None = None
        if producer.level >= 2:
            self.inner = nested_rule(board.geometry, producer.level)

    def prop(self, start: int) -> Propagation:
        found = self.memo.get(start)
        if found is None and self.contradicted is not None and start not in self.contradicted:
            found = self.memo[start] = Propagation()  # no contradiction: nothing to read
        if found is None:
            p = self.producer
            found = self.memo[start] = chain_implications(
                self.board.geometry, self.masks0, start, dynamic=p.dynamic,
                y_links=not p.nishio, level=p.level, cells0=self.cells0, array=self.array,
                contradictions_only=p.nishio, inner=self.inner)
        return found

    def worth(self, target: int) -> bool:
        """Whether proving ``target`` would change the grid (else it is not offered)."""
        cell, d0 = divmod(target >> 1, self.n)
        if target & 1:
            return bool(self.masks0[cell] & ~(1 << d0))
        return bool(self.masks0[cell] >> d0 & 1)

    def offer(self, target: int, complexity: int | None, kind: int, premise: str,
              name: str, ends: Ends = ()) -> None:
        """Count a hint proving ``target`` and keep it if it is the best so far
        (``complexity`` None: larger than the best's, so it cannot be; ``ends``: each branch
        with the potentials its chain ends in, read for the nested chains it used)."""
        if not self.worth(target):
            return
        if complexity is None:
            self.count += 1
            return
        rating = round(self.producer.base + length_bonus(complexity - 2), 1)
        self.count += 1
        hint = Hint(rating, complexity, kind, self.count, target, premise, name)
        if self.best is None or (rating, complexity, kind) < (
                self.best.rating, self.best.complexity, self.best.kind):
            self.best, self.best_ends = hint, ends


Ends = tuple[tuple[Propagation, int, tuple[int, ...] | None], ...]
"""Each branch of a hint: its propagation, a potential its chain ends in and that potential's
own parents when it is not in the propagation (as :func:`ancestor_count`)."""


def _inner_texts(ends: Ends) -> tuple[str, ...]:
    """The texts of the distinct nested chains the branches ``ends`` rely on."""
    out: dict[str, None] = {}
    for prop, pot, own in ends:
        if prop.inner:
            for i in prop.inners(prop.ancestor_set(pot, own)):
                out[i.text] = None
    return tuple(out)


def best_hint(board: Board, producer: Producer) -> Hint | None:
    """The hint SE's producer would give first on ``board`` (module docstring), or None."""
    search = _Search(board, producer)
    for cell in board.open_cells:
        check_deadline()  # a nested level's search takes seconds: the solve's limit holds
        card = search.masks0[cell].bit_count()
        if card > 2 or (card > 1 and producer.dynamic):
            _cell(search, cell, card)
    best = search.best
    if best is not None and producer.level >= 2:
        from dataclasses import replace

        best = replace(best, inner=_inner_texts(search.best_ends))
    return best


def _label(search: _Search, pot: int) -> str:
    g = search.board.geometry
    cell, d0 = divmod(pot >> 1, search.n)
    return f"{g.label(cell)}{'=' if pot & 1 else '<>'}{g.symbol(d0 + 1)}"


def _cell(search: _Search, cell: int, card: int) -> None:
    p, n = search.producer, search.n
    ons: list[Propagation] = []
    for b in bits(search.masks0[cell]):
        on_pot = ((cell * n + b) << 1) | 1
        on = search.prop(on_pot)
        if p.dynamic or p.nishio:  # static chains read no assumption that a candidate is off
            _binary(search, on_pot, on, search.prop(on_pot & ~1),
                    card >= 3 and not p.nishio and p.dynamic, True)
        if not p.nishio:
            _region(search, cell, b, on)
        ons.append(on)
    if not p.nishio and (card == 2 or (p.multiple and card > 2)):
        def premise() -> str:
            return " or ".join(_label(search, ((cell * n + b) << 1) | 1)
                               for b in bits(search.masks0[cell])) + ": each leads there"
        _common(search, ons, 5, premise, "Cell Forcing Chain")


def _binary(search: _Search, on_pot: int, on: Propagation, off: Propagation, double: bool,
            contradiction: bool) -> None:
    if contradiction and on.contradiction:
        complexity, ends = _absurd(on)
        search.offer(on_pot & ~1, complexity, 7,
                     f"{_label(search, on_pot)} leads to a contradiction",
                     "Contradiction Forcing Chain", ends)
    if contradiction and off.contradiction:
        complexity, ends = _absurd(off)
        search.offer(on_pot, complexity, 7,
                     f"{_label(search, on_pot & ~1)} leads to a contradiction",
                     "Contradiction Forcing Chain", ends)
    if double:
        premise = f"{_label(search, on_pot)} and {_label(search, on_pot & ~1)} both lead there"
        both = on.reached() & off.reached()
        for q in on.on + on.off if both else ():
            if q in both and q != on_pot and q != on_pot & ~1 and search.worth(q):
                search.offer(q, _complexity(search, [on, off], q), 1, premise,
                             "Double Forcing Chain", ((on, q, None), (off, q, None)))


def _region(search: _Search, cell: int, d0: int, on: Propagation) -> None:
    p, n, g = search.producer, search.n, search.board.geometry
    ub, here = _unit_bits(g), search.cells0[d0]
    for u in se_units_of(g)[cell]:
        at = here & ub[u]
        count = at.bit_count()
        if not (count == 2 or (p.multiple and count > 2)) or (at & -at).bit_length() - 1 != cell:
            continue
        places = list(bits(at))
        branches = [on] + [search.prop(((c * n + d0) << 1) | 1) for c in places[1:]]

        def premise(places: list[int] = places, u: int = u) -> str:
            return " or ".join(_label(search, ((c * n + d0) << 1) | 1) for c in places) + \
                f" ({g.unit_names[u]}): each leads there"
        _common(search, branches, 6, premise, "Region Forcing Chain")


def _common(search: _Search, branches: list[Propagation], kind: int,
            premise: Callable[[], str], name: str) -> None:
    common = reached_by_all(branches)
    if not common:
        return
    first, text = branches[0], premise()
    for q in first.on + first.off:
        if q in common and search.worth(q):
            search.offer(q, _complexity(search, branches, q), kind, text, name,
                         tuple((b, q, None) for b in branches))


def _complexity(search: _Search, branches: list[Propagation], q: int) -> int | None:
    """The sum over ``branches`` of the potentials ``q`` descends from, or None as soon as it
    is larger than the best hint's (a larger complexity never rates lower: the hint cannot
    win)."""
    limit = search.best.complexity if search.best is not None else None
    total = 0
    for b in branches:
        total += ancestor_count(b, q)
        if limit is not None and total > limit:
            return None
    return total


def hint_step(board: Board, hint: Hint, technique_name: str) -> Step:
    """The step of ``hint``: it places the digit of an on target, removes an off one."""
    g, n = board.geometry, board.side
    cell, d0 = divmod(hint.target >> 1, n)
    conclusion = f"{g.label(cell)}{'=' if hint.target & 1 else '<>'}{g.symbol(d0 + 1)}"
    text = f"{hint.name}: {hint.premise}, so {conclusion} ({hint.complexity} nodes)"
    if hint.inner:
        text += "; nested: " + "; ".join(hint.inner)
    if hint.target & 1:
        return Step(technique_name, hint.rating, text, placements=((cell, d0 + 1),),
                    cells=(cell,), digits=(d0 + 1,))
    return Step(technique_name, hint.rating, text, eliminations=((cell, d0 + 1),),
                cells=(cell,), digits=(d0 + 1,))


def _any_dynamic_chain(board: Board) -> bool:
    """Whether the compiled digit, cell and unit forcing chains (:mod:`.forcing`, singles
    between links: the links of SE's dynamic chains) find anything on ``board``; when they do
    not, neither do SE's Nishio, multiple and dynamic producers, which are skipped (their
    search is Python). Kept in the board's memo for the three producers."""
    found = board.memo.get(__name__)
    if found is None:
        from .forcing import _digit_keys, _forcing_best

        found = board.memo[__name__] = (any(_digit_keys(board)[0])
                                        or _forcing_best(board, False) >= 0
                                        or _forcing_best(board, True) >= 0)
    return bool(found)


NISHIO = Producer(multiple=False, dynamic=True, nishio=True, level=0)
MULTIPLE = Producer(multiple=True, dynamic=False, nishio=False, level=0)
DYNAMIC = Producer(multiple=True, dynamic=True, nishio=False, level=0)
PLUS = Producer(multiple=True, dynamic=True, nishio=False, level=1)
NESTED_FORCING = Producer(multiple=True, dynamic=True, nishio=False, level=2)
NESTED_MULTIPLE = Producer(multiple=True, dynamic=True, nishio=False, level=3)
NESTED_DYNAMIC = Producer(multiple=True, dynamic=True, nishio=False, level=4)


def classic(board: Board) -> bool:
    """Whether the board is a classic 9x9 grid (rows, columns and boxes only), the grid SE's
    producers are written for here."""
    g = board.geometry
    return g.side == 9 and len(g.units) == 27 and not g.features


MIN_PLACED = 17
"""SE's producers run only on a grid with at least this many digits placed: no classic 9x9
puzzle with 16 givens or fewer has one solution (McGuire, Tugemann and Civario 2012, "There is
no 16-clue Sudoku"), and SE rates only puzzles with one solution; on a nearly empty grid their
Python search took over 15 s per step (``"." * 80 + "1"``)."""


PYTHON_ONLY = frozenset({"Dynamic Forcing Chain (+)", "Dynamic Forcing Chain (+ Forcing Chains)",
                         "Dynamic Forcing Chain (+ Multiple Forcing Chains)",
                         "Dynamic Forcing Chain (+ Dynamic Forcing Chains)"})
"""SE's producers whose outer search is Python (a warm-up, which only compiles, leaves them
out: on a first board they take 1-20 s; the kernels they call are loaded by
:func:`~sudokit.logic.chains.nested.compile_nested` instead)."""


ONE_SOLUTION_ONLY = frozenset({"Nishio Forcing Chain", "Multiple Forcing Chain",
                               "Dynamic Forcing Chain", "Dynamic Forcing Chain (+)",
                               "Dynamic Forcing Chain (+ Forcing Chains)",
                               "Dynamic Forcing Chain (+ Multiple Forcing Chains)",
                         "Dynamic Forcing Chain (+ Dynamic Forcing Chains)"})
"""SE's producers, which a solve runs only on a puzzle with one solution (as SE rates only
those): on a grid with many solutions they rarely conclude and cost about 1 s a call in Python
(``rate("." * 80 + "1")`` spent 13 s in 41 calls of Dynamic (+)); trial follows at once."""


def _run(board: Board, producer: Producer, name: str) -> Step | None:
    if not classic(board) or sum(1 for v in board.values if v) < MIN_PLACED:
        return None
    if producer.level == 0 and not _any_dynamic_chain(board):
        return None
    hint = best_hint(board, producer)
    return None if hint is None else hint_step(board, hint, name)


@technique("Nishio Forcing Chain", 7.5, max_side=9, classic=None)
def nishio_forcing_chain(board: Board) -> Step | None:
    """SE's Nishio Forcing Chains: an assumption followed by links between the places of a
    digit only (X-links), dynamically, to a contradiction; 7.5 plus the length bonus."""
    return _run(board, NISHIO, "Nishio Forcing Chain")


@technique("Multiple Forcing Chain", 8.0, max_side=9, classic=None)
def multiple_forcing_chain(board: Board) -> Step | None:
    """SE's Multiple Forcing Chains: static cell and region forcing chains (the links read the
    grid as it is); 8.0 plus the length bonus."""
    return _run(board, MULTIPLE, "Multiple Forcing Chain")


@technique("Dynamic Forcing Chain", 8.5, max_side=9, classic=None)
def dynamic_forcing_chain(board: Board) -> Step | None:
    """SE's Dynamic Forcing Chains: contradictions, double implications, cell and region
    forcing chains whose links see the removals made so far; 8.5 plus the length bonus."""
    return _run(board, DYNAMIC, "Dynamic Forcing Chain")


@technique("Dynamic Forcing Chain (+)", 9.0, max_side=9, classic=None)
def dynamic_plus_forcing_chain(board: Board) -> Step | None:
    """SE's Dynamic Forcing Chains (+): dynamic forcing chains whose propagation also applies
    locked candidates, hidden and naked pairs and X-Wings (:mod:`.advanced`), rated 9.0 plus
    the length bonus of their complexity (classic 9x9 grids)."""
    return _run(board, PLUS, "Dynamic Forcing Chain (+)")


@technique("Dynamic Forcing Chain (+ Forcing Chains)", 9.5, max_side=9, classic=None)
def nested_forcing_chain(board: Board) -> Step | None:
    """SE's "Dynamic Forcing Chains (+ Forcing Chains)" (level 2): dynamic forcing chains
    whose propagation applies the four "(+)" rules and, when they find nothing, the static
    forcing chains of the working grid (:mod:`.nested`), each nested chain's complexity added
    to the outer chain's; 9.5 plus the length bonus (classic 9x9 grids)."""
    return _run(board, NESTED_FORCING, "Dynamic Forcing Chain (+ Forcing Chains)")


@technique("Dynamic Forcing Chain (+ Multiple Forcing Chains)", 10.0, max_side=9, classic=None)
def nested_multiple_forcing_chain(board: Board) -> Step | None:
    """SE's "Dynamic Forcing Chains (+ Multiple Forcing Chains)" (level 3): as level 2, and
    when the static forcing chains find nothing either, the static cell and region forcing
    chains of the working grid (:mod:`.nested`); 10.0 plus the length bonus (classic 9x9
    grids; the trial step comes after it)."""
    return _run(board, NESTED_MULTIPLE, "Dynamic Forcing Chain (+ Multiple Forcing Chains)")


@technique("Dynamic Forcing Chain (+ Dynamic Forcing Chains)", 10.5, max_side=9, classic=None)
def nested_dynamic_forcing_chain(board: Board) -> Step | None:
    """SE's "Dynamic Forcing Chains (+ Dynamic Forcing Chains)" (level 4): dynamic forcing
    chains whose propagation applies the four "(+)" rules and, when they find nothing, SE's
    Dynamic Forcing Chains on the working grid (:mod:`.nested_dynamic`), each nested chain's
    complexity added to the outer chain's; 10.5 plus the length bonus (classic 9x9 grids; the
    trial step comes after it)."""
    return _run(board, NESTED_DYNAMIC, "Dynamic Forcing Chain (+ Dynamic Forcing Chains)")
