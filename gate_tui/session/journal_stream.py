"""Reading a journal one line at a time, for commands that only look (``report``).

:func:`gate_tui.session.journal.read_journal` keeps every record, which the editor needs
(it rebuilds the whole history). A report only needs each record once, in order, so it
streams: :class:`JournalStream` yields the records lazily and remembers only what it
found wrong, and memory stays flat whatever the journal's length (a 100,000-line,
100 MB journal reports in a few tens of MB). The rules are those of ``read_journal``:
a damaged line is skipped with a notice, a cut-off last line is skipped with its own
notice, and nothing here raises for a bad file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gate_tui.atomic import describe_os_error
from gate_tui.session.journal import READ_CHUNK, Record, decode_line, open_regular


@dataclass
class JournalStream:
    """One pass over ``path``: iterate :meth:`records`; ``notices``/``error`` fill as it goes."""

    path: Path
    header: Record | None = None
    notices: list[str] = field(default_factory=list)
    error: str | None = None
    exists: bool = True

    def records(self) -> Iterator[Record]:
        """The records after the header, in order (the header lands in ``header``)."""
        self.notices.clear()
        try:
            handle = open_regular(self.path, buffering=READ_CHUNK)
        except FileNotFoundError:
            self.exists = False
            return
        except OSError as exc:
            self.error = f"cannot read journal {self.path}: {describe_os_error(exc)}"
            return
        with handle:
            yield from self._lines(handle)

    def _lines(self, handle: object) -> Iterator[Record]:
        number = 0
        try:
            for number, line in enumerate(handle, start=1):  # type: ignore[call-overload]
                if not line.strip():
                    continue
                record = decode_line(line)
                if record is None:
                    self.notices.append(self._damaged(number, line))
                elif number == 1 and record.get("kind") == "header":
                    self.header = record
                else:
                    yield record
        except OSError as exc:
            self.error = (
                f"cannot read journal {self.path} after line {number}: {describe_os_error(exc)}"
            )

    def _damaged(self, number: int, line: bytes) -> str:
        name = self.path.name
        if not line.endswith(b"\n"):
            return (
                f"journal {name}: the last line (line {number}, {len(line)} bytes) was cut off by "
                "an interrupted write and was skipped; everything before it was restored"
            )
        return f"journal {name}: line {number} is damaged and was skipped"
