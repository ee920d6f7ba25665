"""The one typed request every front door takes: method, options, limits, count limit."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..model.result import Limits

__all__ = ["Request"]


@dataclass(frozen=True)
class Request:
    """What to run on every puzzle of a batch: one typed value instead of option dicts.

    Attributes:
        method: a registry name, resolved once (``"fast"``, ``"sat:cadical195"``).
        options: method options (``{"select": "mrv"}``); limits never travel here.
        limits: the time limit (seconds) and node limit, each per puzzle.
        count_limit: solutions to look for per puzzle (1 solves, 2 tells unique from multiple).

    Raises:
        UnknownMethod, MethodUnavailable, InvalidOption: from :meth:`solver` (and so from
            :meth:`checked`) for a bad name or option.
    """

    method: str
    options: Mapping[str, Any] = field(default_factory=dict)
    limits: Limits = Limits()
    count_limit: int = 1

    @classmethod
    def build(cls, method: str | None = None, options: Mapping[str, Any] | None = None,
              limits: Limits = Limits(), count_limit: int = 1) -> Request:
        """A checked request; ``method`` None is the fastest available
        (:func:`sudokit.api.default_method`).

        Raises:
            UnknownMethod, MethodUnavailable, InvalidOption: a bad name or option.
        """
        from ..registry import default_method

        return cls(method or default_method(), dict(options or {}), limits,
                   count_limit).checked()

    def solver(self) -> Any:
        """The solver instance (cached per request: the name is resolved once)."""
        return _solver(self.method, tuple(sorted(self.options.items())))

    def checked(self) -> Request:
        """Resolve the method now, so a bad name or option fails before any work; return self."""
        self.solver()
        return self


@cache
def _solver(method: str, options: tuple[tuple[str, Any], ...]) -> Any:
    from ..registry import get_solver

    return get_solver(method, **dict(options))
