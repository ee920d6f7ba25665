"""Integer tokens of untrusted text, read without trusting their length.

Python's ``int()`` refuses a string of more than 4,300 digits (``ValueError``), accepts
non-ASCII digits (``"٣"``) and gives integers no fixed-width array holds. Every reader of
sudokit turns a token into an integer through :func:`integer` or :func:`int_token`, so that one
oversized or odd token is one bad record with its line and column, never an exception that ends
a run.
"""

from __future__ import annotations

import re

from ..errors import InvalidPuzzle

__all__ = ["MAX_DIGITS", "integer", "int_token", "shown_token"]

MAX_DIGITS = 18
"""Most digits of an integer token: every such integer fits in a signed 64-bit integer."""

_INTEGER = re.compile(r"-?([0-9]+)\Z")
_SHOWN = 24


def integer(token: str, *, signed: bool = True) -> int | None:
    """The value of a decimal integer token (ASCII digits after an optional ``-`` when
    ``signed``) of at most :data:`MAX_DIGITS` digits; None for any other token (never raises).

    >>> integer("-12"), integer("007"), integer("-1", signed=False), integer("9" * 19)
    (-12, 7, None, None)
    """
    match = _INTEGER.match(token)
    if match is None or len(match[1]) > MAX_DIGITS or (not signed and token[0] == "-"):
        return None
    return int(token)


def int_token(token: str, *, signed: bool = True, what: str = "an integer") -> int:
    """Like :func:`integer`, but a token that is no such integer raises.

    Raises:
        InvalidPuzzle: ``expected <what>, found <token>`` (an oversized integer is named by its
            number of digits). The error has no location: the caller adds file, line and
            column with :meth:`~sudokit.errors.InvalidPuzzle.located`.
    """
    value = integer(token, signed=signed)
    if value is not None:
        return value
    match = _INTEGER.match(token)
    found = (f"an integer of {len(match[1]):,} digits (at most {MAX_DIGITS} read)"
             if match and len(match[1]) > MAX_DIGITS else shown_token(token))
    raise InvalidPuzzle(f"expected {what}, found {found}")


def shown_token(token: str) -> str:
    """A token as an error message shows it: quoted, cut after 24 characters with its length.

    >>> shown_token("1" * 30)
    "'111111111111111111111111...' (30 characters)"
    """
    if len(token) <= _SHOWN:
        return repr(token)
    return f"{token[:_SHOWN] + '...'!r} ({len(token):,} characters)"
