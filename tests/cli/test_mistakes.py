"""A newcomer's mistakes and terminals: no traceback, one clear error, data on a terminal exactly
as a pipe gets it, messages in the puzzle's own symbols, tables that fit 80 columns."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.errors import InvalidOption, SudokuError
from tests.helpers import EXAMPLES, ROOT

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NESTED = ".234.......6.8....7....35....4....7....8...9.9....7..53....1.5....2....3.6....9.1"
"""ER/EP/ED 11.0 (the enjoysudoku forum's hardest-puzzles database, HardestSudokusThread-00885):
no step short of nested forcing chains applies to it as given (its first step is a level-3
nested chain, 11.0, which the tests below leave out: it takes about 10 s of CPU)."""
NO_NESTED = ("--exclude", "Dynamic Forcing Chain (+ Forcing Chains),"
             "Dynamic Forcing Chain (+ Multiple Forcing Chains),"
             "Dynamic Forcing Chain (+ Dynamic Forcing Chains)")
TOP95 = str(EXAMPLES / "top95.txt")
runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def clean(result) -> bool:
    """What :func:`sudokit.cli.main` makes of a run: a SudokuError is one stderr line (exit 2);
    anything else escaping the command is a traceback."""
    exc = result.exception
    return (exc is None or isinstance(exc, (SystemExit, SudokuError))) and \
        "Traceback" not in result.output


def mistakes(tmp: Path) -> list[tuple[str, ...]]:
    empty = tmp / "empty.txt"
    empty.write_text("")
    cnf = tmp / "f.cnf"
    cnf.write_text("p cnf 1 1\n1 0\n")
    gone = "/nonexistent/dir/x.txt"
    return [
        ("solve", TOP95, "--output", gone), ("solve", TOP1, "--grid-output", gone),
        ("solve", TOP1, "--output", "x" * 300), ("solve", TOP1, "--output", str(tmp)),
        ("solve", "hello"), ("solve", str(empty)), ("solve", TOP95, "--box", "4x4"),
        ("solve", TOP1, "--dask", "bogus"), ("solve", TOP1, "-m", "sat:exec", "-o", "cmd=true"),
        ("solve", TOP1, "-m", "portfolio", "-o", "cdcl=bogus"),
        ("solve", TOP1, "-m", "propagate", "-o", "naked_twins=maybe"),
        ("solve", TOP1, "--jobs", "0"), ("solve", TOP1, "-o", "novalue"),
        ("compare", gone), ("compare", TOP1, "--plot", str(tmp / "x.xyz")),
        ("compare", str(empty)), ("compare", "hello"),
        ("trace", TOP1, "--data", gone), ("trace", TOP1, "--plot", str(tmp / "x.xyz")),
        ("trace", "hello"), ("show", TOP1, "--png", str(tmp / "x.xyz")), ("show", "hello"),
        ("show", TOP1, "--png", gone), ("cnf", "hello"), ("cnf", TOP1, "--box", "4x4"),
        ("generate", "--seed", "-1"), ("generate", "--start", "99999999999999999999"),
        ("generate", "--output", gone), ("generate", "--level", "hard", "--rater", "nodes"),
        ("generate", "--level", "nope"), ("generate", "--jobs", "0"),
        ("explain", gone), ("explain", "top95"), ("hint", "hello"), ("hint", str(empty)),
        ("rate", "hello"), ("rate", str(empty)), ("rate", gone),
        ("sat", "-m", "exec", "-o", "cmd=true", str(cnf)), ("sat", gone),
        ("magic", "3", "--givens", gone), ("magic", "3", "-m", "mac", "-o", "select=bogus"),
        ("count", "hello"), ("count", gone), ("count", TOP1, "--limit", "0"),
        ("count", TOP1, "--estimate", "--probes", "0"), ("count", TOP1, "-m", "bogus"),
        ("count", "." * 1296, "--estimate", "--time-limit", "0.0001"),
        ("candidates", "hello"), ("candidates", str(empty)), ("candidates", TOP1, "--cap", "0"),
        ("candidates", TOP1, "-m", "bogus"), ("candidates", TOP95),
    ]


def test_every_mistake_is_one_clear_error(tmp_path: Path) -> None:
    for args in mistakes(tmp_path):
        result = run(*args)
        assert clean(result), (args, result.output, result.exception)
        assert result.exit_code in (1, 2) or isinstance(result.exception, SudokuError), args
        words = result.output + str(result.exception or "")
        assert words.strip(), f"{args}: no message"


def test_mistakes_say_what_is_wrong(tmp_path: Path) -> None:
    result = run("solve", TOP95, "--output", "/nonexistent/dir/x.txt")
    assert result.exit_code == 2 and "no such directory" in result.output
    result = run("solve", "hello")
    assert "hello: no such file" in str(result.exception)
    result = run("solve", TOP95, "--box", "4x4")  # one usage error, not one per line
    assert result.exit_code == 2 and result.output.count("does not fit") == 1
    assert "9x9" in result.output
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    for command in ("solve", "rate"):
        result = run(command, str(empty))
        assert result.exit_code == 1 and "no puzzle found" in result.stderr
    result = run("generate", "--seed", "-1")
    assert result.exit_code == 2 and "--seed" in result.output
    result = run("trace", TOP1, "--plot", str(tmp_path / "q.xyz"))
    assert result.exit_code == 2 and ".png" in result.output


def test_solve_quiet_has_no_summary() -> None:
    result = run("solve", TOP1, "-m", "propagate", "--quiet")
    assert result.exit_code == 0 and result.stderr == "" and len(result.stdout.split()) == 1


def test_compare_takes_a_literal_puzzle() -> None:
    result = run("compare", TOP1, "--methods", "propagate")
    assert result.exit_code == 0, result.output
    assert "propagate" in result.stdout and "<argument 1>" in result.stdout


def test_method_options_typed_by_their_declarations() -> None:
    from sudokit.registry import get_solver
    from sudokit.run.output import parse_option

    assert parse_option("cmd=true") == ("cmd", "true")  # text: the method converts it
    assert get_solver("propagate", naked_twins="false").settings["naked_twins"] is False
    assert get_solver("portfolio", probe_nodes="30").settings["probe_nodes"] == 30
    assert get_solver("mac", select="MRV").settings["select"] == "mrv"
    for name, options in (("portfolio", {"cdcl": "bogus"}), ("portfolio", {"probe_nodes": "x"}),
                          ("propagate", {"naked_twins": "maybe"})):
        with pytest.raises(InvalidOption):
            get_solver(name, **options)


def test_exec_failure_names_no_internals() -> None:
    result = run("solve", TOP1, "-m", "sat:exec", "-o", "cmd=sh -c 'exit 3' {in}",
                 "--time-limit", "5")
    text = result.output + str(result.exception or "")
    assert "TypeError" not in text and "Error:" not in text.replace("Error: Invalid", "")


def test_unreachable_dask_scheduler_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from sudokit.run import batch

    monkeypatch.setattr(batch, "_DASK_CONNECT_SECONDS", 1)
    result = run("solve", TOP1, "--dask", "127.0.0.1:9")
    assert isinstance(result.exception, InvalidOption), result.output
    assert "cannot reach" in str(result.exception)


def test_jobs_capped_at_the_work_and_the_cores() -> None:
    import threading

    from sudokit.cli._common import JOBS_PER_CORE, jobs_cap
    from sudokit.run.batch import run_tasks

    assert jobs_cap(1000) == JOBS_PER_CORE * (os.cpu_count() or 1) or jobs_cap(1000) == 1000
    assert jobs_cap(300, 2) == 2 and jobs_cap(1) == 1
    names = list(run_tasks(lambda task, _: threading.current_thread().name, [1, 2], None,
                           jobs=300))
    assert len(names) == 2 and threading.active_count() < 50
    assert "per core" in run("solve", "--help").output


# -- logic that cannot start, and symbols ----------------------------------------------------


@pytest.mark.slow  # the nested chains' search, about 10 s of CPU
def test_explain_without_trial_says_logic_cannot_start() -> None:
    result = run("explain", NESTED, "--no-trial", *NO_NESTED)
    assert result.exit_code == 1
    assert "rating" not in result.stdout and "easy" not in result.stdout
    assert "logic cannot start" in result.stderr and "no technique applies" in result.stderr


@pytest.mark.slow  # the nested chains' search, about 10 s of CPU
def test_hint_says_no_technique_applies_before_any_trial() -> None:
    result = run("hint", NESTED, *NO_NESTED)
    assert result.exit_code == 1 and result.stdout == ""
    assert "none of the chosen techniques applies" in result.stderr
    assert "needs Dynamic Forcing Chain (+ Multiple Forcing Chains)" in result.stderr
    result = run("hint", NESTED, "--trial", *NO_NESTED)
    assert result.exit_code == 0 and "Trial" in result.stdout


def test_sixteen_by_sixteen_messages_use_letters() -> None:
    from sudokit.formats.text import read_puzzles
    from sudokit.run.explain import explain

    puzzle = next(iter(read_puzzles(str(EXAMPLES / "16x16.txt")))).puzzle
    steps = explain(puzzle)
    numbers = re.compile(r"(?:for|is|left:|=|<>|on) (1[0-6])\b|[=>](1[0-6])\b")
    assert steps and not [s.text for s in steps if numbers.search(s.text)]
    assert any(re.search(r"for [A-G] in", s.text) for s in steps)
    result = run("hint", str(EXAMPLES / "16x16.txt"))
    assert result.exit_code == 0 and not numbers.search(result.stdout)


# -- words of generate ---------------------------------------------------------------------------


def test_generate_counts_and_summary() -> None:
    result = run("generate", "--givens", "17", "--max-tries", "20", "--seed", "1")
    assert result.exit_code == 1 and "in 20 tries" in result.stderr
    result = run("generate", "--givens", "17", "--max-tries", "1", "--seed", "1")
    assert result.exit_code == 1 and "in 1 try" in result.stderr
    result = run("generate", "-n", "2", "--seed", "3", "-f", "grid")
    assert result.exit_code == 0
    assert [line for line in result.stdout.splitlines() if line.startswith("#")][0] \
        .startswith("# puzzle 1:")
    assert "puzzles/s" in result.stderr
    one = run("generate", "--seed", "3")
    assert one.exit_code == 0 and "puzzles/s" not in one.stderr
    quiet = run("generate", "-n", "2", "--seed", "3", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == "" and len(quiet.stdout.split()) == 2
    again = run("generate", "-n", "1", "--seed", "3", "--start", "2")
    assert again.stdout.split()[0] == quiet.stdout.split()[1]


def test_a_level_means_the_same_in_generate_and_rate() -> None:
    result = run("generate", "--level", "medium", "--seed", "5", "-f", "jsonl")
    assert result.exit_code == 0, result.output
    import json

    record = json.loads(result.stdout)
    assert record["level"] == "medium" and record["rater"] == "se"
    rated = run("rate", record["puzzle"], "-f", "jsonl")
    assert json.loads(rated.stdout)["level"] == "medium"


# -- 80 columns -------------------------------------------------------------------------------


def test_compare_tables_fit_80_columns_and_cut_no_number() -> None:
    from sudokit import Puzzle
    from sudokit.run.compare import compare, comparison_table, instance_table, sudoku_runners

    names = ["backtracking", "forward-checking", "mac", "propagate"]
    puzzles = [Puzzle.parse(line) for line in Path(TOP95).read_text().split()[:2]]
    comparison = compare(puzzles, sudoku_runners(names, time_limit=5), time_limit=5)
    console = Console(width=80, record=True, file=open(os.devnull, "w"))
    console.print(instance_table(comparison), comparison_table(comparison))
    text = console.export_text()
    assert max(map(len, text.splitlines())) <= 80
    assert "…" not in text
    for row in comparison.rows:
        assert f"{row.nodes:,}" in text and f"{row.total_seconds:.3f}" in text


def test_show_candidates_fit_80_columns() -> None:
    from sudokit import Puzzle
    from sudokit.present.render import candidates_grid
    from sudokit.run.inspect import PropagationChoice, candidates_after

    puzzle = Puzzle.parse(TOP1)
    grid = candidates_grid(puzzle, candidates_after(puzzle, PropagationChoice.NONE), 80)
    lines = grid.plain.splitlines()
    assert max(map(len, lines)) <= 80 and len(lines) == 9 * 3 + 2  # 3 lines a row, 2 rules
    assert lines[1].split()[:2] == ["4", "456"]  # r1c1 given, r1c2 every candidate
    assert grid.plain.count("789") == 81 - puzzle.n_givens


def test_show_fits_80_columns_on_a_terminal_for_a_jigsaw_too() -> None:
    jigsaw = ROOT / "tests/data/janko/JigsawSudoku/problems/94_9x9.txt"
    shown, code = on_terminal(["show", str(jigsaw)])
    text = re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]", b"", shown).decode()
    assert code == 0 and max(map(len, text.split("\r\n"))) <= 80
    from sudokit.formats.text import read_puzzles

    puzzle = next(iter(read_puzzles(str(jigsaw)))).puzzle
    assert text.count("789") == 81 - puzzle.n_givens  # every open cell's marks, whole


def test_progress_rate_and_time_left() -> None:
    from sudokit.present.render import _left_text, _rate_text

    assert _rate_text(0.5, "puzzles") == "0.5/s" and _rate_text(1234, "puzzles") == "1,234/s"
    assert _left_text(100, 50, 5.0) == "~0:00:10 left" and _left_text(None, 5, 1.0) == ""


# -- a real terminal -------------------------------------------------------------------------


def on_terminal(args: list[str], typed: list[tuple[bytes, bytes]] = (),
                wait: float = 60.0) -> tuple[bytes, int]:
    """Run ``sudokit ARGS`` with stdin, stdout and stderr on one pseudo-terminal (80 columns);
    type each ``(after, keys)`` of ``typed`` once ``after`` has been shown; return everything
    shown and the exit code."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="80", LINES="24", TERM="xterm")
    process = subprocess.Popen([sys.executable, "-m", "sudokit", *args], stdin=slave,
                               stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True)
    os.close(slave)
    shown, pending, deadline = b"", list(typed), time.monotonic() + wait
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        elif pending and pending[0][0] in shown:
            os.write(master, pending.pop(0)[1])
        elif process.poll() is not None:
            break
    os.close(master)
    return shown, process.wait(timeout=10)


def test_data_on_a_terminal_is_exactly_what_a_pipe_gets() -> None:
    piped = subprocess.run([sys.executable, "-m", "sudokit", "solve", TOP95, "-m", "propagate"],
                           capture_output=True, cwd=ROOT, timeout=120)
    shown, code = on_terminal(["solve", TOP95, "-m", "propagate"])
    assert code == piped.returncode == 0
    data = piped.stdout.replace(b"\n", b"\r\n")
    assert shown.startswith(data), shown[:200]  # nothing before, between or inside the records


def test_typed_puzzles_are_answered_line_by_line() -> None:
    solved = b"417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    shown, code = on_terminal(["solve"], [(b"Ctrl-D", TOP1.encode() + b"\n"),
                                          (solved, b"\x04")])
    assert code == 0  # the answer came before the end of input, and one Ctrl-D ended it
    assert shown.index(TOP1.encode()) < shown.index(solved) < shown.index(b"status")


def test_invalid_records_are_shown_once_on_a_terminal(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(f"hello\n{TOP1}\n")
    for command in ("solve", "rate"):
        shown, code = on_terminal([command, str(mixed)])
        assert code == 1 and shown.count(b"expected a puzzle") == 1, (command, shown)


def test_progress_on_a_terminal_goes_to_stderr_and_is_cleared(tmp_path: Path) -> None:
    piped = subprocess.run([sys.executable, "-m", "sudokit", "solve", TOP95, "-m", "propagate"],
                           capture_output=True, cwd=ROOT, timeout=120)
    out = tmp_path / "out.txt"
    shown, code = on_terminal(["solve", TOP95, "-m", "propagate", "--output", str(out)])
    assert code == 0 and out.read_bytes() == piped.stdout  # the file gets no counter text
    counter = shown.split(b"sudokit solve")[0]  # what came before the summary table
    if b"puzzles" in counter:  # the counter was drawn: its line is erased before the summary
        assert b"\x1b[2K" in counter[-16:], counter[-60:]
