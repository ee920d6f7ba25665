"""Constraint propagation with depth-first search (Norvig 2006), on bit sets with an undo trail.

Each cell holds its candidates as a bit set (bit ``d - 1`` for digit d). Removing candidates
queues an event; processing events applies, to a fixpoint:

* **elimination** (naked single): a cell left with one candidate removes it from its peers;
* **only choice** (hidden single): a digit with one place left in a unit goes there;
* **naked twins** (naked pair): two cells of a unit with the same two candidates remove them from
  the rest of the unit (the Udacity "AIND-Sudoku" formulation);

and, on variant grids (:class:`~sudokit.model.geometry.Geometry` features):

* the peers include cage mates and cells a chess move apart (anti-knight, anti-king), so
  elimination covers them;
* **parity** (even/odd): a cell starts with the digits its parity allows;
* **non-consecutive**: a cell whose candidates are ``{d}`` removes d-1 and d+1 from its
  orthogonal neighbours, and one whose candidates are ``{d-1, d+1}`` removes d (every digit
  left must have a candidate of the neighbour that is not next to it);
* **cage combinations** (killer): when a cage cell loses candidates, every cage cell keeps only
  the digits some combination of distinct digits reaching the cage's total, one per cell from
  its candidates, uses (:func:`sudokit.csp.cages.cage_supports`: generalised arc consistency);
* **drawn rules** (thermometers, arrows, dots, lines, outside clues: the geometry's
  ``constraints``): when a cell of a rule loses candidates, the rule's filter keeps in each of
  its cells only the digits some assignment of the whole rule supports
  (:func:`sudokit.csp.rules.rule_filter`); every rule is filtered once at the start.

The same three rules, one pass at a time on an immutable state, are in
:mod:`sudokit.csp.steps` (the Udacity notebook's steps).

Search picks a cell with the fewest candidates (MRV) and tries its digits in increasing order.
Every change is recorded on a trail ``(cell, old_mask)`` and undone by popping, so no state is ever
copied. A contradiction is a return value (False), never an exception.

References: P. Norvig, "Solving Every Sudoku Puzzle", 2006; Russell and Norvig, AIMA ch. 6.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats

if TYPE_CHECKING:
    from .rules import Filter

__all__ = ["PropagationState", "search"]


class PropagationState:
    """Candidate bit sets of every cell of one puzzle, with propagation and an undo trail.

    Attributes:
        cand: list of N**2 ints; bit ``d - 1`` set when digit d is still a candidate.
        trail: list of ``(cell, old_mask)`` changes, newest last.
        eliminations: number of candidate removals made so far (for ``Stats.propagations``).
    """

    def __init__(self, puzzle: Puzzle, naked_twins: bool = True) -> None:
        g = puzzle.geometry
        self.puzzle = puzzle
        self.naked_twins = naked_twins
        self.peers = g.peers
        self.units = g.units
        self.cell_units = [[g.units[u] for u in us] for us in g.units_of]
        self.side = g.side
        self.cand = ([(1 << g.side) - 1] * g.n_cells if g.parity is None else
                     [sum(1 << (d - 1) for d in g.allowed(c)) for c in range(g.n_cells)])
        self.neighbours = g.neighbours if g.consecutive_pairs else ()  # (): no such rule
        self.cage_of = g.cage_of if g.cages else None
        self.cages = g.cages
        self.rules = _rule_filters(g) if g.constraints else ()
        self.rules_of: list[list[int]] = [[] for _ in range(g.n_cells)]
        for k, (cells, _) in enumerate(self.rules):
            for c in cells:
                self.rules_of[c].append(k)
        self.trail: list[tuple[int, int]] = []
        self.queue: list[tuple[int, int]] = []
        self.eliminations = 0

    def assign_givens(self) -> bool:
        """Set every given and propagate; False when the givens contradict each other."""
        for cell, digit in enumerate(self.puzzle.givens):
            if digit and not self.remove(cell, self.cand[cell] & ~(1 << (digit - 1))):
                return False
        return all(self._rule(k) for k in range(len(self.rules))) and self.propagate()

    def remove(self, cell: int, bits: int) -> bool:
        """Remove ``bits`` from the candidates of ``cell`` and queue the event.

        Returns False when the cell would have no candidate left (nothing is changed then).
        """
        old = self.cand[cell]
        new = old & ~bits
        if new == old:
            return True
        if not new:
            return False
        self.trail.append((cell, old))
        self.cand[cell] = new
        self.queue.append((cell, old))
        self.eliminations += (old ^ new).bit_count()
        return True

    def propagate(self) -> bool:
        """Process queued removals to a fixpoint; False on a contradiction (queue cleared)."""
        cand, queue, remove = self.cand, self.queue, self.remove
        while queue:
            cell, old = queue.pop()
            mask = cand[cell]
            if not mask & (mask - 1) and old & (old - 1):  # became a naked single
                for peer in self.peers[cell]:
                    if cand[peer] & mask and not remove(peer, mask):
                        queue.clear()
                        return False
            if self.neighbours and not self._non_consecutive(cell, mask):
                queue.clear()
                return False
            if self.cage_of is not None and self.cage_of[cell] >= 0 and not self._cage(
                    self.cage_of[cell]):
                queue.clear()
                return False
            if self.rules and not all(self._rule(k) for k in self.rules_of[cell]):
                queue.clear()
                return False
            removed = old & ~mask
            twin = self.naked_twins and mask.bit_count() == 2 and old.bit_count() > 2
            for unit in self.cell_units[cell]:
                if not self._only_choice(unit, removed) or (
                    twin and not self._twins(unit, cell, mask)
                ):
                    queue.clear()
                    return False
        return True

    def _only_choice(self, unit: tuple[int, ...], digits: int) -> bool:
        """For each digit in ``digits``: fail if it has no place in unit, place it if one."""
        cand = self.cand
        while digits:
            bit = digits & -digits
            digits ^= bit
            place = -1
            for c in unit:
                if cand[c] & bit:
                    if place >= 0:
                        break
                    place = c
            else:
                if place < 0 or not self.remove(place, cand[place] & ~bit):
                    return False
        return True

    def _non_consecutive(self, cell: int, mask: int) -> bool:
        """Remove from the neighbours of ``cell`` the digits next to every candidate left."""
        low = mask & -mask
        if mask == low:  # {d}: neither d-1 nor d+1 (bits d-2 and d)
            forbid = (low >> 1) | (low << 1)
        elif mask == low | (low << 2):  # {d-1, d+1}: not d
            forbid = low << 1
        else:
            return True
        forbid &= (1 << self.side) - 1
        cand = self.cand
        return all(not cand[nb] & forbid or self.remove(nb, forbid)
                   for nb in self.neighbours[cell])

    def _cage(self, k: int) -> bool:
        """Keep in each cell of cage k only the digits some combination reaching its total
        supports; False when no combination is left."""
        # imported here: the csp package costs start-up time
        from .cages import cage_supports

        cage, cand = self.cages[k], self.cand
        supports = cage_supports([cand[c] << 1 for c in cage.cells], cage.total, self.side)
        if supports is None:
            return False
        return all(self.remove(c, cand[c] & ~(s >> 1)) for c, s in zip(cage.cells, supports))

    def _rule(self, k: int) -> bool:
        """Keep in each cell of drawn rule k only the digits its filter supports; False when
        no assignment of the rule is left."""
        cells, prune = self.rules[k]
        cand = self.cand
        supports = prune([cand[c] << 1 for c in cells])
        if supports is None:
            return False
        return all(self.remove(c, cand[c] & ~(s >> 1)) for c, s in zip(cells, supports))

    def _twins(self, unit: tuple[int, ...], cell: int, mask: int) -> bool:
        """If another cell of unit has exactly ``mask``, remove mask from the unit's others."""
        cand = self.cand
        twin = next((c for c in unit if c != cell and cand[c] == mask), None)
        if twin is None:
            return True
        return all(c in (cell, twin) or self.remove(c, mask) for c in unit)

    def undo(self, mark: int) -> None:
        """Restore every cell changed since the trail had length ``mark``."""
        cand, trail = self.cand, self.trail
        while len(trail) > mark:
            cell, old = trail.pop()
            cand[cell] = old

    def select_cell(self) -> int:
        """Return an unfilled cell with the fewest candidates (MRV), or -1 when all are filled."""
        best, best_count = -1, 1 << 30
        for cell, mask in enumerate(self.cand):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < best_count:
                    best, best_count = cell, count
                    if count == 2:
                        break
        return best

    def grid(self) -> Grid:
        """The digits of single-candidate cells, 0 elsewhere."""
        return tuple(m.bit_length() if not m & (m - 1) else 0 for m in self.cand)

    def candidates(self) -> list[tuple[int, ...]]:
        """Per cell, its candidate digits in increasing order."""
        return [tuple(d + 1 for d in range(m.bit_length()) if m >> d & 1) for m in self.cand]


def _rule_filters(geometry: Geometry) -> tuple[tuple[tuple[int, ...], Filter], ...]:
    """The drawn rules of a geometry as ``(cells, filter)`` pairs."""
    # imported here: the csp package costs start-up time
    from .rules import rule_filter

    return tuple((rule.cells, rule_filter(rule, geometry.side)) for rule in geometry.constraints)


def search(puzzle: Puzzle, stats: Stats, limits: Limits,
           naked_twins: bool = True) -> Iterator[Grid]:
    """Yield every solution of ``puzzle`` by propagation plus depth-first search.

    Args:
        puzzle: the puzzle (consistent givens).
        stats: ``nodes``, ``backtracks`` and ``propagations`` are incremented in place.
        limits: checked at every node.
        naked_twins: also apply the naked-twins rule during propagation.

    Raises:
        LimitReached: a node or time limit was hit.
    """
    state = PropagationState(puzzle, naked_twins)
    ok = state.assign_givens()
    stats.propagations = (stats.propagations or 0) + state.eliminations
    if not ok:
        return
    stack: list[list[int]] = []  # frames [cell, untried digit bits, trail mark]
    while True:
        cell = state.select_cell()
        if cell < 0:
            yield state.grid()
        else:
            stack.append([cell, state.cand[cell], len(state.trail)])
        while stack:  # try the next digit of the deepest frame
            frame = stack[-1]
            cell, untried, mark = frame
            state.undo(mark)
            if not untried:
                stack.pop()
                stats.backtracks = (stats.backtracks or 0) + 1
                continue
            bit = untried & -untried
            frame[1] = untried ^ bit
            limits.count_node(stats)
            before = state.eliminations
            ok = state.remove(cell, state.cand[cell] & ~bit) and state.propagate()
            stats.propagations += state.eliminations - before
            if ok:
                break
        else:
            return
