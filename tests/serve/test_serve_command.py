"""``sudokit serve``: the command starts the server on this machine only, prints its address,
and opens with the puzzle it was given (the whole file for a one-puzzle file) in every form:
a file, a literal puzzle, ``-`` (standard input); ``--host``, ``--port`` and ``--open`` (a
stand-in browser command through ``$BROWSER``)."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sudokit.cli._common import VariantChoice
from sudokit.cli.serve import _opening
from tests.helpers import DATA, EXAMPLES, ROOT


def test_opening_text_of_each_kind_of_argument() -> None:
    top = EXAMPLES / "top95.txt"
    first = top.read_text().split()[0]
    assert _opening(str(top), None, VariantChoice.STANDARD) == (first, "standard")
    third = top.read_text().split()[2]
    assert _opening(str(top), 3, VariantChoice.STANDARD) == (third, "standard")
    killer = DATA / "janko/KillerSudoku/problems/22_9x9.txt"  # the variant from its folder
    assert _opening(str(killer), None, VariantChoice.STANDARD) == (killer.read_text(), "killer")
    assert _opening(first, None, VariantChoice.DIAGONAL)[0] == first


def test_the_command_serves_on_localhost_with_its_puzzle() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    first = (EXAMPLES / "top95.txt").read_text().split()[0]
    process = subprocess.Popen(
        [sys.executable, "-m", "sudokit", "serve", str(EXAMPLES / "top95.txt"), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        assert line.startswith("sudokit board at http://127.0.0.1:"), line
        address, token = split(line.split()[3])
        assert len(token) >= 16  # a per-run token, on by default
        assert fetch(line.split()[3], "opening")["puzzle"] == first
        with pytest.raises(urllib.error.HTTPError) as refused:  # without the token: refused
            urllib.request.urlopen(address + "api/opening", timeout=20)
        assert refused.value.code == 403
        with urllib.request.urlopen(address, timeout=20) as response:
            assert b"sudokit board" in response.read()
        rebound = urllib.request.Request(address, headers={"Host": "evil.example"})
        try:  # a web page's name pointed at 127.0.0.1 (DNS rebinding) is refused
            urllib.request.urlopen(rebound, timeout=20)
            raise AssertionError("a foreign Host was answered")
        except urllib.error.HTTPError as exc:
            assert exc.code == 400
    finally:
        process.terminate()
        process.wait(10)


TOP95 = (EXAMPLES / "top95.txt").read_text().split()


@contextmanager
def served(args: list[str], stdin: str = "", env: dict[str, str] | None = None
           ) -> Iterator[str]:
    """``sudokit serve ARGS`` in a child process fed ``stdin``; yields the address it prints."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), **(env or {}))
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "serve", *args],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        process.stdin.write(stdin)
        process.stdin.close()
        line = process.stdout.readline()
        assert line.startswith("sudokit board at http://"), (line, process.stderr.read())
        yield line.split()[3]
    finally:
        process.terminate()
        process.wait(10)


def split(address: str) -> tuple[str, str]:
    """The printed address without its query, and the token the query holds ('' if none)."""
    parts = urllib.parse.urlsplit(address)
    token = urllib.parse.parse_qs(parts.query).get("token", [""])[0]
    return urllib.parse.urlunsplit(parts._replace(query="")), token


def fetch(address: str, name: str, body: dict[str, Any] | None = None) -> Any:
    """``/api/NAME`` of the printed ``address`` with its token (a JSON POST when ``body``)."""
    base, token = split(address)
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + "api/" + name, data=data, headers={
        "X-Sudokit-Token": token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


@pytest.mark.parametrize(("args", "stdin", "opening"), [
    ([TOP95[3]], "", TOP95[3]),                                  # a literal puzzle
    (["-"], TOP95[4] + "\n", TOP95[4] + "\n"),         # one puzzle on stdin: its whole text
    (["-", "--index", "2"], "\n".join(TOP95[:3]) + "\n", TOP95[1]),  # the 2nd of several
    ([], "", None),                                               # no puzzle: an empty grid
])
def test_each_form_of_the_puzzle_argument(args: list[str], stdin: str,
                                          opening: str | None) -> None:
    with served([*args, "--port", "0"], stdin) as address:
        assert address.startswith("http://127.0.0.1:")
        assert fetch(address, "opening")["puzzle"] == opening


def test_host_port_and_open_with_a_stand_in_browser(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    opened = tmp_path / "opened.txt"
    browser = (f"{shlex.quote(sys.executable)} -c "
               f"'import sys; open(sys.argv[1], \"w\").write(sys.argv[2])' "
               f"{shlex.quote(str(opened))} %s")
    args = [TOP95[0], "--host", "localhost", "--port", str(port), "--open",
            "--time-limit", "120"]  # a first generate may load or compile its kernels
    with served(args, env={"BROWSER": browser}) as address:
        assert split(address)[0] == f"http://localhost:{port}/"
        deadline = time.monotonic() + 20
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert opened.read_text() == address  # --open gave the browser the page's address
        made = fetch(address, "generate", {"size": 4, "seed": 5})  # in the worker process
        assert made["givens"] == sum(ch != "." for ch in made["puzzle"])


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (["no-such-file.txt"], "", "no-such-file.txt"),
    (["-"], "", "<stdin>"),
    (["-", "--index", "5"], TOP95[0] + "\n", "5"),
])
def test_a_wrong_puzzle_argument_is_one_error_line(args: list[str], stdin: str,
                                                   message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "sudokit", "serve", *args, "--port", "0"],
                          input=stdin, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert message in done.stderr and not done.stdout, done.stderr


def test_a_port_in_use_is_one_error_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "sudokit", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"port {port} is in use" in done.stderr and "--port 0" in done.stderr


def test_a_full_disk_for_the_address_is_one_error_line() -> None:
    """Standard output on a full disk: the address (and its token) cannot be shown, so the
    server does not start; one line says why (issue 43: full disk under serve)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "sudokit", "serve", "--port", "0"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
                              env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ("sudokit: error: writing the board's address to standard "
                                   "output: No space left on device")


def test_open_without_a_display_says_so_and_serves(tmp_path: Path) -> None:
    """``--open`` where no web browser can be found (no display, none on PATH): one line says
    to open the address by hand, and the board is served all the same."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), PATH=str(tmp_path), DISPLAY="",
               WAYLAND_DISPLAY="", BROWSER="")
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "serve", "--port", "0",
                                "--open"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        address = process.stdout.readline().split()[3]
        assert process.stderr.readline().startswith("sudokit: no web browser found here: "
                                                    "open the address above")
        assert fetch(address, "methods", {})["default"]
    finally:
        process.terminate()
        process.wait(10)
    assert "Traceback" not in process.stderr.read()
