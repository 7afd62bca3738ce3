"""Standard output that fails clearly: every command's failed write is one message, exit 3.

A command writes its result with ``sys.stdout.write`` (or ``print``, or argparse's help);
when the output cannot take it (``> /dev/full``, a full disk, an I/O error on a mounted
share) Python raises a plain ``OSError`` from wherever the write or the final flush
happened, and the entry point could only call it an "internal error". While a command
runs, :func:`guarded_stdout` puts a thin wrapper in front of ``sys.stdout`` that turns
such an error into :class:`OutputFailed`, which the entry point reports once for every
command. A closed pipe (``| head``) stays a ``BrokenPipeError``: that is the reader's
choice, not a failure, and exits 141 without a message.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class OutputFailed(OSError):
    """Writing to standard output failed (not a closed pipe). An ``OSError``, so a command
    that already reports its own I/O errors (``check``) keeps doing so."""


# The first failure is also remembered: argparse's help and usage writers swallow an
# OSError from their write, and ``--help > /dev/full`` would otherwise exit 0.
_first_failure: list[OutputFailed] = []


def _failed(exc: OSError) -> OutputFailed:
    failure = OutputFailed(exc.errno, exc.strerror or str(exc))
    if not _first_failure:
        _first_failure.append(failure)
    return failure


def raise_if_failed() -> None:
    """Raise the first :class:`OutputFailed` seen, even one that a caller swallowed."""
    if _first_failure:
        raise _first_failure[0]


class _GuardedOutput:
    """``sys.stdout`` with its write errors raised as :class:`OutputFailed`; everything
    else (``buffer``, ``isatty``, ``fileno``, ``encoding``…) is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _failed(exc) from None

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _failed(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def flush(stream: Any = None) -> None:
    """Flush ``stream`` (stdout by default), a failure raised as :class:`OutputFailed`."""
    raise_if_failed()
    stream = sys.stdout if stream is None else stream
    if stream is None:
        return
    try:
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _failed(exc) from None


class _Closed:
    """Stands in for a closed standard output (``>&-``: Python sets ``sys.stdout`` to None),
    so a command's first write fails like any other failed write instead of an
    ``AttributeError``. Also its own ``buffer``, for the commands that write bytes."""

    encoding = "utf-8"

    def write(self, data: Any) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        """Nothing to flush: only a write fails (once, where it happened)."""

    @property
    def buffer(self) -> _Closed:
        return self

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


@contextmanager
def guarded_stdout(active: bool = True) -> Iterator[None]:
    """``sys.stdout`` guarded while the block runs (unchanged when not ``active``)."""
    original = sys.stdout
    if not active or isinstance(original, _GuardedOutput):
        yield
        return
    sys.stdout = _GuardedOutput(original if original is not None else _Closed())  # type: ignore[arg-type,assignment]
    try:
        yield
    finally:
        sys.stdout = original
