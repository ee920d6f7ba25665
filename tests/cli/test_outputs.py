"""Outputs that would destroy or feed on the inputs or on each other (issue 43, items 6 and
11): ``solve f >> f`` is refused as GNU ``cat`` refuses it; a second run on one ``--output``
is refused while the first holds it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time

import pytest

from sudokit.cli import main
from tests.helpers import ROOT

P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _main(args: list[str], capsys, stdout=None) -> tuple[int, str]:
    with contextlib.redirect_stdout(stdout) if stdout else contextlib.nullcontext():
        with pytest.raises(SystemExit) as exit_:
            main(args)
    return exit_.value.code, capsys.readouterr().err


@pytest.mark.parametrize("command", [["solve", "-m", "fast"], ["rate"], ["show", "--index", "1"],
                                     ["count"]])
def test_appending_stdout_to_an_input_is_refused(command: list[str], tmp_path, capsys) -> None:
    source = tmp_path / "f.txt"
    source.write_text(f"{P}\n" * 50)
    link = tmp_path / "link.txt"
    link.symlink_to(source)
    for name in (source, link):
        with open(source, "a") as appended:
            code, err = _main([command[0], str(name), *command[1:]], capsys, appended)
        assert code == 2
        assert f"sudokit: error: {name}: input file is output file" in err
        assert source.read_text() == f"{P}\n" * 50


def test_stdin_and_stdout_on_one_file_is_refused(tmp_path) -> None:
    source = tmp_path / "f.txt"
    source.write_text(f"{P}\n" * 50)
    with open(source, "rb") as stdin, open(source, "ab") as stdout:
        done = subprocess.run([sys.executable, "-m", "sudokit", "solve", "-m", "fast"],
                              stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True,
                              cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert "standard input: input file is output file" in done.stderr
    assert source.read_text() == f"{P}\n" * 50


def test_stdout_on_another_file_is_fine(tmp_path, capsys) -> None:
    source = tmp_path / "f.txt"
    source.write_text(f"{P}\n")
    with open(tmp_path / "out.txt", "w") as out:
        code, _ = _main(["solve", str(source), "-m", "fast", "-q"], capsys, out)
    assert code == 0
    assert len((tmp_path / "out.txt").read_text().strip()) == 81


def test_a_second_run_on_one_output_is_refused(tmp_path, capsys) -> None:
    """The first run holds its --output (flock) to the end; the second says so and leaves the
    first one's records alone."""
    source, output = tmp_path / "many.txt", tmp_path / "out.txt"
    source.write_text(f"{P}\n" * 3)
    holder = subprocess.Popen(  # a first run, stopped on its lock while we try a second
        [sys.executable, "-c", "import fcntl, sys, time\n"
         "f = open(sys.argv[1], 'ab'); fcntl.flock(f, fcntl.LOCK_EX); f.write(b'first\\n');"
         " f.flush(); print('locked', flush=True); time.sleep(60)", str(output)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        code, err = _main(["solve", str(source), "-m", "fast", "--output", str(output)], capsys)
        assert code == 2
        assert f"{output}: another sudokit run is writing this file" in err
        assert output.read_text() == "first\n"  # not emptied by the refused run
        code, err = _main(["generate", "--size", "4", "--seed", "1", "--output", str(output)],
                          capsys)
        assert code == 2 and "another sudokit run" in err
    finally:
        holder.kill()
        holder.wait()
    code, _ = _main(["solve", str(source), "-m", "fast", "-q", "--output", str(output)], capsys)
    assert code == 0 and output.read_text().count("\n") == 3


def test_two_real_runs_on_one_output(tmp_path) -> None:
    """Two ``sudokit solve`` processes started together on one --output: one writes every
    record, the other is refused (exit 2), never both exit 0 with one output gone."""
    source, output = tmp_path / "many.txt", tmp_path / "out.txt"
    source.write_text(f"{P}\n" * 2000)
    args = [sys.executable, "-m", "sudokit", "solve", str(source), "-m", "fast", "-q",
            "--output", str(output)]
    env = {**os.environ, "SUDOKIT_BACKGROUND_COMPILE": "0"}
    first = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    time.sleep(0.05)
    second = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    codes = sorted(p.wait(timeout=120) for p in (first, second))
    errors = first.stderr.read() + second.stderr.read()
    first.stderr.close()
    second.stderr.close()
    lines = output.read_text().splitlines()
    if codes == [0, 0]:  # one ended before the other opened the file: both complete, in turn
        assert len(lines) == 2000
    else:
        assert codes == [0, 2], errors
        assert "another sudokit run is writing this file" in errors
        assert len(lines) == 2000
