"""Atomic file replacement: readers see the old file or the new one, never half of one.

The text goes to a temporary file in the same folder (so ``os.replace`` is a rename
on one file system), is flushed and fsync'd, replaces the target, and then the folder
itself is fsync'd so the rename survives a power cut. Errors come back as a message,
never as an exception, because the editor must keep working when a disk is full.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

DEFAULT_MODE = 0o644


def _read_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _read_umask()  # read once at import: os.umask is process-wide, not thread-safe


def atomic_write_text(path: Path, text: str, *, confined_to: Path | None = None) -> str | None:
    """Replace ``path`` with ``text`` (UTF-8) atomically; return an error message or None.

    A symlink is written through (its target is replaced), so a linked state file stays
    linked — but with ``confined_to`` (a session's folder) only when the link points
    inside that folder: a session folder handed over with ``state.json`` linked to
    ``~/.bashrc`` must not make us overwrite it.
    """
    target = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)
    if confined_to is not None and target != Path(path) and not _inside(target, confined_to):
        return f"not writing {path}: it is a symbolic link to {target}, outside {confined_to}"
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: callers escape it (gate_tui.json_text)
        return (
            f"cannot write {target}: the text holds U+{ord(exc.object[exc.start]):04X}, which is "
            "not valid Unicode"
        )
    try:
        _write_replace(target, data)
    except OSError as exc:
        return f"cannot write {target}: {describe_os_error(exc)}"
    return None


def atomic_write_chunks(path: Path, chunks: Iterable[str]) -> str | None:
    """Like :func:`atomic_write_text` for text made piece by piece (a long report): the
    pieces go straight to the temporary file, so the whole text is never in memory."""
    target = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)
    try:
        _write_replace(target, (chunk.encode("utf-8") for chunk in chunks))
    except UnicodeEncodeError:
        return f"cannot write {target}: the text is not valid Unicode"
    except OSError as exc:
        return f"cannot write {target}: {describe_os_error(exc)}"
    return None


def _inside(target: Path, folder: Path) -> bool:
    return Path(os.path.realpath(folder)) in target.parents


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable (a no-op where unsupported)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def describe_os_error(exc: OSError) -> str:
    """``Permission denied`` rather than ``[Errno 13] Permission denied: '/x'``."""
    return exc.strerror or str(exc) or type(exc).__name__


def _write_replace(target: Path, data: bytes | Iterable[bytes]) -> None:
    if _special(target):  # -o /dev/stdout, /dev/null, a FIFO: write to it, never replace it
        with open(target, "wb") as handle:
            _write_data(handle, data)
        return
    directory = target.parent if str(target.parent) else Path(".")
    mode = _mode_for(target)
    fd, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            _write_data(handle, data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    fsync_dir(directory)


def _write_data(handle: BinaryIO, data: bytes | Iterable[bytes]) -> None:
    if isinstance(data, bytes):
        handle.write(data)
        return
    for piece in data:
        handle.write(piece)


def _special(target: Path) -> bool:
    """An existing target that is not a regular file (a device, a FIFO)."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _mode_for(target: Path) -> int:
    """Keep an existing file's permissions; new files get 0644 minus the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return DEFAULT_MODE & ~_UMASK
