"""The journal: one JSON object per line, appended and fsync'd before anyone sees it.

Writing: :class:`JournalWriter` appends a whole line with ``O_APPEND`` and fsyncs it
before :meth:`JournalWriter.append` returns, so a transition the editor has shown can
never be lost by a crash. Reading: :func:`read_journal` is tolerant — a torn last line
(a write cut off by a crash or power loss) and undecodable lines are skipped with a
notice, and everything else is returned. Neither side raises for a bad file.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from pydantic_core import from_json

from gate_tui.atomic import describe_os_error, fsync_dir
from gate_tui.json_text import json_bytes

Record = dict[str, Any]
TORN_SUFFIX = ".torn"
READ_CHUNK = 1 << 20


@dataclass(frozen=True)
class JournalGap:
    """A damaged line in the middle: ``line`` (1-based), the byte ``offset`` where it
    starts, and ``records``, how many records came before it."""

    line: int
    offset: int
    records: int


@dataclass
class JournalRead:
    """What :func:`read_journal` found: the header, the records after it, and notices."""

    exists: bool = False
    header: Record | None = None
    records: list[Record] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    error: str | None = None
    valid_bytes: int = 0  # length of the prefix made of whole lines we kept or skipped
    torn: bytes = b""  # a cut-off last line, dropped
    needs_newline: bool = False  # the last line is a whole record missing only its newline
    gap: JournalGap | None = None  # the first damaged line before the end, if any
    cut_at: int | None = None  # set by the opener: cut the file to this length before appending
    count: int = 0  # records read (kept in ``records``, or handed to the sink)
    last_seq: int = 0  # the highest ``seq`` before the first damaged line

    @property
    def empty(self) -> bool:
        return self.header is None and not self.count


def encode_record(record: Record) -> bytes:
    """One journal line. Anything JSON cannot encode is written as its ``str``."""
    return json_bytes(record, compact=True, default=str) + b"\n"


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while bulk-loading acyclic data.

    Loading a long journal allocates hundreds of thousands of small containers; the
    collector would rescan the growing heap again and again (3-4x the load time) to
    find no garbage at all. Reference counting still frees everything as usual.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_journal(path: Path, sink: Callable[[Record], None] | None = None) -> JournalRead:
    """Read every decodable record of ``path``; problems become notices, never exceptions.

    The file is read line by line, never whole. With ``sink``, each record before the
    first damaged line is handed to ``sink`` instead of being kept (``records`` stays
    empty, ``count`` says how many there were; those after a gap are only counted), so
    the editor can rebuild its history from a journal of any length holding one record
    at a time.
    """
    try:
        handle = open_regular(Path(path), buffering=READ_CHUNK)
    except FileNotFoundError:
        return JournalRead()
    except OSError as exc:
        return JournalRead(
            exists=True, error=f"cannot read journal {path}: {describe_os_error(exc)}"
        )
    with handle, gc_paused():
        try:
            return _decode(handle, Path(path), sink)
        except OSError as exc:
            return JournalRead(
                exists=True, error=f"cannot read journal {path}: {describe_os_error(exc)}"
            )


def open_regular(path: Path, buffering: int = -1) -> BinaryIO:
    """``path`` opened for reading, without blocking, only if it is a regular file.

    A journal handed over may be a FIFO (a plain open would wait for a writer forever),
    a device or a directory; those raise ``OSError`` saying what they are instead.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise OSError(errno.EINVAL, f"{what}, not a journal")
        return os.fdopen(fd, "rb", buffering=buffering)
    except BaseException:
        os.close(fd)
        raise


def read_header(path: Path, limit: int = 65_536) -> Record | None:
    """Just the header line of a journal (cheap: for filtering before a full read)."""
    try:
        with open_regular(Path(path)) as handle:
            line = handle.readline(limit)
    except OSError:
        return None
    record = _load(line)
    return record if record is not None and record.get("kind") == "header" else None


def _decode(
    lines: Iterable[bytes], path: Path, sink: Callable[[Record], None] | None
) -> JournalRead:
    read = JournalRead(exists=True)
    offset = 0
    number = 0
    for number, line in enumerate(lines, start=1):
        if not line.endswith(b"\n"):  # the last line, cut off or missing only its newline
            _take_tail(read, line, number, path, sink)
            break
        if not _take(read, line[:-1], number, path, sink) and read.gap is None:
            read.gap = JournalGap(number, offset, read.count)
        offset += len(line)
        read.valid_bytes = offset
    if read.gap is not None and read.gap.records == read.count:
        read.gap = None  # nothing usable after the damaged line: no gap to replay past
    return read


def _take(
    read: JournalRead, line: bytes, number: int, path: Path, sink: Callable[[Record], None] | None
) -> bool:
    """Keep one whole line's record; False when the line is damaged."""
    if not line.strip():
        return True
    record = _load(line)
    if record is None:
        read.notices.append(f"journal {path.name}: line {number} is damaged and was skipped")
        return False
    if number == 1 and record.get("kind") == "header":
        read.header = record
    else:
        _keep(read, record, sink)
    return True


def _keep(read: JournalRead, record: Record, sink: Callable[[Record], None] | None) -> None:
    read.count += 1
    seq = record.get("seq")
    if read.gap is None and type(seq) is int and seq > read.last_seq:
        read.last_seq = seq
    if sink is None:
        read.records.append(record)
    elif read.gap is None:
        sink(record)


def _take_tail(
    read: JournalRead, tail: bytes, number: int, path: Path, sink: Callable[[Record], None] | None
) -> None:
    record = _load(tail)
    if record is not None and record.get("kind") != "header":
        _keep(read, record, sink)
        read.valid_bytes += len(tail)
        read.needs_newline = True
        return
    if record is not None and number == 1:
        read.header = record
        read.valid_bytes += len(tail)
        read.needs_newline = True
        return
    read.torn = tail
    read.notices.append(
        f"journal {path.name}: the last line (line {number}, {len(tail)} bytes) was cut off by an "
        "interrupted write and was skipped; everything before it was restored"
    )


def decode_line(line: bytes) -> Record | None:
    """One journal line as a record, or None when it is not a JSON object."""
    return _load(line)


def _load(line: bytes) -> Record | None:
    try:
        value = from_json(line)  # pydantic-core's parser: same results as json.loads, faster
    except (ValueError, RecursionError):
        value = _load_slow(line)
    return value if isinstance(value, dict) else None


def _load_slow(line: bytes) -> Any:
    """The standard parser, for the one thing pydantic-core refuses that we write: a lone
    surrogate as a ``\\ud800`` escape (see :mod:`gate_tui.json_text`)."""
    if b"\\u" not in line:
        return None
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


class JournalWriter:
    """An open journal that appends fsync'd lines. Create with :meth:`create` or :meth:`reopen`."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path
        self._length = _size(fd)  # the journal's length after the last whole, fsync'd line

    @classmethod
    def create(cls, path: Path, header: Record) -> tuple[JournalWriter | None, str | None]:
        """Start a new journal whose first line is ``header`` (fails if ``path`` exists)."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError as exc:
            return None, f"cannot create journal {path}: {describe_os_error(exc)}"
        writer = cls(fd, path)
        error = writer.append(header)
        if error is not None:
            writer.close()
            return None, error
        fsync_dir(path.parent)
        return writer, None

    @classmethod
    def reopen(cls, path: Path, read: JournalRead) -> tuple[JournalWriter | None, str | None]:
        """Open an existing journal for appending, first cutting off a torn last line.

        The torn bytes are kept in ``<journal>.torn`` for inspection; they were never
        acknowledged, so no accepted transition is in them.
        """
        try:
            # O_NOFOLLOW: a journal that is a symbolic link (a folder handed over) is not
            # written through; O_NONBLOCK: a FIFO in its place cannot hang the open.
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as exc:
            why = "it is a symbolic link" if exc.errno == errno.ELOOP else describe_os_error(exc)
            return None, f"cannot open journal {path} for writing: {why}"
        if not _regular(fd):
            os.close(fd)
            return None, f"cannot open journal {path} for writing: not a regular file"
        writer = cls(fd, path)
        error = writer._repair_tail(read)
        if error is not None:
            writer.close()
            return None, error
        return writer, None

    @property
    def closed(self) -> bool:
        return self._fd is None

    def append(self, record: Record) -> str | None:
        """Write one record as one line and fsync it; return an error message or None."""
        return self._write(encode_record(record))

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError:
                pass

    def _write(self, data: bytes) -> str | None:
        if self._fd is None:
            return f"journal {self.path} is closed"
        try:
            view = memoryview(data)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            os.fsync(self._fd)
        except OSError as exc:
            # A full disk (ENOSPC, EDQUOT, EFBIG) or EIO part-way: cut the file back to its
            # last whole line, so no half line is left for a later open to misread and no
            # line we report as unsaved survives in the page cache either.
            self._cut_back()
            return f"cannot write journal {self.path}: {describe_os_error(exc)}"
        self._length += len(data)
        return None

    def _cut_back(self) -> None:
        assert self._fd is not None
        try:
            os.ftruncate(self._fd, self._length)
            os.fsync(self._fd)
        except OSError:
            pass  # then the half line is the journal's last line: read as torn and set aside

    def _repair_tail(self, read: JournalRead) -> str | None:
        assert self._fd is not None
        try:
            if read.cut_at is not None:  # a gap: the opener kept the whole file aside first
                os.ftruncate(self._fd, read.cut_at)
                os.fsync(self._fd)
                self._length = read.cut_at
                return None
            if read.torn:
                _keep_torn(self.path, read.torn)
                os.ftruncate(self._fd, read.valid_bytes)
                os.fsync(self._fd)
                self._length = read.valid_bytes
        except OSError as exc:
            return f"cannot repair journal {self.path}: {describe_os_error(exc)}"
        if read.needs_newline:
            return self._write(b"\n")
        return None


def _regular(fd: int) -> bool:
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False


def _size(fd: int) -> int:
    try:
        return os.fstat(fd).st_size
    except OSError:
        return 0


def _keep_torn(path: Path, torn: bytes) -> None:
    """Append the cut-off bytes to ``<journal>.torn`` so nothing is silently destroyed."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
    with os.fdopen(os.open(path.with_name(path.name + TORN_SUFFIX), flags, 0o644), "ab") as handle:
        handle.write(torn + b"\n")
        handle.flush()
        os.fsync(handle.fileno())
