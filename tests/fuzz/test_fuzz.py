"""Fuzz every command (see :mod:`tests.fuzz.fuzzer`): seeded, bounded.

The default run makes :data:`DEFAULT_CASES` cases per command in this process (a few
milliseconds each, every one with its peak memory checked) and a few as subprocesses; ``-m
slow`` makes :data:`SLOW_CASES` per command, one in 50 as a subprocess. Any failure fails; the
defects the fuzzer first found are kept as regression cases in :data:`FOUND`.
"""

from __future__ import annotations

from unittest import mock

import pytest

from tests.fuzz.fuzzer import _misplaced, cases, fuzz, run_case, run_subprocess_case
from tests.fuzz.inputs import COMMANDS, Case

DEFAULT_CASES = 200
SLOW_CASES = 2000


def _unexpected(counts) -> list[str]:
    return [f"{label} x{n}: {detail}" for (label, detail), n in sorted(counts.items())
            if label != "ok"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_fuzz_every_command(command: str) -> None:
    counts = fuzz(command, DEFAULT_CASES, seed=1)
    assert not _unexpected(counts)


@pytest.mark.parametrize("command", ["solve", "sat", "show"])
def test_subprocess_cases(command: str, tmp_path) -> None:
    """The same cases as a whole ``python -m sudokit`` process (its memory as ``ru_maxrss``)."""
    for case in cases(command, 2, seed=5):
        outcome = run_subprocess_case(case, tmp_path)
        assert outcome.label == "ok", outcome.detail
        assert outcome.process > 0


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_fuzz_every_command_thousands(command: str) -> None:
    counts = fuzz(command, SLOW_CASES, seed=2, subprocess_every=50)
    assert not _unexpected(counts)


def _case(command: str, data: bytes, *extra: str) -> Case:
    return Case(command, (command, "{in}", *extra), data, (), "hand-made")


P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


FOUND = {
    "an integer token of 5,000 digits": _case("solve", (" ".join(["0"] * 80 + ["1" * 5000])
                                                        + f"\n{P}\n").encode()),
    "JSON nested 100,000 deep": _case("solve", b"[" * 100_000 + f"\n{P}\n".encode()),
    "generate --seed -1": Case("generate", ("generate", "--seed", "-1"), b"", (), "hand-made"),
    "rate of a puzzle with no solution": _case("rate", f"# variant: diagonal\n{P}\n".encode()),
    "explain of a puzzle with no solution": _case("explain", f"# variant: diagonal\n{P}\n"
                                                  .encode()),
    "magic givens with a row missing": Case("magic", ("magic", "2", "--givens", "{in}"),
                                            b"1 1\n", (), "hand-made"),
    "magic givens with a row too many": Case("magic", ("magic", "2", "--givens", "{in}"),
                                             b"1 .\n. .\n4 4\n", (), "hand-made"),
    "magic givens not UTF-8": Case("magic", ("magic", "3", "--givens", "{in}"),
                                   b"1 . .\n. \xff .\n. . .\n", (), "hand-made"),
}
"""Inputs that once gave a traceback or a message about a place without its column (each now
one clear error naming FILE:LINE:COLUMN, or one invalid record)."""


@pytest.mark.parametrize("name", sorted(FOUND))
def test_defects_found_stay_fixed(name: str, tmp_path) -> None:
    outcome = run_case(FOUND[name], tmp_path)
    assert outcome.label == "ok", f"{name}: {outcome.detail}"


def test_the_fuzzer_finds_what_it_counts(tmp_path) -> None:
    """The classes are real: a lost intact puzzle, a traceback, a message without its column
    and a peak over the cap are each seen as such."""
    lost = Case("show", ("show", "{in}", "--index", "1"), f"{P}\n".encode(), ("9" * 81,), "")
    assert run_case(lost, tmp_path).label == "lost"
    methods = Case("methods", ("methods",), b"", (), "")
    with mock.patch("sudokit.registry.methods", side_effect=ZeroDivisionError("boom")):
        outcome = run_case(methods, tmp_path)
    assert (outcome.label, outcome.detail) == ("traceback", "ZeroDivisionError: boom")
    with mock.patch("tests.fuzz.fuzzer.memory_cap", return_value=-1):
        assert run_case(methods, tmp_path).label == "memory"
    path = str(tmp_path / "input.txt")
    assert _misplaced(f"invalid {path}:3: expected a digit\nsudokit: {path}:2:7: bad", path) == [
        f"invalid {path}:3: expected a digit"]
    assert not _misplaced(f'{{"error": "{path}:4:1: no solution"}}\n{path} is empty', path)
