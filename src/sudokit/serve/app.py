"""The ASGI app of the board (Starlette): the page's static files and the JSON API.

``GET /`` serves the page (``static/index.html``), ``GET /static/...`` its CSS and JavaScript
(only files of the package's ``static`` folder), ``POST /api/NAME`` the endpoints of
:mod:`sudokit.serve.api` (``GET /api/methods`` too). A request body over
:data:`MAX_BODY` bytes is refused (413) before it is read whole; a body that is not a JSON
object, or bad input of any kind, gets 400 with the CLI's message; work runs in a worker thread
under the time limit: solves, counts, hints, explanations and ratings stop themselves at it
(answered 503 when it passes), ``generate`` runs in a child process killed at it
(:mod:`sudokit.serve.worker`); a thread still running ``grace`` seconds past twice the limit
(a single step of the technique engine that takes that long) is answered 503 and left to
finish.
"""

from __future__ import annotations

import json
import mimetypes
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import LimitReached, SudokuError
from .api import ENDPOINTS
from .worker import Worker

__all__ = ["IN_WORKER", "LOOPBACK", "MAX_BODY", "STATIC", "Settings", "create_app",
           "run_server", "warm_up"]

MAX_BODY = 1 << 20
"""Largest request body accepted, in bytes (1 MiB)."""

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
"""Addresses of this machine only: a server bound to one answers only loopback host names."""

STATIC = Path(__file__).with_name("static")
"""The page's files, shipped in the package."""

IN_WORKER = frozenset({"generate"})
"""Endpoints without a time limit of their own: run in a child process killed at the limit."""


@dataclass(frozen=True)
class Settings:
    """What a server runs with.

    Attributes:
        time_limit: seconds allowed to one request's work (a solve's time limit is at most
            this).
        max_body: largest request body in bytes.
        grace: seconds a request may run past twice ``time_limit`` (the count to two, then
            the logical solve, each within it) before it is answered 503 while its thread
            runs on: a backstop for one step of the technique engine longer than that.
        puzzle: puzzle text the page opens with (None: an empty 9x9 grid).
        variant: the variant name of that puzzle.
        hosts: the ``Host`` names answered (others get 400): ``*`` for any; a server bound to
            this machine answers only its loopback names (no DNS rebinding from web pages).
    """

    time_limit: float = 15.0
    max_body: int = MAX_BODY
    grace: float = 1.0
    puzzle: str | None = None
    variant: str = "standard"
    hosts: tuple[str, ...] = ("*",)


class _TooLarge(Exception):
    """The body passed the size limit while being read."""


async def _body(request: Request, limit: int) -> bytes:
    """The request body, read in pieces and refused past ``limit`` bytes.

    Raises:
        _TooLarge: the body (or its declared length) is over ``limit``.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    data = bytearray()
    async for piece in request.stream():
        data += piece
        if len(data) > limit:
            raise _TooLarge
    return bytes(data)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class _Running:
    """How many requests' work is running now (in threads or waiting on the worker)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    def __call__(self, work: Any) -> Any:
        """``work`` wrapped to be counted while it runs (in its thread)."""

        def counted(*args: Any) -> Any:
            with self._lock:
                self.count += 1
            try:
                return work(*args)
            finally:
                with self._lock:
                    self.count -= 1

        return counted


def _work(name: str, worker: Worker) -> Any:
    """The function of (body, limit) answering ``name``: in the worker process for
    :data:`IN_WORKER`, else :data:`~sudokit.serve.api.ENDPOINTS`'s in the thread."""
    if name not in IN_WORKER:
        return ENDPOINTS[name]
    return lambda body, limit: worker.run(name, body, limit, limit)


def _endpoint(name: str, settings: Settings, worker: Worker, running: _Running) -> Any:
    """The handler of ``/api/NAME``: body read and checked, work run in a thread."""
    work = running(_work(name, worker))

    async def handle(request: Request) -> Response:
        try:
            data = await _body(request, settings.max_body) if request.method == "POST" else b""
        except _TooLarge:
            return _error(413, f"request body over {settings.max_body} bytes")
        try:
            body = json.loads(data) if data.strip() else {}
        except (ValueError, RecursionError):
            return _error(400, "expected a JSON object as the request body")
        if not isinstance(body, dict):
            return _error(400, f"expected a JSON object, got {type(body).__name__}")
        limit = settings.time_limit
        try:
            with anyio.fail_after(2 * limit + settings.grace):
                answer = await anyio.to_thread.run_sync(work, body, limit,
                                                        abandon_on_cancel=True)
        except (TimeoutError, LimitReached):
            return _error(503, f"time limit of {limit:g} s reached")
        except ChildProcessError as exc:
            return _error(503, str(exc))
        except SudokuError as exc:
            return _error(400, str(exc))
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            return _error(400, f"bad request: {exc}")
        return JSONResponse(answer)

    return handle


def create_app(settings: Settings | None = None) -> Starlette:
    """Build the board's app: the page, its files and the API.

    Args:
        settings: time limit, body limit and opening puzzle (default :class:`Settings`).

    Returns:
        A Starlette app (ASGI), for uvicorn or Starlette's test client; ``app.state.worker``
        is its :class:`~sudokit.serve.worker.Worker`, ``app.state.running`` counts the
        requests whose work runs.
    """
    settings = settings or Settings()
    mimetypes.add_type("text/javascript", ".js")  # ES modules need it (some systems map .js off)
    worker, running = Worker(), _Running()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def opening(request: Request) -> Response:
        return JSONResponse({"puzzle": settings.puzzle, "variant": settings.variant,
                             "time_limit": settings.time_limit})

    routes = [Route("/", page), Route("/api/opening", opening, methods=["GET", "POST"])]
    routes += [Route(f"/api/{name}", _endpoint(name, settings, worker, running),
                     methods=["POST", "GET"] if name == "methods" else ["POST"])
               for name in ENDPOINTS]
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    hosts = Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.hosts))
    app = Starlette(routes=routes, middleware=[hosts])
    app.state.worker, app.state.running = worker, running
    return app


def warm_up(settings: Settings) -> None:
    """Answer what the page asks first (the methods, the opening puzzle's parse) once, so the
    modules behind them are imported before the address is printed and the first page load
    is as fast as the next ones. An opening puzzle that cannot be read raises nothing here:
    the page reports it."""
    ENDPOINTS["methods"]({}, settings.time_limit)
    try:
        ENDPOINTS["parse"]({"puzzle": settings.puzzle or "." * 81, "variant": settings.variant},
                           settings.time_limit)
    except SudokuError:
        pass


def run_server(settings: Settings, host: str = "127.0.0.1", port: int = 8000,
        open_browser: bool = False) -> None:
    """Serve the board with uvicorn until interrupted, printing its address first.

    Args:
        settings: as :func:`create_app`.
        host: the address to bind (default: this machine only).
        port: the TCP port (0: any free one).
        open_browser: open the page in the default web browser once the server is up.

    Raises:
        OSError: the address cannot be bound.
    """
    import socket
    import webbrowser

    import uvicorn

    warm_up(settings)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # connections wait in the backlog until uvicorn accepts them
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{sock.getsockname()[1]}/"
    print(f"sudokit board at {address} (Ctrl-C stops it)", flush=True)
    if open_browser:
        webbrowser.open(address)
    if host in LOOPBACK:
        settings = replace(settings, hosts=("127.0.0.1", "localhost", "::1", "[::1]"))
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])
