"""``sudokit serve``: the command starts the server on this machine only, prints its address,
and opens with the puzzle it was given (the whole file for a one-puzzle file)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

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
        address = line.split()[3]
        with urllib.request.urlopen(address + "api/opening", timeout=20) as response:
            assert json.load(response)["puzzle"] == first
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
