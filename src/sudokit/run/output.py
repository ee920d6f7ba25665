"""Inputs and output records of ``sudokit solve``: the library side of the command line.

Resolves each INPUT (a file, ``-`` for stdin, or a literal puzzle) into a stream of records, and
writes each batch outcome as one record in line, grid or JSON-lines form.

Importing this module imports neither NumPy nor the readers (the command line needs
:class:`OutputFormat` and :func:`parse_option` for ``--help`` and option parsing): they are
imported by the functions that use them.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError, InvalidOption, InvalidPuzzle, OutputIsInputError

if TYPE_CHECKING:
    from ..formats.text import Record
    from ..model.puzzle import Puzzle
    from ..model.variants import VariantLike
    from .batch import RecordResult

__all__ = [
    "CALL_KEYWORDS",
    "InputError",
    "input_text",
    "OutputFormat",
    "OutputIsInputError",
    "check_inputs",
    "check_outputs",
    "check_stdout",
    "format_outcome",
    "names_file",
    "input_kind",
    "read_input",
    "parse_option",
    "pick_puzzle",
    "read_inputs",
    "solution_grid",
    "stderr_message",
]


_FILE_SUFFIXES = frozenset({".txt", ".csv", ".sdk", ".sdm", ".ss", ".dat", ".json", ".jsonl"})


class OutputFormat(str, Enum):
    """How ``sudokit solve`` writes each record."""

    LINE = "line"
    GRID = "grid"
    JSONL = "jsonl"


def _safely(test: Callable[[], bool]) -> bool:
    """Run a path test (``is_file``, ``is_dir``, ``exists``); an OSError means "not a path".

    A puzzle typed on the command line can be longer than a file name may be (a 16x16 has 256
    characters: ``OSError: File name too long``); it is then text, not a path.
    """
    try:
        return test()
    except OSError:
        return False


def names_file(text: str) -> bool:
    """Return True when ``text`` is the path of an existing file (never raises)."""
    return text != "-" and _safely(Path(text).is_file)


def _check_input(text: str) -> None:
    path = Path(text)
    if text == "-":
        return
    if _safely(path.is_dir):
        raise InputError(f"{text}: is a directory, expected a puzzle file")
    exists = _safely(path.exists)
    if exists and not os.access(path, os.R_OK):
        raise InputError(f"{text}: permission denied")
    if not exists and "://" not in text and (  # a link (f-puzzles, SudokuPad) is a puzzle
            "/" in text or "\\" in text or path.suffix.lower() in _FILE_SUFFIXES):
        raise InputError(f"{text}: no such file")


def check_inputs(inputs: Sequence[str]) -> None:
    """Check every INPUT before reading any (see :func:`read_inputs`).

    Raises:
        InputError: a directory, an unreadable file, or a path that names no file.
    """
    for text in inputs:
        _check_input(text)


def _identity(path: str | Path | int) -> tuple[int, int] | None:
    """``(st_dev, st_ino)`` of an existing regular file (links followed) or of an open
    descriptor on one; None otherwise (no file, a pipe, a terminal, ``/dev/null``)."""
    try:
        info = os.fstat(path) if isinstance(path, int) else os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def _stdin_identity() -> tuple[int, int] | None:
    try:
        return _identity(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):  # no stdin, or a stream without a descriptor
        return None


def check_outputs(inputs: Sequence[str], *outputs: Path | str | None) -> None:
    """Refuse outputs that would overwrite an input, before anything is opened: an output
    that is an INPUT file (the same file also through a symbolic or hard link: same device and
    inode), that is standard input redirected from a file (``< F``, for an INPUT ``-``), or two
    outputs that are one file.

    Args:
        inputs: the INPUTs (files, ``-`` for stdin, literal puzzles); none: stdin.
        outputs: the output paths (``--output``, ``--grid-output``); None for one not given.

    Raises:
        OutputIsInputError: naming both paths.
    """
    sources: dict[tuple[int, int], str] = {}
    for text in inputs or ["-"]:
        found = _stdin_identity() if text == "-" else _identity(text) if _safely(
            Path(text).exists) else None
        if found is not None:
            sources.setdefault(found, "standard input" if text == "-" else f"INPUT {text}")
    seen: dict[object, str] = {}
    for path in (p for p in outputs if p is not None):
        found = _identity(path)
        if found in sources:
            raise OutputIsInputError(f"{path}: the output is {sources[found]}: writing it would "
                                     "destroy the puzzles being read; choose another path")
        key = found or os.path.abspath(path)
        if key in seen:
            raise OutputIsInputError(f"{path}: --output and --grid-output are one file; "
                                     "choose two paths")
        seen[key] = seen[os.path.abspath(path)] = str(path)


def _stdout_identity() -> tuple[int, int] | None:
    try:
        return _identity(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # an in-memory stream (tests), no stdout
        return None


def check_stdout(inputs: Sequence[str]) -> None:
    """Refuse to read an input that standard output writes (``sudokit solve f >> f``: the run
    would read its own records, without end), as GNU ``cat`` does: the same device and inode,
    through any link, also standard input redirected from that file (``< f >> f``).

    Raises:
        OutputIsInputError: naming the input.
    """
    out = _stdout_identity()
    if out is None:
        return
    for text in inputs or ["-"]:
        found = _stdin_identity() if text == "-" else _identity(text) if _safely(
            Path(text).exists) else None
        if found == out:
            name = "standard input" if text == "-" else text
            raise OutputIsInputError(f"{name}: input file is output file (standard output "
                                     "writes the file being read); write to another file")


def read_inputs(inputs: Sequence[str], *, box: str | None = None,
                alphabet: str | None = None, skip_header: bool = False,
                variant: VariantLike = "standard", checked: bool = False) -> Iterator[Record]:
    """Yield the records of every input in turn, lazily (each by :func:`read_input`).

    Each input is an existing file, ``-`` (standard input, read as UTF-8 with an optional
    byte-order mark) or a literal puzzle (source ``"<argument N>"``). ``skip_header`` skips the
    first line of each file and of standard input (a free-text title). ``variant`` (a
    :class:`~sudokit.model.constraints.Variant` or its name) holds before a ``# variant:`` directive.
    ``checked``: the inputs were checked already (:func:`check_inputs`, once per command).

    Raises:
        InputError: an input is a directory or an unreadable file, or looks like a path (a
            separator, or a suffix such as ``.txt`` or ``.csv``) but names no file: checked for
            every input before the first record; or a file fails while being read.
    """
    if not checked:
        check_inputs(inputs)
    for number, text in enumerate(inputs, 1):
        yield from read_input(text, number, box=box, alphabet=alphabet,
                              skip_header=skip_header, variant=variant)


def input_kind(text: str) -> str:
    """What an INPUT argument is: ``"stdin"`` (``-``), ``"file"`` (:func:`names_file`) or
    ``"literal"`` (a puzzle written in the argument)."""
    if text == "-":
        return "stdin"
    return "file" if names_file(text) else "literal"


def input_text(argument: str) -> tuple[str, str]:
    """The whole text of a file INPUT argument (``-``: standard input) and its source name,
    for commands that read one document (``serve``, ``compare``, ``cnf``); :func:`read_input`
    reads INPUTs as records.

    Raises:
        InputError: a literal (no such file), or a file that cannot be read.
        InvalidPuzzle: the data is not UTF-8 text (the error names the line and column of the
            first bad byte).
    """
    from ..errors import InvalidPuzzle

    kind = input_kind(argument)
    if kind == "literal":
        raise InputError(f"no such file: {argument}")
    try:
        data = sys.stdin.buffer.read() if kind == "stdin" else Path(argument).read_bytes()
    except OSError as exc:
        raise InputError(f"{argument}: cannot be read: {exc.strerror or exc}") from exc
    source = "<stdin>" if kind == "stdin" else argument
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InvalidPuzzle(f"expected UTF-8 text, found byte 0x{data[exc.start]:02x}",
                            source=source, line=line, column=column) from None


def read_input(text: str, number: int = 1, *, box: str | None = None,
               alphabet: str | None = None, skip_header: bool = False,
               variant: VariantLike = "standard") -> Iterator[Record]:
    """The records of one INPUT argument (see :func:`input_kind`), lazily: the one place an
    INPUT is read as records (``number``: its position among the arguments, naming a literal
    ``<argument N>``; ``skip_header`` skips the first line of a file or of standard input).

    Raises:
        InputError: a file fails while being read.
    """
    from ..formats.text import read_puzzles

    kind = input_kind(text)
    if kind == "stdin":
        from ..formats.encodings import utf8_stream

        stream = io.TextIOWrapper(utf8_stream(sys.stdin.buffer), encoding="utf-8-sig",
                                  errors="replace")
        yield from read_puzzles(stream, box=box, alphabet=alphabet, name="<stdin>",
                                skip_header=skip_header, variant=variant)
    elif kind == "file":
        try:
            yield from read_puzzles(text, box=box, alphabet=alphabet,
                                    skip_header=skip_header, variant=variant)
        except OSError as exc:
            raise InputError(f"{text}: cannot be read: {exc.strerror or exc}") from exc
    else:
        yield from read_puzzles(io.StringIO(text), box=box, alphabet=alphabet,
                                name=f"<argument {number}>", variant=variant)


def pick_puzzle(records: Iterable[Record], source: str, index: int | None = None) -> Puzzle:
    """Return the puzzle of an input holding exactly one, or its ``index``-th record (1-based,
    counting bad records as ``sudokit solve`` prints them): the PUZZLE of ``show``, ``cnf`` and
    ``trace``.

    Args:
        records: the input's records, e.g. ``read_inputs([argument])``; read to the end when
            ``index`` is None (to count them), else up to the chosen one.
        source: the input's name in messages (``-`` is ``<stdin>``).
        index: which record to take; None: there must be exactly one.

    Raises:
        InvalidPuzzle: no record; several and no ``index`` (the message suggests ``--index``);
            fewer than ``index``; or the chosen record's own located error.
    """
    source = "<stdin>" if source == "-" else source
    record, count = None, 0
    for count, record in enumerate(records, 1):
        if count == index:
            break
    if record is None:
        raise InvalidPuzzle("expected a puzzle, found none", source=source)
    if index is not None and count < index:
        raise InvalidPuzzle(f"--index {index}: the input holds only {count} "
                            f"puzzle{'' if count == 1 else 's'}", source=source)
    if index is None and count > 1:
        raise InvalidPuzzle(f"expected one puzzle, found {count}: choose one with --index K "
                            f"(1 to {count})", source=source)
    if record.error is not None:
        raise record.error
    assert record.puzzle is not None
    return record.puzzle


def _json(outcome: RecordResult) -> str:
    from ..formats.text import format_line

    record, result = outcome.record, outcome.result
    solution = outcome.solution
    return json.dumps({
        "source": record.source,
        "line": record.line,
        "status": outcome.label.word,
        "solution": format_line(solution, None, record.style) if solution else None,
        "method": result.method if result else None,
        "seconds": round(result.seconds, 6) if result else None,
        "stats": result.stats.as_dict() if result else None,
        "solutions_found": result.count if result else None,
        "error": outcome.error,
        "variant": _variant_text(record.puzzle) if record.puzzle else None,
    })


def _variant_text(puzzle: Puzzle) -> str:
    """The variant name of a puzzle (``"killer+diagonal"``, ``"samurai"``)."""
    from ..model.variants import spec_of_geometry

    return spec_of_geometry(puzzle.geometry).text


def _status_line(outcome: RecordResult) -> str:
    """A line that cannot be read as a solution: status word, where, why."""
    from ..model.result import Status

    record = outcome.record
    if outcome.label is Status.INVALID and record.error is not None:
        return f"invalid {outcome.error}"
    reason = f" {outcome.error}" if outcome.error else ""
    return f"{outcome.label.word} {record.source}:{record.line}{reason}"


def format_outcome(outcome: RecordResult, fmt: OutputFormat) -> str:
    """One output record (ending in a newline) in ``fmt``.

    Line form writes the solution in the input's own line form, or, when the status is not
    ``solved``, a status line such as ``unsolvable top95.txt:3 digit 5 is given twice in row 1``.
    Grid form writes a ``#`` header line, the puzzle and its solution side by side, and a blank
    line. JSON lines hold source, line, status, solution, method, seconds, stats,
    solutions_found, error and variant (the name of the rules the puzzle was read under:
    ``"diagonal"``, ``"killer"``, ``"samurai"`` ...).
    """
    from ..formats.text import format_line, format_side_by_side
    from ..model.result import Status

    if fmt is OutputFormat.JSONL:
        return _json(outcome) + "\n"
    if fmt is OutputFormat.LINE:
        if outcome.label is Status.SOLVED and outcome.solution:
            return format_line(outcome.solution, None, outcome.record.style) + "\n"
        return _status_line(outcome) + "\n"
    header = "# " + _status_line(outcome) + "\n"
    puzzle = outcome.record.puzzle
    if puzzle is None:
        return header + "\n"
    return header + format_side_by_side(puzzle, outcome.solution) + "\n"


def stderr_message(outcome: RecordResult) -> str | None:
    """The line ``sudokit solve`` prints on stderr for a record, or None: an invalid record's
    error, or a solved record whose solution or count differs from the file's."""
    from ..model.result import Status

    if not outcome.error or outcome.label not in (Status.INVALID, Status.SOLVED, Status.MULTIPLE):
        return None
    if outcome.label is Status.INVALID:
        return f"sudokit: {outcome.error}"
    return f"sudokit: {outcome.record.source}:{outcome.record.line}:1: {outcome.error}"


def solution_grid(outcome: RecordResult) -> str:
    """The ``--grid-output`` record: a ``#`` status header, the puzzle drawn as a grid, and,
    when solved, a ``# solution`` line and the solution drawn the same way, then a blank line
    (for plain grids the file reads back as puzzles: each puzzle, then its solution; the
    drawings of jigsaw, killer, even-odd and multi-grid puzzles are for reading only)."""
    from ..formats.text import format_grid
    from ..model.result import Status

    header = "# " + _status_line(outcome) + "\n"
    record = outcome.record
    if record.puzzle is None:
        return header + "\n"
    geometry, style = record.puzzle.geometry, record.style
    text = header + format_grid(record.puzzle.givens, geometry, style)
    if outcome.label is Status.SOLVED and outcome.solution:
        text += "# solution\n" + format_grid(outcome.solution, geometry, style)
    return text + "\n"


CALL_KEYWORDS = frozenset({
    "backend", "box", "count_limit", "dask", "givens", "jobs", "limit", "method", "methods", "n",
    "name", "node_limit", "problem", "puzzle", "puzzles", "records", "request", "self",
    "symmetry", "time_limit", "trace", "variant"})
"""Names no method option may have: the other parameters of the functions that pass method
options on as keywords (``solve``, ``solve_magic``, ``compare_magic``, ``get_solver``, a
solver's constructor, ...). Given as ``-o``, such a key would land on that parameter (or be
given twice), so :func:`parse_option` refuses it; tests/run/test_option_keys.py checks the set
against every such function and every method's declared options."""


def parse_option(text: str) -> tuple[str, str]:
    """Parse ``KEY=VALUE``; the value stays text: the method converts it to the type its
    option declares (see :class:`sudokit.solvers.base.Solver`), so ``cmd=true`` stays a command.

    >>> parse_option("select=mrv"), parse_option("restarts=3")
    (('select', 'mrv'), ('restarts', '3'))

    Raises:
        InvalidOption: no ``=``, an empty key, or a key of :data:`CALL_KEYWORDS`.
    """
    key, sep, value = text.partition("=")
    name = key.strip().replace("-", "_")
    if not sep or not name:
        raise InvalidOption(f"expected an option as KEY=VALUE (e.g. select=mrv), got {text!r}")
    if name in CALL_KEYWORDS:
        raise InvalidOption(f"{name!r} is not a method option (limits and counts are the "
                            f"command's own flags, e.g. --time-limit; a method option is one "
                            f"the method declares, e.g. select=mrv), got {text!r}")
    return name, value.strip()
