"""Pencil-mark (Sukaku) puzzles through the board's JSON API: ``/api/parse`` answers each
cell's given candidates (``allowed``, what the board's automatic candidates start from, and
``given_candidates``) and a Sukaku line for the share link that draws the very same board;
a hint's step stays within them. The grids are tests/data/sukaku/candidate_grids.txt's
public ones (Ruud van der Werf's, Sudopedia's, SukakuExplainer's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("httpx")  # Starlette's test client
from starlette.testclient import TestClient  # noqa: E402

from sudokit.serve import Settings, create_app  # noqa: E402
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
    again = post(client, "parse", {"puzzle": line})  # the share link's form: the same board
    for field in ("svg", "givens", "allowed", "given_candidates", "puzzle", "variant"):
        assert again[field] == answer[field], field


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
