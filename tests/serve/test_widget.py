"""The notebook widget (anywidget) without a browser: its ES module is the page's board.js with
a few lines of glue, its messages are answered by the server's API functions, and its methods
send the actions the page's buttons run."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("anywidget")

from starlette.testclient import TestClient  # noqa: E402

from sudokit.formats.text import parse_puzzle  # noqa: E402
from sudokit.run.explain import hint  # noqa: E402
from sudokit.serve import create_app  # noqa: E402
from sudokit.serve.app import STATIC  # noqa: E402
from sudokit.serve.widget import _IMPORT, BoardWidget, widget_esm  # noqa: E402
from tests.helpers import DATA, EXAMPLES  # noqa: E402

TOP1 = EXAMPLES.joinpath("top95.txt").read_text().split()[0]
KILLER = (DATA / "janko/KillerSudoku/problems/22_9x9.txt").read_text()


def _talk(widget: BoardWidget, message: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    widget.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    widget._on_msg(widget, message, None)
    return sent


def test_the_module_is_the_page_board_script() -> None:
    esm = widget_esm()
    for name in ("board.js", "layout.js", "grid.js", "draw.js"):  # the page's modules, inlined
        body = (STATIC / name).read_text()
        for part in filter(str.strip, _IMPORT.split(body)[::2]):  # code between imports
            assert esm.count(part) == 1, name
    assert 'from "./' not in esm  # one text, nothing to fetch
    assert "export function createBoard" in esm and "export default { render }" in esm
    assert 'from "./board.js"' in (STATIC / "page.js").read_text()  # the page: the same module
    assert BoardWidget._esm == esm
    page = TestClient(create_app()).get("/").text
    assert '<script type="module" src="/static/page.js">' in page


def test_api_messages_are_answered_as_the_server_answers() -> None:
    widget = BoardWidget(TOP1)
    [reply] = _talk(widget, {"type": "api", "id": 7, "name": "opening", "body": {}})
    assert reply == {"type": "answer", "id": 7, "answer": {
        "puzzle": TOP1, "variant": "standard", "time_limit": 15.0}}
    [reply] = _talk(widget, {"type": "api", "id": 8, "name": "hint",
                             "body": {"puzzle": TOP1, "variant": "standard"}})
    expected = hint(TOP1)
    assert reply["answer"]["step"]["technique"] == expected.technique
    assert reply["answer"]["step"]["board"]["placements"] == [list(p) for p in
                                                             expected.placements]
    server = TestClient(create_app())
    for name, body in [("hint", {"puzzle": "4.....8.5.3..x"}), ("solve", {"puzzle": 3}),
                       ("nothing", {}), ("parse", [])]:
        [reply] = _talk(widget, {"type": "api", "id": 9, "name": name, "body": body})
        assert "answer" not in reply and reply["error"], (name, reply)
        if name in ("hint", "solve"):
            assert reply["error"] == server.post(f"/api/{name}", json=body).json()["error"]


def test_a_puzzle_object_keeps_its_cages() -> None:
    killer = parse_puzzle(KILLER, variant="killer")
    widget = BoardWidget(killer)
    [opening] = _talk(widget, {"type": "api", "id": 1, "name": "opening", "body": {}})
    assert opening["answer"]["variant"] == "killer"
    body = {"puzzle": opening["answer"]["puzzle"], "variant": "killer"}
    [parsed] = _talk(widget, {"type": "api", "id": 2, "name": "parse", "body": body})
    assert len(parsed["answer"]["cages"]) == len(killer.geometry.cages) > 10


def test_methods_send_the_buttons_actions() -> None:
    widget = BoardWidget(TOP1)
    sent: list[dict[str, Any]] = []
    widget.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    widget.hint()
    widget.apply()
    widget.undo()
    widget.enter(1, 7, pencil=True)
    assert sent == [{"type": "action", "action": "hint", "args": {}},
                    {"type": "action", "action": "apply", "args": {}},
                    {"type": "action", "action": "undo", "args": {}},
                    {"type": "action", "action": "enter",
                     "args": {"cell": 1, "digit": 7, "pencil": True}}]
    widget.enter(2, 5, kind="centre")  # a centre mark (the board's Ctrl+digit)
    assert sent[-1]["args"] == {"cell": 2, "digit": 5, "kind": "centre"}
    with pytest.raises(ValueError, match="kind must be"):
        widget.enter(2, 5, kind="middle")
    del sent[-1]
    widget.values = [0, 1] + [0] * 79
    assert widget.grid.givens[:2] == (4, 1)


def test_without_a_widget_manager_the_board_shows_as_svg() -> None:
    widget = BoardWidget(TOP1)  # nbconvert, a notebook viewer: no <BoardWidget object at 0x...>
    widget.values = [0, 7] + [0] * 79
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"] == f"BoardWidget({TOP1}, 1 digits placed)"
    assert data["text/html"].startswith("<svg") and ">7<" in data["text/html"]
    import sudokit

    assert sudokit.BoardWidget is BoardWidget
