"""Files of f-puzzles and SudokuPad data: JSON documents over any number of lines, and lines
of links or compressed data, read into records (one per puzzle, bad input as records with an
error that says where).

A line is f-puzzles JSON or a link or payload that :func:`sudokit.formats.sudokupad.split_link`
recognises: f-puzzles data is read by :mod:`sudokit.formats.fpuzzles` (and written back in its
form), SudokuPad's own ``scl``/``ctc`` data by :mod:`sudokit.formats.sudokupad` and
:mod:`sudokit.formats.scl` (written back in the line form). A JSON document
may span lines: the lines are read up to where its brackets close (at most 4 MiB). A line may
also be the board's link form of a pencil-mark puzzle (``sk9.`` and 123 characters,
:mod:`sudokit.formats.marklink`), read on the side's usual grid.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator, Iterator

from ..errors import InvalidPuzzle
from ..model.geometry import Geometry
from .bounded import MAX_DECODED, JSONRefused, JsonValue, json_decode, json_value
from .fpuzzles import KeyLocator, decode_fpuzzles, located_puzzle
from .lines import FPuzzlesForm, LineStream, Record, Style
from .marklink import is_marks_link, read_marks_link
from .sudokupad import is_link_line, link_puzzle, split_link
from .sukaku import marks_puzzle

__all__ = ["is_data_line", "read_fpuzzles"]

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


_Rest = Callable[[LineStream, str, int], Iterator[Record]]
"""How the lines after f-puzzles data are read: ``rest(stream, head, number)`` gives the
records of line ``head`` (file line ``number``) and of the rest of ``stream``."""


def is_data_line(text: str) -> bool:
    """Whether a stripped line is read here: f-puzzles or SudokuPad data
    (:func:`~sudokit.formats.sudokupad.is_link_line`) or the board's pencil-mark link form
    (:func:`~sudokit.formats.marklink.is_marks_link`)."""
    return is_link_line(text) or is_marks_link(text)


def read_fpuzzles(stream: LineStream, source: str, rest: _Rest | None = None,
                  first: int = 1) -> Iterator[Record]:
    """Records of a file of f-puzzles data: JSON documents (an object, or an array of
    objects, over any number of lines), or lines of JSON objects, links or compressed data
    (``#`` comment lines and blank lines skipped). Bad input comes as records with an error;
    a document that does not decode is one error and the reading goes on at its next line.

    Args:
        stream: the text, read from its current line, which is file line ``first``.
        rest: where a line that is no f-puzzles data is read, with the comment and directive
            lines just before it (``# variant:`` lines hold there) and all the lines after it
            (None: each such line is one error record).
    """
    number, held = first - 1, []
    while text := stream.readline():
        number += 1
        line = text.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):  # kept for the general reader (directives)
            held.append(text)
            continue
        if rest is not None and not is_data_line(line):
            yield from rest(stream, "".join(held) + text, number - len(held))
            return
        held.clear()
        if line[:1] in ("{", "["):
            stream, number = yield from _json_line(stream, text, source, number)
        else:
            yield _compressed(line, source, number)


def _json_line(stream: LineStream, text: str, source: str,
               number: int) -> Generator[Record, None, tuple[LineStream, int]]:
    """The records of a JSON document starting on line ``number`` (``text``): the line, or
    when it ends inside the value, the lines up to where its brackets close (at most 4 MiB);
    returns the stream of the lines after the document and the number of its last line. A
    document that does not decode is one error; reading goes on at the line of the error."""
    line = text.strip().lstrip("\ufeff")
    try:
        yield from _records(line, source, number, _items(line))
        return stream, number
    except JSONRefused as exc:
        yield _json_error(exc, source, number, len(text) - len(text.lstrip()))
        return stream, number
    except json.JSONDecodeError as exc:
        if exc.pos < len(line):  # wrong within the line: no document over several lines
            yield _json_error(exc, source, number, len(text) - len(text.lstrip()))
            return stream, number
    lines = _document_lines(line, stream)
    whole = "".join(lines)
    try:
        _, end = json_decode(whole)
    except json.JSONDecodeError as exc:
        yield _json_error(exc, source, number, 0)
        used = max(exc.lineno - 1, 1)  # the lines before the error's (at least the first)
    else:
        yield from _records(whole[:end], source, number, _items(whole[:end]))
        used = whole.count("\n", 0, end) + 1
    return _Chained(lines[used:], stream), number + used - 1


def _json_error(exc: json.JSONDecodeError, source: str, line: int, indent: int) -> Record:
    """The record of JSON that does not decode, at the place of the error."""
    return Record(source, line, None, InvalidPuzzle(
        f"expected f-puzzles JSON: {exc.msg}", source=source, line=line + exc.lineno - 1,
        column=exc.colno + (indent if exc.lineno == 1 else 0)))


def _document_lines(first: str, stream: LineStream) -> list[str]:
    """The first line of a document over several lines and the lines after it, up to the
    one where its arrays and objects close, or 4 MiB, or the end of the stream."""
    lines, size = [first + "\n"], len(first)
    depth = _depth(first)
    while depth > 0 and size < MAX_DECODED and (text := stream.readline()):
        lines.append(text)
        size += len(text)
        depth += _depth(text)
    return lines


def _depth(text: str) -> int:
    """Brackets a line opens minus those it closes (strings skipped)."""
    bare = _STRING.sub("", text)
    return bare.count("{") + bare.count("[") - bare.count("}") - bare.count("]")


class _Chained:
    """Lines read ahead, then the rest of a stream (what :func:`read_fpuzzles` reads on)."""

    def __init__(self, lines: list[str], rest: LineStream) -> None:
        self.lines, self.rest = lines[::-1], rest

    def readline(self, size: int = -1) -> str:
        if not self.lines:
            return self.rest.readline(size)
        text = self.lines.pop()
        if 0 <= size < len(text):
            self.lines.append(text[size:])
            return text[:size]
        return text


def _compressed(line: str, source: str, number: int) -> Record:
    """The record of a line of compressed data or a link: f-puzzles data (written back in its
    form), SudokuPad's own data (written back in the line form), or the board's pencil-mark
    link form (the puzzle's givens and given candidates on the side's usual grid)."""
    try:
        marks = read_marks_link(line, source, number)
        if marks is not None:
            side, cells = marks
            return Record(source, number, marks_puzzle(cells, Geometry.for_side(side),
                                                       source=source, line=number))
        link = split_link(line)
        if link is not None and link.kind != "fpuzzles":
            puzzle, expected = link_puzzle(link)
            return Record(source, number, puzzle, expected=expected)
        data, prefix = decode_fpuzzles(line)
        puzzle, expected = located_puzzle(data, source, number, compressed=True)
    except InvalidPuzzle as exc:
        return Record(source, number, None, exc.located(source=source, line=number))
    return Record(source, number, puzzle, expected=expected,
                  style=Style(fpuzzles=FPuzzlesForm(data, prefix)))


def _items(text: str) -> list[tuple[JsonValue, int, int]]:
    """The objects of a JSON document (one object, or an array of them) with the span of
    each in ``text``.

    Raises:
        json.JSONDecodeError: the text is no JSON.
    """
    at = len(text) - len(text.lstrip())
    if not text.startswith("[", at):
        value, end = json_decode(text, at)
        if text[end:].strip():
            raise json.JSONDecodeError("extra data after the object", text, end)
        return [(value, at, end)]
    json_value(text)  # the whole array is valid: its items decode one by one below
    found: list[tuple[JsonValue, int, int]] = []
    at += 1
    while True:
        while text[at] in " \t\r\n,":
            at += 1
        if text[at] == "]":
            return found
        value, end = json_decode(text, at, nesting_checked=True)
        found.append((value, at, end))
        at = end


def _records(text: str, source: str, line: int,
             items: list[tuple[JsonValue, int, int]]) -> Iterator[Record]:
    """A record per object of :func:`_items` (already decoded: each is parsed once)."""
    for item, start, end in items:
        where = KeyLocator(text, line, False, start, end)
        at = where(None)["line"]
        try:
            puzzle, expected = located_puzzle(text, source, line, False, item, where)
        except InvalidPuzzle as exc:
            yield Record(source, at, None, exc)
            continue
        yield Record(source, at, puzzle, expected=expected,
                     style=Style(fpuzzles=FPuzzlesForm(text[start:end], "")))
