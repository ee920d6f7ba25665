"""Links of alternating inference chains on candidates, and the breadth-first chain search on
Python sets (the reference the compiled walks of :mod:`sudokit.logic.chains._walk_kernel` repeat).

A node is a digit in a set of cells: one cell, or a group of cells of one box on one line. A
*strong* link (not both false) joins the two places of a digit in a unit (either may be a group)
and the two candidates of a bivalue cell; a *weak* link (not both true) joins a node to every
node of the same digit that sees all its cells, and the digits of one cell. A chain that starts
with "A is false" and, alternating strong and weak links, ends with "Z is true" proves A or Z:
every candidate weakly linked to both is eliminated (and if Z is A, A is placed)
(:func:`conclusion`). Searched breadth first from every node, so each start gives its shortest
chains.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import TypeVar

from ...model.geometry import Geometry
from ..memo import DigitMemo
from ..state import Board, bits
from ..units import intersections, unit_cells

__all__ = ["GROUPED", "SINGLE_DIGIT", "ChainMode", "LinkGraph", "Node", "conclusion",
           "group_masks", "loop_eliminations", "python_searches", "search_chain", "search_loop",
           "search_single_digit", "strong_links", "walk", "weak_links"]


Node = tuple[int, int]
"""``(cells bitmask, digit - 1)``."""

_R = TypeVar("_R")
"""What a :func:`walk`'s ``accept`` returns when it takes a node."""


class ChainMode(Enum):
    """Which links a chain search may use."""

    X = "x"  # one digit: strong links between places in units, no groups
    X_GROUPED = "x-grouped"  # one digit, grouped nodes too
    XY = "xy"  # bivalue cells as strong links, same digit between cells as weak links
    AIC = "aic"  # every link between single candidates (Sudoku Explainer's static chains)
    GROUPED = "grouped"  # every link, grouped nodes (box-line groups) too


GROUPED = frozenset({ChainMode.X_GROUPED, ChainMode.GROUPED})


SINGLE_DIGIT = frozenset({ChainMode.X, ChainMode.X_GROUPED})


@dataclass
class LinkGraph:
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


def group_masks(board: Board) -> list[list[int]]:
    geometry = board.geometry
    boxes = {i.cells for i in intersections(geometry) if i.first >= 2 * geometry.side}
    out = []
    for d0 in range(geometry.side):
        cells = board.cells_of[d0]
        out.append(sorted({cells & m for m in boxes if (cells & m).bit_count() >= 2}))
    return out


def _in_group_shape(graph: LinkGraph, cells: int) -> bool:
    row_part, col_part = graph.box_lines[(cells & -cells).bit_length() - 1]
    return not cells & ~row_part or not cells & ~col_part


def strong_links(graph: LinkGraph, node: Node) -> list[Node]:
    board, mode = graph.board, graph.mode
    cells, d0 = node
    out: list[Node] = []
    if mode is not ChainMode.XY:
        places = board.cells_of[d0]
        masks = graph.unit_masks
        grouped = mode in GROUPED
        for u in graph.units_of[(cells & -cells).bit_length() - 1]:
            mask = masks[u]
            if cells & mask != cells:
                continue
            rest = places & mask & ~cells
            if rest and (not rest & (rest - 1) or (grouped and _in_group_shape(graph, rest))):
                out.append((rest, d0))
    if mode not in SINGLE_DIGIT and not cells & (cells - 1):
        cell = cells.bit_length() - 1
        m = board.masks[cell]
        if m.bit_count() == 2:
            out.append((cells, (m & ~(1 << d0)).bit_length() - 1))
    return out


def weak_links(graph: LinkGraph, node: Node) -> list[Node]:
    board, mode = graph.board, graph.mode
    cells, d0 = node
    seen = board.common_peers(cells) & board.cells_of[d0] & ~cells
    out: list[Node] = [(1 << c, d0) for c in bits(seen)]
    out += [(g, d0) for g in graph.groups[d0] if g & ~seen == 0]
    if mode in (ChainMode.AIC, ChainMode.GROUPED) and not cells & (cells - 1):
        cell = cells.bit_length() - 1
        out += [(cells, b) for b in bits(board.masks[cell]) if b != d0]
    return out


def conclusion(board: Board, a: Node, z: Node) -> tuple[tuple[tuple[int, int], ...],
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


def walk(graph: LinkGraph, start: Node, max_nodes: int,
         accept: Callable[[Node, int, Callable[[], list[Node]]], _R | None]) -> _R | None:
    """Breadth-first walk of alternating links from "start is false" (strong, weak, strong ...),
    one level at a time, each node and polarity once. Each node reached true at chain length
    ``length`` is offered to ``accept(node, length, path)`` (``path()`` returns the chain from
    start to the node last offered); the first result that is not None is returned, else
    None."""
    strong_memo, weak_memo = graph.strong, graph.weak
    first = strong_memo.get(start)
    if first is None:
        first = strong_memo[start] = strong_links(graph, start)
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
                    links = strong_memo[node] = strong_links(graph, node)
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
                    links = weak_memo[node] = weak_links(graph, node)
                for nxt in links:
                    if nxt in parent_off:
                        continue
                    parent_off[nxt] = node
                    grown.append(nxt)
        frontier = grown
        length += 1
    return None


def search_chain(graph: LinkGraph, start: Node, max_nodes: int
                 ) -> tuple[list[Node], tuple, tuple] | None:
    """Shortest chain from "start is false" to a useful "z is true", or None.

    Breadth first, one level at a time (:func:`walk`); a node reached true is tested against
    the start (the cells seeing the start's places of its digit are computed once, so most
    tests are one AND).
    """
    board = graph.board
    ma, da = start
    seen_a = board.cells_of[da] & board.common_peers(ma) & ~ma
    single_a = not ma & (ma - 1)
    common_peers = board.common_peers

    def accept(nxt: Node, _length: int, path: Callable[[], list[Node]]
               ) -> tuple[list[Node], tuple, tuple] | None:
        mz, dz = nxt
        if dz == da:
            if nxt != start and not seen_a & common_peers(mz) & ~mz:
                return None  # same digit, nothing sees both ends
        elif not single_a:
            return None
        placements, eliminations = conclusion(board, start, nxt)
        if placements or eliminations:
            return path(), placements, eliminations
        return None

    return walk(graph, start, max_nodes, accept)


_SEARCHED = DigitMemo()
"""Single-digit chain searches done before: per (digit, its places, mode, start), what
:func:`search_chain` found and the bound it searched with."""


def search_single_digit(graph: LinkGraph, start: Node, max_nodes: int
                         ) -> tuple[list[Node], tuple, tuple] | None:
    """:func:`search_chain` for the single-digit modes, through :data:`_SEARCHED`: such a search
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
    found = search_chain(graph, start, max_nodes)
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


def search_loop(graph: LinkGraph, start: Node, max_nodes: int
                 ) -> tuple[list[Node], tuple[tuple[int, int], ...]] | None:
    """Shortest continuous nice loop through ``start`` (at least four nodes) that eliminates
    something, or None (breadth first, as :func:`search_chain`)."""
    board = graph.board

    def accept(nxt: Node, length: int, path: Callable[[], list[Node]]
               ) -> tuple[list[Node], tuple[tuple[int, int], ...]] | None:
        if length >= 3 and _closes(board, nxt, start):
            loop = path()
            eliminations = loop_eliminations(board, loop)
            if eliminations:
                return loop, eliminations
        return None

    return walk(graph, start, max_nodes, accept)


def python_searches(graph: LinkGraph, starts: list[Node], bound: Callable[[], int]
                    ) -> Iterator[tuple[list[Node], tuple, tuple]]:
    """Yield the chain found from each start in turn (:func:`search_chain`, each bounded by
    ``bound()`` nodes)."""
    search = search_single_digit if graph.mode in SINGLE_DIGIT else search_chain
    for start in starts:
        found = search(graph, start, bound())
        if found is not None:
            yield found
