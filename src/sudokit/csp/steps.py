"""The single strategies one pass at a time, as the Udacity "AIND-Sudoku" notebook runs them
(after Norvig 2006): the state is every cell's candidates, and each step returns a new one.

* :func:`eliminate` (naked single): each decided cell removes its digit from its peers;
* :func:`only_choice` (hidden single): a digit with one place left in a unit goes there;
* :func:`naked_twins` (naked pair): two cells of a unit with the same two candidates remove them
  from the rest of the unit;
* :func:`reduce_puzzle`: all of them to a fixpoint.

A state is a :class:`Domains` or the notebook's dict ``"A1" -> "123456789"``; every step
returns a new state of the kind given (a dict keeps its keys, and strings stay strings), or None
on a contradiction (a cell left without a candidate). The same rules run to a fixpoint on bit
sets with an undo trail in :mod:`sudokit.csp.propagation`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Concatenate, ParamSpec, Protocol, TypeVar, overload

from ..model.geometry import Geometry
from ..model.puzzle import Grid, Puzzle

__all__ = ["Domains", "eliminate", "naked_twins", "only_choice", "reduce_puzzle"]

_K = TypeVar("_K", bound=int | str)
"""The cells of a dict state: ints, or labels ``r1c1`` / ``A1``."""
_Digits = Iterable[int] | str | int
"""A cell's digits in a dict state: ints, a string ``"123"`` (as in the notebook) or one int."""


@dataclass(frozen=True)
class Domains:
    """The domain (candidates) of every cell of a grid: the state the single strategies work
    on (the notebook's ``values``; named apart from :class:`sudokit.logic.state.Candidates`,
    the logic engine's bitmask board).

    Attributes:
        geometry: the grid (units and peers).
        cells: N**2 tuples of digits, increasing, row-major; one digit means decided.
    """

    geometry: Geometry
    cells: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, puzzle: Puzzle) -> Domains:
        """The notebook's starting state: each given alone, every digit in the empty cells (the
        digits their parity allows on an even/odd grid)."""
        g = puzzle.geometry
        return cls(g, tuple((d,) if d else g.allowed(c) for c, d in enumerate(puzzle.givens)))

    @classmethod
    def from_dict(cls, values: Mapping[_K, _Digits], geometry: Geometry) -> Domains:
        """Build from ``cell -> digits``: cells as ints or labels (``r1c1``, Norvig's ``A1``),
        digits as an int, ints, or a string (``"123"``, as in the notebook; up to 9x9). Missing
        cells get every digit.

        Raises:
            ValueError: an unknown cell label or a digit outside 1..N.
        """
        labels = _label_index(geometry)
        cells = [tuple(range(1, geometry.side + 1))] * geometry.n_cells
        for key, digits in values.items():
            cell = key if isinstance(key, int) else labels.get(key)
            if cell is None or not 0 <= cell < geometry.n_cells:
                raise ValueError(f"unknown cell {key!r}")
            found = tuple(sorted({int(d) for d in
                                  ((digits,) if isinstance(digits, int) else digits)}))
            if any(not 1 <= d <= geometry.side for d in found):
                raise ValueError(f"cell {key!r}: digits must be 1..{geometry.side}")
            cells[cell] = found
        return cls(geometry, tuple(cells))

    def as_dict(self) -> dict[str, str]:
        """``label -> digits`` as a string, as the notebook prints it (``{"r1c1": "4"}``)."""
        return {self.geometry.label(c): "".join(map(str, ds)) for c, ds in enumerate(self.cells)}

    def grid(self) -> Grid:
        """The decided digits, 0 elsewhere."""
        return tuple(ds[0] if len(ds) == 1 else 0 for ds in self.cells)


def _changed(state: Domains, cells: list[set[int]]) -> Domains | None:
    if not all(cells):
        return None
    return Domains(state.geometry, tuple(tuple(sorted(ds)) for ds in cells))


_P = ParamSpec("_P")


class _Step(Protocol[_P]):
    """A step on either form of state: Domains in, Domains out; a dict in, a dict out (None:
    a cell has no digit left); its own arguments after the state."""

    @overload
    def __call__(self, state: Domains, *args: _P.args, **kwargs: _P.kwargs
                 ) -> Domains | None: ...
    @overload
    def __call__(self, state: Mapping[_K, str], *args: _P.args, **kwargs: _P.kwargs
                 ) -> dict[_K, str] | None: ...
    @overload
    def __call__(self, state: Mapping[_K, Iterable[int] | int], *args: _P.args,
                 **kwargs: _P.kwargs) -> dict[_K, tuple[int, ...]] | None: ...


def _dict_step(step: Callable[Concatenate[Domains, _P], Domains | None]) -> _Step[_P]:
    """Let a step take and give back a dict ``cell -> digits`` (the notebook's ``values``):
    keys kept (ints, ``r1c1`` or ``A1`` labels), digits as strings when they came as strings.
    The grid is inferred from the number of cells (81: 9x9)."""

    @overload
    def run(state: Domains, *args: _P.args, **kwargs: _P.kwargs) -> Domains | None: ...
    @overload
    def run(state: Mapping[_K, str], *args: _P.args, **kwargs: _P.kwargs
            ) -> dict[_K, str] | None: ...
    @overload
    def run(state: Mapping[_K, Iterable[int] | int], *args: _P.args, **kwargs: _P.kwargs
            ) -> dict[_K, tuple[int, ...]] | None: ...
    def run(state: Domains | Mapping[_K, _Digits], *args: _P.args, **kwargs: _P.kwargs
            ) -> Domains | dict[_K, str] | dict[_K, tuple[int, ...]] | None:
        if isinstance(state, Domains):
            return step(state, *args, **kwargs)
        geometry = Geometry.for_cells(len(state))
        keys = list(state)
        cells = Domains.from_dict(state, geometry)
        done = step(cells, *args, **kwargs)
        if done is None:
            return None
        labels = _label_index(geometry)
        index = {k: k if isinstance(k, int) else labels[k] for k in keys}
        if all(isinstance(v, str) for v in state.values()):
            return {k: "".join(map(str, done.cells[index[k]])) for k in keys}
        return {k: done.cells[index[k]] for k in keys}

    functools.update_wrapper(run, step)  # name, docstring (as functools.wraps)
    return run


def _label_index(geometry: Geometry) -> dict[str, int]:
    """Cell labels -> cells: ``r1c1`` for every size, and Norvig's ``A1`` up to 9x9."""
    labels = {geometry.label(c): c for c in range(geometry.n_cells)}
    if geometry.side <= 9:
        labels.update({f"{chr(65 + c // geometry.side)}{c % geometry.side + 1}": c
                       for c in range(geometry.n_cells)})
    return labels


@_dict_step
def eliminate(state: Domains) -> Domains | None:
    """One pass of elimination: each cell decided now removes its digit from its peers.

    Cells decided by this pass act in the next pass (as in the notebook).

    Returns:
        The new state, or None when a cell is left without a candidate.
    """
    cells = [set(ds) for ds in state.cells]
    peers = state.geometry.peers
    for cell, digits in enumerate(state.cells):
        if len(digits) == 1:
            for peer in peers[cell]:
                cells[peer].discard(digits[0])
    return _changed(state, cells)


@_dict_step
def only_choice(state: Domains) -> Domains | None:
    """One pass of only choice (hidden single): a digit with one place in a unit goes there.

    Returns:
        The new state, or None when a digit has no place left in a unit.
    """
    cells = [set(ds) for ds in state.cells]
    for unit in state.geometry.units:
        for digit in range(1, state.geometry.side + 1):
            places = [c for c in unit if digit in state.cells[c]]
            if not places:
                return None
            if len(places) == 1:
                cells[places[0]] = {digit}
    return _changed(state, cells)


@_dict_step
def naked_twins(state: Domains) -> Domains | None:
    """One pass of naked twins: two cells of a unit with the same two candidates remove them
    from the unit's other cells.

    Returns:
        The new state, or None when a cell is left without a candidate.
    """
    cells = [set(ds) for ds in state.cells]
    for unit in state.geometry.units:
        seen: dict[tuple[int, ...], int] = {}
        for cell in unit:
            pair = state.cells[cell]
            if len(pair) != 2:
                continue
            if pair in seen:
                for other in unit:
                    if other not in (cell, seen[pair]):
                        cells[other] -= set(pair)
            seen[pair] = cell
    return _changed(state, cells)


@_dict_step
def reduce_puzzle(state: Domains, twins: bool = True) -> Domains | None:
    """Apply elimination, only choice (and naked twins) until nothing changes.

    Returns:
        The fixpoint, or None on a contradiction.

    >>> from sudokit.model.puzzle import Puzzle
    >>> start = Domains.of(Puzzle.from_digits([1, 2, 3, 0, 3, 4, 0, 2] + [0] * 8))
    >>> reduce_puzzle(start).grid()[:8]
    (1, 2, 3, 4, 3, 4, 1, 2)
    """
    current: Domains | None = state
    while current is not None:
        before = current
        current = eliminate(current)
        current = current and only_choice(current)
        if twins:
            current = current and naked_twins(current)
        if current == before:
            return current
    return None
