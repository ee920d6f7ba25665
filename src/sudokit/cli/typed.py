"""Puzzles typed at a terminal: ``sudokit solve`` (no INPUT, or ``-``) on an interactive
terminal answers each puzzle as soon as its line (or its last row) is typed, and ends at the
first Ctrl-D.

The batch path reads standard input in large binary blocks, which at a terminal answers
nothing before the end and needs a second Ctrl-D (a block read goes on after the first
end-of-file); here the lines are read one by one from the text stream, each record is solved
on its own, and the method is loaded before the first line is read, so typing time is not
counted as start-up.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from ..run.output import OutputFormat

if TYPE_CHECKING:
    from ..formats.lines import Record
    from ..model.result import Limits
    from ..run.pipeline import Block, SolveRun
    from ..run.request import Request

__all__ = ["solve_typed", "typing_at_terminal"]


def typing_at_terminal(sources: Sequence[str]) -> bool:
    """Whether the only input is standard input and it is an interactive terminal."""
    return list(sources) == ["-"] and sys.stdin.isatty()


def solve_typed(method: str | None, options: Mapping[str, str], limits: Limits,
                count_limit: int, *, box: str | None, alphabet: str | None, fmt: OutputFormat,
                grids: bool, variant: str) -> SolveRun:
    """Start a run over the puzzles typed at the terminal, record by record.

    Returns:
        A :class:`~sudokit.run.pipeline.SolveRun` whose blocks hold one record each; its
        ``ready`` is taken before the first line is read.

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: a bad method or option.
    """
    from ..formats.text import read_puzzles
    from ..run.choice import decide
    from ..run.pipeline import SolveRun

    # one small puzzle at a time
    request = decide(method, options, limits, count_limit, variant, puzzles=1, side=9)
    chosen = request.method
    records = read_puzzles(sys.stdin, box=box, alphabet=alphabet, name="<stdin>",
                           variant=variant)
    return SolveRun(chosen, _Blocks(records, request, fmt, grids), time.perf_counter())


class _Blocks:
    """The blocks of typed records, one per record; ``waited`` is the seconds spent waiting
    for the typist (left out of the solving time of the summary)."""

    def __init__(self, records: Iterator[Record], request: Request, fmt: OutputFormat,
                 grids: bool) -> None:
        self.records, self.request, self.fmt, self.grids = records, request, fmt, grids
        self.waited = 0.0

    def __iter__(self) -> _Blocks:
        return self

    def __next__(self) -> Block:
        from ..run.pipeline import solve_records_block

        start = time.perf_counter()
        record = next(self.records, None)
        self.waited += time.perf_counter() - start
        if record is None:
            raise StopIteration
        return solve_records_block([record], self.request, self.fmt, self.grids)
