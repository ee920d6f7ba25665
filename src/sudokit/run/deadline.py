"""Limits from the command's start: ``--time-limit`` covers start-up and compiling.

``sudokit solve --time-limit T`` ends within about T seconds in every state of the kernel cache,
with one worker, with ``--jobs`` and with ``--dask`` (issue 39). A named compiled method
(:data:`COMPILED`) whose kernels are not compiled never compiles them in the foreground there:
the run waits for the background compile (:mod:`sudokit.run.warm`) only until the limit,
counted from the command's start, and if the kernels are still not ready then, each puzzle is
answered at once by ``propagate`` with no time left (solved if propagation alone solves it,
else ``timeout`` with :data:`STILL_COMPILING`) until they are.

Two clocks: the command's start is a ``time.perf_counter()`` value in the process that read the
command; a worker (a thread, a process, a Dask worker on another machine) gets the same
moment as ``Request.compile_by``, wall-clock seconds since the epoch (:func:`by_then`), and
checks its own kernels against it before each task (:func:`in_time`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from ..compiled import Kernels
from ..model.geometry import Geometry
from ..model.result import Limits
from .request import Request

__all__ = ["STILL_COMPILING", "COMPILED", "compiled_method", "engine_kernels", "kernels_by",
           "kernels_for",
           "from_start", "by_then", "until_ready", "in_time", "for_workers"]

STILL_COMPILING = "kernels still compiling at the time limit"
"""What a puzzle reports when the time limit went to compiling its method's kernels."""

COMPILED = ("fast", "portfolio")
"""Methods that run the compiled engine's kernels (:data:`~sudokit.compiled.Kernels.NINE` or
``ENGINE``)."""

_EXIT_SECONDS = 0.6
"""Seconds kept before the deadline for the answer and the exit (the child's hand-shake at
exit, :func:`sudokit.run.warm._detach_all`, waits up to 1 s)."""


def compiled_method(request: Request) -> bool:
    """Whether ``request``'s method runs the compiled engine's kernels (:data:`COMPILED`)."""
    return request.method.partition(":")[0] in COMPILED


def kernels_for(request: Request, geometry: Geometry) -> Kernels:
    """The kernel group the compiled ``request``'s method needs on ``geometry``, whose marker
    says exactly that version is compiled: the 9x9 engine's (:data:`Kernels.NINE`), the
    general engine's batch search without drawn rules (``ENGINE``) or its version for a
    grid with drawn rules (``ENGINE_RULES``: a second specialisation of the same kernels,
    about 40 s to compile, which a marker written for a plain grid does not cover)."""
    from ..fast import uses_nine

    locked = request.solver().settings.get("locked_candidates", True)
    if uses_nine(geometry, locked):
        return Kernels.NINE
    return Kernels.ENGINE_RULES if geometry.constraints else Kernels.ENGINE


def engine_kernels(method: str, geometry: Geometry) -> Kernels:
    """The kernel group the compiled ``method`` (its default options) needs on ``geometry``:
    :func:`kernels_for`."""
    return kernels_for(Request.build(method), geometry)


def kernels_by(request: Request, geometry: Geometry, deadline: float) -> bool:
    """Whether the compiled kernels ``request`` needs on ``geometry`` are ready by
    ``deadline`` (a ``time.perf_counter()`` value): at once if compiled (or background
    compiling is off: they then compile where first used, as before), else after waiting for
    the background child started now (or already running)."""
    from ..compiled import ready
    from .warm import compiling, enabled, method_job

    kernels = kernels_for(request, geometry)
    if ready(kernels) or not enabled():
        return True
    compiling([(kernels, method_job(request.method, [geometry], lookups=True))])
    while not ready(kernels):
        if time.perf_counter() >= deadline - _EXIT_SECONDS:
            return False
        time.sleep(0.05)
    return True


def _interim(request: Request) -> Request:
    """``request`` answered by ``propagate`` with no time left, each stopped puzzle saying
    :data:`STILL_COMPILING` (and the line path's byte look-ups in NumPy: nothing compiles);
    on the default path (:attr:`Request.default_path`) by ``propagate`` handing over to CDCL
    under the request's own limits, as a small input's default path."""
    from ..compiled import run_as_python
    from .choice import QUICK_METHOD, handover_method
    from .warm import INTERIM_METHOD

    run_as_python(Kernels.LOOKUP)
    if request.default_path:
        return replace(request, method=QUICK_METHOD, options={}, handover=handover_method(),
                       compile_by=None, default_path=False)
    return replace(request, method=INTERIM_METHOD, options={}, handover=None,
                   limits=Limits(0.0, request.limits.node_limit), stop_note=STILL_COMPILING,
                   compile_by=None)


def by_then(started: float, seconds: float) -> float:
    """The moment ``seconds`` after ``started`` (a ``time.perf_counter()`` value of this
    process) as wall-clock seconds since the epoch, for :attr:`Request.compile_by`."""
    return time.time() + (started + seconds - time.perf_counter())


def from_start(request: Request, started: float, geometry: Geometry | None) -> Request:
    """A small input's ``request`` with its time limit counted from ``started`` (the
    command's start): less the start-up so far, and for a compiled method whose kernels are
    not compiled, less the wait for the background compile, which ends at the limit; if they
    are not ready then, :func:`_interim`. A compiled method's request carries the deadline
    (:attr:`Request.compile_by`) for workers with a cache of their own."""
    limits = request.limits
    if limits.time_limit is None:
        return request
    deadline = started + limits.time_limit
    if geometry is not None and compiled_method(request):
        if not kernels_by(request, geometry, deadline):
            return _interim(request)
        request = replace(request, compile_by=by_then(started, limits.time_limit))
    left = max(0.0, deadline - time.perf_counter())
    return replace(request, limits=Limits(left, limits.node_limit))


def until_ready(request: Request, started: float, geometry: Geometry) -> tuple[Request, bool]:
    """A large input's ``request`` for several workers (``--jobs``, ``--dask``), with a named
    compiled method and a time limit: the background compile is waited for here up to the
    limit from ``started``; the request then carries that deadline
    (:attr:`Request.compile_by`), so that each task answers by ``propagate`` while its
    worker's kernels are not ready (:func:`in_time`). Also returns whether they are ready
    here (this process may load them)."""
    assert request.limits.time_limit is not None
    ready = kernels_by(request, geometry, started + request.limits.time_limit)
    if not ready:
        from ..compiled import run_as_python

        run_as_python(Kernels.LOOKUP)  # the line path's byte look-ups in NumPy
    return replace(request, compile_by=by_then(started, request.limits.time_limit)), ready


def in_time(request: Request, geometries: Sequence[Geometry]) -> Request:
    """What a worker runs a task of ``geometries`` with: ``request`` if it carries no
    deadline or its kernels are ready in this worker; else, after waiting for the
    background compile until the deadline (no wait once it is past), :func:`_interim`."""
    if request.compile_by is None or not compiled_method(request):
        return request
    deadline = time.perf_counter() + (request.compile_by - time.time())
    if all(kernels_by(request, geometry, deadline) for geometry in geometries):
        return request
    return _interim(request)


def for_workers(request: Request) -> Request:
    """The default method's ``request`` for workers in other processes (a remote Dask
    cluster: each has a kernel cache of its own): if it runs the compiled engine, a worker
    never compiles it in the foreground; it starts the background compile and answers by
    ``propagate`` (handing over to CDCL) until its kernels are ready (:func:`in_time`, with
    the deadline now: no wait). Other requests are returned unchanged."""
    if request.compile_by is not None or not compiled_method(request):
        return request
    return replace(request, compile_by=time.time(), default_path=True)
