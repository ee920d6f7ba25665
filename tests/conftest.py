"""Shared fixtures: the registry as a ``method`` fixture. Paths and loaders are in
:mod:`tests.helpers`."""

from __future__ import annotations

import os

import pytest

from tests.helpers import method_names

# Commands run by tests compile in the foreground: the background compiling of a first use
# (sudokit.run.warm) would answer with another method while a test's kernels are unmarked.
# tests/run/test_warm.py turns it on where it tests it.
os.environ["SUDOKIT_BACKGROUND_COMPILE"] = "0"


@pytest.fixture(params=method_names())
def method(request: pytest.FixtureRequest) -> str:
    """Each available method name in turn (a new method needs no test edits)."""
    return request.param
