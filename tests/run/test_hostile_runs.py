"""Whole runs over hostile input through ``sudokit solve`` (the array path and the general
reader): every puzzle keeps its record, in order (issue 30 items 2, 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokit.cli._app import main
from tests.helpers import ROOT

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def run_jsonl(path: Path, capsys) -> list[dict]:
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(path), "--format", "jsonl", "--method", "propagate"])
    assert stop.value.code in (0, 1)
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("bad", [" ".join(["0"] * 80 + ["1" * 5000]),
                                 f"{TOP1}:99999999999999999999"])
def test_an_oversized_integer_among_puzzles_is_one_invalid_record(tmp_path: Path, capsys,
                                                                  bad: str) -> None:
    path = tmp_path / "in.txt"
    path.write_text((TOP1 + "\n") * 50 + bad + "\n" + (TOP1 + "\n") * 50)
    records = run_jsonl(path, capsys)
    assert [r["line"] for r in records] == list(range(1, 102))
    assert [r["status"] for r in records].count("solved") == 100
    assert records[50]["status"] == "invalid" and "in.txt:51:" in records[50]["error"]


def resume(source: Path, output: Path, capsys, fmt: str = "line") -> tuple[int, str]:
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(source), "--output", str(output), "--resume", "-f", fmt])
    return stop.value.code, capsys.readouterr().err


def test_resume_refuses_a_foreign_output_whose_last_line_is_a_solution(tmp_path: Path,
                                                                       capsys) -> None:
    lines = (ROOT / "tests" / "data" / "norvig" / "sudoku-top95.txt").read_text().splitlines()
    theirs, ours = tmp_path / "theirs.txt", tmp_path / "ours.txt"
    theirs.write_text("\n".join(lines[:10]) + "\n")
    ours.write_text("\n".join(lines[50:60]) + "\n")
    output = tmp_path / "out.txt"
    with pytest.raises(SystemExit):
        main(["solve", str(theirs), "--output", str(output), "-m", "propagate"])
    capsys.readouterr()
    before = output.read_bytes()
    output.write_bytes(before[:len(before) // 2])  # an interrupted run, of the other input
    kept = output.read_bytes()
    code, err = resume(ours, output, capsys)
    assert code == 2 and "output record 1 is no solution of it" in err
    assert output.read_bytes() == kept  # not cut


JIGSAW = TOP1 + ";" + "aaabbbccc" * 3 + "dddeeefff" * 3 + "ggghhhiii" * 3
"""A puzzle in the compact form: the input is read by the general reader, not as arrays."""


@pytest.mark.parametrize("text", [b"my notes\nhalf a line", b"invalid nowhere:3:1: x\nmore"])
@pytest.mark.parametrize("puzzle", [TOP1, JIGSAW])
def test_resume_never_cuts_an_unrelated_file(tmp_path: Path, capsys, text: bytes,
                                             puzzle: str) -> None:
    source = tmp_path / "in.txt"
    source.write_text((puzzle + "\n") * 3)
    output = tmp_path / "notes.txt"
    output.write_bytes(text)
    code, err = resume(source, output, capsys)
    assert code == 2 and "not resumed, not cut" in err
    assert output.read_bytes() == text


def test_resume_checks_jsonl_records_before_the_last(tmp_path: Path, capsys) -> None:
    source = tmp_path / "in.txt"
    source.write_text((TOP1 + "\n") * 4)
    output = tmp_path / "out.jsonl"
    with pytest.raises(SystemExit):
        main(["solve", str(source), "--output", str(output), "-f", "jsonl"])
    capsys.readouterr()
    records = output.read_text().splitlines()
    records[0] = records[0].replace('"line": 1', '"line": 7')
    output.write_text("\n".join(records[:3]) + "\n")
    code, err = resume(source, output, capsys, "jsonl")
    assert code == 2 and "output record 1 names" in err


def test_the_array_path_and_the_general_reader_agree_on_lines_over_256_kib(
        tmp_path: Path, capsys) -> None:
    from sudokit.formats.text import read_puzzles

    path = tmp_path / "long.txt"
    long = [b"1" * 300_000, b"1" * 262_143, b"2" * 262_144, "\u00e9".encode() * 262_144,
            b"\xff" * 300_000, b"3" * 300_000 + b"\r" + TOP1.encode(), b"#" + b"x" * 300_000,
            b" " * 300_000]
    path.write_bytes(b"".join(TOP1.encode() + b"\n" + line + b"\r\n" for line in long))
    by_array = [(r["line"], r["error"]) for r in run_jsonl(path, capsys)]
    by_reader = [(r.line, str(r.error) if r.error else None) for r in read_puzzles(path)]
    assert by_array == by_reader
    assert sum(error is None for _, error in by_array) == len(long) + 1
