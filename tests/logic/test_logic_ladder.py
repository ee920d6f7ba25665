"""The compiled ladder (sudokit.logic.ladder, sudokit.logic._ladder_kernel) decides exactly what
the Python finders decide.

For each technique the kernels handle, on every state of real solves and on states with random
candidates removed (standard, jigsaw, diagonal, anti-knight, 6x6 and 16x16 grids): the kernel
says "a step" exactly when the Python finder returns one, the step it makes (built from the
kernel's find or by the finder) is the finder's step (technique, rating, text, cells, links),
and the compiled ladder's next step equals the first step of the Python finders in turn.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest

from sudokit import Geometry, Puzzle, solve
from sudokit.formats.text import read_puzzles
from sudokit.logic import Candidates, techniques
from sudokit.logic._ladder_kernel import CODES
from sudokit.logic.ladder import MAX_CELLS, Run, first_step, ladder_tables, plan
from sudokit.logic.state import Board
from sudokit.run.explain import explain_states
from tests.helpers import DATA

KERNEL_TECHNIQUES = [t for t in techniques() if t.name in CODES]
RATED = [line.split()[1] for line in
         (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]
JANKO = Path(__file__).parents[1] / "data/janko"


def decided(board: Board, tech) -> bool:
    """Whether the kernel finds a step of ``tech`` alone on ``board``."""
    run = Run((tech,), np.asarray([CODES[tech.name]], dtype=np.int64),
              ladder_tables(board.geometry))
    return run.step(Board(board.geometry, board.masks, board.values)) is not None


def python_first(board: Board, ladder) -> object:
    for tech in ladder:
        step = tech.find(board)
        if step is not None:
            return step
    return None


def check_board(board: Board) -> None:
    """Kernel and finder agree on every kernel technique, and the whole ladder agrees."""
    for tech in KERNEL_TECHNIQUES:
        expected = tech.find(Board(board.geometry, board.masks, board.values))
        assert decided(board, tech) == (expected is not None), (tech.name, board.masks)
        if expected is not None:  # a step built from the kernel's find is the finder's step
            run = Run((tech,), np.asarray([CODES[tech.name]], dtype=np.int64),
                      ladder_tables(board.geometry))
            assert run.step(Board(board.geometry, board.masks, board.values)) == expected
    ladder = techniques(side=board.geometry.side)
    cheap = [t for t in ladder if t.name in CODES or t.rating <= 5.0]
    fresh = Board(board.geometry, board.masks, board.values)
    assert first_step(fresh, plan(tuple(cheap), board.geometry)) == python_first(
        Board(board.geometry, board.masks, board.values), cheap)


def thinned(puzzle: Puzzle, rng: random.Random, share: float) -> Board:
    """The puzzle's state with a ``share`` of the candidates that are not the solution's digit
    removed at random (the solution stays possible)."""
    solution = solve(puzzle, "fast").solution
    state = Candidates.from_puzzle(puzzle)
    masks = state.masks.tolist()
    for cell, mask in enumerate(masks):
        if state.values[cell]:
            continue
        keep = 1 << (solution[cell] - 1)
        for d0 in range(puzzle.geometry.side):
            if mask >> d0 & 1 and rng.random() < share:
                mask &= ~(1 << d0)
        masks[cell] = mask | keep
    return Board(puzzle.geometry, masks, state.values.tolist())


@pytest.mark.parametrize("grid", RATED[:6])
def test_kernels_agree_on_every_state_of_a_solve(grid: str) -> None:
    for _step, state in explain_states(grid):
        if not state.solved:
            check_board(state.board())


@functools.cache
def _variants() -> list[Puzzle]:
    out = [Puzzle.coerce(g) for g in RATED[6:16]]
    for path in sorted((JANKO / "JigsawSudoku/problems").glob("*.txt"))[:3]:
        out.append(next(iter(read_puzzles(path))).puzzle)
    out.append(next(iter(read_puzzles(min((JANKO / "16x16Sudoku/problems").glob("*.txt"))))
                    ).puzzle)
    for geometry in (Geometry.of(3, 3, "diagonal"), Geometry.of(3, 3, "anti-knight"),
                     Geometry.of(2, 3)):
        grid = solve(Puzzle(geometry, (0,) * geometry.n_cells), "fast").solution
        out.append(Puzzle(geometry, tuple(d if cell % 3 == 0 else 0
                                          for cell, d in enumerate(grid))))
    return out


@pytest.mark.parametrize("index", range(17))
def test_kernels_agree_with_candidates_removed_at_random(index: int) -> None:
    puzzle = _variants()[index]
    rng = random.Random(index)
    for share in (0.1, 0.25, 0.4, 0.55, 0.7):
        for _ in range(4 if puzzle.geometry.side <= 9 else 1):
            check_board(thinned(puzzle, rng, share))


def test_kernels_agree_where_there_is_no_candidate_left() -> None:
    puzzle = Puzzle.coerce(RATED[0])
    board = thinned(puzzle, random.Random(1), 0.5)
    masks = list(board.masks)
    masks[next(c for c, v in enumerate(board.values) if not v)] = 0
    check_board(Board(board.geometry, masks, board.values))


def test_grids_over_the_kernels_bound_run_in_python() -> None:
    geometry = Geometry.of(6, 6)
    assert geometry.n_cells > MAX_CELLS
    ladder = tuple(techniques(side=36))
    assert plan(ladder, geometry) == ladder
    assert any(isinstance(item, Run) for item in plan(tuple(techniques()), Geometry.of(3, 3)))


@pytest.mark.parametrize("grid", RATED[:3] + RATED[-2:])
def test_singles_found_ahead_are_the_python_ladders_next_steps(grid: str) -> None:
    from sudokit.logic.ladder import first_steps
    from sudokit.logic.solve import apply_step

    ladder = techniques()
    state = Candidates.from_puzzle(Puzzle.coerce(grid))
    chained = 0
    while not state.solved:
        steps = first_steps(state.board(), plan(tuple(ladder), state.geometry))
        assert steps
        for step in steps:
            assert step == python_first(state.board(), ladder)
            apply_step(state, step)
        chained += len(steps) - 1
    assert chained > 0


def test_the_ladder_does_not_depend_on_the_import_order() -> None:
    import json
    import subprocess
    import sys

    code = ("import json, sudokit.logic.{first}\n"
            "from sudokit.logic import techniques\n"
            "print(json.dumps([t.name for t in techniques()]))")
    out = {subprocess.run([sys.executable, "-c", code.format(first=first)], check=True,
                          capture_output=True, text=True).stdout
           for first in ("techniques.wings", "techniques.fish", "chains.aic", "techniques.trial")}
    assert len(out) == 1
    names = json.loads(out.pop())
    assert names.index("X-Chain (short)") < names.index("Jellyfish")
    assert names.index("ALS-XZ") < names.index("W-Wing")
