"""DIMACS CNF files and SAT solver output: write, read (strictly), and parse models.

A CNF file is comment lines ``c ...``, one problem line ``p cnf VARIABLES CLAUSES`` and clauses as
literals ending in ``0`` (clauses may span lines). A Sudoku CNF written by :func:`sudoku_comments`
names its puzzle in the comments (``c box RxC variant V`` and ``c givens ...``, and for variant
grids ``c regions ...`` (region per cell), ``c cage TOTAL CELLS...`` (one line per cage),
``c extraregion CELLS...``, ``c parity ...``, ``c layout ROWS COLS R,C ...`` /
``c extra R,C ...`` and ``c rule {JSON}`` per drawn rule), so a model can be
turned back into a grid from the CNF file alone (:func:`puzzle_from_comments`).

Literals may also be written ``v1 -v2`` (as in reports: variable 1 true, variable 2 false).

Solver output is read in the classic conventions (:func:`read_solver_output`): the SAT
competition form (``s SATISFIABLE`` then ``v ... 0`` lines: Kissat, CaDiCaL, Lingeling, Glucose),
MiniSat's and Glucose's result file (``SAT`` / ``UNSAT`` / ``INDET`` then the literals), zChaff's
output (``Instance Satisfiable``, the model, statistics, ``RESULT: SAT``), MiniSat's stdout, and a
plain list of literals. The verdict is the one status enum, :class:`~sudokit.model.result.Status`
(SOLVED for satisfiable).

PySAT's ``pysat.formula.CNF`` reads DIMACS leniently (a bad token is a bare ``ValueError`` with no
line), so reading is ours: every error says file, line and column and what was expected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TextIO, TypedDict

from ..errors import InvalidPuzzle, SolverBug
from ..model.constraints import Variant
from ..model.geometry import Geometry
from ..model.rules import Rule
from ..model.integers import MAX_DIGITS, int_token, integer, shown_token
from ..model.layouts import Layout
from ..model.puzzle import Grid, Puzzle, violations
from ..model.result import Status
from .encoding import Encoding, clause_stream, decode, n_variables
from .rules import rule_from_json, rule_json

__all__ = [
    "Dimacs",
    "SolverOutput",
    "sat_word",
    "write_dimacs",
    "read_dimacs",
    "read_solver_output",
    "sudoku_comments",
    "puzzle_from_comments",
    "leading_comments",
    "write_sudoku_cnf",
    "decode_answer",
]

_CHUNK = 4096  # clauses per write call
_UNUSED = 100_000
"""Most variables a problem line may declare beyond the formula's length in characters."""


@dataclass(frozen=True)
class Dimacs:
    """A CNF read from or written to a DIMACS file.

    Attributes:
        n_vars: variables declared by the problem line.
        clauses: the clauses (lists of non-zero ints, no trailing 0).
        comments: comment lines without the leading ``c `` (in file order).
    """

    n_vars: int
    clauses: list[list[int]]
    comments: tuple[str, ...] = ()


@dataclass(frozen=True)
class SolverOutput:
    """A solver's verdict and model.

    Attributes:
        outcome: ``Status.SOLVED`` (satisfiable), ``Status.UNSATISFIABLE`` or
            ``Status.UNKNOWN``.
        model: DIMACS literals (empty unless satisfiable; may be empty then too when the
            solver printed no model, as MiniSat does on stdout).
    """

    outcome: Status
    model: tuple[int, ...] = ()


def write_dimacs(out: TextIO, clauses: Iterable[Sequence[int]], n_vars: int,
                 comments: Iterable[str] = (), check: Callable[[], None] | None = None,
                 count: int | None = None) -> None:
    """Write a CNF in DIMACS form to a text stream (not closed).

    Args:
        out: the stream (a file opened for writing, ``sys.stdout``).
        clauses: the clauses (a sequence, or any iterable when ``count`` is given); an empty
            clause is written as a bare ``0``.
        n_vars: the variable count of the problem line (may exceed the largest variable used).
        comments: comment lines (without ``c``); newlines inside are split into lines.
        check: called before each block of clauses is written; it may raise to stop (a
            deadline), leaving the stream incomplete.
        count: the number of clauses, for an iterable without a length (a streamed formula).

    Raises:
        SolverBug: ``clauses`` held a different number of clauses than ``count``.
    """
    for comment in comments:
        for line in str(comment).splitlines() or [""]:
            out.write(f"c {line}\n" if line else "c\n")
    if count is None:
        count = len(clauses)  # type: ignore[arg-type]
    out.write(f"p cnf {n_vars} {count}\n")
    source, written = iter(clauses), 0
    while block := list(islice(source, _CHUNK)):
        if check is not None:
            check()
        out.write("".join(" ".join(map(str, (*c, 0))) + "\n" for c in block))
        written += len(block)
    if written != count:
        raise SolverBug(f"the problem line says {count} clauses, {written} were written")


def _error(reason: str, source: str, line: int, column: int | None = None) -> InvalidPuzzle:
    return InvalidPuzzle(reason, source=source, line=line, column=column)


def _ints(text: str, source: str, number: int, skip: int = 0,
          bound: int | None = None) -> list[int]:
    """Literals of a line (``-3``, or ``-v3`` as reports write them); a bad token, or a
    variable above ``bound``, raises with its 1-based column. Tokens before column ``skip``
    (0-based) are ignored."""
    values, column = [], 0
    for token in text.split():
        column = text.index(token, column)
        if column >= skip:
            lit = _literal(token)
            if lit is None:
                raise _error(f"expected an integer literal (at most {MAX_DIGITS} digits), "
                             f"found {shown_token(token)}", source, number, column + 1)
            if bound is not None and abs(lit) > bound:
                raise _error(f"literal {lit} is above the {bound} variables declared",
                             source, number, column + 1)
            values.append(lit)
        column += len(token)
    return values


def _problem_line(text: str, source: str, number: int, size: int) -> tuple[int, int]:
    """The variable and clause counts of the problem line of a formula of ``size``
    characters (more variables than 100,000 beyond ``size`` are refused: no
    formula of that size can use them, and solvers allocate per declared variable)."""
    parts = text.split()
    counts = [integer(p, signed=False) for p in parts[2:]]
    if len(parts) != 4 or parts[1] != "cnf" or None in counts:
        raise _error(f"expected 'p cnf VARIABLES CLAUSES' (whole numbers of at most "
                     f"{MAX_DIGITS} digits), found {shown_token(text.strip())}", source, number, 1)
    n_vars, n_clauses = counts
    assert n_vars is not None and n_clauses is not None
    if n_vars > size + _UNUSED:
        raise _error(f"the problem line declares {n_vars:,} variables, more than a formula "
                     f"of {size:,} characters can use: at most its length plus {_UNUSED:,} "
                     f"are accepted", source, number, text.index(parts[2]) + 1)
    return n_vars, n_clauses


def read_dimacs(text: str, source: str = "<string>") -> Dimacs:
    """Parse DIMACS CNF text strictly (literals as ``-3`` or, as in reports, ``-v3``).

    Raises:
        InvalidPuzzle: no or a second problem line, a clause before it, a token that is not an
            integer, a literal above the declared variable count, a last clause without its
            ``0``, or a clause count that differs from the problem line (with file, line and
            column).

    >>> read_dimacs("c hi\\np cnf 2 2\\n1 -2 0\\n2 0\\n")
    Dimacs(n_vars=2, clauses=[[1, -2], [2]], comments=('hi',))
    >>> read_dimacs("p cnf 2 1\\nv1 -v2 0\\n").clauses
    [[1, -2]]
    """
    comments: list[str] = []
    clauses: list[list[int]] = []
    header: tuple[int, int] | None = None
    current: list[int] = []
    number, line, counted = 0, "", (1, 1)
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped == "%":  # SATLIB files end with '%' and '0'
            continue
        if stripped[0] == "c":
            comments.append(stripped[2:] if stripped[1:2] == " " else stripped[1:])
            continue
        if stripped[0] == "p":
            if header is not None:
                raise _error("a second problem line", source, number, 1)
            header = _problem_line(line, source, number, len(text))
            counted = (number, line.rstrip().rindex(" ") + 2)  # where the clause count is
            continue
        if header is None:
            raise _error("expected 'p cnf VARIABLES CLAUSES' before the first clause", source,
                         number, 1)
        for lit in _ints(line, source, number, bound=header[0]):
            if lit:
                current.append(lit)
            else:
                clauses.append(current)
                current = []
    if header is None:
        raise _error("expected a problem line 'p cnf VARIABLES CLAUSES'", source, number or 1, 1)
    if current:
        raise _error("the last clause does not end with 0", source, number,
                     len(line.rstrip()) + 1)
    if len(clauses) != header[1]:
        raise _error(f"the problem line declares {header[1]} clauses, found {len(clauses)}",
                     source, *counted)
    return Dimacs(header[0], clauses, tuple(comments))


_STATUS_WORDS = {
    "SATISFIABLE": Status.SOLVED, "SAT": Status.SOLVED,
    "UNSATISFIABLE": Status.UNSATISFIABLE, "UNSAT": Status.UNSATISFIABLE,
    "UNKNOWN": Status.UNKNOWN, "INDET": Status.UNKNOWN, "INDETERMINATE": Status.UNKNOWN,
    "ABORT": Status.UNKNOWN, "TIMEOUT": Status.UNKNOWN, "MEMOUT": Status.UNKNOWN,
}
_ZCHAFF_LINES = {  # zChaff's verdict lines (its stdout, before the model and the statistics)
    "instance satisfiable": Status.SOLVED,
    "instance unsatisfiable": Status.UNSATISFIABLE,
    "time out, unable to determine": Status.UNKNOWN,
    "memory out, unable to determine": Status.UNKNOWN,
}


def sat_word(status: Status) -> str:
    """The SAT-competition word of a status: SATISFIABLE, UNSATISFIABLE or UNKNOWN.

    >>> sat_word(Status.SOLVED)
    'SATISFIABLE'
    """
    return "SATISFIABLE" if status is Status.SOLVED else status.name


def _literal(token: str) -> int | None:
    """A DIMACS literal: ``-3``, or the ``v3`` / ``-v3`` of reports; None otherwise."""
    sign, body = (-1, token[1:]) if token[:1] == "-" else (1, token)
    if body[:1] in ("v", "V"):
        body = body[1:]
    value = integer(body, signed=False)
    return None if value is None else sign * value


class _OutputReader:
    """The state of reading one solver answer, line by line (:func:`read_solver_output`)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.status: Status | None = None
        self.literals: list[int] = []
        self.zchaff_model = False  # the next line holds zChaff's model, then its statistics

    def line(self, number: int, line: str) -> None:
        words = line.split()
        if not words or words[0] == "c" or line.lstrip().startswith("c "):
            return
        head = words[0].upper()
        if self.zchaff_model:
            self.zchaff_model = False
            self._zchaff_literals(words)
            return
        verdict = next((st for text, st in _ZCHAFF_LINES.items()
                        if line.strip().lower().startswith(text)), None)
        if verdict is not None:
            self.status, self.zchaff_model = verdict, verdict is Status.SOLVED
        elif head == "S":  # the competition's status line
            self._status(" ".join(words[1:]), number, line.index(words[0]) + 3)
        elif head.startswith("RESULT:"):  # zChaff's last line: RESULT: SAT, ABORT : TIME OUT
            text = line.split(":", 1)[1]
            self._status(text, number, line.index(":") + 2 + len(text) - len(text.lstrip()))
        elif len(words) == 1 and head in _STATUS_WORDS:  # MiniSat, Glucose: result file
            self.status = _STATUS_WORDS[head]
        elif head == "V" or _literal(words[0]) is not None:
            skip = line.index(words[0]) + 1 if head == "V" else 0
            self.literals += [lit for lit in _ints(line, self.source, number, skip) if lit]
        # anything else is solver chatter (banners, statistics tables) and is skipped

    def _status(self, text: str, number: int, column: int) -> None:
        word = text.split(":")[0].split()[0].upper() if text.strip() else ""
        if word not in _STATUS_WORDS:
            raise _error(f"expected SATISFIABLE, UNSATISFIABLE or UNKNOWN, found {text.strip()!r}",
                         self.source, number, column)
        self.status = _STATUS_WORDS[word]

    def _zchaff_literals(self, words: list[str]) -> None:
        """zChaff prints the model on one line, unassigned variables as ``(7)``, followed on
        the same line by its first statistic (``Random Seed Used``)."""
        for word in words:
            lit = _literal(word)
            if lit is None and not (word.startswith("(") and word.endswith(")")):
                break
            if lit:
                self.literals.append(lit)


def read_solver_output(text: str, source: str = "<string>") -> SolverOutput:
    """Parse a SAT solver's answer in any of the classic output conventions.

    Understood: the SAT competition's ``s SATISFIABLE`` and ``v ... 0`` lines (Kissat, CaDiCaL,
    Lingeling, Glucose with ``-model``, MiniSat 2.2 ``-model``), MiniSat's and Glucose's result
    file (``SAT`` / ``UNSAT`` / ``INDET`` then the literals), zChaff's stdout (``Instance
    Satisfiable``, the model on one line, statistics, ``RESULT: SAT`` / ``UNSAT`` / ``ABORT :
    TIME OUT``), MiniSat's stdout (banner, then ``SATISFIABLE``: no model), a plain list of
    literals, and literals written ``v1 -v2`` as in reports. Comment lines (``c``) and solver
    chatter that starts with a word (banners, statistics) are skipped.

    Returns:
        The verdict (:class:`~sudokit.model.result.Status`: SOLVED for satisfiable) and the model.
        Bare literals without a verdict count as SOLVED; the model is empty unless SOLVED.

    Raises:
        InvalidPuzzle: a status word that is not known, a line of literals with a token that
            is not one, or neither a verdict nor a literal at all (with file, line and column).

    >>> read_solver_output("s SATISFIABLE\\nv 1 -2 0\\n")
    SolverOutput(outcome=<Status.SOLVED: 1>, model=(1, -2))
    >>> read_solver_output("Instance Unsatisfiable\\nRESULT:\\tUNSAT\\n").outcome.name
    'UNSATISFIABLE'
    """
    reader = _OutputReader(source)
    for number, line in enumerate(text.splitlines(), 1):
        reader.line(number, line)
    if reader.status is None and not reader.literals:
        raise _error("expected a solver verdict (s SATISFIABLE, SAT, UNSAT, RESULT: SAT, "
                     "Instance Satisfiable) or a model", source, 1, 1)
    status = reader.status if reader.status is not None else Status.SOLVED
    return SolverOutput(status, tuple(reader.literals) if status is Status.SOLVED else ())


def sudoku_comments(puzzle: Puzzle, encoding: Encoding) -> list[str]:
    """Return the comment header naming a Sudoku CNF's puzzle, encoding and variable numbering."""
    g = puzzle.geometry
    where = f"{puzzle.source} line {puzzle.source_line}" if puzzle.source else "given directly"
    cells = ("r*N + c with r and c the 0-based row and column" if g.layout is None else
             "the covered canvas cells numbered 0.. in row-major order")
    lines = [
        f"sudokit: Sudoku {g.shape_name} as CNF, encoding {encoding.value}",
        f"puzzle: {where}; {puzzle.n_givens} givens",
        f"variables: v = cell*N + d with N = {g.side}, cell = {cells}, d the digit 1..N; v true "
        "means the cell holds d" + (f"; {n_variables(g) - g.n_cells * g.side} auxiliary "
                                    "variables (killer cage selectors, then drawn rules' states) "
                                    f"from {g.n_cells * g.side + 1}"
                                    if g.cages or g.constraints else ""),
        f"box {g.box_rows}x{g.box_cols} variant {g.variant.text}",
    ]
    if g.regions is not None:
        lines.append("regions " + " ".join(str(g.box_of(c)) for c in range(g.n_cells)))
    lines += [f"cage {cage.total} " + " ".join(map(str, cage.cells)) for cage in g.cages]
    lines += ["extraregion " + " ".join(map(str, cells)) for cells in g.extra_regions]
    if g.parity is not None:
        lines.append(f"parity {g.parity}")
    if g.layout is not None:
        lay = g.layout
        lines.append(f"layout {lay.rows} {lay.cols} " + " ".join(f"{r},{c}" for r, c in lay.origins))
        lines += ["extra " + " ".join(f"{r},{c}" for r, c in unit) for unit in lay.extra]
    lines += ["rule " + rule_json(rule) for rule in g.constraints]
    return lines + ["givens " + " ".join(map(str, puzzle.givens))]


def puzzle_from_comments(comments: Sequence[str], source: str = "<cnf>") -> Puzzle:
    """Rebuild the puzzle named by :func:`sudoku_comments` in a CNF's comments (regions, cages,
    parity and layout included).

    Raises:
        InvalidPuzzle: the comments lack the ``box`` or ``givens`` line (not written by sudokit),
            or a variant line is malformed.
    """
    box = next((c.split() for c in comments if c.startswith("box ")), None)
    givens = next((c.split()[1:] for c in comments if c.startswith("givens ")), None)
    if box is None or givens is None or len(box) != 4:
        raise InvalidPuzzle("expected the 'c box RxC variant V' and 'c givens ...' comments "
                            "that 'sudokit cnf' writes", source=source)
    rows, _, cols = box[1].partition("x")
    try:
        geometry = Geometry.of(int_token(rows), int_token(cols), Variant(box[3]),
                               **_variant_parts(comments))
        return Puzzle(geometry, tuple(int_token(d) for d in givens), source=source)
    except ValueError as exc:
        raise InvalidPuzzle(f"bad sudokit header: {exc}", source=source) from None


class _Parts(TypedDict, total=False):
    """The keyword arguments of ``Geometry.of`` a CNF header names."""

    regions: list[list[int]]
    extra_regions: list[list[int]]
    cages: list[tuple[int, list[int]]]
    parity: str
    constraints: list[Rule]
    layout: Layout


def _variant_parts(comments: Sequence[str]) -> _Parts:
    """The ``regions``, ``cages``, ``parity`` and ``layout`` arguments of ``Geometry.of`` from
    the comments of :func:`sudoku_comments` (ValueError when one is malformed)."""
    parts: _Parts = {}
    words = [c.split() for c in comments]
    region_ids = next((w[1:] for w in words if w and w[0] == "regions"), None)
    if region_ids is not None:
        grouped: dict[int, list[int]] = {}
        for cell, rid in enumerate(region_ids):
            grouped.setdefault(int_token(rid), []).append(cell)
        parts["regions"] = [grouped[k] for k in sorted(grouped)]
    cages = [(int_token(w[1]), [int_token(c) for c in w[2:]])
             for w in words if w and w[0] == "cage"]
    all_different = [[int_token(c) for c in w[1:]] for w in words if w and w[0] == "extraregion"]
    if all_different:
        parts["extra_regions"] = all_different
    if cages:
        parts["cages"] = cages
    parity = next((w[1] for w in words if len(w) == 2 and w[0] == "parity"), None)
    if parity is not None:
        parts["parity"] = parity
    rules = [rule_from_json(c[5:]) for c in comments if c.startswith("rule ")]
    if rules:
        parts["constraints"] = rules
    layout = next((w[1:] for w in words if w and w[0] == "layout"), None)
    if layout is not None:
        def point(text: str) -> tuple[int, int]:
            r, c = text.split(",")
            return int_token(r), int_token(c)
        extra = tuple(tuple(map(point, w[1:])) for w in words if w and w[0] == "extra")
        parts["layout"] = Layout(int_token(layout[0]), int_token(layout[1]),
                                 tuple(map(point, layout[2:])), extra)
    return parts


def leading_comments(text: str) -> list[str]:
    """Return the comment lines before the problem line (cheap on a huge CNF)."""
    comments = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped[:1] not in ("c", ""):
            break
        if stripped:
            comments.append(stripped[2:] if stripped[1:2] == " " else stripped[1:])
    return comments


_HEADER_INTEGERS = {"regions": 1, "cage": 1, "extraregion": 1, "givens": 1, "layout": 1}
"""The comments of :func:`sudoku_comments` whose words after the first are integers."""


def _header_place(text: str) -> tuple[int, int]:
    """Where a sudokit CNF header is malformed: the line and column of the first word that
    should be an integer and is not (``r,c`` pairs of ``layout`` and ``extra`` included), else
    the ``box`` comment's line (or line 1), column 1."""
    box = 1
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped[:1] not in ("c", ""):
            break
        words = stripped[1:].split()
        if not words:
            continue
        box = number if words[0] == "box" and box == 1 else box
        if words[0] not in _HEADER_INTEGERS and words[0] != "extra":
            continue
        column = line.index(words[0]) + len(words[0])
        for word in words[1:]:
            column = line.index(word, column)
            parts = word.split(",") if "," in word else [word]
            if any(integer(part) is None for part in parts):
                return number, column + 1
            column += len(word)
    return box, 1


def write_sudoku_cnf(out: TextIO, puzzle: Puzzle, encoding: Encoding) -> int:
    """Write a puzzle's CNF with the header naming it; return the number of clauses written."""
    count, clauses = clause_stream(puzzle, encoding)
    write_dimacs(out, clauses, n_variables(puzzle.geometry), sudoku_comments(puzzle, encoding),
                 count=count)
    return count


def _literal_place(text: str, model: Sequence[int], index: int) -> tuple[int | None, int | None]:
    """The ``line`` and ``column`` in a solver's answer ``text`` of the ``index``-th literal of
    its ``model`` (the same literal's earlier occurrences counted); None, None if not found."""
    wanted, seen = model[index], model[:index + 1].count(model[index])
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip()[:1] in ("c", "C"):
            continue
        column = 0
        for token in line.split():
            column = line.index(token, column)
            seen -= _literal(token) == wanted
            if not seen:
                return number, column + 1
            column += len(token)
    return None, None


def decode_answer(cnf_text: str, answer_text: str, *, cnf_source: str = "<cnf>",
                  answer_source: str = "<model>") -> tuple[Puzzle, SolverOutput, Grid | None]:
    """Turn a solver's answer for a CNF written by sudokit back into a verified grid.

    Args:
        cnf_text: the CNF file (only its leading comments are read: they name the puzzle).
        answer_text: the solver's output or model file (see :func:`read_solver_output`).

    Returns:
        ``(puzzle, output, grid)``; grid is None unless the solver answered SATISFIABLE.

    Raises:
        InvalidPuzzle: the CNF lacks sudokit's header, the answer is malformed, or its model is
            not a solution of the puzzle (a cell with two digits, a broken unit ...).
    """
    try:
        puzzle = puzzle_from_comments(leading_comments(cnf_text), cnf_source)
    except InvalidPuzzle as exc:
        line, column = _header_place(cnf_text)
        raise exc.located(line=line, column=column) from None
    output = read_solver_output(answer_text, answer_source)
    if output.outcome is not Status.SOLVED:
        return puzzle, output, None
    if not output.model:
        raise InvalidPuzzle("the solver answered SATISFIABLE but printed no model (MiniSat "
                            "writes one to a result file: minisat IN.cnf OUT.txt)",
                            source=answer_source)
    try:
        grid = decode(output.model, puzzle,
                      lambda index: _literal_place(answer_text, output.model, index))
    except InvalidPuzzle as exc:
        raise exc.located(source=answer_source) from None
    problems = violations(grid, puzzle)
    if problems:
        raise InvalidPuzzle(f"the model is not a solution: {'; '.join(problems[:3])}",
                            source=answer_source)
    return puzzle, output, grid
