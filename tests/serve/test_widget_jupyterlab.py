"""The notebook widget in a real JupyterLab 4: a ``jupyter lab`` server on 127.0.0.1 with a
token, headless Chromium opening a notebook, running the widget's cell, typing letters and
digits on the board (JupyterLab's command-mode shortcuts must not see them: ``m`` would turn the
cell into Markdown and the widget would be gone, ``a``/``b`` would insert cells), then hints and
apply from Python (``w.hint(); w.hint(); w.hint(); w.apply()`` in one cell) and from the board,
and ``w.values`` read back in the kernel.

Opt-in marker ``jupyterlab`` (a server and a kernel start: about 20-40 s); CI runs it. Skips
without JupyterLab, Playwright or a system Chromium."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")
pytest.importorskip("jupyterlab")

from sudokit.run.explain import hint  # noqa: E402
from tests.helpers import EXAMPLES  # noqa: E402

pytestmark = pytest.mark.jupyterlab

TOP1 = EXAMPLES.joinpath("top95.txt").read_text().split()[0]
SOURCES = [
    f"from sudokit.serve.widget import BoardWidget\nw = BoardWidget({TOP1!r})\nw",
    "w.hint(); w.hint(); w.hint(); w.apply()",
    "print('VALUES', json.dumps(w.values)); print('GRID', w.grid.line)",
]


def _notebook(folder: Path) -> Path:
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
              "source": source} for source in ["import json", *SOURCES]]
    path = folder / "board.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    return path


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A JupyterLab server on a free local port, token required; yields the notebook's URL."""
    folder = tmp_path_factory.mktemp("lab")
    _notebook(folder)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    token = secrets.token_hex(16)
    log = (folder / "lab.log").open("wb")
    env = os.environ | {"JUPYTER_CONFIG_DIR": str(folder / "config"),
                        "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
                        "PYTHONPATH": os.pathsep.join([str(Path.cwd()), *sys.path])}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={folder}",
         "--LabApp.expose_app_in_browser=True", "--allow-root"],
        env=env, stdout=subprocess.DEVNULL, stderr=log, cwd=folder)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if server.poll() is not None:
                pytest.fail((folder / "lab.log").read_text()[-2000:])
            time.sleep(0.3)
    yield f"{base}/lab/tree/board.ipynb?token={token}"
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


def _run_cell(page: Any, index: int) -> None:
    page.evaluate("""(i) => { const app = window.jupyterapp;
        const panel = app.shell.currentWidget; panel.content.activeCellIndex = i;
        return app.commands.execute('notebook:run-cell'); }""", index)


def _output(page: Any, index: int, pattern: str) -> str:
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.locator(".jp-OutputArea-output", has_text=re.compile(pattern)).wait_for()
    return cell.locator(".jp-OutputArea-output").inner_text()


def test_the_widget_in_jupyterlab_keeps_its_keys_and_follows(browser: Any, lab: str) -> None:
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(90_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(lab)
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel")
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    _run_cell(page, 0)
    _run_cell(page, 1)
    board = page.locator(".jp-Cell").nth(1).locator(".sk-app")
    board.locator(".sk-cell").first.wait_for()
    page.wait_for_function("document.querySelectorAll('.sk-app .sk-cell').length === 81")
    page.wait_for_function("document.querySelector('.sk-app #status') &&"
                           " !document.querySelector('.sk-app').getAttribute('aria-busy')"
                           " || document.querySelector('.sk-app').getAttribute('aria-busy') === 'false'")
    cells_before = page.locator(".jp-Notebook .jp-Cell").count()

    board.locator('.sk-cell[data-cell="1"]').click()
    for key in ["m", "a", "b", "d", "d", "x", "c", "v", "z", "y", "1"]:
        page.keyboard.press(key)  # command-mode shortcuts, then a digit for r1c2
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Digit2")  # a pencil mark in r1c3
    assert page.locator(".jp-Notebook .jp-Cell").count() == cells_before
    assert "jp-CodeCell" in (page.locator(".jp-Cell").nth(1).get_attribute("class") or "")
    assert board.locator(".sk-cell").count() == 81  # the widget is still there

    _run_cell(page, 3)  # w.values follows the board without any Undo
    values = json.loads(_output(page, 3, "VALUES").split("VALUES", 1)[1].split("\n")[0])
    assert values[1] == 1 and values.count(0) == 80

    board.locator('.sk-cell[data-cell="1"]').click()
    page.keyboard.press("Backspace")
    expected = hint(TOP1)
    _run_cell(page, 2)  # w.hint(); w.hint(); w.hint(); w.apply(): one after the other
    page.wait_for_function(f"""() => {{ const d = document.querySelector(
        '.sk-app .sk-cell[data-cell="{expected.placements[0][0]}"] .sk-digit');
        return d && d.textContent !== ''; }}""")
    assert expected.text.split(":")[0] in board.locator("#message").inner_text() or \
        "Applied" in board.locator("#message").inner_text()
    _run_cell(page, 3)
    page.wait_for_function("() => { const c = document.querySelectorAll('.jp-Cell')[3];"
                           " return c && c.innerText.includes('VALUES') &&"
                           " !c.innerText.includes('[0, 1, 0'); }")
    text = page.locator(".jp-Cell").nth(3).locator(".jp-OutputArea-output").inner_text()
    values = json.loads(text.split("VALUES", 1)[1].split("\n")[0])
    for cell, digit in expected.placements:
        assert values[cell] == digit
    assert values[1] == 0 and sum(1 for v in values if v) == len(expected.placements)
    board.locator("#hint").click()  # the board's own button: the kernel answers its call
    board.locator(".sk-cell.sk-focus").first.wait_for(state="attached", timeout=1) \
        if False else page.wait_for_function(
            "document.querySelector('.sk-app #message').textContent.startsWith('Try')")
    assert page.locator(".jp-Notebook .jp-Cell").count() == cells_before
    context.close()
    assert not errors, errors
