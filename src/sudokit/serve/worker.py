"""Work that has no time limit of its own, run in a child process the server kills at the limit.

The generator (:func:`sudokit.run.generate.generate`) takes no time limit: a request for a
puzzle of a rare level could search for minutes. :class:`Worker` runs such an endpoint in a
child process (``spawn``: a fresh interpreter, safe beside the server's threads) kept for the
next request while it answers in time; past the limit the child is killed, so no CPU work
goes on after the 503, and the next request starts a new one (a start costs the imports and
the compiled kernels' loading, 2-3 s). One request at a time per worker: others wait, their
wait counted in their time limit.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from ..errors import LimitReached, SudokuError

__all__ = ["Worker", "WorkFailed"]


class WorkFailed(SudokuError):
    """The child answered with an error: bad input (the message the CLI prints)."""


def _serve(conn: Connection) -> None:
    """The child's loop: ``(endpoint name, body, limit)`` in, ``(ok, answer or message)`` out,
    until the server closes the pipe."""
    from .api import ENDPOINTS

    while True:
        try:
            name, body, limit = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send((True, ENDPOINTS[name](body, limit)))
        except (SudokuError, ValueError, TypeError, OverflowError, RecursionError) as exc:
            conn.send((False, str(exc)))


class Worker:
    """A child process answering endpoints of :data:`sudokit.serve.api.ENDPOINTS`, killed when
    an answer is late.

    Attributes:
        kills: how many children were killed at a time limit.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self.kills = 0

    @property
    def pid(self) -> int | None:
        """The running child's process id, or None."""
        return self._process.pid if self._process is not None else None

    def _start(self) -> Connection:
        if self._process is None or not self._process.is_alive():
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            self._process = context.Process(target=_serve, args=(theirs,), daemon=True,
                                            name="sudokit-serve-worker")
            self._process.start()
            theirs.close()
            self._conn = ours
        assert self._conn is not None
        return self._conn

    def stop(self) -> None:
        """Kill the child (if any) and wait for it."""
        if self._process is not None:
            self._process.kill()
            self._process.join(5)
            self._conn.close()  # type: ignore[union-attr]
            self._process, self._conn = None, None

    def run(self, name: str, body: dict[str, Any], limit: float, timeout: float) -> Any:
        """Answer ``name`` for ``body`` in the child within ``timeout`` seconds.

        Raises:
            LimitReached: no answer in time (the child was killed).
            WorkFailed: the endpoint refused the body (bad input).
            ChildProcessError: the child ended without answering.
        """
        deadline = time.monotonic() + timeout
        if not self._lock.acquire(timeout=timeout):
            raise LimitReached(f"time limit of {limit:g} s reached")
        try:
            conn = self._start()
            conn.send((name, body, limit))
            if not conn.poll(max(0.0, deadline - time.monotonic())):
                self.kills += 1
                self.stop()
                raise LimitReached(f"time limit of {limit:g} s reached")
            try:
                ok, answer = conn.recv()
            except (EOFError, OSError) as exc:  # the child died (out of memory, a signal)
                self.stop()
                raise ChildProcessError(f"the worker process ended: {exc}") from None
        finally:
            self._lock.release()
        if not ok:
            raise WorkFailed(answer)
        return answer
