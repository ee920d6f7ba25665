"""An output path that is an input is refused before anything is opened (issue 30 item 1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit.cli._app import main
from sudokit.run.output import OutputIsInputError, check_outputs
from tests.helpers import ROOT

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "in.txt"
    path.write_text((TOP1 + "\n") * 3)
    return path


def test_solve_refuses_its_input_as_output_and_leaves_it_whole(puzzles: Path, capsys) -> None:
    before = puzzles.read_bytes()
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(puzzles), "--output", str(puzzles)])
    assert stop.value.code == 2
    assert "the output is INPUT" in capsys.readouterr().err
    assert puzzles.read_bytes() == before


@pytest.mark.parametrize("link", [os.symlink, os.link])
def test_an_input_reached_through_a_link_is_refused(puzzles: Path, link) -> None:
    other = puzzles.with_name("other.txt")
    link(puzzles, other)
    with pytest.raises(OutputIsInputError, match="other.txt: the output is INPUT"):
        check_outputs(["x.txt", str(puzzles)], None, other)


def test_grid_output_equal_to_output_is_refused_even_when_new(tmp_path: Path,
                                                             puzzles: Path) -> None:
    new = tmp_path / "out.txt"
    with pytest.raises(OutputIsInputError, match="one file"):
        check_outputs([str(puzzles)], new, tmp_path / "." / "out.txt")
    assert not new.exists()
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(puzzles), "--output", str(new), "--grid-output", str(new)])
    assert stop.value.code == 2 and not new.exists()


def test_stdin_redirected_from_the_output_is_refused(puzzles: Path) -> None:
    before = puzzles.read_bytes()
    with open(puzzles, "rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "sudokit", "solve", "--output",
                               str(puzzles)], stdin=stdin, capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "the output is standard input" in done.stderr
    assert puzzles.read_bytes() == before


def test_distinct_outputs_and_literal_puzzles_pass(tmp_path: Path, puzzles: Path) -> None:
    check_outputs([str(puzzles), TOP1, "-"], tmp_path / "a.txt", tmp_path / "b.txt")
    check_outputs([str(puzzles)], None, None)
    check_outputs([str(puzzles)], os.devnull)
