"""The deadline of the logical solve running in this context, for checks inside a step.

:func:`sudokit.logic.solve.solve_steps` checks its limits between steps; a single step of a
long technique (the rule forcing chains follow every candidate through the rules' filters, the
trial step searches) can run for minutes on a hard rule puzzle. Such code calls
:func:`check_deadline` as it goes (the rules' filters at every round and search, the ladder
between techniques, the trial search at every node), which raises once the deadline of the
limits set by :func:`limited` has passed. Outside :func:`limited` it does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import LimitReached
from ..model.result import Limits

__all__ = ["check_deadline", "limited"]

_LIMITS: ContextVar[Limits | None] = ContextVar("sudokit_logic_limits", default=None)
"""The limits of the logical solve running in this context (see :func:`limited`)."""


@contextmanager
def limited(limits: Limits | None) -> Iterator[None]:
    """Make :func:`check_deadline` honour ``limits``' deadline while the block runs (a step of
    a solve, where the solve's own check between steps cannot reach: on an empty 64x64 grid
    one trial search took 25 s; a rule forcing chain on a little killer, over 2 minutes)."""
    token = _LIMITS.set(limits)
    try:
        yield
    finally:
        _LIMITS.reset(token)


def check_deadline() -> None:
    """Raise LimitReached once the deadline of :func:`limited`'s limits has passed (about
    0.2 microseconds a call when it has not).

    Raises:
        LimitReached: the deadline passed.
    """
    limits = _LIMITS.get()
    if limits is not None and limits.deadline is not None \
            and time.perf_counter() > limits.deadline:
        raise LimitReached(f"time limit {limits.time_limit} s reached")
