"""A reviewer's verdicts on an eval run, saved beside its results as a journal.

Each reviewer writes a file of their own beside the results, so several people review the
same run with no write conflict: ``RESULTS.verdicts.<reviewer>.jsonl`` (a store opened with
no reviewer keeps the single file of earlier versions, ``RESULTS.verdicts.jsonl``), and an
adjudicator's final word goes to ``RESULTS.adjudicated.jsonl``. A file is a session-style
journal (:mod:`gate_tui.session.journal`): a header naming the results, the reviewer and
the results' run id, then one line per verdict given — ``accepted``, ``rejected``,
``needs-fix`` or ``cleared``, with the row, its id, its reply's fingerprint, the reviewer,
the time and a note — appended and fsync'd before :meth:`VerdictStore.give` returns, so a
verdict the screen showed survives ``kill -9``. The latest line of a row wins.

A verdict is about one reply, not one row number: it is keyed by the row's id, the
fingerprint of its reply and the results' run id. Opened with the results' index (any
object with ``rows``, ``run_id``, ``summary(row)``, ``fingerprints(rows)`` and
``rows_with_ids(ids)``), a store checks each verdict against the row it names, finds the
reply again by id and fingerprint when the row moved, and sets aside (with a notice) a
verdict whose reply is no longer in the results or that was given on another run — so a
rerun that writes new rows into the same file never shows an old verdict on a new reply.
"""

from __future__ import annotations

import getpass
import os
import re
import time
from pathlib import Path
from typing import Any, NamedTuple

from gate_tui.session.journal import JournalWriter, read_journal

VERDICTS = ("accepted", "rejected", "needs-fix")
CLEARED = "cleared"
SUFFIX = ".verdicts.jsonl"
FINAL_SUFFIX = ".adjudicated.jsonl"
MAX_NOTE = 4000
MAX_REVIEWER = 64


class Verdict(NamedTuple):
    """A reviewer's word on one row (one reply). A named tuple: a team's files hold tens of
    thousands, built as fast as a tuple."""

    row: int
    id: str | None
    verdict: str
    note: str = ""
    at: str = ""
    reviewer: str = ""
    fingerprint: str | None = None
    run_id: str | None = None


def reviewer_name(text: str | None) -> str | None:
    """A reviewer's name as it can appear in a file name (letters, digits, ``._-``), or None."""
    cleaned = re.sub(r"[^\w.-]+", "-", (text or "").strip(), flags=re.ASCII).strip(".-")[
        :MAX_REVIEWER
    ]
    return cleaned or None


def default_reviewer() -> str:
    """The reviewer when ``--reviewer`` is not given: ``GATE_TUI_REVIEWER``, else the
    user's name."""
    for name in ("GATE_TUI_REVIEWER", "USER", "LOGNAME", "USERNAME"):
        cleaned = reviewer_name(os.environ.get(name))
        if cleaned:
            return cleaned
    try:
        return reviewer_name(getpass.getuser()) or "reviewer"
    except (OSError, KeyError, ImportError):
        return "reviewer"


def verdicts_path(results: Path, reviewer: str | None = None, final: bool = False) -> Path:
    """Where verdicts on ``results`` are kept: beside it, one file per reviewer."""
    if final:
        return results.with_name(results.name + FINAL_SUFFIX)
    if reviewer is None:
        return results.with_name(results.name + SUFFIX)
    return results.with_name(f"{results.name}.verdicts.{reviewer}.jsonl")


def reviewer_files(results: Path) -> dict[str, Path]:
    """Every reviewer's verdict file beside ``results`` (the unnamed file as ``""``)."""
    found: dict[str, Path] = {}
    prefix = results.name + ".verdicts."
    try:
        names = sorted(
            entry.name for entry in os.scandir(results.parent) if entry.name.startswith(prefix)
        )
    except OSError:
        return found
    for name in names:
        middle = name[len(prefix) : -len(".jsonl")] if name.endswith(".jsonl") else None
        if middle == "" or middle is None:
            continue
        if reviewer_name(middle) == middle:
            found[middle] = results.with_name(name)
    legacy = verdicts_path(results)
    if legacy.is_file():
        found[""] = legacy
    return found


class VerdictStore:
    """One reviewer's verdicts on one results file: loaded once, then appended one fsync'd
    line each. ``rows`` (the results' index) places each verdict on its reply (see the
    module's docstring); without it a verdict stays on the row it names."""

    def __init__(
        self, results: Path, reviewer: str | None = None, rows: Any = None, *, final: bool = False
    ) -> None:
        self.results = Path(results)
        self.reviewer = reviewer
        self.final = final
        self.rows = rows
        self.path = verdicts_path(self.results, reviewer, final)
        self.run_id = None if rows is None else rows.run_id
        self.latest: dict[int, Verdict] = {}
        self.stale = 0
        self._writer: JournalWriter | None = None
        read = read_journal(self.path)
        self.notices = list(read.notices) + ([read.error] if read.error else [])
        self._read = read
        given = [verdict for verdict in map(_verdict_of, read.records) if verdict is not None]
        for verdict in self._placed(given):
            if verdict.verdict == CLEARED:
                self.latest.pop(verdict.row, None)
            else:
                self.latest[verdict.row] = verdict
        if self.stale:
            self.notices.append(
                f"{self.path.name}: {self.stale:,} verdict{'s' * (self.stale != 1)} set "
                f"aside: the reply they were given on "
                "is no longer in the results (a rerun rewrote them)"
            )

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
        fingerprint = self.rows.fingerprints([row])[0] if self.rows is not None else None
        at = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        given = Verdict(
            row, ident, verdict, note[:MAX_NOTE], at, self.reviewer or "", fingerprint, self.run_id
        )
        record = {
            "kind": "verdict",
            "row": row,
            "id": ident,
            "verdict": verdict,
            "note": given.note,
            "at": at,
            "reviewer": given.reviewer,
            "fingerprint": fingerprint,
            "run_id": self.run_id,
        }
        error = self._writer.append(record)
        if error is not None:
            return error
        if verdict == CLEARED:
            self.latest.pop(row, None)
        else:
            self.latest[row] = given
        return None

    def exported(self) -> list[tuple[int, Verdict, str, str]]:
        """What :func:`export_csv` writes: each row's verdict, its source and who gave it."""
        return [
            (row, self.latest[row], "single", self.latest[row].reviewer)
            for row in sorted(self.latest)
        ]

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
            header = {
                "kind": "header",
                "results": self.results.name,
                "format": 2,
                "reviewer": self.reviewer,
                "final": self.final,
                "run_id": self.run_id,
            }
            self._writer, error = JournalWriter.create(self.path, header)
        return error

    def _placed(self, given: list[Verdict]) -> list[Verdict]:
        """The verdicts on the rows that hold their replies now; the others counted stale."""
        rows = self.rows
        if rows is None or not given:
            return given
        total = rows.rows
        here = [verdict for verdict in given if 0 <= verdict.row < total]
        named = sorted({verdict.row for verdict in here})
        now = dict(
            zip(named, zip(rows.ids(named), rows.fingerprints(named), strict=True), strict=True)
        )
        moved = [verdict for verdict in given if not self._holds(verdict, now)]
        where = (
            rows.rows_with_ids(sorted({verdict.id for verdict in moved if verdict.id is not None}))
            if moved
            else {}
        )
        placed: list[Verdict] = []
        for verdict in given:
            if self._holds(verdict, now):
                placed.append(verdict)
                continue
            found = self._find(verdict, where.get(verdict.id or "", []))
            if found is None:
                self.stale += 1
            else:
                placed.append(verdict._replace(row=found))
        return placed

    def _holds(self, verdict: Verdict, now: dict[int, tuple[str | None, str | None]]) -> bool:
        """Whether the row a verdict names still holds its reply (same run, id, fingerprint)."""
        if verdict.run_id is not None and self.run_id is not None and verdict.run_id != self.run_id:
            return False
        if verdict.row not in now or now[verdict.row][0] != verdict.id:
            return False
        return verdict.fingerprint is None or verdict.fingerprint == now[verdict.row][1]

    def _find(self, verdict: Verdict, candidates: list[int]) -> int | None:
        """The row that holds a verdict's reply now (same id and fingerprint), or None."""
        if verdict.fingerprint is None or (
            verdict.run_id is not None and self.run_id is not None and verdict.run_id != self.run_id
        ):
            return None
        for row, fingerprint in zip(candidates, self.rows.fingerprints(candidates), strict=True):
            if fingerprint == verdict.fingerprint:
                return row
        return None


_KNOWN = frozenset((*VERDICTS, CLEARED))


def _verdict_of(record: dict[str, Any]) -> Verdict | None:
    get = record.get
    row, verdict = get("row"), get("verdict")
    if get("kind") != "verdict" or type(row) is not int or verdict not in _KNOWN:
        return None
    return Verdict(
        row,
        _text(get("id")),
        verdict,
        _text(get("note")) or "",
        _text(get("at")) or "",
        _text(get("reviewer")) or "",
        _text(get("fingerprint")),
        _text(get("run_id")),
    )


def _text(value: Any) -> str | None:
    return value if type(value) is str else None


def export_csv(source: Any, target: Path, summary: Any = None) -> str | None:
    """Write the verdicts of ``source`` (a :class:`VerdictStore`, or the team's view with its
    adjudicated verdicts, :class:`gate_tui.results.team.TeamVerdicts`) as CSV, atomically: one
    row per reply with a verdict; an error message or None. ``summary(row)`` adds each row's
    line and status."""
    import csv
    import io

    from gate_tui.atomic import atomic_write_text

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["row", "line", "id", "status", "verdict", "note", "at", "reviewer", "source", "reviewers"]
    )
    for row, verdict, how, reviewers in source.exported():
        info = summary(row) if summary is not None else {}
        writer.writerow(
            [
                row,
                info.get("line", ""),
                _cell(verdict.id),
                info.get("status", ""),
                verdict.verdict,
                _cell(verdict.note),
                verdict.at,
                _cell(verdict.reviewer),
                how,
                _cell(reviewers),
            ]
        )
    return atomic_write_text(Path(target), out.getvalue())


def _cell(value: str | None) -> str:
    """A CSV cell that a spreadsheet will not run as a formula."""
    text = value or ""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
