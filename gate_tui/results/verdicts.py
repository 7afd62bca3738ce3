"""A reviewer's verdicts on an eval run, saved beside its results as a journal.

``RESULTS.verdicts.jsonl`` is a session-style journal (:mod:`gate_tui.session.journal`): a
header naming the results file, then one line per verdict given — ``accepted``,
``rejected``, ``needs-fix`` or ``cleared``, with the row, its id and a note — appended and
fsync'd before :meth:`VerdictStore.give` returns, so a verdict the screen showed survives
``kill -9``. A torn last line from a crash is cut off on the next open; the latest line
of a row wins. :func:`export_csv` writes the current verdicts atomically
(:mod:`gate_tui.atomic`).
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate_tui.atomic import atomic_write_text
from gate_tui.session.journal import JournalWriter, read_journal

VERDICTS = ("accepted", "rejected", "needs-fix")
CLEARED = "cleared"
SUFFIX = ".verdicts.jsonl"
MAX_NOTE = 4000


@dataclass(frozen=True)
class Verdict:
    """The reviewer's word on one row."""

    row: int
    id: str | None
    verdict: str
    note: str = ""
    at: str = ""


def verdicts_path(results: Path) -> Path:
    """Where the verdicts of ``results`` are kept: beside it."""
    return results.with_name(results.name + SUFFIX)


class VerdictStore:
    """The verdicts of one results file: loaded once, then appended one fsync'd line each."""

    def __init__(self, results: Path) -> None:
        self.results = Path(results)
        self.path = verdicts_path(self.results)
        self.latest: dict[int, Verdict] = {}
        self.notices: list[str] = []
        self._writer: JournalWriter | None = None
        read = read_journal(self.path)
        self.notices = list(read.notices) + ([read.error] if read.error else [])
        self._read = read
        for record in read.records:
            verdict = _verdict_of(record)
            if verdict is None:
                continue
            if verdict.verdict == CLEARED:
                self.latest.pop(verdict.row, None)
            else:
                self.latest[verdict.row] = verdict

    def get(self, row: int) -> Verdict | None:
        return self.latest.get(row)

    def counts(self) -> dict[str, int]:
        """How many rows have each verdict."""
        counts = dict.fromkeys(VERDICTS, 0)
        for verdict in self.latest.values():
            counts[verdict.verdict] = counts.get(verdict.verdict, 0) + 1
        return counts

    def give(self, row: int, ident: str | None, verdict: str, note: str = "") -> str | None:
        """Record ``verdict`` (or :data:`CLEARED`) for ``row``; an error message, or None
        once the line is on disk."""
        if verdict not in (*VERDICTS, CLEARED):
            return f"unknown verdict {verdict!r}"
        error = self._open()
        if error is not None:
            return error
        assert self._writer is not None
        given = Verdict(row, ident, verdict, note[:MAX_NOTE], time.strftime("%Y-%m-%dT%H:%M:%S%z"))
        error = self._writer.append({"kind": "verdict", "row": row, "id": ident, "verdict": verdict, "note": given.note, "at": given.at})
        if error is not None:
            return error
        if verdict == CLEARED:
            self.latest.pop(row, None)
        else:
            self.latest[row] = given
        return None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def _open(self) -> str | None:
        if self._writer is not None:
            return None
        if self._read.exists:
            self._writer, error = JournalWriter.reopen(self.path, self._read)
        else:
            header = {"kind": "header", "results": self.results.name, "format": 1}
            self._writer, error = JournalWriter.create(self.path, header)
        return error


def _verdict_of(record: dict[str, Any]) -> Verdict | None:
    if record.get("kind") != "verdict" or type(record.get("row")) is not int or record.get("verdict") not in (*VERDICTS, CLEARED):
        return None
    ident = record.get("id")
    note = record.get("note")
    return Verdict(record["row"], ident if isinstance(ident, str) else None, record["verdict"], note if isinstance(note, str) else "", str(record.get("at") or ""))


def export_csv(store: VerdictStore, target: Path, summary: Any = None) -> str | None:
    """Write the current verdicts as CSV (row, line, id, status, verdict, note, at),
    atomically; an error message or None. ``summary(row)`` adds each row's line and status."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["row", "line", "id", "status", "verdict", "note", "at"])
    for row in sorted(store.latest):
        verdict = store.latest[row]
        info = summary(row) if summary is not None else {}
        writer.writerow([row, info.get("line", ""), _cell(verdict.id), info.get("status", ""), verdict.verdict, _cell(verdict.note), verdict.at])
    return atomic_write_text(Path(target), out.getvalue())


def _cell(value: str | None) -> str:
    """A CSV cell that a spreadsheet will not run as a formula."""
    text = value or ""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
