"""Help texts and argument readers shared by the command modules."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, ClassVar

import typer

METHOD_HELP = "Method name (see 'sudokit methods'); default: the fastest available."
PUZZLE_HELP = "A puzzle (any form), a puzzle file or '-' for stdin."
INDEX_HELP = ("Take the K-th puzzle of the input (1-based, bad records counted as 'solve' "
              "prints them); default: the input must hold exactly one puzzle.")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so a run stops as on Ctrl-C."""


@contextmanager
def stopped_by_sigterm() -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` while a command works (default handling after),
    so ``solve``, ``rate`` and ``generate`` stop as on Ctrl-C: records written so far are
    complete, the summary is printed, the exit code is 143."""
    def handler(signum: int, frame: Any) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)




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


def one_puzzle(argument: str, *, index: int | None, box: str | None,
               alphabet: str | None = None,
               variant: VariantChoice = VariantChoice.STANDARD) -> Any:
    """The puzzle of a PUZZLE argument (see :func:`sudokit.run.output.pick_puzzle`), in
    ``variant`` unless a ``# variant:`` line of its file says otherwise."""
    from ..run.output import pick_puzzle, read_inputs

    records = read_inputs([argument], box=box, alphabet=alphabet, variant=variant.value)
    return pick_puzzle(records, argument, index)


def read_argument(argument: str) -> tuple[str, str]:
    """Return the text of a file argument ('-' is stdin) and its source name.

    Raises:
        typer.BadParameter: not a readable file.
        InvalidPuzzle: the file is not UTF-8 text (the error names the line and column of the
            first bad byte).
    """
    from ..errors import InvalidPuzzle
    from ..run.output import names_file

    if argument == "-":
        data, source = sys.stdin.buffer.read(), "<stdin>"
    elif names_file(argument):
        data, source = Path(argument).read_bytes(), argument
    else:
        raise typer.BadParameter(f"no such file: {argument}")
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InvalidPuzzle(f"expected UTF-8 text, found byte 0x{data[exc.start]:02x}",
                            source=source, line=line, column=column) from None
