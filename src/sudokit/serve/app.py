"""The ASGI app of the board (Starlette): the page's static files and the JSON API.

``GET /`` serves the page (``static/index.html``), ``GET /static/...`` its CSS and JavaScript
(only files of the package's ``static`` folder), ``POST /api/NAME`` the endpoints of
:mod:`sudokit.serve.api` (``GET /api/methods`` too). A request body over
:data:`MAX_BODY` bytes is refused (413) before it is read whole; a body that is not a JSON
object, or bad input of any kind, gets 400 with the CLI's message; work runs in a worker thread
under the time limit (solves stop themselves at it; other work past it answers 503 and its
thread is abandoned).
"""

from __future__ import annotations

import json
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

from ..errors import SudokuError
from .api import ENDPOINTS

__all__ = ["LOOPBACK", "MAX_BODY", "STATIC", "Settings", "create_app", "run_server"]

MAX_BODY = 1 << 20
"""Largest request body accepted, in bytes (1 MiB)."""

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
"""Addresses of this machine only: a server bound to one answers only loopback host names."""

STATIC = Path(__file__).with_name("static")
"""The page's files, shipped in the package."""


@dataclass(frozen=True)
class Settings:
    """What a server runs with.

    Attributes:
        time_limit: seconds allowed to one request's work (a solve's time limit is at most
            this).
        max_body: largest request body in bytes.
        grace: seconds a request may run past ``time_limit`` before it is answered 503 (a
            solve stops itself at the limit; this covers its set-up and verification).
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


def _endpoint(name: str, settings: Settings) -> Any:
    """The handler of ``/api/NAME``: body read and checked, work run in a thread."""
    work = ENDPOINTS[name]

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
            with anyio.fail_after(limit + settings.grace):
                answer = await anyio.to_thread.run_sync(work, body, limit,
                                                        abandon_on_cancel=True)
        except TimeoutError:
            return _error(503, f"time limit of {limit:g} s reached")
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
        A Starlette app (ASGI), for uvicorn or Starlette's test client.
    """
    settings = settings or Settings()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def opening(request: Request) -> Response:
        return JSONResponse({"puzzle": settings.puzzle, "variant": settings.variant,
                             "time_limit": settings.time_limit})

    routes = [Route("/", page), Route("/api/opening", opening, methods=["GET", "POST"])]
    routes += [Route(f"/api/{name}", _endpoint(name, settings),
                     methods=["POST", "GET"] if name == "methods" else ["POST"])
               for name in ENDPOINTS]
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    hosts = Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.hosts))
    return Starlette(routes=routes, middleware=[hosts])


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
