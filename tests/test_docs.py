"""README.md and the documentation site (docs/, mkdocs.yml) stay short, true and self-contained."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").rglob("*.md"))]

# "issue 13", "issue-14", "issue #3", "issues 2 and 5": internal work items, not documentation.
ISSUE = re.compile(r"\bissues? ?[-#]? ?\d+", re.IGNORECASE)
# "../shared/data", "/work/main", "/tmp/x": files outside the repository.
OUTSIDE = re.compile(r"(?<![\w.])\.\./|(?<![\w.~])/(?:work|tmp|home|root|opt|mnt)/")
# `examples/top95.txt`, `tests/data/SOURCES.md`, `benchmarks/large.py`, `docs/architecture.md`
REPO_PATH = re.compile(r"`((?:examples|tests|benchmarks|docs|src|\.ci)/[\w./-]*[\w])`")
# [text](docs/usage.md), [text](methods.md#the-portfolio): relative links, from the file's folder
LINK = re.compile(r"\]\(([\w./-]+)(?:#[\w-]*)?\)")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_readme_is_at_most_250_lines() -> None:
    count = len(README.read_text(encoding="utf-8").splitlines())
    assert count <= 250, f"README.md has {count} lines (at most 250: the rest belongs in docs/)"


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_no_issue_numbers_and_no_paths_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    issues = sorted({m.group(0) for m in ISSUE.finditer(text)})
    outside = [line for line in text.splitlines() if OUTSIDE.search(line)]
    assert not issues, f"{_name(path)} names internal work items: {issues}"
    assert not outside, f"{_name(path)} names files outside the repository: {outside[:3]}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_every_repository_path_named_exists(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    named = {ROOT / p for p in REPO_PATH.findall(text) if "*" not in p}
    named |= {path.parent / p for p in LINK.findall(text)}
    missing = sorted(_name(p.resolve()) if p.resolve().is_relative_to(ROOT) else str(p)
                     for p in named if not p.exists())
    assert not missing, f"{_name(path)} names paths that do not exist: {missing}"


def test_every_page_is_in_the_site_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = set(re.findall(r":\s*([\w/-]+\.md)\s*$", config, re.MULTILINE))
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert pages <= nav, f"pages missing from mkdocs.yml's nav: {sorted(pages - nav)}"
    assert nav <= pages, f"mkdocs.yml's nav names missing pages: {sorted(nav - pages)}"


def test_the_readme_python_tour_prints_what_it_shows() -> None:
    """The README's Python tour is real output: run it as a doctest."""
    failed, attempted = doctest.testfile(str(README), module_relative=False,
                                         optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted >= 10 and failed == 0


def test_the_python_page_examples_print_what_they_show() -> None:
    import sudokit

    failed, attempted = doctest.testfile(str(ROOT / "docs" / "python.md"), module_relative=False,
                                         globs={"sudokit": sudokit},
                                         optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted >= 5 and failed == 0
