"""Whole runs over hostile input through ``sudokit solve`` (the array path and the general
reader): every puzzle keeps its record, in order (issue 30 items 2, 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokit.cli._app import main

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
