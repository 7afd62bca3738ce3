"""The progress bar of ``check --jsonl`` on a terminal (stderr only): count, rate, ETA.

rich's progress display, fed with bytes read (the total is the input's size when it is a
regular file, so the ETA is meaningful) and the number of replies checked.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO


class ProgressBar:
    """A rich progress bar on stderr: bytes drive the bar and ETA, records the count."""

    def __init__(self, total_bytes: int | None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.started = time.perf_counter()
        self.progress = Progress(
            TextColumn("{task.fields[count]:>12,} replies"),
            TextColumn("{task.fields[rate]:>9,.0f}/s"),
            BarColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TimeElapsedColumn(),
            console=Console(file=sys.stderr),
            transient=True,
        )
        self.task = self.progress.add_task("check", total=total_bytes, count=0, rate=0.0)

    def bytes_read(self, count: int) -> None:
        self.progress.advance(self.task, count)

    def records(self, count: int) -> None:
        elapsed = time.perf_counter() - self.started
        self.progress.update(self.task, count=count, rate=count / elapsed if elapsed > 0 else 0.0)


@contextmanager
def progress_bar(enabled: bool, total_bytes: int | None) -> Iterator[ProgressBar | None]:
    """A live :class:`ProgressBar` on stderr while the batch runs, or None."""
    if not enabled:
        yield None
        return
    bar = ProgressBar(total_bytes)
    with bar.progress:
        yield bar


def input_size(stream: IO[bytes]) -> int | None:
    """The size in bytes of a regular input file (for the ETA), else None."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    import stat

    return info.st_size if stat.S_ISREG(info.st_mode) else None
