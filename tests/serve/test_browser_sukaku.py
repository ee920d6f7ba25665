"""A pencil-mark (Sukaku) puzzle on the board in headless Chromium: the given candidates are
drawn as the starting marks (automatic candidates never show one the puzzle removed, and they
stay with automatic candidates off), Hint's step agrees with them, and the share link carries
them in 127 characters (9 bits a cell, formats/marklink.py) that open the same board; a cell's screen-reader label
names the candidates the puzzle gives."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from sudokit.formats.marklink import read_marks_link
from sudokit.formats.text import parse_puzzle
from sudokit.run.explain import hint
from tests.serve.test_browser import (  # noqa: F401  (page: a fixture)
    ask_hint, cells_with, load, page, shot, warm_server)
from tests.serve.test_browser_play import shown_marks
from tests.serve.test_sukaku_api import GRIDS, written_candidates

SUDOPEDIA = GRIDS[1]  # every cell restricted, no given; its first step a Hidden Single


def drawn(page: Any) -> list[list[int]]:
    return [sorted(map(int, shown_marks(page, cell))) for cell in range(81)]


def test_given_candidates_are_the_starting_marks_and_hint_agrees(page: Any, browser: Any) -> None:
    written = written_candidates(SUDOPEDIA)
    load(page, SUDOPEDIA)
    assert drawn(page) == written
    assert cells_with(page, "sk-given-marks") == list(range(81))
    assert page.locator('.sk-rule[data-rule="given candidates"] *').count() == 0  # no glyph:
    # they are the marks (an unknown rule's grey dot sat under candidate 5 of every cell)
    page.click('.sk-cell[data-cell="0"]')
    page.keyboard.press("Shift+Digit1")  # the player takes candidate 1 out of r1c1
    assert page.evaluate("window.sudokitBoard.marks[0]") == [d for d in written[0] if d != 1]
    label = page.get_attribute('.sk-cell[data-cell="0"]', "aria-label")  # the screen reader's
    given, left = " ".join(map(str, written[0])), " ".join(str(d) for d in written[0] if d != 1)
    assert label == f"r1c1, empty, given candidates {given}, candidates {left}", label
    page.keyboard.press("Shift+Digit2")  # 2 is no candidate of r1c1: nothing comes back
    assert drawn(page)[0] == [d for d in written[0] if d != 1]
    page.keyboard.press("Shift+Digit1")
    assert drawn(page) == written
    assert page.get_attribute('.sk-cell[data-cell="0"]', "aria-label") == (
        f"r1c1, empty, given candidates {given}")

    expected = hint(parse_puzzle(SUDOPEDIA, source="<test>"))
    for level in (1, 2, 3):  # the name, where to look, then the step drawn
        ask_hint(page, level)
    step = page.evaluate("window.sudokitBoard.hint")
    assert step["technique"] == expected.technique and expected.text in page.inner_text("#message")
    board = step["board"]
    assert board["placements"] or board["eliminations"]
    for cell, digit in board["placements"] + board["eliminations"]:
        assert digit in written[cell], (cell, digit)
    assert cells_with(page, "sk-place") == sorted(c for c, _ in board["placements"])
    shot(page, "board-sukaku.png")

    page.uncheck("#auto")  # the player's own marks: the given ones stay where there are none
    page.wait_for_function("!window.sudokitBoard.auto")
    assert drawn(page)[1:] == written[1:]

    page.wait_for_function("window.sudokitBoard.linkText !== null")
    shared = parse_qs(page.url.split("#", 1)[1])["p"][0]  # 9 bits a cell: formats/marklink
    assert shared.startswith("sk9.") and len(shared) == 127 and len(page.url) < 300, page.url
    assert read_marks_link(shared) == (9, written)
    other = browser.new_page()
    other.goto(page.url)
    other.wait_for_function("window.sudokitBoard && window.sudokitBoard.geo")
    other.check("#auto")
    other.wait_for_function("window.sudokitBoard.auto")
    assert drawn(other) == written
    other.close()
