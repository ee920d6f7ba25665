"""Otto Janko's puzzle files: a ``ROWS COLS`` header, then rows of space-separated tokens.

The form of the files of janko.at as published in SmilingWayne/PuzzleSolver (``assets/Sudoku``,
MIT licence; see ``tests/data/SOURCES.md``):

* line 1: ``ROWS COLS``, the canvas size (``9 9``, ``21 21``, ``21 45`` ...);
* then ROWS rows of COLS tokens: a digit is a given, ``-`` (or ``.``) an empty cell or a cell
  no grid covers, ``E`` / ``O`` an empty cell that holds an even / odd digit (even-odd);
* a single N x N grid may be followed by N more rows of ids (any tokens):

  - **jigsaw**: N ids of N cells each; the regions replace the boxes, and the first grid holds
    the givens;
  - **killer**: one id per cage; the first grid holds, in one cell of each cage, the cage's sum
    (and no givens).

What a file does not say is its type, so the reader decides by this rule:

1. The layout: the one the variant names (``--variant samurai``, a ``# variant: samurai`` line,
   or a folder named ``SamuraiSudoku`` around the file; see :func:`spec_of_path`). Without a
   name, a square ``N N`` canvas with a second grid of ids, or with a given above 9, is one
   N x N grid; otherwise the canvas names the layout when exactly one layout is drawn on it
   (12x12 butterfly, 33x33 sumo, 21x33 gattai-8, 21x45 shogun), and when cells outside every
   grid are marked ``.`` the layouts whose uncovered cells they are; a canvas of several
   layouts (21x21: samurai, windmill, sohei; 27x27: clueless-1, clueless-2) must be named.
   A square canvas of no layout is one N x N grid (usual box shape).
2. The second grid: ``killer`` or ``jigsaw`` in the name decides; without them it is jigsaw
   regions when it holds exactly N ids of N cells each and the first grid has no number above
   N, killer cages otherwise.
3. ``E`` / ``O`` marks make the puzzle even-odd.

Errors name the file, line and column of the token at fault: a token that is no digit, id or
mark, a row of the wrong length, a region that is not N cells, a cage without exactly one sum
or with a sum its cells cannot reach, a given where no grid is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ..errors import InvalidPuzzle
from ..model.constraints import Cage, cage_totals
from ..model.geometry import Geometry, box_shape_for_side
from ..model.integers import integer, shown_token
from ..model.layouts import LAYOUTS, Layout, layouts_for_canvas
from ..model.puzzle import Puzzle
from ..model.variants import VariantSpec, parse_spec, spec_of_folder

__all__ = [
    "Row",
    "format_janko",
    "format_janko_puzzle",
    "is_janko_header",
    "janko_puzzle",
    "needs_second_grid",
    "read_janko",
    "spec_of_path",
]

Row = tuple[int, Sequence[tuple[str, int]]]
"""One input row: its 1-based line number and its ``(token, 1-based column)`` pairs."""

_EMPTY = ("-", ".")
_MARKS = {"e": "e", "o": "o"}


def is_janko_header(tokens: Sequence[tuple[str, int]]) -> tuple[int, int] | None:
    """``(rows, cols)`` when the tokens are a Janko header (two integers, each 4..200), else
    None."""
    if len(tokens) != 2:
        return None
    rows, cols = (integer(t, signed=False) for t, _ in tokens)
    return (rows, cols) if rows and cols and 4 <= rows <= 200 and 4 <= cols <= 200 else None


def spec_of_path(path: str | Path) -> VariantSpec | None:
    """The variant named by the folder around a file (its folder or the one above, e.g.
    ``SamuraiSudoku/problems/2_21x21.txt``), or None (see
    :func:`~sudokit.model.variants.spec_of_folder`)."""
    for folder in list(Path(path).parents)[:2]:
        spec = spec_of_folder(folder.name)
        if spec is not None:
            return spec
    return None


def needs_second_grid(canvas: tuple[int, int], spec: VariantSpec) -> bool:
    """Whether a Janko file of this canvas may hold a second grid of ids (one N x N grid)."""
    return spec.layout is None and canvas[0] == canvas[1]


def _located(exc: InvalidPuzzle, source: str, row: Row, index: int | None = None
             ) -> InvalidPuzzle:
    column = row[1][index][1] if index is not None and index < len(row[1]) else None
    return exc.located(source=source, line=row[0], column=column)


def _error(text: str, source: str, row: Row, index: int | None = None) -> InvalidPuzzle:
    return _located(InvalidPuzzle(text), source, row, index)


def _layout(canvas: tuple[int, int], rows: Sequence[Row], second: bool, spec: VariantSpec,
            source: str, header: Row) -> Layout | None:
    """The layout by the rule of the module docstring (None: one N x N grid)."""
    r, c = canvas
    if spec.layout is not None:
        layout = LAYOUTS[spec.layout]
        if (layout.rows, layout.cols) != canvas:
            raise _error(f"a {spec.layout} puzzle is drawn on a {layout.rows}x{layout.cols} "
                         f"canvas, the header says {r}x{c}", source, header, 0)
        return layout
    candidates = layouts_for_canvas(r, c)
    big = any(_number(t) > 9 for _, tokens in rows for t, _ in tokens)
    if r == c and (second or big or not candidates or spec.kinds & {"jigsaw", "killer"}):
        return None
    if len(candidates) > 1:
        dots = {(i, j) for i, (_, tokens) in enumerate(rows) for j, (t, _) in
                enumerate(tokens) if t == "."}
        fits = [n for n in candidates if dots and dots == _uncovered(LAYOUTS[n])]
        candidates = tuple(fits) or candidates
    if len(candidates) == 1:
        return LAYOUTS[candidates[0]]
    names = " or ".join(candidates) or "no named layout"
    raise _error(f"a {r}x{c} canvas is {names}: name the layout with --variant NAME or a "
                 f"'# variant: NAME' line", source, header, 0)


def _number(token: str) -> int:
    """A token's value if it is a whole number (of at most 18 digits), else 0."""
    return integer(token, signed=False) or 0


def _uncovered(layout: Layout) -> set[tuple[int, int]]:
    geometry = Geometry.of(3, 3, layout=layout)
    covered = {geometry.position(cell) for cell in range(geometry.n_cells)}
    return {(i, j) for i in range(layout.rows) for j in range(layout.cols)} - covered


def janko_puzzle(header: Row, rows: Sequence[Row], spec: VariantSpec, source: str) -> Puzzle:
    """Build the puzzle of a Janko file from its header row and the rows after it.

    Args:
        header: the ``ROWS COLS`` row.
        rows: ROWS rows of COLS tokens, then (one N x N grid only) possibly N rows of ids.
        spec: the variant named for the file (layout and type; see the module docstring).
        source: the file name errors give.

    Returns:
        The puzzle; its geometry has the layout, regions, cages and parity the file holds, and
        the whole-grid rules of ``spec``.

    Raises:
        InvalidPuzzle: the file breaks the form (the error names source, line and column).
    """
    canvas = is_janko_header(header[1])
    assert canvas is not None
    r, c = canvas
    for number, tokens in rows:
        if len(tokens) != c:
            last = tokens[-1] if tokens else ("", 1)
            column = tokens[c][1] if len(tokens) > c else last[1] + len(last[0])
            raise InvalidPuzzle(f"expected {c} tokens per row (header: {r} {c}), found "
                                f"{len(tokens)}", source=source, line=number, column=column)
    if len(rows) not in (r, 2 * r):
        raise _error(f"expected {r} rows after the header {r} {c} (or {2 * r} with a grid of "
                     f"ids), found {len(rows)}", source, header, 0)
    first, ids = rows[:r], rows[r:]
    layout = _layout(canvas, first, bool(ids), spec, source, header)
    if layout is None and r != c:
        raise _error(f"a {r}x{c} canvas is no named layout and no N x N grid", source, header, 0)
    if layout is not None and ids:
        raise _error("a second grid of ids belongs to one N x N grid, not to a layout",
                     source, ids[0], 0)
    side = 9 if layout is not None else r
    try:
        box = (3, 3) if layout is not None else box_shape_for_side(side)
        shape = Geometry.of(*box, layout=layout)
    except InvalidPuzzle as exc:
        raise _located(exc, source, header, 0) from None
    cells = _cells(shape, first, source)
    killer = bool(ids) and _is_killer(ids, cells, side, spec)
    digits, parity, sums = _tokens(cells, side, source, killer)
    regions, cages = None, list[Cage]()
    if ids and killer:
        cages = _cages(shape, ids, sums, source)
    elif ids:
        regions = _regions(shape, ids, source)
    missing = spec.kinds - {k for k, present in (("jigsaw", regions is not None),
                                                 ("killer", bool(cages)),
                                                 ("even-odd", parity is not None)) if present}
    if missing:
        raise _error(f"the variant names {', '.join(sorted(missing))}, but the file holds no "
                     f"{' or '.join(_WHAT[k] for k in sorted(missing))}", source, header, 0)
    try:
        geometry = Geometry.of(*box, spec.rules, regions=regions, cages=cages, parity=parity,
                               layout=layout)
        return Puzzle(geometry, tuple(digits), source, header[0])
    except InvalidPuzzle as exc:
        raise _located(exc, source, header, 0) from None


_WHAT = {"jigsaw": "grid of region ids", "killer": "grid of cage ids",
         "even-odd": "E / O marks"}


def _cells(shape: Geometry, rows: Sequence[Row], source: str
           ) -> list[tuple[str, Row, int]]:
    """``(token, row, index)`` of each cell of the geometry (canvas row-major order); a digit
    where no grid is raises."""
    out = []
    for i, row in enumerate(rows):
        for j, (token, _) in enumerate(row[1]):
            if shape.cell_at(i, j) is not None:
                out.append((token, row, j))
            elif token not in _EMPTY:
                raise _error(f"expected '-' or '.' where no grid is, found {token!r}",
                             source, row, j)
    return out


def _is_killer(ids: Sequence[Row], cells: Sequence[tuple[str, Row, int]], side: int,
               spec: VariantSpec) -> bool:
    if "killer" in spec.kinds or "jigsaw" in spec.kinds:
        return "killer" in spec.kinds
    sizes: dict[str, int] = {}
    for _, tokens in ids:
        for token, _ in tokens:
            sizes[token] = sizes.get(token, 0) + 1
    big = any(_number(t) > side for t, _, _ in cells)
    return big or len(sizes) != side or any(n != side for n in sizes.values())


def _tokens(cells: Sequence[tuple[str, Row, int]], side: int, source: str, killer: bool
            ) -> tuple[list[int], str | None, dict[int, tuple[int, Row, int]]]:
    """Givens, parity string (None without marks) and, for killer, the sum of each cell that
    holds one (with its row and token index)."""
    digits, marks, sums = [], [], {}
    for cell, (token, row, index) in enumerate(cells):
        low = token.lower()
        if token in _EMPTY or low in _MARKS:
            digits.append(0)
            marks.append(_MARKS.get(low, "."))
        elif (value := integer(token, signed=False)) is not None and killer:
            digits.append(0)
            marks.append(".")
            sums[cell] = (value, row, index)
        elif value is not None and 1 <= value <= side:
            digits.append(value)
            marks.append(".")
        else:
            what = "a cage sum, " if killer else f"a digit 1..{side}, "
            raise _error(f"expected {what}'-' (empty) or E / O (even / odd), "
                         f"found {shown_token(token)}", source, row, index)
    parity = "".join(marks) if set(marks) - {"."} else None
    return digits, parity, sums


def _groups(shape: Geometry, ids: Sequence[Row]) -> dict[str, list[tuple[int, Row, int]]]:
    """Cells of each id in the second grid, in order of first appearance."""
    groups: dict[str, list[tuple[int, Row, int]]] = {}
    for i, row in enumerate(ids):
        for j, (token, _) in enumerate(row[1]):
            cell = shape.cell_at(i, j)
            assert cell is not None
            groups.setdefault(token, []).append((cell, row, j))
    return groups


def _regions(shape: Geometry, ids: Sequence[Row], source: str) -> list[list[int]]:
    side = shape.side
    groups = _groups(shape, ids)
    for token, members in groups.items():
        if len(members) != side:
            _, row, j = members[0]
            raise _error(f"region {token!r} has {len(members)} cells, expected {side}",
                         source, row, j)
    if len(groups) != side:
        raise _error(f"expected {side} regions, found {len(groups)}", source, ids[0], 0)
    return [[cell for cell, _, _ in members] for members in groups.values()]


def _cages(shape: Geometry, ids: Sequence[Row], sums: dict[int, tuple[int, Row, int]],
           source: str) -> list[Cage]:
    side, cages = shape.side, []
    for token, members in _groups(shape, ids).items():
        written = [(cell, row, j) for cell, row, j in members if cell in sums]
        if len(written) != 1:
            _, row, j = (written[1] if written else members[0])
            found = "no sum" if not written else f"{len(written)} sums"
            raise _error(f"cage {token!r} ({len(members)} cells): expected one sum in one of "
                         f"its cells, found {found}", source, row, j)
        total, row, j = sums[written[0][0]]
        low, high = cage_totals(len(members), side)
        if len(members) > side or not low <= total <= high:
            expected = (f"{low}..{high}" if len(members) <= side
                        else f"at most {side} cells")
            raise _error(f"cage {token!r} of {len(members)} cells: sum {total} is "
                         f"impossible, expected {expected}", source, row, j)
        cages.append(Cage(total, tuple(m[0] for m in members)))
    return cages


_TOKEN = re.compile(r"\S+")
_DIRECTIVE = re.compile(r"\s*#\s*variant\s*:(.*)", re.IGNORECASE)


def read_janko(path: str | Path, variant: str | VariantSpec | None = None) -> Puzzle:
    """Read one Janko file (the file alone; :func:`sudokit.formats.read_puzzles` reads these
    files among every other form).

    Args:
        path: the file.
        variant: its variant name (``"samurai"``); None: a ``# variant:`` line in the file,
            else the folder's name (:func:`spec_of_path`), else what the file shows.

    Raises:
        InvalidPuzzle: the file is no valid Janko puzzle (with line and column).
        OSError: the file cannot be read.

    >>> read_janko("tests/data/janko/SamuraiSudoku/problems/2_21x21.txt").geometry.shape_name
    '21x21 canvas, 5 grids of 9x9'
    """
    source = str(path)
    spec = parse_spec(variant) if variant is not None else spec_of_path(path) or VariantSpec()
    rows: list[Row] = []
    with open(path, encoding="utf-8-sig") as fh:
        for number, text in enumerate(fh, 1):
            directive = _DIRECTIVE.match(text)
            if directive and variant is None:
                spec = parse_spec(directive[1])
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            rows.append((number, tuple((m.group(), m.start() + 1)
                                       for m in _TOKEN.finditer(text))))
    if not rows or is_janko_header(rows[0][1]) is None:
        raise InvalidPuzzle("expected a header line 'ROWS COLS'", source=source,
                            line=rows[0][0] if rows else 1, column=1)
    return janko_puzzle(rows[0], rows[1:], spec, source)


def format_janko(grid: Sequence[int], geometry: Geometry, empty: str = "-") -> str:
    """Write a grid (a solution) in Janko's form: the ``ROWS COLS`` header, then the canvas
    rows, ``empty`` (the input's: ``-`` or ``.``) for empty cells and cells no grid covers (no
    final newline).

    >>> print(format_janko((1, 2, 2, 1), Geometry.of(1, 2)))
    2 2
    1 2
    2 1
    """
    return _canvas([str(d) if d else empty for d in grid], geometry, empty)


def format_janko_puzzle(puzzle: Puzzle) -> str:
    """Write a puzzle in Janko's form (what :func:`janko_puzzle` reads back): givens and
    ``E`` / ``O`` marks, then for jigsaw the region ids (``1``..``N``) and for killer the sums
    in each cage's first cell and the cage ids (``1``, ``2`` ...); no final newline.

    Raises:
        ValueError: a form Janko files cannot hold: killer with givens or with cells in no
            cage, jigsaw and killer together, a layout with regions or cages, or extra
            regions (f-puzzles).
    """
    g = puzzle.geometry
    if g.extra_regions:
        raise ValueError("Janko's form holds no extra regions (write f-puzzles data)")
    if g.cages and (any(puzzle.givens) or -1 in g.cage_of or g.regions is not None):
        raise ValueError("Janko's killer form holds every cell in a cage, no givens and no "
                         "regions")
    if g.layout is not None and (g.cages or g.regions is not None):
        raise ValueError("Janko's form holds no regions or cages on a layout")
    tokens = [str(d) if d else {"e": "E", "o": "O"}.get(g.parity_of(cell), "-")
              for cell, d in enumerate(puzzle.givens)]
    for cage in g.cages:
        tokens[cage.cells[0]] = str(cage.total)
    text = _canvas(tokens, g)
    if g.regions is not None or g.cages:
        groups = g.regions if g.regions is not None else [c.cells for c in g.cages]
        owner = [""] * g.n_cells
        for k, cells in enumerate(groups, 1):
            for cell in cells:
                owner[cell] = str(k)
        text += "\n" + _canvas(owner, g).split("\n", 1)[1]
    return text


def _canvas(tokens: Sequence[str], geometry: Geometry, empty: str = "-") -> str:
    """The header and canvas rows of one token per cell (``empty`` where no grid is)."""
    rows, cols = geometry.canvas
    canvas = [[empty] * cols for _ in range(rows)]
    for cell, token in enumerate(tokens):
        r, c = geometry.position(cell)
        canvas[r][c] = token
    return "\n".join([f"{rows} {cols}", *(" ".join(row) for row in canvas)])
