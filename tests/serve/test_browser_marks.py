"""The board in headless Chromium, issue 41's second round: the server's verdicts drawn
(/api/check: a broken rule red as soon as its cells are filled, "solved!" from it; /api/why:
the clues and rules of a contradiction, where several solutions differ and where a clue would
help) and SudokuPad's two kinds of marks at once, with candidate colouring kept in undo and in
the link."""

from __future__ import annotations

import json
from typing import Any

from tests.serve.test_browser import (  # noqa: F401  (page: a fixture)
    TOP1, cells_with, load, page, shot, warm_server)
from tests.serve.test_browser_play import shown_marks, status_is


def fpuzzle(givens: str, **rules: Any) -> str:
    """An f-puzzles JSON text of a 9x9 with `givens` (line form) and drawn `rules`."""
    grid = [[({"value": int(givens[r * 9 + c]), "given": True} if givens[r * 9 + c] != "." else {})
             for c in range(9)] for r in range(9)]
    return json.dumps({"size": 9, "grid": grid, **rules})


def message(page: Any) -> str:
    return page.inner_text("#message")


def ask_why(page: Any) -> None:
    """Press Why? and wait for its drawing; again (up to 4 times) while the server's answer runs
    out of time (a child process compiling the kernels of a drawn rule on its first why, on a
    loaded machine: the server's matter, not the board's)."""
    for _ in range(4):
        page.click("#why")
        page.wait_for_function("!window.sudokitBoard.busy.includes('why')")
        if page.evaluate("window.sudokitBoard.why !== null"):
            return
    raise AssertionError(message(page))


def test_a_broken_rule_is_red_before_the_grid_is_full(page: Any) -> None:
    thermo = fpuzzle("." * 81, thermometer=[{"lines": [["R1C1", "R1C2", "R1C3"]]}])
    load(page, thermo)
    for cell, digit in ((0, 3), (1, 2), (2, 1)):  # a thermometer going down: no peer clash
        page.evaluate("([c, d]) => window.sudokitAct('enter', {cell: c, digit: d})", [cell, digit])
    status_is(page, "rule broken")
    assert cells_with(page, "sk-conflict") == [0, 1, 2]
    assert "check" in page.evaluate("Object.keys(window.sudokitBoard.timings)")
    page.keyboard.press("Control+z")  # r1c3 out: r1c1-r1c2 still broken
    page.wait_for_function("window.sudokitBoard.check.cells.length === 2")
    assert cells_with(page, "sk-conflict") == [0, 1]
    page.keyboard.press("Control+z")  # r1c2 out: nothing broken any more
    status_is(page, "")
    assert cells_with(page, "sk-conflict") == []


def test_why_draws_the_reason_and_where_to_add_a_clue(page: Any) -> None:
    load(page, "44" + TOP1[2:])  # two 4s in row 1: the clues ringed
    page.wait_for_function("document.getElementById('message').textContent.includes('Why?')")
    ask_why(page)
    assert cells_with(page, "sk-why-given") == [0, 1]
    assert message(page).startswith("No solution: r1c1=4, r1c2=4") and "twice" in message(page)

    load(page, fpuzzle(TOP1, thermometer=[{"lines": [["R1C1", "R1C2"]]}]))
    ask_why(page)  # the thermometer needs r1c2 > 4: a rule among the members, outlined
    reason = page.evaluate("window.sudokitBoard.why.reasons[0].members")
    rules = sorted({c for m in reason if m["kind"] != "given" for c in m["cells"]}
                   - {c for m in reason if m["kind"] == "given" for c in m["cells"]})
    assert rules and cells_with(page, "sk-why-rule") == rules
    assert 0 in cells_with(page, "sk-why-given") and "thermometer" in message(page)
    shot(page, "board-why-none.png")

    load(page, "." + TOP1[1:])  # several solutions: where they differ, and the missing clue
    ask_why(page)
    why = page.evaluate("window.sudokitBoard.why")
    assert cells_with(page, "sk-why-unavoidable") == sorted(why["unavoidable"])
    assert cells_with(page, "sk-why-differ") == sorted(set(why["differ"]) - set(why["unavoidable"]))
    fix = why["fixes"][0]
    assert page.text_content(f'.sk-cell[data-cell="{fix["cell"]}"] .sk-mark.sk-fix') == str(fix["digit"])
    assert "Add a clue here" in message(page) and fix["text"] in message(page)
    shot(page, "board-why-several.png")
    page.click('.sk-cell[data-cell="1"]')  # a change: the drawing goes
    page.keyboard.press("Shift+Digit9")
    assert page.evaluate("window.sudokitBoard.why") is None
    assert cells_with(page, "sk-why-unavoidable") == []


def test_corner_and_centre_marks_at_once_and_candidate_colours(page: Any) -> None:
    load(page, TOP1)
    cell = 1
    page.click(f'.sk-cell[data-cell="{cell}"]')
    auto = shown_marks(page, cell)
    page.keyboard.press(f"Shift+Digit{auto[0]}")  # auto on: Shift takes the candidate out
    assert shown_marks(page, cell) == auto[1:]
    page.keyboard.press(f"Control+Digit{auto[1]}")  # Ctrl: a centre mark, the corners stay
    centre = f'.sk-cell[data-cell="{cell}"] .sk-centre'
    assert page.text_content(centre) == auto[1] and shown_marks(page, cell) == auto[1:]
    assert page.locator(f'.sk-cell[data-cell="{cell}"] .sk-mark.sk-corner').count() == len(auto) - 1
    assert page.get_attribute(f'.sk-cell[data-cell="{cell}"]', "aria-label").endswith(
        f"centre {auto[1]}")
    assert "m=" in page.url
    page.click("#auto")  # auto off: Shift writes the player's own corner marks
    page.click(f'.sk-cell[data-cell="{cell}"]')
    page.keyboard.press("Shift+Digit2")
    page.keyboard.press("Shift+Digit8")
    assert shown_marks(page, cell) == ["2", "8"] and page.text_content(centre) == auto[1]
    page.click("#auto")
    page.click(f'.sk-cell[data-cell="{cell}"]')
    page.keyboard.press("Delete")  # the cell's marks reset: automatic candidates, no centre
    assert shown_marks(page, cell) == auto and page.locator(centre).count() == 0

    page.select_option("#mode", "paint")  # candidate colours: Alt+3 picks the colour
    page.click(f'.sk-cell[data-cell="{cell}"]')
    page.keyboard.press("Alt+Digit3")
    page.keyboard.press(f"Digit{auto[0]}")
    painted = f'.sk-cell[data-cell="{cell}"] .sk-mark-bg[data-paint="3"]'
    assert page.locator(painted).count() == 1 and cells_with(page, "sk-coloured") == []
    assert "k=" in page.url
    page.keyboard.press("Control+z")
    assert page.locator(painted).count() == 0
    page.keyboard.press("Control+y")
    page.keyboard.press("Control+Digit5")
    shot(page, "board-marks.png")
    page.reload()  # the link keeps the coloured candidate and the centre mark
    page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
    assert page.locator(painted).count() == 1 and page.text_content(centre) == "5"
    page.click("#resetmarks")  # every cell's marks reset at once
    assert page.locator(".sk-centre").count() == 0 and page.locator(painted).count() == 0


def test_all_steps_and_the_technique_picker(page: Any) -> None:
    from sudokit.run.explain import hints
    from tests.serve.test_browser import IMAGES

    load(page, TOP1)
    expected = hints(TOP1)
    page.click("#allsteps")  # every step available now, one per technique
    page.wait_for_function("window.sudokitBoard.available !== null")
    items = page.locator("#steps li")
    assert items.count() == len(expected) > 3
    assert all(s.technique in items.nth(k).inner_text() for k, s in enumerate(expected))
    items.nth(1).click()  # the second one shown as a hint's step, then applied
    page.wait_for_function("window.sudokitBoard.hintLevel === 3")
    assert page.evaluate("window.sudokitBoard.hint.technique") == expected[1].technique
    assert cells_with(page, "sk-focus") == sorted(expected[1].cells)
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.locator("#app").screenshot(path=str(IMAGES / "board-all-steps.png"))
    page.click("#apply")
    page.wait_for_function("window.sudokitBoard.available === null")  # the grid changed
    assert items.count() == 0

    page.click("#techniques-box summary")  # only Pointing and Claiming: a hint says Pointing
    page.click("#techniques-none")
    page.check('#techniques-box input[value="Pointing"]')
    page.check('#techniques-box input[value="Claiming"]')
    page.click("#hint")
    page.wait_for_function("window.sudokitBoard.hintLevel === 1")
    assert message(page).startswith("Try a Pointing")
    shot(page, "board-techniques.png", "#app")
    link = page.evaluate("location.hash")  # the choice kept in the share link
    assert "t=Pointing%2CClaiming" in link or "t=Claiming%2CPointing" in link
    page.click("#techniques-none")  # none: no step, and what the next step needs, said so
    page.click("#hint")
    page.wait_for_function(
        "document.getElementById('message').textContent.startsWith('None of the chosen')")
    assert "(no technique chosen): the next step needs a Hidden Single, which is turned off" \
        in message(page)
    assert "t=&" in page.evaluate("location.hash") + "&"

    page.goto(page.url.split("#")[0] + link)  # a page opened from the link: the same
    page.reload()  # choice on, the same hint
    page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
    on = page.eval_on_selector_all("#techniques-box input:checked", "l => l.map(i => i.value)")
    assert sorted(on) == ["Claiming", "Pointing"]
    page.click("#hint")
    page.wait_for_function("window.sudokitBoard.hintLevel === 1")
    assert message(page).startswith("Try a Pointing")


COVERED = """() => {  // each drawn candidate's box against the glyphs drawn on edges and corners
    const discs = [...document.querySelectorAll('.sk-rules-over circle')].map((c) => {
        const d = c.getBoundingClientRect();
        return [d.x + d.width / 2, d.y + d.height / 2, d.width / 2]; });
    const strokes = [];  // chevrons (greater-than signs, minimum and maximum cells): segments
    for (const p of document.querySelectorAll('.sk-rule polyline')) {
        if (!CHEVRONS.includes(p.closest('.sk-rule').dataset.rule)) continue;
        const m = p.getScreenCTM(), w = +p.getAttribute('stroke-width') * m.a / 2;
        const q = [...p.points].map((t) => new DOMPoint(t.x, t.y).matrixTransform(m));
        for (let i = 1; i < q.length; i++) strokes.push([q[i - 1], q[i], w]);
    }
    const near = (m, x, y) => [Math.min(Math.max(x, m.left), m.right), Math.min(Math.max(y, m.top), m.bottom)];
    const hit = [];
    for (const t of document.querySelectorAll('.sk-mark')) {  // a digit's ink: its advance
        if (!t.textContent) continue;  // wide, 0.74 of its font high about its middle
        const r = t.getBoundingClientRect(), cell = t.closest('.sk-cell').dataset.cell;
        const half = 0.37 * parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
        const m = {left: r.left, right: r.right, top: r.y + r.height / 2 - half, bottom: r.y + r.height / 2 + half};
        for (const [cx, cy, r] of discs) {
            const [nx, ny] = near(m, cx, cy);
            if ((nx - cx) ** 2 + (ny - cy) ** 2 < r * r * 0.95) hit.push(`disc r${cell} ${t.textContent}`);
        }
        for (const [a, b, w] of strokes) {  // sampled along the segment: a point inside the box
            for (let k = 0; k <= 20; k++) {
                const x = a.x + (b.x - a.x) * k / 20, y = a.y + (b.y - a.y) * k / 20, [nx, ny] = near(m, x, y);
                if ((nx - x) ** 2 + (ny - y) ** 2 < w * w) { hit.push(`chevron ${cell} ${t.textContent}`); break; }
            }
        }
    }
    return [discs.length, strokes.length, hit]; }""".replace(
    "CHEVRONS", '["greater-than sign", "minimum", "maximum"]')
"""What the board draws over its candidates: ``[discs, chevron segments, hits]``, each hit a
candidate's digit meeting a disc (Kropki dots, X and V, quadruple circles) or a chevron's
stroke."""


def covered_marks(page: Any) -> list[Any]:
    return page.evaluate(COVERED)


def test_dots_signs_quadruples_and_chevrons_cover_no_candidate(page: Any) -> None:
    dots = fpuzzle("." * 81, ratio=[{"cells": ["R2C2", "R2C3"], "value": 2},
                                    {"cells": ["R5C5", "R6C5"], "value": 2}],
                   difference=[{"cells": ["R2C5", "R2C6"]}, {"cells": ["R4C2", "R5C2"]}],
                   xv=[{"cells": ["R8C3", "R8C4"], "value": "X"}])
    load(page, dots)
    discs, _, hits = covered_marks(page)
    assert discs == 5 and hits == [], hits
    shot(page, "board-kropki.png")
    corners = fpuzzle("." * 81, quadruple=[
        {"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2, 3, 9]},
        {"cells": ["R4C5", "R4C6", "R5C5", "R5C6"], "values": [7]}],
        minimum=[{"cell": "R8C2"}], maximum=[{"cell": "R8C8"}, {"cell": "R3C7"}],
        ratio=[{"cells": ["R7C5", "R8C5"], "value": 2}])
    load(page, corners)
    discs, strokes, hits = covered_marks(page)
    assert (discs, strokes) == (3, 24) and hits == [], hits
    page.click("#auto")  # automatic candidates off: the player's corner marks, in the corners
    for cell in (0, 10, 24):
        page.click(f'.sk-cell[data-cell="{cell}"]')
        for digit in (1, 2, 5, 9):
            page.keyboard.press(f"Shift+Digit{digit}")
        assert shown_marks(page, cell) == ["1", "2", "5", "9"]
    assert page.locator(".sk-mark.sk-corner").count() == 12
    assert covered_marks(page)[2] == []
    page.click("#auto")
    shot(page, "board-quadruples.png")
