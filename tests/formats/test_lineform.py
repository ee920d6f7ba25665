"""The array path reads what the general reader reads, and the CLI writes the same bytes on both.

The line-form reader (:mod:`sudokit.formats.lineform`) must give the same records (line, givens, error,
expected solution and count, style) as :func:`sudokit.formats.read_puzzles` on any input: real
files, and seeded random mixes of every form with junk lines (stray numbers, headers, typos,
truncated lines, bad bytes, lone carriage returns, CSV headers that reorder columns).
"""

from __future__ import annotations

import importlib
import io
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit import Status, solve_array
from sudokit.formats.linecodec import Codec, encode_rows, load_lookup, map_bytes
from sudokit.formats.lineform import LineReader
from sudokit.formats.text import read_puzzles
from sudokit.model.geometry import Geometry
from sudokit.model.puzzle import solves
from sudokit.run.chunk import solve_chunk
from sudokit.run.request import Request
from tests.helpers import DATA, EXAMPLES

REAL = [DATA / "norvig/sudoku-top95.txt", DATA / "tdoku/puzzles2_17_clue_first300",
        DATA / "csv/kaggle_first200.csv", DATA / "csv/kyubyong_test.csv",
        DATA / "invalid/tdoku_test_puzzles", DATA / "large/bnguyen_36x36.txt",
        DATA / "large/aprivitera_25x25.txt", EXAMPLES / "16x16.txt", EXAMPLES / "grid.txt"]


def array_records(data: bytes, sizes: tuple[int, ...] = (7, 50, 256), **kwargs) -> list:
    """Records of the array path in input order (fast rows turned into Records)."""
    reader = LineReader(io.BytesIO(data), "x", sizes=sizes, **kwargs)
    out = []
    for chunk in reader.chunks():
        items = list(chunk.general)
        for rows in chunk.fast:
            items += [(int(p), rows.record(i, "x")) for i, p in enumerate(rows.positions)]
        items.sort(key=lambda item: item[0])
        assert [p for p, _ in items] == list(range(chunk.size))
        out += [record for _, record in items]
    return out


def key(record) -> tuple:
    givens = record.puzzle.givens if record.puzzle else None
    return (record.line, givens, str(record.error), record.expected, record.expected_count,
            record.style)


def same_records(data: bytes, tmp_path: Path, **kwargs) -> None:
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    expected = [key(r) for r in read_puzzles(path, name="x", **kwargs)]
    assert [key(r) for r in array_records(data, **kwargs)] == expected


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_files_read_the_same(path: Path, tmp_path: Path) -> None:
    same_records(path.read_bytes(), tmp_path)


def _mix(rng: random.Random) -> bytes:
    top = (DATA / "norvig/sudoku-top95.txt").read_bytes().splitlines()
    kaggle = (DATA / "csv/kaggle_first200.csv").read_bytes().splitlines()[:40]
    tdoku = (DATA / "invalid/tdoku_test_puzzles").read_bytes().splitlines()
    grid = (EXAMPLES / "grid.txt").read_bytes().splitlines()
    big = (EXAMPLES / "16x16.txt").read_bytes().splitlines()
    junk = [b"2", b"33", b"9", b"", b"   ", b"# note", b"x1", b"\xff\xfe", b"quizzes,solutions",
            b"solutions,quizzes", b"1.5 2", b"---+---", b"3", b"3 " + top[0], top[1][:80],
            top[2] + b"7", b"\r", b"4", b"1...", top[3] + b"," + top[4],
            top[5].replace(b".", b"0") + b"," + top[5].replace(b".", b"1"), b"puzzle,x,solution",
            top[6] + b":1", top[7] + b":x", b"3 " + top[8][:40] + b"\rabc"]
    parts: list[bytes] = []
    for _ in range(rng.randint(1, rng.choice([10, 80, 400]))):
        pick = rng.random()
        if pick < 0.4:
            parts.append(rng.choice(top))
        elif pick < 0.5:
            parts.append(rng.choice(kaggle))
        elif pick < 0.6:
            parts.append(rng.choice(tdoku))
        elif pick < 0.65:
            parts += grid
        elif pick < 0.68:
            parts += big
        else:
            parts.append(rng.choice(junk))
    return b"\n".join(parts) + rng.choice([b"", b"\n", b"\r\n"])


@pytest.mark.parametrize("seed", range(40))
def test_random_mixes_read_the_same(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    same_records(_mix(rng), tmp_path, **rng.choice([{}, {}, {"box": (3, 3)}]))


def test_long_line_is_one_error(tmp_path: Path) -> None:
    top = (DATA / "norvig/sudoku-top95.txt").read_bytes().splitlines()
    data = top[0] + b"\n" + b"1" * 300_000 + b"\n" + top[1] + b"\n"
    same_records(data, tmp_path)
    records = array_records(data)
    assert [r.puzzle is None for r in records] == [False, True, False]


@pytest.mark.parametrize("ending", [b"\r", b"\r\n", b"\n\r"])
def test_line_endings_over_a_read_block(ending: bytes, tmp_path: Path) -> None:
    """CR-only, CRLF and LF-CR files over the 1 MiB read block (issue 43, item 7: a CR-only
    file was one overlong line): every line read and numbered as universal newlines do."""
    top = (DATA / "norvig/sudoku-top95.txt").read_bytes().splitlines()
    data = ending.join(top * 150) + ending  # 1.17 MB
    same_records(data, tmp_path)
    assert sum(r.puzzle is not None for r in array_records(data)) == 95 * 150


@pytest.mark.parametrize("shift", [-1, 0, 1])
def test_crlf_cut_by_the_read_block_is_one_ending(shift: int) -> None:
    """A \\r\\n whose \\r ends one read and whose \\n starts the next is one line end."""
    from sudokit.formats.lineblocks import _BLOCK

    top = (DATA / "norvig/sudoku-top95.txt").read_bytes().splitlines()[0]
    comments, rest = divmod(_BLOCK - 1 + shift, 100)  # the \r at byte _BLOCK + shift
    head = b"#" * 99 + b"\n"
    data = head * comments + b"#" * rest + b"\r\n" + top + b"\r" + top + b"\r\r\n" + top
    assert data.index(b"\r") == _BLOCK - 1 + shift
    records = array_records(data)
    assert [r.line for r in records] == [comments + 2, comments + 3, comments + 5]


def test_cli_reads_a_cr_only_file_and_stdin(tmp_path: Path) -> None:
    top = (DATA / "norvig/sudoku-top95.txt").read_bytes().splitlines()
    path = tmp_path / "cr.txt"
    path.write_bytes(b"\r".join(top * 120) + b"\r")
    by_file = run_cli(str(path), "-m", "fast", "-q")
    with open(path, "rb") as stdin:
        by_stdin = subprocess.run([sys.executable, "-m", "sudokit", "solve", "-m", "fast", "-q"],
                                  stdin=stdin, capture_output=True, text=True)
    for done in (by_file, by_stdin):
        lines = done.stdout.splitlines()
        assert done.returncode == 0, done.stderr
        assert len(lines) == 95 * 120 and all(len(line) == 81 for line in lines)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokit", "solve", *args],
                          capture_output=True, text=True)


@pytest.mark.parametrize("seed", range(3))
def test_cli_array_path_writes_what_the_object_path_writes(seed: int, tmp_path: Path) -> None:
    """Line form goes on the array path; a grid output forces the object path: same records."""
    path = tmp_path / "mixed.txt"
    path.write_bytes(_mix(random.Random(seed)))
    fast = run_cli(str(path), "--unique", "-m", "fast")
    slow = run_cli(str(path), "--unique", "-m", "fast", "--grid-output", str(tmp_path / "g"))
    assert fast.returncode == slow.returncode
    assert fast.stdout == slow.stdout
    messages = [ln for ln in fast.stderr.splitlines() if ln.startswith("sudokit:")]
    assert messages == [ln for ln in slow.stderr.splitlines() if ln.startswith("sudokit:")]


def test_cli_reports_startup_apart(tmp_path: Path) -> None:
    done = run_cli(str(DATA / "tdoku/puzzles2_17_clue_first300"), "--output",
                   str(tmp_path / "out.txt"))
    assert done.returncode == 0
    assert "start-up s" in done.stderr and "solving s" in done.stderr
    assert len((tmp_path / "out.txt").read_text().splitlines()) == 300


def test_solves_rejects_every_kind_of_wrong_grid() -> None:
    geometry = Geometry.of(2, 2)
    good = np.array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], np.uint8)
    givens = np.zeros((5, 16), np.uint8)
    givens[4, 0] = 2  # the grid changes this given
    bad_unit = good.copy()
    bad_unit[[0, 1]] = bad_unit[[1, 0]]  # rows fine, columns and boxes broken
    empty = good.copy()
    empty[5] = 0
    high = good.copy()
    high[5] = 9
    grids = np.stack([good, bad_unit, empty, high, good])
    assert solves(grids, givens, geometry).tolist() == [True, False, False, False, False]


def test_solve_chunk_names_the_unit_of_a_duplicate_given() -> None:
    givens = np.zeros((2, 81), np.uint8)
    givens[1, [0, 5]] = 7
    result = solve_chunk(givens, Geometry.of(3, 3), Request("fast"))
    assert result.status.tolist() == [Status.SOLVED, Status.UNSATISFIABLE]
    assert "given twice in row 1" in result.messages[1]


def test_solve_array_counts_and_threads() -> None:
    puzzles = list(read_puzzles(DATA / "tdoku/puzzles7_serg_benchmark_first300"))
    givens = np.array([r.puzzle.givens for r in puzzles[:50]])
    one = solve_array(givens, count_limit=2)
    two = solve_array(givens, count_limit=2, jobs=2)
    assert (one.status == Status.MULTIPLE).all() and (one.found == 2).all()
    assert np.array_equal(one.solutions, two.solutions)
    with pytest.raises(ValueError):
        solve_array(np.full((1, 81), 10))


@pytest.mark.parametrize(("puzzles", "jobs", "method"), [(3, 1, "propagate"), (3, 2, "propagate"),
                                                         (20, 2, "portfolio")])
def test_method_choice_looks_past_leading_comments(tmp_path: Path, puzzles: int, jobs: int,
                                                   method: str) -> None:
    """Tasks of one line (``--jobs 2``) that hold only comments do not decide the method."""
    from sudokit.run.pipeline import solve_inputs

    lines = (DATA / "norvig/sudoku-top95.txt").read_text().splitlines()[:puzzles]
    path = tmp_path / "commented.txt"
    path.write_text("# a comment\n# another\n\n" + "\n".join(lines) + "\n")
    run = solve_inputs([str(path)], jobs=jobs)
    assert run.method == method
    assert sum(int(block.counts[Status.SOLVED]) for block in run.blocks) == puzzles


def test_compiled_byte_lookup_loads_and_maps_as_numpy() -> None:
    importlib.import_module("sudokit.fast")  # map_bytes uses the compiled look-up once loaded
    load_lookup(16)
    codec = Codec.of(Geometry.of(2, 2), None)
    rows = np.frombuffer(b"12.4....3...4..1" + b"12349...........", np.uint8).reshape(2, 16)
    digits, bad = map_bytes(rows, codec.decode)
    assert bad.tolist() == [False, True]
    assert digits[0].tolist() == [1, 2, 0, 4, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 1]
    assert encode_rows(digits[:1], codec).tobytes() == b"12.4....3...4..1\n"



@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_files_with_their_mark(encoding: str, tmp_path: Path) -> None:
    """UTF-16 and UTF-32 files (found by their byte-order mark) read as their text (issue 43,
    item 11: every puzzle was invalid)."""
    import codecs

    text = "\n".join((DATA / "norvig/sudoku-top95.txt").read_text().splitlines()[:12]) + "\n"
    mark = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
            "utf-32-le": codecs.BOM_UTF32_LE, "utf-32-be": codecs.BOM_UTF32_BE}.get(encoding, b"")
    data = mark + text.encode(encoding)
    same_records(data, tmp_path)
    assert [r.puzzle is not None for r in array_records(data)] == [True] * 12
    assert [key(r) for r in array_records(data)] == [key(r) for r in array_records(
        text.encode())]


def test_a_mark_starting_a_later_line_is_dropped(tmp_path: Path) -> None:
    """Files joined with cat: the second one's UTF-8 mark starts a later line."""
    lines = (DATA / "norvig/sudoku-top95.txt").read_bytes().splitlines()[:6]
    mark = b"\xef\xbb\xbf"
    data = mark + b"\n".join(lines[:3]) + b"\n" + mark + b"\n".join(lines[3:]) + b"\n" + mark
    same_records(data, tmp_path)
    assert [r.puzzle is not None for r in array_records(data)] == [True] * 6
