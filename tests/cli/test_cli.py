"""The command line: records on stdout, reports on stderr, exit codes, output files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.formats.text import read_puzzles
from sudokit.model.puzzle import is_solution
from tests.helpers import DATA, EXAMPLES, ROOT

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
TOP1_SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
TWO = DATA / "invalid" / "sudopedia_cp468" / "multiple_solutions" / "two_solutions.txt"

runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def sudokit(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokit", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, **kwargs)


def test_solve_literal_puzzle_prints_solution_and_summary() -> None:
    result = run("solve", TOP1, "--method", "propagate")
    assert result.exit_code == 0
    assert result.stdout == TOP1_SOLVED + "\n"
    assert "solved" in result.stderr and "puzzles/s" in result.stderr


def test_solve_file_and_stdin_line_form_keeps_alphabet() -> None:
    result = run("solve", str(EXAMPLES / "16x16.txt"), "-m", "propagate")
    assert result.exit_code == 0
    line = result.stdout.strip()
    assert len(line) == 256 and set(line) <= set("123456789ABCDEFG")
    result = run("solve", "-", "-m", "propagate", stdin=f"# c\n{TOP1.replace('.', '0')}\n")
    assert result.exit_code == 0 and result.stdout == TOP1_SOLVED + "\n"
    result = run("solve", "-m", "propagate", stdin=f"{TOP1}\r\n")  # no INPUT: stdin
    assert result.exit_code == 0 and result.stdout == TOP1_SOLVED + "\n"
    drawn = run("solve", str(EXAMPLES / "grid.txt"), "-m", "propagate")  # a drawing: 81 digits
    assert drawn.exit_code == 0 and len(drawn.stdout.strip()) == 81


def test_jsonl_fields_and_statuses() -> None:
    dup = "11" + TOP1[2:]
    result = run("solve", TOP1, dup, "123", str(TWO), "-f", "jsonl", "--unique", "-m", "propagate")
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["solved", "unsolvable", "invalid", "multiple"]
    first = rows[0]
    assert set(first) >= {"source", "line", "status", "solution", "method", "seconds", "stats",
                          "error"}
    assert first["solution"] == TOP1_SOLVED and first["method"] == "propagate"
    assert first["stats"]["nodes"] >= 1 and first["error"] is None and first["line"] == 1
    assert "given twice in row 1" in rows[1]["error"] and rows[1]["solution"] is None
    assert rows[2]["source"] == "<argument 3>" and "expected" in rows[2]["error"]
    assert rows[3]["solutions_found"] == 2
    assert "<argument 3>:1" in result.stderr


def test_line_form_status_lines_cannot_be_read_as_solutions() -> None:
    result = run("solve", TOP1, "11" + TOP1[2:], "-m", "propagate", "--node-limit", "0")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("timeout <argument 1>:1 ") and "node limit" in lines[0]
    assert lines[1].startswith("unsolvable <argument 2>:1 digit 1 is given twice")
    assert result.exit_code == 1


def test_grid_format_and_output_files(tmp_path: Path) -> None:
    out, grids = tmp_path / "out.txt", tmp_path / "grids.txt"
    result = run("solve", str(EXAMPLES / "top95.txt"), "-m", "propagate", "--format", "grid",
                 "--output", str(out), "--grid-output", str(grids))
    assert result.exit_code == 0 and result.stdout == ""
    text = out.read_text()
    assert text.startswith("# solved ") and "    4 1 7 | 3 6 9 | 8 2 5" in text
    drawn = list(read_puzzles(grids))  # each puzzle, then its solution (issue 17, item 7)
    puzzles = list(read_puzzles(EXAMPLES / "top95.txt"))
    assert len(drawn) == 2 * 95
    assert all(d.puzzle.givens == p.puzzle.givens for d, p in zip(drawn[::2], puzzles))
    assert all(is_solution(s.puzzle.givens, p.puzzle) for s, p in zip(drawn[1::2], puzzles))


def test_box_alphabet_jobs_and_options() -> None:
    six = "12.4.64.61232.45...6.2.4345.1..1.345"
    result = run("solve", six, "--box", "3x2", "-m", "propagate", "-f", "jsonl")
    assert json.loads(result.stdout)["status"] in ("solved", "unsolvable")
    result = run("solve", str(EXAMPLES / "6x6.txt"), "-j", "2", "-o", "naked_twins=false",
                 "-m", "propagate")
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 5


def test_usage_errors_exit_2_with_one_message() -> None:
    proc = sudokit("solve", TOP1, "--method", "nope")
    assert proc.returncode == 2 and "unknown method 'nope'" in proc.stderr and proc.stdout == ""
    proc = sudokit("solve", TOP1, "-m", "propagate", "-o", "colour=red")
    assert proc.returncode == 2 and "no option 'colour'" in proc.stderr
    proc = sudokit("solve", "missing/file.txt")
    assert proc.returncode == 2 and "missing/file.txt: no such file" in proc.stderr
    proc = sudokit("solve", "src")
    assert proc.returncode == 2 and "src: is a directory" in proc.stderr
    proc = sudokit("solve", "nope.csv")
    assert proc.returncode == 2 and "nope.csv: no such file" in proc.stderr
    proc = sudokit("solve", TOP1, "--box", "3by3")
    assert proc.returncode == 2 and "ROWSxCOLS" in proc.stderr
    proc = sudokit("solve", "--no-such-flag")
    assert proc.returncode == 2


def test_show_draws_grid_and_candidates() -> None:
    result = run("show", TOP1, "--after", "propagate")
    assert result.exit_code == 0
    assert "4 . . | . . . | 8 . 5" in result.stdout and "candidates (propagate)" in result.stdout
    assert "1679" in result.stdout
    plain = run("show", str(EXAMPLES / "grid.txt"))
    assert plain.exit_code == 0 and "8 5 . | . . 2 | 4 . ." in plain.stdout


def test_show_after_ac3() -> None:
    pytest.importorskip("sudokit.csp.sudoku")
    result = run("show", TOP1, "--after", "ac3")
    assert result.exit_code == 0 and "candidates (ac3)" in result.stdout


def test_methods_lists_propagate() -> None:
    result = run("methods")
    assert result.exit_code == 0 and "propagate" in result.stdout


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_interrupted_run_leaves_only_complete_records(tmp_path: Path) -> None:
    source = DATA / "tdoku" / "puzzles3_magictour_top1465"  # about 20 s with propagate
    out = tmp_path / "out.txt"
    proc = subprocess.Popen([sys.executable, "-m", "sudokit", "solve", str(source), "-m",
                             "propagate", "--output", str(out)], cwd=ROOT,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 5):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    text = out.read_text()
    assert text.endswith("\n") and proc.returncode == 130
    puzzles = [r.puzzle for r in read_puzzles(source)][: text.count("\n")]
    lines = text.splitlines()
    assert len(lines) >= 5
    assert all(is_solution([int(c) for c in line], p) for line, p in zip(lines, puzzles))


def test_readme_main_job_command_prints_solutions() -> None:
    """The first set-up command of README.md, after its install step, solves the shipped file."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(text.strip() for text in readme.splitlines()
                if text.strip().startswith("pip install . && "))
    command = line.split("&&", 1)[1].split()
    assert command[:2] == ["sudokit", "solve"]
    done = sudokit(*command[1:])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    puzzles = [r.puzzle for r in read_puzzles(ROOT / command[2])]
    assert len(lines) == len(puzzles) == 95
    assert all(is_solution([int(ch) for ch in text], p) for text, p in zip(lines, puzzles))
    assert "solved" in done.stderr and "95" in done.stderr


# --- issue 12: long literal puzzles, --version, help text, show/cnf/trace inputs ------------

SIXTEEN = (".B9..GD4..E.A6F.4CF.36.B.5.1G7E21.6.F2..B9A...8..D...1..46.F..........F.8153.4B76.1..C8"
           ".9..2..3.E.4D6..3.C7A8.2.38..472.6....CG5D..G.8EA34F.C51B...62..1A.B.F3.97..C.4.F5.9E."
           "...A..8..B...1C4.DG......7.F2....C3..7..A6.18.DB.9E865..3..E..9.....G.2...E.A......")
"""bnguyen_16x16.txt (tests/data/large) in line form: 256 characters, longer than a file name."""


def sixteen_solution() -> str:
    (record,) = read_puzzles(DATA / "large" / "bnguyen_16x16s.txt")
    return record.puzzle.line


def test_literal_16x16_puzzle_in_every_command() -> None:
    assert len(SIXTEEN) == 256
    solved = run("solve", SIXTEEN, "-m", "propagate")
    assert solved.exit_code == 0, solved.output
    assert solved.stdout == sixteen_solution() + "\n"
    shown = run("show", SIXTEEN)
    assert shown.exit_code == 0 and shown.stdout.startswith(". B 9 . | . G D 4 |")
    cnf = run("cnf", SIXTEEN)
    assert cnf.exit_code == 0 and "c box 4x4" in cnf.stdout and "p cnf 4096 " in cnf.stdout
    traced = run("trace", SIXTEEN, "-m", "mac")
    assert traced.exit_code == 0 and traced.stdout.startswith(f"solved {sixteen_solution()}\n")
    assert "OSError" not in solved.output + shown.output + cnf.output + traced.output


def test_version_matches_the_package_metadata() -> None:
    import tomllib

    from sudokit import __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert __version__ == project["version"]
    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"sudokit {project['version']}\n"
    assert sudokit("--version").stdout == f"sudokit {project['version']}\n"


def test_help_shows_the_dask_extra() -> None:
    wide = {"TERMINAL_WIDTH": "240", "COLUMNS": "240"}  # Typer reads the first once per process
    result = runner.invoke(app, ["solve", "--help"], env=wide)
    assert result.exit_code == 0
    assert "pip install 'sudokit[dask]'" in result.stdout


def write_with_bad_byte(path: Path) -> Path:
    path.write_bytes(TOP1[:17].encode() + b"\xff" + TOP1[18:].encode() + b"\n")
    return path


@pytest.mark.parametrize("command", ["show", "cnf", "trace"])
def test_bad_byte_is_one_located_error(tmp_path: Path, command: str) -> None:
    bad = write_with_bad_byte(tmp_path / "bad.txt")
    proc = sudokit(command, str(bad))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"sudokit: error: {bad}:1:18: r2c9: expected a digit symbol")
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_cnf_decode_reports_a_bad_byte_in_the_model(tmp_path: Path) -> None:
    cnf = tmp_path / "p.cnf"
    cnf.write_text(run("cnf", TOP1).stdout)
    model = tmp_path / "model.txt"
    model.write_bytes(b"SAT\n1 -2 \xfe 3\n")
    proc = sudokit("cnf", "--decode", str(cnf), str(model))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr == f"sudokit: error: {model}:2:6: expected UTF-8 text, found byte 0xfe\n"


@pytest.mark.parametrize("command", ["show", "cnf"])
def test_several_puzzles_need_index(command: str) -> None:
    top95 = str(EXAMPLES / "top95.txt")
    proc = sudokit(command, top95)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"sudokit: error: {top95}: expected one puzzle, found 95: choose one "
                           "with --index K (1 to 95)\n")
    proc = sudokit(command, top95, "--index", "96")
    assert proc.returncode == 2 and "--index 96: the input holds only 95 puzzles" in proc.stderr
    second = list(read_puzzles(EXAMPLES / "top95.txt"))[1].puzzle
    chosen = run(command, top95, "--index", "2")
    assert chosen.exit_code == 0
    if command == "show":
        assert chosen.stdout.startswith(str(second).splitlines()[0])
    else:
        assert f"c puzzle: {top95} line 2;" in chosen.stdout
    assert run(command, "-", "--index", "2", stdin=f"{TOP1}\n{second.line}\n").stdout \
        == chosen.stdout.replace(top95, "<stdin>")


def test_trace_plots_every_puzzle_of_a_file(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    three = tmp_path / "three.txt"
    lines = (DATA / "norvig" / "sudoku-easy50.txt").read_text().splitlines()[:3]
    three.write_text("\n".join(lines[:2] + ["bad", lines[2]]) + "\n")
    plot, data = tmp_path / "plot.png", tmp_path / "queue.txt"
    result = run("trace", str(three), "--plot", str(plot), "--data", str(data))
    assert result.exit_code == 1  # the bad record
    assert [ln for ln in result.stdout.splitlines() if ln.startswith("#")] == [
        f"# 1: {three}:1", f"# 2: {three}:2", f"# 4: {three}:4"]
    assert result.stdout.count("\nsolved ") == 3
    assert f"sudokit: {three}:3:" in result.stderr
    made = sorted(p.name for p in tmp_path.iterdir() if p.name != three.name)
    assert made == ["plot-1.png", "plot-2.png", "plot-4.png",
                    "queue-1.txt", "queue-2.txt", "queue-4.txt"]
    assert all((tmp_path / name).stat().st_size > 0 for name in made)
    one = run("trace", str(three), "--index", "2", "--plot", str(tmp_path / "one.png"))
    assert one.exit_code == 0 and not one.stdout.startswith("#")
    assert (tmp_path / "one.png").exists() and not (tmp_path / "one-2.png").exists()


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(text.strip() for text in readme.splitlines()
                   if text.strip().startswith("pip install -e '.[dev]' && "))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command.replace("pip install -e", "pip install -q -e") in ci.splitlines()


def test_methods_lists_each_problem_type() -> None:
    sudoku, magic = run("methods"), run("methods", "--problem", "magic")
    assert sudoku.exit_code == magic.exit_code == 0
    assert "propagate" in sudoku.stdout and "lines" not in sudoku.stdout.split()
    assert "lines" in magic.stdout and "propagate" not in magic.stdout
    assert run("methods", "--problem", "chess").exit_code == 2
