"""A seeded, bounded fuzzer of every ``sudokit`` command (issue 30).

Each case (see :mod:`tests.fuzz.inputs`) is one command run on a mutated real input (deletions,
insertions, random bytes, long lines and tokens, NUL, invalid UTF-8, CRLF, a byte-order mark,
deep JSON, compressed links), with intact puzzles among the mutated ones whose solutions must
come back. A case runs in this process through the Click command built once (milliseconds; the
``serve`` cases through Starlette's TestClient) or, one in ``subprocess_every``, as
``python -m sudokit``, and is classified:

* ``traceback``: an exception other than a clear error (a :class:`~sudokit.errors.SudokuError`,
  printed as one line, or a usage error), or an HTTP 500;
* ``hang``: still running after :data:`HANG_SECONDS` of CPU time (SIGPROF in process; or
  :data:`WALL_SECONDS` of wall time, SIGALRM) or of wall time plus 20 s (killed, as a
  subprocess);
* ``lost``: an intact puzzle without its solution in the output;
* ``place``: a message about a place in the input file without ``FILE:LINE:COLUMN``;
* ``memory``: the case's peak resident memory over :func:`memory_cap` (10x the input + 200 MB).
  In process: the rise of the high-water mark (VmHWM, reset through ``/proc/self/clear_refs``
  before each case) over the memory resident before it; as a subprocess: its high-water mark
  (VmHWM of ``/proc/PID/status``, read every 5 ms until it ends; ``ru_maxrss`` would count the
  fuzzer's own size, copied at the fork) less :data:`INTERPRETER_BYTES`;
* ``ok``.

Compiled kernels are loaded (or compiled) by a warm-up run of each command before the timed
cases, so no case waits for a compile. ``python -m tests.fuzz.fuzzer --cases 1000 --seed 1``
prints the counts per command and class, and the largest memory peak.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from tests.fuzz.inputs import COMMANDS, INTACT, Case
from tests.helpers import ROOT

__all__ = ["HANG_SECONDS", "INTERPRETER_BYTES", "WALL_SECONDS", "Outcome", "cases", "fuzz",
           "memory_cap", "run_case", "run_subprocess_case", "warm"]

HANG_SECONDS = 10
"""A case on a small input still running after this long is a hang: CPU seconds in process
(the machine's load does not count), wall seconds (plus 20) as a subprocess."""

WALL_SECONDS = 60
"""An in-process case still running after this long (wall clock) is a hang too (one that
waits rather than computes)."""

INTERPRETER_BYTES = 250 << 20
"""Resident memory of a ``python -m sudokit`` process before it reads its input (Python, NumPy,
Numba and the compiled kernels: 150-250 MB measured), not counted against a subprocess case."""

@dataclass(frozen=True)
class Outcome:
    """A case's class, a one-line detail (empty when ``ok``), its peak memory (bytes) and,
    for a subprocess case, the whole process's peak (bytes; 0 in process)."""

    label: str
    detail: str
    peak: int
    process: int = 0


def memory_cap(case: Case) -> int:
    """The issue's bound on a case's memory: 10x its input size + 200 MB (bytes)."""
    return 10 * len(case.data) + (200 << 20)


def _status_kb(field: str, pid: int | str = "self") -> int:
    """A memory field of ``/proc/PID/status`` in bytes (0 when the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _reset_peak() -> int:
    """Reset this process's resident high-water mark; return its resident memory (bytes)."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    return _status_kb("VmRSS:")


class _Hang(BaseException):
    """Raised by SIGPROF or SIGALRM in a case that runs too long."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Hang


_WHOLE_FILE = ("no such file", "is empty", "holds only", "no puzzle", "model leaves",
               "printed no model", "found no entries")
"""Words of the messages about a whole file or what it lacks (no place in it to name)."""


def _misplaced(text: str, path: str) -> list[str]:
    """Error messages in ``text`` about a place in the file ``path`` that do not name it as
    ``FILE:LINE:COLUMN``: ``invalid`` records, ``error`` fields and lines naming the file
    with a word of error (except those about the whole file)."""
    bad = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                line = str(json.loads(line).get("error") or "")
            except (ValueError, AttributeError):
                pass
        words = line.lower()
        about = line.startswith("invalid ") or (path in line and any(
            w in words for w in ("error", "invalid", "expected", "no solution", "bad ")))
        placed = re.search(re.escape(path) + r":\d+:\d+: ", line)
        if about and not placed and not any(w in words for w in _WHOLE_FILE):
            bad.append(line[:240])
    return bad


def _shown(solution: str, out: str) -> bool:
    """Whether the 9x9 ``solution`` is in ``out`` as a line or as the rows of a grid."""
    rows = [" | ".join(" ".join(solution[r * 9 + c:r * 9 + c + 3]) for c in (0, 3, 6))
            for r in range(9)]
    return solution in out or all(row in out for row in rows)


def _classify(exception: BaseException | None, out: str, err: str, case: Case, path: str,
              ) -> tuple[str, str]:
    from click.exceptions import ClickException

    from sudokit.errors import SudokuError

    if isinstance(exception, _Hang):
        return "hang", " ".join(case.args)
    if isinstance(exception, MemoryError):
        return "memory", "MemoryError"
    if case.stdout and type(exception) is RuntimeError:  # a redirected case that went wrong
        return "lost", str(exception)
    if exception is not None and not isinstance(
            exception, (SystemExit, SudokuError, ClickException, KeyboardInterrupt)):
        return "traceback", f"{type(exception).__name__}: {exception}"
    if case.stdout:
        return "ok", ""  # nothing on stdout to look at
    if not all(_shown(solution, out) for solution in case.expect):
        return "lost", err.strip()[-200:]
    if isinstance(exception, SudokuError):  # the message the program prints for it
        err += f"\nsudokit: error: {exception}"
    misplaced = _misplaced(out + "\n" + err, path)
    if misplaced:
        return "place", misplaced[0]
    return "ok", ""


_COMMAND = None
_CLIENT = None


def _arguments(case: Case, path: Path) -> list[str]:
    """The command line of ``case``: ``{in}`` is ``path``, ``{extra}`` a file beside it holding
    ``case.extra``."""
    extra = path.with_name("extra.txt")
    extra.write_bytes(case.extra)
    return [{"{in}": str(path), "{extra}": str(extra)}.get(a, a) for a in case.args]


def _invoke(case: Case, path: Path) -> tuple[BaseException | None, str, str]:
    """Run the command line of ``case`` (Click command built once) or post its ``serve`` body."""
    global _COMMAND, _CLIENT
    if case.command == "serve":
        if _CLIENT is None:
            from starlette.testclient import TestClient

            from sudokit.serve import Settings, create_app
            _CLIENT = TestClient(create_app(Settings(time_limit=5.0)))
        response = _CLIENT.post(f"/api/{case.args[1]}", content=case.data,
                                headers={"Content-Type": "application/json"})
        failed = RuntimeError(f"HTTP {response.status_code}") if response.status_code >= 500 and \
            response.status_code != 503 else None
        return failed, response.text, ""
    import typer.main
    from typer.testing import CliRunner

    from sudokit.cli import app

    if _COMMAND is None:
        _COMMAND = typer.main.get_command(app)
    args = _arguments(case, path)
    with mock.patch("typer.testing._get_command", lambda _: _COMMAND):
        result = CliRunner().invoke(app, args, catch_exceptions=True)
    return result.exception, result.stdout, result.stderr


def _invoke_redirected(case: Case, path: Path) -> tuple[BaseException | None, str, str]:
    """Run ``case`` through :func:`sudokit.cli.main` with standard output on ``/dev/full`` or
    appended to the input file (``>> {in}``); the exception is None for a clean exit."""
    import contextlib
    import io

    from sudokit.cli import main

    target = "/dev/full" if case.stdout == "full" else path
    err = io.StringIO()
    with open(target, "a", buffering=1) as out, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            main(_arguments(case, path))
            exception: BaseException | None = None
        except SystemExit as exc:
            exception = None if exc.code in (0, 1, 2, None) else exc
            code = exc.code
        except BaseException as exc:  # noqa: BLE001 (classified)
            exception, code = exc, None
    text = err.getvalue()
    if exception is None and case.stdout == "full" and code == 0:
        exception = RuntimeError("exit 0 on a full disk")
    if exception is None and case.stdout == "append" and path.read_bytes() != case.data:
        exception = RuntimeError(f"the input grew ({code}): " + text[-120:])
    return exception, "", text


def run_case(case: Case, tmp: Path, alarm: bool = True) -> Outcome:
    """Run ``case`` in this process (stopped after :data:`HANG_SECONDS` of CPU time or
    :data:`WALL_SECONDS` when ``alarm``)."""
    path = tmp / "input.txt"
    path.write_bytes(case.data)
    before = _reset_peak()
    previous = {s: signal.signal(s, _on_alarm) for s in (signal.SIGALRM, signal.SIGPROF)}
    if alarm:
        signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
        signal.setitimer(signal.ITIMER_REAL, WALL_SECONDS)
    try:
        exception, out, err = (_invoke_redirected if case.stdout else _invoke)(case, path)
    except _Hang as exc:
        exception, out, err = exc, "", ""
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in previous.items():
            signal.signal(number, handler)
    peak = max(_status_kb("VmHWM:") - before, 0)
    label, detail = _classify(exception, out, err, case, str(path))
    if label == "ok" and peak > memory_cap(case):
        label, detail = "memory", f"{peak >> 20} MB"
    return Outcome(label, detail, peak)


def run_subprocess_case(case: Case, tmp: Path) -> Outcome:
    """Run ``case`` as ``python -m sudokit``; its peak is the process's VmHWM."""
    if case.command == "serve":
        return run_case(case, tmp)
    path = tmp / "input.txt"
    path.write_bytes(case.data)
    args = _arguments(case, path)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "SUDOKIT_BACKGROUND_COMPILE": "0"}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen([sys.executable, "-m", "sudokit", *args], stdout=out,
                                 stderr=err, env=env, stdin=subprocess.DEVNULL)
        deadline, process = time.monotonic() + HANG_SECONDS + 20, 0
        while (waited := os.wait4(child.pid, os.WNOHANG))[0] == 0:
            if time.monotonic() > deadline:
                child.kill()
                child.wait()
                return Outcome("hang", " ".join(case.args), 0)
            process = max(process, _status_kb("VmHWM:", child.pid))
            time.sleep(0.005)
        child.returncode = waited[1]
        peak = max(process - INTERPRETER_BYTES, 0)
        out.seek(0)
        err.seek(0)
        stdout, stderr = (f.read().decode("utf-8", "replace") for f in (out, err))
    if "Traceback (most recent call last)" in stderr:
        return Outcome("traceback", stderr.strip().splitlines()[-1][:200], peak, process)
    if "MemoryError" in stderr or os.waitstatus_to_exitcode(waited[1]) < 0:
        return Outcome("memory", stderr.strip()[-200:], peak, process)
    label, detail = _classify(None, stdout, stderr, case, str(path))
    if label == "ok" and peak > memory_cap(case):
        label, detail = "memory", f"{peak >> 20} MB"
    return Outcome(label, detail, peak, process)


def cases(command: str, count: int, seed: int) -> Iterator[Case]:
    """``count`` seeded cases of ``command`` (a key of :data:`~tests.fuzz.inputs.COMMANDS`)."""
    import random

    rng = random.Random(f"{command}:{seed}")
    for _ in range(count):
        yield COMMANDS[command](rng)


def warm(command: str, tmp: Path) -> None:
    """Load (or compile) what ``command`` needs: a few of its cases and an intact puzzle, with
    no alarm, so that the timed cases never wait for a compile."""
    for case in cases(command, 6, seed=-1):
        run_case(case, tmp, alarm=False)
    run_case(Case("solve", ("solve", "{in}", "-m", "fast"), INTACT[0][0].encode(), (), ""),
             tmp, alarm=False)


def fuzz(command: str, count: int, seed: int, *, subprocess_every: int = 0,
         peaks: list[Outcome] | None = None) -> collections.Counter[tuple[str, str]]:
    """Run ``count`` cases of ``command``; count (class, detail) pairs (class only for ``ok``).
    Every ``subprocess_every``-th case runs as a subprocess (0: none). Each case's outcome is
    appended to ``peaks`` when given."""
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    with tempfile.TemporaryDirectory(prefix="sudokit-fuzz-") as tmp:
        warm(command, Path(tmp))
        for k, case in enumerate(cases(command, count, seed)):
            sub = subprocess_every and k % subprocess_every == subprocess_every - 1
            outcome = (run_subprocess_case if sub else run_case)(case, Path(tmp))
            counts[(outcome.label, outcome.detail and f"{case.mutation} | {outcome.detail}")] += 1
            if peaks is not None:
                peaks.append(outcome)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200, help="cases per command")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", nargs="*", default=list(COMMANDS))
    parser.add_argument("--subprocess-every", type=int, default=50)
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    args = parser.parse_args()
    for command in args.commands:
        start, peaks = time.monotonic(), []
        counts = fuzz(command, args.cases, args.seed, subprocess_every=args.subprocess_every,
                      peaks=peaks)
        by_class = collections.Counter()
        for (label, _), n in counts.items():
            by_class[label] += n
        peak = max(o.peak for o in peaks) / 2 ** 20
        process = max(o.process for o in peaks) / 2 ** 20
        print(f"{command:10s} " + "  ".join(f"{k} {v}" for k, v in sorted(by_class.items()))
              + f"  | peak {peak:.1f} MB, process {process:.0f} MB"
              + f"  | {time.monotonic() - start:.1f} s", flush=True)
        if args.verbose:
            for (label, detail), n in sorted(counts.items()):
                if label != "ok":
                    print(f"    {label:9s} x{n}  {detail}")


if __name__ == "__main__":
    main()
