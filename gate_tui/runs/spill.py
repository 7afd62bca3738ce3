"""Job data between ``check --input -j N``'s main process and its workers, through files.

A pipe between processes holds 64 KB: a 1,024-row batch of replies (~1.5 MB) and its
results (~4 MB) cross it in dozens of hand-offs, each waiting for the other process to be
scheduled, and on a busy machine the workers sat idle for a tenth of the run that way
(besides pickling the tables on both sides). Here the main process writes each Arrow batch
to an Arrow IPC file in a private temp folder, the worker memory-maps it, checks it, and
writes its results beside it (an IPC stream, or the JSON Lines records as bytes), which
the main process memory-maps in turn: the pipes carry only names and counts, and writing
a file never waits for its reader. The main process deletes every file once it is read,
and the folder when the run ends (interrupted or not); at most a few jobs' files exist at
once, so the folder stays as small as the batches in flight.

The folder lives beside the output (the results are going to that disk anyway), or in the
system's temp folder when the output is stdout.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any


class SpillFolder:
    """A private temp folder for job files; removed with everything in it on exit."""

    def __init__(self, near: str | None) -> None:
        folder = None if near in (None, "-") else os.path.dirname(os.path.abspath(str(near)))
        try:
            self.path = tempfile.mkdtemp(prefix=".gate-tui-jobs-", dir=folder)
        except OSError as error:  # the user named the output, not this folder: say that one
            raise OSError(error.errno, error.strerror, str(near)) from None
        self.count = 0

    def __enter__(self) -> SpillFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def job_path(self) -> str:
        """A fresh path stem for one job's files (``.in`` and ``.out`` are added)."""
        self.count += 1
        return os.path.join(self.path, str(self.count))

    @staticmethod
    def send(stem: str, batch: Any) -> None:
        """Write a record batch for a worker (main process)."""
        import pyarrow as pa

        with pa.OSFile(stem + ".in", "wb") as sink, pa.ipc.new_stream(sink, batch.schema) as stream:
            stream.write(batch)

    @staticmethod
    def take(stem: str, lines: bool) -> Any:
        """A worker's results (a table, or JSON Lines bytes), its files deleted (main process).
        The table maps the file: no copy, and the mapping outlives the file's name."""
        import pyarrow as pa

        out = stem + ".out"
        try:
            if lines:
                with open(out, "rb") as stream:
                    return stream.read()
            return pa.ipc.open_stream(pa.memory_map(out)).read_all()
        finally:
            for path in (out, stem + ".in"):
                try:
                    os.unlink(path)
                except FileNotFoundError:
                    pass


def received(stem: str) -> Any:
    """The record batch the main process sent (in a worker), memory-mapped."""
    import pyarrow as pa

    return pa.ipc.open_stream(pa.memory_map(stem + ".in")).read_all()


def give_back(stem: str, payload: Any) -> None:
    """Write a worker's results for the main process: bytes as they are, a table as IPC."""
    import pyarrow as pa

    if isinstance(payload, bytes):
        with open(stem + ".out", "wb") as stream:
            stream.write(payload)
        return
    with pa.OSFile(stem + ".out", "wb") as sink, pa.ipc.new_stream(sink, payload.schema) as stream:
        stream.write_table(payload)
