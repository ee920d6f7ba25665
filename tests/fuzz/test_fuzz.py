"""Fuzz every command (see :mod:`tests.fuzz.fuzzer`): seeded, bounded.

The default run makes :data:`DEFAULT_CASES` cases per command (one of them as a subprocess under
the memory cap); ``-m slow`` makes :data:`SLOW_CASES` per command. Any failure fails; the
defects the fuzzer first found are kept as regression cases in :data:`FOUND`.
"""

from __future__ import annotations

import pytest

from tests.fuzz.fuzzer import COMMANDS, Case, fuzz, run_case

DEFAULT_CASES = 20
SLOW_CASES = 1000



def _unexpected(counts) -> list[str]:
    return [f"{label} x{n}: {detail}" for (label, detail), n in sorted(counts.items())
            if label != "ok"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_fuzz_every_command(command: str) -> None:
    counts = fuzz(command, DEFAULT_CASES, seed=1, subprocess_every=DEFAULT_CASES)
    assert not _unexpected(counts)


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
}
"""Inputs that once gave a traceback (each now one clear error or one invalid record)."""


@pytest.mark.parametrize("name", sorted(FOUND))
def test_defects_found_stay_fixed(name: str, tmp_path) -> None:
    label, detail = run_case(FOUND[name], tmp_path)
    assert label == "ok", f"{name}: {detail}"


def test_the_fuzzer_finds_what_it_counts(tmp_path) -> None:
    """The classes are real: a lost intact puzzle and a traceback are seen as such."""
    lost = Case("show", ("show", "{in}", "--index", "1"), f"{P}\n".encode(), ("9" * 81,), "")
    assert run_case(lost, tmp_path)[0] == "lost"
    bad = Case("solve", ("solve", "{in}"), (" ".join(["0"] * 80 + ["1" * 5000]) + "\n").encode(),
               (), "")
    label, detail = run_case(bad, tmp_path)
    assert label == "ok" or (label == "traceback" and "4300" in detail)
