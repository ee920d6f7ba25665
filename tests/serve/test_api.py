"""The board's JSON API through Starlette's test client: every endpoint against the front doors
of run/, bad input (400 with the CLI's message), the time limit, the size limit and a fuzz of
malformed bodies (never a 500)."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("httpx")  # Starlette's test client

from starlette.testclient import TestClient  # noqa: E402

from sudokit.errors import LimitReached  # noqa: E402
from sudokit.model.puzzle import Puzzle  # noqa: E402
from sudokit.run.doors import count_solutions  # noqa: E402
from sudokit.run.doors import solve as solve_door  # noqa: E402
from sudokit.run.explain import explain, hint, rate  # noqa: E402
from sudokit.serve import Settings, create_app  # noqa: E402
from sudokit.serve.worker import Worker, WorkFailed  # noqa: E402
from tests.helpers import DATA, EXAMPLES, proc_cpu_seconds  # noqa: E402

TOP1 = EXAMPLES.joinpath("top95.txt").read_text().split()[0]
INKALA = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
KILLER = (DATA / "janko/KillerSudoku/problems/22_9x9.txt").read_text()


JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(Settings(time_limit=60.0))  # a first use may compile
    yield TestClient(app)
    app.state.lanes.stop()


@contextmanager
def app_of(settings: Settings | None = None) -> Iterator[Any]:
    """An app whose children are killed at the end."""
    app = create_app(settings)
    try:
        yield app
    finally:
        app.state.lanes.stop()


def post(client: TestClient, name: str, body: object) -> tuple[int, dict]:
    response = client.post(f"/api/{name}", json=body)
    return response.status_code, response.json()


def test_page_and_its_files_are_served_and_nothing_else(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "/static/page.js" in page.text
    for name in ("board.js", "page.js", "board.css", "index.html"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        if name.endswith(".js"):  # loaded as ES modules: a JavaScript MIME type is required
            assert "javascript" in response.headers["content-type"]
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/../../errors.py",
                 "/app.py", "/api/nothing"):
        assert client.get(path).status_code == 404, path


def test_parse_gives_the_geometry_and_the_board(client: TestClient) -> None:
    status, answer = post(client, "parse", {"puzzle": TOP1})
    assert status == 200 and answer["puzzle"] == TOP1 and answer["side"] == 9
    assert answer["box"] == [3, 3] and len(answer["peers"]) == 81 and len(answer["peers"][0]) == 20
    assert answer["svg"].count("data-cell=") == 81 and answer["givens"][0] == 4
    status, killer = post(client, "parse", {"puzzle": KILLER, "variant": "killer"})
    assert status == 200 and killer["variant"] == "killer" and killer["cages"]
    assert killer["svg"].count('class="sk-sum"') == len(killer["cages"])


def test_hint_is_the_hint_door_and_takes_progress_and_marks(client: TestClient) -> None:
    puzzle = Puzzle.parse(TOP1)
    step = hint(puzzle)
    status, answer = post(client, "hint", {"puzzle": TOP1})
    assert status == 200 and answer["step"]["technique"] == step.technique
    assert answer["step"]["board"]["cells"] == list(step.cells)
    assert answer["step"]["text"] == step.text and "placements" in answer["step"]
    (cell, digit), = step.placements
    grid = [0] * 81
    grid[cell] = digit  # the user placed it: the next hint is another step
    status, after = post(client, "hint", {"puzzle": TOP1, "grid": grid, "marks": [None] * 81})
    next_step = hint(Puzzle(puzzle.geometry, tuple(g or d for g, d in zip(puzzle.givens, grid))))
    assert status == 200 and after["step"]["board"]["cells"] == list(next_step.cells)


def test_explain_rate_solve_count_candidates_methods(client: TestClient) -> None:
    steps = explain(TOP1)
    status, answer = post(client, "explain", {"puzzle": TOP1})
    assert status == 200 and [s["technique"] for s in answer["steps"]] == [s.technique for s in steps]
    assert answer["steps"][0]["step"] == 1 and len(answer["steps"][0]["candidates"]) == 81
    assert answer["rating"] == rate(TOP1).rating and answer["solved"]
    status, rated = post(client, "rate", {"puzzle": TOP1})
    assert status == 200 and rated["status"] == "rated" and rated["rating"] == rate(TOP1).rating
    status, solved = post(client, "solve", {"puzzle": TOP1, "method": "propagate"})
    assert status == 200 and solved["status"] == "solved" and solved["method"] == "propagate"
    assert Puzzle.parse(TOP1).geometry and len(solved["solution"]) == 81
    assert solved["stats"]["nodes"] >= 1 and solved["grid"][0] == 4
    status, mrv = post(client, "solve", {"puzzle": TOP1, "method": "mac",
                                         "options": {"select": "mrv"}, "node_limit": 10 ** 6})
    assert status == 200 and mrv["status"] == "solved"
    status, counted = post(client, "count", {"puzzle": TOP1})
    assert status == 200 and counted["unique"] is True and counted["solutions_found"] == 1
    status, several = post(client, "count", {"puzzle": "." * 81})
    assert status == 200 and several["unique"] is False and several["solutions_found"] == 2
    status, cands = post(client, "candidates", {"puzzle": TOP1, "after": "propagate"})
    assert status == 200 and cands["candidates"][0] == [4]
    status, true = post(client, "candidates", {"puzzle": TOP1, "after": "true"})
    assert true["complete"] and true["candidates"] == [[d] for d in solve_door(TOP1).solution]
    several = "12..34.........."  # a 4x4 of 12 solutions
    status, true = post(client, "candidates", {"puzzle": several, "after": "true"})
    union = [sorted(set(col)) for col in zip(*count_solutions(several, limit=None).solutions)]
    assert true["complete"] and true["solutions_found"] == 12 and true["candidates"] == union
    assert true["candidates"][0] == [1] and true["candidates"][2] == [3, 4]
    answer = client.get("/api/methods").json()
    assert {"propagate", "fast"} <= {m["name"] for m in answer["methods"]}


def test_killer_and_16x16_are_solved(client: TestClient) -> None:
    status, killer = post(client, "solve", {"puzzle": KILLER, "variant": "killer"})
    assert status == 200 and killer["status"] == "solved" and killer["variant"] == "killer"
    big = (DATA / "janko/16x16Sudoku/problems/302_16x16.txt").read_text()
    status, solved = post(client, "solve", {"puzzle": big})
    assert status == 200 and solved["status"] == "solved" and len(solved["grid"]) == 256


def test_generate_makes_a_unique_puzzle_of_the_level() -> None:
    # as `sudokit serve` runs: kernels not yet in the disk cache compile in the background
    # (the generator runs as Python meanwhile); a level waits for the rater's kernels
    with app_of(Settings(time_limit=300.0, background_compile=True)) as app:
        _generate_each_way(TestClient(app))


def _generate_each_way(client: TestClient) -> None:
    status, made = post(client, "generate", {"size": 4, "seed": 7})
    assert status == 200 and made["size"] == 4 and len(made["puzzle"]) == 16
    status, counted = post(client, "count", {"puzzle": made["puzzle"]})
    assert counted["unique"] is True
    status, easy = post(client, "generate", {"level": "easy", "seed": 3})
    assert status == 200 and easy["level"] == "easy"


@pytest.mark.parametrize("name, body, message", [
    ("hint", {"puzzle": "12345"}, "<request>:1"),
    ("solve", {"puzzle": TOP1, "method": "nothing"}, "unknown method 'nothing'"),
    ("parse", {"puzzle": TOP1, "variant": "zigzag"}, "zigzag"),
    ("parse", {}, "expected 'puzzle'"),
    ("parse", {"puzzle": 5}, "'puzzle' must be puzzle text"),
    ("hint", {"puzzle": TOP1, "grid": [0] * 80}, "one entry per cell (81)"),
    ("hint", {"puzzle": TOP1, "grid": [5] + [0] * 80}, "r1c1 is given 4"),
    ("hint", {"puzzle": TOP1, "marks": [None, [99]] + [None] * 79}, "pencil mark 99"),
    ("hint", {"puzzle": "11" + TOP1[2:]}, "no solution"),
    ("generate", {"size": 10 ** 30}, "'size' must be 1..25"),
    ("candidates", {"puzzle": TOP1, "after": "magic"}, "'after' must be one of"),
    ("solve", {"puzzle": TOP1, "count_limit": True}, "'count_limit' must be an integer"),
    ("solve", {"puzzle": TOP1, "method": "mac", "options": {"select": "zzz"}}, "select"),
    ("solve", {"puzzle": TOP1, "options": {"a": [1]}}, "'options' must map"),
    ("solve", {"puzzle": TOP1, "options": {"time_limit": 5}}, "may not hold 'time_limit'"),
    ("solve", {"puzzle": TOP1, "options": {"trace": True, "request": 1}},
     "may not hold 'request', 'trace'"),
])
def test_bad_input_is_400_with_the_message(client: TestClient, name: str, body: dict,
                                           message: str) -> None:
    status, answer = post(client, name, body)
    assert status == 400 and message in answer["error"], answer


def test_the_cli_message_is_the_api_message(client: TestClient) -> None:
    from sudokit.errors import InvalidPuzzle
    from sudokit.formats.text import parse_puzzle

    with pytest.raises(InvalidPuzzle) as caught:
        parse_puzzle("12345", source="<request>")
    assert post(client, "parse", {"puzzle": "12345"})[1]["error"] == str(caught.value)


def test_bodies_that_are_not_json_objects_are_400(client: TestClient) -> None:
    for data in (b"{", b"[1, 2]", b"null", b"\xff\xfe", b"[" * 100_000):
        response = client.post("/api/parse", content=data, headers=JSON)
        assert response.status_code == 400 and "error" in response.json()


def test_size_limit() -> None:
    with app_of(Settings(max_body=1000)) as app:
        response = TestClient(app).post("/api/parse", json={"puzzle": TOP1 + " " * 2000})
        assert response.status_code == 413 and "over 1000 bytes" in response.json()["error"]
    with app_of() as app:  # the default: 1 MiB
        response = TestClient(app).post(
            "/api/parse", content=b'{"puzzle": "' + b" " * (1 << 20) + b'"}', headers=JSON)
        assert response.status_code == 413


def test_time_limit() -> None:
    with app_of(Settings(time_limit=0.3, quick_workers=1)) as app:
        client = TestClient(app)
        app.state.lanes.warm(wait=True)  # the child starts (as the server starts it)
        big = (DATA / "large/sam_25x25_medium.txt").read_text()
        status, answer = post(client, "solve", {"puzzle": big, "method": "mac"})
        assert status == 200 and answer["status"] == "timeout"  # the solve stopped itself
        assert "time limit 0.3 s reached" in answer["error"] and answer["seconds"] < 1.3
    with app_of(Settings(time_limit=0.1, grace=0.0)) as app:
        slow = (DATA / "large/aprivitera_25x25.txt").read_text()  # explained in ~1.5 s
        status, answer = post(TestClient(app), "explain", {"puzzle": slow})
        assert status == 503 and "time limit of 0.1 s" in answer["error"]


def children_busy(app: Any, within: float = 0.5) -> list[int]:
    """The server's children that used CPU over ``within`` seconds."""
    workers = app.state.lanes.quick.workers + app.state.lanes.slow.workers
    pids = [w.pid for w in workers if w.pid is not None]
    before = {pid: proc_cpu_seconds(pid) for pid in pids}
    time.sleep(within)
    return [pid for pid in pids if proc_cpu_seconds(pid) - before[pid] > 0.05 * within]


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc")
def test_explain_and_rate_stop_at_the_time_limit() -> None:
    big = (DATA / "large/aprivitera_25x25.txt").read_text()
    slow = {"explain": big, "rate": big}  # ~1.5 s each
    with app_of(Settings(time_limit=0.1, grace=0.05, quick_workers=1, slow_workers=1)) as app:
        client = TestClient(app)
        for worker in app.state.lanes.quick.workers + app.state.lanes.slow.workers:
            worker.warm(wait=True)
        for name, puzzle in slow.items():
            started = time.monotonic()
            status, answer = post(client, name, {"puzzle": puzzle})
            assert status == 503 and "time limit" in answer["error"], (name, answer)
            assert time.monotonic() - started < 5.0
            started = time.monotonic()
            assert children_busy(app) == []  # the CPU is free once the 503 is out
            assert time.monotonic() - started < 1.5


SLOW_GENERATE = {"size": 25, "level": "extreme", "symmetry": "rot180"}


def test_generate_past_the_limit_kills_its_process() -> None:
    worker = Worker()
    try:
        made, _seconds = worker.run("generate", {"size": 4, "seed": 3}, 120.0, 120.0)
        assert Puzzle.parse(made["puzzle"]).n_givens == made["givens"]
        pid = worker.pid
        with pytest.raises(LimitReached):
            # a 25x25 "extreme" with symmetry: 0.2-0.4 s once compiled, much more before
            worker.run("generate", SLOW_GENERATE, 0.05, 0.05)
        assert worker.kills == 1 and worker.pid is None
        with pytest.raises(ProcessLookupError):  # killed and reaped: no work goes on
            os.kill(pid, 0)
        with pytest.raises(WorkFailed, match="'size' must be 1..25"):  # a new child answers
            worker.run("generate", {"size": 99}, 120.0, 120.0)
    finally:
        worker.stop()
    with app_of(Settings(time_limit=0.05)) as app:
        status, answer = post(TestClient(app), "generate", SLOW_GENERATE)
        assert status == 503 and "time limit of 0.05 s" in answer["error"]
        assert sum(w.kills for w in app.state.lanes.slow.workers) == 1


def _junk(rng: random.Random, depth: int = 0) -> object:
    """A random JSON value: wrong types, huge numbers, odd strings, nesting."""
    pool = [None, True, -1, 0, 10 ** 40, -(10 ** 40), 1e308, float("nan"), 3.5, "", "x" * 300,
            ".", TOP1, "1" * 81, "\u0000\u202e", "4x4", "killer", "samurai", "99x99", [], {}]
    if depth < 3 and rng.random() < 0.3:
        return ([_junk(rng, depth + 1) for _ in range(rng.randrange(4))] if rng.random() < 0.5
                else {rng.choice(["puzzle", "grid", "a"]): _junk(rng, depth + 1)})
    return rng.choice(pool)


@pytest.mark.parametrize("requests", [
    250, pytest.param(1000, marks=pytest.mark.slow),  # the target: 1,000 (~10 s)
])
def test_fuzzed_bodies_never_crash_the_server(client: TestClient, requests: int) -> None:
    rng = random.Random(requests)
    fields = ["puzzle", "variant", "box", "grid", "marks", "method", "time_limit", "options",
              "node_limit",
              "count_limit", "size", "level", "seed", "after", "trial", "symmetry"]
    names = ["parse", "solve", "hint", "rate", "count", "candidates", "generate", "explain"]
    statuses = []
    for k in range(requests):
        name = names[k % len(names)]
        if k % 10 == 0:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        else:
            body = {f: _junk(rng) for f in rng.sample(fields, rng.randrange(1, 5))}
            if name in ("explain", "rate", "generate") and isinstance(body.get("puzzle"), str):
                body["puzzle"] = body["puzzle"][:20]  # bounded work for the slow doors
            body.pop("size", None) if name == "generate" else None
            data = json.dumps(body).encode()
        response = client.post(f"/api/{name}", content=data, headers=JSON)
        statuses.append(response.status_code)
        assert response.status_code in (200, 400, 503), (name, data[:200], response.text)
        assert isinstance(response.json(), dict)
    assert statuses.count(400) > requests // 2


def test_why_names_the_conflict_and_the_fixing_given(client: TestClient) -> None:
    duplicate = (DATA / "invalid/sudopedia_cp468/unsolvable/duplicate_row.txt").read_text()
    status, answer = post(client, "why", {"puzzle": duplicate})
    assert status == 200 and answer["verdict"] == "none"
    members = answer["reasons"][0]["members"]
    assert len(members) == 2 and {m["digit"] for m in members} == {members[0]["digit"]}
    two = (DATA / "invalid/sudopedia_cp468/multiple_solutions/two_solutions.txt").read_text()
    status, answer = post(client, "why", {"puzzle": two})
    assert status == 200 and answer["verdict"] == "several" and answer["fixes"]
    fix = answer["fixes"][0]
    digits = list(Puzzle.parse(two).givens)
    digits[fix["cell"]] = fix["digit"]
    assert count_solutions(Puzzle.from_digits(digits)).count == 1
    status, answer = post(client, "why", {"puzzle": two, "most": 0})
    assert status == 400 and "most" in answer["error"]


def test_a_second_warm_up_is_not_read_as_a_request_answer() -> None:
    """The server warms its children in the background and a caller may then warm one and
    wait: one warm-up message, one answer taken (a second warm-up's answer, a hint, was read
    as the next request's answer)."""
    worker = Worker()
    try:
        worker.warm(False)
        worker.warm(True)
        answer, _seconds = worker.run("solve", {"puzzle": TOP1}, 30.0, 60.0)
        assert answer["status"] == "solved" and "step" not in answer
        answer, _seconds = worker.run("solve", {"puzzle": TOP1}, 30.0, 60.0)
        assert answer["status"] == "solved"
    finally:
        worker.stop()
