"""Reading a file someone handed over: only a regular file, never blocking, never too much.

A path given as a config or a state file may be a FIFO (opening it for reading would
wait forever for a writer), a device, a directory, or a file far larger than any real
one. :func:`read_regular` opens without blocking, checks what it opened, and reads at
most ``limit`` bytes; it returns the bytes or a message saying what the path is
instead, and raises only ``FileNotFoundError`` (callers word "missing" themselves).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from gate_tui.atomic import describe_os_error


def read_regular(path: str | Path, limit: int, what: str = "file") -> bytes | str:
    """The bytes of regular file ``path`` (at most ``limit``), or why not (a message)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        return f"is a directory, not a {what}"
    except OSError as exc:
        return f"cannot read: {describe_os_error(exc)}"
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            return f"is a directory, not a {what}"
        if not stat.S_ISREG(info.st_mode):
            return f"is not a regular file (a pipe or a device?), so it was not read as a {what}"
        if info.st_size > limit:
            return too_large(info.st_size, limit, what)
        data = _read_up_to(fd, limit + 1)
    except OSError as exc:
        return f"cannot read: {describe_os_error(exc)}"
    finally:
        os.close(fd)
    return too_large(len(data), limit, what) if len(data) > limit else data


def too_large(size: int, limit: int, what: str = "file") -> str:
    return f"too large for a {what} ({size:,} bytes; the limit is {limit:,})"


def _read_up_to(fd: int, count: int) -> bytes:
    chunks = []
    while count > 0:
        chunk = os.read(fd, min(count, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)
