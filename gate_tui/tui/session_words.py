"""How the editor speaks of sessions on disk: human times and the finished-session note.

The resume question and the start-up notes name times the way people do ("today 00:29",
"yesterday 18:02", "12 Nov 09:15") in local time, never as an ISO stamp; the journal keeps
the exact UTC time. Textual-free, so the wording is tested without a terminal.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from gate_tui.session.catalog import SessionInfo


def human_time(at: str, now: datetime | None = None) -> str:
    """``today 00:29`` / ``yesterday 18:02`` / ``12 Nov 09:15`` / ``12 Nov 2024 09:15``
    for an ISO timestamp, in local time (``now`` for tests); unknown text as it is."""
    try:
        moment = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return visible(str(at)[:19], one_line=True) or "an unknown time"
    local = moment.astimezone() if moment.tzinfo is not None else moment
    today = (now or datetime.now(local.tzinfo)).date()
    clock = local.strftime("%H:%M")
    if local.date() == today:
        return f"today {clock}"
    if local.date() == today - timedelta(days=1):
        return f"yesterday {clock}"
    day = f"{local.day} {local.strftime('%b')}"
    if local.year != today.year:
        day += f" {local.year}"
    return f"{day} {clock}"


def finished_note(info: SessionInfo) -> str:
    """What the editor says when it started anew because the newest session had passed."""
    # Short: a toast this long would cover the decision panel of a small terminal. The
    # folder is what `gate-tui sessions` lists, so the note names the session, not its path.
    when = human_time(info.last_at or info.started)
    return (
        f"Started a new session: {info.name} finished at PASS ({when}). "
        f"Open state… on its state.json reopens it; `gate-tui report {info.name}` tells its story."
    )


def newest_finished(sessions: list[SessionInfo]) -> SessionInfo | None:
    """The newest session when it finished at PASS (the reason no resume was offered)."""
    newest = next((info for info in sessions if info.damaged is None and not info.foreign), None)
    return newest if newest is not None and newest.finished else None


def display_path(path: Path | None) -> str:
    """A config path for the header: relative to the working directory or ``~`` when shorter."""
    if path is None:
        return "bundled config"
    if not path.is_absolute():
        return str(path)
    for base, prefix in ((Path.cwd(), ""), (Path.home(), "~/")):
        try:
            return prefix + str(path.relative_to(base))
        except ValueError:
            continue
    return str(path)
