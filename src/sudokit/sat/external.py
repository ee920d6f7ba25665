"""Run an installed DIMACS SAT solver binary (minisat, cadical, kissat ...) as a subprocess.

The command is a template with ``{in}`` (the CNF file) and optionally ``{out}`` (a file the
solver writes its answer to, as MiniSat does); without ``{out}`` the answer is read from the
solver's standard output (SAT competition ``s``/``v`` lines). A time limit is enforced by killing
the process.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import InvalidOption, LimitReached, MethodUnavailable, SudokuError
from .dimacs import SolverOutput, read_solver_output, write_dimacs

__all__ = ["KNOWN_COMMANDS", "default_command", "run_command"]

KNOWN_COMMANDS = (
    ("kissat", "kissat -q {in}"),
    ("cadical", "cadical -q {in}"),
    ("minisat", "minisat -verb=0 {in} {out}"),
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
) -> SolverOutput:
    """Write the CNF to a temporary file, run the solver on it and parse its answer.

    Args:
        template: command with ``{in}`` and optionally ``{out}``, e.g. ``"minisat {in} {out}"``.
        clauses: the CNF; n_vars: its variable count; comments: DIMACS comment lines.
        timeout: seconds the process may run before it is killed (None: no limit).

    Returns:
        The solver's verdict and model.

    Raises:
        InvalidOption: the template lacks ``{in}``.
        MethodUnavailable: the binary cannot be run.
        LimitReached: the process was killed at the time limit.
        SudokuError: the solver failed (no verdict in its output; stderr is quoted).
    """
    with tempfile.TemporaryDirectory(prefix="sudokit-sat-") as tmp:
        cnf, out = Path(tmp) / "formula.cnf", Path(tmp) / "answer.txt"
        args = _arguments(template, cnf, out)
        with cnf.open("w", encoding="ascii") as fh:
            write_dimacs(fh, clauses, n_vars, comments)
        try:
            done = subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                                  check=False)
        except subprocess.TimeoutExpired:
            raise LimitReached(f"time limit {timeout:.3g} s reached ({args[0]} killed)") from None
        except OSError as exc:
            raise MethodUnavailable(f"cannot run {args[0]!r}: {exc.strerror or exc}") from None
        text = out.read_text(encoding="utf-8", errors="replace") if out.exists() else done.stdout
    try:
        return read_solver_output(text, source=f"output of {args[0]}")
    except SudokuError:
        detail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise SudokuError(f"{args[0]} exited with code {done.returncode} without a verdict: "
                          f"{' | '.join(detail) or 'no output'}") from None

