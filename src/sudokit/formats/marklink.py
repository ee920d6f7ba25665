"""A pencil-mark (Sukaku) grid in few characters, for the board's share link.

The form is ``sk`` and the side N, a dot, then every cell's candidates as N bits (the bit of
weight ``2**(N-k)`` is digit ``k``: digit 1 first), row by row, the bits packed most
significant first into bytes (the last byte filled with zero bits) and written in base64url
(RFC 4648, section 5) without padding. A 9x9 grid is ``sk9.`` and 123 characters where its
Sukaku line (:mod:`sudokit.formats.sukaku`) is 729 and its candidate grid more; a 16x16 is
683, a 25x25 2,606. Every character is one a URL's ``#`` part keeps as it is.

Only the candidates are written: the geometry is the side's usual one, or what the reader is
told besides (box shape, variant). A cell with one candidate is a given there, a cell with
every candidate open. :func:`read_marks_link` reads exactly what :func:`marks_link` wrote.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence

from ..errors import InvalidPuzzle
from ..model.geometry import MAX_SIDE

__all__ = ["is_marks_link", "marks_link", "read_marks_link"]

_FORM = re.compile(r"sk(\d{1,2})\.([A-Za-z0-9_-]*)")


def is_marks_link(text: str) -> bool:
    """Whether a stripped line has the link form (``sk``, a side, a dot, base64url only): read
    by :func:`read_marks_link`, which may still refuse its side, length or bits."""
    return _FORM.fullmatch(text) is not None


def marks_link(cells: Sequence[Sequence[int]], side: int) -> str:
    """The link form of every cell's candidates.

    Args:
        cells: ``side**2`` lists of digits (1..side), row by row.
        side: N, 1..64.

    Returns:
        ``"sk{N}." + base64url`` of ``ceil(N**3 / 8)`` bytes, unpadded.

    Raises:
        ValueError: not ``side**2`` cells, or a digit outside 1..N.

    >>> marks_link([[1], [2], [2], [1]], 2)
    'sk2.lg'
    """
    if not 1 <= side <= MAX_SIDE or len(cells) != side * side:
        raise ValueError(f"expected {side * side} cells of a side 1..{MAX_SIDE}, got {len(cells)}")
    bits = 0
    for digits in cells:
        mask = 0
        for d in digits:
            if not 1 <= d <= side:
                raise ValueError(f"digit {d} outside 1..{side}")
            mask |= 1 << (side - d)
        bits = (bits << side) | mask
    count = side ** 3
    size = (count + 7) // 8
    data = (bits << (size * 8 - count)).to_bytes(size, "big")
    return f"sk{side}." + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def read_marks_link(text: str, source: str = "<string>", line: int = 1
                    ) -> tuple[int, list[list[int]]] | None:
    """The side and every cell's candidates of a link form, or None when ``text`` is not one.

    Args:
        text: the whole text (surrounding blanks ignored).
        source, line: the file name and line number errors give.

    Returns:
        ``(N, cells)``: ``N**2`` lists of digits (ascending), row by row; None when the text
        does not start as the form does (``sk``, a number, a dot, base64url only).

    Raises:
        InvalidPuzzle: the form, but a side outside 2..64, a length other than the side's, bits
            set past the last cell, or a cell without a candidate (its column is the column of
            the character holding the cell's first bit).

    >>> read_marks_link("sk2.lg")
    (2, [[1], [2], [2], [1]])
    """
    match = _FORM.fullmatch(text.strip())
    if match is None:
        return None
    side, body = int(match[1]), match[2]
    start = len(text) - len(text.lstrip()) + match.start(2) + 1  # the column of its first bit
    if not 2 <= side <= MAX_SIDE:
        raise InvalidPuzzle(f"expected a side of 2 to {MAX_SIDE} after 'sk', found {side}",
                            source=source, line=line, column=3)
    count = side ** 3
    size = (count + 7) // 8
    want = (size * 8 + 5) // 6
    if len(body) != want:
        raise InvalidPuzzle(f"expected {want} base64url characters for the candidates of a "
                            f"{side}x{side} grid, found {len(body)}", source=source, line=line,
                            column=start)
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError) as error:  # a last character with bits past the data
        raise InvalidPuzzle(f"expected base64url candidates: {error}", source=source, line=line,
                            column=start) from None
    bits = int.from_bytes(data, "big")
    spare = size * 8 - count
    if bits & ((1 << spare) - 1):
        raise InvalidPuzzle("expected zero bits after the last cell", source=source, line=line,
                            column=start + len(body) - 1)
    bits >>= spare
    cells: list[list[int]] = []
    full = (1 << side) - 1
    for cell in range(side * side):
        mask = (bits >> ((side * side - 1 - cell) * side)) & full
        if not mask:
            raise InvalidPuzzle(f"cell {cell + 1} (r{cell // side + 1}c{cell % side + 1}) has no "
                                "candidate", source=source, line=line,
                                column=start + cell * side // 6)
        cells.append([d for d in range(1, side + 1) if mask >> (side - d) & 1])
    return side, cells
