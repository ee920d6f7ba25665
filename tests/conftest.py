"""Shared fixtures: the registry as a ``method`` fixture. Paths and loaders are in
:mod:`tests.helpers`."""

from __future__ import annotations

import pytest

from tests.helpers import method_names


@pytest.fixture(params=method_names())
def method(request: pytest.FixtureRequest) -> str:
    """Each available method name in turn (a new method needs no test edits)."""
    return request.param
