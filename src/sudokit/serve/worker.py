"""The board's work, run in child processes the server kills at the time limit, in lanes with a
bounded queue.

A request's work (a solve, a count, a hint, an explanation, a rating, true candidates, a new
puzzle) runs in a child process (a fresh interpreter started with
``python -c``, safe beside the server's threads, never importing the server's main module), never in the server: past the limit the child is killed, so no CPU work goes on
after the 503, and the next request starts a new one (a start costs the imports and the
compiled kernels' loading, 2-4 s; the quick lane's children are started with the server).

Two lanes (:class:`Lanes`): every request first tries the **quick lane** (its own children)
with a short budget; an answer cut by that budget is discarded and the request goes on in the
**slow lane** with what is left of its limit. Requests known to be slow (a new puzzle, the
explanation or rating of a grid over 9x9) go to the slow lane at once. Each lane runs as many
requests as it has children and lets a bounded number wait (their wait counted in their
limit); past that bound the request is refused at once (:class:`QueueFull`, HTTP 503 with
``Retry-After``). So slow requests cannot hold up a cheap one: with every slow child busy and
its queue full, a cheap hint still answers from the quick lane.

Each child asks Linux to kill it when the server dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``;
the setting belongs to the thread that started the child, so every child is started by one
long-lived thread, :class:`_Spawner`): a server killed by any signal leaves no child behind.
"""

from __future__ import annotations

import ctypes
import math
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TypeVar

from ..errors import LimitReached, SudokuError, WorkFailed

__all__ = ["STARTUP_SECONDS", "Lane", "Lanes", "QueueFull", "WorkFailed", "Worker"]

STARTUP_SECONDS = 60.0
"""How long a request waits, beyond its own time, for its child to finish warming up
(imports and a first-use compile; 2-5 s idle, over 15 s under load), in seconds."""

_PR_SET_PDEATHSIG = 1
_T = TypeVar("_T")

_CHILD = ("import sys; from multiprocessing.connection import Connection; "
          "from sudokit.serve.worker import _serve; "
          "_serve(Connection(int(sys.argv[1])), int(sys.argv[2]), sys.argv[3] == '1')")
"""A child's program: its socket's descriptor, the server's pid, background compiling."""


class QueueFull(Exception):
    """A lane's children are all busy and its queue is full: answered 503 with Retry-After."""


def _die_with_parent() -> None:
    """Ask Linux to kill this process (SIGKILL) when the thread that started it ends."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the server's stop() still kills children
        pass


def _serve(conn: Connection, parent: int, background_compile: bool) -> None:
    """The child's loop: ``(endpoint name, body, limit)`` in; ``("ok", answer, seconds)``,
    ``("bad", message, seconds)`` or ``("limit", message, seconds)`` out, until the server
    closes the pipe. A name of None warms the child (imports, the page's first answers)."""
    _die_with_parent()
    if os.getppid() != parent:  # the server died before the death signal was asked for
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if background_compile:  # as the command line: first-use compiles go to the background
        from ..run.warm import enable

        enable()
    from .api import ENDPOINTS

    while True:
        try:
            name, body, limit = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        start = time.monotonic()
        try:
            if name is None:
                ENDPOINTS["methods"]({}, limit)
                answer: tuple[str, object] = ("ok", ENDPOINTS["hint"]({"puzzle": "." * 81}, limit))
            else:
                answer = ("ok", ENDPOINTS[name](body, limit))
        except LimitReached as exc:
            answer = ("limit", str(exc))
        except (SudokuError, ValueError, TypeError, OverflowError, RecursionError) as exc:
            answer = ("bad", str(exc))
        conn.send((*answer, time.monotonic() - start))


class _Spawner:
    """One long-lived thread that starts every child, so that each child's death signal is
    tied to a thread that lives as long as the server (not to a request's thread)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _loop(self) -> None:
        while True:
            self._jobs.get()()

    def call(self, job: Callable[[], _T]) -> _T:
        """Run ``job`` on the spawner thread and return its value (or raise its error)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True,
                                                name="sudokit-serve-spawner")
                self._thread.start()
        reply: Future[_T] = Future()

        def run() -> None:
            try:
                reply.set_result(job())
            except BaseException as exc:  # handed to the caller, who raises it
                reply.set_exception(exc)
        self._jobs.put(run)
        return reply.result()


class Worker:
    """A child process answering endpoints of :data:`sudokit.serve.api.ENDPOINTS`, killed when
    an answer is late.

    Args:
        spawner: the thread that starts children (shared by a server's workers).
        background_compile: turn on first-use background compiling in the child
            (:func:`sudokit.run.warm.enable`), as the command line does.
        keep_warm: start a new child at once (and warm it) when one is killed at a limit,
            so the next request does not wait for the start (the quick lane's children).

    Attributes:
        kills: how many children were killed at a time limit.
    """

    def __init__(self, spawner: _Spawner | None = None, background_compile: bool = False,
                 keep_warm: bool = False) -> None:
        self._spawner = spawner or _Spawner()
        self._background = background_compile
        self._lock = threading.Lock()
        self._stopping = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._warming = False  # a warm-up's answer is due before the next one
        self._keep_warm = keep_warm
        self.kills = 0

    @property
    def pid(self) -> int | None:
        """The running child's process id, or None."""
        return self._process.pid if self._process is not None else None

    def _spawn(self) -> tuple[subprocess.Popen[bytes], Connection]:
        """A new child (:data:`_CHILD`) and our end of its socket pair."""
        ours, theirs = socket.socketpair()
        with theirs:
            process = subprocess.Popen(
                [sys.executable, "-c", _CHILD, str(theirs.fileno()), str(os.getpid()),
                 str(int(self._background))],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        return process, Connection(ours.detach())

    def _start(self) -> Connection:
        if self._process is None or self._process.poll() is not None:
            self.stop()
            self._process, self._conn = self._spawner.call(self._spawn)
        assert self._conn is not None
        return self._conn

    def stop(self) -> None:
        """Kill the child (if any) and wait for it."""
        with self._stopping:  # the server's stop may come while a request kills its child
            process, conn = self._process, self._conn
            self._process, self._conn = None, None
        if process is not None:
            process.kill()
            process.wait(5)
        if conn is not None:
            conn.close()

    def warm(self, wait: bool = False) -> None:
        """Start the child and have it load what the first answers need.

        Args:
            wait: wait for it (else the next request waits, without counting it against
                the child: a slow warm-up, a first-use compile, is never killed).
        """
        if not self._lock.acquire(blocking=wait):
            return  # a request runs in the child: it is started
        try:
            if self._process is not None and self._process.poll() is None \
                    and (self._warming or not wait):
                if wait:  # a warm-up is under way: its one answer is the one to take
                    self._await_warm(None)
                return  # started already (a second warm-up's answer would be read as a
                # request's)
            self._start().send((None, None, 600.0))
            self._warming = True
            if wait:
                self._await_warm(None)
        finally:
            self._lock.release()

    def _await_warm(self, deadline: float | None) -> None:
        """Take the warm-up's answer, due before the next one (by ``deadline``, or ever).

        Raises:
            LimitReached: not by ``deadline`` (the child warms on; it is not killed).
        """
        if not self._warming:
            return
        assert self._conn is not None
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not self._conn.poll(left):
            raise LimitReached("time limit reached while the worker process starts")
        try:
            self._conn.recv()
        except (EOFError, OSError):
            self.stop()
        self._warming = False

    def run(self, name: str, body: dict[str, object], limit: float, timeout: float
            ) -> tuple[dict[str, object], float]:
        """Answer ``name`` for ``body`` in the child, its work limited to ``limit`` seconds,
        the child killed if no answer comes within ``timeout`` seconds of sending it. A child
        still warming up (imports, a first-use compile) is waited for first, up to
        :data:`STARTUP_SECONDS` more, never killed: the first request of a server started
        under load is late, not refused.

        Returns:
            The answer and the seconds the child spent on it.

        Raises:
            LimitReached: the work stopped at its limit, or no answer came in time (the child
                was killed).
            WorkFailed: the endpoint refused the body (bad input).
            ChildProcessError: the child ended without answering.
        """
        with self._lock:
            self._await_warm(time.monotonic() + timeout + STARTUP_SECONDS)
            deadline = time.monotonic() + timeout  # the request's time starts once it is sent
            conn = self._start()
            conn.send((name, body, limit))
            if not conn.poll(max(0.0, deadline - time.monotonic())):
                self._kill()
                raise LimitReached(f"time limit of {limit:g} s reached")
            try:
                kind, answer, seconds = conn.recv()
            except (EOFError, OSError) as exc:  # the child died (out of memory, a signal)
                self.stop()
                raise ChildProcessError(f"the worker process ended: {exc}") from None
        if kind == "limit":
            raise LimitReached(answer)
        if kind == "bad":
            raise WorkFailed(answer)
        return answer, seconds

    def _kill(self) -> None:
        """Kill the child at a limit (and start a new one at once if ``keep_warm``)."""
        self.kills += 1
        self._warming = False
        self.stop()
        if self._keep_warm:
            self._start().send((None, None, 600.0))
            self._warming = True


@dataclass
class Lane:
    """Children that answer one request each at a time, and a bounded queue before them.

    Attributes:
        workers: the lane's children (as many requests run at once).
        bound: most requests waiting for a child; one more is refused (:class:`QueueFull`).
    """

    workers: list[Worker]
    bound: int

    def __post_init__(self) -> None:
        self._free: queue.LifoQueue[Worker] = queue.LifoQueue()  # the last used: warm
        for worker in self.workers:
            self._free.put(worker)
        self._lock = threading.Lock()
        self.waiting = 0

    def run(self, name: str, body: dict[str, object], limit: float, grace: float
            ) -> tuple[dict[str, object], float]:
        """:meth:`Worker.run` on the first free child, within ``limit`` seconds from now
        (the wait for a child counted in it), the child killed ``grace`` seconds past it.

        Raises:
            QueueFull: ``bound`` requests wait already.
            LimitReached, WorkFailed, ChildProcessError: as :meth:`Worker.run`.
        """
        deadline = time.monotonic() + limit
        with self._lock:
            if self.waiting >= self.bound:
                raise QueueFull
            self.waiting += 1
        try:
            worker = self._free.get(timeout=limit)
        except queue.Empty:
            raise LimitReached(f"time limit of {limit:g} s reached") from None
        finally:
            with self._lock:
                self.waiting -= 1
        try:
            left = max(0.0, deadline - time.monotonic())
            if limit - left > 0.01:  # the wait took some of the limit: the rest, in ms
                limit = math.floor(left * 1000) / 1000
            return worker.run(name, body, limit, left + grace)
        finally:
            self._free.put(worker)

    def stop(self) -> None:
        """Kill every child of the lane."""
        for worker in self.workers:
            worker.stop()


class Lanes:
    """The quick and the slow lane of a server (see the module's text).

    Args:
        quick: children of the quick lane.
        slow: children of the slow lane.
        bound: most requests waiting in each lane.
        budget: seconds a request may spend in the quick lane before it moves to the slow one.
        grace: seconds a child may run past a limit before it is killed.
        background_compile: as :class:`Worker`.
    """

    def __init__(self, quick: int = 2, slow: int = 2, bound: int = 8, budget: float = 1.0,
                 grace: float = 0.5, background_compile: bool = False) -> None:
        spawner = _Spawner()

        def workers(count: int, quick: bool) -> list[Worker]:
            return [Worker(spawner, background_compile, keep_warm=quick) for _ in range(count)]

        self.quick = Lane(workers(quick, True), bound)
        self.slow = Lane(workers(slow, False), bound)
        self.budget, self.grace = budget, grace

    def warm(self, wait: bool = False) -> None:
        """Start every child and warm it: the quick lane's (``wait``: until they are), then
        the slow lane's in the background (never waited for)."""
        for worker in self.quick.workers:
            worker.warm(wait)
        for worker in self.slow.workers:
            worker.warm(False)

    def run(self, name: str, body: dict[str, object], limit: float, slow: bool = False
            ) -> dict[str, object]:
        """Answer ``name`` for ``body`` within ``limit`` seconds: in the quick lane first
        (unless ``slow``), then in the slow lane with the time left.

        Raises:
            QueueFull: the lane the request needs is full.
            LimitReached: the limit passed (the child working on it was killed, or stopped
                itself).
            WorkFailed, ChildProcessError: as :meth:`Worker.run`.
        """
        start = time.monotonic()
        if not slow and self.quick.workers:
            budget = min(self.budget, limit)
            try:
                answer, seconds = self.quick.run(name, body, budget, self.grace)
                if budget == limit or seconds < 0.95 * budget:  # not cut by the budget
                    return answer
            except LimitReached:
                if budget == limit:
                    raise
            except QueueFull:  # the quick lane is flooded: wait in the slow one
                pass
        left = limit - (time.monotonic() - start)
        if left <= 0:
            raise LimitReached(f"time limit of {limit:g} s reached")
        return self.slow.run(name, body, left, self.grace)[0]

    def stop(self) -> None:
        """Kill every child."""
        self.quick.stop()
        self.slow.stop()
