"""``sudokit serve``: the interactive board in the browser (thin over :mod:`sudokit.serve`,
imported only when the command runs, so other commands start as fast as before)."""

from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ._app import app
from ._common import INDEX_HELP, VariantChoice, VariantOption

if TYPE_CHECKING:
    from ..model.puzzle import Puzzle


@app.command("serve")
def serve_command(
    puzzle: Annotated[str | None, typer.Argument(
        help="A puzzle (any form) or a puzzle file to open the board with (default: an "
        "empty 9x9 grid).")] = None,
    host: Annotated[str, typer.Option(
        help="Address to listen on (default: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port (0: any free one).")]
    = 8000,
    open_browser: Annotated[bool, typer.Option(
        "--open", help="Open the board in the web browser.")] = False,
    time_limit: Annotated[float, typer.Option(
        min=0.1, help="Seconds allowed to one request's work (solves stop at it).")] = 15.0,
    index: Annotated[int | None, typer.Option(min=1, help=INDEX_HELP)] = None,
    variant: VariantOption = VariantChoice.STANDARD,
    token: Annotated[str | None, typer.Option(
        help="The secret every API request must carry (default: a new random one, shown in "
        "the printed address; scripts send it as the X-Sudokit-Token header).")] = None,
    no_token: Annotated[bool, typer.Option(
        "--no-token", help="No token (only with the default --host 127.0.0.1; other checks "
        "stay: Host, Origin, Sec-Fetch-Site, JSON bodies).")] = False,
    allow_host: Annotated[list[str] | None, typer.Option(
        "--allow-host", help="Another Host name to answer (a name this machine is reached "
        "by); repeatable.")] = None,
) -> None:
    """Serve the interactive board (hints, steps, explanation, solving) at a local address.

    The board answers only its own page: requests from other sites or ports, without the
    per-run token of the printed address, or with a body that is not JSON are refused."""
    import errno
    import secrets

    from ..errors import InvalidOption, OutputError
    from ..run.warm import enabled
    from ..serve import LOOPBACK, Settings, run_server

    if no_token and (token is not None or host not in LOOPBACK):
        raise InvalidOption("--no-token goes only with the default --host 127.0.0.1 and "
                            "without --token")
    if token is not None and len(token) < 16:
        raise InvalidOption("--token must be at least 16 characters")
    text, rules = (None, variant.value) if puzzle is None else _opening(puzzle, index, variant)
    secret = None if no_token else token or secrets.token_urlsafe(24)
    try:
        run_server(Settings(time_limit=time_limit, puzzle=text, variant=rules, token=secret,
                            background_compile=enabled()),
                   host=host, port=port, open_browser=open_browser,
                   extra_hosts=tuple(allow_host or ()))
    except OutputError:  # the address could not be printed (an OSError too)
        raise
    except OSError as exc:  # binding: a port in use, an address not of this machine
        if exc.errno == errno.EADDRINUSE:
            raise InvalidOption(f"port {port} is in use on {host}: choose another with "
                                "--port, or --port 0 for any free one") from None
        raise InvalidOption(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _opening(argument: str, index: int | None, variant: VariantChoice) -> tuple[str, str]:
    """The text and variant name the page opens with: a literal puzzle as given; a file's (or
    standard input's, ``-``) whole text when it holds one puzzle; else its ``index``-th puzzle
    (default the first) in line form, which keeps the geometry of plain grids only.

    Raises:
        InvalidPuzzle: no such puzzle, or a chosen puzzle of a file of several that the line
            form cannot hold (a jigsaw, killer or multi-grid puzzle).
    """
    from ..errors import InvalidPuzzle
    from ..model.variants import spec_of_geometry
    from ..run.output import names_file
    from ._common import one_puzzle, read_argument

    whole = read_argument(argument)[0] if argument == "-" or names_file(argument) else None

    def pick(number: int | None) -> Puzzle:
        if whole is not None and argument == "-":  # stdin is read once: each pick reads it again
            sys.stdin = io.TextIOWrapper(io.BytesIO(whole.encode()), encoding="utf-8")
        return one_puzzle(argument, index=number, box=None, variant=variant)

    if whole is None or index is None:
        try:
            chosen = pick(index)
            return whole or argument, spec_of_geometry(chosen.geometry).text
        except InvalidPuzzle:
            if whole is None:
                raise
    chosen = pick(index or 1)
    if not chosen.geometry.is_plain:
        raise InvalidPuzzle("the board opens one puzzle: give a file holding only this one",
                            source=argument, line=chosen.source_line)
    return chosen.line, spec_of_geometry(chosen.geometry).text
