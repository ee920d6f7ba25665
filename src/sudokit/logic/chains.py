"""Alternating inference chains on candidates, with grouped nodes (Eppstein; Sudopedia "AIC").

A node is a digit in a set of cells: one cell, or a group of cells of one box on one line. A
*strong* link (not both false) joins the two places of a digit in a unit (either may be a group)
and the two candidates of a bivalue cell; a *weak* link (not both true) joins a node to every
node of the same digit that sees all its cells, and the digits of one cell. A chain that starts
with "A is false" and, alternating strong and weak links, ends with "Z is true" proves A or Z:
every candidate weakly linked to both is eliminated (and if Z is A, A is placed).

Searched breadth first from every node, so each start gives its shortest chains; the rating is
Sudoku Explainer's base for the chain kind plus its length bonus (:func:`~sudokit.logic.step.
length_bonus`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

import numpy as np

from ..model.geometry import Geometry
from .memo import DigitMemo
from .state import Board, bits
from .step import Link, LinkKind, Step, candidate_text, eliminations_text, length_bonus
from .tables import grid_tables, per_geometry
from .units import intersections, unit_cells

__all__ = ["ChainMode", "Node", "find_chain"]

Node = tuple[int, int]
"""``(cells bitmask, digit - 1)``."""


class ChainMode(Enum):
    """Which links a chain search may use."""

    X = "x"  # one digit: strong links between places in units, no groups
    X_GROUPED = "x-grouped"  # one digit, grouped nodes too
    XY = "xy"  # bivalue cells as strong links, same digit between cells as weak links
    AIC = "aic"  # every link between single candidates (Sudoku Explainer's static chains)
    GROUPED = "grouped"  # every link, grouped nodes (box-line groups) too


_GROUPED = frozenset({ChainMode.X_GROUPED, ChainMode.GROUPED})
_SINGLE_DIGIT = frozenset({ChainMode.X, ChainMode.X_GROUPED})


@dataclass
class _Graph:
    board: Board
    mode: ChainMode
    groups: list[list[int]]  # per digit: group bitmasks (two or more cells)
    strong: dict[Node, list[Node]] = field(default_factory=dict)  # memo of _strong
    weak: dict[Node, list[Node]] = field(default_factory=dict)  # memo of _weak
    # the grid's tables, looked up once (hashing a Geometry per link costs)
    unit_masks: tuple[int, ...] = ()
    units_of: tuple[tuple[int, ...], ...] = ()
    box_lines: tuple[tuple[int, int], ...] = ()
    searched: dict | None = None  # single-digit modes: the table of _SEARCHED for the grid

    def __post_init__(self) -> None:
        geometry = self.board.geometry
        self.unit_masks = unit_cells(geometry)
        self.units_of = geometry.units_of
        self.box_lines = _box_lines(geometry)


@cache
def _box_lines(geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """Per cell, the bitmasks of (its box and its row, its box and its column)."""
    n = geometry.side
    rows, cols, boxes = unit_cells(geometry)[:n], unit_cells(geometry)[n:2 * n], \
        unit_cells(geometry)[2 * n:3 * n]
    return tuple((boxes[geometry.box_of(c)] & rows[c // n], boxes[geometry.box_of(c)] & cols[c % n])
                 for c in range(geometry.n_cells))


def _groups(board: Board) -> list[list[int]]:
    geometry = board.geometry
    boxes = {i.cells for i in intersections(geometry) if i.first >= 2 * geometry.side}
    out = []
    for d0 in range(geometry.side):
        cells = board.cells_of[d0]
        out.append(sorted({cells & m for m in boxes if (cells & m).bit_count() >= 2}))
    return out


def _in_group_shape(graph: _Graph, cells: int) -> bool:
    row_part, col_part = graph.box_lines[(cells & -cells).bit_length() - 1]
    return not cells & ~row_part or not cells & ~col_part


def _strong_links(graph: _Graph, node: Node) -> list[Node]:
    board, mode = graph.board, graph.mode
    cells, d0 = node
    out: list[Node] = []
    if mode is not ChainMode.XY:
        places = board.cells_of[d0]
        masks = graph.unit_masks
        grouped = mode in _GROUPED
        for u in graph.units_of[(cells & -cells).bit_length() - 1]:
            mask = masks[u]
            if cells & mask != cells:
                continue
            rest = places & mask & ~cells
            if rest and (not rest & (rest - 1) or (grouped and _in_group_shape(graph, rest))):
                out.append((rest, d0))
    if mode not in _SINGLE_DIGIT and not cells & (cells - 1):
        cell = cells.bit_length() - 1
        m = board.masks[cell]
        if m.bit_count() == 2:
            out.append((cells, (m & ~(1 << d0)).bit_length() - 1))
    return out


def _weak_links(graph: _Graph, node: Node) -> list[Node]:
    board, mode = graph.board, graph.mode
    cells, d0 = node
    seen = board.common_peers(cells) & board.cells_of[d0] & ~cells
    out: list[Node] = [(1 << c, d0) for c in bits(seen)]
    out += [(g, d0) for g in graph.groups[d0] if g & ~seen == 0]
    if mode in (ChainMode.AIC, ChainMode.GROUPED) and not cells & (cells - 1):
        cell = cells.bit_length() - 1
        out += [(cells, b) for b in bits(board.masks[cell]) if b != d0]
    return out


def _conclusion(board: Board, a: Node, z: Node) -> tuple[tuple[tuple[int, int], ...],
                                                        tuple[tuple[int, int], ...]]:
    """Placements and eliminations of "a or z is true"."""
    (ma, da), (mz, dz) = a, z
    if a == z:
        return (((ma.bit_length() - 1, da + 1),) if not ma & (ma - 1) else ()), ()
    if da == dz:
        seen = (board.cells_of[da] & board.common_peers(ma) & board.common_peers(mz)
                & ~ma & ~mz)
        return (), tuple((c, da + 1) for c in bits(seen))
    if ma & (ma - 1) or mz & (mz - 1):
        return (), ()
    ca, cz = ma.bit_length() - 1, mz.bit_length() - 1
    if ca == cz:
        keep = (1 << da) | (1 << dz)
        return (), tuple((ca, b + 1) for b in bits(board.masks[ca] & ~keep))
    if board.sees(ca, cz):
        out = []
        if board.masks[ca] >> dz & 1:
            out.append((ca, dz + 1))
        if board.masks[cz] >> da & 1:
            out.append((cz, da + 1))
        return (), tuple(out)
    return (), ()


def _walk(graph: _Graph, start: Node, max_nodes: int,
          accept: Callable[[Node, int, Callable[[], list[Node]]], Any]) -> Any:
    """Breadth-first walk of alternating links from "start is false" (strong, weak, strong ...),
    one level at a time, each node and polarity once. Each node reached true at chain length
    ``length`` is offered to ``accept(node, length, path)`` (``path()`` returns the chain from
    start to the node last offered); the first result that is not None is returned, else
    None."""
    strong_memo, weak_memo = graph.strong, graph.weak
    first = strong_memo.get(start)
    if first is None:
        first = strong_memo[start] = _strong_links(graph, start)
    if not first:
        return None  # no strong link leaves the start
    # parent of each node reached false (a true node) and reached true (a false node)
    parent_off: dict[Node, Node | None] = {start: None}
    parent_on: dict[Node, Node] = {}
    frontier: list[Node] = [start]
    length = 1
    last: list[Node] = [start]

    def path() -> list[Node]:
        found: list[Node] = [last[0]]
        node: Node | None = parent_on[last[0]]
        on = False
        while node is not None:
            found.append(node)
            node = parent_off[node] if not on else parent_on[node]
            on = not on
        return found[::-1]

    while frontier and length < max_nodes:
        grown: list[Node] = []
        if length % 2:  # strong links: false -> true, offered to accept
            for node in frontier:
                links = strong_memo.get(node)
                if links is None:
                    links = strong_memo[node] = _strong_links(graph, node)
                for nxt in links:
                    if nxt in parent_on:
                        continue
                    parent_on[nxt] = node
                    last[0] = nxt
                    result = accept(nxt, length, path)
                    if result is not None:
                        return result
                    grown.append(nxt)
        else:  # weak links: true -> false
            for node in frontier:
                links = weak_memo.get(node)
                if links is None:
                    links = weak_memo[node] = _weak_links(graph, node)
                for nxt in links:
                    if nxt in parent_off:
                        continue
                    parent_off[nxt] = node
                    grown.append(nxt)
        frontier = grown
        length += 1
    return None


def _search(graph: _Graph, start: Node, max_nodes: int) -> tuple[list[Node], tuple, tuple] | None:
    """Shortest chain from "start is false" to a useful "z is true", or None.

    Breadth first, one level at a time (:func:`_walk`); a node reached true is tested against
    the start (the cells seeing the start's places of its digit are computed once, so most
    tests are one AND).
    """
    board = graph.board
    ma, da = start
    seen_a = board.cells_of[da] & board.common_peers(ma) & ~ma
    single_a = not ma & (ma - 1)
    common_peers = board.common_peers

    def accept(nxt: Node, _length: int, path: Callable[[], list[Node]]) -> Any:
        mz, dz = nxt
        if dz == da:
            if nxt != start and not seen_a & common_peers(mz) & ~mz:
                return None  # same digit, nothing sees both ends
        elif not single_a:
            return None
        placements, eliminations = _conclusion(board, start, nxt)
        if placements or eliminations:
            return path(), placements, eliminations
        return None

    return _walk(graph, start, max_nodes, accept)


_SEARCHED = DigitMemo()
"""Single-digit chain searches done before: per (digit, its places, mode, start), what
:func:`_search` found and the bound it searched with."""


def _search_single_digit(graph: _Graph, start: Node, max_nodes: int
                         ) -> tuple[list[Node], tuple, tuple] | None:
    """:func:`_search` for the single-digit modes, through :data:`_SEARCHED`: such a search
    reads only the places of its digit, and a breadth-first search with a smaller bound finds
    the same chain if it is short enough, else nothing."""
    board, d0 = graph.board, start[1]
    table = graph.searched
    if table is None:
        table = graph.searched = _SEARCHED.table(board)
    key = (d0, board.cells_of[d0], graph.mode, start)
    entry = table.get(key)
    if entry is not None:
        found, searched = entry
        if found is not None:
            return found if len(found[0]) - 1 < max_nodes else None
        if max_nodes <= searched:
            return None
    found = _search(graph, start, max_nodes)
    table[key] = (found, max_nodes)
    return found


def _closes(board: Board, z: Node, start: Node) -> bool:
    """Whether "z is true" weakly links back to "start is true" (same digit, every cell of
    start seen by every cell of z; or the other candidate of the same single cell)."""
    (mz, dz), (ma, da) = z, start
    if dz == da:
        return mz != ma and ma & ~board.common_peers(mz) == 0
    return mz == ma and not ma & (ma - 1)


def loop_eliminations(board: Board, path: list[Node]) -> tuple[tuple[int, int], ...]:
    """Eliminations of a continuous nice loop ``path`` (strong link first, closing weak link from
    the last node back to the first): of each weakly linked pair exactly one is true, so a
    candidate seeing both (same digit) or a third candidate of their cell (same cell) goes."""
    out: set[tuple[int, int]] = set()
    n = len(path)
    for i in range(1, n, 2):
        (mu, du), (mv, dv) = path[i], path[(i + 1) % n]
        if du == dv:
            seen = (board.cells_of[du] & board.common_peers(mu) & board.common_peers(mv)
                    & ~mu & ~mv)
            out.update((c, du + 1) for c in bits(seen))
        elif mu == mv:
            cell = mu.bit_length() - 1
            out.update((cell, b + 1) for b in bits(board.masks[cell] & ~(1 << du) & ~(1 << dv)))
    return tuple(sorted(out))


def _search_loop(graph: _Graph, start: Node, max_nodes: int
                 ) -> tuple[list[Node], tuple[tuple[int, int], ...]] | None:
    """Shortest continuous nice loop through ``start`` (at least four nodes) that eliminates
    something, or None (breadth first, as :func:`_search`)."""
    board = graph.board

    def accept(nxt: Node, length: int, path: Callable[[], list[Node]]) -> Any:
        if length >= 3 and _closes(board, nxt, start):
            loop = path()
            eliminations = loop_eliminations(board, loop)
            if eliminations:
                return loop, eliminations
        return None

    return _walk(graph, start, max_nodes, accept)


SHORT_X = 6
"""Longest X-chain (nodes) rated as a short chain."""

X_NODES = 12
"""Longest single-digit chain searched by :func:`~sudokit.logic.techniques.chains.x_chain`: six
strong links, Sukaku Explainer's largest strong-linked fish. Longer X-chains rate 7.0 and up
and are found with the AICs. The compiled single-digit walks use at least this bound, so the
short X-chains' walks serve X-Chain too (:func:`_best_single_digit`)."""


STRONG_LINKS = {3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6}
"""Sukaku Explainer's base rating of a single-digit chain of k strong links (its "k Strong-linked
Fishes", ``StrongLinksHint``)."""


def chain_rating(name: str, nodes: int, shape: float = 0.0) -> float:
    """Rating of a chain of ``nodes`` nodes on Sudoku Explainer's scale.

    Sudoku Explainer (Juillerat 2006, ``ForcingChainHint.getDifficulty``): a forcing X-chain
    (one digit) is 6.6, a chain with links inside cells too (XY-Chain, AIC) 7.0, each plus the
    length bonus (:func:`~sudokit.logic.step.length_bonus`) of its length, the count of its
    implications less two (for a chain proving an elimination, the nodes between the assumed
    and the refuted candidate: ``nodes`` here).

    Single-digit chains of three to six strong links are rated as Sukaku Explainer rates its
    strong-linked fishes (SudokuMonster 2019, ``StrongLinksHint``): 5.4, 5.8, 6.2, 6.6 for 3-6
    links, plus ``shape``: 0.3 with a grouped node, else 0.1 when the strong links are not all
    in rows or all in columns and 0.2 when they lie in rows, columns and boxes
    (:func:`link_shape`). Two strong links (Skyscraper, 2-String Kite, Turbot Fish) are 5.2 here,
    as the published ratings of the rated set of ``benchmarks/logic.py`` rate them.
    """
    if name in ("X-Chain", "Grouped X-Chain"):
        links = nodes // 2
        if links <= 2:
            return 4.8 + 0.1 * nodes
        if links in STRONG_LINKS:
            return STRONG_LINKS[links] + shape
        return 6.6 + length_bonus(nodes)
    return 7.0 + length_bonus(nodes)


def link_shape(board: Board, path: list[Node]) -> float:
    """Sukaku Explainer's shape bonus of a single-digit chain (see :func:`chain_rating`)."""
    if any(m & (m - 1) for m, _d in path):
        return 0.3
    kinds = set()
    masks = unit_cells(board.geometry)
    n = board.side
    for i in range(0, len(path) - 1, 2):
        (a, d0), (b, _d) = path[i], path[i + 1]
        both = a | b
        for u in board.geometry.units_of[a.bit_length() - 1]:
            if both & ~masks[u] == 0 and board.cells_of[d0] & masks[u] == both:
                kinds.add(min(u // n, 2))  # 0 row, 1 column, 2 box (and extra units)
                break
    lines = kinds & {0, 1}
    if 2 not in kinds and len(lines) == 1:
        return 0.0
    return 0.2 if 2 in kinds and len(lines) == 2 else 0.1


def _rating(board: Board, path: list[Node], placements: tuple) -> float:
    name = _name(path)
    shape = link_shape(board, path) if name.endswith("X-Chain") else 0.0
    return chain_rating(name, _length(path, placements), shape)


def _length(path: list[Node], placements: tuple) -> int:
    """The chain's length as Sudoku Explainer counts it (implications less two): a chain
    proving a placement starts and ends on the placed candidate, which counts once."""
    return len(path) - 2 if placements else len(path)


def _name(path: list[Node]) -> str:
    digits = {d for _m, d in path}
    grouped = any(m & (m - 1) for m, _d in path)
    if len(digits) == 1:
        return "Grouped X-Chain" if grouped else "X-Chain"
    if not grouped and all(path[i][0] == path[i + 1][0] for i in range(0, len(path) - 1, 2)):
        return "XY-Chain"
    return "Grouped AIC" if grouped else "AIC"


def find_chain(board: Board, mode: ChainMode, max_nodes: int = 12) -> Step | None:
    """Return the shortest useful chain of ``mode`` (fewest nodes; most eliminations among
    equals), or None.

    The walks run compiled on grids up to :data:`KERNEL_CELLS` cells (grouped modes: grids of
    rows, columns and boxes only), with the same starts, order and bounds as the Python walk
    (:func:`_search`), so the same chain is found. Single-digit searches
    (:func:`~sudokit.logic.chain_kernels.walk_starts`) reuse, per digit, the walks of earlier
    snapshots of the solve whose places of that digit were the same
    (:func:`_best_single_digit`); the other modes rank their chains and nice loops in the
    kernel (:func:`~sudokit.logic.chain_kernels.rank_starts`, one call per search unless a
    single-digit chain turns up). Only the chosen chain becomes a
    :class:`~sudokit.logic.step.Step` (its text formatted when read).
    """
    grouped = mode in _GROUPED
    compiled = _compiled(board, mode) and max_nodes + 2 <= MAX_COMPILED_NODES
    if compiled and mode in _SINGLE_DIGIT:
        found = _best_single_digit(board, mode, max_nodes)
        return None if found is None else _step(board, *found[2:], rating=found[1][0])
    best: tuple | None = None

    def bound() -> int:
        return best[0] if best else max_nodes

    graph = None
    walker = _Walker.of(board, mode) if compiled else None
    if walker is not None:
        starts: Any = walker.starts(mode)
        ranked = walker.best(starts, False, max_nodes)
        if ranked is not None:
            key, path = ranked
            best = (len(path), key, path, *_conclusion(board, path[0], path[-1]))
        found_iter: Any = ()
    else:
        graph = board.memo.get(("chains", mode))
        if graph is None:  # shared by the searches of one mode on this snapshot
            graph = board.memo["chains", mode] = _Graph(
                board, mode, _groups(board) if grouped else [[] for _ in range(board.side)])
        starts = [(1 << c, b) for c in board.open_cells for b in bits(board.masks[c])]
        if grouped:
            starts += [(g, d0) for d0, gs in enumerate(graph.groups) for g in gs]
        if mode is ChainMode.XY:
            starts = [s for s in starts if board.masks[s[0].bit_length() - 1].bit_count() == 2]
        found_iter = _python_searches(graph, starts, bound)
    for path, placements, eliminations in found_iter:
        rating = _rating(board, path, placements)
        key = (rating, len(path) + 2, -len(placements), -len(eliminations))
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


_FOUND = DigitMemo()
"""Single-digit chain searches of the compiled walk done earlier in the solve: per (digit, its
places, mode), the bound walked with and every chain found from a start of that digit, as a
list ``[order of the start (_start_order), nodes, the kernel's path, details]``, the details
(rank key, path, placements, eliminations) made when a replay first needs them and kept. Such
a search reads only the places of its digit."""


def _chain_key(board: Board, path: list[Node], placements: tuple, eliminations: tuple) -> tuple:
    """How :func:`find_chain` ranks a chain (lowest first): rating, nodes, then most placements
    and eliminations."""
    return (_rating(board, path, placements), len(path) + 2, -len(placements), -len(eliminations))


def _start_order(kit: _Kit, node: int) -> tuple[int, ...]:
    """The order of :meth:`_Walker.starts` as a sort key of a start node: single candidates
    (cells ascending, then digits), then grouped nodes (digits ascending, then by cells)."""
    n = kit.n
    shape = node // n
    if shape < kit.n_cells:
        return (0, node)
    return (1, node % n, kit.rank[shape])


def _best_single_digit(board: Board, mode: ChainMode, max_nodes: int) -> tuple | None:
    """The best single-digit chain of ``mode`` (compiled walk), as :func:`find_chain` picks it:
    ``(nodes, key, path, placements, eliminations)`` or None.

    The breadth-first walk from a start finds its shortest chain whatever the bound, and returns
    it when it is short enough (fewer than ``bound + 1`` nodes). So each digit's starts are
    walked once per places with the bound ``max_nodes`` or :data:`X_NODES` if larger (kept in
    :data:`_FOUND`, and used for any bound up to it), and the search over all starts, each
    bounded by the best chain found before it, is replayed on those results in the order of
    the starts: the same chain is picked.
    """
    n = board.side
    table = _FOUND.table(board)
    places = _arrays(board)[3]
    found: list[tuple] = []
    missing: list[int] = []
    name = mode.value
    for d0 in range(n):
        entry = table.get((d0, places[d0], name))
        if entry is None or entry[0] < max_nodes:
            missing.append(d0)
        else:
            found += entry[1]
    kit = _kit(board.geometry, mode in _GROUPED)
    if missing:
        walked = max(max_nodes, X_NODES)  # the short X-chains' walk serves X-Chain too
        new: dict[int, list[list]] = {d0: [] for d0 in missing}
        for nodes in _digit_walks(board, mode, sum(1 << d0 for d0 in missing), walked):
            new[nodes[0] % n].append([_start_order(kit, nodes[0]), len(nodes), nodes, None])
        for d0, chains_found in new.items():
            table[d0, places[d0], name] = (walked, tuple(chains_found))
            found += chains_found
    if not found:
        return None
    if len(found) > 1:
        found.sort(key=lambda f: f[0])
    best: tuple | None = None
    masks = kit.shape_masks
    for entry in found:
        length = entry[1]
        if length - 1 >= (best[0] if best else max_nodes):
            continue  # the walk bounded by the best chain so far stops before it
        details = entry[3]
        if details is None:  # ranked the first time a replay reaches it
            path = [(masks[v // n], v % n) for v in entry[2]]
            placements, eliminations = _conclusion(board, path[0], path[-1])
            details = entry[3] = (_chain_key(board, path, placements, eliminations), path,
                                  placements, eliminations)
        if best is None or details[0] < best[1]:
            best = (length, *details)
    return best


def _digit_walks(board: Board, mode: ChainMode, digits: int, bound: int) -> Iterator[list[int]]:
    """The compiled walks of a single-digit ``mode`` from every start of the digits in the mask
    ``digits`` (the order of :meth:`_Walker.starts`), each bounded by ``bound`` nodes: yield
    the path (the kernel's node numbers, ``shape * N + d``) of the chain found from each start
    that finds one. The starts and grouped nodes are made in the kernel
    (:func:`~sudokit.logic.chain_kernels.digit_starts`), the walks run in as few calls as the
    output room allows."""
    from .chain_kernels import board_arrays, board_places, digit_starts, walk_starts

    grouped = mode in _GROUPED
    kit = _kit(board.geometry, grouped)
    arrays = board_arrays(board)
    key = _WALKER_KEYS[mode]
    owner = board.memo.get(key)  # the link caches of the work arrays belong to it
    if owner is None:
        owner = board.memo[key] = object()
    groups, group_buffer, starts = kit.digit_buffers()
    sh = kit.shapes
    k = digit_starts(arrays.cand, digits, sh.part_cells, sh.part_shape, sh.rank, kit.n, groups,
                     group_buffer, starts)
    scratch = kit.scratch(owner)
    out_paths, out_lengths = scratch[-2:]
    place_bits, unit_places = board_places(board, kit.tables.units)
    args = (kit.n, kit.n_cells, arrays.masks, place_bits, unit_places, *kit.grid_args, groups,
            True, False, False, grouped)
    nodes = starts[:k]
    first = 0
    while first < k:
        first, count = walk_starts(nodes, first, bound, False, True, *args, *scratch)
        for i in range(count):
            yield out_paths[i, :out_lengths[i]].tolist()


KERNEL_CELLS = 256
"""Largest grid (cells) whose chains are searched by the compiled walk (sides up to 16)."""

MAX_COMPILED_NODES = 64
"""Longest chain (nodes, nice loops included) the compiled walk returns."""


def _compiled(board: Board, mode: ChainMode) -> bool:
    """Whether the compiled walk handles ``mode`` on this grid."""
    geometry = board.geometry
    if geometry.n_cells > KERNEL_CELLS:
        return False
    return mode not in _GROUPED or (not geometry.features
                                    and len(geometry.units) == 3 * geometry.side)


def _python_searches(graph: _Graph, starts: list[Node], bound: Callable[[], int]) -> Any:
    """Yield the chain found from each start in turn (:func:`_search`, each bounded by
    ``bound()`` nodes)."""
    search = _search_single_digit if graph.mode in _SINGLE_DIGIT else _search
    for start in starts:
        found = search(graph, start, bound())
        if found is not None:
            yield found


class _Kit:
    """What the walks of one grid share (:func:`_kit`, once per geometry and grouping): its
    tables, the node shapes' cell bitmasks, the kernel arguments that do not depend on the
    board, and per thread the walk's work arrays."""

    def __init__(self, geometry: Geometry, grouped: bool) -> None:
        from .chain_kernels import shape_tables

        t = self.tables = grid_tables(geometry)
        sh = self.shapes = shape_tables(geometry, grouped)
        n = self.n = geometry.side
        self.n_cells = geometry.n_cells
        self.size = len(sh.cells) * n
        self.group_width = max(len(sh.part_cells), 1) if grouped else 1
        self.no_groups = np.full((n, 1), -1, dtype=np.int32)
        self.no_nodes = np.empty(0, dtype=np.int64)
        self.shape_masks = _shape_masks(geometry, grouped)
        self.rank = sh.rank.tolist()
        self.grid_args = (t.sees, sh.seen_bits, sh.shape_bits, sh.cells, sh.member, sh.common,
                          sh.unit_pos, t.units, t.units_of, sh.part, sh.position, sh.part_shape)
        self.local = threading.local()

    def digit_buffers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """This thread's ``groups``, ``nodes`` and ``starts`` arrays of
        :func:`~sudokit.logic.chain_kernels.digit_starts` (refilled by each call)."""
        buffers = getattr(self.local, "digit", None)
        if buffers is None:
            sh = self.shapes
            buffers = self.local.digit = (
                np.full((self.n, self.group_width), -1, dtype=np.int32),
                np.empty(max(len(sh.part_cells), 1) * self.n, dtype=np.int64),
                np.empty(self.size, dtype=np.int64))
        return buffers

    def marks(self) -> tuple[np.ndarray, np.ndarray]:
        """This thread's ``mark`` (uint8[C * N], zeros) and ``marked`` (int64[C * N]) arrays
        of :func:`~sudokit.logic.chain_kernels.rank_starts`."""
        marks = getattr(self.local, "marks", None)
        if marks is None:
            size = self.n_cells * self.n
            marks = self.local.marks = (np.zeros(size, dtype=np.uint8),
                                        np.empty(size, dtype=np.int64))
        return marks

    def scratch(self, owner: object) -> tuple[np.ndarray, ...]:
        """This thread's work arrays of the walk (shared by the walkers of one thread: the
        kernel restores ``parent_*``; the link caches are emptied when another walker than
        ``owner`` used them last)."""
        entry = getattr(self.local, "entry", None)
        if entry is None:
            t, n, size = self.tables, self.n, self.size
            entry = self.local.entry = [None, (
                np.full(size, -2, dtype=np.int32), np.full(size, -2, dtype=np.int32),
                *(np.empty(size, dtype=np.int64) for _ in range(3)),  # frontier, grown, links
                np.empty(2 * size, dtype=np.int64), np.empty(size, dtype=np.int64),  # seen, path
                np.empty((size, t.units_of.shape[1] + 1), dtype=np.int32),
                np.full(size, -1, dtype=np.int32),
                np.empty((size, t.peers.shape[1] + self.group_width + n), dtype=np.int32),
                np.full(size, -1, dtype=np.int32),
                np.empty((64, MAX_COMPILED_NODES), dtype=np.int64),
                np.empty(64, dtype=np.int64))]
        if entry[0] is not owner:
            entry[1][8].fill(-1)
            entry[1][10].fill(-1)
            entry[0] = owner
        return entry[1]


_kit: Callable[[Geometry, bool], _Kit] = per_geometry(_Kit)
"""The :class:`_Kit` of ``(geometry, grouped)`` (made once)."""


_WALKER_KEYS = {mode: "chains-walker-" + mode.value for mode in ChainMode}


class _Walker:
    """The arrays of one board for :func:`~sudokit.logic.chain_kernels.rank_starts` (the modes
    with links inside cells; the single-digit modes walk through :func:`_digit_walks`)."""

    def __init__(self, board: Board, mode: ChainMode) -> None:
        from .chain_kernels import board_arrays, board_places

        geometry = board.geometry
        grouped = mode in _GROUPED
        kit = self.kit = _kit(geometry, grouped)
        self.board = board
        self.tables, self.shapes, n = kit.tables, kit.shapes, kit.n
        self.n = n
        arrays = board_arrays(board)
        self.masks, self.open, self.cand = arrays.masks, arrays.open, arrays.cand
        self.size = kit.size
        self.groups, self.group_nodes = kit.no_groups, kit.no_nodes
        if grouped:
            from .chain_kernels import group_nodes

            sh = kit.shapes
            self.groups = np.full((n, kit.group_width), -1, dtype=np.int32)
            nodes = np.empty(len(sh.part_cells) * n, dtype=np.int64)
            k = group_nodes(self.cand, sh.part_cells, sh.part_shape, sh.rank, n, self.groups,
                            nodes)
            self.group_nodes = nodes[:k]
        self.shape_masks = kit.shape_masks
        self.flags = (mode is not ChainMode.XY, mode not in _SINGLE_DIGIT,
                      mode in (ChainMode.AIC, ChainMode.GROUPED), grouped)
        # the kernel's arguments between the bound's flags and the work arrays
        place_bits, unit_places = board_places(board, kit.tables.units)
        self.args = (n, kit.n_cells, self.masks, place_bits, unit_places, *kit.grid_args,
                     self.groups, *self.flags)

    @classmethod
    def of(cls, board: Board, mode: ChainMode) -> _Walker:
        """The walker of ``board`` and ``mode`` (made once per snapshot)."""
        key = _WALKER_KEYS[mode]
        walker = board.memo.get(key)
        if walker is None:
            walker = board.memo[key] = cls(board, mode)
        return walker

    def _scratch(self) -> tuple[np.ndarray, ...]:
        """The walk's work arrays (:meth:`_Kit.scratch`)."""
        return self.kit.scratch(self)

    def starts(self, mode: ChainMode) -> np.ndarray:
        """The start nodes (int64) in the order of the Python search: every candidate (cells
        ascending, then digits; only bivalue cells for XY-chains), then the grouped nodes."""
        cand = self.cand
        if mode is ChainMode.XY:
            cand = cand & (cand.sum(axis=1) == 2)[:, None]
        nodes = np.flatnonzero(cand.ravel())
        if self.group_nodes.size:
            nodes = np.concatenate([nodes, self.group_nodes])
        return nodes

    def best(self, starts: np.ndarray, loop: bool, max_nodes: int,
             bound: float = float("inf")) -> tuple[tuple, list[Node]] | None:
        """The best chain (``loop`` False) or nice loop (True) from ``starts``, ranked in the
        kernel (:func:`~sudokit.logic.chain_kernels.rank_starts`) as :func:`find_chain` and
        :func:`_best_loop` rank them, for the modes with links inside cells: ``(key, path)``
        or None. Single-digit chains come back to Python to be rated (:func:`_chain_key`)."""
        from .chain_kernels import rank_starts

        nodes = np.ascontiguousarray(starts, dtype=np.int64)
        scratch = self._scratch()
        out_paths, out_lengths = scratch[-2:]
        mark, marked = self.kit.marks()
        best = np.zeros(6, dtype=np.float64)
        best_path = np.empty(MAX_COMPILED_NODES, dtype=np.int64)
        ratings = _chain_ratings()
        masks, n = self.shape_masks, self.n
        first = 0
        while first < len(nodes):
            first, count = rank_starts(nodes, first, max_nodes, loop, bound, ratings, best,
                                       best_path, *self.args, *scratch, mark, marked)
            if count:  # a single-digit chain, rated here
                found = out_paths[0, :out_lengths[0]]
                path = [(masks[v // n], v % n) for v in found.tolist()]
                placements, eliminations = _conclusion(self.board, path[0], path[-1])
                key = _chain_key(self.board, path, placements, eliminations)
                if not best[0] or key < _best_key(best):
                    best[:] = (1, *key, len(path))
                    best_path[:len(path)] = found
        if not best[0]:
            return None
        return _best_key(best), [(masks[v // n], v % n)
                                 for v in best_path[:int(best[5])].tolist()]


def _best_key(best: np.ndarray) -> tuple[float, int, int, int]:
    """The key held in a :func:`~sudokit.logic.chain_kernels.rank_starts` ``best`` array."""
    rating, nodes, placements, eliminations = best[1:5].tolist()
    return rating, int(nodes), int(placements), int(eliminations)


@cache
def _chain_ratings() -> np.ndarray:
    """float64[L]: the rating of a chain over several digits of length L (:func:`chain_rating`:
    7.0 plus the length bonus), for the compiled ranking."""
    return np.asarray([7.0 + length_bonus(k) for k in range(MAX_COMPILED_NODES + 1)],
                      dtype=np.float64)


def _arrays(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[bytes]]:
    """The board's masks, open cells, candidates and packed places per digit (the key of
    :data:`_EMPTY`), from :func:`~sudokit.logic.chain_kernels.board_arrays`."""
    from .chain_kernels import board_arrays

    a = board_arrays(board)
    return a.masks, a.open, a.cand, a.places


@cache
def _shape_masks(geometry: Geometry, grouped: bool) -> tuple[int, ...]:
    """Per node shape of :func:`~sudokit.logic.chain_kernels.shape_tables`, its cells
    bitmask."""
    from .chain_kernels import shape_tables

    return tuple(sum(1 << int(x) for x in row if x >= 0)
                 for row in shape_tables(geometry, grouped).cells)


def _best_loop(board: Board, graph: _Graph | None, starts: Any, bound: float | None,
               max_nodes: int, walker: _Walker | None = None
               ) -> tuple[tuple, list[Node], tuple] | None:
    """The lowest rated nice loop with links inside cells (Sudoku Explainer's "Bidirectional
    Cycle", 7.0 + the length bonus of its nodes less two), if it rates below ``bound``."""
    if bound is not None and bound <= 7.0:
        return None
    if bound is not None:  # longer loops rate bound or more (the length bonus never falls)
        while max_nodes > 1 and not 7.0 + length_bonus(max_nodes - 2) < bound:
            max_nodes -= 1
    if walker is not None:  # ranked in the kernel, same walks and keys
        ranked = walker.best(starts, True, max_nodes, float("inf") if bound is None else bound)
        if ranked is None:
            return None
        key, path = ranked
        return key, path, loop_eliminations(board, path)
    best: tuple | None = None
    for start in starts:
        found = _search_loop(graph, start, best[0][1] if best else max_nodes)
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
    """The step of a chain (``rating``: its :func:`_rating`, when known); the text is
    formatted when first read."""
    geometry = board.geometry

    def text() -> str:
        first, last = _node_text(geometry, path[0]), _node_text(geometry, path[-1])
        outcome = (f"{first} is true" if placements
                   else eliminations_text(geometry, eliminations))
        return f"{_chain_text(geometry, path, False)}: {first} or {last} is true: {outcome}"

    cells = tuple(sorted({c for m, _d in path for c in bits(m)}))
    return Step(_name(path), _rating(board, path, placements) if rating is None else rating,
                text, placements=placements, eliminations=eliminations, cells=cells,
                digits=tuple(sorted({d + 1 for _m, d in path})), links=_links(path, False))
