"""The ASGI app of the board (Starlette): the page's static files and the JSON API, behind the
server's trust boundary.

``GET /`` serves the page (``static/index.html``), ``GET /static/...`` its CSS and JavaScript
(only files of the package's ``static`` folder), ``POST /api/NAME`` the endpoints of
:mod:`sudokit.serve.api` (``GET /api/methods`` too).

Any web page the user visits can send requests to a local server, so every ``/api/`` request
must pass, in this order (as Jupyter and Datasette guard theirs): a ``Host`` this server
answers to (400 otherwise: no DNS rebinding); no foreign ``Origin`` and no
``Sec-Fetch-Site`` other than ``same-origin``/``none`` (403: a page of another site or
another local port); the server's per-run token, when it has one (403), from the
``X-Sudokit-Token`` header, ``Authorization: token T``, the ``token`` query parameter or the
cookie the page's address sets; and for a POST, ``Content-Type: application/json`` (415: the
"simple" bodies a browser sends cross-site without asking, ``text/plain``, form-encoded and
multipart, are refused). The API itself never runs a program or opens a path a request names
(:func:`sudokit.registry.check_remote`).

A body over :data:`MAX_BODY` bytes is refused (413) before it is read whole; a body that is not
a JSON object, or bad input of any kind, gets 400 with the CLI's message. The work runs in a
child process killed at the limit (:mod:`sudokit.serve.worker`: a quick lane and a slow lane,
each with a bounded queue): past the limit the answer is 503 and the CPU is free; past a
lane's queue bound, 503 with ``Retry-After``.
"""

from __future__ import annotations

import json
import math
import mimetypes
import secrets
import socket
import sys
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import LimitReached, OutputError, SudokuError
from .api import ENDPOINTS, read_puzzle
from .worker import Lanes, QueueFull

__all__ = ["INLINE", "LOOPBACK", "MAX_BODY", "SLOW", "STATIC", "TOKEN_HEADER", "Settings",
           "allowed_hosts", "create_app", "refusal", "run_server", "warm_up"]

MAX_BODY = 1 << 20
"""Largest request body accepted, in bytes (1 MiB)."""

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
"""Addresses of this machine only: a server bound to one answers only loopback host names."""

STATIC = Path(__file__).with_name("static")
"""The page's files, shipped in the package."""

INLINE = frozenset({"parse", "methods", "check"})
"""Endpoints answered in the server itself: they read a puzzle, check a grid or list the
methods, no search."""

SLOW = frozenset({"explain", "rate", "hint", "candidates", "why"})
"""Endpoints that go straight to the slow lane on a grid over 81 cells (``generate`` and ``why``
always)."""

TOKEN_HEADER = "X-Sudokit-Token"
"""The request header that carries the server's token (the page sends it)."""

_SAFE_FETCH_SITES = frozenset({"same-origin", "none"})


@dataclass(frozen=True)
class Settings:
    """What a server runs with.

    Attributes:
        time_limit: seconds allowed to one request's work, its wait for a child included (a
            solve's own time limit is at most this).
        max_body: largest request body in bytes.
        grace: seconds a child may run past a request's limit before it is killed (the 503
            goes out then, the CPU free with it).
        puzzle: puzzle text the page opens with (None: an empty 9x9 grid).
        variant: the variant name of that puzzle.
        hosts: the ``Host`` names answered (others get 400): ``*`` for any; a server bound to
            this machine answers only its loopback names (no DNS rebinding from web pages).
        token: the per-run secret every API request must carry (None: no token; ``sudokit
            serve`` makes one unless told not to, and always off loopback).
        quick_workers, slow_workers: child processes of the quick and the slow lane.
        queue: most requests waiting in each lane; one more gets 503 with ``Retry-After``.
        budget: seconds a request may spend in the quick lane before it moves to the slow
            one.
        background_compile: first-use compiles go to the background in the children (as on
            the command line, :mod:`sudokit.run.warm`).
    """

    time_limit: float = 15.0
    max_body: int = MAX_BODY
    grace: float = 0.5
    puzzle: str | None = None
    variant: str = "standard"
    hosts: tuple[str, ...] = ("*",)
    token: str | None = None
    quick_workers: int = 2
    slow_workers: int = 2
    queue: int = 8
    budget: float = 1.0
    background_compile: bool = False


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


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _cookie(request: Request) -> str:
    """The name of this server's token cookie (cookies ignore ports: the port is in it)."""
    return f"sudokit_token_{request.url.port or 80}"


def _token_of(request: Request) -> str:
    """The token a request carries (header, Authorization, query, cookie), or ''."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return (request.headers.get(TOKEN_HEADER, "")
            or (value.strip() if scheme.lower() in ("token", "bearer") else "")
            or request.query_params.get("token", "")
            or request.cookies.get(_cookie(request), ""))


def refusal(request: Request, settings: Settings) -> JSONResponse | None:
    """The answer refusing a request from outside the board's trust boundary, or None.

    Returns:
        403 for a foreign ``Origin``, a cross-site or same-site ``Sec-Fetch-Site``, or a
        missing or wrong token; 415 for a POST whose body is not declared JSON; else None.
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in _SAFE_FETCH_SITES:
        return _error(403, f"cross-site request refused (Sec-Fetch-Site: {site})")
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host')}":
        return _error(403, f"request from another origin refused ({origin})")
    if settings.token and not secrets.compare_digest(_token_of(request).encode(),
                                                     settings.token.encode()):
        return _error(403, "missing or wrong token: open the address `sudokit serve` printed "
                      f"(it holds ?token=...), or send the {TOKEN_HEADER} header")
    if request.method == "POST":
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            return _error(415, "expected Content-Type: application/json")
    return None


def _slow(name: str, body: dict[str, object]) -> bool:
    """Whether a request goes straight to the slow lane: ``generate`` and ``why`` (seconds on
    a drawn-rule puzzle: a minimal unsatisfiable subset), or a :data:`SLOW` endpoint on a grid
    over 81 cells.

    Raises:
        SudokuError: the puzzle cannot be read (answered 400 at once).
    """
    if name in ("generate", "why"):
        return True
    return name in SLOW and read_puzzle(body).geometry.n_cells > 81


_Work = Callable[[dict[str, object], float], dict[str, object]]
"""An endpoint's work: (request body, time limit in seconds) -> the JSON-ready answer."""


def _work(name: str, lanes: Lanes) -> _Work:
    """The function of (body, limit) answering ``name``: in the server for :data:`INLINE`,
    else in the lanes' children."""
    if name in INLINE:
        return ENDPOINTS[name]
    return lambda body, limit: lanes.run(name, body, limit, slow=_slow(name, body))


def _endpoint(name: str, settings: Settings, lanes: Lanes
              ) -> Callable[[Request], Awaitable[Response]]:
    """The handler of ``/api/NAME``: request checked, body read and checked, work run."""
    work = _work(name, lanes)
    busy = {"Retry-After": str(max(1, math.ceil(settings.time_limit)))}

    async def handle(request: Request) -> Response:
        refused = refusal(request, settings)
        if refused is not None:
            return refused
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
            with anyio.fail_after(limit + settings.grace + 5):  # backstop: lanes kill first
                answer = await anyio.to_thread.run_sync(work, body, limit,
                                                        abandon_on_cancel=True)
        except QueueFull:
            return _error(503, "the server is busy: try again later", busy)
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
        settings: limits, token, hosts, lanes and opening puzzle (default :class:`Settings`).

    Returns:
        A Starlette app (ASGI), for uvicorn or Starlette's test client; ``app.state.lanes``
        is its :class:`~sudokit.serve.worker.Lanes` (stopped with the app's lifespan, or by
        ``app.state.lanes.stop()``).
    """
    settings = settings or Settings()
    mimetypes.add_type("text/javascript", ".js")  # ES modules need it (some systems map .js off)
    lanes = Lanes(settings.quick_workers, settings.slow_workers, settings.queue,
                  settings.budget, settings.grace, settings.background_compile)

    warming: list[bool] = []

    async def page(request: Request) -> Response:
        if not warming:  # the page asks next: start the quick lane's children now
            warming.append(True)
            await anyio.to_thread.run_sync(lanes.warm)
        response = FileResponse(STATIC / "index.html", media_type="text/html")
        given = request.query_params.get("token", "")
        if settings.token and secrets.compare_digest(given.encode(), settings.token.encode()):
            response.set_cookie(_cookie(request), given, httponly=True, samesite="strict")
        return response

    async def opening(request: Request) -> Response:
        refused = refusal(request, settings)
        return refused or JSONResponse({"puzzle": settings.puzzle, "variant": settings.variant,
                                        "time_limit": settings.time_limit})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        lanes.stop()

    routes: list[BaseRoute] = [Route("/", page),
                               Route("/api/opening", opening, methods=["GET", "POST"])]
    routes += [Route(f"/api/{name}", _endpoint(name, settings, lanes),
                     methods=["POST", "GET"] if name == "methods" else ["POST"])
               for name in ENDPOINTS]
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    hosts = Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.hosts))
    app = Starlette(routes=routes, middleware=[hosts], lifespan=lifespan)
    app.state.lanes = lanes
    weakref.finalize(app, lanes.stop)  # an app dropped without its lifespan: children too
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


def allowed_hosts(host: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ``Host`` names a server bound to ``host`` answers: the loopback names always; for
    another address, that address, this machine's name and fully qualified name and the
    addresses they resolve to (every interface's, for ``0.0.0.0`` or ``::``); and ``extra``.
    """
    names = {"127.0.0.1", "localhost", "::1", "[::1]", *extra}
    if host not in LOOPBACK:
        names |= {host, f"[{host}]" if ":" in host else host}
        for name in {socket.gethostname(), socket.getfqdn()}:
            names.add(name)
            try:
                infos = socket.getaddrinfo(name, None)
            except OSError:
                continue
            names |= {str(info[4][0]) for info in infos}
        names |= {f"[{n}]" for n in names if ":" in n and not n.startswith("[")}
    return tuple(sorted(names - {"0.0.0.0", "::", "[::]"}))


def _say(text: str, stream: TextIO, sock: socket.socket) -> None:
    """Print one line the user needs (the address with its token, the off-loopback warning).

    Raises:
        OutputError: the stream refused it (a full disk, a closed pipe): the server does not
            start, since nobody could learn its address (the socket is closed first).
    """
    try:
        print(text, file=stream, flush=True)
    except OSError as exc:
        sock.close()
        name = "standard error" if stream is sys.stderr else "standard output"
        raise OutputError(f"writing the board's address to {name}: "
                          f"{exc.strerror or exc}") from None


def run_server(settings: Settings, host: str = "127.0.0.1", port: int = 8000,
        open_browser: bool = False, extra_hosts: tuple[str, ...] = ()) -> None:
    """Serve the board with uvicorn until interrupted, printing its address first.

    Args:
        settings: as :func:`create_app` (its ``hosts`` are set here from ``host``).
        host: the address to bind (default: this machine only).
        port: the TCP port (0: any free one).
        open_browser: open the page in the default web browser once the server is up.
        extra_hosts: more ``Host`` names to answer (a name this machine is reached by).

    Raises:
        OSError: the address cannot be bound.
        OutputError: the address (or the off-loopback warning) cannot be printed: standard
            output on a full disk or a closed pipe.
        ValueError: a ``host`` off this machine without a token.
    """
    import webbrowser

    import uvicorn

    if host not in LOOPBACK and not settings.token:
        raise ValueError(f"--host {host} makes the board reachable from other machines: "
                         "it needs the token (drop --no-token)")
    warm_up(settings)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # connections wait in the backlog until uvicorn accepts them
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    query = f"?token={settings.token}" if settings.token else ""
    address = f"http://{shown}:{sock.getsockname()[1]}/{query}"
    if host not in LOOPBACK:
        _say(f"sudokit: warning: listening on {host}: anyone who can reach this machine on "
             f"port {sock.getsockname()[1]} and knows the token can use the board (and its "
             "CPU); use the default 127.0.0.1 unless you mean it", sys.stderr, sock)
    _say(f"sudokit board at {address} (Ctrl-C stops it)", sys.stdout, sock)
    settings = replace(settings, hosts=allowed_hosts(host, extra_hosts))
    app = create_app(settings)
    app.state.lanes.warm()
    if open_browser and not webbrowser.open(address):
        print("sudokit: no web browser found here: open the address above in one",
              file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        app.state.lanes.stop()
