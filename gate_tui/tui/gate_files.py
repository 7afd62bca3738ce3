"""The gate editor's file commands: save (Ctrl+S), save as, export state JSON / review
report, open a state file, copy the state to the clipboard, and quitting without losing work.

All of them go through the Session API (which writes atomically and journals what it
did); this object only asks for paths (:func:`gate_tui.tui.file_commands.ask_path`) and
reports the outcome. Ctrl+Q asks first when the session is not writing to disk
(read-only, or in memory only) and something changed since it opened.

The editor screen holds it (``screen.files``) and runs its commands by name
(:meth:`GateFiles.run`); it knows the screen only through :class:`FilesHost` (the
session, the key hints, and the public steps: commit the pending edit, refresh after a
transition, show the session's new notices), so it imports no screen.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from gate_tui.tui.file_commands import ask_before_quitting, ask_path
from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from textual.app import App

    from gate_tui.session.live import Session
    from gate_tui.tui.keymap import KeyHints
    from gate_tui.tui.screens.path_prompt import Attempt


class FilesHost(Protocol):
    """What the file commands need of the editor screen."""

    session: Session
    key_hints: KeyHints

    @property
    def app(self) -> App[Any]: ...

    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", markup: bool = True
    ) -> None: ...

    def commit_pending(self) -> None: ...

    def after_transition(self, *, reload_form: bool) -> None: ...

    def toast_new_notices(self) -> None: ...


class GateFiles:
    """The file commands of one editor screen."""

    def __init__(self, screen: FilesHost) -> None:
        self.screen = screen
        self._kept: tuple[object, int] | None = None

    def run(self, command: str) -> None:
        """A file command by name (the key table's and the palette's ``file('save_as')``)."""
        commands = {
            "save": self.save,
            "save_as": self.save_as,
            "export_state": self.export_state,
            "export_report": self.export_report,
            "open_state": self.open_state,
            "copy_state": self.copy_state,
        }
        run = commands.get(command)
        if run is not None:
            run()

    def save(self) -> None:
        """Ctrl+S: rewrite the session's state file now."""
        screen = self.screen
        screen.commit_pending()
        session = screen.session
        problem = session.save()
        if problem:
            screen.notify(visible(problem), title="Not saved", severity="error", markup=False)
        elif session.persistent:
            state_file = session.state_file
            where = (
                os.path.abspath(state_file) if state_file is not None else session.name
            )  # absolute, as every file message
            screen.notify(visible(f"State saved to {where}."), markup=False)
        else:
            palette = screen.key_hints["command_palette"]
            screen.notify(
                f"This session is in memory only: use “Save state as…” ({palette}) to write a "
                "file.",
                markup=False,
            )
        screen.toast_new_notices()

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        """Ask for a path and write a state file there; ``then`` runs once it is written."""

        def save(path: Path) -> str | None:
            error = self.screen.session.save(path)
            if error is None:
                self.mark_kept()
            return error

        self._ask("Save state as", "gate-state.json", save, "State saved to {path}.", then=then)

    def export_state(self) -> None:
        def export(path: Path) -> str | None:
            error = self.screen.session.export_state_json(path)
            if error is None:
                self.mark_kept()
            return error

        self._ask("Export state JSON to", "gate-state.json", export, "State exported to {path}.")

    def export_report(self) -> None:
        self._ask(
            "Write review report to",
            "gate-review.md",
            self.screen.session.export_report,
            "Review report written to {path}.",
        )

    def open_state(self) -> None:
        before: list[int] = []
        screen = self.screen

        def open_state(path: Path) -> str | None:
            before[:] = [len(screen.session.timeline)]
            return screen.session.open_state(path)

        def opened(path: str) -> str:
            if before and len(screen.session.timeline) == before[0]:
                return f"{path} holds the current state: no change, nothing recorded."
            screen.after_transition(reload_form=True)
            return f"Opened {path}."

        self._ask(
            "Open state file (parsed as a user edit)",
            "gate-state.json",
            open_state,
            opened,
            replaces=False,
        )

    def copy_state(self) -> None:
        self.screen.commit_pending()
        self.screen.app.copy_to_clipboard(self.screen.session.state_json())
        self.screen.notify("State JSON copied to the clipboard.", markup=False)

    def _ask(
        self,
        title: str,
        default: str,
        run: Attempt,
        done: str | Callable[[str], str],
        *,
        replaces: bool = True,
        then: Callable[[], None] | None = None,
    ) -> None:
        self.screen.commit_pending()
        ask_path(
            self.screen,
            title,
            default,
            run,
            done,
            replaces=replaces,
            then=then,
            after=self.screen.toast_new_notices,
        )

    # ------------------------------------------------------------------- quit

    def mark_kept(self) -> None:
        """Everything up to now is kept (the session was attached, or a copy was written)."""
        self._kept = (self.screen.session, len(self.screen.session.timeline))

    def unsaved_changes(self) -> int | None:
        """Transitions a quit would lose (None when the session writes every change itself)."""
        session = self.screen.session
        if session is None or not (session.read_only or session.persistence_warning is not None):
            return None
        kept = self._kept[1] if self._kept is not None and self._kept[0] is session else 0
        return len(session.timeline) - kept

    def quit_or_ask(self) -> None:
        """Quit, unless that would lose work: then ask (Save as… / Quit anyway / Cancel)."""
        session = self.screen.session
        changes = self.unsaved_changes() or 0
        why = (
            f"session {session.name} is read-only (another editor has it open)"
            if session is not None and session.read_only
            else "this session is in memory only"
        )
        ask_before_quitting(self.screen, why, changes, lambda then: self.save_as(then=then))
