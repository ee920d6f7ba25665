"""An adapter from a sudokit puzzle to the constraints of sigh's Interactive Sudoku Solver (ISS).

Used by ``benchmarks/vs_iss.py`` only (ISS is a peer, never a dependency). A puzzle becomes a
list of *specs*, JSON arrays that ``benchmarks/iss_runner.mjs`` turns into ISS constraint
objects and then into ISS's own constraint string (``.Cage~10~R1C1~R1C2...``), which is what
ISS parses, builds and solves in the timed runs. The specs:

* ``["new", Type, *args]``: ``new SudokuConstraint[Type](*args)`` (``Given``, ``Cage``,
  ``AllDifferent``, ``Sum`` with ``[cell, coefficient]`` terms, ``Renban``, ``Between``,
  ``Lockout``, ``ContainAtLeast``, ``Indexing``, ``AntiKnight`` ...);
* ``["pair", [[a, b], ...], c1, c2]``: ISS's generic binary relation (``Pair``, a lookup table
  keyed by ``Pair.fnToKey``) allowing exactly the digit pairs listed;
* ``["outside", Type, value, cells]``: an outside clue (``Sandwich``, ``XSum``, ``Skyscraper``,
  ``NumberedRoom``, ``LittleKiller``) from the line it reads (``fromCells``), else ``fallback``;
* ``["jigsaw", layout]``: the irregular regions, one region letter per cell;
* ``["or", [[spec, ...], ...]]``: one of several conjunctions (a box indexer's cases).

Every rule kind of :mod:`sudokit.model.rules` maps to ISS's generic handler of the same meaning
(pair relations to lookup tables, weighted sums to ``Sum``), and the outside clues to ISS's named
clues, so ISS gets each rule's exact meaning and its own strongest handler where the kind has
no generic one. A puzzle with something this adapter does not know raises ``Unsupported``.
"""

from __future__ import annotations

from sudokit.model.constraints import Variant
from sudokit.model.puzzle import Puzzle
from sudokit.model.rules import (Automaton, Between, Contains, Index, Lockout, Relation, Renban,
                                 WeightedSum)

OUTSIDE = {"sandwich sum": "Sandwich", "X-sum": "XSum", "skyscraper": "Skyscraper",
           "numbered room": "NumberedRoom"}
"""Sequence rules (by drawing name) that ISS knows as outside clues."""

FLAGS = {Variant.ANTI_KNIGHT: "AntiKnight", Variant.ANTI_KING: "AntiKing",
         Variant.NON_CONSECUTIVE: "AntiConsecutive"}


class Unsupported(ValueError):
    """A puzzle holds something the adapter cannot give ISS."""


def cell_id(cell: int, side: int = 9) -> str:
    """ISS's name of a cell index (``R1C1``)."""
    return f"R{cell // side + 1}C{cell % side + 1}"


def _rule_specs(rule, side: int) -> list:
    """The specs of one rule (a named outside clue when its drawing is one)."""
    ids = [cell_id(c, side) for c in rule.cells]
    drawing = rule.drawing
    if isinstance(rule, Relation):
        return [["pair", sorted(map(list, rule.pairs)), *ids]]
    if isinstance(rule, WeightedSum):
        terms = [[i, k] for i, k in zip(ids, rule.coefficients)]
        generic = ["new", "Sum", rule.total, *terms]
        if drawing is not None and drawing.name == "little killer":
            return [["outside", "LittleKiller", rule.total, ids, [generic]]]
        return [generic]
    if isinstance(rule, Automaton):
        if drawing is not None and drawing.name in OUTSIDE:
            return [["outside", OUTSIDE[drawing.name], int(drawing.value), ids, None]]
        if drawing is not None and drawing.name == "given candidates":
            return [["new", "Given", ids[0], *map(int, drawing.value.split())]]
        raise Unsupported(f"sequence rule {rule.name!r}")
    if isinstance(rule, Contains):
        return [["new", "ContainAtLeast", "_".join(map(str, rule.digits)), *ids]]
    if isinstance(rule, Renban):
        return [["new", "Renban", *ids]]
    if isinstance(rule, Between):
        return [["new", "Between", *ids]]
    if isinstance(rule, Lockout):
        return [["new", "Lockout", rule.gap, *ids]]
    if isinstance(rule, Index):
        return [_index_spec(rule, side)]
    raise Unsupported(f"rule kind {rule.kind!r}")


def _index_spec(rule: Index, side: int) -> list:
    """ISS's row or column indexing when the rule is one, else the cases as an ``or``."""
    cell = rule.cells[0]
    targets = [rule.cells[t] for t in rule.targets]
    row, col = divmod(cell, side)
    if len(targets) == side and targets == [row * side + k for k in range(side)] \
            and rule.value == col + 1:
        return ["new", "Indexing", "C", cell_id(cell, side)]
    if len(targets) == side and targets == [k * side + col for k in range(side)] \
            and rule.value == row + 1:
        return ["new", "Indexing", "R", cell_id(cell, side)]
    cases = []
    for d, target in enumerate(targets, 1):
        case = [["new", "Given", cell_id(cell, side), d]]
        if target != cell:
            case.append(["new", "Given", cell_id(target, side), rule.value])
        elif d != rule.value:
            continue
        cases.append(case)
    return ["or", cases]


def iss_specs(puzzle: Puzzle) -> list:
    """The ISS constraint specs of a 9x9 (or any N x N single-grid) puzzle.

    Raises:
        Unsupported: a layout of several grids, boxes that are not square, or a rule this
            adapter does not translate.
    """
    g = puzzle.geometry
    side = g.side
    if g.layout is not None or side != 9:
        raise Unsupported("only single 9x9 grids")
    specs: list = []
    for cell, digit in enumerate(puzzle.givens):
        if digit:
            specs.append(["new", "Given", cell_id(cell, side), int(digit)])
    if g.regions is not None:
        letters = [""] * g.n_cells
        for k, region in enumerate(g.regions):
            for c in region:
                letters[c] = "0123456789ABCDEFGHIJKLMNOP"[k]
        specs += [["new", "NoBoxes"], ["jigsaw", "".join(letters)]]
    units = set(g.extra_units) | set(g.extra_regions)
    for unit in sorted(units):
        specs.append(["new", "AllDifferent", *[cell_id(c, side) for c in unit]])
    for flag, name in FLAGS.items():
        if flag in g.variant:
            specs.append(["new", name])
    for cage in g.cages:
        specs.append(["new", "Cage", cage.total, *[cell_id(c, side) for c in cage.cells]])
    if g.parity is not None:
        for cell, p in enumerate(g.parity):
            if p != "." and not puzzle.givens[cell]:
                specs.append(["new", "Given", cell_id(cell, side),
                              *range(2 if p == "e" else 1, side + 1, 2)])
    for rule in g.constraints:
        specs.extend(_rule_specs(rule, side))
    return specs
