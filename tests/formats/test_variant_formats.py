"""Reading and writing variant puzzles: Janko files, the compact line form, variant names and
directives; round trips; bad input as invalid records with file, line and column."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sudokit.errors import InvalidPuzzle
from sudokit.formats.compact import format_compact
from sudokit.formats.janko import format_janko_puzzle, read_janko
from sudokit.formats.text import format_line, needs_general_reader, read_puzzles
from sudokit.model.constraints import Variant
from sudokit.model.geometry import Geometry
from sudokit.model.layouts import LAYOUTS
from sudokit.model.variants import parse_spec
from tests.helpers import DATA

JANKO = DATA / "janko"
SAMPLES = sorted(JANKO.glob("*/problems/*.txt"))
KILLER = JANKO / "KillerSudoku" / "problems" / "22_9x9.txt"
JIGSAW = JANKO / "JigsawSudoku" / "problems" / "94_9x9.txt"
EVEN_ODD = JANKO / "EvenOddSudoku" / "problems" / "2_9x9.txt"


def records(text: str, **kwargs) -> list:
    return list(read_puzzles(io.StringIO(text), name="t.txt", **kwargs))


def one(text: str, **kwargs):
    found = records(text, **kwargs)
    assert len(found) == 1
    return found[0]


def where(record) -> tuple:
    err = record.error
    assert err is not None and record.puzzle is None
    return err.source, err.line, err.column


# -- names ------------------------------------------------------------------------------------

def test_names_combine_rules_types_and_a_layout() -> None:
    spec = parse_spec("Killer+diagonal+anti_knight")
    assert spec.rules == Variant.DIAGONAL | Variant.ANTI_KNIGHT and spec.kinds == {"killer"}
    assert parse_spec(spec.text) == spec
    assert parse_spec("samurai").layout == "samurai" and not parse_spec("hyper").kinds
    with pytest.raises(InvalidPuzzle, match="found 'samurai2'"):
        parse_spec("samurai2")
    with pytest.raises(InvalidPuzzle, match="one layout"):
        parse_spec("samurai+sohei")


def test_every_layout_is_a_valid_geometry() -> None:
    cells = {"samurai": 369, "butterfly": 144, "sumo": 909, "windmill": 333, "gattai-8": 576,
             "shogun": 783, "sohei": 288, "clueless-1": 729, "clueless-2": 729}
    for name, layout in LAYOUTS.items():
        assert Geometry.of(3, 3, layout=layout).n_cells == cells[name]


# -- Janko files ------------------------------------------------------------------------------

@pytest.mark.parametrize("problem", SAMPLES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_janko_puzzles_round_trip(problem: Path, tmp_path: Path) -> None:
    """Read, write back with format_janko_puzzle, read again: the same puzzle (in a folder of
    the same type name, which layouts on shared canvases need)."""
    puzzle = read_janko(problem)
    folder = tmp_path / problem.parent.parent.name
    folder.mkdir()
    copy = folder / "p.txt"
    copy.write_text(format_janko_puzzle(puzzle))
    assert read_janko(copy) == puzzle
    assert [r.puzzle for r in read_puzzles(copy)] == [puzzle]


def test_janko_types_are_detected_without_names(tmp_path: Path) -> None:
    for path, feature in ((KILLER, "killer"), (JIGSAW, "jigsaw"), (EVEN_ODD, "even-odd")):
        record = one(path.read_text())
        assert record.puzzle.geometry.features == {feature}
    killer = one(KILLER.read_text()).puzzle.geometry
    first_sum = int(KILLER.read_text().splitlines()[1].split()[0])
    assert killer.cages[0].total == first_sum and 0 in killer.cages[0].cells


def test_janko_solution_is_written_back_in_janko_form() -> None:
    record = one(KILLER.read_text())
    solution = (KILLER.parent.parent / "solutions" / KILLER.name).read_text()
    grid = [int(t) for t in solution.split()[2:]]
    assert format_line(grid, None, record.style).split() == solution.split()


def test_janko_type_names_decide_and_are_checked() -> None:
    text = JIGSAW.read_text()
    assert one(text, variant="jigsaw").puzzle.geometry.regions is not None
    bad = one(text, variant="killer")  # letters as cage ids, but no sums in the cells
    assert where(bad)[1] >= 11 and "expected one sum" in bad.error.reason  # in the ids grid
    missing = one(EVEN_ODD.read_text(), variant="jigsaw")
    assert "names jigsaw" in missing.error.reason


def janko_killer(sums: list[str], ids: list[str]) -> str:
    return "4 4\n" + "\n".join(sums) + "\n" + "\n".join(ids) + "\n"


IDS_4 = ["a a b b", "c c d d", "e e f f", "g g h h"]


def test_janko_impossible_cage_sum_is_located() -> None:
    text = janko_killer(["3 - 7 -", "3 - 7 -", "3 - 9 -", "3 - 3 -"], IDS_4)
    record = one(text)
    assert where(record) == ("t.txt", 4, 5)
    assert "sum 9 is impossible, expected 3..7" in str(record.error)


def test_janko_region_of_wrong_size_is_located() -> None:
    text = ("4 4\n1 - - -\n- - - -\n- - - -\n- - - -\n"
            "a a b b\na a b b\nc c d d\nc c d e\n")
    record = one(text, variant="jigsaw")
    assert where(record) == ("t.txt", 8, 5) and "region 'd' has 3 cells" in record.error.reason


def test_janko_row_of_wrong_length_and_given_outside_the_grids() -> None:
    short = one("4 4\n1 - - -\n- - -\n- - - -\n- - - -\n")
    assert where(short)[1] == 3 and "expected 4 tokens per row" in short.error.reason
    samurai = (JANKO / "SamuraiSudoku" / "problems" / "2_21x21.txt").read_text().splitlines()
    row = samurai[1].split()
    row[10] = "5"  # the gap between the two top grids
    samurai[1] = " ".join(row)
    record = one("\n".join(samurai), variant="samurai")
    assert where(record) == ("t.txt", 2, 21) and "where no grid is" in record.error.reason


def test_janko_canvas_of_several_layouts_needs_a_name() -> None:
    text = (JANKO / "SohEiSudoku".replace("E", "e") / "problems" / "2_21x21.txt").read_text()
    assert "name the layout" in one(text).error.reason
    assert one("# variant: sohei\n" + text).puzzle.geometry.layout == LAYOUTS["sohei"]
    wrong = one(text, variant="butterfly")
    assert "butterfly puzzle is drawn on a 12x12 canvas" in wrong.error.reason


# -- the compact line form --------------------------------------------------------------------

KILLER_4 = "1...........4...;aabbccdd.eeff.gg;3,7,7,3,5,7,3"


def test_compact_killer_reads_and_round_trips() -> None:
    puzzle = one(KILLER_4).puzzle
    g = puzzle.geometry
    assert g.features == {"killer"} and [c.total for c in g.cages] == [3, 7, 7, 3, 5, 7, 3]
    assert g.cage_of[8] == -1 and puzzle.givens[0] == 1
    assert one(format_compact(puzzle)).puzzle == puzzle


@pytest.mark.parametrize("path", [KILLER, JIGSAW, EVEN_ODD])
def test_compact_form_round_trips_janko_puzzles(path: Path) -> None:
    puzzle = read_janko(path)
    line = format_compact(puzzle)
    assert one(line).puzzle == puzzle
    assert one(f"# variant: diagonal\n{line}").puzzle.geometry == puzzle.geometry.with_variant(
        "diagonal")


def test_compact_jigsaw_and_killer_together() -> None:
    regions = "1122" "1122" "3344" "3344"
    line = f"................;{regions};aabbccddeeffgghh;3,7,3,7,3,7,3,7"
    g = one(line).puzzle.geometry
    assert g.features == {"jigsaw", "killer"}
    assert one(format_compact(one(line).puzzle)).puzzle.geometry == g


def test_compact_layout_line_needs_the_layout_name() -> None:
    puzzle = read_janko(JANKO / "SamuraiSudoku" / "problems" / "2_21x21.txt")
    line = puzzle.line
    assert len(line) == 369
    assert one(line, variant="samurai").puzzle == puzzle
    assert one(f"# variant: samurai\n{line}").puzzle == puzzle
    assert one(line).error is not None


@pytest.mark.parametrize(("line", "column", "reason"), [
    ("1...........4...;aabbccdd.eeff.gg;3,7,7,3,5,7,30", 47, "total 30 is impossible"),
    ("1...........4...;aabbccdd.eeff.gg;3,7,5", 35, "expected 7 cage totals"),
    ("1...........4...;aabbccdd.eeff.g;3,7,7,3,5,7,3", 17, "found ';'"),
    ("1...........4...;1122112233443345", 28, "region '4' has 3 cells"),
    ("1...........4...;eeoo....ee..oo..;eo..............", 35, "a second parity field"),
    ("1...........4...;3,4", 17, "found ';'"),
    ("1...........4...;aabbccdd.eeff.gg;3,7,7,3,5,7,3;3", 49, "cage totals must follow"),
])
def test_compact_errors_are_located(line: str, column: int, reason: str) -> None:
    record = one(line)
    assert where(record) == ("t.txt", 1, column), record.error
    assert reason in record.error.reason


def test_type_named_for_a_plain_line_is_invalid() -> None:
    plain = "1..." "..1." ".1.." "...1"
    record = one(f"# variant: killer\n{plain}")
    assert where(record)[:2] == ("t.txt", 2) and "names killer" in record.error.reason


def test_unknown_directive_name_is_located() -> None:
    record = one("# variant: samurai+kilter\n")
    assert where(record) == ("t.txt", 1, 12) and "found 'samurai+kilter'" in str(record.error)


def test_geometry_rejects_overlapping_cages() -> None:
    """The id forms give every cell one id, so cages read from files never overlap; cages
    built in Python that do are refused by the model."""
    with pytest.raises(InvalidPuzzle, match="overlap"):
        Geometry.of(2, 2, cages=[(3, (0, 1)), (4, (1, 2))])


def test_general_reader_is_chosen_for_variant_files(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("1..." * 4 + "\n")
    assert not needs_general_reader(str(plain), "diagonal")
    assert needs_general_reader(str(plain), "killer")
    assert needs_general_reader(str(KILLER), "standard")
    compact = tmp_path / "compact.txt"
    compact.write_text(KILLER_4 + "\n")
    assert needs_general_reader(str(compact), "standard")
    late = tmp_path / "late.txt"  # a directive late in the file: the array path handles it
    late.write_text("1...\n" * 20000 + "# variant: samurai\n")
    assert not needs_general_reader(str(late), "standard")


def test_array_path_hands_typed_directives_to_the_general_reader(tmp_path: Path) -> None:
    """Plain lines (the array path), then ``# variant: samurai`` and a Janko samurai file past
    the first 64 KiB, then ``# variant: standard`` and a plain line again."""
    from typer.testing import CliRunner

    from sudokit.cli import app

    plain = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    folder = DATA / "janko" / "SamuraiSudoku"
    samurai = (folder / "problems" / "2_21x21.txt").read_text().rstrip("\n")
    path = tmp_path / "late.txt"
    path.write_text(f"{plain}\n" * 1000 + f"# variant: samurai\n{samurai}\n"
                    f"# variant: standard\n{plain}\n# variant: killer\n{plain}\n")
    assert not needs_general_reader(str(path), "standard")
    result = CliRunner().invoke(app, ["solve", str(path)])
    lines = result.stdout.splitlines()
    solved = lines[0]
    assert lines[:1000] == [solved] * 1000
    assert lines[1000:1022] == (folder / "solutions" / "2_21x21.txt").read_text().splitlines()
    assert lines[1022] == solved
    assert lines[1023].startswith(f"invalid {path}:1027:1: the variant names killer")


@pytest.mark.parametrize("sizes", [(3,), (5, 7), (7, 50, 256)])
def test_typed_directives_read_alike_on_both_paths_whatever_the_chunks(sizes, tmp_path) -> None:
    from .test_lineform import array_records, key

    plain = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    samurai = (DATA / "janko" / "SamuraiSudoku" / "problems" / "2_21x21.txt").read_text()
    text = (f"{plain}\n" * 4 + "# variant: samurai\n" + samurai.rstrip("\n") + "\n\n"
            + f"# variant: killer\n{KILLER_4}\n{plain}\n# variant: diagonal\n{plain}\n"
            + "# variant: standard\n" + f"{plain}\n" * 3)
    path = tmp_path / "mixed.txt"
    path.write_text(text)
    expected = [key(r) for r in read_puzzles(path, name="x")]
    assert len(expected) == 11 and expected[4][1] is not None  # the samurai puzzle
    assert [key(r) for r in array_records(text.encode(), sizes=sizes)] == expected
