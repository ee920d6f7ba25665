"""Diagonal (X) Sudoku from the command line: ``--variant`` and ``# variant:`` directive lines.

The three puzzles of ``tests/data/diagonal`` have more than one solution under the standard rules
and exactly one under the X rules (both main diagonals hold every digit once); their published
solutions are in ``x_sudoku_solutions.txt``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit.cli import app
from sudokit.formats.lineform import LineReader
from sudokit.formats.text import read_puzzles
from sudokit.model.constraints import Variant
from sudokit.model.geometry import Geometry
from tests.helpers import DATA

X_FILE = DATA / "diagonal" / "x_sudoku.txt"
PUZZLES = X_FILE.read_text().split()
SOLUTIONS = (DATA / "diagonal" / "x_sudoku_solutions.txt").read_text().split()
X = Geometry.of(3, 3, Variant.DIAGONAL)

runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def lines_of(result) -> list[str]:
    return result.stdout.splitlines()


def keeps_the_x_rules(solution: str) -> bool:
    """Every unit of the X geometry (rows, columns, boxes, both diagonals) holds 1..9 once."""
    digits = [int(ch) for ch in solution]
    return all(sorted(digits[c] for c in unit) == list(range(1, 10)) for unit in X.units)


def test_published_solutions_keep_the_x_rules() -> None:
    assert len(PUZZLES) == len(SOLUTIONS) == 3
    assert all(keeps_the_x_rules(s) for s in SOLUTIONS)


def test_standard_rules_leave_several_solutions() -> None:
    result = run("solve", X_FILE, "--unique", "-m", "fast")
    assert result.exit_code == 1
    assert [ln.split()[0] for ln in lines_of(result)] == ["multiple"] * 3


@pytest.mark.parametrize("method", ["fast", "propagate", "mac", "dpll", "sat", "logic"])
def test_variant_diagonal_makes_them_unique(method: str) -> None:
    result = run("solve", X_FILE, "--unique", "-m", method, "--variant", "diagonal")
    assert result.exit_code == 0, result.output
    assert lines_of(result) == SOLUTIONS


def test_unknown_variant_is_a_usage_error() -> None:
    result = run("solve", X_FILE, "--variant", "kilter")
    assert result.exit_code == 2


def with_directives(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mixed.txt"
    path.write_text(text)
    return path


MIXED = (f"{PUZZLES[0]}\n# Variant:DIAGONAL\n{PUZZLES[0]}\n{PUZZLES[1]}\n"
         f"   #  variant :  standard\n{PUZZLES[1]}\n#variant: diagonal\n\n{PUZZLES[2]}\n")


def test_directive_sets_the_variant_of_the_puzzles_after_it(tmp_path: Path) -> None:
    path = with_directives(tmp_path, MIXED)
    result = run("solve", path, "--unique", "-m", "fast")
    assert result.exit_code == 1
    words = [ln.split()[0] for ln in lines_of(result)]
    assert words == ["multiple", SOLUTIONS[0], SOLUTIONS[1], "multiple", SOLUTIONS[2]]


def test_command_line_variant_holds_until_a_directive(tmp_path: Path) -> None:
    path = with_directives(tmp_path, f"{PUZZLES[0]}\n# variant: standard\n{PUZZLES[0]}\n")
    result = run("solve", path, "--unique", "-m", "propagate", "--variant", "diagonal")
    assert [ln.split()[0] for ln in lines_of(result)] == [SOLUTIONS[0], "multiple"]


def test_bad_directive_is_one_invalid_record(tmp_path: Path) -> None:
    path = with_directives(tmp_path, f"# variant: kilter\n{PUZZLES[0]}\n")
    result = run("solve", path, "-m", "fast", "--variant", "diagonal")
    assert result.exit_code == 1
    assert lines_of(result)[1] == SOLUTIONS[0]
    assert (f"{path}:1:12: variant directive: expected standard, diagonal, main-diagonal, "
            "anti-diagonal, hyper, disjoint, "
            "anti-knight, anti-king, non-consecutive, jigsaw, killer, even-odd, samurai, "
            "butterfly, sumo, windmill, gattai-8, shogun, sohei, clueless-1, clueless-2 "
            "(combined with +), found 'kilter'" in result.output)


@pytest.mark.parametrize("fmt", ["line", "jsonl"])
def test_array_path_stdin_and_object_path_write_the_same(tmp_path: Path, fmt: str) -> None:
    """Line form from a file or stdin goes on the array path; --grid-output forces the object
    path (jsonl always takes it): the same records either way."""
    text = MIXED + f"# variant: oops\n{PUZZLES[2]}\n"
    path = with_directives(tmp_path, text)
    common = ("--unique", "-m", "fast", "-f", fmt)
    by_path = run("solve", path, *common)
    by_stdin = run("solve", "-", *common, stdin=text)
    by_objects = run("solve", path, *common, "--grid-output", tmp_path / "grids.txt")
    assert by_path.exit_code == by_stdin.exit_code == by_objects.exit_code == 1

    def records(text: str) -> list:
        if fmt == "line":
            return text.splitlines()
        rows = [json.loads(ln) for ln in text.splitlines()]
        return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]

    assert records(by_path.stdout) == records(by_objects.stdout)
    assert records(by_stdin.stdout) == records(by_path.stdout.replace(str(path), "<stdin>"))
    stdin_objects = run("solve", "-", *common, "--grid-output", tmp_path / "g.txt", stdin=text)
    assert records(by_stdin.stdout) == records(stdin_objects.stdout)
    if fmt == "jsonl":
        rows = records(by_path.stdout)
        assert [r["line"] for r in rows] == [1, 3, 4, 6, 9, 10, 11]
        assert [r["status"] for r in rows] == ["multiple", "solved", "solved", "multiple",
                                       "solved", "invalid", "solved"]
        assert all(keeps_the_x_rules(r["solution"]) for r in rows if r["status"] == "solved")


def array_records(data: bytes, **kwargs) -> list:
    """The records of the array path in input order (chunks of 2 lines, so that directives,
    general-reader lines and fast rows fall in different chunks)."""
    out = []
    for chunk in LineReader(io.BytesIO(data), "x", sizes=(2, 3), **kwargs).chunks():
        items = list(chunk.general)
        for rows in chunk.fast:
            items += [(int(p), rows.record(i, "x")) for i, p in enumerate(rows.positions)]
        out += [record for _, record in sorted(items, key=lambda item: item[0])]
    return out


def key(record) -> tuple:
    puzzle = record.puzzle
    return (record.line, puzzle and (puzzle.givens, puzzle.geometry), str(record.error))


@pytest.mark.parametrize("default", list(Variant))
def test_reading_paths_agree_on_variants(default: Variant) -> None:
    """The two readers give every record the same geometry (variant included) and errors, on a
    file mixing line form, a grid drawing, a size header and directives."""
    drawn = "\n".join(PUZZLES[1][r * 9:r * 9 + 9] for r in range(9))
    text = (f"# variant: diagonal\n9\n{drawn}\n{PUZZLES[0]}\n#variant:standard\n{PUZZLES[2]}\n"
            f"# variant: x\n  # VARIANT: Diagonal\n{drawn}\n{PUZZLES[0]}:1\n# note\n"
            f"{PUZZLES[1]}\n")
    expected = [key(r) for r in read_puzzles(io.StringIO(text), name="x", variant=default)]
    assert [key(r) for r in array_records(text.encode(), variant=default)] == expected
    variants = [k[1][1].variant if k[1] else None for k in expected]
    D, S = Variant.DIAGONAL, Variant.STANDARD
    assert variants == [D, D, S, None, D, D, D]


@pytest.mark.parametrize("variant", list(Variant))
def test_header_line_is_not_a_directive(tmp_path: Path, variant: Variant) -> None:
    path = with_directives(tmp_path, f"# variant: diagonal\n{PUZZLES[0]}\n")
    records = list(read_puzzles(path, skip_header=True, variant=variant))
    assert records[0].puzzle.geometry.variant is variant
    chunks = LineReader(path.open("rb"), "x", skip_header=True, variant=variant).chunks()
    assert [rows.codec.geometry.variant for c in chunks for rows in c.fast
            if len(rows.positions)] == [variant]


def test_show_propagates_along_the_diagonals() -> None:
    standard = run("show", PUZZLES[0], "--after", "propagate")
    diagonal = run("show", PUZZLES[0], "--after", "propagate", "--variant", "diagonal")
    assert standard.exit_code == diagonal.exit_code == 0
    assert standard.stdout != diagonal.stdout
    assert all(" ".join(SOLUTIONS[0][r * 9:r * 9 + 3]) in diagonal.stdout for r in range(9))


def test_cnf_adds_the_diagonal_clauses() -> None:
    standard = run("cnf", PUZZLES[0])
    diagonal = run("cnf", PUZZLES[0], "--variant", "diagonal")
    assert "variant standard" in standard.stdout and "variant diagonal" in diagonal.stdout

    def clauses(text: str) -> int:
        return int(next(ln for ln in text.splitlines() if ln.startswith("p cnf")).split()[3])

    assert clauses(diagonal.stdout) > clauses(standard.stdout)


def test_trace_and_compare_take_the_variant() -> None:
    trace = run("trace", X_FILE, "--index", "2", "--variant", "diagonal")
    assert trace.exit_code == 0, trace.output
    compare = run("compare", X_FILE, "--methods", "mac,propagate", "--variant", "diagonal")
    assert compare.exit_code == 0, compare.output
    standard = run("compare", X_FILE, "--methods", "propagate", "--time-limit", "5")
    assert standard.stdout != compare.stdout


def test_logic_commands_use_the_diagonals() -> None:
    """The logic engine takes the diagonals as units: the first puzzle needs them (without them
    it has several solutions, so logic alone stops)."""
    standard = run("explain", PUZZLES[0], "--no-trial")
    assert standard.exit_code == 1
    steps = run("explain", PUZZLES[0], "--no-trial", "--variant", "diagonal", "-f", "jsonl")
    assert steps.exit_code == 0
    assert "diagonal" in steps.stdout
    hint = run("hint", PUZZLES[0], "--variant", "diagonal")
    assert hint.exit_code == 0 and hint.stdout.strip()
    rate = run("rate", X_FILE, "--variant", "diagonal")
    assert rate.exit_code == 0
    assert [ln.split("\t")[3] for ln in lines_of(rate)][:2] == ["Hidden Single"] * 2


def test_python_api_takes_the_variant() -> None:
    import numpy as np

    from sudokit.run import doors as api

    givens = np.array([[0 if ch == "." else int(ch) for ch in p] for p in PUZZLES])
    standard = api.solve_array(givens, method="fast", count_limit=2)
    diagonal = api.solve_array(givens, method="fast", count_limit=2, variant="diagonal")
    assert standard.status.tolist() != diagonal.status.tolist()
    assert ["".join(map(str, grid)) for grid in diagonal.solutions[:, 0]] == SOLUTIONS
    records = list(read_puzzles(X_FILE, variant=Variant.DIAGONAL))
    assert all(r.puzzle.geometry is X for r in records)
    with pytest.raises(ValueError):
        list(read_puzzles(X_FILE, variant="kilter"))


# -- every variant name, Janko files and the compact form on the command line -----------------

JANKO = DATA / "janko"
KILLER = JANKO / "KillerSudoku" / "problems" / "22_9x9.txt"


def killer_line() -> str:
    from sudokit.formats.compact import format_compact
    from sudokit.formats.janko import read_janko

    return format_compact(read_janko(KILLER))


def killer_solution() -> str:
    text = (KILLER.parent.parent / "solutions" / KILLER.name).read_text()
    return "".join(text.split()[2:])


def test_compact_killer_line_solves_in_line_form(tmp_path: Path) -> None:
    line = killer_line()
    path = tmp_path / "killer.txt"
    path.write_text(f"# variant: killer\n{line}\n{line}\n")
    for args, stdin in (((line,), None), ((path,), None), (("-",), path.read_text())):
        result = run("solve", *args, stdin=stdin)
        assert result.exit_code == 0, result.output
        assert set(lines_of(result)) == {killer_solution()}


def test_type_name_without_its_constraints_is_invalid_with_a_position() -> None:
    result = run("solve", PUZZLES[0], "--variant", "killer")
    assert result.exit_code == 1
    assert lines_of(result)[0].startswith("invalid <argument 1>:1:1: the variant names killer")


@pytest.mark.parametrize("command", ["show", "cnf", "trace", "hint", "explain"])
def test_one_puzzle_commands_take_layout_names(command: str, tmp_path: Path) -> None:
    """A 21x21 Janko file outside its type's folder reads only with the layout named (a
    method may still refuse a layout it does not support: not a reading error)."""
    copy = tmp_path / "p.txt"
    copy.write_text((JANKO / "ButterflySudoku" / "problems" / "2_12x12.txt").read_text())
    def said(result) -> str:  # errors reach stderr through the entry point, not the app
        return result.output + str(result.exception or "")

    named = run(command, copy, "--variant", "butterfly")
    assert not any(s in said(named) for s in ("no such option", "Invalid value", "name the"))
    samurai = tmp_path / "s.txt"
    samurai.write_text((JANKO / "SamuraiSudoku" / "problems" / "2_21x21.txt").read_text())
    unnamed = run(command, samurai)
    assert unnamed.exit_code != 0 and "name the layout" in said(unnamed)
    assert "name the layout" not in said(run(command, samurai, "--variant", "samurai"))


def test_compare_reads_a_janko_file() -> None:
    result = run("compare", KILLER, "--methods", "propagate", "--time-limit", "20")
    assert result.exit_code == 0, result.output
    assert "propagate" in result.stdout


def test_variant_names_complete_per_part() -> None:
    from sudokit.cli._common import complete_variant

    assert complete_variant("sa") == ["samurai"]
    assert complete_variant("killer+anti-k") == ["killer+anti-knight", "killer+anti-king"]
    assert "clueless-2" in complete_variant("")


def test_generate_takes_rules_only() -> None:
    result = run("generate", "--variant", "samurai")
    assert result.exit_code == 2 and "expected whole-grid rules" in result.output


def test_jsonl_records_name_the_whole_variant() -> None:
    result = run("solve", KILLER, "-f", "jsonl", "--variant", "diagonal")
    record = json.loads(result.stdout)
    assert record["variant"] == "killer+diagonal" and record["status"] == "unsolvable"
    samurai = JANKO / "SamuraiSudoku" / "problems" / "2_21x21.txt"
    record = json.loads(run("solve", samurai, "-f", "jsonl").stdout)
    assert record["variant"] == "samurai" and record["status"] == "solved"
    assert record["solution"].split()[:2] == ["21", "21"]  # Janko form, as read
