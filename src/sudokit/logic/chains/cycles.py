"""Bidirectional Y-Cycle: a loop of bivalue cells (Sudoku Explainer's "Bidirectional Y-Cycle").

Bivalue cells c0, c1, ..., c(k-1), each seeing the next (and the last the first), where the cell
ci holds {x(i-1), xi} and xi is the digit ci shares with c(i+1). Either every ci is x(i-1) or
every ci is xi (a cell that is not its incoming digit is its outgoing one, around the loop), so
of each linked pair ci, c(i+1) exactly one is xi: xi leaves every other cell seeing both.
Rated as Sudoku Explainer rates cycles (Juillerat 2006, ``CycleHint.getDifficulty``): 6.5 plus
the length bonus of 2k - 2 implications (a loop of k cells has 2k candidates); the shortest
loop that eliminates something is reported.
"""

from __future__ import annotations

import numpy as np

from ...compiled import Kernels, twin, use_compiled
from ..registry import technique
from ..state import Board, bits
from ..step import Link, LinkKind, Step, eliminations_text, length_bonus
from ..tables import grid_tables

__all__ = ["y_cycle", "y_cycle_rating"]

MAX_CELLS = 8
"""Longest loop searched (cells)."""

KERNEL_CELLS = 256
"""Largest grid (cells) searched by the compiled loop search
(:func:`~sudokit.logic.chains._cycles_kernel.y_cycle_best`)."""


def y_cycle_rating(cells: int) -> float:
    """Sudoku Explainer's rating of a Y-cycle through ``cells`` bivalue cells."""
    return round(6.5 + length_bonus(2 * cells - 2), 1)


def _eliminations(board: Board, loop: list[int], links: list[int]) -> list[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    inside = sum(1 << c for c in loop)
    for i, cell in enumerate(loop):
        nxt, d0 = loop[(i + 1) % len(loop)], links[i]
        seen = board.cells_of[d0] & board.peer_masks[cell] & board.peer_masks[nxt] & ~inside
        out.update((c, d0 + 1) for c in bits(seen))
    return sorted(out)


def _loops(board: Board, bivalue: list[int], max_cells: int):
    """Yield ``(cells, link digits)`` of every loop, each once per start cell (the lowest
    cell of the loop) and direction, shortest first within a start."""
    masks, peers = board.masks, board.peer_masks
    rank = {c: i for i, c in enumerate(bivalue)}
    for start in bivalue:
        first, last = bits(masks[start])
        for out_d0, home_d0 in ((first, last), (last, first)):
            frontier = [([start], [out_d0])]
            for _size in range(2, max_cells + 1):
                grown = []
                for cells, links in frontier:
                    here, d0 = cells[-1], links[-1]
                    for nxt in bivalue:
                        if (rank[nxt] <= rank[start] or nxt in cells or not peers[here] >> nxt & 1
                                or not masks[nxt] >> d0 & 1):
                            continue
                        other = (masks[nxt] & ~(1 << d0)).bit_length() - 1
                        if other == home_d0 and len(cells) >= 2 and peers[nxt] >> start & 1:
                            yield cells + [nxt], links + [other]
                        grown.append((cells + [nxt], links + [other]))
                frontier = grown


@technique("Y-Cycle", 6.6, max_side=16)
@twin(Kernels.LOGIC, "sudokit.logic.chains._cycles_kernel:y_cycle_best",
      "sudokit.logic.chains.cycles:_loops", "boards")
def y_cycle(board: Board) -> Step | None:
    """A loop of bivalue cells (see module docstring)."""
    best: tuple[tuple[int, int], list[int], list[int], list[tuple[int, int]]] | None = None
    # compiled, same loops and order
    if use_compiled(Kernels.LOGIC, board.geometry.n_cells, KERNEL_CELLS):
        from ..kernels.arrays import board_arrays
        from ._cycles_kernel import y_cycle_best

        arrays = board_arrays(board)
        bivalue_cells = np.flatnonzero(arrays.cand.sum(axis=1) == 2)
        if len(bivalue_cells) < 3:
            return None
        loop_arr, links_arr, best_loop, best_links, index = (
            np.zeros(MAX_CELLS + 1, dtype=np.int64) for _ in range(5))
        k = y_cycle_best(arrays.masks, arrays.values, grid_tables(board.geometry).sees,
                         bivalue_cells.astype(np.int64), MAX_CELLS, loop_arr, links_arr,
                         best_loop, best_links, index)
        if k:
            loop, links = best_loop[:k].tolist(), best_links[:k].tolist()
            eliminations = _eliminations(board, loop, links)
            best = ((k, -len(eliminations)), loop, links, eliminations)
    else:
        masks = board.masks
        bivalue = [c for c in board.open_cells if masks[c].bit_count() == 2]
        if len(bivalue) < 3:
            return None
        for loop, links in _loops(board, bivalue, MAX_CELLS):
            if best is not None and len(loop) > best[0][0]:
                continue
            eliminations = _eliminations(board, loop, links)
            if eliminations:
                key = (len(loop), -len(eliminations))
                if best is None or key < best[0]:
                    best = (key, loop, links, eliminations)
    if best is None:
        return None
    _key, loop, links, eliminations = best
    g = board.geometry
    chain_links = [Link(((cell,), links[i] + 1), ((loop[(i + 1) % len(loop)],), links[i] + 1),
                        LinkKind.WEAK) for i, cell in enumerate(loop)]

    def text() -> str:
        words = [f"{g.label(cell)}={links[i] + 1}" for i, cell in enumerate(loop)]
        return (f"loop of bivalue cells {' - '.join(words)} - {g.label(loop[0])}: of each "
                f"linked pair one holds the link digit: {eliminations_text(g, eliminations)}")

    return Step("Y-Cycle", y_cycle_rating(len(loop)), text,
                eliminations=tuple(eliminations), cells=tuple(loop),
                digits=tuple(sorted({d + 1 for d in links})), links=tuple(chain_links))
