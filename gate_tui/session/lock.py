"""One writer per session: an exclusive ``flock`` on the session's lock file.

``flock`` locks belong to an open file description and the kernel drops them when the
process dies, even by ``kill -9``, so a crash never leaves a stale lock behind. The
holder writes its pid into the file so a second instance can say who has the session.
Locks are advisory and need a local file system; on one that does not support them
the session is opened without a lock and a notice says so.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from gate_tui.atomic import describe_os_error

try:
    import fcntl
except ImportError:  # not POSIX: sessions still work, without the one-writer guard
    fcntl = None  # type: ignore[assignment]

RETRIES = 4  # a `gate-tui sessions` probe holds a lock for microseconds; wait it out
RETRY_DELAY = 0.03


@dataclass
class LockAttempt:
    """The outcome of :func:`acquire`: a held lock, or who holds it, or an error."""

    lock: SessionLock | None = None
    held_by: int | None = None  # pid of the other holder, when it wrote one
    busy: bool = False
    error: str | None = None


class SessionLock:
    """A held lock; :meth:`release` (or process exit) frees it."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
        except OSError:
            pass
        finally:
            os.close(fd)


def acquire(path: Path) -> LockAttempt:
    """Take the exclusive lock on ``path`` without blocking (a few short retries)."""
    if fcntl is None:
        return LockAttempt(error="file locking is not available on this platform")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        return LockAttempt(error=f"cannot open lock file {path}: {describe_os_error(exc)}")
    for attempt in range(RETRIES):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if attempt + 1 < RETRIES:
                time.sleep(RETRY_DELAY)
            continue
        except OSError as exc:
            os.close(fd)
            return LockAttempt(error=f"cannot lock {path}: {describe_os_error(exc)}")
        _write_pid(fd)
        return LockAttempt(lock=SessionLock(fd, path))
    os.close(fd)
    return LockAttempt(busy=True, held_by=read_pid(path))


def is_locked(path: Path) -> bool:
    """Whether another open file description holds the lock on ``path`` right now."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing drops the probe's shared lock
    return False


def read_pid(path: Path) -> int | None:
    """The pid the holder wrote into the lock file, if readable."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    first = text.split()[0] if text else ""
    return int(first) if first.isdigit() else None


def _write_pid(fd: int) -> None:
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass  # the pid is only for messages
