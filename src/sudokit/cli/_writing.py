"""Writing the outputs of a command: failures (a full disk, a quota, an I/O error) become one
clear error naming the file, never a traceback; the output files of a run are locked.

Every output file a command opens goes through :func:`open_output`, which returns an
:class:`OutputFile`: its write, flush and close failures raise :class:`OutputError` (a
:class:`~sudokit.errors.SudokuError`: one ``sudokit: error: writing PATH: REASON`` line, exit
code 2). A failure on standard output carries no name; :func:`stdout_failure` turns it into the
same line naming where standard output goes (``/dev/full``, a file, ``<stdout>``), and sends
what is left of standard output to ``/dev/null`` so the interpreter's final flush fails no
more. Records written before the failure are complete or cut at the failure, and ``--resume``
keeps the complete ones (:mod:`sudokit.run.resume`).

Output files are locked (``fcntl.flock``, exclusive, not waiting) when opened, so a second run
on the same ``--output`` is refused (:class:`OutputBusyError`) instead of both writing it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import OutputBusyError, OutputError

__all__ = ["OutputBusyError", "OutputError", "OutputFile", "WRITE_ERRNOS", "open_output",
           "stdout_failure", "stdout_name"]

WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS,
                          errno.EPIPE, errno.EACCES, errno.EPERM, errno.EBADF})
"""errno values of a write that failed because of where it goes (not of the program)."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


class OutputFile:
    """A binary output file (``open(path, mode)``) whose write, flush and close failures raise
    :class:`OutputError` naming ``path``; other attributes are the file's.

    After a failure, :meth:`close` closes the descriptor without writing the buffered rest
    again (it was already refused), so the one error is the one reported.
    """

    def __init__(self, stream: BinaryIO, path: Path | str) -> None:
        self._stream = stream
        self.path = str(path)
        self.failed = False

    def _failure(self, exc: OSError) -> OutputError:
        self.failed = True
        return OutputError(f"writing {self.path}: {_reason(exc)}")

    def write(self, data: bytes) -> int:
        """Write ``data``. Raises: OutputError: the write failed."""
        try:
            return self._stream.write(data)
        except OSError as exc:
            raise self._failure(exc) from None

    def flush(self) -> None:
        """Flush. Raises: OutputError: the buffered bytes could not be written."""
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._failure(exc) from None

    def close(self) -> None:
        """Flush and close (after a failure: only close, dropping the refused bytes).

        Raises:
            OutputError: the final flush failed (no earlier failure).
        """
        if self.failed:
            try:
                os.close(self._stream.fileno())
            except OSError:
                pass
            try:
                self._stream.close()
            except OSError:
                pass
            return
        try:
            self._stream.close()
        except OSError as exc:
            raise self._failure(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lock(stream: BinaryIO, path: Path | str) -> None:
    """Take an exclusive lock on an output file, not waiting.

    Raises:
        OutputBusyError: another process holds it (another ``sudokit`` writing it).
    """
    try:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        stream.close()
        raise OutputBusyError(f"{path}: another sudokit run is writing this file; wait for it "
                              "to end or choose another --output") from None
    except OSError:  # a file system without locks (some network mounts): write unlocked
        pass


def open_output(path: Path | str, mode: str = "wb") -> OutputFile:
    """Open and lock an output file; ``"wb"`` empties it only once the lock is held (a second
    run does not destroy the first one's records).

    Args:
        path: the file.
        mode: ``"wb"`` (from scratch) or ``"r+b"`` (resuming: the caller cuts and seeks).

    Raises:
        OutputError: the file cannot be opened (the message says why).
        OutputBusyError: another run holds it.
    """
    try:
        stream = open(path, "r+b" if mode == "r+b" else "ab")  # noqa: SIM115 (wrapped)
    except OSError as exc:
        raise OutputError(f"writing {path}: {_reason(exc)}") from None
    _lock(stream, path)
    if mode == "wb":
        try:
            if _is_regular(stream):
                stream.truncate(0)
            stream.seek(0)
        except OSError:
            pass  # a device or pipe: nothing to cut
    return OutputFile(stream, path)


def _is_regular(stream: BinaryIO) -> bool:
    import stat

    return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)


def stdout_name() -> str:
    """Where standard output goes: the path it is open on (``/dev/full``, a file), or
    ``<stdout>`` (a pipe, a terminal, an in-memory stream)."""
    try:
        target = os.readlink(f"/proc/self/fd/{sys.stdout.fileno()}")
    except (OSError, ValueError, AttributeError):
        return "<stdout>"
    return target if target.startswith("/") else "<stdout>"


def stdout_failure(exc: OSError) -> str:
    """The message of a failed write with no path of its own (standard output, the one output
    not opened by :func:`open_output`), after pointing standard output at ``/dev/null`` so the
    rest of its buffer is dropped at exit instead of failing again.

    Raises:
        OSError: ``exc`` itself when it is not a failed write (another errno, or a path).
    """
    if exc.errno not in WRITE_ERRNOS or exc.filename is not None:
        raise exc
    name = stdout_name()
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    return f"writing {name}: {_reason(exc)}"
