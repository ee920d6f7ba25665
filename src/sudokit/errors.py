"""Errors raised by sudokit.

Every error a user can cause derives from :class:`SudokuError`, so a caller (and the CLI, in one
place) can catch them all. Inside a search a contradiction is a return value, never an exception;
exceptions are for bad input, misuse and limits.
"""

from __future__ import annotations

__all__ = [
    "SudokuError",
    "InvalidPuzzle",
    "InvalidOption",
    "UnknownMethod",
    "MethodUnavailable",
    "UnsupportedPuzzle",
    "LimitReached",
    "SolverBug",
]


class SudokuError(Exception):
    """Base class of every error sudokit raises on purpose."""


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
    """A solver returned a grid that violates the givens or a unit; it is never reported."""
