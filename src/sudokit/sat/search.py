"""Search one Sudoku's CNF for its grids: a resumable CDCL search through PySAT, or a
solver binary run again after each grid with a blocking clause.

More solutions are found by adding a blocking clause (the negation of the last grid's free
cells) and solving again. Encoding and loading the formula count against the time limit. An
external binary reports no statistics: there a node is one solver run, and the decision,
conflict and propagation counters stay unmeasured (None).

References: I. Lynce and J. Ouaknine, "Sudoku as a SAT problem", ISAIM 2006; G. Kwon and
H. Jain, "Optimized CNF encoding for Sudoku puzzles", LPAR 2006.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import LimitReached, MethodUnavailable
from ..model.puzzle import Grid, Puzzle
from ..model.result import Limits, Stats, Status
from .compact import compact_cnf, renumbered
from .dimacs import sudoku_comments
from .encoding import Clause, Encoding, deadline_check, decode, encode, n_variables, paused_gc, var
from .external import default_command, run_command
from .pysat import MEASURED_COUNTERS, limited_solve

__all__ = ["CdclSearch", "exec_solutions"]

_LOAD_CHUNK = 8192  # clauses loaded between two deadline checks


class CdclSearch:
    """A resumable CDCL search over one puzzle through a PySAT backend.

    The puzzle is encoded (``reduced``: on arrays by :func:`~sudokit.sat.compact.compact_cnf`;
    the others by :func:`~sudokit.sat.encoding.encode`, renumbered) and loaded once, within the
    time limit; :meth:`next` then finds a model, proves there is none left, or stops at a limit
    (:class:`~sudokit.errors.LimitReached`) and can be called again: the solver keeps what it
    learnt. :meth:`block` excludes a grid (a blocking clause), so counting is incremental.
    Use it as a context manager (the solver is deleted at the end).

    Args:
        puzzle: the puzzle (consistent givens).
        backend: a PySAT solver name (:func:`~sudokit.sat.pysat.pysat_backends`).
        encoding: the clause families.
        stats, limits: as in :meth:`~sudokit.solvers.base.Solver.solutions`.

    Raises:
        LimitReached: the deadline passed while the formula was built or loaded.
    """

    def __init__(self, puzzle: Puzzle, backend: str, encoding: Encoding, stats: Stats,
                 limits: Limits) -> None:
        from pysat.solvers import Solver as PySatSolver

        check = deadline_check(limits, stats)
        with paused_gc():
            if encoding is Encoding.REDUCED:
                self.cnf = compact_cnf(puzzle, check)
            else:
                self.cnf = renumbered(encode(puzzle, encoding, check), puzzle, check)
        self.exhausted = [] in self.cnf.clauses
        self.solver = PySatSolver(name=backend)
        try:
            with paused_gc():
                for start in range(0, len(self.cnf.clauses), _LOAD_CHUNK):
                    check()
                    self.solver.append_formula(self.cnf.clauses[start:start + _LOAD_CHUNK])
        except BaseException:
            self.close()
            with paused_gc():
                self.cnf.clauses.clear()
            raise
        with paused_gc():
            self.cnf.clauses.clear()  # the solver holds its own copy: free ours now

    def __enter__(self) -> CdclSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Delete the solver (idempotent)."""
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def next(self, stats: Stats, limits: Limits) -> Grid | None:
        """Return the next grid not yet blocked, or None when there is none.

        Raises:
            LimitReached: a limit was hit (call again with new limits to go on).
        """
        if self.exhausted:
            return None
        if not limited_solve(self.solver, stats, limits):
            self.exhausted = True
            return None
        return self.cnf.decode(self.solver.get_model() or ())

    def block(self, grid: Grid) -> None:
        """Exclude ``grid`` from later answers (a grid with no free cell ends the search)."""
        clause = self.cnf.blocking_clause(grid)
        if clause:
            self.solver.add_clause(clause)
        else:
            self.exhausted = True


def exec_solutions(puzzle: Puzzle, encoding: Encoding, cmd: str | None, stats: Stats,
                   limits: Limits) -> Iterator[Grid]:
    """Yield the grids of ``puzzle`` found by a DIMACS solver binary, one run per grid.

    Args:
        puzzle: the puzzle (consistent givens).
        encoding: the clause families.
        cmd: the command template (``{in}``, optionally ``{out}``); None: the first of kissat,
            cadical, minisat on PATH.
        stats, limits: as in :meth:`~sudokit.solvers.base.Solver.solutions`; a node is one run.

    Raises:
        MethodUnavailable: no command given and no known binary on PATH.
        LimitReached: a limit was hit, or the binary answered UNKNOWN.
    """
    check = deadline_check(limits, stats)  # the time limit covers encoding and loading
    with paused_gc():  # no collection walks millions of clause lists (see paused_gc)
        clauses = encode(puzzle, encoding, check)
    if [] in clauses:
        return  # the reduced encoding found a cell or unit-digit with no place
    try:
        comments = sudoku_comments(puzzle, encoding)
        yield from _runs(puzzle, clauses, comments, cmd, stats, limits)
    finally:
        with paused_gc():
            clauses.clear()


def _runs(puzzle: Puzzle, clauses: list[Clause], comments: list[str], cmd: str | None,
          stats: Stats, limits: Limits) -> Iterator[Grid]:
    """Run the binary until it answers UNSATISFIABLE, blocking each grid it finds."""
    command = cmd or default_command()
    if command is None:
        raise MethodUnavailable("sat:exec found no kissat, cadical or minisat on PATH; "
                                "install one or pass --option cmd='SOLVER {in} {out}'")
    for name in MEASURED_COUNTERS:
        setattr(stats, name, None)
    n_vars = n_variables(puzzle.geometry)
    while True:
        limits.count_node(stats)  # a node is one run of the binary
        output = run_command(command, clauses, n_vars, comments=comments,
                             deadline=limits.deadline,
                             check=lambda: limits.check(stats))  # no formula to release
        if output.outcome is Status.UNKNOWN:
            raise LimitReached(f"{command.split()[0]} answered UNKNOWN")
        if output.outcome is Status.UNSATISFIABLE:
            return
        grid = decode(output.model, puzzle)
        yield grid
        blocking = _blocking_clause(grid, puzzle)
        if not blocking:
            return
        clauses = clauses + [blocking]


def _blocking_clause(grid: Grid, puzzle: Puzzle) -> Clause:
    n = puzzle.geometry.side
    return [-var(cell, d, n) for cell, d in enumerate(grid) if not puzzle.givens[cell]]
