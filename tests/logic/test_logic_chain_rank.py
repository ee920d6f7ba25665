"""The chain ranking done in the kernel (sudokit.logic.chains._rank_kernel.rank_starts) picks the
chain or nice loop the Python ranking picks, through each of its paths: chains over several
digits ranked in the kernel, single-digit chains handed back to Python, nice loops."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit import Puzzle
from sudokit.logic.chains import search as chains
from sudokit.logic.chains import walkers as chain_walkers
from sudokit.logic.chains.links import ChainMode, LinkGraph
from sudokit.logic.chains.search import find_chain
from sudokit.logic.state import Board, bits
from sudokit.run.explain import explain_states

DATA = Path(__file__).parents[1] / "data"


def _boards(count: int, per_puzzle: int) -> list[Board]:
    """Boards of the solves of the first ``count`` puzzles rated 7.5 or more (after each
    step, at most ``per_puzzle`` each)."""
    rows = [line.split() for line in
            (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()]
    puzzles = [Puzzle.coerce(r[1]) for r in rows if len(r) == 3 and float(r[2]) >= 7.5][:count]
    out = []
    for puzzle in puzzles:
        for k, (_step, state) in enumerate(explain_states(puzzle)):
            if state.solved or k >= per_puzzle:
                break
            out.append(state.board())
    return out


def _fresh(board: Board) -> Board:
    return Board(board.geometry, board.masks, board.values, None, {})


def _key(step):  # type: ignore[no-untyped-def]
    return None if step is None else (step.technique, step.rating, step.placements,
                                      step.eliminations, step.text, step.links)


def test_kernel_ranking_matches_python_through_every_path(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    handed_back = 0  # single-digit chains the kernel left to Python to rate
    rate_in_python = chain_walkers.chain_key

    def counting(*args):  # type: ignore[no-untyped-def]
        nonlocal handed_back
        handed_back += 1
        return rate_in_python(*args)

    techniques: set[str] = set()
    for board in _boards(3, 25):
        for mode in (ChainMode.AIC, ChainMode.GROUPED, ChainMode.XY):
            with monkeypatch.context() as m:
                m.setattr(chain_walkers, "chain_key", counting)
                compiled = find_chain(_fresh(board), mode, 12)
            with monkeypatch.context() as m:
                m.setattr(chains, "compiled_mode", lambda _board, _mode: False)
                python = find_chain(_fresh(board), mode, 12)
            assert _key(compiled) == _key(python)
            if compiled is not None:
                techniques.add(compiled.technique)
    assert handed_back > 0  # single-digit chains were met in the multi-digit modes
    assert {"AIC", "XY-Chain"} & techniques  # chains over several digits were ranked
    assert techniques - {"AIC", "XY-Chain", "Grouped AIC", "Nice Loop"}  # X-chains too


def test_nice_loops_ranked_in_the_kernel_match_python(monkeypatch: pytest.MonkeyPatch) -> None:
    loops = 0
    for board in _boards(6, 60):
        walker = chain_walkers.Walker.of(board, ChainMode.AIC)
        compiled = chains._best_loop(board, None, walker.starts(ChainMode.AIC), None, 14, walker)
        graph = LinkGraph(_fresh(board), ChainMode.AIC, [[] for _ in range(board.side)])
        starts = [(1 << c, b) for c in board.open_cells
                  for b in bits(board.masks[c])]
        python = chains._best_loop(graph.board, graph, starts, None, 14)
        assert compiled == python
        loops += compiled is not None
    assert loops > 0
