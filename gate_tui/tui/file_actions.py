"""The editor's file commands: save (Ctrl+S), save as, export state JSON / review report,
open a state file, copy the state to the clipboard, and quitting without losing work.

All of them go through the Session API (which writes atomically and journals what it
did); this mixin only asks for paths (:mod:`gate_tui.tui.screens.path_prompt`) and reports
the outcome, literally (``markup=False``). Ctrl+Q asks first when the session is not
writing to disk (read-only, or in memory only) and something changed since it opened.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gate_tui.tui.keymap import KeyHints
from gate_tui.tui.text import visible
from gate_tui.tui.toasts import ToastApp

if TYPE_CHECKING:
    from gate_tui.session.live import Session
    from gate_tui.tui.screens.path_prompt import Attempt


class FileActions(ToastApp):
    """The base of :class:`gate_tui.tui.app.GateApp`: its file commands.

    The app provides the session and three steps of its own: commit the pending edit,
    refresh after a transition, and show the session's new notices.
    """

    session: Session
    key_hints: KeyHints  # the keys as the config's keymap bound them (GateApp sets it)

    def commit_pending(self) -> None:
        raise NotImplementedError  # GateApp's

    def after_transition(self, *, reload_form: bool) -> None:
        raise NotImplementedError  # GateApp's

    def _toast_new_notices(self) -> None:
        raise NotImplementedError  # GateApp's

    def action_save_state(self) -> None:
        """Ctrl+S: rewrite the session's state file now."""
        self.commit_pending()
        problem = self.session.save()
        if problem:
            self.notify(visible(problem), title="Not saved", severity="error", markup=False)
        elif self.session.persistent:
            state_file = self.session.state_file
            where = os.path.abspath(state_file) if state_file is not None else self.session.name  # absolute, as every file message
            self.notify(visible(f"State saved to {where}."), markup=False)
        else:
            palette = self.key_hints["command_palette"]
            self.notify(f"This session is in memory only: use “Save state as…” ({palette}) to write a file.", markup=False)
        self._toast_new_notices()

    def action_save_state_as(self) -> None:
        self.save_as()

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        """Ask for a path and write a state file there; ``then`` runs once it is written."""

        def save(path: Path) -> str | None:
            error = self.session.save(path)
            if error is None:
                self.mark_kept()
            return error

        self._ask("Save state as", "gate-state.json", save, "State saved to {path}.", then=then)

    def action_export_state(self) -> None:
        def export(path: Path) -> str | None:
            error = self.session.export_state_json(path)
            if error is None:
                self.mark_kept()
            return error

        self._ask("Export state JSON to", "gate-state.json", export, "State exported to {path}.")

    def action_export_report(self) -> None:
        self._ask("Write review report to", "gate-review.md", self.session.export_report, "Review report written to {path}.")

    def action_open_state(self) -> None:
        before: list[int] = []

        def open_state(path: Path) -> str | None:
            before[:] = [len(self.session.timeline)]
            return self.session.open_state(path)

        def opened(path: str) -> str:
            if before and len(self.session.timeline) == before[0]:
                return f"{path} holds the current state: no change, nothing recorded."
            self.after_transition(reload_form=True)
            return f"Opened {path}."

        self._ask("Open state file (parsed as a user edit)", "gate-state.json", open_state, opened, replaces=False)

    def action_copy_state(self) -> None:
        self.commit_pending()
        self.copy_to_clipboard(self.session.state_json())
        self.notify("State JSON copied to the clipboard.", markup=False)

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
        """Ask for a path and run ``run(path)`` in the prompt (which stays open on an error);
        once it worked, say ``done`` with the absolute path (and run ``then``)."""
        from gate_tui.tui.screens.path_prompt import PathScreen  # not needed before the first frame

        self.commit_pending()

        def chosen(path: str | None) -> None:
            self._toast_new_notices()
            if path is None:
                return
            self.notify(visible(done(path) if callable(done) else done.format(path=path)), markup=False)
            if then is not None:
                then()

        self.push_screen(PathScreen(title, default, run, replaces=replaces), callback=chosen)

    # ------------------------------------------------------------------- quit

    _kept: tuple[object, int] | None = None

    def mark_kept(self) -> None:
        """Everything up to now is kept (the session was attached, or a copy was written)."""
        self._kept = (self.session, len(self.session.timeline))

    def unsaved_changes(self) -> int | None:
        """Transitions a quit would lose (None when the session writes every change itself)."""
        session = self.session
        if session is None or not (session.read_only or session.persistence_warning is not None):
            return None
        kept = self._kept[1] if self._kept is not None and self._kept[0] is session else 0
        return len(session.timeline) - kept

    def quit_or_ask(self) -> None:
        """Quit, unless that would lose work: then ask (Save as… / Quit anyway / Cancel)."""
        from gate_tui.tui.screens.quit_prompt import QuitScreen

        if isinstance(self.screen, QuitScreen):
            return  # already asking: a second Ctrl+Q must not throw the work away
        changes = self.unsaved_changes()
        if not changes:
            self.exit(0)
            return
        why = f"session {self.session.name} is read-only (another editor has it open)" if self.session.read_only else "this session is in memory only"

        def answered(choice: str | None) -> None:
            if choice == "quit":
                self.exit(0)
            elif choice == "save":
                self.save_as(then=lambda: self.exit(0))

        self.push_screen(QuitScreen(why, changes), callback=answered)
