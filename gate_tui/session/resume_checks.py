"""What opening a session checks and repairs on the way, kept out of the opening flow.

A journal written for another config is refused; a damaged line in the middle stops the
replay there (the whole journal kept aside first); a state file changed outside gate-tui
is kept aside before it is rewritten; files a fresh start would overwrite are renamed.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gate_tui.atomic import describe_os_error
from gate_tui.config.loading import config_fingerprint
from gate_tui.models import GateConfig, GateState
from gate_tui.session import records as rec
from gate_tui.session.journal import JournalRead
from gate_tui.session.live import Session
from gate_tui.session.paths import SessionPaths
from gate_tui.session.store import read_state_file


def refused(read: JournalRead, config: GateConfig, paths: SessionPaths) -> str | None:
    """Why this journal must not be resumed with ``config`` (unreadable, another format or
    another config), or None."""
    if read.error is not None:
        return read.error
    header = read.header
    if header is None:
        return (
            f"journal {paths.journal} has no readable header, so it cannot be checked against this "
            "config"
        )
    if header.get("format") != rec.FORMAT:
        return (
            f"journal {paths.journal} has format {header.get('format')!r}; this gate-tui reads "
            f"format {rec.FORMAT}"
        )
    found, expected = header.get("fingerprint"), config_fingerprint(config)
    if found != expected:
        return (
            f"session {paths.name} was written for a different config (fingerprint {found}, "
            f"this config has {expected}); it was not resumed and its files were left as they are"
        )
    return None


def keep_outside_edits(session: Session, file: Path) -> None:
    """Before the state file is rewritten from the journal, keep a version edited by hand.

    A state file one step behind the journal (a crash between the two writes) is just
    stale. One that holds a state the journal never had was changed outside gate-tui:
    it is renamed to ``<name>.<stamp>.bak`` and a notice says how to apply it.
    """
    if not file.exists():
        return
    load = read_state_file(file)
    if load.state is not None and journal_had(session, load.state):
        return
    for notice in set_aside(file):
        session.notices.append(
            f"{file.name} did not match this session's journal (changed outside gate-tui?); "
            f"the journal's state is shown — {notice}; use “Open state…” to apply it"
        )


def journal_had(session: Session, state: dict[str, Any]) -> bool:
    """Whether ``state`` is the session's current, initial or any recorded state."""
    if state == session.state.model_dump(
        mode="json"
    ) or state == session.history.initial.model_dump(mode="json"):
        return True
    try:
        wanted = GateState.model_validate(state)
    except ValidationError:
        return False
    return any(transition.state == wanted for transition in reversed(session.timeline))


def stop_at_gap(
    read: JournalRead, paths: SessionPaths, *, writing: bool
) -> tuple[JournalRead, str | None]:
    """A damaged line in the middle: replay only what comes before it, never past it.

    What follows the gap may depend on what was lost (an undo of a lost edit), so the
    editor does not guess. Before appending, the whole journal is copied aside (as a
    ``….journal.jsonl`` that ``gate-tui report`` reads, skipping the damaged line) and
    the journal is cut at the gap. If the copy cannot be made, the session opens
    read-only instead (second value: the notice saying so).
    """
    gap = read.gap
    assert gap is not None
    later = read.count - gap.records
    kept = dataclasses.replace(
        read, records=read.records[: gap.records], notices=list(read.notices), gap=None
    )
    message = (
        f"journal {paths.journal.name}: line {gap.line} is damaged, so the session was replayed "
        f"only up to it; the {later} record{'s' * (later != 1)} after it "
        f"{'were' if later != 1 else 'was'} not replayed"
    )
    if not writing:
        kept.notices.append(message)
        return kept, None
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = paths.journal.with_name(
        f"{paths.journal.name.removesuffix('.jsonl')}.{stamp}-gap.journal.jsonl"
    )
    try:
        shutil.copyfile(paths.journal, backup, follow_symlinks=False)
    except OSError as exc:
        kept.notices.append(message)
        return (
            kept,
            f"cannot keep the damaged journal aside ({describe_os_error(exc)}); opened read-only",
        )
    kept.notices.append(
        f"{message} — the whole journal was kept as {backup.name} (`gate-tui report {backup}` "
        "tells all of it)"
    )
    kept.cut_at, kept.torn, kept.needs_newline = gap.offset, b"", False
    return kept, None


def set_aside(*files: Path) -> list[str]:
    """Rename existing ``files`` to ``<name>.<stamp>.bak`` so a fresh start loses nothing."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    notices = []
    for file in files:
        if not file.exists():
            continue
        backup = file.with_name(f"{file.name}.{stamp}.bak")
        try:
            os.replace(file, backup)
        except OSError as exc:
            notices.append(f"cannot move {file} aside: {describe_os_error(exc)}")
            continue
        notices.append(f"the previous {file.name} was kept as {backup.name}")
    return notices
