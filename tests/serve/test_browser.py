"""The board in a real browser: headless system Chromium driven by Playwright against a live
server. A puzzle is typed, hints are checked against the hint door, steps applied to the end,
undone; a 16x16 and a killer solved; the share link restores the progress. Screenshots go to
``docs/images/`` (the README's pictures); hint latency and page load are printed (run with
``-s``), never asserted tightly.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.request
import statistics
import tempfile
from pathlib import Path
from typing import Any

import pytest

from sudokit.model.puzzle import Puzzle
from sudokit.run.doors import solve
from sudokit.run.explain import hint
from tests.helpers import DATA, EXAMPLES

TOP95 = EXAMPLES.joinpath("top95.txt").read_text().split()
TOP1 = TOP95[0]
CHAINED = TOP95[7]  # its step 23 is an AIC of 7 links
IMAGES = Path(os.environ.get("SUDOKIT_SCREENSHOTS")
              or Path(tempfile.gettempdir()) / "sudokit-screenshots")
"""Where the screenshots go: a temporary folder; `SUDOKIT_SCREENSHOTS=docs/images` refreshes
the README's pictures."""


@pytest.fixture(scope="session")
def warm_server(live_server: str) -> None:
    """One count and one hint before the page asks: the server's child processes start cold
    (their first answer may pass the time limit on a loaded machine), which is the server's
    matter, not the board's."""
    asked = [("count", TOP1), ("hint", TOP1), ("count", TOP1), ("hint", TOP1),
             ("why", "44" + TOP1[2:]), ("why", "." + TOP1[1:])]  # why: its own kernels
    for name, puzzle in asked:
        request = urllib.request.Request(f"{live_server}/api/{name}",
                                         data=json.dumps({"puzzle": puzzle}).encode(),
                                         headers={"Content-Type": "application/json"})
        with contextlib.suppress(OSError):
            urllib.request.urlopen(request, timeout=60).read()
    grid = [[{"value": int(d), "given": True} if d != "." else {} for d in TOP1[r:r + 9]]
            for r in range(0, 81, 9)]  # TOP1 and a thermometer it breaks: a drawn rule's why
    thermo = json.dumps({"size": 9, "grid": grid, "thermometer": [{"lines": [["R1C1", "R1C2"]]}]})
    body = json.dumps({"puzzle": thermo, "grid": [0] * 81}).encode()
    for _ in range(6):  # each child process of the server compiles them on its first why
        request = urllib.request.Request(f"{live_server}/api/why", data=body,
                                         headers={"Content-Type": "application/json"})
        with contextlib.suppress(OSError):
            urllib.request.urlopen(request, timeout=60).read()
            break


@pytest.fixture()
def page(browser: Any, live_server: str, warm_server: None) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    page = context.new_page()
    page.set_default_timeout(120_000)  # a shared, loaded machine: a first explain may be slow
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())  # Restart asks first
    page.goto(live_server + "/")
    page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
    yield page
    context.close()
    assert not errors, errors


def load(page: Any, text: str, variant: str = "standard") -> None:
    page.fill("#puzzle-text", text)
    page.fill("#variant", variant)
    page.click("#load")
    page.wait_for_function(f"window.sudokitBoard.text === {text!r}")


def ask_hint(page: Any, level: int) -> None:
    page.click("#hint")
    page.wait_for_function(f"window.sudokitBoard.hintLevel === {level}")


def cells_with(page: Any, css: str) -> list[int]:
    return sorted(page.eval_on_selector_all(f".sk-cell.{css}",
                                            "gs => gs.map(g => +g.dataset.cell)"))


def board_values(page: Any) -> list[int]:
    return page.evaluate("window.sudokitBoard.values.map((d, c) => "
                         "window.sudokitBoard.geo.givens[c] || d)")


def shot(page: Any, name: str, where: str = "#board") -> None:
    """A screenshot of the page's ``where`` into :data:`IMAGES` (``docs/board.md``'s pictures:
    ``.ci/screenshots`` runs the browser tests with ``SUDOKIT_SCREENSHOTS=docs/images``)."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.locator(where).screenshot(path=str(IMAGES / name))


def test_page_load_and_typed_puzzle_hint_matches_the_hint_door(page: Any, live_server: str
                                                               ) -> None:
    print(f"\npage ready {page.evaluate('window.sudokitBoard.timings.pageReady'):.0f} ms "
          "after navigation")
    load(page, TOP1)
    expected = hint(TOP1)
    ask_hint(page, 1)  # vague: the technique's name only, nothing drawn
    assert expected.technique in page.inner_text("#message")
    assert cells_with(page, "sk-focus") == [] and cells_with(page, "sk-house") == []
    shot(page, "board-hint-vague.png", "#message")
    ask_hint(page, 2)  # where to look: the pattern's cells, a single's house around them
    assert cells_with(page, "sk-focus") == sorted(expected.cells)
    assert expected.technique == "Hidden Single"  # r6c2 in box 4: the box's 8 other cells
    assert len(cells_with(page, "sk-house")) == page.evaluate("window.sudokitBoard.geo.side") - 1
    shot(page, "board-hint-cells.png")
    ask_hint(page, 3)  # the step: placements and eliminations drawn, its text shown
    assert cells_with(page, "sk-place") == sorted(c for c, _ in expected.placements)
    assert expected.text in page.inner_text("#message")
    times = []
    page.click('.sk-cell[data-cell="1"]')
    for _ in range(8):  # warm: the hint of the same grid, asked again after an edit
        page.keyboard.press("1")
        page.keyboard.press("Backspace")
        ask_hint(page, 1)
        times.append(page.evaluate("window.sudokitBoard.timings.hintShown"))
    print(f"hint latency 9x9 (browser, median of 8 after warm-up): "
          f"{statistics.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f})")


def test_the_page_preloads_every_module_the_board_imports() -> None:
    """index.html names every module board.js imports (modulepreload): fetched at once, not in
    three waves of imports (page ready 847 ms against 1,151 ms without, same run, load 15)."""
    import re

    from sudokit.serve.app import STATIC

    imported = {m for f in STATIC.glob("*.js") if f.name not in ("page.js", "widget.js")
                for m in re.findall(r'^import .* from "\./([\w]+\.js)";', f.read_text(), re.M)}
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/([\w]+\.js)">',
                               (STATIC / "index.html").read_text()))
    assert imported and preloaded == imported | {"board.js"}


def test_steps_applied_to_the_end_solve_the_puzzle_and_undo(page: Any) -> None:
    load(page, TOP1)
    solution = list(solve(TOP1).solution)
    pictured = False
    for _ in range(400):
        if page.evaluate("window.sudokitBoard.values.every((d, c) => d || "
                         "window.sudokitBoard.geo.givens[c])"):
            break
        expected = hint(Puzzle(Puzzle.parse(TOP1).geometry, tuple(board_values(page))),
                        page.evaluate("window.sudokitBoard.marks"))
        ask_hint(page, 1)
        ask_hint(page, 2)
        ask_hint(page, 3)
        shown = page.evaluate("window.sudokitBoard.hint.technique")
        assert shown == expected.technique
        if expected.eliminations and not pictured:  # the first step that removes candidates
            assert len(cells_with(page, "sk-focus")) == len(set(expected.cells))
            shot(page, "board-hint.png")
            pictured = True
        page.click("#apply")
        page.wait_for_function("window.sudokitBoard.hintLevel === 0")
    assert board_values(page) == solution and pictured
    page.wait_for_function("document.getElementById('status').textContent === 'solved!'")
    before = board_values(page)
    page.keyboard.press("Control+z")
    assert board_values(page) != before and page.inner_text("#status") != "solved!"
    page.keyboard.press("Control+y")
    assert board_values(page) == before
    page.click("#restart")
    page.click("#truecands")  # a unique puzzle: each cell's one digit
    page.wait_for_function("window.sudokitBoard.marks[1] !== null")
    assert page.evaluate("window.sudokitBoard.marks")[1:3] == [[solution[1]], [solution[2]]]


def test_keyboard_entry_conflicts_and_share_link(page: Any, browser: Any, live_server: str
                                                 ) -> None:
    load(page, TOP1)
    page.click('.sk-cell[data-cell="1"]')
    page.keyboard.press("4")  # r1c1 is given 4: a conflict
    assert cells_with(page, "sk-conflict") == [0, 1]
    page.keyboard.press("Backspace")
    page.keyboard.press("1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Digit2")  # a pencil mark in r1c3
    assert page.evaluate("window.sudokitBoard.marks[2]").count(2) == 0
    link = page.url
    assert "#p=" in link and "g=" in link and "e=" in link
    other = browser.new_page()
    other.goto(link)
    other.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
    assert other.evaluate("window.sudokitBoard.values[1]") == 1
    assert other.evaluate("window.sudokitBoard.marks[2]") == page.evaluate(
        "window.sudokitBoard.marks[2]")
    other.close()


def solve_on_page(page: Any) -> None:
    page.click("#solve")
    page.wait_for_function("document.getElementById('message').textContent.includes(' by ')")
    assert page.inner_text("#message").startswith("solved by")


def test_16x16_and_killer_are_solved_on_the_board(page: Any) -> None:
    big = (DATA / "janko/16x16Sudoku/problems/302_16x16.txt").read_text()
    load(page, big)
    shot(page, "board-16x16.png")
    solve_on_page(page)
    assert 0 not in board_values(page)
    assert board_values(page) == list(solve(Puzzle.parse(big)).solution)
    killer = (DATA / "janko/KillerSudoku/problems/22_9x9.txt").read_text()
    load(page, killer, "killer")
    assert page.locator(".sk-sum").count() > 10
    page.click("#auto")  # automatic candidates off: the cages and totals alone
    shot(page, "board-killer.png")
    page.click("#auto")
    solve_on_page(page)
    assert 0 not in board_values(page)


def test_explanation_panel_shows_a_chain_and_a_samurai_board(page: Any) -> None:
    load(page, CHAINED)
    page.click("#explain")
    page.wait_for_function("window.sudokitBoard.steps !== null")
    chain = page.evaluate("window.sudokitBoard.steps.findIndex(s => s.links.length > 4)")
    assert chain >= 0
    page.locator("#steps li").nth(chain).click()
    assert page.locator(".sk-link").count() == len(
        page.evaluate(f"window.sudokitBoard.steps[{chain}].links"))
    shot(page, "board-chain.png")
    page.keyboard.press("Escape")
    samurai = (DATA / "janko/SamuraiSudoku/problems/2_21x21.txt").read_text()
    load(page, samurai, "samurai")
    assert page.locator(".sk-cell").count() == 369
    page.click("#hint")  # the technique engine has no multi-grid layouts: it says so
    page.wait_for_selector("#message.error")
    assert "multi-grid" in page.inner_text("#message")
    shot(page, "board-samurai.png")
    solve_on_page(page)
    assert 0 not in board_values(page)
