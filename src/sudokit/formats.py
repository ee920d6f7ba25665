"""PROVISIONAL (to be replaced by the formats work of issue 2): line form only."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import InvalidPuzzle
from .puzzle import Grid, Puzzle

__all__ = ["Record", "read_puzzles", "parse_puzzle", "format_line"]


@dataclass(frozen=True)
class Record:
    source: str
    line: int
    puzzle: Puzzle | None
    error: InvalidPuzzle | None = None
    expected: Grid | None = None


def parse_puzzle(text: str, *, box=None, source: str = "<string>", line: int = 1) -> Puzzle:
    text = text.strip()
    return Puzzle.from_digits([0 if ch in ".0" else int(ch) for ch in text], source=source, line=line)


def read_puzzles(path: str | Path, *, box=None) -> Iterator[Record]:
    with open(path, encoding="utf-8-sig") as fh:
        for number, text in enumerate(fh, 1):
            text = text.strip().split(":")[0]
            if not text or text.startswith("#"):
                continue
            try:
                yield Record(str(path), number, parse_puzzle(text, source=str(path), line=number))
            except InvalidPuzzle as exc:
                yield Record(str(path), number, None, exc)


def format_line(grid: Grid) -> str:
    return "".join(str(d) if d else "." for d in grid)
