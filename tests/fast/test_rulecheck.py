"""The compiled check of the drawn rules (sudokit.fast.rulecheck) gives the verdict of the
Python check (sudokit.model.puzzle.rules_ok) on every puzzle of tests/data/rules with its
published solution and with wrong grids made from it (digits changed, 0 and out of range
included; cells swapped), full and partial; and the compiled verification uses it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache

import numpy as np

from sudokit.compiled import Kernels, forced
from sudokit.fast.layout import RuleCode
from sudokit.fast.rulecheck import check_arrays, rules_hold
from sudokit.formats import read_puzzles
from sudokit.formats.fpuzzles import decode_fpuzzles, fpuzzles_puzzle
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle, rules_ok
from tests.helpers import DATA

RULES = DATA / "rules"


@cache
def published_puzzles() -> tuple[tuple[Puzzle, tuple[int, ...]], ...]:
    """(puzzle, published solution) of every puzzle of tests/data/rules with drawn rules: the
    f-puzzles files of sigh's examples and the entries (not refused) of the other lists."""
    out = []
    for path in sorted(RULES.glob("*.json")):
        if path.name.startswith("sigh_"):
            out += [(r.puzzle, tuple(r.expected)) for r in read_puzzles(path)]
            continue
        for entry in json.loads(path.read_text(encoding="utf-8")):
            if "refused" not in entry and entry.get("solution"):
                puzzle = fpuzzles_puzzle(decode_fpuzzles(entry["puzzle"])[0])
                out.append((puzzle, tuple(map(int, entry["solution"]))))
    return tuple((p, s) for p, s in out if p.geometry.constraints)


def published() -> tuple[tuple[Geometry, tuple[int, ...]], ...]:
    """(geometry, published solution) of :func:`published_puzzles`."""
    return tuple((p.geometry, s) for p, s in published_puzzles())


def wrong_grids(solution: tuple[int, ...], side: int, count: int = 24,
                seed: int = 38) -> np.ndarray:
    """int64 ``(1 + count, C)``: the solution, then grids with 1-3 cells changed to 0..N+1
    (every third) or two cells swapped."""
    rng = np.random.default_rng(seed)
    base = np.array(solution, np.int64)
    grids = [base]
    for k in range(count):
        grid = base.copy()
        if k % 3 == 2:
            i, j = rng.choice(len(grid), 2, replace=False)
            grid[[i, j]] = grid[[j, i]]
        else:
            grid[rng.choice(len(grid), rng.integers(1, 4), replace=False)] = \
                rng.integers(0, side + 2)
        grids.append(grid)
    return np.array(grids)


def rule_grids() -> Iterator[tuple[np.ndarray, Geometry, bool]]:
    """The arguments of :func:`rules_hold` on every published puzzle, full and partial."""
    for geometry, solution in published():
        grids = wrong_grids(solution, geometry.side, 8)
        yield grids, geometry, False
        yield grids, geometry, True


def test_the_codes_are_the_engines() -> None:
    from sudokit.fast import rulecheck

    kinds = [c for c in RuleCode if c is not RuleCode.SANDWICH]  # the engine's own lowering
    assert [getattr(rulecheck, f"_{c.name}") for c in kinds] == [int(c) for c in kinds]


def test_every_published_puzzle_gets_the_python_verdict() -> None:
    checked = refused = 0
    kinds: set[str] = set()
    for geometry, solution in published():
        grids = wrong_grids(solution, geometry.side)
        kinds |= {rule.kind for rule in geometry.constraints}
        for partial in (False, True):
            want = rules_ok(grids, geometry, partial)
            with forced(Kernels.VERIFY, True):
                got = rules_hold(grids, geometry, partial)
            assert got.tolist() == want.tolist(), (geometry.constraints[0].name, partial)
            assert got[0]
            checked += len(grids)
            refused += int((~got).sum())
    assert len(published()) >= 100 and checked > 5000 and refused > 1000
    assert kinds == {"pair-relation", "linear-sum", "sequence", "must-contain", "renban",
                     "between-line", "lockout-line", "indexing"}


def test_the_arrays_are_built_once_per_geometry() -> None:
    geometry = published()[0][0]
    assert check_arrays(geometry) is check_arrays(geometry)
    assert len(check_arrays(geometry).kind) == len(geometry.constraints)


def test_the_compiled_verification_gives_the_python_verdict() -> None:
    """sudokit.fast.verify.solves (units, givens, variants and drawn rules) equals
    sudokit.model.puzzle.solves on the wrong grids of every 9x9 puzzle, some refused by a rule
    alone."""
    from sudokit.fast.verify import solves
    from sudokit.model.puzzle import solves as python_solves

    by_rule = 0
    for geometry, solution in published()[::4]:
        grids = wrong_grids(solution, geometry.side).astype(np.uint8)
        givens = np.zeros_like(grids)
        want = python_solves(grids, givens, geometry)
        assert solves(grids, givens, geometry).tolist() == want.tolist()
        grids[:, [0, 1]] = grids[:, [1, 0]]  # units kept, rules perhaps not
        by_rule += int((~rules_ok(grids, geometry)).sum())
        assert solves(grids, givens, geometry).tolist() == \
            python_solves(grids, givens, geometry).tolist()
    assert by_rule > 0
