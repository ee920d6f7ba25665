"""The comparison machinery, its Rich table and plots, and the ``trace`` / ``compare`` commands."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sudokit import Puzzle, Status, solve
from sudokit.cli import app
from sudokit.errors import UnknownMethod, UnsupportedPuzzle
from sudokit.model.result import Stats
from sudokit.present.plots import queue_figure, save_figure, times_figure
from sudokit.run.compare import check_supported, compare, comparison_table, sudoku_runners
from tests.helpers import DATA, load

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
PNG = b"\x89PNG\r\n\x1a\n"
runner = CliRunner()


def fake(status: Status, seconds: float, nodes: int | None) -> SimpleNamespace:
    return SimpleNamespace(status=status, seconds=seconds, stats=Stats(nodes=nodes, checks=None))


def test_compare_any_outcome_with_status_seconds_and_stats() -> None:
    runners = {
        "quick": lambda n: fake(Status.SOLVED, 0.1 * n, 10 * n),
        "stuck": lambda n: fake(Status.UNKNOWN if n > 1 else Status.UNSATISFIABLE, 1.0, None),
    }
    seen: list[tuple[str, int]] = []
    comparison = compare(iter([1, 2, 3]), runners, time_limit=1.0,
                         progress=lambda m, i: seen.append((m, i)))
    quick, stuck = comparison.rows
    assert comparison.n_instances == 3 and len(seen) == 6
    assert (quick.solved, quick.unknown, quick.nodes, quick.checks) == (3, 0, 60, None)
    assert quick.median_seconds == pytest.approx(0.2)
    assert quick.total_seconds == pytest.approx(0.6)
    assert (stuck.solved, stuck.unsatisfiable, stuck.unknown, stuck.nodes) == (0, 1, 2, None)


def test_sudoku_runners_table_and_times_plot(tmp_path: Path) -> None:
    puzzles = load("norvig/sudoku-top95.txt", 2)
    comparison = compare(puzzles, sudoku_runners(["mac", "backtracking"], time_limit=0.05),
                         time_limit=0.05)
    mac, plain = comparison.rows
    assert mac.solved + mac.unknown == 2 and mac.revisions > 0
    assert plain.revisions is None  # backtracking does not revise (issue 17.14: null, not 0)
    console = Console(record=True, width=160)
    console.print(comparison_table(comparison))
    text = console.export_text()
    assert "mac" in text and "backtracking" in text and "median s" in text
    figure = times_figure(comparison)
    lines = figure.axes[0].get_lines()
    assert [list(line.get_ydata()) for line in lines[:2]] == [
        [max(s, 1e-6) for s in row.seconds] for row in comparison.rows]
    assert figure.axes[0].get_yscale() == "log"
    assert save_figure(figure, tmp_path / "t.png").read_bytes().startswith(PNG)


def test_runners_and_sizes_are_checked_before_running() -> None:
    with pytest.raises(UnknownMethod):
        sudoku_runners(["mac", "no-such-method"])
    big = Puzzle.from_digits([0] * 25 ** 2)
    with pytest.raises(UnsupportedPuzzle, match="backtracking"):
        check_supported(["mac", "backtracking"], [big])


def test_trace_plot_png_and_its_queue_data(tmp_path: Path) -> None:
    plot, data = tmp_path / "queue.png", tmp_path / "queue.txt"
    result = runner.invoke(app, ["trace", TOP1, "--method", "mac", "--plot", str(plot),
                                 "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("solved 4173698256")
    assert plot.read_bytes().startswith(PNG) and plot.stat().st_size > 5000
    queue = [int(x) for x in data.read_text().split()]
    api = solve(Puzzle.from_digits([0 if c == "." else int(c) for c in TOP1]), "mac",
                trace=True).stats
    assert queue == api.trace  # the same data from the CLI and the API
    assert queue[0] == 1619 and queue[-1] == 0 and max(queue) <= api.max_queue == 1620
    assert f"revisions     {api.revisions}" in result.stdout
    assert list(queue_figure(queue).axes[0].get_lines()[0].get_ydata()) == queue


def test_trace_refuses_a_method_without_ac3(tmp_path: Path) -> None:
    result = runner.invoke(app, ["trace", TOP1, "-m", "forward-checking", "--plot",
                                 str(tmp_path / "q.png")], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "no AC-3 queue trace" in result.output
    with pytest.raises(ValueError, match="empty trace"):
        queue_figure([])


def test_compare_command_table_plot_and_bad_records(tmp_path: Path) -> None:
    source = tmp_path / "mixed.txt"
    lines = (DATA / "norvig/sudoku-easy50.txt").read_text().split()[:2]
    source.write_text(f"{lines[0]}\n12x4\n{lines[1]}\n")
    plot = tmp_path / "times.png"
    result = runner.invoke(app, ["compare", str(source), "--methods", "forward-checking,mac",
                                 "--time-limit", "10", "--plot", str(plot)])
    assert result.exit_code == 1  # one invalid record, reported on stderr
    assert "mixed.txt:2:" in result.stderr
    assert "2 puzzles" in result.stdout and "forward-checking" in result.stdout
    assert plot.read_bytes().startswith(PNG)
    ok = runner.invoke(app, ["compare", str(DATA / "norvig/sudoku-easy50.txt"), "--methods",
                             "mac", "--limit", "2"])
    assert ok.exit_code == 0 and "2 puzzles" in ok.stdout


def test_compare_command_per_instance_table_and_options(tmp_path: Path) -> None:
    """Issue 17.10: a row per puzzle (each method's time and status) and -o options."""
    source = tmp_path / "three.txt"
    lines = (DATA / "norvig/sudoku-easy50.txt").read_text().split()[:3]
    source.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["compare", str(source), "--methods",
                                 "mac,mac[order=natural],backtracking", "-o", "select=mrv"])
    assert result.exit_code == 0, result.output
    table = result.stdout.split("per puzzle")[1].split("3 puzzles")[0]
    rows = [line.split() for line in table.splitlines() if line.split()[:1] in (["1"], ["2"],
                                                                            ["3"])]
    assert len(rows) == 3 and all(len(row) == 4 for row in rows)  # line, 3 times: all solved
    assert "mac[order=natural] s" in result.stdout
    quiet = runner.invoke(app, ["compare", str(source), "--methods", "mac", "--no-instances"])
    assert quiet.exit_code == 0 and "per puzzle" not in quiet.stdout
    bad = runner.invoke(app, ["compare", str(source), "--methods", "mac", "-o", "colour=red"])
    assert bad.exit_code != 0 and "colour" in str(bad.exception or bad.stderr)


def test_per_instance_table_marks_timeouts() -> None:
    from sudokit.run.compare import instance_table, puzzle_name

    puzzles = load("norvig/sudoku-top95.txt", 2)
    comparison = compare(puzzles, sudoku_runners(["backtracking"], time_limit=1e-4,
                                                 select="static"), names=puzzle_name)
    console = Console(width=120, record=True)
    console.print(instance_table(comparison))
    text = console.export_text()
    rows = [line.split() for line in text.splitlines() if "timeout" in line]
    assert [row[0] for row in rows] == ["1", "2"]  # one file: puzzles named by line


def test_trace_says_whether_ac3_alone_solved_and_draws_the_report(tmp_path: Path) -> None:
    """Issue 17.3: a verdict line per puzzle, numbered plots, and the three-panel report."""
    easy = (DATA / "norvig/sudoku-easy50.txt").read_text().split()[0]
    hard = (DATA / "norvig/sudoku-top95.txt").read_text().split()[0]
    source = tmp_path / "two.txt"
    source.write_text(f"{easy}\n{hard}\n")
    plot = tmp_path / "q.png"
    done = runner.invoke(app, ["trace", str(source), "--plot", str(plot)])
    assert done.exit_code == 0, done.output
    verdicts = [line for line in done.stdout.splitlines() if line.startswith("ac3_alone")]
    assert verdicts[0].split()[1] == "solved" and verdicts[1].split()[1:3] == ["search", "needed"]
    assert (tmp_path / "q-1.png").exists() and (tmp_path / "q-2.png").exists()
    report = runner.invoke(app, ["trace", easy, "--format", "report"])
    assert report.exit_code == 0
    header = next(line for line in report.stdout.splitlines() if line.startswith("puzzle"))
    assert header.split() == ["puzzle", "after", "AC-3", "solution"]
    panel_rows = report.stdout.split(header)[1].splitlines()[1:]
    assert len(panel_rows) == 11 and panel_rows[0].count("|") == 6


def test_compare_command_on_a_variant_file_and_a_missing_file(tmp_path: Path) -> None:
    jigsaw = Path(__file__).parents[1] / "data/janko/JigsawSudoku/problems/94_9x9.txt"
    result = runner.invoke(app, ["compare", str(jigsaw), "--methods", "fast,propagate,sat",
                                 "--time-limit", "10"])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines()
            if line.split()[:1] in (["fast"], ["propagate"], ["sat"])]
    assert {row[0] for row in rows} == {"fast", "propagate", "sat"}
    assert all(row[1] == "1" for row in rows)  # solved
    missing = runner.invoke(app, ["compare", str(tmp_path / "none.txt")])
    assert missing.exit_code != 0 and "Traceback" not in missing.output
    assert "no such file" in str(missing.exception) + missing.output
