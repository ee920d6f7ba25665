"""The candidates state (pencil marks) of a grid of any size, and a read-only view for techniques.

Candidates are a NumPy bitmask array: ``masks[cell]`` has bit ``d - 1`` set when digit d is still
possible in the cell (``uint64``: every side up to 64 fits). A solved cell keeps only its digit's
bit and has its digit in ``values``. Placing a digit removes it from the cell's peers (the
"basic elimination" every human solver does; Norvig 2006 calls it elimination).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from ..csp.model import values_of
from ..errors import InvalidPuzzle, UnsupportedPuzzle
from ..model.geometry import Geometry
from ..model.puzzle import Puzzle
from ..model.rules import RULE_KINDS
from ..compiled import Kernels, twin, use_compiled
from .rule_filters import rule_contradiction
from .rule_peers import logic_geometry
from .tables import grid_tables

__all__ = ["FEATURES", "Board", "Candidates", "bits", "digits_of"]

FEATURES = frozenset({"diagonal", "main-diagonal", "anti-diagonal", "hyper", "disjoint", "jigsaw",
                      "anti-knight", "anti-king", "killer", "non-consecutive", "extra-region",
                      "even-odd"}) | RULE_KINDS
"""The variant features the technique engine understands: extra units (diagonals, hyper boxes,
disjoint groups, extra regions of N cells), jigsaw regions, must-differ pairs (anti-knight,
anti-king, smaller extra regions) as peers, parity marks as the cells' first candidates, and
every kind of drawn rule (:data:`~sudokit.model.rules.RULE_KINDS`: thermometers, arrows, dots,
lines, outside clues), killer cages as sums and the non-consecutive rule as pair relations
(:mod:`sudokit.logic.techniques.rules`). Overlapping grids have no techniques yet."""


_KERNEL_CELLS = 64 * 64
"""The state's kernels (placing the givens, the cells of each digit) serve every grid."""
_BIT = (np.uint64(0),) + tuple(np.uint64(1 << b) for b in range(64))
"""``_BIT[d]``: the uint64 mask of digit d alone (made once: a NumPy scalar costs more to make
than the operation using it)."""
_CLEAR = (np.uint64(~0 & 0xFFFFFFFFFFFFFFFF),) + tuple(
    np.uint64(~(1 << b) & 0xFFFFFFFFFFFFFFFF) for b in range(64))
"""``_CLEAR[d]``: every bit but digit d's."""

_SMALL = tuple(tuple(values_of(m)) for m in range(1 << 10))


def bits(mask: int) -> Sequence[int]:
    """Return the 0-based positions of the set bits of a mask, ascending (the CSP core's
    :func:`~sudokit.csp.model.values_of`; masks below 1024, such as a 9x9 cell's candidates,
    from a table of tuples)."""
    return _SMALL[mask] if mask < 1024 else values_of(mask)


def digits_of(mask: int) -> list[int]:
    """Return the digits (1-based) of a candidate mask, ascending."""
    return [b + 1 for b in bits(mask)]


class Candidates:
    """Mutable pencil marks and placed digits of one grid.

    Attributes:
        geometry: the grid.
        masks: uint64[N*N]; bit d-1 set when digit d is a candidate of the cell.
        values: int16[N*N]; the placed digit, 0 when the cell is open.
    """

    def __init__(self, geometry: Geometry, masks: np.ndarray, values: np.ndarray) -> None:
        self.geometry = geometry
        self.masks = masks
        self.values = values
        self.history: dict = {}
        """What techniques keep across the snapshots of this state (one solve), keyed by their
        owner (see :class:`~sudokit.logic.memo.DigitMemo`); a copy starts empty."""
        self._peers = _peer_arrays(geometry)
        self._common = _common_memo(geometry)

    @classmethod
    @twin(Kernels.LOGIC, "sudokit.logic._state_kernel:place_givens",
          "sudokit.logic.state:Candidates.place", "puzzles")
    def from_puzzle(cls, puzzle: Puzzle) -> Candidates:
        """Return the state of a puzzle: givens placed, their digits removed from their peers.

        A puzzle whose givens clash (a digit twice in a unit) yields a state with a contradiction
        (see :meth:`contradiction`), never an exception.

        Raises:
            UnsupportedPuzzle: the puzzle has a variant feature outside :data:`FEATURES`.
        """
        geometry = puzzle.geometry
        if not geometry.features <= FEATURES:
            raise UnsupportedPuzzle(
                f"the technique engine does not handle "
                f"{', '.join(sorted(geometry.features - FEATURES))} ({geometry.shape_name}); "
                "use a solving method such as the default")
        if geometry.constraints:
            geometry = logic_geometry(_marks_apart(geometry))  # rules' cells apart are peers
        full = (1 << geometry.side) - 1
        state = cls(geometry, np.full(geometry.n_cells, full, dtype=np.uint64),
                    np.zeros(geometry.n_cells, dtype=np.int16))
        if use_compiled(Kernels.LOGIC, geometry.n_cells, _KERNEL_CELLS):
            from ._state_kernel import place_givens  # loads Numba: not at import time

            place_givens(state.masks, state.values, np.asarray(puzzle.givens, dtype=np.int16),
                         grid_tables(geometry).peers)  # each given as place() puts it
        else:
            for cell, digit in enumerate(puzzle.givens):
                if digit:
                    state.place(cell, digit)
        if geometry.parity is not None:  # an even (odd) cell starts with the even (odd) digits
            odd = sum(1 << d for d in range(0, geometry.side, 2))  # bits of 1, 3, 5 ...
            for cell, mark in enumerate(geometry.parity):
                if mark != "." and not state.values[cell]:
                    state.masks[cell] &= np.uint64(odd if mark == "o" else full & ~odd)
        for rule in puzzle.constraints:  # given candidates (pencil marks, Sukaku): the start
            if rule.name == "given candidates" and not state.values[rule.cells[0]]:
                state.masks[rule.cells[0]] &= np.uint64(sum(
                    1 << (d - 1) for d in range(1, geometry.side + 1) if rule.holds((d,))))
        return state

    @classmethod
    def from_pencil_marks(cls, puzzle: Puzzle, marks: Sequence[Sequence[int] | None]) -> Candidates:
        """Return the state of a partly solved grid with the user's pencil marks.

        Args:
            puzzle: the grid as filled so far (givens and the user's placements).
            marks: per cell, its pencil marks (digits 1..N), or None/empty to compute them; a
                filled cell's marks are ignored.

        Raises:
            InvalidPuzzle: ``marks`` does not have N*N entries or names a digit outside 1..N.
        """
        geometry = puzzle.geometry
        if len(marks) != geometry.n_cells:
            raise InvalidPuzzle(f"expected pencil marks for {geometry.n_cells} cells, "
                                f"got {len(marks)}")
        state = cls.from_puzzle(puzzle)
        for cell, cell_marks in enumerate(marks):
            if state.values[cell] or not cell_marks:
                continue
            mask = 0
            for digit in cell_marks:
                if not 1 <= digit <= geometry.side:
                    raise InvalidPuzzle(f"{geometry.label(cell)}: pencil mark {digit} is not "
                                        f"a digit 1..{geometry.side}")
                mask |= 1 << (digit - 1)
            state.masks[cell] = np.uint64(int(state.masks[cell]) & mask)
        return state

    def copy(self) -> Candidates:
        """Return an independent copy."""
        return Candidates(self.geometry, self.masks.copy(), self.values.copy())

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` in ``cell`` and remove it from the cell's peers (modifies the state)."""
        self.values[cell] = digit
        masks = self.masks
        masks[cell] = _BIT[digit]
        peers = self._peers[cell]
        if peers.size:
            masks[peers] &= _CLEAR[digit]

    def eliminate(self, cell: int, digit: int) -> None:
        """Remove ``digit`` from the candidates of ``cell`` (modifies the state)."""
        self.masks[cell] &= _CLEAR[digit]

    def has(self, cell: int, digit: int) -> bool:
        """Whether ``digit`` is a candidate (or the placed digit) of ``cell``."""
        return bool((int(self.masks[cell]) >> (digit - 1)) & 1)

    @property
    def solved(self) -> bool:
        """Whether every cell holds a digit."""
        return np.count_nonzero(self.values) == self.values.shape[0]

    def contradiction(self) -> str | None:
        """Return why the state is impossible, or None.

        Impossible: an open cell without candidates, a digit with no place left in a unit, a
        digit placed twice in a unit, or a drawn rule that no filling of the candidates keeps.
        """
        geometry = self.geometry
        masks = self.masks.tolist()
        for cell, mask in enumerate(masks):
            if mask == 0:
                return f"{geometry.label(cell)} has no candidate left"
        full = (1 << geometry.side) - 1
        values = self.values.tolist()
        for unit, name in zip(geometry.units, geometry.unit_names):
            seen = 0
            union = 0
            for cell in unit:
                union |= masks[cell]
                digit = values[cell]
                if digit:
                    bit = 1 << (digit - 1)
                    if seen & bit:
                        return f"{geometry.symbol(digit)} is placed twice in {name}"
                    seen |= bit
            if union != full:
                missing = digits_of(full & ~union)[0]
                return f"{missing} has no place left in {name}"
        return rule_contradiction(geometry, masks)  # a drawn rule no filling keeps

    def grid(self) -> tuple[int, ...]:
        """The placed digits, N*N ints (0 open)."""
        return tuple(self.values.tolist())

    def pencil_marks(self) -> list[list[int]]:
        """Per cell, its candidates as digits (a solved cell: its digit)."""
        return [digits_of(m) for m in self.masks.tolist()]

    def board(self) -> Board:
        """Return a read-only snapshot for the techniques."""
        return Board(self.geometry, None, None, self.masks.copy(), self.history,
                     self.values.copy(), self._common)


class Board:
    """A snapshot of a :class:`Candidates` state that techniques read (never modify).

    Made from Python lists (``masks``, ``values``) or from NumPy arrays (``array``,
    ``value_array``, as :meth:`Candidates.board` does); the other form is made when first read,
    so a step found by compiled code (:mod:`sudokit.logic.ladder`) needs no Python lists.

    Attributes:
        geometry: the grid.
        masks: list of N*N candidate masks (Python ints; a solved cell's mask is its digit bit).
        values: list of N*N placed digits (0 open).
        array: uint64[N*N], the masks; value_array: int16[N*N], the values.
        common: the geometry's memo of common peers (see :meth:`common_peers`; looked up
            when not given).
        memo: tables derived from this snapshot, shared by techniques (a snapshot never
            changes, so they stay valid).
        history: what techniques keep across the snapshots of one solve (the state's
            :attr:`Candidates.history`; a fresh dict for a board made alone).

    Raises:
        ValueError: neither ``masks`` nor ``array`` (or neither ``values`` nor
            ``value_array``) is given.
    """

    def __init__(self, geometry: Geometry, masks: list[int] | None, values: list[int] | None,
                 array: np.ndarray | None = None, history: dict | None = None,
                 value_array: np.ndarray | None = None,
                 common: dict[int, int] | None = None) -> None:
        if (masks is None and array is None) or (values is None and value_array is None):
            raise ValueError("a Board needs the masks and the values, as lists or arrays")
        self.geometry = geometry
        if masks is not None:
            self.masks = masks
        if values is not None:
            self.values = values
        self._array = array
        self._value_array = value_array
        self._common = _common_memo(geometry) if common is None else common
        self._places: np.ndarray | None = None
        self.history = {} if history is None else history
        self.memo: dict = {}
        """Tables derived from this snapshot that several techniques share (chain link graphs,
        almost locked sets), keyed by the deriving module."""

    @cached_property
    def masks(self) -> list[int]:  # type: ignore[override]
        assert self._array is not None  # given when the masks are not
        return self._array.tolist()

    @cached_property
    def values(self) -> list[int]:  # type: ignore[override]
        assert self._value_array is not None  # given when the values are not
        return self._value_array.tolist()

    @property
    def array(self) -> np.ndarray:
        """uint64[N*N]: the candidate masks."""
        if self._array is None:
            self._array = np.asarray(self.masks, dtype=np.uint64)
        return self._array

    @property
    def value_array(self) -> np.ndarray:
        """int16[N*N]: the placed digits (0 open)."""
        if self._value_array is None:
            self._value_array = np.asarray(self.values, dtype=np.int16)
        return self._value_array

    def set_places(self, places: np.ndarray) -> None:
        """Give the board its :attr:`places` as computed elsewhere (uint64[U, N], the same
        table; the compiled ladder computes it anyway)."""
        self._places = places

    @property
    def side(self) -> int:
        return self.geometry.side

    def label(self, cell: int) -> str:
        return self.geometry.label(cell)

    @cached_property
    def open_cells(self) -> list[int]:
        """Cells without a placed digit."""
        return [c for c, v in enumerate(self.values) if not v]

    @cached_property
    def places(self) -> list[list[int]]:
        """``places[u][d-1]``: bitmask over the positions (index in the unit) of unit ``u`` where
        digit d is still an open candidate (placed digits excluded). Computed with NumPy."""
        if self._places is not None:
            return self._places.tolist()
        geometry = self.geometry
        n = geometry.side
        units = _unit_array(geometry)
        open_masks = np.where(self.value_array == 0, self.array, np.uint64(0))
        member = open_masks[units]  # (U, N) uint64
        shifts = np.arange(n, dtype=np.uint64)
        digit_bits = (member[:, :, None] >> shifts[None, None, :]) & np.uint64(1)  # (U, N pos, N d)
        weights = np.left_shift(np.uint64(1), shifts)[None, :, None]
        packed = np.bitwise_or.reduce(digit_bits * weights, axis=1)  # (U, N digits)
        return packed.tolist()

    @cached_property
    @twin(Kernels.LOGIC, "sudokit.logic._state_kernel:digit_cells",
          "sudokit.logic.state:Board.cells_of", "boards")
    def cells_of(self) -> list[int]:
        """``cells_of[d-1]``: bitmask over all cells (bit = cell index) where d is an open
        candidate. Computed in compiled code (:func:`~sudokit.logic._state_kernel.digit_cells`)
        as one little-endian byte string, cut into the digits' Python ints."""
        n, width = self.side, (self.geometry.n_cells + 7) // 8
        if not use_compiled(Kernels.LOGIC, self.geometry.n_cells, _KERNEL_CELLS):
            open_masks = [0 if v else int(m) for m, v in zip(self.masks, self.values)]
            return [sum(1 << c for c, m in enumerate(open_masks) if m >> d & 1)
                    for d in range(n)]
        from ._state_kernel import digit_cells  # loads Numba: not at import time

        packed = np.empty((n, width), dtype=np.uint8)
        digit_cells(self.array, self.value_array, packed)
        whole = int.from_bytes(packed.tobytes(), "little")
        size = 8 * width
        every = (1 << size) - 1
        return [whole >> (d * size) & every for d in range(n)]

    @cached_property
    def peer_masks(self) -> list[int]:
        """Per cell, a bitmask over cells of its peers."""
        return _peer_masks(self.geometry)

    @cached_property
    def unit_masks(self) -> list[int]:
        """Per unit, a bitmask over cells of its members."""
        return _unit_masks(self.geometry)

    def sees(self, a: int, b: int) -> bool:
        """Whether cells a and b are peers."""
        return bool((self.peer_masks[a] >> b) & 1)

    def common_peers(self, cells_mask: int) -> int:
        """Bitmask of the cells that are peers of every cell in ``cells_mask`` (memoised per
        grid geometry, shared by every board of that geometry; at most 2**16 entries)."""
        if not cells_mask & (cells_mask - 1):
            return self.peer_masks[cells_mask.bit_length() - 1] if cells_mask else 0
        memo = self._common
        result = memo.get(cells_mask)
        if result is None:
            result = -1
            for cell in bits(cells_mask):
                result &= self.peer_masks[cell]
            result = result if result != -1 else 0
            if len(memo) < 1 << 16:
                memo[cells_mask] = result
        return result


_CACHE: dict[Geometry, tuple[np.ndarray, list[int], list[int]]] = {}
_PEERS: dict[Geometry, list[np.ndarray]] = {}
_COMMON: dict[Geometry, dict[int, int]] = {}


def _marks_apart(geometry: Geometry) -> Geometry:
    """The geometry without its ``given candidates`` rules (pencil marks, Sukaku): a one-cell
    rule is its cell's starting candidates, which :meth:`Candidates.from_puzzle` sets, so the
    techniques of a classic grid explain it."""
    kept = [r for r in geometry.constraints if r.name != "given candidates"]
    if len(kept) == len(geometry.constraints):
        return geometry
    return Geometry.of(geometry.box_rows, geometry.box_cols, geometry.variant,
                       regions=geometry.regions, cages=geometry.cages, parity=geometry.parity,
                       layout=geometry.layout, extra_regions=geometry.extra_regions,
                       constraints=kept)


def _common_memo(geometry: Geometry) -> dict[int, int]:
    memo = _COMMON.get(geometry)
    if memo is None:
        memo = _COMMON[geometry] = {}
    return memo


def _tables(geometry: Geometry) -> tuple[np.ndarray, list[int], list[int]]:
    table = _CACHE.get(geometry)
    if table is None:
        units = np.asarray(geometry.units, dtype=np.intp).reshape(len(geometry.units),
                                                                   geometry.side)
        peers = [sum(1 << p for p in ps) for ps in geometry.peers]
        unit_masks = [sum(1 << c for c in unit) for unit in geometry.units]
        table = _CACHE[geometry] = (units, peers, unit_masks)
    return table


def _peer_arrays(geometry: Geometry) -> list[np.ndarray]:
    """Per cell, its peers as an intp array (made once per geometry)."""
    arrays = _PEERS.get(geometry)
    if arrays is None:
        arrays = _PEERS[geometry] = [np.asarray(p, dtype=np.intp) for p in geometry.peers]
    return arrays


def _unit_array(geometry: Geometry) -> np.ndarray:
    return _tables(geometry)[0]


def _peer_masks(geometry: Geometry) -> list[int]:
    return _tables(geometry)[1]


def _unit_masks(geometry: Geometry) -> list[int]:
    return _tables(geometry)[2]
