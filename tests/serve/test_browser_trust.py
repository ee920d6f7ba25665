"""The trust boundary in a real browser (headless system Chromium): a page of another origin (a
second local port) cannot make the board's server do anything, even knowing the token, while
the board's own page, opened at the printed address, works and drops the token from its
address."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudokit.serve import Settings, create_app
from tests.serve.conftest import serve_in_thread

TOKEN = "browser-test-token-0123456789abcdef"
P = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

ATTACK = """<!doctype html><meta charset="utf-8"><title>elsewhere</title><script>
window.done = (async () => {
  const board = "BOARD", results = [];
  const body = JSON.stringify({puzzle: "PUZZLE", method: "sat:exec",
                               options: {cmd: "sh -c 'touch PWNED; echo s UNSATISFIABLE' {in}"}});
  const form = new FormData(); form.append(body, "");
  const tries = {
    text: {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body},
    form: {method: "POST", mode: "no-cors", body: new URLSearchParams({[body]: ""})},
    multipart: {method: "POST", mode: "no-cors", body: form},
    json: {method: "POST", headers: {"Content-Type": "application/json",
                                     "X-Sudokit-Token": "TOKEN"}, body},
    count: {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify({puzzle: "PUZZLE"})},
    get: {method: "GET", mode: "no-cors"},
  };
  for (const [name, init] of Object.entries(tries)) {
    const path = name === "get" ? "/api/opening" : name === "count" ? "/api/count" : "/api/solve";
    try {
      const response = await fetch(board + path + "?token=TOKEN", init);
      let text = null;
      try { text = await response.text(); } catch (e) {}
      results.push([name, response.type, response.status, text]);
    } catch (e) { results.push([name, "refused", 0, String(e)]); }
  }
  return results;
})();
</script>"""


class _Recorder:
    """An ASGI wrapper recording the status of every answer the app gives."""

    def __init__(self, app: Any) -> None:
        self.app, self.answers = app, []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def record(message: Any) -> None:
            if message["type"] == "http.response.start":
                self.answers.append((scope.get("method"), scope.get("path"), message["status"]))
            await send(message)

        await self.app(scope, receive, record)


@pytest.fixture(scope="module")
def board() -> Iterator[tuple[str, _Recorder]]:
    hosts = ("127.0.0.1", "localhost", "::1", "[::1]")
    app = create_app(Settings(token=TOKEN, hosts=hosts, time_limit=60.0))
    recorder = _Recorder(app)
    try:
        for address in serve_in_thread(recorder):
            yield address, recorder
    finally:
        app.state.lanes.stop()


def test_a_page_of_another_origin_reaches_nothing(browser: Any, board: tuple[str, _Recorder],
                                                  tmp_path: Path) -> None:
    address, recorder = board
    pwned = tmp_path / "pwned"
    page_text = (ATTACK.replace("BOARD", address).replace("PUZZLE", P)
                 .replace("TOKEN", TOKEN).replace("PWNED", str(pwned)))
    (tmp_path / "index.html").write_text(page_text)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args: Any) -> None:
            pass

    elsewhere = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
    context = browser.new_context()
    try:
        before = len(recorder.answers)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{elsewhere.server_address[1]}/index.html")
        results = page.evaluate("window.done")
    finally:
        context.close()
        elsewhere.shutdown()
    assert not pwned.exists()
    answered = recorder.answers[before:]
    assert answered and all(400 <= status < 500 for _m, _p, status in answered), answered
    readable = [r for r in results if r[1] not in ("opaque", "refused")]
    assert readable == [], readable  # the page could read no answer either


def test_the_board_page_carries_the_token_and_drops_it_from_its_address(
        browser: Any, board: tuple[str, _Recorder]) -> None:
    address, recorder = board
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{address}/?token={TOKEN}")
        page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
        assert "token" not in page.url
        page.fill("#puzzle-text", P)
        page.click("#load")
        page.wait_for_function(f"window.sudokitBoard.text === {P!r}")
        page.click("#hint")
        page.wait_for_function("window.sudokitBoard.hintLevel === 1")
        page.reload()  # the tab keeps its token
        page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
        assert page.evaluate("fetch('/api/methods', {method: 'POST', headers: "
                             "{'Content-Type': 'application/json'}, body: '{}'})"
                             ".then(r => r.status)") == 200  # the cookie alone serves too
    finally:
        context.close()
    stranger = browser.new_context()  # the page without the token: its API calls are refused
    try:
        page = stranger.new_page()
        page.goto(f"{address}/")
        assert page.evaluate("fetch('/api/methods').then(r => r.status)") == 403
    finally:
        stranger.close()
