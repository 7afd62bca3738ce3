"""Ctrl+C always means "interrupted" (exit 130), even when Python loses the exception.

Python turns SIGINT into ``KeyboardInterrupt`` wherever the main thread happens to be.
Raised inside a weakref callback or a ``__del__`` (the import system has some), it is
printed as "Exception ignored" and dropped: the batch ran to the end and exited 0.
Raised inside a ``finally`` that closes a buffered file, it can surface as some other
error (an "internal error", 70). So the handler also *remembers* the interrupt:
:func:`was_interrupted` lets long loops stop at the next block and lets the entry point
report 130 whatever exception (or none) came out. Everything else is Python's default.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

_interrupted = threading.Event()


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
    signal.signal(signal.SIGINT, _on_sigint)


def was_interrupted() -> bool:
    """Whether Ctrl+C arrived since :func:`install` (even if its exception was lost)."""
    return _interrupted.is_set()


def check() -> None:
    """Raise ``KeyboardInterrupt`` now if one was lost on the way (call between blocks)."""
    if _interrupted.is_set():
        raise KeyboardInterrupt
