"""First use: the compiled kernels compile in a background process while Python answers.

On a fresh install the Numba kernels compile on first use (once per machine and version; the
disk cache of :mod:`sudokit.fast.cache` serves every later run): about 10 s for the 9x9 engine
and 20-40 s for the technique engine on a 2-core machine. The command line does not wait for
them. When a job of the default method needs kernels that are not compiled yet, a child
process (``python -m sudokit.run.warm``) compiles them on the other core, and the job is
answered meanwhile by ``propagate``, the pure-Python method (Norvig 2006), which needs no
compiling; ``sudokit solve FILE`` switches to the compiled engine between two tasks as soon
as the child marks the kernels ready. ``sudokit generate`` runs the generator's own kernels as
Python meanwhile (:func:`sudokit.compiled.interpreted`: the same puzzles for a seed) and
switches between two puzzles. Which code runs is decided in :mod:`sudokit.compiled`, which also
holds the kernel groups and their readiness markers; this module keeps the child and its notice. Answers are the same: every grid is verified either way
(a puzzle with several solutions may get another one of them). On a terminal, stderr says once
what is compiling and roughly how long it takes.

The command line turns this on (:func:`enable`), and so does a library call's first look
(:func:`enabled`: ``sudokit.hint`` and ``sudokit.explain`` on a fresh install answer at once
with the technique engine's Python twins while it compiles; ``sudokit.solve`` and the other
solving doors need nothing compiled on a small input, see :mod:`sudokit.run.choice`).
``SUDOKIT_BACKGROUND_COMPILE=0`` turns it off (the test suite does): kernels then compile in the
calling process when first used. The notice goes to stderr on a terminal and in a Jupyter
kernel (whose stderr the notebook shows under the cell).

Children of several commands on one cache compile one at a time: each holds the cache's
compile lock (``compiling.lock``, ``flock``) while it compiles, and skips what an earlier one
marked ready (two compiling the same kernels at once would share the cores and both finish
late).

The child lives and dies with its parent: it asks the kernel to kill it when the parent dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)``, Linux), so a parent killed by any signal leaves nothing
behind. Only on the parent's normal exit (atexit) does the parent tell it to finish its
compile (``detach`` on the child's stdin, acknowledged); it then ends within the compile time
above and writes its kernels to the cache for the next run.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

from .. import compiled
from ..compiled import Kernels

if TYPE_CHECKING:
    from ..model.geometry import Geometry

__all__ = ["enable", "enabled", "compile_in_background", "announce", "compiling", "interim_method",
           "method_job", "rules_job", "search_ready", "INTERIM_METHOD"]

INTERIM_METHOD = "propagate"
"""The method that answers while kernels compile: pure Python, nothing to compile."""


_ANSWERS = f"{INTERIM_METHOD} (pure Python) answers meanwhile"
_MEANWHILE = {Kernels.GENERATOR: "it runs as pure Python meanwhile (same puzzles, slower)",
              Kernels.RULES: "propagate and CDCL (pure Python, a C library) answer meanwhile"}
"""What the background notice says answers while ``kernels`` compile (default :data:`_ANSWERS`)."""

_ENABLED: bool | None = None
"""On or off once :func:`enable` ran; None: not decided (a library process: on unless
``SUDOKIT_BACKGROUND_COMPILE=0``)."""
_ANNOUNCED: set[Kernels] = set()
_CHILDREN: list[subprocess.Popen[bytes]] = []


def enable() -> None:
    """Turn background compiling and the compile notices on (the command line does, once)."""
    global _ENABLED
    _ENABLED = os.environ.get("SUDOKIT_BACKGROUND_COMPILE", "1") != "0"


def enabled() -> bool:
    """Whether background compiling is on in this process: as :func:`enable` set it, else
    (a library call, nothing set) on unless ``SUDOKIT_BACKGROUND_COMPILE=0``."""
    if _ENABLED is None:
        return os.environ.get("SUDOKIT_BACKGROUND_COMPILE", "1") != "0"
    return _ENABLED


def _seen() -> bool:
    """Whether a notice on stderr is seen: a terminal, or a Jupyter kernel (the notebook
    shows the kernel's stderr under the cell)."""
    try:
        if sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):
        return False
    return sys.modules.get("ipykernel") is not None


def announce(kernels: Kernels, background: bool = False) -> None:
    """Say on stderr, once per process and only where it is seen (a terminal, a Jupyter
    kernel) with background compiling :func:`enabled`, that ``kernels`` compile now (once per
    machine) and roughly how long it takes."""
    if (not enabled() or kernels in _ANNOUNCED or not _seen()
            or compiled.ready(kernels)):
        return
    _ANNOUNCED.add(kernels)
    where = f"in the background; {_MEANWHILE.get(kernels, _ANSWERS)}" if background else "now"
    print(f"sudokit: compiling {kernels.label} {where} (once per machine and version, "
          f"about {kernels.seconds} s)", file=sys.stderr, flush=True)


def interim_method(kernels: Kernels, job: Callable[[], object]) -> str | None:
    """``propagate`` while ``kernels`` are not compiled, after starting ``job`` (a picklable
    callable that compiles them) in a background process; None when they are ready or
    :func:`enable` is off (then the caller runs its method as usual)."""
    return INTERIM_METHOD if compiling([(kernels, job)]) else None


def compiling(jobs: Sequence[tuple[Kernels, Callable[[], object]]]) -> bool:
    """Whether some of the kernels of ``jobs`` (pairs of kernels and a picklable callable that
    compiles them) are not compiled yet, after starting those jobs in a background process
    and saying so on a terminal; False when all are ready or :func:`enable` is off."""
    if not enabled():
        return False
    missing = [(kernels, job) for kernels, job in jobs if not compiled.ready(kernels)]
    if missing:
        compile_in_background(missing)
        for kernels, _job in missing:
            announce(kernels, background=True)
    return bool(missing)


def compile_in_background(jobs: Sequence[tuple[Kernels, Callable[[], object]]]) -> None:
    """Start a child process that runs each job in turn and then marks its kernels ready,
    unless one started by this process runs already. Best effort: if no child can start,
    nothing happens (the kernels then compile in the foreground when first used)."""
    if any(child.poll() is None for child in _CHILDREN):
        return
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "sudokit.run.warm"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        assert child.stdin is not None
        payload = pickle.dumps((os.getpid(), list(jobs)))
        child.stdin.write(len(payload).to_bytes(8, "little") + payload)
        child.stdin.flush()
    except (OSError, pickle.PicklingError):
        return
    if not _CHILDREN:
        atexit.register(_detach_all)
    _CHILDREN.append(child)


def _detach_all() -> None:
    """At normal exit: tell each running child to outlive this process and finish its compile;
    wait up to a second for each acknowledgement (without it, the child dies with us)."""
    for child in _CHILDREN:
        if child.poll() is not None or child.stdin is None or child.stdout is None:
            continue
        try:
            child.stdin.write(b"detach\n")
            child.stdin.flush()
            if select.select([child.stdout], [], [], 1.0)[0]:
                child.stdout.readline()
        except (OSError, ValueError):
            pass


# -- the child ------------------------------------------------------------------------------

_PR_SET_PDEATHSIG = 1


def _die_with_parent(signal_number: int) -> None:
    """Ask Linux to send ``signal_number`` (0: nothing) to this process when its parent dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal_number, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _compile(jobs: Sequence[tuple[Kernels, Callable[[], object]]]) -> None:
    """Run each job whose kernels are not marked ready yet, and mark them, holding the cache's
    compile lock (:func:`_compile_lock`): a child started by another command on the same cache
    waits for the one compiling, then finds the kernels marked (or loads them from the cache)
    instead of compiling them again beside it on the same cores."""
    with _compile_lock():
        for kernels, job in jobs:
            if compiled.ready(kernels):
                continue
            job()
            compiled.mark_ready(kernels)


@contextmanager
def _compile_lock() -> Iterator[None]:
    """Hold an exclusive lock on the kernel cache's ``compiling.lock`` (``flock``; waits for a
    holder; released by the kernel if this process dies). No lock where none can be taken (a
    read-only cache, no ``fcntl``): the compile then runs as before."""
    try:
        import fcntl

        directory = compiled.kernel_dir()
        directory.mkdir(parents=True, exist_ok=True)
        handle = open(directory / "compiling.lock", "a+b")  # noqa: SIM115  (held until exit)
    except (ImportError, OSError):
        yield
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:
            pass
        yield


def _child() -> None:
    """Child: read ``(parent pid, jobs)`` from stdin, compile in a thread, mark each ready.

    The main thread asked for the death signal (the setting belongs to the thread that asks
    for it) and waits for ``detach`` on stdin: then it drops the death signal, acknowledges,
    and waits for the compile. End of input without it means the parent is gone without its
    exit handler: the process stops at once.
    """
    _die_with_parent(signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    size = int.from_bytes(sys.stdin.buffer.read(8), "little")
    parent, jobs = pickle.loads(sys.stdin.buffer.read(size))
    if os.getppid() != parent:  # the parent died before the death signal was asked for
        os._exit(1)
    worker = threading.Thread(target=_compile, args=(jobs,), daemon=True)
    worker.start()
    if sys.stdin.buffer.readline().strip() != b"detach":
        os._exit(1)
    _die_with_parent(0)
    sys.stdout.buffer.write(b"ok\n")
    sys.stdout.buffer.flush()
    worker.join()


# -- the jobs (picklable: module-level functions and partials of them) -----------------------


def _warm_method(method: str, geometries: Sequence[Geometry | None], lookups: bool) -> None:
    """Load or compile what ``method`` needs on ``geometries`` (its ``warm_up``), and the
    line path's byte look-ups if ``lookups``."""
    from ..formats.linecodec import load_lookup
    from .request import Request

    solver = Request.build(method).solver()
    for geometry in geometries:
        solver.warm_up(geometry)
        if lookups and geometry is not None:
            load_lookup(geometry.n_cells)


def method_job(method: str, geometries: Sequence[Geometry] = (), lookups: bool = False
               ) -> Callable[[], None]:
    """A job for :func:`compile_in_background`: ``method``'s warm-up on ``geometries`` (none: everything its
    one-puzzle search needs)."""
    return partial(_warm_method, method, tuple(geometries) or (None,), lookups)


def _warm_rules() -> None:
    """Load or compile the one-puzzle search's version for grids with drawn rules: a 4x4
    thermometer puzzle solved. The engine's kernels take the rules as one argument, a
    :class:`~sudokit.fast.state.RuleState` of the same array types whatever the kinds of rule,
    or None on a grid without them: two specialisations in all (every published puzzle of
    ``tests/data/rules`` loads one of them), and the warm-up of :data:`Kernels.SEARCH`
    compiles the other."""
    from ..fast import ResumableSearch
    from ..model.geometry import Geometry
    from ..model.puzzle import Puzzle
    from ..model.rulebook import thermometer

    puzzle = Puzzle(Geometry.for_side(4), (0,) * 16).with_constraints(*thermometer([0, 1, 2], 4))
    ResumableSearch(puzzle.geometry, puzzle.givens).advance()


def rules_job() -> Callable[[], None]:
    """The job that compiles :data:`Kernels.RULES` (the search of grids with drawn rules)."""
    return _warm_rules


def search_ready(geometry: Geometry) -> bool:
    """Whether the engine's one-puzzle search loads on ``geometry`` without compiling: its
    version for grids with drawn rules (:data:`Kernels.RULES`) on such a grid, else the
    default method's warm-up (:data:`Kernels.SEARCH`). If not, that group starts compiling
    in the background (when :func:`enabled`), for later puzzles; nothing of the engine is
    imported here."""
    from ..registry import default_method

    kernels, job = ((Kernels.RULES, rules_job()) if geometry.constraints else
                    (Kernels.SEARCH, method_job(default_method())))
    if compiled.ready(kernels):
        return True
    compiling([(kernels, job)])
    return False


if __name__ == "__main__":
    _child()
