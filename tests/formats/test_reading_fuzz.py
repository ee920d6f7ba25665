"""Seeded fuzzing of reading: valid puzzles mixed with junk lines (issue 12, items 9-11).

Junk: stray numbers (``2``, ``33``: never a size header unless what follows fits it), typos in
line and integer forms (``x1``, ``1.5``: invalid at the typo's column, never re-read as
another size), truncated and over-long lines, bad bytes and random printable garbage.

Properties: reading never raises; every valid puzzle comes back (same givens, in order, at its
line or at a size header just above it that fits it); every ``invalid`` record names its line
and a column, or says that the whole line (or grid) is the problem. The default run reads
4,000 junk lines (under a second); ``-m slow`` reads 20,000.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import pytest

from sudokit.formats.text import read_puzzles
from tests.helpers import EXAMPLES

TOP95 = (EXAMPLES / "top95.txt").read_text().split()
SIXTEEN = "".join((EXAMPLES / "16x16.txt").read_text().split()[2:])  # after the 4 / 4 header
KAGGLE = (EXAMPLES / "kaggle10.csv").read_text().splitlines()[1:]
SYMBOLS16 = "123456789ABCDEFG"


@dataclass
class Entry:
    """One line of a fuzz file: a valid puzzle (its givens) or junk (maybe an expected column)."""

    text: str
    givens: tuple[int, ...] | None = None
    typo_column: int | None = None


def _digits(line: str, symbols: str = "123456789ABCDEFG") -> tuple[int, ...]:
    return tuple(symbols.index(ch) + 1 if ch in symbols else 0 for ch in line)


def _valid(rng: random.Random) -> Entry:
    kind = rng.randrange(5)
    if kind == 0:
        line = rng.choice(TOP95)
        return Entry(line, _digits(line))
    if kind == 1:
        return Entry(SIXTEEN, _digits(SIXTEEN, SYMBOLS16))
    if kind == 2:  # integer form, 256 numbers
        givens = _digits(SIXTEEN, SYMBOLS16)
        return Entry(" ".join(map(str, givens)), givens)
    if kind == 3:
        row = rng.choice(KAGGLE)
        return Entry(row, tuple(int(ch) for ch in row.split(",")[0]))
    line = rng.choice(TOP95)
    return Entry(f"{line}:1", _digits(line))


def _typo(rng: random.Random) -> Entry:
    if rng.random() < 0.5:
        line = rng.choice(TOP95)
        i = rng.randrange(len(line))
        return Entry(line[:i] + rng.choice("?!~^&=;") + line[i + 1:], typo_column=i + 1)
    tokens = [str(d) for d in _digits(SIXTEEN, SYMBOLS16)]
    i = rng.randrange(len(tokens))
    tokens[i] = rng.choice(["x1", "1.5", "1O", "l2", "3?", "+4"])
    return Entry(" ".join(tokens), typo_column=sum(len(t) + 1 for t in tokens[:i]) + 1)


def _junk(rng: random.Random) -> Entry:
    kind = rng.randrange(6)
    if kind == 0:  # a stray number
        return Entry(str(rng.choice([2, 3, 4, 5, 7, 9, 16, 25, 33, 36, 49, 64, 65, 99])))
    if kind == 1:
        return _typo(rng)
    if kind == 2:  # truncated or over-long
        line = _valid(rng).text
        if rng.random() < 0.7:  # cut inside the puzzle (a cut CSV or tdoku tail stays valid)
            end = min(line.find(sep) % (len(line) + 1) for sep in ",:")
            return Entry(line[:rng.randrange(1, end)])
        line = rng.choice([rng.choice(TOP95), SIXTEEN])  # (a longer tdoku count stays valid)
        return Entry(line + rng.choice(["1", "..", " 7", "xyz", "12345"]))
    if kind == 3:  # bad bytes, decoded with replacement characters
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
        return Entry(raw.decode("utf-8", errors="replace").replace("\n", " ").replace("\r", " "))
    if kind == 4:  # random printable garbage, some of it CSV- or tdoku-like
        alphabet = "0123456789.........,:|-+# abcxyzABC!?"
        return Entry("".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 120))))
    return Entry(rng.choice(["-----", "", "# comment", "   "]))


def _file(rng: random.Random, n_junk: int) -> list[Entry]:
    entries = [_valid(rng)]
    for _ in range(n_junk):
        entries.append(_junk(rng))
        if rng.random() < 0.6:
            entries.append(_valid(rng))
    return entries


def _check(entries: list[Entry]) -> int:
    """Read one fuzz file and assert the properties; return the number of junk lines."""
    text = "".join(e.text + "\n" for e in entries)
    records = list(read_puzzles(io.StringIO(text), name="fuzz"))
    expected = [(number, e.givens) for number, e in enumerate(entries, 1) if e.givens]
    # a short junk line may be a small puzzle in its own right ("1", "....": 1x1 and 2x2)
    found = [r for r in records if r.puzzle is not None and r.puzzle.geometry.side >= 9]
    assert [r.puzzle.givens for r in found] == [g for _, g in expected], text
    previous = 0
    for record, (number, _) in zip(found, expected):
        assert previous < record.line <= number, (record.line, number, text)
        previous = number
    for record in records:
        if record.error is not None:
            err = record.error
            assert err.line is not None, err
            assert err.column is not None or "whole" in err.reason, err
    for number, entry in enumerate(entries, 1):
        if entry.typo_column is not None:
            located = [(r.error.line, r.error.column) for r in records if r.error is not None]
            assert (number, entry.typo_column) in located, (number, entry.text, located)
    return sum(1 for e in entries if e.givens is None)


def _fuzz(seed: int, total_junk: int) -> None:
    rng = random.Random(seed)
    done = 0
    while done < total_junk:
        done += _check(_file(rng, rng.randrange(1, 12)))


def test_reading_mixed_junk_loses_no_puzzle_and_locates_every_error() -> None:
    _fuzz(12, 4_000)


@pytest.mark.slow
def test_reading_mixed_junk_twenty_thousand_lines() -> None:
    _fuzz(2026, 20_000)


@pytest.mark.parametrize(("junk", "column"), [("2", 1), ("33", 1), ("7", 1), ("  64", 3)])
def test_stray_number_is_one_invalid_record_and_the_next_puzzle_is_read(junk: str,
                                                                         column: int) -> None:
    text = f"{junk}\n{TOP95[0]}\n{TOP95[1]}\n"
    records = list(read_puzzles(io.StringIO(text), name="f"))
    assert [(r.line, r.puzzle is not None) for r in records] == [(1, False), (2, True), (3, True)]
    assert records[0].error.column == column and "number alone" in records[0].error.reason


def test_size_header_that_fits_is_still_a_header() -> None:
    records = list(read_puzzles(io.StringIO(f"9\n{TOP95[0]}\n3\n3\n{TOP95[1]}\n")))
    assert [(r.line, r.puzzle.geometry.side) for r in records] == [(1, 9), (3, 9)]


@pytest.mark.parametrize("typo", ["x1", "1.5"])
def test_typo_in_integer_form_is_invalid_at_its_column(typo: str) -> None:
    tokens = [str(d) for d in _digits(SIXTEEN, SYMBOLS16)]
    tokens[10] = typo
    (record,) = read_puzzles(io.StringIO(" ".join(tokens) + "\n"), name="f")
    column = sum(len(t) + 1 for t in tokens[:10]) + 1
    assert record.puzzle is None and (record.error.line, record.error.column) == (1, column)
    assert f"found {typo!r}" in record.error.reason


def test_wrong_cell_count_points_at_the_extra_cell_or_the_end() -> None:
    short, long = TOP95[0][:80], TOP95[0] + "12"
    errors = [r.error for r in read_puzzles(io.StringIO(f"{short}\n{long}\n"), box=(3, 3))]
    assert (errors[0].column, errors[1].column) == (81, 82)
    assert "1 cell(s) short" in errors[0].reason and "cell 82 and after" in errors[1].reason
    (unsized,) = read_puzzles(io.StringIO(short + "\n"))
    assert unsized.error.column == 1 and "whole line" in unsized.error.reason
    assert "1 fewer than 81 (9x9)" in unsized.error.reason
