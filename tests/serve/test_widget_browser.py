"""The notebook widget in a real browser: its ES module (widget.js with the page's board.js
inlined, as anywidget loads it from a blob URL) runs in headless Chromium against a stand-in of
anywidget's model whose messages go to a real BoardWidget in this process, as the Jupyter
comm would carry them, and whose traits go to the kernel only when they change (as Backbone
and the widget manager send them). Hints, apply, undo and typed digits go both ways; the real
JupyterLab is in test_widget_jupyterlab.py (opt-in marker ``jupyterlab``)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("anywidget")

from sudokit.model.geometry import Geometry  # noqa: E402
from sudokit.model.puzzle import Puzzle  # noqa: E402
from sudokit.model.rulebook import greater_than  # noqa: E402
from sudokit.run.explain import hint  # noqa: E402
from sudokit.serve.app import STATIC  # noqa: E402
from sudokit.serve.widget import BoardWidget  # noqa: E402
from tests.helpers import EXAMPLES  # noqa: E402
from tests.serve.test_browser import IMAGES  # noqa: E402
from tests.serve.test_browser_marks import covered_marks  # noqa: E402

TOP1 = EXAMPLES.joinpath("top95.txt").read_text().split()[0]

HARNESS = """async (esm) => {
  const listeners = {};
  const traits = {values: [], marks: []}, changed = {};
  const deliver = (msg) => (listeners["msg:custom"] || []).forEach((f) => f(msg));
  window.deliver = deliver;
  const model = {
    get: (k) => traits[k],
    set: (k, v) => {  // as Backbone: a change only when the value differs (deep equality)
      if (JSON.stringify(traits[k]) !== JSON.stringify(v)) changed[k] = v;
      traits[k] = v;
    },
    save_changes: () => {  // as the widget manager: only the changed traits go to the kernel
      const sent = {...changed};
      for (const k of Object.keys(changed)) delete changed[k];
      if (Object.keys(sent).length) window.syncTraits(sent);
    },
    send: async (msg) => { for (const reply of await window.toKernel(msg)) deliver(reply); },
    on: (name, f) => { (listeners[name] ||= []).push(f); }, off: () => {},
  };
  const url = URL.createObjectURL(new Blob([esm], {type: "text/javascript"}));
  const widget = await import(url);
  widget.default.render({model, el: document.body});
}"""
"""anywidget's part: the module imported from a blob URL, ``render({model, el})``; the model's
``send`` and ``msg:custom`` carried to and from the kernel's widget."""


@pytest.fixture()
def notebook(browser: Any, request: Any) -> Any:
    """The widget on TOP1 (or the puzzle of an indirect parameter) in Chromium: ``(widget,
    page, kernel_does)``."""
    widget = BoardWidget(getattr(request, "param", TOP1))
    outbox: list[dict[str, Any]] = []
    widget.send = lambda content, buffers=None: outbox.append(content)  # type: ignore

    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def to_kernel(message: dict[str, Any]) -> list[dict[str, Any]]:
        outbox.clear()
        widget._on_msg(widget, message, None)
        return list(outbox)

    def sync(changed: dict[str, Any]) -> None:
        for name, value in changed.items():
            setattr(widget, name, value)

    page.expose_function("toKernel", to_kernel)
    page.expose_function("syncTraits", sync)
    page.add_style_tag(path=str(STATIC / "board.css"))
    page.evaluate(HARNESS, BoardWidget._esm)
    page.wait_for_selector(".sk-cell")

    def kernel_does(action: str, *more: str, **args: Any) -> None:
        outbox.clear()
        getattr(widget, action)(**args)
        for other in more:  # several calls in one cell: sent before any is answered
            getattr(widget, other)()
        page.evaluate("(messages) => messages.forEach(window.deliver)", list(outbox))

    yield widget, page, kernel_does
    page.close()
    assert not errors, errors


def highlighted(page: Any, css: str) -> list[int]:
    return sorted(page.eval_on_selector_all(f".sk-cell.{css}",
                                            "gs => gs.map(g => +g.dataset.cell)"))


def test_the_widget_runs_the_page_board_with_hint_apply_and_undo(notebook: Any) -> None:
    widget, page, kernel_does = notebook
    assert page.locator(".sk-cell").count() == 81
    for button in ("#hint", "#apply", "#undo", "#redo", "#explain", "#solve", "#generate"):
        assert page.locator(button).count() == 1  # the page's controls, from board.js
    expected = hint(TOP1)
    kernel_does("hint")
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Try')")
    kernel_does("hint")  # the second level: where to look
    page.wait_for_selector(".sk-cell.sk-focus")
    kernel_does("hint")  # the third: the step itself
    page.wait_for_selector(".sk-cell.sk-place")
    assert highlighted(page, "sk-place") == sorted(c for c, _ in expected.placements)
    assert expected.text in page.inner_text("#message")
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / "board-widget.png"))
    kernel_does("apply")
    page.wait_for_function("document.querySelector('#undo').disabled === false")
    for cell, digit in expected.placements:
        assert widget.grid.givens[cell] == digit  # the digits came back to the kernel
    page.click("#hint")  # the page's own button: the kernel answers its API call
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Try')")
    kernel_does("undo")
    page.wait_for_function("document.querySelector('#undo').disabled === true")
    assert widget.grid == widget.puzzle


def test_typed_digits_and_errors_go_through_the_kernel(notebook: Any) -> None:
    widget, page, kernel_does = notebook
    page.click('.sk-cell[data-cell="1"]')
    page.keyboard.press("4")  # r1c2 = 4 clashes with the given 4 of r1c1
    page.wait_for_selector(".sk-cell.sk-conflict")
    assert widget.values[1] == 4
    page.click("#hint")  # the hint door finds no solution: its message, in red
    page.wait_for_selector("#message.error")
    assert "no solution" in page.inner_text("#message")
    kernel_does("enter", cell=1, digit=0)
    page.wait_for_function("!document.querySelector('.sk-conflict')")
    assert widget.values[1] == 0
    page.click('.sk-cell[data-cell="2"]')
    page.keyboard.press("7")  # each later digit reaches the kernel too (a new list each time)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("8")
    page.wait_for_function("document.querySelector('.sk-cell[data-cell=\"3\"] .sk-digit')"
                           ".textContent === '8'")
    assert widget.values[2:4] == [7, 8]


def test_kernel_calls_in_one_cell_wait_for_each_other(notebook: Any) -> None:
    widget, page, kernel_does = notebook
    expected = hint(TOP1)
    kernel_does("hint", "hint", "hint", "apply")  # w.hint(); w.hint(); w.hint(); w.apply()
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Applied')")
    for cell, digit in expected.placements:
        assert widget.values[cell] == digit


def greater_than_signs() -> Puzzle:
    """An empty 9x9 with six greater-than signs (no text form reads them: a Python puzzle)."""
    pairs = ((0, 1), (10, 1), (40, 41), (49, 40), (80, 79), (70, 79))
    rules = [rule for a, b in pairs for rule in greater_than(a, b, 9)]
    return Puzzle(Geometry.of(3, 3).with_constraints(rules), (0,) * 81)


@pytest.mark.parametrize("notebook", [greater_than_signs()], indirect=True)
def test_greater_than_signs_cover_no_candidate(notebook: Any) -> None:
    widget, page, _ = notebook
    _, strokes, hits = covered_marks(page)  # six chevrons of two segments
    assert strokes == 12 and hits == [], hits
