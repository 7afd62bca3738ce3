"""The editor's file commands: save (Ctrl+S), save as, export state JSON / review report,
open a state file, copy the state to the clipboard.

All of them go through the Session API (which writes atomically and journals what it
did); this mixin only asks for paths and reports the outcome, literally (``markup=False``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App

from gate_tui.tui.keymap import KeyHints
from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from gate_tui.session.live import Session


class FileActions(App[int]):
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
            where = self.session.state_file or self.session.name
            self.notify(visible(f"State saved to {where}."), markup=False)
        else:
            palette = self.key_hints["command_palette"]
            self.notify(f"This session is in memory only: use “Save state as…” ({palette}) to write a file.", markup=False)
        self._toast_new_notices()

    def action_save_state_as(self) -> None:
        self._ask("Save state as", "gate-state.json", lambda path: self.session.save(path), "State saved to {path}.")

    def action_export_state(self) -> None:
        self._ask("Export state JSON to", "gate-state.json", self.session.export_state_json, "State exported to {path}.")

    def action_export_report(self) -> None:
        self._ask("Write review report to", "gate-review.md", self.session.export_report, "Review report written to {path}.")

    def action_open_state(self) -> None:
        def open_state(path: Path) -> str | None:
            problem = self.session.open_state(path)
            self.after_transition(reload_form=True)
            return problem

        self._ask("Open state file (parsed as a user edit)", "gate-state.json", open_state, "Opened {path}.")

    def action_copy_state(self) -> None:
        self.commit_pending()
        self.copy_to_clipboard(self.session.state_json())
        self.notify("State JSON copied to the clipboard.", markup=False)

    def _ask(self, title: str, default: str, run: Any, done: str) -> None:
        """Ask for a path, run ``run(path)`` (→ error or None) and report the outcome."""
        from gate_tui.tui.screens.path_prompt import PathScreen  # not needed before the first frame

        self.commit_pending()

        def chosen(answer: str | None) -> None:
            if answer:
                self._report(run(Path(answer)), done.format(path=answer))

        self.push_screen(PathScreen(title, default), callback=chosen)

    def _report(self, problem: str | None, done: str) -> None:
        if problem:
            self.notify(visible(problem), title="Failed", severity="error", markup=False)
        else:
            self.notify(visible(done), markup=False)
        self._toast_new_notices()
