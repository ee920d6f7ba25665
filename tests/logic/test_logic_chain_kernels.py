"""The compiled chain, ALS, Y-cycle and forcing-chain searches (sudokit.logic.chains:
_forcing_kernel, _walk_kernel, _rank_kernel, _cycles_kernel; sudokit.logic.techniques._als_kernel) find
exactly what the Python searches find, on every state of several solves (standard grids, a jigsaw
and a diagonal grid)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit import Geometry, Puzzle
from sudokit.formats.text import read_puzzles
from sudokit.logic.chains import search as chains
from sudokit.logic.chains.links import ChainMode
from sudokit.logic.chains.search import find_chain
from sudokit.logic.chains.dynamic import consequences
from sudokit.logic.state import Board, bits
from sudokit.logic.chains import cycles
from sudokit.logic.techniques import als, als_wings
from sudokit.logic.chains.forcing import (
    _cell_step,
    _digit_step,
    _branch,
    _grid,
    _scratch,
    _unit_step,
    cell_forcing_chain,
    digit_forcing_chain,
    unit_forcing_chain,
)
from sudokit.run.explain import explain_states

DATA = Path(__file__).parents[1] / "data"


def _rated(count: int, lowest: float) -> list[Puzzle]:
    rows = [line.split() for line in
            (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]
    return [Puzzle.coerce(r[1]) for r in rows if len(r) == 3 and float(r[2]) >= lowest][:count]


def _boards(puzzle: Puzzle, limit: int = 200) -> list[Board]:
    """The boards the solve searches, one per step (after the step)."""
    out = []
    for _step, state in explain_states(puzzle):
        if state.solved or len(out) >= limit:
            break
        out.append(state.board())
    return out


def _fresh(board: Board) -> Board:
    """The same snapshot without its memo (so each search starts from nothing)."""
    return Board(board.geometry, board.masks, board.values, None, {})


def _same(first, second) -> bool:  # type: ignore[no-untyped-def]
    if first is None or second is None:
        return first is second
    return (first.technique, first.rating, first.placements, first.eliminations, first.text,
            first.links) == (second.technique, second.rating, second.placements,
                             second.eliminations, second.text, second.links)


def _python_digit_forcing_chain(board: Board):  # type: ignore[no-untyped-def]
    """The Python search that digit_forcing_chain replaces (every candidate through
    dynamic.consequences)."""
    best = None
    for cell in board.open_cells:
        for b in bits(board.masks[cell]):
            step = _digit_step(board, cell, b + 1)
            if step is not None:
                key = (step.rating, -len(step.placements) - len(step.eliminations))
                if best is None or key < best[0]:
                    best = (key, step)
    return best[1] if best else None


def _python_cell_forcing_chain(board: Board):  # type: ignore[no-untyped-def]
    """The Python search of cell forcing chains (every cell through dynamic.consequences)."""
    best = None
    for cell in board.open_cells:
        waves, step = _cell_step(board, cell)
        if step is not None and (best is None or waves < best[0]):
            best = (waves, step)
    return best[1] if best else None


def _python_unit_forcing_chain(board: Board):  # type: ignore[no-untyped-def]
    """The Python search of unit forcing chains."""
    best = None
    for u in range(len(board.geometry.units)):
        for d0 in range(board.side):
            waves, step = _unit_step(board, u, d0)
            if step is not None and (best is None or waves < best[0]):
                best = (waves, step)
    return best[1] if best else None


MODES = [(ChainMode.X_GROUPED, 6), (ChainMode.X_GROUPED, 12), (ChainMode.AIC, 12),
         (ChainMode.GROUPED, 12), (ChainMode.XY, 12), (ChainMode.X, 12)]


def _check_board(board: Board, monkeypatch: pytest.MonkeyPatch, forcing_too: bool) -> int:
    """Compare compiled and Python searches on one board; return the steps found."""
    found = 0
    compiled = []
    for mode, nodes in MODES:
        compiled.append(find_chain(_fresh(board), mode, nodes))
    compiled += [als.als_xz(_fresh(board)), als_wings.wxyz_wing(_fresh(board)),
                 als_wings.vwxyz_wing(_fresh(board)), cycles.y_cycle(_fresh(board))]
    with monkeypatch.context() as m:
        m.setattr(chains, "compiled_mode", lambda _board, _mode: False)
        m.setattr(als, "als_arrays", lambda _board: None)
        m.setattr(als_wings, "als_arrays", lambda _board: None)
        m.setattr(cycles, "KERNEL_CELLS", 0)
        python = [find_chain(_fresh(board), mode, nodes) for mode, nodes in MODES]
        python += [als.als_xz(_fresh(board)), als_wings.wxyz_wing(_fresh(board)),
                   als_wings.vwxyz_wing(_fresh(board)), cycles.y_cycle(_fresh(board))]
    for c, p in zip(compiled, python):
        assert _same(c, p), (c, p)
        found += c is not None
    if forcing_too:
        for compiled_finder, python_finder in (
                (digit_forcing_chain, _python_digit_forcing_chain),
                (cell_forcing_chain, _python_cell_forcing_chain),
                (unit_forcing_chain, _python_unit_forcing_chain)):
            c, p = compiled_finder(_fresh(board)), python_finder(_fresh(board))
            assert _same(c, p), (c, p)
            found += c is not None
    return found


def test_compiled_searches_match_python_on_rated_solves(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    found = 0
    for puzzle in _rated(2, 7.5):
        for board in _boards(puzzle, 40):
            found += _check_board(board, monkeypatch, forcing_too=False)
    assert found > 20  # the comparison covers real steps, not only empty searches


@pytest.mark.slow
def test_compiled_searches_match_python_on_many_solves(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    for puzzle in _rated(12, 7.0):
        for board in _boards(puzzle):
            _check_board(board, monkeypatch, forcing_too=True)


def test_compiled_searches_match_python_on_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    jigsaw = next(iter(read_puzzles(DATA / "janko/JigsawSudoku/problems/250_9x9.txt"))).puzzle
    text = (DATA / "diagonal/x_sudoku.txt").read_text().split()[0]
    diagonal = Puzzle.from_digits([0 if ch == "." else int(ch) for ch in text],
                                  Geometry.of(3, 3, "diagonal"))
    for puzzle in (jigsaw, diagonal):
        for board in _boards(puzzle, 30):
            _check_board(board, monkeypatch, forcing_too=False)


def test_forcing_chains_match_python_on_hard_states() -> None:
    magictour = [line[:81] for line in
                 (DATA / "tdoku/puzzles3_magictour_top1465").read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    checked = 0
    for board in _boards(Puzzle.coerce(magictour[0])):
        step = digit_forcing_chain(_fresh(board))
        if step is not None:
            assert _same(step, _python_digit_forcing_chain(_fresh(board)))
            cell = cell_forcing_chain(_fresh(board))
            unit = unit_forcing_chain(_fresh(board))
            assert cell is not None and unit is not None  # these states have both
            assert _same(cell, _python_cell_forcing_chain(_fresh(board)))
            assert _same(unit, _python_unit_forcing_chain(_fresh(board)))
            checked += 1
            if checked == 3:
                break
    assert checked


def test_propagation_kernel_matches_consequences() -> None:
    import numpy as np

    from sudokit.logic.chains._forcing_kernel import assume_candidate

    board = _boards(_rated(1, 8.0)[0], 5)[-1]
    g = board.geometry
    c, n = g.n_cells, g.side
    masks0 = np.asarray(board.masks, dtype=np.int64)
    values0 = np.asarray(board.values, dtype=np.int64)
    for cell in board.open_cells:
        for b in bits(board.masks[cell]):
            for true in (True, False):
                out = consequences(board, cell, b + 1, true)
                branch = _branch(g)
                masks, values, pw, ew = branch
                bad, waves = assume_candidate(masks0, values0, cell, b, true, _grid(g), branch,
                                              _scratch(g))
                assert (bad, waves) == (out.contradiction, out.waves)
                if not bad:
                    assert masks.tolist() == out.masks and values.tolist() == out.values
                    assert {x: (int(values[x]), int(pw[x])) for x in range(c) if pw[x] >= 0} \
                        == out.placed
                    assert {(i // n, i % n + 1): int(w) for i, w in enumerate(ew) if w >= 0} \
                        == out.eliminated


@pytest.mark.parametrize("box", ["2x3", "2x4"])
def test_compiled_searches_match_python_on_other_sizes(box: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from sudokit import generate

    puzzle = next(iter(generate(1, box=box, seed=7, minimal=True))).puzzle
    found = 0
    for board in _boards(puzzle, 20):
        found += _check_board(board, monkeypatch, forcing_too=True)
    assert found > 0


def test_board_places_match_the_candidates() -> None:
    """The per-board place tables the chain walks build their links from hold, per digit, its
    open cells (bitset over cells) and, per unit, their positions in the unit (a standard grid,
    a diagonal one and a 16x16 grid, whose 256 cells take four words)."""
    from sudokit import generate
    from sudokit.logic.kernels.arrays import board_places
    from sudokit.logic.tables import grid_tables

    text = (DATA / "diagonal/x_sudoku.txt").read_text().split()[0]
    diagonal = Puzzle.from_digits([0 if ch == "." else int(ch) for ch in text],
                                  Geometry.of(3, 3, "diagonal"))
    big = next(iter(generate(1, box="4x4", seed=3))).puzzle
    for puzzle in (_rated(1, 7.0)[0], diagonal, big):
        board = _boards(puzzle, 2)[-1]
        units = grid_tables(board.geometry).units
        place_bits, unit_places = board_places(board, units)
        for d0 in range(board.side):
            words = [int(w) & (2**64 - 1) for w in place_bits[d0]]
            assert sum(w << (64 * i) for i, w in enumerate(words)) == board.cells_of[d0]
            for u, unit in enumerate(units.tolist()):
                expected = sum(1 << i for i, x in enumerate(unit) if board.cells_of[d0] >> x & 1)
                assert int(unit_places[u, d0]) == expected


def test_chain_arrays_are_per_thread_and_per_geometry() -> None:
    """The implication kernels write into reused arrays without the GIL: each thread has its
    own, and arrays kept for a freed geometry are never handed to another given its id."""
    import threading

    from sudokit.logic.chains import kernel_arrays

    regions = [[9 * r + c for r in range(9) for c in range(9)
                if 3 * (r // 3) + (c + r) % 9 // 3 == k] for k in range(9)]
    nine, jigsaw = Geometry.of(3, 3), Geometry.of(3, 3, regions=regions)
    first = kernel_arrays._work(nine)
    assert kernel_arrays._work(nine) is first
    other: list[object] = []
    thread = threading.Thread(target=lambda: other.append(kernel_arrays._work(nine)))
    thread.start()
    thread.join()
    assert other[0] is not first and other[0].masks.shape == first.masks.shape
    # a stale entry under the jigsaw's id (as if a freed geometry had held that id)
    kernel_arrays._LOCAL.work[id(jigsaw)] = (nine, first)
    fresh = kernel_arrays._work(jigsaw)
    assert fresh is not first
    units = {tuple(sorted(int(c) for c in row if c >= 0)) for row in fresh.tables[0]}
    assert units == {tuple(sorted(u)) for u in jigsaw.units}
