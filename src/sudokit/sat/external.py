"""Run an installed DIMACS SAT solver binary (minisat, cadical, kissat ...) as a subprocess.

The command is a template with ``{in}`` (the CNF file) and optionally ``{out}`` (a file the
solver writes its answer to, as MiniSat and Glucose do); without ``{out}`` the answer is read from
the solver's standard output in any convention :func:`~sudokit.sat.dimacs.read_solver_output`
knows (SAT competition ``s``/``v`` lines, zChaff's ``Instance Satisfiable`` ... ``RESULT: SAT``). A time limit is enforced by killing
the process group the solver was started in (so helper processes die with it), and a small
guard process kills that group when this process dies, even by SIGKILL.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ..errors import InvalidOption, LimitReached, MethodUnavailable, SudokuError
from ..model.result import Status
from .dimacs import SolverOutput, read_solver_output, write_dimacs

__all__ = ["EXEC", "KNOWN_COMMANDS", "default_command", "run_command"]

EXEC = "exec"
"""The method (and SAT backend) name of a solver binary run through :func:`run_command`."""

KNOWN_COMMANDS = (
    ("kissat", "kissat -q {in}"),
    ("cadical", "cadical -q {in}"),
    ("minisat", "minisat -verb=0 {in} {out}"),
    ("glucose", "glucose -verb=0 -model {in}"),
    ("lingeling", "lingeling -q {in}"),
    ("zchaff", "zchaff {in}"),
)
"""Binaries looked for on PATH, in order of preference, with their command templates."""


def default_command() -> str | None:
    """Return the command template of the first known solver on PATH, or None."""
    return next((cmd for binary, cmd in KNOWN_COMMANDS if shutil.which(binary)), None)


def _arguments(template: str, cnf: Path, out: Path) -> list[str]:
    if "{in}" not in template:
        raise InvalidOption(f"cmd {template!r} must contain {{in}} (the CNF file), e.g. "
                            "'minisat {in} {out}'")
    return [part.replace("{in}", str(cnf)).replace("{out}", str(out))
            for part in shlex.split(template)]


def run_command(
    template: str,
    clauses: Sequence[Sequence[int]],
    n_vars: int,
    *,
    comments: Iterable[str] = (),
    timeout: float | None = None,
    deadline: float | None = None,
    check: Callable[[], None] | None = None,
) -> SolverOutput:
    """Write the CNF to a temporary file, run the solver on it and parse its answer.

    The solver runs in a session (process group) of its own, and a timeout kills the whole
    group, so a wrapper script's children do not outlive it; nor do they outlive this process
    (the guard of :data:`_GUARD` kills the group within milliseconds of its death).

    Args:
        template: command with ``{in}`` and optionally ``{out}``, e.g. ``"minisat {in} {out}"``.
        clauses: the CNF; n_vars: its variable count; comments: DIMACS comment lines.
        timeout: seconds the process may run before it is killed (None: no limit).
        deadline: a ``time.perf_counter()`` value by which the process is killed (None: none);
            with ``timeout`` too, the earlier one applies. Writing the file counts against it.
        check: called while the file is written (every few thousand clauses); it may raise
            (e.g. :class:`LimitReached` at a deadline) to stop before the solver starts.

    Returns:
        The solver's verdict and model.

    Raises:
        InvalidOption: the template lacks ``{in}``.
        MethodUnavailable: the binary cannot be run.
        LimitReached: the process was killed at the time limit (or ``check`` raised it).
        SudokuError: the solver failed (no verdict in its output; stderr is quoted), or it
            answered SATISFIABLE without a model.
    """
    with tempfile.TemporaryDirectory(prefix="sudokit-sat-") as tmp:
        cnf, out = Path(tmp) / "formula.cnf", Path(tmp) / "answer.txt"
        args = _arguments(template, cnf, out)
        with cnf.open("w", encoding="ascii") as fh:
            write_dimacs(fh, clauses, n_vars, comments, check=check)
        if deadline is not None:
            left = max(0.0, deadline - time.perf_counter())
            timeout = left if timeout is None else min(timeout, left)
        returncode, stdout, stderr = _run_in_own_group(args, timeout)
        text = out.read_text(encoding="utf-8", errors="replace") if out.exists() else stdout
    try:
        output = read_solver_output(text, source=f"output of {args[0]}")
    except SudokuError:
        detail = (stderr or stdout).strip().splitlines()[-3:]
        raise SudokuError(f"{args[0]} exited with code {returncode} without a verdict: "
                          f"{' | '.join(detail) or 'no output'}") from None
    if output.outcome is Status.SOLVED and not output.model and n_vars:
        raise SudokuError(f"{args[0]} answered SATISFIABLE without printing a model; give it "
                          f"a result file ('minisat {{in}} {{out}}') or its model option")
    return output


_GUARD = """
import os, select, signal, sys
alive = int(sys.argv[1])
woken, wake = os.pipe()
os.set_blocking(wake, False)
signal.set_wakeup_fd(wake)
signal.signal(signal.SIGCHLD, lambda *_: None)
pid = os.fork()
if pid == 0:
    os.close(alive)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    except OSError as exc:
        sys.stderr.write(f"cannot run {sys.argv[2]!r}: {exc.strerror}\\n")
        os._exit(127)
while True:
    ready = select.select([alive, woken], [], [])[0]
    if alive in ready:
        os.killpg(0, signal.SIGKILL)
    os.read(woken, 512)
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        os._exit(os.waitstatus_to_exitcode(status) & 255)
"""
"""The guard that runs a solver: it forks and execs the command, and kills its whole process
group (the solver and every process the solver started) when the read end of the pipe it is
given reaches end of file, which happens when this process dies, whatever killed it (the
pipe's write end is held here only). It exits with the solver's exit code."""


def _run_in_own_group(args: list[str], timeout: float | None) -> tuple[int, str, str]:
    """Run ``args`` under :data:`_GUARD` in a new session; on timeout (or any interruption)
    kill the whole group; if this process dies, the guard kills it.

    Returns:
        ``(exit code, stdout, stderr)``.

    Raises:
        MethodUnavailable: the binary cannot be found.
        LimitReached: the timeout passed (the group was killed and reaped).
    """
    if shutil.which(args[0]) is None:
        raise MethodUnavailable(f"cannot run {args[0]!r}: no such executable file")
    alive, alive_end = os.pipe()  # alive_end stays here: the guard sees EOF when we die
    try:
        proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", _GUARD, str(alive), *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, pass_fds=(alive,))
    except OSError as exc:
        os.close(alive_end)
        raise MethodUnavailable(f"cannot run {args[0]!r}: {exc.strerror or exc}") from None
    finally:
        os.close(alive)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise LimitReached(f"time limit {timeout:.3g} s reached ({args[0]} killed)") from None
    except BaseException:
        _kill_group(proc)
        raise
    finally:
        os.close(alive_end)
    return proc.returncode, stdout, stderr


def _kill_group(proc: subprocess.Popen[str]) -> None:
    """Kill every process of ``proc``'s session (its group id is its pid) and reap ``proc``."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:  # already gone
        pass
    proc.communicate()
