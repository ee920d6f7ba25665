"""Alternating inference chains on candidates, with grouped nodes (Eppstein; Sudopedia "AIC"):
the search a chain technique calls, and the step it makes.

:func:`find_chain` searches breadth first from every node, so each start gives its shortest
chains, and keeps the lowest rated (:mod:`sudokit.logic.chains.rating`): links and the Python
search are in :mod:`sudokit.logic.chains.links`, the compiled searches in
:mod:`sudokit.logic.chains.walkers`; only the chosen chain becomes a
:class:`~sudokit.logic.step.Step`.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ...compiled import Kernels, twin
from ...model.geometry import Geometry
from .links import (
    GROUPED,
    SINGLE_DIGIT,
    ChainMode,
    LinkGraph,
    Node,
    conclusion,
    group_masks,
    loop_eliminations,
    python_searches,
    search_loop,
)
from .rating import chain_key, chain_name, path_rating
from .walkers import MAX_COMPILED_NODES, Walker, best_single_digit, compiled_mode
from ..state import Board, bits
from ..step import Link, LinkKind, Step, candidate_text, eliminations_text, length_bonus

__all__ = ["find_chain"]


@twin(Kernels.LOGIC, "sudokit.logic.chains._walk_kernel:walk_starts",
      "sudokit.logic.chains.links:search_chain", "single-digit chains")
@twin(Kernels.LOGIC, "sudokit.logic.chains._rank_kernel:rank_starts",
      "sudokit.logic.chains.links:search_chain", "chains")
def find_chain(board: Board, mode: ChainMode, max_nodes: int = 12) -> Step | None:
    """Return the shortest useful chain of ``mode`` (fewest nodes; most eliminations among
    equals), or None.

    The walks run compiled on grids up to
    :data:`~sudokit.logic.chains.walkers.KERNEL_CELLS` cells (grouped modes: grids of
    rows, columns and boxes only), with the same starts, order and bounds as the Python walk
    (:func:`~sudokit.logic.chains.links.search_chain`), so the same chain is found. Single-digit
    searches (:func:`~sudokit.logic.chains._walk_kernel.walk_starts`) reuse, per digit, the walks of
    earlier snapshots of the solve whose places of that digit were the same
    (:func:`~sudokit.logic.chains.walkers.best_single_digit`); the other modes rank their chains
    and nice loops in the kernel (:func:`~sudokit.logic.chains._rank_kernel.rank_starts`, one
    call per search unless a single-digit chain turns up). Only the chosen chain becomes a
    :class:`~sudokit.logic.step.Step` (its text formatted when read).
    """
    grouped = mode in GROUPED
    compiled = compiled_mode(board, mode) and max_nodes + 2 <= MAX_COMPILED_NODES
    if compiled and mode in SINGLE_DIGIT:
        found = best_single_digit(board, mode, max_nodes)
        if found is None:
            return None
        _nodes, key, path, placements, eliminations = found
        return _step(board, path, placements, eliminations, rating=key[0])
    best: tuple | None = None

    def bound() -> int:
        return best[0] if best else max_nodes

    graph = None
    starts: np.ndarray | list[Node]  # the walker's int64 node ids, or the nodes
    found_iter: Iterable[tuple[list[Node], tuple, tuple]] = ()
    walker = Walker.of(board, mode) if compiled else None
    if walker is not None:
        starts = walker.starts(mode)
        ranked = walker.best(starts, False, max_nodes)
        if ranked is not None:
            key, path = ranked
            best = (len(path), key, path, *conclusion(board, path[0], path[-1]))
    else:
        graph = board.memo.get(("chains", mode))
        if graph is None:  # shared by the searches of one mode on this snapshot
            graph = board.memo["chains", mode] = LinkGraph(
                board, mode, group_masks(board) if grouped else [[] for _ in range(board.side)])
        starts = [(1 << c, b) for c in board.open_cells for b in bits(board.masks[c])]
        if grouped:
            starts += [(g, d0) for d0, gs in enumerate(graph.groups) for g in gs]
        if mode is ChainMode.XY:
            starts = [s for s in starts if board.masks[s[0].bit_length() - 1].bit_count() == 2]
        found_iter = python_searches(graph, starts, bound)
    for path, placements, eliminations in found_iter:
        key = chain_key(board, path, placements, eliminations)
        if best is None or key < best[1]:
            best = (len(path), key, path, placements, eliminations)
    if mode is ChainMode.AIC:
        loop = _best_loop(board, graph, starts, best[1][0] if best else None, max_nodes + 2,
                          walker)
        if loop is not None and (best is None or loop[0] < best[1]):
            return _loop_step(board, loop[1], loop[2])
    if best is None:
        return None
    return _step(board, best[2], best[3], best[4], best[1][0])


def _best_loop(board: Board, graph: LinkGraph | None, starts: np.ndarray | list[Node],
               bound: float | None, max_nodes: int, walker: Walker | None = None
               ) -> tuple[tuple, list[Node], tuple] | None:
    """The lowest rated nice loop with links inside cells (Sudoku Explainer's "Bidirectional
    Cycle", 7.0 + the length bonus of its nodes less two), if it rates below ``bound``."""
    if bound is not None and bound <= 7.0:
        return None
    if bound is not None:  # longer loops rate bound or more (the length bonus never falls)
        while max_nodes > 1 and not 7.0 + length_bonus(max_nodes - 2) < bound:
            max_nodes -= 1
    if walker is not None:  # ranked in the kernel, same walks and keys
        assert isinstance(starts, np.ndarray)  # Walker.starts' node ids
        ranked = walker.best(starts, True, max_nodes, float("inf") if bound is None else bound)
        if ranked is None:
            return None
        key, path = ranked
        return key, path, loop_eliminations(board, path)
    assert graph is not None  # the Python walk runs on the link graph
    best: tuple | None = None
    for start in starts:
        found = search_loop(graph, start, best[0][1] if best else max_nodes)
        if found is None:
            continue
        path, eliminations = found
        if len({d for _m, d in path}) == 1:
            continue  # single-digit loops: the X-chain stages
        key = (7.0 + length_bonus(len(path) - 2), len(path), 0, -len(eliminations))
        if (bound is None or key[0] < bound) and (best is None or key < best[0]):
            best = (key, path, eliminations)
    return best


def _node_text(geometry: Geometry, node: Node) -> str:
    return candidate_text(geometry, bits(node[0]), node[1] + 1)


def _links(path: list[Node], closed: bool) -> tuple[Link, ...]:
    """The links of a chain (strong first, alternating); with ``closed`` also the last node's
    link back to the first (a nice loop)."""
    nodes = [(tuple(bits(m)), d + 1) for m, d in path]
    if closed:
        nodes.append(nodes[0])
    return tuple(Link(nodes[i], nodes[i + 1], LinkKind.STRONG if i % 2 == 0 else LinkKind.WEAK)
                 for i in range(len(nodes) - 1))


def _chain_text(geometry: Geometry, path: list[Node], closed: bool) -> str:
    """``r1c2=5 = r1c7=5 - ...``; with ``closed`` the link back to the first node too."""
    words = []
    for i, node in enumerate(path):
        words.append(_node_text(geometry, node))
        if i + 1 < len(path) or closed:
            words.append("=" if i % 2 == 0 else "-")
    if closed:
        words.append(_node_text(geometry, path[0]))
    return " ".join(words)


def _loop_step(board: Board, path: list[Node], eliminations: tuple) -> Step:
    geometry = board.geometry

    def text() -> str:
        return (f"continuous loop {_chain_text(geometry, path, True)}: of each weakly linked "
                f"pair one is true: {eliminations_text(geometry, eliminations)}")

    cells = tuple(sorted({c for m, _d in path for c in bits(m)}))
    return Step("Nice Loop", round(7.0 + length_bonus(len(path) - 2), 1), text,
                eliminations=eliminations, cells=cells,
                digits=tuple(sorted({d + 1 for _m, d in path})), links=_links(path, True))


def _step(board: Board, path: list[Node], placements: tuple, eliminations: tuple,
          rating: float | None = None) -> Step:
    """The step of a chain (``rating``: its :func:`path_rating`, when known); the text is
    formatted when first read."""
    geometry = board.geometry

    def text() -> str:
        first, last = _node_text(geometry, path[0]), _node_text(geometry, path[-1])
        outcome = (f"{first} is true" if placements
                   else eliminations_text(geometry, eliminations))
        return f"{_chain_text(geometry, path, False)}: {first} or {last} is true: {outcome}"

    cells = tuple(sorted({c for m, _d in path for c in bits(m)}))
    if rating is None:
        rating = path_rating(board, path, placements)
    return Step(chain_name(path), rating, text, placements=placements, eliminations=eliminations,
                cells=cells, digits=tuple(sorted({d + 1 for _m, d in path})),
                links=_links(path, False))
