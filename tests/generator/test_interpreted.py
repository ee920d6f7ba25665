"""The generator's kernels run as Python (sudokit.compiled.interpreted) make the same puzzles as
the compiled kernels: the first use of the command line makes its puzzles that way while the
kernels compile in the background, and a seed's puzzles are a published property."""

from __future__ import annotations

import types

import numpy as np
import pytest
from numba.core.dispatcher import Dispatcher
from numba.core.extending import _Intrinsic

from sudokit import compiled
from sudokit.compiled import Kernels, _function, forced, run_as_python
from sudokit.generator import Options, grid_geometry
from sudokit.generator.engine import Maker, seeds_for
from sudokit.generator.kernels import generate_batch

CASES = [  # size, box, variant, options: the 9x9 engine, the generic one, the exact 4x4 table
    (9, None, "standard", {}),
    (9, None, "standard", {"symmetry": "rot180", "minimal": True}),
    (9, None, "standard", {"givens": "30"}),
    (9, None, "diagonal", {}),
    (4, None, "standard", {}),
    (None, (2, 4), "standard", {"symmetry": "mirror"}),
]


@pytest.mark.parametrize(("size", "box", "variant", "options"), CASES)
def test_interpreted_kernels_make_the_same_puzzles(size, box, variant, options) -> None:
    geometry = grid_geometry(size, box, variant)
    plan = Options.build(geometry, **options).plan()
    seeds = seeds_for(2024, range(3))
    compiled = Maker(geometry).make(seeds, plan)
    with forced(Kernels.GENERATOR, False):
        python = Maker(geometry).make(seeds, plan)
    for name, a, b in zip(compiled._fields, compiled, python):
        assert np.array_equal(a, b), name  # puzzles, solutions and every info column
    assert (compiled.info[:, 0] > 0).all()


def test_a_batch_switches_to_the_compiled_kernels_when_ready(monkeypatch) -> None:
    geometry = grid_geometry(9, None, "standard")
    plan = Options.build(geometry).plan()
    seeds = seeds_for(7, range(4))
    asked = []

    def ready(kernels: Kernels) -> bool:  # compiled from the third question on
        asked.append(kernels)
        return len(asked) > 2

    monkeypatch.setattr(compiled, "ready", ready)
    run_as_python(Kernels.GENERATOR, until_ready=True)
    try:
        switched = Maker(geometry).make(seeds, plan)
    finally:
        run_as_python(Kernels.GENERATOR, False)
    assert asked == [Kernels.GENERATOR] * 3  # two puzzles interpreted, then the rest compiled
    assert np.array_equal(switched.puzzles, Maker(geometry).make(seeds, plan).puzzles)


def test_the_twin_calls_no_compiled_kernel() -> None:
    """Every name the twin's code (and its callees' code) looks up is a Python function, an
    intrinsic's Python equivalent or a value: no dispatcher, so nothing can compile."""
    twin = _function(generate_batch)
    assert twin.__code__ is generate_batch.py_func.__code__
    seen, todo = set(), [twin]
    while todo:
        func = todo.pop()
        names = func.__code__.co_names
        values = [func.__globals__[n] for n in names if n in func.__globals__]
        values += [getattr(v, n) for v in values if isinstance(v, types.ModuleType)
                   for n in names if hasattr(v, n)]
        for value in values:
            assert not isinstance(value, (Dispatcher, _Intrinsic)), (func.__name__, value)
            if isinstance(value, types.FunctionType) and value not in seen:
                seen.add(value)
                todo.append(value)
    assert len(seen) > 20  # the grids, reduction, both engines and their rules


def test_raters_as_python_rate_as_compiled() -> None:
    """The node rater's kernel run as Python and the technique engine's Python twins (the
    first use of a rated run, while they compile in the background) give the same ratings."""
    from sudokit.generator.rating import NODE_RATER, SeRater
    from sudokit.model.puzzle import Puzzle
    from sudokit.run.generate import generate

    made = list(generate(3, seed=11))
    puzzles = np.array([g.puzzle.givens for g in made], np.uint8)
    solutions = np.array([g.solution for g in made], np.uint8)
    geometry = made[0].puzzle.geometry
    hard = np.array([Puzzle.parse(line).givens for line in (  # top95's first two
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....")],
        np.uint8)
    nodes = NODE_RATER(hard, geometry)
    assert (nodes > 0).all()
    se = SeRater()(puzzles, geometry, solutions)
    with forced(Kernels.TABLES, False), forced(Kernels.LOGIC, False):
        assert NODE_RATER(hard, geometry).tolist() == nodes.tolist()
        assert SeRater()(puzzles, geometry, solutions).tolist() == se.tolist()
    assert SeRater()(puzzles, geometry).tolist() == se.tolist()  # solutions found by search
    capped = SeRater()(puzzles, geometry, solutions, 2.0)
    assert all(c == s if s <= 2.0 else c == float("inf") for c, s in zip(capped, se))
