"""Help texts, argument readers and checkers shared by the command modules.

Every user mistake is found here, where the argument is read, and becomes one usage error
(``typer.BadParameter``, exit code 2) or a :class:`~sudokit.errors.SudokuError` (one stderr
line, see :func:`sudokit.cli.main`): output paths (:func:`output_path`, :func:`image_path`,
:mod:`~sudokit.cli._writing` opens them), puzzle arguments (:func:`puzzle_records`, the one reader of files, ``-``
and literal puzzles), ``--dask`` addresses and ``--jobs``.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, ClassVar

import typer

if TYPE_CHECKING:
    from ..formats.lines import Record
    from ..model.puzzle import Puzzle
    from ..model.variants import VariantLike

METHOD_HELP = "Method name (see 'sudokit methods'); default: the fastest available."
PUZZLE_HELP = "A puzzle (any form), a puzzle file or '-' for stdin."
INDEX_HELP = ("Take the K-th puzzle of the input (1-based, bad records counted as 'solve' "
              "prints them); default: the input must hold exactly one puzzle.")
JOBS_PER_CORE = 4
"""``--jobs`` is capped at this many workers per core (and at the number of tasks)."""
RESEND_SECONDS = 0.01
"""A SIGTERM that lands where Python cannot raise is sent again after this many seconds."""
JOBS_HELP = (f"Parallel workers (at most {JOBS_PER_CORE} per core and never more than the "
             "work).")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so a run stops as on Ctrl-C."""


@contextmanager
def stopped_by_sigterm(exits: bool = False) -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` while a command works (default handling after),
    so ``solve``, ``rate`` and ``generate`` stop as on Ctrl-C: records written so far are
    complete, the summary is printed, the exit code is 143.

    Args:
        exits: a Terminated that leaves the block (SIGTERM in start-up, before the command
            catches it) ends the command with exit code 143 and one line (Click would make it
            130, as for Ctrl-C).

    Raises:
        typer.Exit: 143, with ``exits``, for a Terminated leaving the block.
    """
    received = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal received
        received = True
        raise Terminated

    hook = sys.unraisablehook

    def unraisable(info: sys.UnraisableHookArgs) -> None:
        # raised where Python cannot raise (a fork or finaliser callback: it would be printed
        # and lost; a handler run here would raise inside this hook, also lost): the signal is
        # sent again from a thread, to land in the command's own code once the callback is over
        if isinstance(info.exc_value, Terminated):
            threading.Timer(RESEND_SECONDS, os.kill, (os.getpid(), signal.SIGTERM)).start()
            return
        hook(info)

    previous = signal.signal(signal.SIGTERM, handler)
    sys.unraisablehook = unraisable
    try:
        yield
    except Terminated:
        if not exits:
            raise
        print("sudokit: terminated before the first record", file=sys.stderr)
        raise typer.Exit(143) from None
    except Exception as exc:
        # a Terminated caught by library code (Numba swallows it while compiling) leaves that
        # code broken: what it raises next is the stop, not a bug of its own
        if not received:
            raise
        if not exits:
            raise Terminated from exc
        print("sudokit: terminated before the first record", file=sys.stderr)
        raise typer.Exit(143) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
        sys.unraisablehook = hook


def jobs_cap(jobs: int, work: int | None = None) -> int:
    """``jobs`` capped at :data:`JOBS_PER_CORE` per core and at ``work`` (tasks), at least 1."""
    cap = JOBS_PER_CORE * (os.cpu_count() or 1)
    return max(1, min(jobs, cap, work if work is not None else jobs))


def output_path(text: str) -> Path:
    """A path to write (``--output``, ``--data``...), checked when parsed: its directory
    exists and may be written, and it is not a directory.

    Raises:
        typer.BadParameter: the path cannot be written (the message says why).
    """
    path = Path(text)
    parent = path.parent
    try:
        if path.is_dir():
            raise typer.BadParameter(f"{text}: is a directory, expected a file name")
        if not parent.is_dir():
            raise typer.BadParameter(f"{text}: no such directory: {parent}")
        writable = os.access(path if path.exists() else parent, os.W_OK)
    except OSError as exc:  # a name too long for the file system, ...
        raise typer.BadParameter(f"{text[:60]}: {exc.strerror or exc}") from None
    if not writable:
        raise typer.BadParameter(f"{text}: permission denied")
    return path


def image_path(text: str) -> Path:
    """An image file to write (``--plot``, ``--png``): :func:`output_path`, and an extension
    Matplotlib writes (png, svg, pdf, ...).

    Raises:
        typer.BadParameter: as :func:`output_path`, or an unknown image extension.
    """
    path = output_path(text)
    from matplotlib.backend_bases import FigureCanvasBase  # only when an image is asked for

    kinds = FigureCanvasBase.get_supported_filetypes()
    if path.suffix.lower().lstrip(".") not in kinds:
        raise typer.BadParameter(f"{text}: expected an image file name ending in "
                                 f"{', '.join('.' + k for k in sorted(kinds))}")
    return path


@contextmanager
def writing(path: Path, hint: str = "") -> Iterator[None]:
    """Map a failure to write ``path`` (disk full, permission, a path that changed since it
    was checked) to one clear error, ``writing PATH: REASON``.

    Args:
        path: the file written inside the block.
        hint: the option naming it (kept for the callers; the message names the path).

    Raises:
        OutputError: an OSError inside the block.
    """
    from ._writing import OutputError

    try:
        yield
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(f"writing {path}: {exc.strerror or exc}") from None


OutputOption = Annotated[Path | None, typer.Option(
    "--output", help="Write the records here instead of stdout.", parser=output_path,
    metavar="FILE")]

_DASK_ADDRESS = re.compile(r"([a-z]+://)?[^\s:/]+:\d{1,5}", re.IGNORECASE)


def dask_address(text: str) -> str:
    """A ``--dask`` value: ``local`` or a scheduler address ``[PROTOCOL://]HOST:PORT``.

    Raises:
        typer.BadParameter: anything else.
    """
    if text != "local" and not _DASK_ADDRESS.fullmatch(text):
        raise typer.BadParameter(f"expected 'local' or a scheduler address HOST:PORT "
                                 f"(e.g. tcp://10.0.0.5:8786), got {text!r}")
    return text


def data_on_terminal(output: Path | None = None) -> bool:
    """Whether the records go to standard output and it is the terminal stderr shows too:
    then the records themselves show the progress and the bad inputs, so neither the live
    counter nor a copy of each record's error is written on stderr."""
    if output is not None or not sys.stdout.isatty():
        return False
    if not sys.stderr.isatty():
        return False
    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno()))
    except (OSError, ValueError):
        return True


def show_progress(output: Path | None = None) -> bool:
    """Whether to show the live counter: stderr is a terminal that is not also showing the
    records (see :func:`data_on_terminal`)."""
    return sys.stderr.isatty() and not data_on_terminal(output)


class VariantChoice(str):
    """A variant name given on the command line, checked when parsed: whole-grid rules
    (``diagonal``, ``hyper``, ``disjoint``, ``anti-knight``, ``anti-king``,
    ``non-consecutive``), puzzle types (``jigsaw``, ``killer``, ``even-odd``) and layouts
    (``samurai``, ``butterfly``, ``sumo``, ``windmill``, ``gattai-8``, ``shogun``, ``sohei``,
    ``clueless-1``, ``clueless-2``), combined with ``+`` (see :mod:`sudokit.model.variants`).
    ``.value`` is the name as typed."""

    STANDARD: ClassVar[VariantChoice]
    DIAGONAL: ClassVar[VariantChoice]

    @property
    def value(self) -> str:
        """The name (a plain str)."""
        return str(self)

    @classmethod
    def parse(cls, text: str) -> VariantChoice:
        """Check a name of any variant (click calls this for ``--variant``).

        Raises:
            typer.BadParameter: not a variant name (the message lists the names).
        """
        from ..errors import InvalidPuzzle
        from ..model.variants import parse_spec

        try:
            parse_spec(str(text))
        except InvalidPuzzle as exc:
            raise typer.BadParameter(exc.reason) from None
        return cls(text)

    @classmethod
    def parse_rules(cls, text: str) -> VariantChoice:
        """Check a name of whole-grid rules only (no type, no layout).

        Raises:
            typer.BadParameter: not such a name.
        """
        from ..model.variants import parse_spec

        if not parse_spec(cls.parse(text)).is_rules_only:
            raise typer.BadParameter(f"expected whole-grid rules (diagonal, hyper, disjoint, "
                                     f"anti-knight, anti-king, non-consecutive, combined with "
                                     f"+), got {text!r}")
        return cls(text)


VariantChoice.STANDARD = VariantChoice("standard")
VariantChoice.DIAGONAL = VariantChoice("diagonal")


def complete_variant(incomplete: str) -> list[str]:
    """Shell completion of ``--variant``: the names starting with the part after the last
    ``+``."""
    from ..model.variants import ALL_NAMES

    head, sep, last = incomplete.rpartition("+")
    return [head + sep + name for name in ALL_NAMES if name.startswith(last.lower())]


VARIANT_HELP = (
    "Rules of the puzzles: standard; diagonal, hyper, disjoint, anti-knight, anti-king, "
    "non-consecutive; jigsaw, killer, even-odd (what a file's second grid or marks mean); "
    "samurai, butterfly, sumo, windmill, gattai-8, shogun, sohei, clueless-1, clueless-2 "
    "(layouts); combine with + (diagonal+anti-knight). A '# variant: NAME' line in a file "
    "changes it for the puzzles after it.")

VariantOption = Annotated[VariantChoice, typer.Option(
    help=VARIANT_HELP, metavar="NAME", parser=VariantChoice.parse,
    autocompletion=complete_variant)]

RulesOption = Annotated[VariantChoice, typer.Option(
    "--variant", help="Rules: standard, or whole-grid rules such as diagonal, hyper or "
    "anti-knight, combined with +.", metavar="NAME", parser=VariantChoice.parse_rules,
    autocompletion=complete_variant)]


_NAME = re.compile(r"[A-Za-z_~][\w.~-]*")


def check_arguments(inputs: Sequence[str], *, box: str | None = None,
                    alphabet: str | None = None, variant: VariantLike = "standard") -> None:
    """Check PUZZLE/INPUT arguments before any is read: every path names a readable file
    (:func:`sudokit.run.output.check_inputs`) that standard output does not write
    (:func:`sudokit.run.output.check_stdout`); an argument that looks like a file name
    (``hello``, ``top95``) and is not a puzzle is a missing file; ``--box`` must fit the
    first puzzle of a file or literal that reads without it.

    Raises:
        InputError: a missing or unreadable file.
        OutputIsInputError: standard output writes an input file.
        typer.BadParameter: ``--box`` does not fit the puzzles.
    """
    import io

    from ..formats.text import read_puzzles
    from ..run.output import InputError, check_inputs, check_stdout, names_file

    check_inputs(inputs)
    check_stdout(inputs)
    for text in inputs:
        if text == "-" or names_file(text):
            continue
        records = list(read_puzzles(io.StringIO(text), variant=variant))
        if _NAME.fullmatch(text) and all(r.puzzle is None for r in records):
            why = f": {records[0].error.reason}" if records and records[0].error else ""
            raise InputError(f"{text}: no such file (and not a puzzle{why})")
    _check_box(inputs, box, alphabet, variant)


def _check_box(inputs: Sequence[str], box: str | None, alphabet: str | None,
               variant: VariantLike) -> None:
    """A ``--box`` that does not fit the first puzzle of the first input (not stdin, which
    is read once) while it reads without the option: one usage error, not one per record."""
    from itertools import islice

    from ..run.output import read_inputs

    first = next((text for text in inputs if text != "-"), None)
    if box is None or first is None:
        return
    with_box = next(islice(read_inputs([first], box=box, alphabet=alphabet,
                                       variant=variant, checked=True), 1), None)
    if with_box is None or with_box.puzzle is not None or with_box.error is None:
        return  # (a record without a puzzle has an error)
    without = next(islice(read_inputs([first], alphabet=alphabet, variant=variant,
                                      checked=True), 1), None)
    if without is not None and without.puzzle is not None:
        side = without.puzzle.geometry
        raise typer.BadParameter(
            f"{box} does not fit {with_box.source}:{with_box.line}, a {side.side}x{side.side} "
            f"puzzle ({side.box_rows}x{side.box_cols} boxes): {with_box.error.reason}",
            param_hint="--box")


def puzzle_records(inputs: Sequence[str], *, box: str | None = None,
                   alphabet: str | None = None, variant: str = "standard",
                   skip_header: bool = False) -> Iterator[Record]:
    """The records of puzzle arguments: files, ``-`` (stdin) or literal puzzles, the same way
    for every command (checked by :func:`check_arguments` first).

    Raises:
        InputError, typer.BadParameter: as :func:`check_arguments`.
    """
    from ..run.output import read_inputs

    value = str(variant)  # a VariantChoice's name as a plain str
    check_arguments(inputs, box=box, alphabet=alphabet, variant=value)
    return read_inputs(inputs, box=box, alphabet=alphabet, variant=value,
                       skip_header=skip_header, checked=True)


def one_puzzle(argument: str, *, index: int | None, box: str | None,
               alphabet: str | None = None,
               variant: VariantChoice = VariantChoice.STANDARD) -> Puzzle:
    """The puzzle of a PUZZLE argument (see :func:`sudokit.run.output.pick_puzzle`), in
    ``variant`` unless a ``# variant:`` line of its file says otherwise."""
    from ..run.output import pick_puzzle

    records = puzzle_records([argument], box=box, alphabet=alphabet, variant=variant)
    return pick_puzzle(records, argument, index)


def read_argument(argument: str) -> tuple[str, str]:
    """Return the text of a file argument ('-' is stdin) and its source name: the one reading
    of a whole INPUT, :func:`sudokit.run.output.input_text`, with a missing file a usage error.

    Raises:
        typer.BadParameter: not a readable file.
        InvalidPuzzle: the file is not UTF-8 text (the error names the line and column of the
            first bad byte).
    """
    from ..run.output import InputError, input_text

    try:
        return input_text(argument)
    except InputError as exc:
        raise typer.BadParameter(str(exc)) from None
