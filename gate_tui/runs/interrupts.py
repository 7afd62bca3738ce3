"""Ctrl+C always means "interrupted" (exit 130), even when Python loses the exception.

Python turns SIGINT into ``KeyboardInterrupt`` wherever the main thread happens to be.
Raised inside a weakref callback or a ``__del__`` (the import system has some), it is
printed as "Exception ignored" and dropped: the batch ran to the end and exited 0.
Raised inside a ``finally`` that closes a buffered file, it can surface as some other
error (an "internal error", 70). So the handler also *remembers* the interrupt:
:func:`was_interrupted` lets long loops stop at the next block and lets the entry point
report 130 whatever exception (or none) came out.

SIGTERM and SIGHUP (a ``kill``, a closed terminal) kill a Python process outright by
default: a batch's worker processes were left behind, orphaned and holding its files.
:func:`terminable` turns them into :class:`Terminated` for the length of a block, so the
``finally`` clauses run (the pool shuts its workers down, the output is flushed) and the
entry point exits 128 + the signal's number (143, 129). Inside :func:`deferred` (writing
a block of output) the exception waits for the block's end, so the output ends at a line
boundary. Everything else is Python's default.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_interrupted = threading.Event()
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
_pending: list[int] = []  # an ending signal that arrived inside deferred()
_ended: list[int] = []  # every ending signal inside terminable(): remembered, as SIGINT is
_deferring = [0]


class Terminated(BaseException):  # noqa: N818 - named like KeyboardInterrupt, its sibling
    """SIGTERM or SIGHUP arrived; ``signum`` says which. A ``BaseException`` like
    ``KeyboardInterrupt``, so no ``except Exception`` on the way swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_ending_signal(signum: int, frame: FrameType | None) -> None:
    # Remembered first: raised inside a __del__ or a weakref callback, the exception is
    # printed as "Exception ignored" and lost, and the run would go on to exit 0.
    _ended.append(signum)
    if _deferring[0]:
        _pending.append(signum)
        return
    raise Terminated(signum)


@contextmanager
def terminable() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` while the block runs (main thread only;
    a signal the parent ignores stays ignored). Child processes forked inside must put the
    defaults back (:func:`default_ending_signals`)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in ENDING_SIGNALS}
    _ended.clear()
    for signum, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(signum, _on_ending_signal)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def default_ending_signals() -> None:
    """In a forked worker: SIGTERM and SIGHUP end it at once again (it holds no output)."""
    for signum in ENDING_SIGNALS:
        if signal.getsignal(signum) is _on_ending_signal:
            signal.signal(signum, signal.SIG_DFL)


@contextmanager
def deferred() -> Iterator[None]:
    """An ending signal that arrives inside waits until the block is done, then raises."""
    _deferring[0] += 1
    try:
        yield
    finally:
        _deferring[0] -= 1
    if not _deferring[0] and _pending:
        raise Terminated(_pending.pop())


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _interrupted.set()
    raise KeyboardInterrupt


def install() -> None:
    """Use the remembering handler (main thread only; where SIGINT is ignored, keep that)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return
    _interrupted.clear()
    _ended.clear()
    signal.signal(signal.SIGINT, _on_sigint)


def was_interrupted() -> bool:
    """Whether Ctrl+C arrived since :func:`install` (even if its exception was lost)."""
    return _interrupted.is_set()


def ended_by() -> int | None:
    """The ending signal (SIGTERM, SIGHUP) that arrived in the last :func:`terminable`
    block, if any (even if its exception was lost)."""
    return _ended[-1] if _ended else None


def check() -> None:
    """Raise ``KeyboardInterrupt`` (or :class:`Terminated`) now if one was lost on the way
    (call between blocks)."""
    if _interrupted.is_set():
        raise KeyboardInterrupt
    if _ended:
        raise Terminated(_ended[-1])
