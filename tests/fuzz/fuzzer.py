"""A seeded, bounded fuzzer of every ``sudokit`` command (issue 30).

Each case is one command run on a mutated real input (deletions, insertions, random bytes, long
lines and tokens, NUL, invalid UTF-8, CRLF, a byte-order mark, deep JSON, compressed links),
with intact puzzles among the mutated ones whose solutions must come back. A case is run in
this process through Typer's test runner (fast) or, for a few, as a subprocess under a memory
cap, and classified:

* ``traceback``: an exception other than a clear error (a :class:`~sudokit.errors.SudokuError`,
  which the program prints as one line, or a usage error);
* ``hang``: still running after :data:`HANG_SECONDS` (stopped by SIGALRM in process, killed
  as a subprocess);
* ``lost``: an intact puzzle without its solution in the output (``solve``);
* ``memory``: a subprocess case over :data:`MEMORY_CAP` bytes of address space (it dies of a
  MemoryError or is refused memory);
* ``ok``.

``python -m tests.fuzz.fuzzer --cases 1000 --seed 1`` prints the counts per command and class.
"""

from __future__ import annotations

import argparse
import base64
import collections
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from tests.helpers import DATA, ROOT

__all__ = ["COMMANDS", "Case", "HANG_SECONDS", "MEMORY_CAP", "MUTATIONS", "fuzz", "mutate",
           "run_case"]

HANG_SECONDS = 10
"""A case on a small input still running after this long is a hang."""

MEMORY_CAP = 1 << 30
"""Address space of a subprocess case (bytes): about 10x the inputs + 200 MB, plus the
interpreter, NumPy and Numba (whose address space alone is about 600 MB)."""

P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
P_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def _lines(path: Path, count: int) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()][:count]


def _intact() -> list[tuple[str, str]]:
    """Puzzles and their solutions (from tdoku's test set, which carries them)."""
    pairs = [(P, P_SOLUTION)]
    for line in _lines(DATA / "invalid" / "tdoku_test_puzzles", 43):
        parts = line.split(":")
        if len(parts) == 3 and parts[1] == "1":
            pairs.append((parts[0], parts[2]))
    return pairs


INTACT = _intact()
SEEDS_TEXT = {
    "lines": "\n".join(_lines(DATA / "norvig" / "sudoku-top95.txt", 8)),
    "grid": (DATA / "norvig" / "sudoku-easy50.txt").read_text()[:800],
    "janko": (DATA / "janko" / "JigsawSudoku" / "problems").glob("*.txt").__next__().read_text(),
    "fpuzzles": (DATA / "fpuzzles" / "janko_killer_22.json").read_text(),
    "links": (DATA / "fpuzzles" / "janko_links.txt").read_text(),
    "csv": "\n".join(_lines(DATA / "csv" / "kyubyong_test.csv", 6)),
    "large": (DATA / "large" / "bnguyen_16x16.txt").read_text(),
    "dimacs": "p cnf 4 5\n1 2 0\n-1 3 0\n-2 -3 0\n3 4 0\n-4 -1 0\n",
    "magic": "2 . 4\n. 5 .\n6 . 8\n",
}


def _compressed_link(rng: random.Random) -> bytes:
    """An f-puzzles link whose data expands a lot (or is not LZ-String at all)."""
    payload = zlib.compress(b"{" + b'"size":9,' * rng.randint(1, 5000) + b"}")
    data = base64.b64encode(payload if rng.random() < 0.5 else rng.randbytes(64))
    return b"https://www.f-puzzles.com/?load=" + data


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "delete": lambda b, r: (lambda i: b[:i] + b[i + r.randint(1, 20):])(r.randrange(len(b) + 1)),
    "insert": lambda b, r: (lambda i: b[:i] + r.choice([b" ", b".", b"0", b"9", b"\n", b"#",
                                                        b":", b"{", b"-1", b"x"]) + b[i:])(
        r.randrange(len(b) + 1)),
    "random bytes": lambda b, r: (lambda i: b[:i] + r.randbytes(r.randint(1, 16)) + b[i:])(
        r.randrange(len(b) + 1)),
    "long line": lambda b, r: b + b"." * r.choice([10_000, 300_000]) + b"\n",
    "long token": lambda b, r: b"0 " * 80 + b"1" * r.choice([400, 5000]) + b"\n" + b,
    "NUL": lambda b, r: (lambda i: b[:i] + b"\0" + b[i:])(r.randrange(len(b) + 1)),
    "invalid UTF-8": lambda b, r: (lambda i: b[:i] + b"\xff\xfe\xc3" + b[i:])(
        r.randrange(len(b) + 1)),
    "CRLF": lambda b, r: b.replace(b"\n", b"\r\n"),
    "BOM": lambda b, r: b"\xef\xbb\xbf" + b,
    "deep JSON": lambda b, r: b"[" * r.choice([1000, 100_000]) + b"\n" + b,
    "compressed link": lambda b, r: _compressed_link(r) + b"\n" + b,
    "huge number": lambda b, r: b + b"\n" + b"9" * r.choice([20, 5000]) + b"\n",
}
"""Each mutation: (input bytes, random stream) -> mutated bytes."""


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One or two mutations of ``data`` (names joined by '+')."""
    names = rng.sample(sorted(MUTATIONS), rng.choice([1, 1, 2]))
    for name in names:
        data = MUTATIONS[name](data, rng)
    return "+".join(names), data


@dataclass(frozen=True)
class Case:
    """One fuzz case: a command line whose ``{in}`` is a file holding ``data``, the intact
    puzzles' solutions that must be in its output, and the mutation made."""

    command: str
    args: tuple[str, ...]
    data: bytes
    expect: tuple[str, ...]
    mutation: str


def _puzzle_file_case(command: str, extra: tuple[str, ...], kinds: tuple[str, ...],
                      with_intact: bool) -> Callable[[random.Random], Case]:
    def make(rng: random.Random) -> Case:
        kind = rng.choice(kinds)
        mutation, data = mutate(SEEDS_TEXT[kind].encode(), rng)
        expect: tuple[str, ...] = ()
        if with_intact:
            chosen = rng.sample(INTACT, 2)
            data = (chosen[0][0] + "\n").encode() + data + b"\n" + (chosen[1][0] + "\n").encode()
            expect = tuple(s for _, s in chosen)
        return Case(command, (command, "{in}", *extra), data, expect, f"{kind}:{mutation}")
    return make


_ALL_KINDS = ("lines", "grid", "janko", "fpuzzles", "links", "csv", "large")


def _generate_case(rng: random.Random) -> Case:
    size = rng.choice(["1", "2", "3", "4", "6", "9", "0", "-1", "99999999999999999999", "x"])
    args = ["generate", "--size", size, "--seed", rng.choice(["1", "2", "-1", "7" * 30])]
    if rng.random() < 0.5:
        args += ["--variant", rng.choice(["anti-king", "non-consecutive", "diagonal",
                                          "bogus", "anti-knight"])]
    if rng.random() < 0.4:
        args += ["--givens", rng.choice(["17", "20-25", "x", "-3", "99999"])]
    args += ["--max-tries", rng.choice(["1", "3", "20"])]
    return Case("generate", tuple(args), b"", (), "options")


def _magic_case(rng: random.Random) -> Case:
    mutation, data = mutate(SEEDS_TEXT["magic"].encode(), rng)
    n = rng.choice(["3", "3", "4", "1", "2", "1000"])
    args = ["magic", n, "--givens", "{in}", "--time-limit", "2"]
    if rng.random() < 0.3:
        args += ["-m", rng.choice(["lines", "forward-checking", "backtracking", "mac", "x"])]
    return Case("magic", tuple(args), data, (), f"magic:{mutation}")


COMMANDS: dict[str, Callable[[random.Random], Case]] = {
    "solve": _puzzle_file_case("solve", ("--time-limit", "5"), _ALL_KINDS, True),
    "compare": _puzzle_file_case("compare", ("-m", "propagate", "-m", "fast", "--time-limit",
                                             "2"), _ALL_KINDS, False),
    "trace": _puzzle_file_case("trace", ("--time-limit", "2"), ("lines", "grid"), False),
    "show": _puzzle_file_case("show", ("--index", "1"), _ALL_KINDS, False),
    "cnf": _puzzle_file_case("cnf", ("--index", "1"), _ALL_KINDS, False),
    "explain": _puzzle_file_case("explain", ("--index", "1", "--time-limit", "3"),
                                 ("lines", "grid", "large"), False),
    "hint": _puzzle_file_case("hint", ("--index", "1", "--time-limit", "3"), _ALL_KINDS, False),
    "rate": _puzzle_file_case("rate", ("--time-limit", "3"), ("lines", "grid", "csv"), False),
    "sat": _puzzle_file_case("sat", (), ("dimacs",), False),
    "generate": _generate_case,
    "magic": _magic_case,
}
"""Every command with its case maker."""


class _Hang(BaseException):
    """Raised by SIGALRM in a case that runs too long."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Hang


def _classify(exit_code: int | None, exception: BaseException | None, stdout: str,
              case: Case) -> str:
    from click.exceptions import ClickException

    from sudokit.errors import SudokuError

    if isinstance(exception, _Hang):
        return "hang"
    if isinstance(exception, MemoryError):
        return "memory"
    if exception is not None and not isinstance(
            exception, (SystemExit, SudokuError, ClickException, KeyboardInterrupt)):
        return "traceback"
    if any(solution not in stdout for solution in case.expect):
        return "lost"
    return "ok"


def run_case(case: Case, tmp: Path) -> tuple[str, str]:
    """Run ``case`` in this process; return its class and a one-line detail."""
    from sudokit.cli import app

    path = tmp / "input.txt"
    path.write_bytes(case.data)
    args = [str(path) if a == "{in}" else a for a in case.args]
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(HANG_SECONDS)
    try:
        result = CliRunner().invoke(app, args, catch_exceptions=True)
        exception, code, stdout = result.exception, result.exit_code, result.stdout
    except _Hang as exc:
        exception, code, stdout = exc, None, ""
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    label = _classify(code, exception, stdout, case)
    detail = "" if label == "ok" else f"{type(exception).__name__}: {exception}"[:200]
    return label, detail


def run_subprocess_case(case: Case, tmp: Path) -> tuple[str, str]:
    """Run ``case`` as ``python -m sudokit`` with :data:`MEMORY_CAP` of address space."""
    path = tmp / "input.txt"
    path.write_bytes(case.data)
    args = [str(path) if a == "{in}" else a for a in case.args]

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    try:
        done = subprocess.run([sys.executable, "-m", "sudokit", *args], capture_output=True,
                              text=True, errors="replace", env=env, preexec_fn=cap,
                              timeout=HANG_SECONDS + 20, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "hang", " ".join(case.args)
    err = done.stderr
    if "MemoryError" in err or "Cannot allocate" in err or done.returncode < 0:
        return "memory", err.strip()[-200:]
    if "Traceback (most recent call last)" in err:
        return "traceback", err.strip().splitlines()[-1][:200]
    if any(solution not in done.stdout for solution in case.expect):
        return "lost", err.strip()[-200:]
    return "ok", ""


def cases(command: str, count: int, seed: int) -> Iterator[Case]:
    """``count`` seeded cases of ``command``."""
    rng = random.Random(f"{command}:{seed}")
    for _ in range(count):
        yield COMMANDS[command](rng)


def fuzz(command: str, count: int, seed: int, *, subprocess_every: int = 0
         ) -> collections.Counter[tuple[str, str]]:
    """Run ``count`` cases of ``command``; count (class, mutation kind) pairs (class only for
    ``ok``). Every ``subprocess_every``-th case runs as a capped subprocess (0: none)."""
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    with tempfile.TemporaryDirectory(prefix="sudokit-fuzz-") as tmp:
        for k, case in enumerate(cases(command, count, seed)):
            sub = subprocess_every and k % subprocess_every == subprocess_every - 1
            label, detail = (run_subprocess_case if sub else run_case)(case, Path(tmp))
            counts[(label, "" if label == "ok" else f"{case.mutation} | {detail}")] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200, help="cases per command")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", nargs="*", default=sorted(COMMANDS))
    parser.add_argument("--subprocess-every", type=int, default=50)
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    args = parser.parse_args()
    for command in args.commands:
        counts = fuzz(command, args.cases, args.seed, subprocess_every=args.subprocess_every)
        by_class = collections.Counter()
        for (label, _), n in counts.items():
            by_class[label] += n
        print(f"{command:10s} " + "  ".join(f"{k} {v}" for k, v in sorted(by_class.items())),
              flush=True)
        if args.verbose:
            for (label, detail), n in sorted(counts.items()):
                if label != "ok":
                    print(f"    {label:9s} x{n}  {detail}")


if __name__ == "__main__":
    main()
