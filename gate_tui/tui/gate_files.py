"""The gate editor's file commands, as data for the shared runner
(:mod:`gate_tui.tui.file_commands`): save (Ctrl+S), save as, export state JSON / review
report, open a state file, copy the state, and what a quit would lose.

All of them go through the Session API (which writes atomically and journals what it
did). Pure functions of what they need (the session, a callback): nothing here holds the
screen. The screen runs them from its ``action_file`` and ``action_quit``. Ctrl+Q asks
first when the session is not writing to disk (read-only, or in memory only) and
something changed since it was last kept.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate_tui.tui.file_commands import (
    Copy,
    FileCommand,
    PromptHost,
    Said,
    ask_before_quitting,
    open_request,
    write_request,
)

if TYPE_CHECKING:
    from pathlib import Path

    from gate_tui.session.live import Session

Kept = tuple[object, int]
"""A session and how many transitions of it are kept in a file (see :func:`kept_now`)."""
STATE_FILE = "gate-state.json"


def gate_file(
    command: str,
    session: Session,
    *,
    palette_key: str,
    kept: Callable[[], None],
    reload: Callable[[], None],
) -> FileCommand | None:
    """The file command ``command`` of ``session`` (None: no such command). ``kept`` runs
    once a copy of the state is written; ``reload`` once an opened file changed the state.
    "save" is done at once (Ctrl+S): what it returns says how that went."""
    if command == "save":
        return save_now(session, palette_key)
    if command == "save_as":
        return write_request(
            "Save state as", STATE_FILE, session.save, "State saved to {path}.", kept=kept
        )
    if command == "export_state":
        write = session.export_state_json
        return write_request(
            "Export state JSON to", STATE_FILE, write, "State exported to {path}.", kept=kept
        )
    if command == "export_report":
        write = session.export_report
        return write_request(
            "Write review report to", "gate-review.md", write, "Review report written to {path}."
        )
    if command == "open_state":
        return open_state(session, reload)
    if command == "copy_state":
        return Copy(session.state_json(), "State JSON copied to the clipboard.")
    return None


def save_now(session: Session, palette_key: str) -> Said:
    """Ctrl+S: rewrite the session's state file now; what to say about it."""
    problem = session.save()
    if problem:
        return Said(problem, title="Not saved", severity="error")
    if session.persistent:
        state_file = session.state_file
        # absolute, as every file message
        where = os.path.abspath(state_file) if state_file is not None else session.name
        return Said(f"State saved to {where}.")
    return Said(
        f"This session is in memory only: use “Save state as…” ({palette_key}) to write a file."
    )


def open_state(session: Session, reload: Callable[[], None]) -> FileCommand:
    """Open state…: a state file parsed as a user edit (the system decides)."""

    def read(path: Path) -> tuple[bool, str | None]:
        before = len(session.timeline)
        error = session.open_state(path)
        return (True, None) if len(session.timeline) != before else (False, error)

    def opened(path: str, _problem: str | None) -> str:
        reload()
        return f"Opened {path}."

    title = "Open state file (parsed as a user edit)"
    return open_request(title, STATE_FILE, read, "state", opened)


# ------------------------------------------------------------------------ quitting


def kept_now(session: Session) -> Kept:
    """Everything of ``session`` up to now is kept (it was attached, or a copy was written)."""
    return (session, len(session.timeline))


def unsaved_changes(session: Session | None, kept: Kept | None) -> int | None:
    """Transitions a quit would lose (None when the session writes every change itself)."""
    if session is None or not (session.read_only or session.persistence_warning is not None):
        return None
    done = kept[1] if kept is not None and kept[0] is session else 0
    return len(session.timeline) - done


def quit_or_ask(
    host: PromptHost,
    session: Session | None,
    kept: Kept | None,
    save_as: Callable[[Callable[[], None]], None],
) -> None:
    """Quit, unless that would lose work: then ask (Save as… / Quit anyway / Cancel)."""
    changes = unsaved_changes(session, kept) or 0
    ask_before_quitting(host, quit_reason(session), changes, save_as)


def quit_reason(session: Session | None) -> str:
    """Why a quit could lose work, in the quit question's words."""
    if session is not None and session.read_only:
        return f"session {session.name} is read-only (another editor has it open)"
    return "this session is in memory only"
