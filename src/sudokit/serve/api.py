"""The JSON API of the board: one function per endpoint, from a checked request body to a
JSON-ready answer, thin over the front doors of :mod:`sudokit.run`.

Every endpoint takes a JSON object. The puzzle fields are shared: ``puzzle`` (text in any form
the CLI reads: line form, a grid, f-puzzles/SudokuPad links or JSON, Janko files),
``variant`` (a name as ``--variant`` takes, default ``standard``), ``box`` (``"RxC"``),
``grid`` (the digits placed so far, one per cell, 0 empty: the user's progress) and ``marks``
(per cell, the user's pencil marks or null). Answers use the records of ``--format jsonl``:
``solve`` the record of ``sudokit solve``, ``hint`` and ``explain`` the steps of ``sudokit
hint``/``explain`` (cells ``[row, column]`` 1-based), ``rate`` the record of ``sudokit rate``,
``generate`` the record of ``sudokit generate``, ``why`` the ``why`` field of ``sudokit solve
--why``; each step also carries ``board``, the same step with 0-based cell indices (what the
page draws, also for multi-grid layouts).

Bad input raises :class:`~sudokit.errors.SudokuError` (:class:`BadRequest` for a malformed
body), which the app answers with HTTP 400 and the message the CLI prints. Each function gets
the server's time limit: solves, counts, hints, explanations and ratings stop themselves at it
(:class:`~sudokit.errors.LimitReached` for the last three, answered 503); ``generate`` has no
limit of its own and runs in a child process the app kills (:mod:`sudokit.serve.worker`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict, TypeVar, cast, overload

from ..errors import BadRequest, InvalidPuzzle
from ..model.geometry import DEFAULT_SYMBOLS
from ..model.puzzle import Puzzle

if TYPE_CHECKING:
    from ..logic.step import Step

__all__ = ["ENDPOINTS", "BadRequest", "read_puzzle"]

MAX_STEPS_WITH_MARKS = 200_000
"""``explain`` sends each step's candidates while steps x cells stays under this."""


_T = TypeVar("_T")
_U = TypeVar("_U")


@overload
def _field(body: dict[str, object], name: str, kind: type[_T], default: None = None,
           what: str = "") -> _T | None: ...
@overload
def _field(body: dict[str, object], name: str, kind: type[_T], default: _T, what: str = "") -> _T: ...
@overload
def _field(body: dict[str, object], name: str, kind: tuple[type[_T], type[_U]], default: _T | _U,
           what: str = "") -> _T | _U: ...
def _field(body: dict[str, object], name: str, kind: type | tuple[type, ...],
           default: object = None, what: str = "") -> object:
    """``body[name]`` checked to be of ``kind`` (bool is never an int), or ``default``.

    Raises:
        BadRequest: present (and not null) but of another type.
    """
    value = body.get(name)
    if value is None:
        return default
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise BadRequest(f"'{name}' must be {what or ' or '.join(k.__name__ for k in kinds)}, "
                         f"got {type(value).__name__}")
    return value


def _digits(body: dict[str, object], name: str, count: int) -> list[object] | None:
    """A list of ``count`` entries (``grid``, ``marks``), or None when absent.

    Raises:
        BadRequest: not a list of that length.
    """
    value = _field(body, name, list, what="a list")
    if value is not None and len(value) != count:
        raise BadRequest(f"'{name}' must hold one entry per cell ({count}), got {len(value)}")
    return value


def read_puzzle(body: dict[str, object]) -> Puzzle:
    """The puzzle of a request with the user's digits (``grid``) placed as givens (``puzzle``
    is text, or a :class:`~sudokit.Puzzle` when :class:`~sudokit.serve.widget.BoardWidget`
    calls with its own). The text may also be the board's link form of a pencil-mark puzzle
    (:mod:`sudokit.formats.marklink`, ``sk9.`` and 123 characters), on the grid that ``box``
    and ``variant`` give.

    Raises:
        BadRequest: a field of the wrong type or length.
        InvalidPuzzle: unreadable puzzle text (file:line:column message), a digit of ``grid``
            outside 0..N or differing from a given.
    """
    from ..formats.marklink import read_marks_link
    from ..formats.sukaku import marks_puzzle
    from ..formats.text import parse_puzzle

    if isinstance(given := body.get("puzzle"), Puzzle):  # a notebook widget's (never JSON)
        puzzle = given
    else:
        text = _field(body, "puzzle", str, what="puzzle text")
        if text is None:
            raise BadRequest("expected 'puzzle': the puzzle as text")
        box, variant = _field(body, "box", str), _field(body, "variant", str, "standard")
        link = read_marks_link(text, "<request>")  # the board's link form of given candidates
        if link is None:
            puzzle = parse_puzzle(text, box=box, source="<request>", variant=variant)
        else:
            side, cells = link
            empty = parse_puzzle("." * side * side, box=box, source="<request>", variant=variant)
            puzzle = marks_puzzle(cells, empty.geometry, source="<request>", line=1)
    grid = _grid(body, puzzle.geometry.n_cells)
    if grid is None:
        return puzzle
    for cell, (given, digit) in enumerate(zip(puzzle.givens, grid)):
        if given and digit not in (0, given):
            raise InvalidPuzzle(f"{puzzle.geometry.label(cell)} is given {given}, the grid "
                                f"says {digit}", source="<request>")
    merged = [given or digit for given, digit in zip(puzzle.givens, grid)]
    return Puzzle(puzzle.geometry, tuple(merged), puzzle.source, puzzle.source_line)


def _grid(body: dict[str, object], count: int) -> list[int] | None:
    """The ``grid`` field: ``count`` integers (0: empty), or None when absent.

    Raises:
        BadRequest: not such a list.
    """
    grid = _digits(body, "grid", count)
    if grid is None:
        return None
    ints = [d for d in grid if isinstance(d, int) and not isinstance(d, bool)]
    if len(ints) != len(grid):
        raise BadRequest("'grid' must hold one integer per cell")
    return ints


def _marks(body: dict[str, object], puzzle: Puzzle) -> list[list[int] | None] | None:
    """The ``marks`` field: per cell a list of digits or null.

    Raises:
        BadRequest: not such a list.
    """
    marks = _digits(body, "marks", puzzle.geometry.n_cells)
    if marks is None:
        return None
    for entry in marks:
        if entry is not None and not (isinstance(entry, list) and all(
                isinstance(d, int) and not isinstance(d, bool) for d in entry)):
            raise BadRequest("'marks' must hold, per cell, a list of digits or null")
    return cast("list[list[int] | None]", marks)


def _step(step: Step, puzzle: Puzzle) -> dict[str, object]:
    """A step as ``sudokit hint --format jsonl`` writes it, with its 0-based ``board`` form."""
    def node(nd: tuple[tuple[int, ...], int]) -> dict[str, object]:
        return {"cells": list(nd[0]), "digit": nd[1]}

    return step.as_dict(puzzle.geometry) | {"board": {
        "cells": list(step.cells), "placements": [list(p) for p in step.placements],
        "eliminations": [list(e) for e in step.eliminations],
        "links": [{"from": node(k.start), "to": node(k.end), "kind": k.kind.value}
                  for k in step.links]}}


def _given_marks(puzzle: Puzzle) -> list[list[int] | None]:
    """Each cell's given candidates (pencil-mark, Sukaku puzzles: the ``given candidates`` rules
    :func:`~sudokit.formats.sukaku.marks_puzzle` and f-puzzles' ``givenPencilMarks`` make).

    Returns:
        ``n_cells`` entries: the digits (1..N, ascending) the puzzle leaves a cell, or None
        for a cell it does not restrict (a given's cell too).
    """
    g = puzzle.geometry
    marks: list[list[int] | None] = [None] * g.n_cells
    for rule in puzzle.constraints:
        cell = rule.cells[0]
        if rule.name == "given candidates" and not puzzle.givens[cell]:
            kept = [d for d in g.allowed(cell) if rule.holds((d,))]
            old = marks[cell]
            marks[cell] = kept if old is None else [d for d in old if d in kept]
    return marks


def _marks_line(puzzle: Puzzle, marks: list[list[int] | None]) -> str:
    """The Sukaku line (:mod:`sudokit.formats.sukaku`, 729 characters on 9x9) of a puzzle
    with given candidates: N characters per cell, a candidate's symbol or ``.``."""
    g = puzzle.geometry
    symbols = DEFAULT_SYMBOLS[:g.side]
    out = []
    for cell, given in enumerate(puzzle.givens):
        kept = [given] if given else marks[cell] or list(g.allowed(cell))
        out.append("".join(s if d in kept else "." for d, s in enumerate(symbols, 1)))
    return "".join(out)


def _compact(text: object, puzzle: Puzzle, marks: list[list[int] | None]) -> str | None:
    """The board's short form of a puzzle for its share link, where the line form loses
    something: a pencil-mark puzzle's candidates, N bits a cell (:mod:`sudokit.formats.marklink`,
    any side), or f-puzzles JSON as f-puzzles links hold it (LZ-String, its URL-safe alphabet:
    :mod:`sudokit.formats.fpuzzles` reads it back) when that is shorter; else None."""
    import json

    from ..formats.marklink import marks_link

    g = puzzle.geometry
    if any(m is not None for m in marks):
        every = list(range(1, g.side + 1))
        return marks_link([[given] if given else marks[cell] or every
                           for cell, given in enumerate(puzzle.givens)], g.side)
    if not isinstance(text, str) or not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or "grid" not in data:
        return None
    import lzstring

    short: str = lzstring.LZString().compressToEncodedURIComponent(text)
    return short if len(short) < len(text) else None


def _parse(body: dict[str, object], limit: float) -> dict[str, object]:
    """The puzzle's geometry, givens, peers and SVG board (what the page draws).

    ``allowed`` is each cell's starting candidates: its digits (parity applied) less those a
    pencil-mark (Sukaku) puzzle removed; ``given_candidates`` the puzzle's candidates of each
    cell it restricts (else null); ``puzzle`` the line form, a Sukaku line
    (:func:`_marks_line`) when the puzzle has given candidates and a side up to 16;
    ``compact`` the share link's short form besides the line form (:func:`_compact`), or null.
    """
    from ..model.variants import spec_of_geometry
    from ..present.svg import board_svg

    puzzle = read_puzzle(body)
    g = puzzle.geometry
    marks = _given_marks(puzzle)
    line = puzzle.line
    if any(m is not None for m in marks) and g.side <= 16:
        line = _marks_line(puzzle, marks)
    compact = _compact(body.get("puzzle"), puzzle, marks)
    return {"puzzle": line, "variant": spec_of_geometry(g).text, "shape": g.shape_name,
            "side": g.side, "box": [g.box_rows, g.box_cols], "n_cells": g.n_cells,
            "canvas": list(g.canvas), "givens": list(puzzle.givens),
            "peers": [list(p) for p in g.peers],
            "allowed": [m if m is not None else list(g.allowed(c)) for c, m in enumerate(marks)],
            "given_candidates": marks, "compact": compact,
            "labels": [g.label(c) for c in range(g.n_cells)],
            "cages": [{"total": c.total, "cells": list(c.cells)} for c in g.cages],
            "svg": board_svg(puzzle)}


def _solve(body: dict[str, object], limit: float) -> dict[str, object]:
    """Solve by any method (``method``, its ``options`` as ``sudokit solve -o``,
    ``count_limit``, ``node_limit``, ``time_limit``): the record of ``sudokit solve --format
    jsonl`` plus ``grid`` (the first solution's digits), under the server's time limit."""
    from ..model.variants import spec_of_geometry
    from ..registry import check_remote
    from ..run.doors import count_solutions
    from ..run.output import CALL_KEYWORDS

    puzzle = read_puzzle(body)
    asked = _field(body, "time_limit", (int, float), limit, "a number of seconds")
    count_limit = _field(body, "count_limit", int, 1, "an integer")
    if not 1 <= count_limit <= 1000:
        raise BadRequest(f"'count_limit' must be 1..1000, got {count_limit}")
    options = _field(body, "options", dict, {}, "an object of method options")
    if not all(isinstance(v, (str, int, float, bool)) for v in options.values()):
        raise BadRequest("'options' must map option names to strings, numbers or booleans")
    if taken := sorted(CALL_KEYWORDS & options.keys()):  # never the call's own parameters
        raise BadRequest(f"'options' may not hold {', '.join(map(repr, taken))}: they are no "
                         "method options (time_limit, count_limit, node_limit and method are "
                         "fields of the request)")
    method = _field(body, "method", str)
    check_remote(method, options)  # never a program or a path of this machine (sat:exec)
    result = count_solutions(puzzle, method, limit=count_limit,
                             time_limit=min(max(float(asked), 0.0), limit),
                             node_limit=_field(body, "node_limit", int, None, "an integer"),
                             **options)
    solution = result.solution
    return {"source": "<request>", "line": 1, "status": result.label.word,
            "solution": Puzzle(puzzle.geometry, solution).line if solution else None,
            "method": result.method, "seconds": round(result.seconds, 6),
            "stats": result.stats.as_dict(), "solutions_found": result.count,
            "error": result.message, "variant": spec_of_geometry(puzzle.geometry).text,
            "grid": list(solution) if solution else None, "unique": result.unique}


class _Names(TypedDict):
    techniques: list[str] | None
    exclude: list[str] | None


def _names(body: dict[str, object]) -> _Names:
    """The ``techniques`` (only these) and ``exclude`` (all but these) fields: lists of
    technique names (:func:`sudokit.logic.registry.technique_names`), or absent.

    Raises:
        BadRequest: not a list of strings.
    """
    def names(name: str) -> list[str] | None:
        value = _field(body, name, list, what="a list of technique names")
        if value is not None and not all(isinstance(v, str) for v in value):
            raise BadRequest(f"'{name}' must be a list of technique names")
        return value or None
    return {"techniques": names("techniques"), "exclude": names("exclude")}


def _hint(body: dict[str, object], limit: float) -> dict[str, object]:
    """The next step of the grid so far (with the user's ``marks``): ``{"step": ...}``; with
    ``"all": true`` also ``steps``, every step available now (each instance of each
    technique, easiest technique first: HoDoKu's "all steps"); ``techniques``/``exclude``:
    only those, or all but those; when none of them applies, ``needs``: the technique whose
    step comes next with every technique but trial (None: only trial goes on)."""
    from ..run.explain import hint as next_step
    from ..run.explain import hints

    puzzle = read_puzzle(body)
    names = _names(body)
    if _field(body, "all", bool, False):
        found = hints(puzzle, _marks(body, puzzle), time_limit=limit, **names)
        return {"step": _step(found[0], puzzle) if found else None,
                "steps": [_step(s, puzzle) for s in found]}
    step = next_step(puzzle, _marks(body, puzzle), time_limit=limit, **names)
    if step is not None or not (names["techniques"] or names["exclude"]):
        return {"step": None if step is None else _step(step, puzzle)}
    needs = next_step(puzzle, _marks(body, puzzle), time_limit=limit, trial=False)
    return {"step": None, "needs": None if needs is None else needs.technique}



def _explain(body: dict[str, object], limit: float) -> dict[str, object]:
    """The whole logical solve (``trial``: finish with trial steps): ``steps`` as ``sudokit
    explain --format jsonl`` writes them (``candidates`` after each step on grids small enough),
    then the rating."""
    from ..logic.solve import rating_of
    from ..run.explain import explain_states

    puzzle = read_puzzle(body)
    trial = _field(body, "trial", bool, True)
    with_marks = True
    rows, steps = [], []
    solve = explain_states(puzzle, trial=trial, time_limit=limit, **_names(body))
    for number, (step, state) in enumerate(solve, 1):
        steps.append(step)
        row = {"step": number} | _step(step, puzzle)
        with_marks = with_marks and number * puzzle.geometry.n_cells <= MAX_STEPS_WITH_MARKS
        if with_marks:
            row["candidates"] = state.pencil_marks()
        rows.append(row)
    rating = rating_of(steps, True)
    placed = sum(len(s.placements) for s in steps)
    return {"steps": rows, "rating": rating.rating, "level": rating.level.value,
            "hardest": rating.hardest,
            "solved": placed + puzzle.n_givens == puzzle.geometry.n_cells}


def _rate(body: dict[str, object], limit: float) -> dict[str, object]:
    """The record of ``sudokit rate --format jsonl``."""
    from ..run.explain import rate as rate_puzzle

    result = rate_puzzle(read_puzzle(body), time_limit=limit, **_names(body))
    return {"source": "<request>", "line": 1, "status": "rated", "rating": result.rating,
            "level": result.level.value, "hardest": result.hardest, "steps": result.steps,
            "trial": result.trial, "unique": result.unique, "pearl": result.pearl,
            "diamond": result.diamond}


def _generate(body: dict[str, object], limit: float) -> dict[str, object]:
    """One new puzzle (``size``, ``box``, ``variant``, ``level``, ``symmetry``, ``seed``;
    ``needs``/``uses``: a technique or family its solve needs or uses, as ``sudokit generate
    --needs``/``--uses``): the record of ``sudokit generate --format jsonl`` with its
    solution."""
    from ..run.generate import generate as make

    size = _field(body, "size", int, None, "an integer")
    if size is not None and not 1 <= size <= 25:
        raise BadRequest(f"'size' must be 1..25, got {size}")
    seed = _field(body, "seed", int, None, "an integer")
    if seed is not None and not 0 <= seed < 2 ** 63:
        raise BadRequest("'seed' must be 0..2**63-1")
    level = _field(body, "level", str)
    made = make(1, size=size, box=_field(body, "box", str),
                variant=_field(body, "variant", str, "standard"),
                symmetry=_field(body, "symmetry", str, "none"), level=level,
                rate=True, seed=seed, needs=_field(body, "needs", str),
                uses=_field(body, "uses", str), max_tries=200)
    return next(made).as_dict()


def _count(body: dict[str, object], limit: float) -> dict[str, object]:
    """Uniqueness: solutions counted to two by the default method, under the time limit; or,
    with ``"estimate": true``, Knuth's estimate of the number of solutions (``probes``,
    ``seed``), as ``sudokit count --estimate``."""
    from ..run.doors import count_solutions

    if _field(body, "estimate", bool, False):
        from ..run.candidates import estimate_solutions

        probes = _field(body, "probes", int, 1000)
        seed = _field(body, "seed", int, 0)
        if not 1 <= probes <= 100_000 or not 0 <= seed < 2 ** 63:
            raise BadRequest(f"'probes' must be 1..100000 and 'seed' 0..2**63-1, got "
                             f"{probes}, {seed}")
        found = estimate_solutions(read_puzzle(body), probes=probes, seed=seed,
                                   time_limit=limit)
        # as text: the estimate can exceed what a JSON reader's floats hold
        return {"estimate": str(found.estimate), "standard_error": str(found.standard_error),
                "probes": found.probes, "exact": found.exhausted,
                "seconds": round(found.seconds, 6)}
    result = count_solutions(read_puzzle(body), limit=2, time_limit=limit)
    return {"status": result.label.word, "solutions_found": result.count,
            "unique": result.unique, "method": result.method,
            "seconds": round(result.seconds, 6), "error": result.message}


def _candidates(body: dict[str, object], limit: float) -> dict[str, object]:
    """Each cell's candidates after an inference (``after``: ``none``, ``eliminate``,
    ``only-choice``, ``propagate``, ``ac3``, as ``sudokit show --after``; or ``true``: the
    digits of the cell in some solution with solution counts up to ``cap``, as ``sudokit
    candidates``: ``complete`` false when the time limit left some undecided)."""
    from ..run.inspect import PropagationChoice, candidates_after

    after = _field(body, "after", str, "eliminate")
    if after == "true":
        from ..run.candidates import true_candidates

        cap = _field(body, "cap", int, 1)
        if not 1 <= cap <= 1000:
            raise BadRequest(f"'cap' must be 1..1000, got {cap}")
        return true_candidates(read_puzzle(body), cap=cap, time_limit=limit).as_dict()
    try:
        choice = PropagationChoice(after)
    except ValueError:
        names = ", ".join([c.value for c in PropagationChoice] + ["true"])
        raise BadRequest(f"'after' must be one of {names}, got {after!r}") from None
    found = candidates_after(read_puzzle(body), choice)
    return {"candidates": None if found is None else [list(c) for c in found]}


def _why(body: dict[str, object], limit: float) -> dict[str, object]:
    """Why the puzzle (with the user's ``grid``) has no solution or several, as the ``why``
    field of ``sudokit solve --why -f jsonl`` (:meth:`sudokit.run.why.Why.as_dict`): cells
    0-based; ``most`` (1..10) disjoint reasons at most."""
    from ..run.why import why

    most = _field(body, "most", int, 3, "an integer")
    if not 1 <= most <= 10:
        raise BadRequest(f"'most' must be 1..10, got {most}")
    return why(read_puzzle(body), most=most, time_limit=limit).as_dict()


def _methods(body: dict[str, object], limit: float) -> dict[str, object]:
    """The methods of ``sudokit methods``: name, summary, available; and ``techniques``, the
    names ``hint``/``explain``/``rate`` take (easiest first, each form under one name)."""
    from ..logic.registry import technique_names
    from ..registry import default_method
    from ..registry import methods as listed

    names = list(dict.fromkeys(n.split(" (")[0] for n in technique_names()))
    return {"default": default_method(), "techniques": names,
            "methods": [{"name": m.name, "summary": m.summary, "available": m.available}
                        for m in listed()]}


def _check(body: dict[str, object], limit: float) -> dict[str, object]:
    """The rules the user's ``grid`` (0: empty) already breaks, each with its cells (no search):
    ``violations`` (``rule``, ``cells`` 0-based, ``text``), ``filled`` and ``solved`` (every cell
    filled and nothing broken: a solution, every drawn rule checked)."""
    from ..run.check import grid_violations

    puzzle = read_puzzle({k: v for k, v in body.items() if k != "grid"})
    grid = _grid(body, puzzle.geometry.n_cells)
    if grid is None:
        grid = [0] * puzzle.geometry.n_cells
    found = grid_violations(puzzle, grid)
    filled = all(given or digit for given, digit in zip(puzzle.givens, grid))
    return {"violations": [v.as_dict() for v in found], "filled": filled,
            "solved": filled and not found}


ENDPOINTS: dict[str, Callable[[dict[str, object], float], dict[str, object]]] = {
    "parse": _parse, "check": _check, "solve": _solve, "hint": _hint, "explain": _explain, "rate": _rate,
    "generate": _generate, "count": _count, "candidates": _candidates, "methods": _methods,
    "why": _why,
}
"""``/api/NAME`` -> its function of (request body, time limit in seconds)."""
