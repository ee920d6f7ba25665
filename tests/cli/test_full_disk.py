"""A full disk (issue 43, item 5): every command says one clear error naming where it wrote
(``sudokit: error: writing /dev/full: No space left on device``), exits 2, prints no
traceback; what was written before the disk filled stays valid and ``--resume`` completes it.

``/dev/full`` refuses every write with ENOSPC; a 64 KiB tmpfs (when this process may mount one)
fills in the middle of a run.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit.cli import main
from tests.fuzz.inputs import FULL_DISK_COMMANDS, full_disk_files
from tests.helpers import DATA, ROOT

FULL = "/dev/full"
pytestmark = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full")


def _main_on_full_stdout(args: list[str], capsys) -> tuple[int, str]:
    """Run ``main(args)`` in this process with standard output on ``/dev/full``."""
    with open(FULL, "w", buffering=1) as full, contextlib.redirect_stdout(full):
        with pytest.raises(SystemExit) as exit_:
            main(args)
    return exit_.value.code, capsys.readouterr().err


@pytest.mark.parametrize("args", FULL_DISK_COMMANDS, ids=" ".join)
def test_every_command_on_a_full_stdout(args: tuple[str, ...], tmp_path, capsys) -> None:
    files = full_disk_files(tmp_path)
    code, err = _main_on_full_stdout([files.get(a, a) for a in args], capsys)
    assert code == 2, err
    assert err.strip().splitlines()[-1] == f"sudokit: error: writing {FULL}: No space left on device"
    assert "Traceback" not in err


@pytest.mark.parametrize("option", ["--output", "--grid-output"])
def test_solve_output_on_a_full_disk(option: str, tmp_path, capsys) -> None:
    files = full_disk_files(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(["solve", files["{puzzles}"], "-m", "fast", option, FULL])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert f"sudokit: error: writing {FULL}: No space left on device" in err


def test_generate_output_on_a_full_disk(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["generate", "--size", "4", "--seed", "1", "--output", FULL])
    assert exit_.value.code == 2
    assert f"writing {FULL}: No space left on device" in capsys.readouterr().err


def test_the_program_on_a_full_stdout_says_one_line(tmp_path) -> None:
    """The whole program: one line on stderr, nothing from the interpreter's final flush."""
    files = full_disk_files(tmp_path)
    with open(FULL, "wb") as full:
        done = subprocess.run([sys.executable, "-m", "sudokit", "solve", files["{puzzles}"],
                               "-m", "fast", "-q"], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2
    assert done.stderr == f"sudokit: error: writing {FULL}: No space left on device\n"


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs (skipped when this process may not mount one)."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mount
    subprocess.run(["umount", str(mount)], capture_output=True)


def test_a_disk_filling_mid_run_keeps_complete_records_and_resumes(small_disk, tmp_path,
                                                                   capsys) -> None:
    lines = (DATA / "norvig" / "sudoku-top95.txt").read_text().split()
    source = tmp_path / "many.txt"
    source.write_text("\n".join(lines * 10) + "\n")  # 950 puzzles: ~240 KB of jsonl
    full_run = small_disk / "out.jsonl"
    with pytest.raises(SystemExit) as exit_:
        main(["solve", str(source), "-m", "fast", "-f", "jsonl", "-q", "--output",
              str(full_run)])
    assert exit_.value.code == 2
    assert f"writing {full_run}: No space left on device" in capsys.readouterr().err
    written = full_run.read_bytes()
    assert 0 < len(written) <= 64 << 10
    moved = tmp_path / "out.jsonl"  # the disk is freed: the run continues elsewhere
    moved.write_bytes(written)
    with pytest.raises(SystemExit) as exit_:
        main(["solve", str(source), "-m", "fast", "-f", "jsonl", "-q", "--output",
              str(moved), "--resume"])
    assert exit_.value.code == 0
    records = [json.loads(line) for line in moved.read_text().splitlines()]
    assert [r["line"] for r in records] == list(range(1, 951))
    assert all(r["status"] == "solved" for r in records)
    assert moved.read_bytes().startswith(written[:written.rfind(b"\n") + 1])


def test_an_output_file_names_its_failures() -> None:
    """:class:`OutputFile` turns a failed write, flush or close into one OutputError naming
    the file; closing after a failure says nothing more."""
    from sudokit.cli._writing import OutputError, OutputFile

    stream = OutputFile(open(FULL, "wb"), FULL)  # noqa: SIM115 (closed below)
    stream.write(b"x" * 10)  # buffered
    with pytest.raises(OutputError, match="writing /dev/full: No space left on device"):
        stream.flush()
    stream.close()
    last = OutputFile(open(FULL, "wb"), FULL)  # noqa: SIM115
    last.write(b"y")
    with pytest.raises(OutputError, match="writing /dev/full"):
        last.close()
