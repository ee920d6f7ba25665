"""Benchmark: the CNF of drawn rules, sudokit's encodings against the textbook alternatives.

Usage (from the repository root)::

    python benchmarks/rule_encodings.py [--rules tests/data/rules] [--runs 3]

For every puzzle of the folder (read as ``variants.py`` reads it, with its solution) that has pair
relations or linear sums, the formula is the ``extended`` encoding of its grid plus the clauses
of its rules, built three ways and solved by CaDiCaL 1.9.5 (PySAT) up to two solutions (a
solve plus the uniqueness proof):

* ``sudokit``: :func:`sudokit.sat.rules.rule_clauses` (pair tables as support clauses, sums as
  pruned layered graphs of the partial sums);
* ``binary pairs``: pair tables as one binary clause per forbidden pair, sums as sudokit's;
* ``PB sums``: pair tables as sudokit's, sums by PySAT's pseudo-Boolean encoding
  (``pysat.pb.PBEnc.equals``, ``EncType.best``: needs ``pypblib``) over ``x(cell, digit)``
  weighted by ``coefficient * digit``.

Printed per variant: median ms per puzzle (median of ``--runs`` runs each), the median number
of rule clauses, and how many puzzles gave exactly their published solution.
"""

from __future__ import annotations

import argparse
import statistics
import time
from itertools import product
from pathlib import Path

from common import ROOT
from pysat.pb import EncType, PBEnc
from pysat.solvers import Solver
from variants import rule_puzzles

from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from sudokit.sat.encoding import decode, encode, n_variables
from sudokit.sat.rules import rule_clauses

RULES = ROOT / "tests" / "data" / "rules"


def binary_pairs(rule, side: int, first: int) -> tuple[list[list[int]], int]:
    """Pair tables as forbidden-pair binary clauses; other kinds as sudokit's."""
    if rule.kind != "pair-relation":
        return rule_clauses(rule, side, first)
    a, b = rule.cells
    return [[-(a * side + d), -(b * side + e)] for d, e in product(range(1, side + 1), repeat=2)
            if (d, e) not in rule.pairs], 0


def pb_sums(rule, side: int, first: int) -> tuple[list[list[int]], int]:
    """Linear sums by PySAT's pseudo-Boolean encoding; other kinds as sudokit's."""
    if rule.kind != "linear-sum":
        return rule_clauses(rule, side, first)
    lits = [c * side + d for c in rule.cells for d in range(1, side + 1)]
    weights = [k * d for k in rule.coefficients for d in range(1, side + 1)]
    formula = PBEnc.equals(lits=lits, weights=weights, bound=rule.total, top_id=first - 1,
                           encoding=EncType.best)
    return formula.clauses, max(formula.nv - first + 1, 0)


def formula(puzzle: Puzzle, encoder) -> tuple[list[list[int]], int]:
    """The extended CNF of the grid and givens plus the rules' clauses by ``encoder``."""
    g = puzzle.geometry
    bare = Puzzle(Geometry.of(g.box_rows, g.box_cols, g.variant, regions=g.regions,
                              cages=g.cages, parity=g.parity, layout=g.layout,
                              extra_regions=g.extra_regions), puzzle.givens)
    clauses = encode(bare, "extended")
    first = n_variables(bare.geometry) + 1
    rules = 0
    for rule in g.constraints:
        more, n_aux = encoder(rule, g.side, first)
        clauses += more
        rules += len(more)
        first += n_aux
    return clauses, rules


def solve_two(puzzle: Puzzle, clauses: list[list[int]]) -> list[tuple[int, ...]]:
    """Up to two solutions by CaDiCaL, blocking each grid found."""
    found = []
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while len(found) < 2 and solver.solve():
            grid = decode(solver.get_model(), puzzle)
            found.append(grid)
            n = puzzle.geometry.side
            solver.add_clause([-(c * n + d) for c, d in enumerate(grid)])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=Path, default=RULES)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    records = [(puzzle, solution) for p in sorted(args.rules.rglob("*"))
               if p.is_file() and p.suffix != ".md" for _, puzzle, solution in rule_puzzles(p)]
    variants = {"sudokit": rule_clauses, "binary pairs": binary_pairs, "PB sums": pb_sums}
    for kind, other in (("pair-relation", "binary pairs"), ("linear-sum", "PB sums")):
        chosen = [r for r in records if any(c.kind == kind for c in r[0].constraints)]
        print(f"{kind}: {len(chosen)} puzzles of {args.rules}; CaDiCaL up to 2 solutions, "
              f"median of {args.runs} runs")
        for name in ("sudokit", other):
            times, sizes, right = [], [], 0
            for puzzle, solution in chosen:
                runs = []
                for _ in range(args.runs):
                    start = time.perf_counter()
                    clauses, n_rule = formula(puzzle, variants[name])
                    found = solve_two(puzzle, clauses)
                    runs.append(time.perf_counter() - start)
                times.append(statistics.median(runs))
                sizes.append(n_rule)
                right += found == [tuple(solution)]
            if chosen:
                print(f"  {name:14s} median {statistics.median(times) * 1e3:8.1f} ms  rule "
                      f"clauses {statistics.median(sizes):8.0f}  unique and right "
                      f"{right}/{len(chosen)}", flush=True)


if __name__ == "__main__":
    main()
