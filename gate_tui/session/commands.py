"""The ``gate-tui sessions`` and ``gate-tui report`` commands (called from
:mod:`gate_tui.cli.main`).

Both return an exit code: 0 on success, 2 with one clear message on stderr on error.
They read the files directly and never take a session's lock, so they work while an
editor has the session open. Whatever they print that came from a file (session names,
config paths, gate keys in decisions, error messages quoting a value) goes through
:func:`gate_tui.safe_text.visible`: no control, bidi or zero-width character reaches
the terminal.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from gate_tui.atomic import atomic_write_chunks
from gate_tui.config.loading import check_config, config_fingerprint
from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.safe_text import visible
from gate_tui.session.catalog import SessionInfo, find_session, list_sessions
from gate_tui.session.journal_stream import JournalStream
from gate_tui.session.paths import JOURNAL_SUFFIX, folder_paths, sessions_dir, state_file_paths
from gate_tui.session.report import ReportFacts, journal_notes, render_report, report_chunks
from gate_tui.session.store import read_state_file

if TYPE_CHECKING:
    from gate_tui.models import GateConfig

EXIT_OK = 0
EXIT_ERROR = 2
COLUMNS = ("NAME", "CONFIG", "STARTED", "TRANSITIONS", "DECISION", "STATE")


def sessions_command(
    config_path: Path | None,
    *,
    root: Path | None = None,
    out: TextIO | None = None,
    gate_config: bool = True,
) -> int:
    """Print a table of the saved sessions (only those of ``config_path`` when given).

    ``gate_config=False``: ``config_path`` is a contract, which has no gate fingerprint;
    its sessions are those whose header names that file.
    """
    out = out or sys.stdout
    fingerprint: str | None = None
    if config_path is not None and gate_config:
        loaded = check_config(config_path)
        if loaded.config is None:
            return _fail(f"cannot read config: {loaded.problems[0]}")
        fingerprint = config_fingerprint(loaded.config)
    infos = [_mark_foreign(info, fingerprint) for info in list_sessions(root, config_path)]
    if not infos:
        of = f" of {config_path}" if config_path is not None else ""
        out.write(visible(f"No sessions{of} in {sessions_dir(root)}.", one_line=True) + "\n")
        return EXIT_OK
    out.write(_table([_row(info) for info in infos]))
    return EXIT_OK


def report_command(
    session: str,
    output: Path | None,
    *,
    root: Path | None = None,
    out: TextIO | None = None,
    fmt: str = "markdown",
) -> int:
    """Print (or write to ``output``) the review report of a session name or ``--state`` file,
    in ``fmt`` (``text``, ``markdown`` or ``html``).

    The journal is streamed twice (the report's top, then its timeline) and the report is
    written piece by piece, so memory stays flat for any journal length.
    """
    chunks, error = report_chunks_of(session, root, fmt)
    if chunks is None:
        return _fail(error or f"cannot build a report for {session}")
    if output is None:
        sink = out or sys.stdout
        for chunk in chunks:
            sink.write(chunk)
        return EXIT_OK
    problem = atomic_write_chunks(Path(output), chunks)
    if problem is not None:  # output that cannot be written is exit 3, as for every command
        sys.stderr.write(
            f"gate-tui report: {visible(problem, one_line=True)}; no report was written\n"
        )
        return EXIT_USAGE
    sys.stderr.write(f"gate-tui: report written to {visible(str(output), one_line=True)}\n")
    return EXIT_OK


def report_text(
    session: str, root: Path | None = None, fmt: str = "markdown"
) -> tuple[str | None, str | None]:
    """The report of ``session`` as one text, or an error message (see :func:`report_chunks_of`)."""
    chunks, error = report_chunks_of(session, root, fmt)
    return ("".join(chunks), None) if chunks is not None else (None, error)


def report_chunks_of(
    session: str, root: Path | None = None, fmt: str = "markdown"
) -> tuple[Iterator[str] | None, str | None]:
    """The report of ``session`` (a name from ``gate-tui sessions``, a session folder,
    a ``--state`` file or its journal) as text pieces, or an error message."""
    journal, name = _locate(session, root)
    if journal is None:
        if not name:
            return None, f"no session or state file named {session!r} (see `gate-tui sessions`)"
        text, error = _state_only(session, fmt)
        return (iter([text]) if text is not None else None), error
    first = JournalStream(journal)
    facts = ReportFacts()
    for record in first.records():
        facts.add(record)
    facts.header = first.header or {}
    if first.error is not None:
        return None, first.error
    if (
        first.header is None
        and sum(facts.moves.values()) + facts.rejected == 0
        and not first.notices
    ):
        return None, f"journal {journal} is empty or unreadable"
    second = JournalStream(journal)  # the timeline: a second pass, nothing held
    config = config_of(facts.header)
    notices = [*journal_notes(journal, first.header), *first.notices]
    return report_chunks(
        facts, second.records(), name=name, notices=notices, fmt=fmt, config=config
    ), None


def config_of(header: dict[str, Any]) -> GateConfig | None:
    """The session's config as it was (its file, if it still has the session's fingerprint):
    the report lists outstanding gates from it. None when it changed or cannot be read."""
    path, fingerprint = header.get("config_path"), header.get("fingerprint")
    if not isinstance(path, str) or not path:
        return None
    loaded = check_config(path)
    if loaded.config is None or (fingerprint and config_fingerprint(loaded.config) != fingerprint):
        return None
    return loaded.config


def _locate(session: str, root: Path | None) -> tuple[Path | None, str]:
    """(journal path, display name); (None, name) for a state file without a journal."""
    folder = find_session(session, root)
    if folder is not None:
        return folder_paths(folder).journal, folder.name
    path = Path(session).expanduser()
    if path.is_dir() and folder_paths(path).journal.is_file():
        return folder_paths(path).journal, path.name
    if path.is_file() and path.name.endswith(JOURNAL_SUFFIX):
        return path, path.name[: -len(JOURNAL_SUFFIX)]
    if path.is_file():
        journal = state_file_paths(path).journal
        return (journal, str(path)) if journal.is_file() else (None, str(path))
    return None, ""


def _state_only(file: str, fmt: str) -> tuple[str | None, str | None]:
    load = read_state_file(Path(file))
    if load.state is None:
        return None, load.error or f"{file} holds no state"
    header = {"config_path": load.config_path, "fingerprint": load.fingerprint}
    notice = f"{file} has no journal beside it, so only its current state is known"
    return render_report(
        header, [], name=file, notices=[notice], state=load.state, fmt=fmt, config=config_of(header)
    ), None


def _mark_foreign(info: SessionInfo, fingerprint: str | None) -> SessionInfo:
    """Foreign = the session's fingerprint differs from its config file as it is now."""
    expected = fingerprint if fingerprint is not None else _current_fingerprint(info.config_path)
    if expected is None:
        return info
    return dataclasses.replace(
        info, foreign=bool(info.fingerprint) and info.fingerprint != expected
    )


_FINGERPRINTS: dict[str, str | None] = {}


def _current_fingerprint(config_path: str) -> str | None:
    if not config_path:
        return None
    if config_path not in _FINGERPRINTS:
        loaded = check_config(config_path)
        _FINGERPRINTS[config_path] = (
            config_fingerprint(loaded.config) if loaded.config is not None else None
        )
    return _FINGERPRINTS[config_path]


def _row(info: SessionInfo) -> tuple[str, ...]:
    config = Path(info.config_path).name if info.config_path else "(default)"
    cells = (
        info.name,
        config,
        _local_time(info.started),
        str(info.transitions),
        info.decision,
        info.status,
    )
    return tuple(visible(cell, one_line=True) for cell in cells)


def _local_time(at: str) -> str:
    try:
        return datetime.fromisoformat(at).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return at or "?"


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in [COLUMNS, *rows]) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [COLUMNS, *rows]
    ]
    return "\n".join(lines) + "\n"


def _fail(message: str) -> int:
    sys.stderr.write(f"gate-tui: {visible(message, one_line=True)}\n")
    return EXIT_ERROR
