"""docs/board.md's pictures are made by the browser tests, never by hand: each picture the
page shows is named by a test that saves it (``.ci/screenshots`` runs those tests with
``SUDOKIT_SCREENSHOTS=docs/images``), and exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_each_picture_of_the_board_page_is_made_by_a_browser_test() -> None:
    page = (ROOT / "docs/board.md").read_text()
    shown = set(re.findall(r"\(images/([\w.-]+\.png)\)", page))
    script = (ROOT / ".ci/screenshots").read_text()
    made = ""
    for name in re.findall(r"tests/serve/(test_\w+\.py)", script):
        made += (ROOT / "tests/serve" / name).read_text()
    assert len(shown) > 20
    assert not {n for n in shown if f'"{n}"' not in made}, "pictures no test saves"
    assert all((ROOT / "docs/images" / n).is_file() for n in shown)


def test_the_built_site_is_not_left_untracked() -> None:
    """``mkdocs build`` writes ``site/``: git ignores it (issue 41: it was left untracked)."""
    import subprocess

    ignored = subprocess.run(["git", "check-ignore", "-q", "site/index.html"], cwd=ROOT)
    assert ignored.returncode == 0
