"""Shared fixtures: the registry as a ``method`` fixture, and paths to the shared datasets."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from sudokit.formats import read_puzzles
from sudokit.registry import methods

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
EXAMPLES = ROOT / "examples"


def method_names() -> list[str]:
    """Every registered method that can run here, with each of its backends."""
    names = []
    for info in methods():
        if not info.available:
            continue
        names.append(info.name)
        names += [f"{info.name}:{b}" for b in info.backends if b != info.cls.default_backend]
    return names


@pytest.fixture(params=method_names())
def method(request: pytest.FixtureRequest) -> str:
    """Each available method name in turn (a new method needs no test edits)."""
    return request.param


def load(relative: str, limit: int | None = None) -> list:
    """Puzzles of a shared dataset file (path relative to ``shared/data``); skip if absent."""
    path = DATA / relative
    if not path.exists():
        pytest.skip(f"dataset {path} not present")
    return [r.puzzle for r in itertools.islice(read_puzzles(path), limit)]
