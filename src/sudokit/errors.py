"""Errors raised by sudokit.

Every error a user can cause derives from :class:`SudokuError`, so a caller (and the CLI, in one
place) can catch them all. Inside a search a contradiction is a return value, never an exception;
exceptions are for bad input, misuse and limits. Every exception class of sudokit that a caller
can meet is here (private control-flow signals stay beside the loop they leave).

Each class carries the exit code the command line ends with when it stops on one
(:attr:`SudokuError.exit_code`): :data:`USAGE` for a mistake in the command, its options or its
files, :data:`BUG` for a :class:`SolverBug`, which is sudokit's fault, never the user's. The
other codes are the outcome's: 0 every puzzle solved, 1 some puzzle was not (unsolvable,
multiple, timed out, invalid), 130 and 143 interrupted (Ctrl-C, SIGTERM).
"""

from __future__ import annotations

__all__ = [
    "USAGE",
    "BUG",
    "SudokuError",
    "InvalidPuzzle",
    "InvalidOption",
    "UnknownMethod",
    "MethodUnavailable",
    "UnsupportedPuzzle",
    "LimitReached",
    "SolverBug",
    "GenerationError",
    "InputError",
    "OutputIsInputError",
    "ResumeError",
    "OutputError",
    "OutputBusyError",
    "BadRequest",
    "WorkFailed",
    "TimeLimit",
]

USAGE = 2
"""Exit code of a usage error: an unknown method or option, a missing or unreadable file, a bad
value, an input that cannot be resumed."""

BUG = 3
"""Exit code of an internal bug (:class:`SolverBug`): a method answered a wrong grid, which is
reported, never printed as a solution."""


class SudokuError(Exception):
    """Base class of every error sudokit raises on purpose.

    Attributes:
        exit_code: the command line's exit code when it stops on this error (:data:`USAGE`).
    """

    exit_code: int = USAGE


class InvalidPuzzle(SudokuError, ValueError):
    """Input text or data is not a valid puzzle.

    Attributes:
        reason: what was wrong and what was expected, e.g. ``"expected 81 cells, found 80"``.
        source: file name, ``"<stdin>"`` or ``"<string>"``; None when unknown.
        line: 1-based line number where the problem is; None when unknown.
        column: 1-based column (character) number; None when unknown.
        constraint: which constraint of a grid's geometry is malformed, when that is the
            problem: ``"regions"``, ``"cages"``, ``"extra_regions"`` or ``"parity"`` (the
            :class:`~sudokit.model.geometry.Geometry` field); None otherwise. Readers use it to point
            at the part of their input that holds the constraint.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        constraint: str | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        self.constraint = constraint
        super().__init__(self._message())

    def _message(self) -> str:
        where = ":".join(
            str(part) for part in (self.source, self.line, self.column) if part is not None
        )
        return f"{where}: {self.reason}" if where else self.reason

    def located(
        self, *, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> InvalidPuzzle:
        """Return a copy with missing location parts filled in (known parts are kept)."""
        return InvalidPuzzle(
            self.reason,
            source=self.source if self.source is not None else source,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
            constraint=self.constraint,
        )


class InvalidOption(SudokuError, ValueError):
    """A method option has an unknown name or a value outside its choices, or a limit is out
    of range (a negative time or node limit)."""


class UnknownMethod(SudokuError, LookupError):
    """A method name that is not registered; the message lists the choices."""


class MethodUnavailable(SudokuError, ImportError):
    """A registered method whose optional dependency is not installed; the message says how."""


class UnsupportedPuzzle(SudokuError, ValueError):
    """A method was asked to solve a grid size or variant it does not declare."""


class LimitReached(SudokuError):
    """A node or time limit was hit inside a search.

    Raised by :meth:`sudokit.model.result.Limits.check`; the front door turns it into
    ``Status.UNKNOWN``. Users of :func:`sudokit.solve` never see it.
    """


class SolverBug(SudokuError, AssertionError):
    """A solver returned a grid that violates the givens or a unit; the grid is never reported
    as a solution. Sudokit's fault, not the user's: the command line exits :data:`BUG`."""

    exit_code = BUG


class GenerationError(SudokuError):
    """No puzzle met the request within the allowed number of tries (or no grid satisfies the
    rules)."""


class InputError(SudokuError, OSError):
    """An INPUT that cannot be read: no such file, a directory, or no permission."""


class OutputIsInputError(SudokuError, OSError):
    """An output path that is an input, or both outputs on one file: writing would destroy it."""


class OutputError(SudokuError, OSError):
    """An output that cannot be written: ``writing PATH: REASON`` (disk full, quota, I/O)."""


class OutputBusyError(OutputError):
    """An output file another running ``sudokit`` holds (locked)."""


class BadRequest(SudokuError, ValueError):
    """A request body that is not what an endpoint of ``sudokit serve`` takes (a field of the
    wrong type, ...): answered 400 with this message."""


class WorkFailed(SudokuError):
    """A child of ``sudokit serve`` answered with an error: bad input (the message the CLI
    prints), answered 400."""


class TimeLimit(SudokuError):
    """A command's time limit passed before its work was done (``sudokit generate
    --time-limit``)."""


class ResumeError(SudokuError):
    """The output file cannot be resumed (not written by ``sudokit solve`` in this form, or for
    another input)."""
