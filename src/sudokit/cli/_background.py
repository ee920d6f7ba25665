"""Long computations run on a background thread, so a command stops within a fraction of a
second on Ctrl-C, SIGTERM or its time limit (issue 43, item 9).

Compiled kernels release the GIL (``nogil``) and do not look at signals: a generator of 64x64
puzzles spent over 100 s in one call, and the handlers of Ctrl-C and SIGTERM, which Python runs
only in the main thread between bytecodes, waited for it. :func:`in_background` iterates the
work on a daemon thread and hands its items over a small queue; the main thread waits on that
queue in short steps, so the signal handlers and the deadline are served at once. The thread
is abandoned when the command stops (a daemon: it does not hold the process's exit).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple, TypeVar

from ..errors import TimeLimit

__all__ = ["AS_PROGRAM", "TimeLimit", "exit_now_if_busy", "in_background"]

T = TypeVar("T")

_STEP = 0.1
"""Seconds between two looks at the deadline while waiting for an item."""


class _Stop(NamedTuple):
    """The end of the work on the thread: the error it raised, None when it ended."""

    error: BaseException | None


def in_background(work: Callable[[], Iterable[T]], time_limit: float | None = None,
                  ahead: int = 2) -> Iterator[T]:
    """The items of ``work()``, computed on a daemon thread (``ahead`` items at most made
    before they are taken), while this thread stays free for signal handlers.

    Args:
        work: called on the thread; its iterable is read there (its errors are raised here).
        time_limit: seconds from now for the whole iteration (None: none).
        ahead: items the thread may make before they are taken.

    Raises:
        TimeLimit: ``time_limit`` passed (the thread is left to end with the process).
        Exception: whatever ``work`` raised, unchanged.
    """
    items: queue.Queue[T | _Stop] = queue.Queue(maxsize=max(1, ahead))
    stop = threading.Event()

    def run() -> None:
        try:
            for item in work():
                while not stop.is_set():
                    try:
                        items.put(item, timeout=_STEP)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            items.put(_Stop(None))
        except BaseException as exc:  # handed over to the caller's thread
            items.put(_Stop(exc))

    thread = threading.Thread(target=run, name="sudokit-background", daemon=True)
    thread.start()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        while True:
            item = _take(items, deadline, time_limit)
            if isinstance(item, _Stop):
                if item.error is not None:
                    raise item.error
                return
            yield item
    finally:
        stop.set()


def _take(items: queue.Queue[T], deadline: float | None, time_limit: float | None) -> T:
    """The next entry of ``items``, waiting in steps of :data:`_STEP` (signals are handled
    between them).

    Raises:
        TimeLimit: the deadline passed first.
    """
    while True:
        if deadline is not None and time.monotonic() >= deadline:
            raise TimeLimit(f"time limit of {time_limit:g} s reached")
        try:
            return items.get(timeout=_STEP)
        except queue.Empty:
            continue


AS_PROGRAM = False
"""True when the command line runs as the program (``sudokit``, ``python -m sudokit``: set by
:func:`sudokit.cli._app.main`), never when a caller (a test, a notebook) invokes a command in
its own process, which :func:`exit_now_if_busy` must not end."""


def exit_now_if_busy(code: int, prefixes: tuple[str, ...] = ("sudokit-background",
                                                             "sudokit-generate")) -> None:
    """End the process with ``code`` at once when a worker thread of a stopped run (a name
    starting with one of ``prefixes``: :func:`in_background`'s and the generator's pool) is
    still computing: the interpreter's exit would wait for it (``concurrent.futures`` joins
    its pool threads), up to a minute on 64x64 grids. Only in the program
    (:data:`AS_PROGRAM`): a caller's process goes on. Standard output and error are flushed
    first; the caller has closed its output files. Returns when no such thread is alive."""
    import os
    import sys

    if not AS_PROGRAM:
        return
    busy = [t for t in threading.enumerate()
            if t is not threading.current_thread() and t.is_alive()
            and t.name.startswith(prefixes)]
    if not busy:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
