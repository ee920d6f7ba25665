"""Decayed conflict scores: the branching rule of the search on grids with drawn rules.

Each cell has a score: at the start its priority (N for each unit it is in, ``2N - length`` but
at least N for each cage or drawn sum, the length of any other drawn rule, so cells of many
rules and of short sums come first), then one more each time a digit
tried in it leads to a contradiction; each digit has a score of its own, counted the same way.
The search branches on the unfilled cell with the highest score per candidate, a cell holding
the digit that failed most often recently counting a fifth of that digit's score more (when
that digit stands out: at least N failures and more than 1.5 times the least-failed digit's).
Every ``DECAY_EVERY`` contradictions the cell scores are halved and the digit scores quartered,
so recent contradictions weigh most. With every score zero it is plain MRV.

The idea is that of sigh's Interactive Sudoku Solver (``js/solver/candidate_selector.js``,
``ConflictScores``: a history heuristic, conflicts per candidate; ``SOLVER_ENGINE.md``, "Conflict
Scores"), itself of the family of VSIDS (Moskewicz et al. 2001, "Chaff: engineering an efficient
SAT solver", DAC) and dom/wdeg (Boussemart et al. 2004); this code is sudokit's own.

A cell so chosen with more than two candidates and a score above 0 may give way to a digit with
only two places left in a unit (:func:`house_branch`, ISS's "custom candidates" of its house
handlers): the search then branches two ways, the digit in one place or in the other, when
the better scored of the two places scores at least twice the chosen cell's score per
candidate.

The scores live in the :class:`~sudokit.fast.state.RuleState` (``score``: int64[C] per cell;
``value_score``: int64[N + 1] per digit, then the contradictions left before the next decay).
"""

from __future__ import annotations

from .bits import lowest_index, popcount
from .layout import RuleCode
from .state import ONE, ZERO, jit

__all__ = ["DECAY_EVERY", "sum_priority", "prime_scores", "count_conflict", "demote",
           "select_scored", "house_branch"]

DECAY_EVERY = 1 << 14
"""Contradictions between two decays of the scores."""
VALUE_BONUS = 0.2
"""The share of the most-failed digit's score added to a cell that holds that digit."""


@jit
def sum_priority(side, length):
    """The priority a sum of ``length`` cells gives each of its cells: ``2N - length``, at
    least N (a short sum constrains its cells more; every sum counts at least as much as a
    unit). ISS's ``Sum.priority``; measured: on the published rule puzzles 0.95x the nodes of
    counting the sum's length (Hailstone 264,569 -> 145,539)."""
    return max(2 * side - length, side)


@jit
def prime_scores(tables, rules):
    """Set each cell's score to its priority (per rule it is in: N per unit, a cage's or a
    drawn sum's :func:`sum_priority`, another drawn rule's length) and every digit's to 0;
    the decay countdown full."""
    drawn, score, value_score = rules.drawn, rules.score, rules.value_score
    side = tables.units.shape[1]
    for cell in range(score.shape[0]):
        p = side * (tables.unit_start[cell + 1] - tables.unit_start[cell])
        cage = tables.cages.of_cell[cell]
        if cage >= 0:
            p += sum_priority(side, tables.cages.start[cage + 1] - tables.cages.start[cage])
        for k in range(drawn.cell_start[cell], drawn.cell_start[cell + 1]):
            r = drawn.cell_rules[k]
            length = drawn.start[r + 1] - drawn.start[r]
            p += sum_priority(side, length) if drawn.kind[r] == RuleCode.SUM else length
        score[cell] = p
    value_score[:] = 0
    value_score[value_score.shape[0] - 1] = DECAY_EVERY


@jit
def count_conflict(rules, cell, bit):
    """Count a contradiction that followed trying the digit ``bit`` (a one-bit mask) in
    ``cell``, halving every cell score and quartering every digit score each ``DECAY_EVERY``
    contradictions."""
    score, value_score = rules.score, rules.value_score
    last = value_score.shape[0] - 1
    score[cell] += 1
    value_score[lowest_index(bit)] += 1
    value_score[last] -= 1
    if value_score[last] == 0:
        for c in range(score.shape[0]):
            score[c] >>= 1
        for v in range(last):
            value_score[v] >>= 2
        value_score[last] = DECAY_EVERY


DEMOTE_BRANCHING = 5
"""A choice among this many digits or more that removes no other candidate halves the score of
its cell (it told the search nothing)."""


@jit
def demote(rules, cell, untried):
    """Halve the score of ``cell``, whose choice among the digits ``untried`` (a mask, the
    chosen one included) removed no other candidate, when there were ``DEMOTE_BRANCHING`` of them
    or more."""
    if popcount(untried) >= DEMOTE_BRANCHING:
        rules.score[cell] >>= 1


@jit
def _standout_digit(value_score):
    """The mask of the digit that failed most, and its score, when it stands out (at least N
    failures, more than 1.5 times the least-failed digit with any); else (0, 0)."""
    n = value_score.shape[0] - 1
    best = -1
    high = 0
    low = 1 << 62
    for v in range(n):
        s = value_score[v]
        if s > high:
            high = s
            best = v
        if s > 0 and s < low:
            low = s
    if best < 0 or high < n or 2 * high <= 3 * low:
        return ZERO, 0
    return ONE << best, high


@jit
def select_scored(cand, rules):
    """The unfilled cell with the highest score per candidate (ties: the first), plain MRV when
    every score is 0, or -1 when every cell is filled."""
    score = rules.score
    digit, high = _standout_digit(rules.value_score)
    bonus = VALUE_BONUS * high
    best = -1
    best_score = -1.0
    best_mrv = -1
    best_count = 65
    for cell in range(cand.shape[0]):
        m = cand[cell]
        if m & (m - ONE) != ZERO:
            count = popcount(m)
            s = float(score[cell])
            if m & digit:
                s += bonus
            s /= count
            if s > best_score:
                best = cell
                best_score = s
            if count < best_count:
                best_mrv = cell
                best_count = count
    if best_score <= 0.0:
        return best_mrv
    return best


@jit
def _two_places(units, cand, u, bit):
    """The two cells of unit ``u`` whose candidates hold ``bit`` (the one listed first, then
    the other)."""
    first = -1
    for k in range(units.shape[1]):
        c = units[u, k]
        if cand[c] & bit:
            if first >= 0:
                return first, c
            first = c
    return first, -1


@jit
def house_branch(units, cand, rules, cell):
    """A digit with two places in a unit to branch on instead of ``cell``, or (-1, -1, 0).

    Taken only when ``cell`` (the one :func:`select_scored` chose) has more than two
    candidates and a score above 0, and the better scored place of the digit scores at least
    twice ``cell``'s score per candidate; among such digits the one whose better place scores
    highest (ties: the last found).

    Args:
        units: int32[U, N] cells of every unit.
        cand: uint64[C] candidate masks (propagated, no cell empty).
        rules: the :class:`~sudokit.fast.state.RuleState` (``score`` read).
        cell: the cell chosen by score.

    Returns:
        (first, second, bit): the better scored place first (ties: the one listed first in the
        unit), the other place, and the digit's one-bit mask.
    """
    score = rules.score
    m = cand[cell]
    count = popcount(m)
    if count <= 2 or score[cell] <= 0:
        return -1, -1, ZERO
    best = score[cell] / count  # half the better place's score must reach this
    first, second, digit = -1, -1, ZERO
    for u in range(units.shape[0]):
        seen = ZERO
        twice = ZERO
        more = ZERO
        for k in range(units.shape[1]):
            v = cand[units[u, k]]
            more |= twice & v
            twice |= seen & v
            seen |= v
        exactly = twice & ~more
        while exactly != ZERO:
            bit = exactly & (~exactly + ONE)
            exactly ^= bit
            a, b = _two_places(units, cand, u, bit)
            if score[b] > score[a]:
                a, b = b, a
            if 0.5 * score[a] >= best:
                best = 0.5 * score[a]
                first, second, digit = a, b, bit
    return first, second, digit
