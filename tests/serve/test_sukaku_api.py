"""Pencil-mark (Sukaku) puzzles through the board's JSON API: ``/api/parse`` answers each
cell's given candidates (``allowed``, what the board's automatic candidates start from, and
``given_candidates``), a Sukaku line and the board's link form (9 bits a cell,
formats/marklink.py, any side) that draw the very same board; a hint's step stays within them. The grids are tests/data/sukaku/candidate_grids.txt's
public ones (Ruud van der Werf's, Sudopedia's, SukakuExplainer's)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("httpx")  # Starlette's test client
from starlette.testclient import TestClient  # noqa: E402

from sudokit.formats.marklink import marks_link, read_marks_link  # noqa: E402
from sudokit.serve import Settings, create_app  # noqa: E402
from sudokit.serve.api import read_puzzle  # noqa: E402
from tests.helpers import DATA, EXAMPLES  # noqa: E402

GRIDS = [part.strip() for part in (DATA / "sukaku/candidate_grids.txt").read_text().split("\n\n")]
TOP1 = EXAMPLES.joinpath("top95.txt").read_text().split()[0]


def written_candidates(grid: str) -> list[list[int]]:
    """Each cell's candidates as the grid's text writes them (read here by hand, not by
    sudokit): the rows of candidate groups, frames, comments and ``|`` left out."""
    cells: list[list[int]] = []
    for row in grid.splitlines():
        if row.startswith("#") or row[:1] in ".:'+*":
            continue
        cells += [sorted(map(int, group)) for group in row.replace("|", " ").split()]
    assert len(cells) == 81
    return cells


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(Settings(time_limit=60.0))
    yield TestClient(app)
    app.state.lanes.stop()


def post(client: TestClient, name: str, body: object) -> dict:
    response = client.post(f"/api/{name}", json=body)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("grid", GRIDS, ids=["werf", "sudopedia", "sukakuexplainer"])
def test_parse_answers_the_given_candidates_and_a_sukaku_line(client: TestClient, grid: str
                                                              ) -> None:
    written = written_candidates(grid)
    answer = post(client, "parse", {"puzzle": grid})
    for cell, digits in enumerate(written):
        if len(digits) == 1:
            assert answer["givens"][cell] == digits[0] and answer["given_candidates"][cell] is None
        else:
            assert answer["givens"][cell] == 0 and answer["allowed"][cell] == digits
            assert answer["given_candidates"][cell] == (digits if len(digits) < 9 else None)
    line = answer["puzzle"]
    assert len(line) == 729 and line == "".join(
        "".join(str(d) if d in digits else "." for d in range(1, 10)) for digits in written)
    assert read_marks_link(answer["compact"]) == (9, written)  # the share link's form
    for short in (line, answer["compact"]):  # both draw the very same board
        again = post(client, "parse", {"puzzle": short})
        for field in ("svg", "givens", "allowed", "given_candidates", "puzzle", "variant",
                      "compact"):
            assert again[field] == answer[field], field
    assert read_puzzle({"puzzle": answer["compact"]}).geometry == read_puzzle(
        {"puzzle": grid}).geometry  # the same rules: every method reads the same puzzle


@pytest.mark.parametrize("side", [4, 16, 25])
def test_the_link_form_reads_back_exactly_on_every_side(client: TestClient, side: int) -> None:
    """9 bits a cell on 9x9 (127 characters); N bits on N x N, 25x25 too, where no Sukaku line
    exists: the candidates the parse answers are those written, and its form is the text."""
    rng = random.Random(side)
    cells = [sorted(rng.sample(range(1, side + 1), rng.randint(2, side))) for _ in range(side ** 2)]
    for cell in rng.sample(range(side ** 2), side):  # some cells of one candidate: givens
        cells[cell] = [rng.randint(1, side)]
    text = marks_link(cells, side)
    assert len(text) == len(f"sk{side}.") + (-(-side ** 3 // 8) * 8 + 5) // 6
    answer = post(client, "parse", {"puzzle": text})
    assert answer["side"] == side and answer["compact"] == text
    for cell, digits in enumerate(cells):
        given = answer["givens"][cell]
        assert [given] == digits if given else answer["allowed"][cell] == digits, cell
        assert answer["given_candidates"][cell] == (digits if 1 < len(digits) < side else None)


@pytest.mark.parametrize(("text", "expected"), [
    ("sk9.AAA", "<request>:1:5: expected 123 base64url characters"),
    ("sk9." + "A" * 123, "<request>:1:5: cell 1 (r1c1) has no candidate"),
    ("sk1.x", "<request>:1:3: expected a side of 2 to 64"),
])
def test_a_broken_link_form_is_a_clear_400(client: TestClient, text: str, expected: str) -> None:
    response = client.post("/api/parse", json={"puzzle": text})
    assert response.status_code == 400 and response.json()["error"].startswith(expected)


@pytest.mark.parametrize("grid", GRIDS, ids=["werf", "sudopedia", "sukakuexplainer"])
def test_a_hint_stays_within_the_given_candidates(client: TestClient, grid: str) -> None:
    allowed = post(client, "parse", {"puzzle": grid})["allowed"]
    step = post(client, "hint", {"puzzle": grid, "marks": [None] * 81})["step"]
    assert step is not None
    for cell, digit in step["board"]["placements"] + step["board"]["eliminations"]:
        assert digit in allowed[cell], (cell, digit, step["text"])


def test_a_plain_puzzle_has_no_given_candidates(client: TestClient) -> None:
    answer = post(client, "parse", {"puzzle": TOP1})
    assert answer["puzzle"] == TOP1 and answer["given_candidates"] == [None] * 81
    assert answer["allowed"] == [list(range(1, 10))] * 81
