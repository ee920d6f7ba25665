"""The board as a player meets it, in headless Chromium (issue 41's defects, each driven as a
player would): candidates that stay right under any edit, "solved!" only when every drawn rule
holds, checks on Load, no sticky variant, no hint for a puzzle that is only pasted, the board
busy while it works and late answers dropped, keyboard first, readable by a screen reader."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import lzstring
import pytest

from sudokit.formats.text import parse_puzzle
from sudokit.run.doors import solve
from sudokit.run.explain import hint
from tests.helpers import DATA
from tests.serve.test_browser import (  # noqa: F401  (page: a fixture)
    IMAGES, TOP1, TOP95, ask_hint, cells_with, load, page, shot, warm_server)

KILLER = (DATA / "janko/KillerSudoku/problems/22_9x9.txt").read_text()
AXE = [Path(os.environ.get("SUDOKIT_AXE", "/nonexistent")),
       Path("node_modules/axe-core/axe.min.js")]
"""axe-core (the npm package), loaded from a local file: $SUDOKIT_AXE (.ci/run installs it
there) or ./node_modules."""


def fill(page: Any, values: list[int]) -> None:
    """Enter `values` (0: leave) in the open cells as a player would, one digit at a time."""
    page.evaluate("""async (values) => { const b = window.sudokitBoard;
        for (let c = 0; c < values.length; c++)
            if (values[c] && !b.geo.givens[c]) await window.sudokitAct('enter', {cell: c, digit: values[c]}); }""",
                  values)


def status_is(page: Any, text: str) -> None:
    page.wait_for_function(f"document.getElementById('status').textContent === {text!r}")


def shown_marks(page: Any, cell: int) -> list[str]:
    return page.eval_on_selector_all(f'.sk-cell[data-cell="{cell}"] .sk-mark',
                                     "ts => ts.map(t => t.textContent)")


def test_candidates_stay_right_and_solved_means_every_rule(page: Any) -> None:
    load(page, TOP1)
    nine_in_r1 = [c for c in range(1, 9) if "9" in shown_marks(page, c)]
    assert nine_in_r1
    page.click('.sk-cell[data-cell="5"]')
    page.keyboard.press("9")  # a wrong digit in r1c6, then erased
    assert not [c for c in nine_in_r1 if c != 5 and "9" in shown_marks(page, c)]
    page.keyboard.press("Backspace")
    assert [c for c in range(1, 9) if "9" in shown_marks(page, c)] == nine_in_r1
    assert page.evaluate("window.sudokitBoard.marks.every(m => m === null)")
    ask_hint(page, 1)  # the hint works from right candidates: no "lack 9"
    assert hint(TOP1).technique in page.inner_text("#message")
    ask_hint(page, 2)
    ask_hint(page, 3)
    page.click("#apply")
    page.wait_for_function("window.sudokitBoard.hintLevel === 0")
    open_cell = page.evaluate("window.sudokitBoard.values.findIndex((d, c) => !d && "
                              "!window.sudokitBoard.geo.givens[c])")
    page.click("#auto")  # off after Apply step: no candidate drawn anywhere
    assert page.locator(".sk-mark").count() == 0
    page.click("#auto")
    assert shown_marks(page, open_cell)
    page.click(f'.sk-cell[data-cell="{open_cell}"]')  # Delete on a marks-only cell: its marks reset
    first = shown_marks(page, open_cell)[0]
    page.keyboard.press(f"Shift+Digit{first}")
    assert first not in shown_marks(page, open_cell)
    page.keyboard.press("Delete")
    assert first in shown_marks(page, open_cell)

    load(page, KILLER, "killer")  # 1 and 2 swapped: rows, columns and boxes hold; cages do not
    solution = list(solve(parse_puzzle(KILLER, variant="killer")).solution)
    swapped = [{1: 2, 2: 1}.get(d, d) for d in solution]
    fill(page, swapped)
    status_is(page, "rule broken")
    assert "cage" in page.inner_text("#message") and page.is_visible("#message.error")
    broken = cells_with(page, "sk-conflict")  # the cage's cells drawn red
    assert broken and any(swapped[c] in (1, 2) for c in broken)
    shot(page, "board-broken.png")
    page.click("#restart")  # asks first (accepted), then an empty grid
    page.wait_for_function("window.sudokitBoard.values.every(d => !d)")
    fill(page, solution)
    status_is(page, "solved!")
    assert cells_with(page, "sk-conflict") == []
    page.wait_for_function("window.sudokitBoard.clock.stopped !== null")  # the timer stops:
    page.wait_for_timeout(1100)  # its next tick shows the time at "solved!", and it stays
    stopped = page.inner_text("#timer")
    page.wait_for_timeout(2100)
    assert page.inner_text("#timer") == stopped


def test_explanation_steps_are_drawn_over_the_user_grid(page: Any) -> None:
    load(page, TOP1)
    for _ in range(3):  # three hints applied: the user's own digits
        ask_hint(page, 1)
        page.click("#apply")
        page.wait_for_function("window.sudokitBoard.hintLevel === 0")
    mine = page.evaluate("window.sudokitBoard.values.slice()")
    assert sum(1 for d in mine if d) >= 3
    page.click("#explain")
    page.wait_for_function("window.sudokitBoard.steps !== null")
    page.locator("#steps li").nth(0).click()  # the first step: over the user's grid
    drawn = page.eval_on_selector_all(".sk-cell", "gs => gs.map(g => "
                                      "g.querySelector('.sk-digit').textContent)")
    assert all(drawn[c] == str(d) for c, d in enumerate(mine) if d)
    assert page.inner_text("#status").startswith("step 1 of")
    page.keyboard.press("Escape")
    assert page.inner_text("#status") == ""


def test_load_checks_and_the_variant_box(page: Any) -> None:
    load(page, TOP1, "diagonal")
    assert page.evaluate("window.sudokitBoard.variant") == "diagonal"
    page.fill("#puzzle-text", TOP95[1])  # a classic one next: the box empties itself
    assert page.input_value("#variant") == ""
    page.click("#load")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('One solution')")
    assert page.evaluate("window.sudokitBoard.variant") == "standard"

    several = "." + TOP1[1:]  # 21,786 solutions
    load(page, several)
    page.wait_for_selector("#message.error")
    assert "several solutions" in page.inner_text("#message")
    page.click("#rate")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Not rated')")
    before = page.inner_text("#message")
    page.click("#solve")
    page.wait_for_function("(b) => document.getElementById('message').innerText !== b", arg=before)
    said = page.inner_text("#message")  # never "solved by portfolio" for one of 21,786
    assert said.startswith("One of several solutions, found by ") and "solved" not in said, said

    grid = "\n".join(" ".join(TOP1[r * 9:r * 9 + 9]) for r in range(9)) + "\n" * 3  # 180 chars
    load(page, grid)  # the link carries the line form: the same board, a third of the text
    page.wait_for_function(f"location.hash.startsWith('#p=' + {TOP1!r})")
    load(page, KILLER, "killer")  # its cages are not in a line: the link keeps the whole text
    page.wait_for_timeout(300)
    assert "15+-+-+8" in page.url
    cages = [{"cells": [f"R{r}C{c}", f"R{r}C{c + 1}"], "value": "10"} for r in range(1, 10)
             for c in (1, 4, 7)]  # f-puzzles JSON of a killer: in the link as f-puzzles
    rules = json.dumps({"size": 9, "grid": [[{}] * 9] * 9, "killercage": cages,  # links hold it
                        "thermometer": [{"lines": [["R9C1", "R8C1", "R7C1"]]}]})
    load(page, rules)
    page.wait_for_function("window.sudokitBoard.linkText !== null")
    assert page.evaluate("window.sudokitBoard.linkText.text") == lzstring.LZString(
        ).compressToEncodedURIComponent(rules)
    assert len(page.url) * 3 < len(urlencode({"p": rules})), page.url  # a third, or less
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_function("window.sudokitBoard && window.sudokitBoard.geo")
    assert other.evaluate("window.sudokitBoard.geo.svg") == page.evaluate(
        "window.sudokitBoard.geo.svg")  # the very same board: 27 cages and the thermometer
    other.close()

    drawn = json.dumps({"size": 9, "grid": [[{}] * 9] * 9,  # f-puzzles: rules by their names
                        "thermometer": [{"lines": [["R1C1", "R1C2", "R1C3"]]}],
                        "ratio": [{"cells": ["R5C5", "R5C6"], "value": 2}]})
    load(page, drawn)
    shape = page.inner_text("#shape")
    assert "thermometer" in shape and "Kropki" in shape
    assert "pair-relation" not in shape and "linear-sum" not in shape

    clash = "44" + TOP1[2:]
    load(page, clash)
    page.wait_for_function("document.getElementById('message').textContent.includes('no solution')")
    assert cells_with(page, "sk-conflict") == [0, 1]
    assert "<request>" not in page.inner_text("#message")
    shot(page, "board-load-check.png", "#app")

    page.fill("#puzzle-text", TOP95[2])  # pasted text, not loaded: no hint for the old board
    page.click("#hint")
    page.wait_for_function("document.getElementById('message').textContent.includes('not loaded')")
    page.eval_on_selector("#puzzle-text",  # a paste loads at once
                          "t => t.dispatchEvent(new Event('paste'))")
    page.wait_for_function(f"window.sudokitBoard.text === {TOP95[2]!r}")


def test_busy_while_working_and_late_answers_dropped(page: Any) -> None:
    load(page, TOP1)
    page.evaluate("""() => { const real = window.fetch;  // a slow server for /api/rate
        window.fetch = async (url, init) => { if (String(url).endsWith('/api/rate'))
            await new Promise((r) => setTimeout(r, 1500)); return real(url, init); }; }""")
    page.click("#rate")
    page.wait_for_selector("#busy:not([hidden])")
    assert "rate" in page.inner_text("#busy") and page.is_disabled("#rate")
    assert page.get_attribute("#app", "aria-busy") == "true"
    page.click('.sk-cell[data-cell="1"]')
    page.keyboard.press("h")  # a hint meanwhile: its message stays when the rating comes late
    page.wait_for_function("window.sudokitBoard.hintLevel === 1")
    page.wait_for_function("!document.getElementById('rate').disabled")
    assert page.inner_text("#message").startswith("Try")
    assert page.is_hidden("#busy") and page.get_attribute("#app", "aria-busy") == "false"


def test_keyboard_first_and_screen_reader(page: Any) -> None:
    load(page, TOP1)
    page.reload()  # a fresh page (the link keeps the puzzle): nothing focused
    page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
    page.keyboard.press("Tab")  # the first stop is the board: a cursor on r1c1
    assert page.evaluate("document.activeElement.id") == "board"
    assert page.evaluate("window.sudokitBoard.selected") == 0
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    box = page.locator("#board").bounding_box()  # with a margin: the focus ring is outside
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / "board-focus.png"), clip={
        "x": box["x"] - 6, "y": box["y"] - 6, "width": box["width"] + 12, "height": box["height"] + 12})
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Digit1")
    assert page.evaluate("window.sudokitBoard.values[1]") == 1
    label = page.get_attribute('.sk-cell[data-cell="2"]', "aria-label")
    assert label.startswith("r1c3, empty, candidates ")
    assert page.get_attribute('.sk-cell[data-cell="1"]', "aria-label") == "r1c2, 1"
    assert page.get_attribute("#board", "aria-activedescendant").endswith("-cell-1")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+Shift+z")  # redo, not undo again
    assert page.evaluate("window.sudokitBoard.values[1]") == 1
    tabs = 0
    while page.evaluate("document.activeElement.id") != "hint" and tabs < 30:
        page.keyboard.press("Tab")
        tabs += 1
    assert tabs <= 9, tabs
    assert page.get_attribute("#message", "aria-live") == "polite"
    page.click("#keys-legend summary")  # the key legend, open
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.locator("#keys-legend").screenshot(path=str(IMAGES / "board-keys.png"))
    page.click("#keys-legend summary")
    axe = next((p for p in AXE if p.is_file()), None)
    if axe is None:
        pytest.skip("axe-core not found (npm install axe-core; SUDOKIT_AXE=path/axe.min.js)")
    page.add_script_tag(path=str(axe))
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map(v => [v.id, v.impact, v.nodes.length])")
    serious = [v for v in found if v[1] in ("serious", "critical")]
    print(f"\naxe-core: {found}")
    assert serious == [], serious


def test_candidate_filter_phone_and_dark_mode(page: Any, browser: Any, live_server: str) -> None:
    load(page, TOP1)
    page.select_option("#filter", "7")  # where 7 can go: those open cells shaded
    shaded = cells_with(page, "sk-filter")
    marks = page.evaluate("window.sudokitBoard.values.map((_, c) => [...document.querySelectorAll("
                          "`.sk-cell[data-cell='${c}'] .sk-mark`)].map(t => t.textContent))")
    assert shaded and shaded == [c for c, m in enumerate(marks) if "7" in m]
    page.click('.sk-cell[data-cell="0"]')  # a given 4: every other 4 drawn bold (same digits)
    assert cells_with(page, "sk-same") == [c for c, d in enumerate(TOP1) if d == "4" and c]
    page.click('.sk-cell[data-cell="1"]')
    shot(page, "board-filter.png")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    small = phone.new_page()
    small.goto(page.url)  # the same puzzle by its link, on a phone, in dark mode
    small.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
    small.click("#hint")
    small.wait_for_function("window.sudokitBoard.hintLevel === 1")
    board, message = small.locator("#board").bounding_box(), small.locator("#message").bounding_box()
    assert message["y"] + message["height"] <= 844 and board["y"] < 844 / 2  # both on screen
    assert small.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(250, 250, 250)"
    shot(small, "board-dark.png")
    small.screenshot(path=str(IMAGES / "board-phone.png"))  # the hint and the board together
    phone.close()
    page.emulate_media(media="print")  # printing: the board, no controls
    assert page.is_visible("#board") and page.is_hidden("#hint") and page.is_hidden("#load-box")
    assert page.is_hidden("#pad")
    shot(page, "board-print.png", "#app")
    page.emulate_media(media="screen")


def test_generate_takes_the_variant_box_and_sizes_up_to_25(page: Any) -> None:
    load(page, TOP1)
    page.fill("#variant", "diagonal")  # the variant box: a diagonal puzzle comes
    page.select_option("#gen-size", "9")
    page.click("#generate")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('New puzzle')")
    assert page.evaluate("window.sudokitBoard.variant") == "diagonal"
    assert page.evaluate("window.sudokitBoard.text") != TOP1
    page.fill("#variant", "")  # 25x25, past the old 16x16 stop
    page.select_option("#gen-size", "25")
    page.click("#generate")
    page.wait_for_function("window.sudokitBoard.geo.side === 25")
    assert page.evaluate("window.sudokitBoard.variant") == "standard"
    assert page.locator(".sk-cell").count() == 625
    shot(page, "board-generate-25.png")


def test_several_cells_colours_and_pictures(page: Any) -> None:
    load(page, TOP1)
    page.click('.sk-cell[data-cell="1"]')
    page.click('.sk-cell[data-cell="2"]', modifiers=["Control"])
    page.click('.sk-cell[data-cell="19"]', modifiers=["Shift"])
    assert cells_with(page, "sk-selected") == [1, 2, 19]
    page.keyboard.press("Shift+Digit6")  # a mark off in the three cells, one change
    assert all("6" not in shown_marks(page, c) for c in (1, 2, 19))
    shot(page, "board-select.png")
    page.keyboard.press("Alt+Digit3")  # colour 3 on the three cells
    assert cells_with(page, "sk-coloured") == [1, 2, 19]
    assert "c=" in page.url
    page.keyboard.press("Control+z")
    assert cells_with(page, "sk-coloured") == []
    page.keyboard.press("Control+z")  # the mark back in all three at once
    assert all("6" in shown_marks(page, c) for c in (1, 2, 19))
    first = page.locator('.sk-cell[data-cell="30"]').bounding_box()
    last = page.locator('.sk-cell[data-cell="32"]').bounding_box()
    page.mouse.move(first["x"] + 5, first["y"] + 5)  # a drag over r4c4..r4c6
    page.mouse.down()
    page.mouse.move(first["x"] + first["width"] * 1.5, first["y"] + 5, steps=4)
    page.mouse.move(last["x"] + 5, last["y"] + 5, steps=4)
    page.mouse.up()
    assert cells_with(page, "sk-selected") == [30, 31, 32]
    page.keyboard.press("Alt+Digit1")
    page.click('.sk-cell[data-cell="40"]')
    page.keyboard.press("Alt+Digit5")
    shot(page, "board-colours.png")
    files = {}
    for kind in ("svg", "png"):  # the board saved as a picture, colours and all
        with page.expect_download() as saved:
            page.click(f"#{kind}")
        files[kind] = Path(saved.value.path()).read_bytes()
    assert files["svg"].startswith(b"<svg") and b"#f9c8c8" in files["svg"]
    assert files["png"][:8] == b"\x89PNG\r\n\x1a\n" and len(files["png"]) > 10_000
    IMAGES.mkdir(parents=True, exist_ok=True)  # the saved picture itself, as docs show it
    (IMAGES / "board-export.png").write_bytes(files["png"])
    page.evaluate("window.sudokitBoard.clock.start = Date.now() - 754_000")  # 12:34 so far
    page.wait_for_function("/^12:3[4-9]$/.test(document.getElementById('timer').textContent)")
    page.evaluate("(c => { c.stopped = c.start + 754_000; })(window.sudokitBoard.clock)")
    page.wait_for_function("document.getElementById('timer').textContent === '12:34'")
    shot(page, "board-timer.png", "#left > .row:has(#timer)")


def test_the_smaller_defects_stay_fixed(page: Any) -> None:
    """Issue 41's item 12, the parts no other test drives: "a"/"an" before a technique's name,
    messages in the player's words, Restart asking first, the link keeping the auto-candidates
    switch."""
    words = page.evaluate("""async () => { const m = await import('/static/layout.js');
        return ['AIC', 'ALS-XZ', 'X-Wing', 'W-Wing', 'Naked Pair', 'XY-Wing', 'Unique Rectangle']
          .map(n => m.article(n)); }""")
    assert words == ["an", "an", "an", "a", "a", "an", "a"]  # never "Try a AIC"
    said = page.evaluate("""async () => (await import('/static/layout.js')).plainWords(
        "<request>:1:5: r1c2 is given 3 and the givens clash; use --variant NAME or --box")""")
    assert said == ("r1c2 is placed 3 and the digits clash; use the variant box or the box "
                    "field")  # the player's words, not the command line's
    load(page, TOP1)
    asked: list[str] = []
    page.on("dialog", lambda dialog: asked.append(dialog.type))
    page.evaluate("window.sudokitAct('enter', {cell: 1, digit: 1})")
    page.wait_for_function("window.sudokitBoard.values[1] === 1")
    page.click("#restart")  # asks first (the page fixture accepts), then an empty grid
    page.wait_for_function("window.sudokitBoard.values.every(d => !d)")
    assert asked == ["confirm"]
    page.click("#auto")  # auto candidates off: kept in the link, back from it
    page.wait_for_function("location.hash.includes('a=0')")
    page.reload()
    page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
    assert page.evaluate("window.sudokitBoard.auto") is False
