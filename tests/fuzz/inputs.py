"""The fuzzer's inputs: real seed texts, their mutations and one case maker per command.

Seeds are small real inputs (a few puzzles each) and each command's options are the cheap
ones (``-m fast``, ``-m propagate``, small magic orders, 4x4 and 6x6 generation), so a case
takes milliseconds and a few hundred per command fit in the default tests. Intact puzzles
(with their known solutions) are put around the mutated text of ``solve`` and ``serve``
cases: their solutions must come back whatever the mutated text holds.
"""

from __future__ import annotations

import base64
import functools
import json
import random
import tempfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from tests.helpers import DATA

__all__ = ["COMMANDS", "Case", "FULL_DISK_COMMANDS", "INTACT", "MUTATIONS", "SEEDS_TEXT",
           "full_disk_files", "mutate"]

P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
P_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def _lines(path, count: int) -> list[str]:
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
    "lines": "\n".join(_lines(DATA / "norvig" / "sudoku-top95.txt", 3)),
    "grid": (DATA / "norvig" / "sudoku-easy50.txt").read_text()[:400],
    "janko": (DATA / "janko" / "JigsawSudoku" / "problems").glob("*.txt").__next__().read_text(),
    "fpuzzles": (DATA / "fpuzzles" / "janko_killer_22.json").read_text(),
    "links": (DATA / "fpuzzles" / "janko_links.txt").read_text()[:3000],
    "csv": "\n".join(_lines(DATA / "csv" / "kyubyong_test.csv", 3)),
    "large": (DATA / "large" / "bnguyen_16x16.txt").read_text(),
    "directives": f"# variant: jigsaw\n{P}\n# variant: diagonal\n{P}\n# variant: standard\n{P}\n",
    "tdoku": "\n".join(_lines(DATA / "invalid" / "tdoku_test_puzzles", 3)),
    "dimacs": "p cnf 4 5\n1 2 0\n-1 3 0\n-2 -3 0\n3 4 0\n-4 -1 0\n",
    "model": "s SATISFIABLE\nv 1 -2 3 -4 5 0\n",
    "magic": "2 . 4\n. 5 .\n6 . 8\n",
}
"""Real inputs of every form the readers take (a few records each)."""


def _compressed_link(rng: random.Random) -> bytes:
    """An f-puzzles link whose data expands a lot (or is not LZ-String at all)."""
    payload = zlib.compress(b"{" + b'"size":9,' * rng.randint(1, 5000) + b"}")
    data = base64.b64encode(payload if rng.random() < 0.5 else rng.randbytes(64))
    return b"https://www.f-puzzles.com/?load=" + data


def _at(b: bytes, r: random.Random, piece: bytes) -> bytes:
    i = r.randrange(len(b) + 1)
    return b[:i] + piece + b[i:]


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "delete": lambda b, r: (lambda i: b[:i] + b[i + r.randint(1, 20):])(r.randrange(len(b) + 1)),
    "insert": lambda b, r: _at(b, r, r.choice([b" ", b".", b"0", b"9", b"\n", b"#", b":", b"{",
                                               b"-1", b"x", b"# variant: killer\n", b","])),
    "random bytes": lambda b, r: _at(b, r, r.randbytes(r.randint(1, 16))),
    "long line": lambda b, r: b + b"." * r.choice([10_000, 300_000]) + b"\n",
    "long token": lambda b, r: b"0 " * 80 + b"1" * r.choice([400, 5000]) + b"\n" + b,
    "NUL": lambda b, r: _at(b, r, b"\0"),
    "invalid UTF-8": lambda b, r: _at(b, r, b"\xff\xfe\xc3"),
    "CRLF": lambda b, r: b.replace(b"\n", b"\r\n"),
    "BOM": lambda b, r: b"\xef\xbb\xbf" + b,
    "deep JSON": lambda b, r: b"[" * r.choice([1000, 100_000]) + b"\n" + b,
    "compressed link": lambda b, r: _compressed_link(r) + b"\n" + b,
    "huge number": lambda b, r: b + b"\n" + b"9" * r.choice([20, 5000]) + b"\n",
    "mid-file BOM": lambda b, r: (lambda lines: b"\n".join(
        b"\xef\xbb\xbf" + ln if r.random() < 0.3 else ln for ln in lines))(b.split(b"\n")),
    "CR-only over 1 MiB": lambda b, r: b,  # the whole file, intact puzzles too (_whole_file)
    "UTF-16": lambda b, r: b,
    "UTF-32": lambda b, r: b,
}
"""Each mutation: (input bytes, random stream) -> mutated bytes."""


_PAD = (b"#" * 99 + b"\n") * 11_000
"""1.1 MB of comment lines: takes a file past the line reader's 1 MiB block cheaply."""


def _whole_file(mutation: str, data: bytes) -> bytes:
    """The mutations of a whole case file, intact puzzles included: CR-only line ends past
    1 MiB, UTF-16 and UTF-32 (with their byte-order mark)."""
    if "CR-only" in mutation:
        data = (_PAD + data).replace(b"\r\n", b"\n").replace(b"\n", b"\r")
    for name, codec in (("UTF-16", "utf-16"), ("UTF-32", "utf-32")):
        if name in mutation:  # one encoding (UTF-16 of UTF-32 bytes is no file anyone has)
            return data.decode("utf-8", "replace").encode(codec)
    return data


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One or two mutations of ``data`` (names joined by '+')."""
    names = rng.sample(sorted(MUTATIONS), rng.choice([1, 1, 2]))
    for name in names:
        data = MUTATIONS[name](data, rng)
    return "+".join(names), data


@dataclass(frozen=True)
class Case:
    """One fuzz case: a command line whose ``{in}`` is a file holding ``data``, the intact
    puzzles' solutions that must be in its output, and the mutation made; ``{extra}`` is a
    file holding ``extra``. A ``serve`` case posts ``data`` to ``/api/`` + ``args[1]``."""

    command: str
    args: tuple[str, ...]
    data: bytes
    expect: tuple[str, ...]
    mutation: str
    extra: bytes = b""
    stdout: str = ""  # "": captured; "full": /dev/full; "append": appended to {in} (>>)


def _with_intact(data: bytes, rng: random.Random) -> tuple[bytes, tuple[str, ...]]:
    chosen = rng.sample(INTACT, 2)
    data = (chosen[0][0] + "\n").encode() + data + b"\n# variant: standard\n" + (
        chosen[1][0] + "\n").encode()  # the mutated text may have left another variant on
    return data, tuple(s for _, s in chosen)


def _file_case(command: str, kinds: tuple[str, ...], options: tuple[tuple[str, ...], ...],
               with_intact: bool = False) -> Callable[[random.Random], Case]:
    """Cases of ``command {in} OPTIONS`` on a mutated seed of one of ``kinds`` (options naming
    ``propagate``, a pure-Python search, only on the small seeds: on killer cages or 16x16 it
    takes seconds)."""
    def make(rng: random.Random) -> Case:
        kind = rng.choice(kinds)
        if command not in _NO_EMPTY and rng.random() < 0.03:  # an empty large grid (not cnf: its
            # CNF of 36x36 is 480 MB in process, see docs/fuzzing.md; 64x64 where it is cheap)
            side = rng.choice([36, 64] if command in _EMPTY_64 else [36])
            kind, mutation, data = "empty", f"empty {side}x{side}", b"." * side * side + b"\n"
        else:
            mutation, data = mutate(SEEDS_TEXT[kind].encode(), rng)
        expect: tuple[str, ...] = ()
        if with_intact:
            data, expect = _with_intact(data, rng)
        data = _whole_file(mutation, data)
        chosen = [o for o in options if kind in _SMALL or "propagate" not in o] or options
        stdout = rng.choice(["full", "append"] if command in _APPENDED else ["full"]) \
            if rng.random() < 0.04 else ""
        return Case(command, (command, "{in}", *rng.choice(chosen)), data, expect,
                    f"{kind}:{mutation}" + (f" >{stdout}" if stdout else ""), stdout=stdout)
    return make


_APPENDED = ("solve", "show", "rate", "hint", "compare", "count", "candidates")
"""Commands whose ``>> {in}`` cases must be refused (they read puzzle files)."""
_NO_EMPTY = ("cnf",)
"""Commands without empty large grids: the CNF of an empty 36x36 is 52 MB of text captured in
process (``sudokit cnf`` streams it, see docs/fuzzing.md)."""
_EMPTY_64 = ("solve", "show", "compare", "explain", "hint", "rate", "count", "candidates")
"""Commands whose cases may hold an empty 64x64 grid (the others: 36x36; the trial search of
explain, hint and rate honours the time limit since it checks the deadline inside a step)."""
_ALL = ("lines", "grid", "janko", "fpuzzles", "links", "csv", "large", "directives", "tdoku")
_SMALL = ("lines", "grid", "csv", "directives", "tdoku")


def _generate_case(rng: random.Random) -> Case:
    size = rng.choice(["1", "2", "4", "4", "4", "6", "0", "-1", "99999999999999999999", "x"])
    args = ["generate", "--size", size, "--seed", rng.choice(["1", "2", "-1", "7" * 30])]
    if rng.random() < 0.4:
        args += ["--variant", rng.choice(["anti-king", "non-consecutive", "diagonal", "bogus",
                                          "anti-knight", "killer"])]
    if rng.random() < 0.3:
        args += ["--givens", rng.choice(["8", "6-9", "x", "-3", "99999"])]
    if rng.random() < 0.3:
        args += ["-f", rng.choice(["line", "grid", "jsonl", "x"])]
    args += ["--max-tries", rng.choice(["1", "3", "20"]), "--node-budget", "50"]
    return Case("generate", tuple(args), b"", (), "options")


def _magic_case(rng: random.Random) -> Case:
    mutation, data = mutate(SEEDS_TEXT["magic"].encode(), rng)
    n = rng.choice(["3", "3", "4", "1", "2", "-1", "x", "99999999999999999999"])
    args = ["magic", n, "--givens", "{in}", "--time-limit", "2"]
    if rng.random() < 0.3:
        args += ["-m", rng.choice(["lines", "forward-checking", "backtracking", "mac", "x"])]
    if rng.random() < 0.2:
        args = ["magic", rng.choice(["3", "5", "8", "12", "1000"]),
                rng.choice(["--construct", "--count", "--all", "--compare"])]
        args += ["--time-limit", "0.1"] + (["-m", "mac"] if "--construct" not in args else [])
    return Case("magic", tuple(args), data, (), f"magic:{mutation}")


@functools.cache
def _cnf_and_model() -> tuple[bytes, bytes]:
    """A 4x4 puzzle's CNF (``sudokit cnf``) and a SAT solver's answer for it (``sudokit sat``)."""
    from typer.testing import CliRunner

    from sudokit.cli import app

    runner = CliRunner()
    cnf = runner.invoke(app, ["cnf", "..3..4.221......"]).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".cnf") as file:
        file.write(cnf)
        file.flush()
        model = runner.invoke(app, ["sat", file.name]).stdout
    return cnf.encode(), model.encode()


def _decode_case(rng: random.Random) -> Case:
    """``cnf --decode CNF MODEL`` with one of the two mutated."""
    cnf, model = _cnf_and_model()
    which = rng.choice(["cnf", "model"])
    mutation, data = mutate(cnf if which == "cnf" else model, rng)
    if which == "cnf":
        return Case("cnf", ("cnf", "--decode", "{in}", "{extra}"), data, (), f"cnf:{mutation}",
                    model)
    return Case("cnf", ("cnf", "--decode", "{extra}", "{in}"), data, (), f"model:{mutation}",
                cnf)


def _methods_case(rng: random.Random) -> Case:
    return Case("methods", ("methods",) + rng.choice([(), ("--help",), ("x",)]), b"", (), "none")


SERVE_ENDPOINTS = ("parse", "solve", "solve", "hint", "count", "candidates", "rate", "methods")


def _serve_case(rng: random.Random) -> Case:
    """A JSON body holding a mutated puzzle text (and intact ones for ``solve``)."""
    endpoint = rng.choice(SERVE_ENDPOINTS)
    kind = rng.choice(_SMALL if endpoint in ("rate", "hint") else _ALL)
    mutation, data = mutate(SEEDS_TEXT[kind].encode(), rng)
    text = data.decode("utf-8", "replace")
    expect: tuple[str, ...] = ()
    if endpoint == "solve" and rng.random() < 0.5:
        pair = rng.choice(INTACT)
        text, expect = pair[0], (pair[1],)
    body: dict = {"puzzle": text}
    for key, values in (("variant", ["diagonal", "killer", "x", 3]), ("box", ["3x3", "2x3", ""]),
                        ("method", ["fast", "propagate", "bogus"]), ("after", ["ac3", "true"])):
        if rng.random() < 0.15:
            body[key] = rng.choice(values)
    if endpoint == "solve":
        body.setdefault("method", "fast")
    raw = json.dumps(body).encode()
    if rng.random() < 0.1:
        raw = mutate(raw, rng)[1]
    if raw != json.dumps({"puzzle": text, "method": "fast"}).encode():
        expect = ()  # other fields may rightly refuse the intact puzzle
    return Case("serve", ("serve", endpoint), raw, expect, f"{kind}:{mutation}")


_SOLVE_OPTIONS = tuple(("-m", m, "-f", f, "--time-limit", "5") + u
                       for m in ("fast", "fast", "propagate") for f in ("line", "grid", "jsonl")
                       for u in ((), ("--unique",)))

COMMANDS: dict[str, Callable[[random.Random], Case]] = {
    "solve": _file_case("solve", _ALL, _SOLVE_OPTIONS, with_intact=True),
    "compare": _file_case("compare", _SMALL, (("--methods", "propagate,fast", "--time-limit",
                                               "2"),)),  # -m was a usage error: nothing ran
    "trace": _file_case("trace", ("lines", "grid", "tdoku"),
                        (("--index", "1", "--time-limit", "2"),
                         ("--index", "1", "-f", "report", "--time-limit", "2"))),
    "show": _file_case("show", _ALL, (("--index", "1"), ("--index", "2", "--after", "ac3"),
                                      ("--index", "1", "--solve", "-m", "fast"))),
    "cnf": _file_case("cnf", _ALL, (("--index", "1"), ("--index", "1", "--encoding", "minimal"),
                                    ("--index", "2", "--encoding", "extended"))),
    "cnf-decode": _decode_case,
    "explain": _file_case("explain", _SMALL, (("--index", "1", "--time-limit", "3"),
                                              ("--index", "2", "-f", "jsonl", "--time-limit",
                                               "3"))),
    "count": _file_case("count", _ALL, (("--index", "1", "--limit", "2", "--time-limit", "3"),
                                        ("--index", "2", "--estimate", "--probes", "20",
                                         "--time-limit", "3"))),
    "candidates": _file_case("candidates", _SMALL, (("--index", "1", "--time-limit", "3"),
                                                    ("--index", "1", "--cap", "2",
                                                     "--time-limit", "3"))),
    "hint": _file_case("hint", _ALL, (("--index", "1", "--time-limit", "3"),)),
    "rate": _file_case("rate", _SMALL, (("--time-limit", "3"), ("-f", "jsonl",
                                                                "--time-limit", "3"))),
    "sat": _file_case("sat", ("dimacs", "dimacs", "model"), ((), ("--no-model",),
                                                             ("-m", "cadical153"))),
    "generate": _generate_case,
    "magic": _magic_case,
    "methods": _methods_case,
    "serve": _serve_case,
}
"""Every command of ``sudokit --help`` (``serve`` through its JSON API, ``cnf --decode`` on
its own) with its case maker."""


FULL_DISK_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--version",), ("--help",), ("solve", "--help"), ("methods",),
    ("solve", "{puzzles}", "-m", "fast"), ("solve", "{puzzles}", "-m", "fast", "-f", "jsonl"),
    ("solve", "{puzzles}", "-m", "fast", "-f", "grid"),
    ("show", "{puzzle}"), ("cnf", "{puzzle}"), ("cnf", "--decode", "{cnf}", "{model}"),
    ("trace", "{puzzle}"), ("count", "{puzzle}"), ("count", "{puzzle}", "--estimate"),
    ("candidates", "{puzzle}"), ("magic", "3"), ("magic", "3", "--givens", "{magic}"),
    ("compare", "{puzzle}"), ("sat", "{cnf}"), ("explain", "{puzzle}"), ("hint", "{puzzle}"),
    ("rate", "{puzzles}"), ("generate", "--size", "4", "--seed", "1"),
)
"""A command line of every command (but ``serve``, a server) whose standard output the
full-disk cases point at ``/dev/full``; ``{name}`` is a file of :func:`full_disk_files`."""


def full_disk_files(folder) -> dict[str, str]:
    """The input files of :data:`FULL_DISK_COMMANDS`, written in ``folder``: ``{placeholder:
    path}``."""
    from pathlib import Path

    cnf, model = _cnf_and_model()
    texts = {"{puzzle}": (P + "\n").encode(),
             "{puzzles}": ("\n".join([P] + [p for p, _ in INTACT[1:4]]) + "\n").encode(),
             "{cnf}": cnf, "{model}": model, "{magic}": SEEDS_TEXT["magic"].encode()}
    paths = {}
    for number, (key, data) in enumerate(texts.items()):
        path = Path(folder) / f"full-disk-{number}.txt"
        path.write_bytes(data)
        paths[key] = str(path)
    return paths
