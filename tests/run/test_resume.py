"""``sudokit solve --resume`` and runs stopped by signals (issue 12, items 12 and 13)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.errors import SudokuError

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parents[1] / "data"
TOP95 = DATA / "norvig" / "sudoku-top95.txt"
POSIX = pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals and process groups")


def _mixed_input(tmp_path: Path) -> Path:
    """top95 with a bad line and an unsolvable puzzle among the puzzles."""
    lines = TOP95.read_text().splitlines()
    bad = "1" * 81  # a digit given many times in every unit: unsolvable
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines[:40] + ["garbage line 12x", bad] + lines[40:]) + "\n")
    return path


def _solve(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["solve", *args])
    if isinstance(result.exception, SudokuError):  # main() maps these to exit code 2
        return 2, str(result.exception)
    return result.exit_code, result.stderr


def _records(path: Path, fmt: str) -> str:
    """The file's text, without the timings of jsonl records (they differ run to run)."""
    if fmt != "jsonl":
        return path.read_text()
    return "".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "seconds"})
                   for line in path.read_text().splitlines())


@pytest.mark.parametrize("fmt", ["line", "jsonl", "grid"])
def test_resume_after_a_cut_anywhere_gives_the_uninterrupted_output(tmp_path: Path,
                                                                    fmt: str) -> None:
    source = _mixed_input(tmp_path)
    full, full_grids = tmp_path / "full", tmp_path / "full_grids"
    code, _ = _solve(str(source), "-f", fmt, "--output", str(full), "--grid-output",
                     str(full_grids))
    assert code == 1  # the bad line and the unsolvable puzzle
    size, grid_size = full.stat().st_size, full_grids.stat().st_size
    for share in (0.0, 0.03, 0.33, 0.5, 0.77, 1.0):
        cut, out, grids = int(size * share), tmp_path / "out", tmp_path / "grids"
        out.write_bytes(full.read_bytes()[:cut])  # a kill leaves a prefix of the output,
        grids.write_bytes(full_grids.read_bytes()[:min(grid_size, 10 * cut + 1400)])  # grids ahead
        code, stderr = _solve(str(source), "-f", fmt, "--output", str(out), "--grid-output",
                              str(grids), "--resume")
        assert code == 1, stderr
        assert _records(out, fmt) == _records(full, fmt), share
        assert grids.read_bytes() == full_grids.read_bytes(), share
        assert "solved" in stderr and " 95 " in stderr and ("resumed" in stderr) == (share > 0)


def test_resume_refuses_another_input_and_needs_output(tmp_path: Path) -> None:
    source = _mixed_input(tmp_path)
    out = tmp_path / "out"
    _solve(str(source), "--output", str(out))
    before = out.read_bytes()
    other = tmp_path / "other.txt"
    other.write_text("".join(TOP95.read_text().splitlines(keepends=True)[:10]))
    code, stderr = _solve(str(other), "--output", str(out), "--resume")
    assert code == 2 and "not the same input" in stderr
    assert out.read_bytes() == before  # nothing lost
    code, stderr = _solve(str(source), "--resume")
    assert code == 2 and "--output" in stderr


def test_resume_of_a_missing_output_starts_from_scratch(tmp_path: Path) -> None:
    out = tmp_path / "new.txt"
    code, _ = _solve(str(TOP95), "--output", str(out), "--resume")
    assert code == 0 and out.read_text().count("\n") == 95


def _start(args: list[str], out: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "sudokit", "solve", *args, "--output",
                             str(out)], cwd=ROOT, stderr=subprocess.PIPE,
                            start_new_session=True)


def _wait_for_records(out: Path, count: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and (
            not out.exists() or out.read_bytes().count(b"\n") < count):
        time.sleep(0.02)


def _group_gone(group: int, seconds: float = 5.0) -> bool:
    """Whether every process of a process group has exited (within ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@POSIX
def test_sigkill_leaves_no_worker_and_resume_completes_the_output(tmp_path: Path) -> None:
    source = DATA / "tdoku" / "puzzles3_magictour_top1465"  # unique solutions: any method
    out, full = tmp_path / "out", tmp_path / "full"
    proc = _start([str(source), "-m", "propagate", "--jobs", "2"], out)  # processes
    _wait_for_records(out, 40, proc)
    proc.kill()
    proc.wait(timeout=10)
    assert _group_gone(proc.pid), "a worker process outlived its parent"
    written = out.read_bytes()
    kept = written.count(b"\n")
    assert written.endswith(b"\n") and 40 <= kept < 1465
    code, stderr = _solve(str(source), "--output", str(out), "--resume")  # the fast engine
    assert code == 0, stderr
    assert re.search(rf"resumed\s+│\s+{kept}\s", stderr)
    code, _ = _solve(str(source), "--output", str(full))
    assert out.read_bytes() == full.read_bytes()


@POSIX
@pytest.mark.parametrize(("sig", "code", "word"), [(signal.SIGINT, 130, "interrupted"),
                                                   (signal.SIGTERM, 143, "terminated")])
def test_a_stopped_run_prints_why_and_the_summary(tmp_path: Path, sig: int, code: int,
                                                  word: str) -> None:
    out, source = tmp_path / "out", tmp_path / "in.txt"  # easy puzzles, then hard ones
    easy = (DATA / "norvig" / "sudoku-easy50.txt").read_text().splitlines()[:4]
    source.write_text("\n".join(easy) + "\n" + TOP95.read_text())
    proc = _start([str(source), "-m", "backtracking", "--jobs", "2"], out)
    _wait_for_records(out, 2, proc)
    started = time.monotonic()
    os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)  # Ctrl-C: group
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == code
    assert time.monotonic() - started < 5  # running tasks are not waited for
    text = stderr.decode()
    assert word in text and "--resume --output" in text and "total" in text
    assert "Traceback" not in text
    assert _group_gone(proc.pid)
    assert out.read_bytes().endswith(b"\n")


FOREIGN = {
    "json": b'{"settings": {"theme": "dark"}, "recent": [1, 2, 3]}\n',
    "json, pretty": b'{\n  "a": 1,\n\n  "b": [1, 2]\n}\n',
    "binary": bytes(range(256)) * 4,
    "binary, no newline": bytes(range(11, 256)) * 3,
    "notes": b"Notes on the puzzles\n\nasked by Ann, to do\n",
    "notes, no newline": b"call Ann about the 16x16",
}
"""Files ``sudokit solve`` did not write (issue 43, item 10: the grid form overwrote them)."""


@pytest.mark.parametrize("fmt", ["line", "jsonl", "grid"])
@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_resume_refuses_a_file_it_did_not_write(name: str, fmt: str, tmp_path: Path) -> None:
    if (name, fmt) == ("notes, no newline", "line"):
        pytest.skip("one line of text without its newline may be a cut line-form record")
    source = tmp_path / "in.txt"
    source.write_text("".join(TOP95.read_text().splitlines(keepends=True)[:3]))
    out = tmp_path / "out"
    out.write_bytes(FOREIGN[name])
    code, stderr = _solve(str(source), "-m", "fast", "-f", fmt, "--output", str(out),
                          "--resume")
    assert code == 2, stderr
    assert out.read_bytes() == FOREIGN[name]  # not cut, not overwritten


@pytest.mark.parametrize("where", ["array", "rules"])
def test_resume_redoes_a_kept_solution_that_does_not_solve_its_puzzle(tmp_path: Path,
                                                                       where: str) -> None:
    """A kept line-form solution with two cells swapped (givens kept, a unit broken) is
    redone with every record after it, and the run exits 0 (issue 43, item 10's rest): on the
    array path (top95 lines) and the general reader's (f-puzzles data with a thermometer)."""
    if where == "array":
        source = tmp_path / "in.txt"
        source.write_text("\n".join(TOP95.read_text().splitlines()[:12]) + "\n")
    else:
        source = tmp_path / "in.json"
        source.write_text((DATA / "rules" / "sigh_thermosudoku.json").read_text())
    full = tmp_path / "full"
    assert _solve(str(source), "--output", str(full))[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    row = min(4, len(lines) - 1)
    if where == "array":
        text = lines[row]
        empty = next(i for i, ch in enumerate(TOP95.read_text().splitlines()[row]) if ch == ".")
        other = next(j for j in range(empty - empty % 9, empty - empty % 9 + 9)
                     if j != empty and TOP95.read_text().splitlines()[row][j] == ".")
        cells = list(text)
        cells[empty], cells[other] = cells[other], cells[empty]  # a row still all 1-9
        broken = "".join(cells)
    else:
        data = json.loads(lines[row])
        cells = [c for r in data["grid"] for c in r]
        free = [i for i, c in enumerate(cells[:9]) if not c.get("given")]
        a, b = free[0], free[1]
        cells[a]["value"], cells[b]["value"] = cells[b]["value"], cells[a]["value"]
        broken = json.dumps(data, separators=(",", ":")) + "\n"
    assert broken != lines[row]
    out = tmp_path / "out"
    out.write_text("".join(lines[:row]) + broken + "".join(lines[row + 1:]))
    code, err = _solve(str(source), "--output", str(out), "--resume")
    assert code == 0, err
    assert out.read_text() == full.read_text()
