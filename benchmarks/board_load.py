"""Page load of the board (``sudokit serve``): the page opened in fresh headless Chromium
contexts against a local server, each load timed to the board being ready.

The time is the page's own ``performance.now()`` at the end of its start-up (the methods list,
the opening puzzle, its parse and drawing: ``window.sudokitBoard.timings.pageReady``). The
server warms up as ``sudokit serve`` does (:func:`sudokit.serve.app.warm_up`) before the first
load. Needs Playwright and the system's Chromium (``apt-get install chromium``)::

    python benchmarks/board_load.py --loads 7
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

import uvicorn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from sudokit.serve import Settings, create_app  # noqa: E402
from sudokit.serve.app import warm_up  # noqa: E402
from tests.serve.conftest import CHROMIUM_ARGS, system_chromium  # noqa: E402


def serve() -> tuple[uvicorn.Server, str]:
    """A warmed board server on a free local port, in a thread; and its address."""
    started = time.perf_counter()
    warm_up(Settings())
    print(f"server warm-up {time.perf_counter() - started:.2f} s")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(Settings()), log_level="warning",
                                           lifespan="off"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{sock.getsockname()[1]}/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=7, help="page loads (default 7)")
    loads = parser.parse_args().loads
    server, address = serve()
    ready: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        for _ in range(loads):
            context = browser.new_context()
            page = context.new_page()
            page.goto(address)
            page.wait_for_function("window.sudokitBoard && window.sudokitBoard.timings.pageReady")
            ready.append(page.evaluate("window.sudokitBoard.timings.pageReady"))
            context.close()
        browser.close()
    server.should_exit = True
    print(f"first load {ready[0]:.0f} ms; next {len(ready) - 1}: median "
          f"{statistics.median(ready[1:]):.0f} ms (min {min(ready[1:]):.0f}, max "
          f"{max(ready[1:]):.0f}); target 1,000 ms")


if __name__ == "__main__":
    main()
