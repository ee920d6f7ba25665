"""Fixtures of the board's tests: a live server on a free local port, and a headless Chromium
from the system's packages driven by Playwright (tests needing it skip when either is absent)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
"""Flags for a closed network: without the background-networking ones Chromium waits on
requests that never answer."""


def system_chromium() -> str | None:
    """The system's Chromium (Debian's ``chromium`` package), or None."""
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser"):
        found = shutil.which(name) or (name if Path(name).is_file() else None)
        if found:
            return found
    return None


def serve_in_thread(app: object) -> Iterator[str]:
    """Serve an ASGI ``app`` with uvicorn in a thread on a free local port; yields its address
    (``http://127.0.0.1:P``) and stops the server after."""
    uvicorn = pytest.importorskip("uvicorn")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The board served by uvicorn in a thread; yields its address (``http://127.0.0.1:P``)."""
    from sudokit.serve import Settings, create_app

    yield from serve_in_thread(create_app(Settings()))


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """A headless system Chromium (Playwright); skips without Playwright or Chromium."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = system_chromium()
    if executable is None:
        pytest.skip("no system Chromium (apt-get install chromium chromium-driver)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS,
                                              headless=True)
        yield chromium
        chromium.close()
