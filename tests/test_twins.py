"""Every compiled kernel beside its Python twin (sudokit.compiled.twin): each declared pair run
both ways on shared boards, grids and byte rows, with equal results; and the architecture
map's "kept twice on purpose" table lists exactly the declared pairs."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from functools import cache, cached_property
from typing import Any

import numpy as np
import pytest

import sudokit
from sudokit.compiled import Kernels, Twin, forced, twins
from sudokit.formats.text import read_puzzles
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import Puzzle
from tests.helpers import DATA, EXAMPLES, ROOT, load


@cache
def declared() -> tuple[Twin, ...]:
    """The twins of every module of the package (each imported: nothing is compiled)."""
    skip = ("sudokit.serve", "sudokit.run.warm", "sudokit.__main__")
    for info in pkgutil.walk_packages(sudokit.__path__, "sudokit."):
        if not info.name.startswith(skip):
            importlib.import_module(info.name)
    return tuple(twins())


def _resolve(name: str) -> Any:
    module, _, path = name.partition(":")
    obj: Any = importlib.import_module(module)
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj.func if isinstance(obj, cached_property) else obj


def _plain(value: Any) -> Any:
    """A comparable form: arrays as lists, steps by every field and their text, named tuples
    and sequences item by item, states by their candidates and digits."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind, value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if type(value).__name__ == "Step":
        return repr(value), str(value)
    if hasattr(value, "masks") and hasattr(value, "values"):
        return _plain(np.asarray(value.masks)), _plain(np.asarray(value.values))
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_plain(v) for v in value]
    return value


# -- shared inputs, by kind -----------------------------------------------------------------


def _puzzles() -> list[Puzzle]:
    """Puzzles of several sizes and rules, one with a digit given twice."""
    nine = load("tdoku/puzzles5_forum_hardest_1905_11+_first100", 4)
    clash = Puzzle(Geometry.of(3, 3), (5, 5) + (0,) * 79)
    return [*nine, *load("diagonal/x_sudoku.txt", 1), *load("large/aprivitera_16x16.txt", 1),
            next(read_puzzles(EXAMPLES / "6x6.txt")).puzzle, clash]


@cache
def _states() -> list[Any]:
    """Boards met while solving SE-rated diabolical puzzles (chains, ALS, cycles and forcing
    chains apply on them), every third step, and the first boards of two 16x16 solves."""
    from sudokit.run.explain import explain_states

    rated = (DATA / "rated/se_diabolical_calibration_first60.txt").read_text().splitlines()
    boards = []
    for line in rated[:6]:
        steps = explain_states(line.split()[1], trial=False, time_limit=None)  # any load
        for k, (_step, state) in enumerate(steps):
            if k % 3 == 0:
                boards.append(state.copy().board())
    return boards


def _grids() -> Iterator[tuple]:
    from sudokit import solve_array

    for puzzles in (load("tdoku/puzzles2_17_clue_first300", 40), load("diagonal/x_sudoku.txt", 6),
                    load("large/aprivitera_16x16.txt", 2)):
        geometry = puzzles[0].geometry
        givens = np.array([p.givens for p in puzzles], np.uint8)
        grids = solve_array(givens, box=(geometry.box_rows, geometry.box_cols),
                            variant=geometry.variant).solutions[:, 0].copy()
        wrong = grids.copy()
        wrong[::2, [0, 1]] = wrong[::2, [1, 0]]  # two cells swapped: a unit or a given broken
        yield np.concatenate([grids, wrong]), np.concatenate([givens, givens]), geometry


def _rows() -> Iterator[tuple]:
    from sudokit.formats.linecodec import Codec

    rng = np.random.default_rng(37)
    for side, alphabet in ((9, None), (16, None), (9, "ABCDEFGHI")):
        codec = Codec.of(Geometry.for_side(side), alphabet)
        symbols = np.flatnonzero(codec.decode != 255).astype(np.uint8)
        rows = rng.choice(symbols, size=(50, side * side)).astype(np.uint8)
        rows[7, 3] = ord("?")  # a byte that is no symbol: its row is invalid
        yield rows, codec.decode
        yield rng.integers(0, 10, size=(20, side * side)).astype(np.uint8), codec.encode


def _plans() -> Iterator[tuple]:
    from sudokit.generator import Options, grid_geometry
    from sudokit.generator.engine import Maker, seeds_for

    for size, box, options in ((9, None, {"symmetry": "rot180"}), (4, None, {}),
                               (None, (2, 3), {"minimal": True})):
        geometry = grid_geometry(size, box, "standard")
        yield Maker(geometry), seeds_for(37, range(2)), Options.build(geometry, **options).plan()


def _ratings() -> Iterator[tuple]:
    """The puzzles of :func:`_puzzles` by geometry, each under two node limits (the node
    rater's counts to two with singles only)."""
    by_geometry: dict[Geometry, list[tuple[int, ...]]] = {}
    for puzzle in _puzzles():
        by_geometry.setdefault(puzzle.geometry, []).append(puzzle.givens)
    for geometry, rows in by_geometry.items():
        for limit in (300, 5):
            yield np.array(rows, np.uint8), geometry, limit


def _chains(single: bool) -> Iterator[tuple]:
    from sudokit.logic.chains.links import SINGLE_DIGIT, ChainMode

    modes = [m for m in ChainMode if (m in SINGLE_DIGIT) == single]
    for board in _states()[::2]:
        for mode in modes:
            yield board, mode, 8


def _assumptions() -> Iterator[tuple]:
    """SE's propagation (dynamic or static, with or without links inside cells, dynamic with
    the "(+)" rules) of a few candidates of every fourth board, on and off."""
    for board in _states()[::4]:
        masks0 = [0 if v else m for m, v in zip(board.masks, board.values)]
        for cell in board.open_cells[:3]:
            d0 = (masks0[cell] & -masks0[cell]).bit_length() - 1
            for on in (0, 1):
                for dynamic, y_links in ((True, True), (False, True), (True, False)):
                    yield board.geometry, masks0, ((cell * board.side + d0) << 1) | on, \
                        dynamic, y_links
                yield board.geometry, masks0, ((cell * board.side + d0) << 1) | on, True, \
                    True, 1  # with the four "(+)" rules


def _static_chains() -> Iterator[tuple]:
    """SE's static forcing chain of every candidate of a few cells of every eighth board, on
    and off, the grid as it is (some reach their negation, most do not)."""
    for board in _states()[::8]:
        masks = [0 if v else m for m, v in zip(board.masks, board.values)]
        for cell in board.open_cells[:8]:
            for d0 in range(board.side):
                if masks[cell] >> d0 & 1:
                    for on in (0, 1):
                        yield board.geometry, masks, ((cell * board.side + d0) << 1) | on


def _static_reaches() -> Iterator[tuple]:
    """What the static propagation of every on potential of every eighth board reaches, and of
    the same board less the lowest candidate of every fifth cell (many stopped by a
    contradiction)."""
    for board in _states()[::8]:
        masks = [0 if v else m for m, v in zip(board.masks, board.values)]
        fewer = [m & ~(m & -m) if i % 5 == 0 and m & (m - 1) else m for i, m in enumerate(masks)]
        for grid in (masks, fewer):
            starts = [((c * board.side + d0) << 1) | 1 for c in board.open_cells
                      for d0 in range(board.side) if grid[c] >> d0 & 1]
            yield board.geometry, grid, np.array(grid, np.int64), starts


def _rule_grids() -> Iterator[tuple]:
    """Every puzzle of tests/data/rules with drawn rules: its published solution and wrong
    grids made from it, full and partial (see tests/fast/test_rulecheck.py)."""
    from tests.fast.test_rulecheck import rule_grids

    return rule_grids()


def _rule_fillings() -> Iterator[tuple]:
    """The fillings searches of the rule forcing chains (+): the first weighted sums and
    automata with peers among their cells of the published puzzles of tests/data/rules, on the
    candidates after the givens (mostly past the node budget) and with every other cell of the
    rule at its solution's digit (searched to the end)."""
    from sudokit.logic.rule_filters import FillingsPlan, filters, later_peers
    from sudokit.logic.state import Candidates
    from tests.fast.test_rulecheck import published_puzzles

    per_kind: dict[str, int] = {}
    for puzzle, solution in published_puzzles():
        state = Candidates.from_puzzle(puzzle)
        geometry = state.geometry
        for rule, filtered in filters(geometry):
            later = later_peers(geometry, rule.cells)
            kind = type(rule).__name__
            if not any(later) or kind not in ("WeightedSum", "Automaton") or \
                    per_kind.get(kind, 0) >= 6:
                continue
            per_kind[kind] = per_kind.get(kind, 0) + 1
            plan = FillingsPlan(rule, geometry.side, filtered, later)
            masks = [int(state.masks[c]) << 1 for c in rule.cells]
            half = [2 << (solution[c] - 1) if i % 2 else m
                    for i, (c, m) in enumerate(zip(rule.cells, masks))]
            for domains in (masks, half):
                kept = filtered(domains)
                if kept is not None:
                    yield plan, list(kept)


def _settles() -> Iterator[tuple]:
    """The singles of the rule forcing chains: a candidate of a few open cells of every
    fourth board placed, and random candidates of a few cells removed (a filter's round)."""
    import random

    rng = random.Random(40)
    for board in _states()[::4]:
        masks, values = list(board.masks), list(board.values)
        for cell in board.open_cells[:3]:
            yield board.geometry, masks, values, [(cell, masks[cell].bit_length())], {cell}
        lost = set()
        trimmed = list(masks)
        for cell in rng.sample(board.open_cells, min(6, len(board.open_cells))):
            if trimmed[cell].bit_count() > 1:
                trimmed[cell] &= trimmed[cell] - 1  # its lowest digit gone
                lost.add(cell)
        yield board.geometry, trimmed, values, [], lost


def _rule_assumptions() -> Iterator[tuple]:
    """The rule forcing chains' assumptions on published rule puzzles whose rules the compiled
    rounds take (pair relations, sums, automata): the first candidates of a few open cells of
    their first board, the solution's digit and others, followed plain and further (+)."""
    from sudokit.logic.chains.rule_rounds import rule_arrays
    from sudokit.logic.state import Candidates
    from tests.fast.test_rulecheck import published_puzzles

    taken = 0
    for puzzle, solution in published_puzzles():
        if taken >= 4 or rule_arrays(puzzle.geometry) is None:
            continue
        taken += 1
        board = Candidates.from_puzzle(puzzle).board()
        for cell in sorted(board.open_cells, key=lambda c: (board.masks[c].bit_count(), c))[:3]:
            wrong = board.masks[cell] & ~(1 << (solution[cell] - 1))
            for digit in (solution[cell], wrong.bit_length()):
                if digit and board.masks[cell] >> (digit - 1) & 1:
                    yield board, cell, digit, False
                    yield board, cell, digit, True


def _sandwich_lines() -> Iterator[tuple]:
    """The lines of the sandwich clues of the published puzzles of tests/data/rules (those the
    engine filters with its own propagator): their candidates after the givens, with every
    other cell at its solution's digit, and with one cell's digit taken away."""
    from sudokit.fast.drawn import sandwich_total
    from sudokit.logic.state import Candidates
    from sudokit.model.rules import Automaton
    from tests.fast.test_rulecheck import published_puzzles

    for puzzle, solution in published_puzzles():
        geometry = puzzle.geometry
        masks0 = Candidates.from_puzzle(puzzle).masks
        for rule in geometry.constraints:
            total = sandwich_total(rule, geometry) if isinstance(rule, Automaton) else None
            if total is None:
                continue
            masks = [int(masks0[c]) for c in rule.cells]
            half = [1 << (solution[c] - 1) if i % 2 else m
                    for i, (c, m) in enumerate(zip(rule.cells, masks))]
            taken = [m & ~(1 << (solution[c] - 1)) or m for c, m in zip(rule.cells, half)]
            for line in (masks, half, taken):
                yield line, total


def _sum_cliques() -> Iterator[tuple]:
    """The +-1 sums of the published puzzles of tests/data/rules (up to 9 cells, clique by
    clique) with every other cell at its solution's digit."""
    from tests.fast.test_sumsets import _published_sums

    yield from _published_sums()


def _words() -> Iterator[tuple]:
    rng = np.random.default_rng(37)
    for word in [1, 2, 3, 1 << 63, (1 << 64) - 1, *rng.integers(1, 1 << 63, 30).tolist()]:
        yield (np.uint64(word),)


INPUTS: dict[str, Callable[[], Iterator[tuple]]] = {
    "grids": _grids,
    "rows": _rows,
    "plans": _plans,
    "ratings": _ratings,
    "puzzles": lambda: ((p,) for p in _puzzles()),
    "boards": lambda: ((b,) for b in _states()),
    "ladders": lambda: ((b, _ladder()) for b in _states()),
    "wings": lambda: ((b, size) for b in _states() for size in (3, 4)),
    "forcing": lambda: ((b, by_unit) for b in _states()[::3] for by_unit in (False, True)),
    "chains": lambda: _chains(False),
    "single-digit chains": lambda: _chains(True),
    "assumptions": _assumptions,
    "static chains": _static_chains,
    "static reach": _static_reaches,
    "words": _words,
    "rule grids": _rule_grids,
    "rule fillings": _rule_fillings,
    "sandwich lines": _sandwich_lines,
    "sum cliques": _sum_cliques,
    "settles": _settles,
    "rule assumptions": _rule_assumptions,
}
"""The inputs of each kind of twin: argument tuples of its declared entry."""


def _ladder() -> tuple:
    from sudokit.logic.registry import techniques

    return tuple(techniques())


def _words_twin(twin: Twin, args: tuple) -> tuple[Any, Any]:
    """An intrinsic called from a small compiled function, and its Python equivalent."""
    import numba as nb

    intrinsic, python = _resolve(twin.kernel), _resolve(twin.reference)
    if twin.kernel.endswith(":monotonic"):
        compiled, now = nb.njit(lambda: intrinsic())(), python()
        return (now if abs(compiled - now) < 0.5 else compiled), now  # the same clock
    return nb.njit(lambda m: intrinsic(m))(*args), python(*args)


def _run(twin: Twin, args: tuple, compiled: bool) -> Any:
    with forced(twin.group, compiled):
        return _plain(_resolve(twin.entry)(*args))


def test_every_group_that_decides_has_declared_twins() -> None:
    assert len(declared()) >= 19
    assert {t.inputs for t in declared()} <= set(INPUTS), "a twin with inputs no test makes"
    groups = {t.group for t in declared()}
    assert {Kernels.VERIFY, Kernels.LOOKUP, Kernels.GENERATOR, Kernels.LOGIC} <= groups


@pytest.mark.parametrize("twin", declared(), ids=lambda t: f"{t.entry}-{t.inputs}")
def test_each_twin_gives_what_its_kernel_gives(twin: Twin) -> None:
    runs = 0
    different = set()
    for args in INPUTS[twin.inputs]():
        if twin.inputs == "words":
            kernel, python = _words_twin(twin, args)
        else:
            kernel, python = _run(twin, args, True), _run(twin, args, False)
        assert kernel == python, (twin.entry, args[1:] if len(args) > 1 else "")
        different.add(repr(kernel)[:2000])
        runs += 1
    assert runs >= 3 and len(different) >= 2, "too few or too alike inputs to tell anything"


def test_forced_decides_within_the_size_limit() -> None:
    """Under ``forced(group, False)`` the decision says Python whatever else holds."""
    from sudokit import compiled

    for group in Kernels:
        with forced(group, False):
            assert not compiled.use_compiled(group, 81, 1024)
        with forced(group, True):
            assert compiled.use_compiled(group, 81, 1024)
            assert not compiled.use_compiled(group, 2048, 1024)  # the kernel's size limit


# -- the map ----------------------------------------------------------------------------------


def test_the_map_lists_every_twin() -> None:
    """docs/architecture.md's table "kept twice on purpose" has one row per declared twin: its
    kernel, its reference and its entry, each as `module:name`."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## Kept twice on purpose", 1)[1]
    rows = {tuple(re.findall(r"`([^`]+)`", line)[:3]) for line in table.splitlines()
            if line.startswith("| `")}
    listed = {(t.reference, t.kernel, t.entry) for t in declared()}
    assert rows == listed, (sorted(listed - rows), sorted(rows - listed))


def test_the_decision_is_made_in_one_place() -> None:
    """No module asks ``sys.modules`` whether something is loaded (the probes that decided
    compiled or Python before sudokit.compiled); loaded groups are declared instead."""
    import ast

    package = ROOT / "src" / "sudokit"
    probes = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                    isinstance(side, ast.Attribute) and side.attr == "modules"
                    for side in [node.left, *node.comparators]):
                probes.append(f"{path.relative_to(package)}:{node.lineno}")
    assert not probes, probes
