"""DIMACS CNF files and SAT solver output: write, read (strictly), and parse models.

A CNF file is comment lines ``c ...``, one problem line ``p cnf VARIABLES CLAUSES`` and clauses as
literals ending in ``0`` (clauses may span lines). A Sudoku CNF written by :func:`sudoku_comments`
names its puzzle in the comments (``c box RxC variant V`` and ``c givens ...``), so a model can be
turned back into a grid from the CNF file alone (:func:`puzzle_from_comments`).

Solver output is read in the three forms found in practice: the SAT competition form
(``s SATISFIABLE`` then ``v ... 0`` lines, e.g. CaDiCaL and Kissat on stdout), MiniSat's result
file (``SAT`` / ``UNSAT`` / ``INDET`` then the literals), and a plain list of literals.

PySAT's ``pysat.formula.CNF`` reads DIMACS leniently (a bad token is a bare ``ValueError`` with no
line), so reading is ours: every error says file, line and column and what was expected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TextIO

from ..errors import InvalidPuzzle
from ..geometry import Geometry, Variant
from ..puzzle import Grid, Puzzle, violations
from .encoding import Encoding, decode, encode

__all__ = [
    "Dimacs",
    "SatOutcome",
    "SolverOutput",
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


class SatOutcome(Enum):
    """What a SAT solver reported."""

    SATISFIABLE = "SATISFIABLE"
    UNSATISFIABLE = "UNSATISFIABLE"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class SolverOutput:
    """A solver's verdict and model (empty unless satisfiable)."""

    outcome: SatOutcome
    model: tuple[int, ...] = ()


def write_dimacs(out: TextIO, clauses: Sequence[Sequence[int]], n_vars: int,
                 comments: Iterable[str] = (), check: Callable[[], None] | None = None) -> None:
    """Write a CNF in DIMACS form to a text stream (not closed).

    Args:
        out: the stream (a file opened for writing, ``sys.stdout``).
        clauses: the clauses; an empty clause is written as a bare ``0``.
        n_vars: the variable count of the problem line (may exceed the largest variable used).
        comments: comment lines (without ``c``); newlines inside are split into lines.
        check: called before each block of clauses is written; it may raise to stop (a
            deadline), leaving the stream incomplete.
    """
    for comment in comments:
        for line in str(comment).splitlines() or [""]:
            out.write(f"c {line}\n" if line else "c\n")
    out.write(f"p cnf {n_vars} {len(clauses)}\n")
    for start in range(0, len(clauses), _CHUNK):
        if check is not None:
            check()
        out.write("".join(" ".join(map(str, (*c, 0))) + "\n"
                          for c in clauses[start:start + _CHUNK]))


def _error(reason: str, source: str, line: int, column: int | None = None) -> InvalidPuzzle:
    return InvalidPuzzle(reason, source=source, line=line, column=column)


def _ints(text: str, source: str, number: int, skip: int = 0) -> list[int]:
    """Integers of a line; a bad token raises with its 1-based column."""
    values, column = [], 0
    for token in text.split():
        column = text.index(token, column)
        if column >= skip:
            try:
                values.append(int(token))
            except ValueError:
                raise _error(f"expected an integer literal, found {token!r}", source, number,
                             column + 1) from None
        column += len(token)
    return values


def _problem_line(text: str, source: str, number: int) -> tuple[int, int]:
    parts = text.split()
    if len(parts) != 4 or parts[1] != "cnf" or not all(p.isdigit() for p in parts[2:]):
        raise _error(f"expected 'p cnf VARIABLES CLAUSES', found {text.strip()!r}", source, number)
    return int(parts[2]), int(parts[3])


def read_dimacs(text: str, source: str = "<string>") -> Dimacs:
    """Parse DIMACS CNF text strictly.

    Raises:
        InvalidPuzzle: no or a second problem line, a clause before it, a token that is not an
            integer, a literal above the declared variable count, a last clause without its
            ``0``, or a clause count that differs from the problem line (with file, line and
            column).

    >>> read_dimacs("c hi\\np cnf 2 2\\n1 -2 0\\n2 0\\n")
    Dimacs(n_vars=2, clauses=[[1, -2], [2]], comments=('hi',))
    """
    comments: list[str] = []
    clauses: list[list[int]] = []
    header: tuple[int, int] | None = None
    current: list[int] = []
    number = 0
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
            header = _problem_line(stripped, source, number)
            continue
        if header is None:
            raise _error("expected 'p cnf VARIABLES CLAUSES' before the first clause", source,
                         number, 1)
        for lit in _ints(line, source, number):
            if abs(lit) > header[0]:
                raise _error(f"literal {lit} is above the {header[0]} variables declared",
                             source, number)
            if lit:
                current.append(lit)
            else:
                clauses.append(current)
                current = []
    if header is None:
        raise _error("expected a problem line 'p cnf VARIABLES CLAUSES'", source, number or 1)
    if current:
        raise _error("the last clause does not end with 0", source, number)
    if len(clauses) != header[1]:
        raise _error(f"the problem line declares {header[1]} clauses, found {len(clauses)}",
                     source, number)
    return Dimacs(header[0], clauses, tuple(comments))


_OUTCOMES = {
    "SATISFIABLE": SatOutcome.SATISFIABLE, "SAT": SatOutcome.SATISFIABLE,
    "UNSATISFIABLE": SatOutcome.UNSATISFIABLE, "UNSAT": SatOutcome.UNSATISFIABLE,
    "UNKNOWN": SatOutcome.UNKNOWN, "INDET": SatOutcome.UNKNOWN, "INDETERMINATE": SatOutcome.UNKNOWN,
}


def read_solver_output(text: str, source: str = "<string>") -> SolverOutput:
    """Parse a solver's answer: competition ``s``/``v`` lines, MiniSat's file, or bare literals.

    Bare literals without a status line count as SATISFIABLE. Comment lines (``c``) are skipped.

    Raises:
        InvalidPuzzle: a status word that is not known, a token that is not an integer, or no
            status and no literal at all (with file, line and column).

    >>> read_solver_output("s SATISFIABLE\\nv 1 -2 0\\n")
    SolverOutput(outcome=<SatOutcome.SATISFIABLE: 'SATISFIABLE'>, model=(1, -2))
    >>> read_solver_output("UNSAT\\n").outcome.value
    'UNSATISFIABLE'
    """
    outcome: SatOutcome | None = None
    literals: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        word = words[1].upper() if words[0] == "s" and len(words) > 1 else words[0].upper()
        if words[0] == "s" or word in _OUTCOMES:
            if word not in _OUTCOMES:
                raise _error(f"expected SATISFIABLE, UNSATISFIABLE or UNKNOWN, found {word!r}",
                             source, number, 1)
            outcome = _OUTCOMES[word]
            continue
        skip = len(line) - len(line.lstrip()) + 1 if words[0] == "v" else 0
        literals += [lit for lit in _ints(line, source, number, skip) if lit]
    if outcome is None and not literals:
        raise _error("expected a solver status (s SATISFIABLE, SAT, UNSAT) or a model",
                     source, 1)
    outcome = outcome or SatOutcome.SATISFIABLE
    return SolverOutput(outcome, tuple(literals) if outcome is SatOutcome.SATISFIABLE else ())


def sudoku_comments(puzzle: Puzzle, encoding: Encoding) -> list[str]:
    """Return the comment header naming a Sudoku CNF's puzzle, encoding and variable numbering."""
    g = puzzle.geometry
    where = f"{puzzle.source} line {puzzle.source_line}" if puzzle.source else "given directly"
    return [
        f"sudokit: Sudoku {g.shape_name} as CNF, encoding {encoding.value}",
        f"puzzle: {where}; {puzzle.n_givens} givens",
        f"variables: v = (r*N + c)*N + d with N = {g.side}, r and c the 0-based row and column,"
        f" d the digit 1..N; v true means cell (r, c) holds d",
        f"box {g.box_rows}x{g.box_cols} variant {g.variant.value}",
        "givens " + " ".join(map(str, puzzle.givens)),
    ]


def puzzle_from_comments(comments: Sequence[str], source: str = "<cnf>") -> Puzzle:
    """Rebuild the puzzle named by :func:`sudoku_comments` in a CNF's comments.

    Raises:
        InvalidPuzzle: the comments lack the ``box`` or ``givens`` line (not written by sudokit).
    """
    box = next((c.split() for c in comments if c.startswith("box ")), None)
    givens = next((c.split()[1:] for c in comments if c.startswith("givens ")), None)
    if box is None or givens is None or len(box) != 4:
        raise InvalidPuzzle("expected the 'c box RxC variant V' and 'c givens ...' comments "
                            "that 'sudokit cnf' writes", source=source)
    rows, _, cols = box[1].partition("x")
    try:
        geometry = Geometry.of(int(rows), int(cols), Variant(box[3]))
        return Puzzle(geometry, tuple(int(d) for d in givens), source=source)
    except ValueError as exc:
        raise InvalidPuzzle(f"bad sudokit header: {exc}", source=source) from None


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


def write_sudoku_cnf(out: TextIO, puzzle: Puzzle, encoding: Encoding) -> int:
    """Write a puzzle's CNF with the header naming it; return the number of clauses written."""
    clauses = encode(puzzle, encoding)
    write_dimacs(out, clauses, puzzle.geometry.side**3, sudoku_comments(puzzle, encoding))
    return len(clauses)


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
    puzzle = puzzle_from_comments(leading_comments(cnf_text), cnf_source)
    output = read_solver_output(answer_text, answer_source)
    if output.outcome is not SatOutcome.SATISFIABLE:
        return puzzle, output, None
    try:
        grid = decode(output.model, puzzle)
    except InvalidPuzzle as exc:
        raise exc.located(source=answer_source) from None
    problems = violations(grid, puzzle)
    if problems:
        raise InvalidPuzzle(f"the model is not a solution: {'; '.join(problems[:3])}",
                            source=answer_source)
    return puzzle, output, grid
