"""Output blocks: the records of one task, solved and written as bytes.

A :class:`Block` is what ``sudokit solve`` writes at once (one write and one flush): the text of
a task's records in input order, their statuses, the stderr lines they call for, and whether
all went well. :func:`solve_lines` makes one from a :class:`~sudokit.formats.lineform.LineChunk` on the
array path: fast-form rows are solved, verified and encoded as arrays, and only the unusual ones
(not solved, or differing from a solution or count written in the file) and the records of the
general reader become objects, formatted by the same code as the object path
(:func:`solve_records_block`), so both paths write the same bytes.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from ..compiled import Kernels
from ..errors import SolverBug
from ..formats.linecodec import FastRows, LineChunk, encode_rows, load_lookup
from ..formats.lineform import LineReader
from ..formats.lines import Record
from ..model.constraints import Variant
from ..model.geometry import Geometry
from ..model.result import Limits, Status
from ..model.variants import VariantLike, parse_spec
from .batch import RecordResult, TaskSizes, _record_result, solve_record_chunk
from .chunk import kept_solutions, solve_chunk
from .deadline import STILL_COMPILING, compiled_method, for_workers, kernels_for
from .output import OutputFormat, format_outcome, solution_grid, stderr_message
from .request import Request
from .resume import ResumePoint, kept_records

if TYPE_CHECKING:
    from ..registry import OptionValue

__all__ = ["Block", "RecordTask", "solve_lines", "solve_records_block", "solve_task",
           "input_tasks", "task_shape", "solve_inputs", "SolveRun"]


@dataclass(frozen=True)
class Block:
    """The records of one task, ready to write.

    Attributes:
        text: the records in input order, UTF-8, each ending in a newline.
        counts: int64[len(Status)] records per :class:`~sudokit.model.result.Status` code.
        messages: the stderr lines, in input order.
        ok: every record solved (uniquely, if asked) and matching what the file says.
        size: number of records.
        last_line: the last source line the task covers (0 if unknown).
        grid_text: the solutions drawn as grids (``--grid-output``), or empty.
    """

    text: bytes
    counts: np.ndarray
    messages: tuple[str, ...]
    ok: bool
    size: int
    last_line: int = 0
    grid_text: bytes = b""


@dataclass(frozen=True)
class RecordTask:
    """A chunk of records for the object path, with how to write them."""

    records: list[Record]
    fmt: OutputFormat = OutputFormat.LINE
    grids: bool = False

    def __len__(self) -> int:
        return len(self.records)


def solve_task(task: LineChunk | RecordTask, request: Request) -> Block:
    """Run one task of ``sudokit solve`` (a pool task): the array path for a LineChunk, the
    object path for a RecordTask. A request with a deadline for its kernels
    (:attr:`~sudokit.run.request.Request.compile_by`) is checked against this worker's kernels
    first (:func:`sudokit.run.deadline.in_time`)."""
    if request.compile_by is not None:
        from .deadline import in_time

        request = in_time(request, task_shape(task)[1])
    if isinstance(task, LineChunk):
        return solve_lines(task, request)
    return solve_records_block(task.records, request, task.fmt, task.grids)


def task_shape(task: LineChunk | RecordTask) -> tuple[int, list[Geometry]]:
    """Return the number of puzzles of a task and their geometries (each once, in order), for
    choosing a method and loading it."""
    if isinstance(task, LineChunk):
        count = sum(len(rows.positions) for rows in task.fast)
        geometries = [rows.codec.geometry for rows in task.fast if len(rows.positions)]
        records = [r for _, r in task.general]
    else:
        count, geometries, records = 0, [], task.records
    puzzles = [r.puzzle for r in records if r.puzzle is not None]
    return count + len(puzzles), list(dict.fromkeys(geometries + [p.geometry for p in puzzles]))


def input_tasks(inputs: Sequence[str], sizes: Iterable[int], *, box: str | None = None,
                alphabet: str | None = None, fmt: OutputFormat = OutputFormat.LINE,
                grids: bool = False, skip_header: bool = False,
                variant: VariantLike = "standard",
                checked: bool = False) -> Iterator[LineChunk | RecordTask]:
    """The tasks of ``sudokit solve INPUT...``, lazily: files and ``-`` in line form without
    grid output go on the array path, everything else on the object path (so do inputs in
    variant forms, see :func:`sudokit.formats.needs_general_reader`).

    Args:
        inputs: files, ``-`` (standard input) or literal puzzles.
        sizes: lines (array path) or records (object path) per task in turn; the last repeats.
        skip_header: skip the first line of each file and of ``-`` (a free-text title).
        variant: the variant (or its name) before any ``# variant:`` directive line.
        checked: the INPUTs were checked already (:func:`sudokit.run.output.check_inputs`).

    Raises:
        InputError: as :func:`sudokit.run.output.read_inputs` (checked before the first task).
        InvalidPuzzle: ``box``, ``alphabet`` or ``variant`` are malformed.
    """
    from ..formats.text import needs_general_reader, parse_alphabet, parse_box
    from .batch import in_sizes
    from .output import check_inputs, input_kind, read_input

    if not checked:
        check_inputs(inputs)
    shape = parse_box(box) if box else None
    symbols = parse_alphabet(alphabet) if alphabet else None
    spec = parse_spec(variant)
    rules = spec.rules
    for number, text in enumerate(inputs, 1):
        if (input_kind(text) != "literal" and fmt is OutputFormat.LINE and not grids
                and not needs_general_reader(text, spec)):
            yield from _line_chunks(text, shape, symbols, sizes, skip_header, rules)
            continue
        records = read_input(text, number, box=box, alphabet=alphabet,
                             skip_header=skip_header, variant=spec)
        for chunk in in_sizes(records, sizes):
            yield RecordTask(chunk, fmt, grids)


def _line_chunks(text: str, box: tuple[int, int] | None, alphabet: str | None,
                 sizes: Iterable[int], skip_header: bool = False,
                 variant: Variant = Variant.STANDARD) -> Iterator[LineChunk]:
    """The chunks of a file (or ``-``, stdin) on the array path; read errors name the input."""
    from .output import InputError

    try:
        with nullcontext(sys.stdin.buffer) if text == "-" else open(text, "rb") as stream:
            name = "<stdin>" if text == "-" else text
            yield from LineReader(stream, name, box=box, alphabet=alphabet, sizes=sizes,
                                  skip_header=skip_header,
                                  variant=variant).chunks()
    except OSError as exc:
        raise InputError(f"{text}: cannot be read: {exc.strerror or exc}") from exc


@dataclass
class SolveRun:
    """A started ``sudokit solve`` run.

    Attributes:
        method: the method chosen (see :func:`sudokit.run.choice.decide`).
        blocks: the output blocks, in input order, lazily.
        ready: ``time.perf_counter()`` when the method was loaded and solving began.
    """

    method: str
    blocks: Iterator[Block]
    ready: float


HEAD_RECORDS = 1024
"""Records (puzzles and invalid ones) :func:`solve_inputs` reads at most before it starts: an
input of invalid records alone was read whole before the first block (a million bad lines
held 630 MB, issue 43 item 8); past this many records the input is not a small one."""


def solve_inputs(inputs: Sequence[str], method: str | None = None, *,
                 options: Mapping[str, OptionValue] | None = None, limits: Limits = Limits(),
                 count_limit: int = 1, jobs: int = 1, dask: str | None = None,
                 box: str | None = None, alphabet: str | None = None,
                 fmt: OutputFormat = OutputFormat.LINE, grids: bool = False,
                 resume: ResumePoint | None = None, skip_header: bool = False,
                 variant: VariantLike = "standard", checked: bool = False,
                 started: float | None = None) -> SolveRun:
    """Start solving INPUTs as ``sudokit solve`` does: read tasks until the input is known to be
    larger than :data:`~sudokit.registry.SMALL_INPUT` puzzles or :data:`HEAD_RECORDS` records
    (or ends), decide the method once (:func:`sudokit.run.choice.decide`; a named method is
    resolved once), load it for the first grid size, and return the lazy stream of blocks.
    ``checked``: the INPUTs were checked already (:func:`sudokit.run.output.check_inputs`).
    ``started``: the ``time.perf_counter()`` value the command started at; on a small input
    each puzzle's time limit then counts from it, start-up and compiling included, and on a
    large one a named compiled method waits for its compile only up to the limit
    (:func:`_limited`, :mod:`sudokit.run.deadline`).

    ``resume`` (a :class:`~sudokit.run.resume.ResumePoint`) skips the records an earlier run
    wrote; they are dropped, and checked against the point, before this returns.

    Raises:
        InputError, InvalidPuzzle: as :func:`input_tasks`.
        UnknownMethod, MethodUnavailable, InvalidOption: a bad method or option.
        ResumeError: the input does not continue the resumed output.
    """
    from ..registry import SMALL_INPUT, default_method, solver_class
    from .batch import run_tasks, sizes_for, uses_processes
    from .choice import decide

    named = Request.build(method, options) if method else None  # resolved once, here
    kind = named.solver() if named else solver_class(default_method())  # for the task sizes
    local = not uses_processes(kind, jobs, dask)  # one worker or threads of this process
    waits = (named is not None and started is not None and limits.time_limit is not None
             and compiled_method(named))  # a named compiled method, limit counted from start
    interim = _Interim(local and (waits or (method is None and not options)))
    sizes = interim.sizes(sizes_for(kind, jobs, not local))
    tasks = input_tasks(inputs, sizes, box=box, alphabet=alphabet, fmt=fmt, grids=grids,
                        skip_header=skip_header, variant=variant, checked=checked)
    if resume is not None and resume.records:
        from .skipping import skip_records

        tasks = skip_records(tasks, resume, kept_records(resume))
    head: list[LineChunk | RecordTask] = []
    count, records, complete = 0, 0, True
    geometries: list[Geometry] = []
    for task in tasks:  # until the input is known to be more than a small one
        head.append(task)
        more, found = task_shape(task)
        count, geometries = count + more, list(dict.fromkeys(geometries + found))
        records += task.size if isinstance(task, LineChunk) else len(task)
        if count > SMALL_INPUT or records > HEAD_RECORDS:
            complete = False
            break
    side = max((g.side for g in geometries), default=0)
    if named is not None:
        request = replace(named, limits=limits, count_limit=count_limit,
                          variant=parse_spec(variant))
    else:
        request = decide(None, options, limits, count_limit, variant, puzzles=count, side=side,
                         complete=complete)
    chosen, small = request.method, complete and count <= SMALL_INPUT
    if small and started is not None and limits.time_limit is not None and dask == "local":
        dask = None  # a local cluster's start-up (seconds) would spend a small input's limit
    request, load = _limited(request, started, geometries, small, waits, interim)
    remote = uses_processes(request.solver(), jobs, dask)
    if remote and method is None and not options:  # workers with caches of their own
        request = for_workers(request)
    tasks = itertools.chain(head, tasks)
    if geometries and interim.begin(request, geometries[0]):
        blocks = interim.blocks(tasks, request, geometries[0], jobs=jobs, dask=dask,
                                sizes=sizes)
    else:
        if geometries and not remote and load:
            interim.announce()
            _load(request, geometries[0])
            interim.loaded()
        blocks = run_tasks(solve_task, tasks, request, jobs=jobs, remote=remote, dask=dask,
                           sizes=sizes)
    return SolveRun(request.method if small else chosen, blocks, time.perf_counter())


def _limited(request: Request, started: float | None, geometries: Sequence[Geometry],
             small: bool, waits: bool, interim: _Interim) -> tuple[Request, bool]:
    """``request`` with its time limit counted from the command's start (``started``, a
    ``time.perf_counter()`` value, or None: from solving), and whether this process may load
    its kernels now: a small input's limit less the start-up and any wait for a compile
    (:func:`sudokit.run.deadline.from_start`); a large input's named compiled method waits for
    the background compile only up to the limit (:func:`_waiting` with one worker, else
    :func:`sudokit.run.deadline.until_ready` and each worker checks its own kernels)."""
    from .deadline import from_start, until_ready

    if started is None:
        return request, True
    if small:
        return from_start(request, started, geometries[0] if geometries else None), True
    if not (waits and geometries):
        return request, True
    if interim.allowed:  # in this process (one worker or threads)
        return _waiting(request, started, geometries[0], interim), True
    return until_ready(request, started, geometries[0])


def _waiting(request: Request, started: float, geometry: Geometry, interim: _Interim) -> Request:
    """``request`` for a large input with one worker, a named compiled method and a time
    limit: the background compile is waited for up to the limit from the command's start
    (never in the foreground); if the kernels are still not ready then, the run begins with
    :class:`_Interim`'s ``propagate`` at no time per puzzle (each stopped puzzle says
    :data:`~sudokit.run.deadline.STILL_COMPILING`) and switches to the method once they are."""
    from .deadline import until_ready

    ready = until_ready(request, started, geometry)[1]
    if ready:
        interim.allowed = False  # ready: the method from the first task
        return request
    interim.stopped = Limits(0.0, request.limits.node_limit)
    return request


def _load(request: Request, geometry: Geometry) -> None:
    """Load (or compile) the method's kernels for ``geometry`` and the byte look-ups of the
    line path's decoding and encoding, so that timings exclude them."""
    request.solver().warm_up(geometry)
    load_lookup(geometry.n_cells)


class _Interim:
    """The first run on a fresh install: while the default method's kernels compile in a
    background process (:mod:`sudokit.run.warm`), tasks go to ``propagate`` and stay at the
    first task size; between two tasks, once the kernels are ready, the run switches to the
    default method and its task sizes.

    With several workers (threads of this process: ``--jobs``, ``--dask local``) the
    interim tasks run one by one here and the pool starts at the switch.

    Args:
        allowed: the run may do so (the default method, no options, or a named compiled
            method under a time limit; in this process); otherwise nothing changes.
    """

    def __init__(self, allowed: bool) -> None:
        self.allowed = allowed
        self.stopped: Limits | None = None  # the interim's limits when the limit went waiting
        self.kernels: Kernels | None = None  # the kernels compiling, once begun
        self.needed: Kernels | None = None  # the kernels the default method needs

    def waiting(self) -> bool:
        """Whether tasks still go to the interim method."""
        from ..compiled import ready

        return self.kernels is not None and not ready(self.kernels)

    def sizes(self, sizes: Iterable[int]) -> Iterable[int]:
        """``sizes`` in turn (the last repeating), after the first size repeated while
        :meth:`waiting`."""
        if not self.allowed or isinstance(sizes, TaskSizes):  # those follow the tasks' times
            return sizes
        return self._sizes(list(sizes))

    def _sizes(self, sizes: list[int]) -> Iterator[int]:
        yield sizes[0]
        while self.waiting():
            yield sizes[0]
        yield from sizes
        while True:
            yield sizes[-1]

    def begin(self, request: Request, geometry: Geometry) -> bool:
        """Start compiling the kernels ``request`` needs on ``geometry`` in the background if
        they are not ready (and the run allows it); return whether the run begins interim."""
        if not self.allowed or request.method == "propagate":
            return False
        from .warm import interim_method, method_job

        kernels = self.needed = kernels_for(request, geometry)
        job = method_job(request.method, [geometry], lookups=True)
        if interim_method(kernels, job) is None:
            return False
        self.kernels = kernels
        return True

    def announce(self) -> None:
        """Say on a terminal that the default method's kernels compile now, if they do."""
        from .warm import announce

        if self.needed is not None:
            announce(self.needed)

    def loaded(self) -> None:
        """The default method's kernels were loaded (or compiled) in this process: mark them
        ready, so the next run need not check them in the background."""
        from ..compiled import mark_ready

        if self.needed is not None:
            mark_ready(self.needed)

    def blocks(self, tasks: Iterator[LineChunk | RecordTask], request: Request,
               geometry: Geometry, *, jobs: int = 1, dask: str | None = None,
               sizes: Iterable[int] | None = None) -> Iterator[Block]:
        """The blocks of ``tasks``: by the interim method while :meth:`waiting`, one by one,
        then by ``request``'s method (loaded from the cache the child filled) on ``jobs``
        threads or ``dask`` (:func:`sudokit.run.batch.run_tasks`)."""
        from .batch import run_tasks
        from .warm import INTERIM_METHOD

        interim = replace(request, method=INTERIM_METHOD, options={}, handover=None)
        if self.stopped is not None:
            interim = replace(interim, limits=self.stopped, stop_note=STILL_COMPILING)

        def while_waiting() -> Iterator[LineChunk | RecordTask]:
            while self.waiting():
                task = next(tasks, None)
                if task is None:
                    return
                yield task

        yield from run_tasks(solve_task, while_waiting(), interim)
        rest = next(tasks, None)
        if rest is not None:
            _load(request, geometry)
            yield from run_tasks(solve_task, itertools.chain([rest], tasks), request,
                                 jobs=jobs, dask=dask, sizes=sizes)


def _counts(labels: Sequence[int]) -> np.ndarray:
    return np.bincount(np.asarray(labels, dtype=np.int64), minlength=len(Status))


def solve_records_block(records: Sequence[Record], request: Request,
                        fmt: OutputFormat = OutputFormat.LINE, grids: bool = False) -> Block:
    """Solve a chunk of records on the object path and write them in ``fmt`` (a pool task).

    Raises:
        SolverBug: a method returned a wrong grid.
    """
    outcomes = solve_record_chunk(records, request)
    text = "".join(format_outcome(o, fmt) for o in outcomes).encode()
    grid_text = "".join(solution_grid(o) for o in outcomes).encode() if grids else b""
    messages = tuple(m for m in map(stderr_message, outcomes) if m)
    last = max((r.line for r in records), default=0)
    return Block(text, _counts([o.label for o in outcomes]), messages,
                 all(o.ok for o in outcomes), len(outcomes), last, grid_text)


def solve_lines(chunk: LineChunk, request: Request) -> Block:
    """Solve a chunk of line-form input on the array path and write it in line form (a task).

    Raises:
        SolverBug: a method returned a wrong grid.
    """
    pieces: list[tuple[int, bytes]] = []  # (first position, text) in any order
    outcomes: list[tuple[int, RecordResult]] = []
    counts = np.zeros(len(Status), np.int64)
    general = list(chunk.general)
    for rows in chunk.fast:
        try:
            result = solve_chunk(rows.givens, rows.codec.geometry, request)
        except SolverBug:
            raise
        except Exception:  # noqa: BLE001 - the object path pins the failure on one record
            general += [(int(p), rows.record(i, chunk.source))
                        for i, p in enumerate(rows.positions.tolist())]
            continue
        labels = result.labels()
        count_limit = kept_solutions(request)  # an int: solve_chunk asked for it already
        unusual = _unusual(rows, result.grids[:, 0], result.found, result.status, labels,
                           count_limit)
        counts += _counts(labels[~unusual])
        plain = np.flatnonzero(~unusual)
        pieces += _runs(rows.positions[plain], encode_rows(result.grids[plain, 0], rows.codec,
                                                               rows.prefix))
        for i in np.flatnonzero(unusual).tolist():
            record = rows.record(i, chunk.source)
            assert record.puzzle is not None, "a line-form row's record holds its puzzle"
            outcome = _record_result(record, result.result(i, record.puzzle, count_limit))
            outcomes.append((int(rows.positions[i]), outcome))
    if general:
        positions, records = zip(*general)
        outcomes += zip(positions, solve_record_chunk(records, request))
    outcomes.sort(key=lambda item: item[0])
    for position, outcome in outcomes:
        pieces.append((position, format_outcome(outcome, OutputFormat.LINE).encode()))
        counts[outcome.label] += 1
    pieces.sort(key=lambda item: item[0])
    messages = tuple(m for m in (stderr_message(o) for _, o in outcomes) if m)
    ok = all(o.ok for _, o in outcomes)
    return Block(b"".join(text for _, text in pieces), counts, messages, ok, chunk.size,
                 chunk.last_line)


def _unusual(rows: FastRows, first: np.ndarray, found: np.ndarray, status: np.ndarray,
             labels: np.ndarray, count_limit: int) -> np.ndarray:
    """bool[M]: rows whose record is not a plain solution line: not solved, or differing from
    the solution or count written beside the puzzle (as :func:`sudokit.run.batch.check_expected`)."""
    unusual: np.ndarray = labels != Status.SOLVED
    if rows.has_expected.any():
        differs = (first != rows.expected).any(axis=1)
        unusual |= rows.has_expected & (found >= 1) & differs
    counted = rows.expected_count >= 0
    if counted.any():
        wrong = np.minimum(rows.expected_count, count_limit) != found
        unusual |= counted & (status != Status.UNKNOWN) & wrong
    return unusual


def _runs(positions: np.ndarray, encoded: np.ndarray) -> list[tuple[int, bytes]]:
    """Split encoded rows into runs of consecutive positions, one bytes value per run."""
    if not len(positions):
        return []
    breaks = (np.flatnonzero(np.diff(positions) != 1) + 1).tolist()
    bounds = zip([0, *breaks], [*breaks, len(positions)])
    return [(int(positions[a]), encoded[a:b].tobytes()) for a, b in bounds]
