"""The gate editor's live edit: each keystroke parsed at once, recorded when the user pauses.

Typing is live but not noisy: each change of a field is parsed at once (the controller's
:meth:`~gate_tui.tui.controller.EditController.edit`) and the decision panel shows that
result marked "editing"; the edit is recorded as *one* transition when the user pauses
(:attr:`GateScreen.EDIT_COMMIT_DELAY <gate_tui.tui.screens.editor.GateScreen>`), presses
Enter, leaves the field or runs any other command (save, undo, apply, quit, another gate).

A helper the screen holds (``screen.live``), not a base class: it owns the pause timer
and renders each outcome through the screen's public display steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.timer import Timer

from gate_tui.tui.form import SUMMARY, FieldRef
from gate_tui.tui.render import DIM, field_messages
from gate_tui.tui.text import line, visible
from gate_tui.tui.widgets.raw_area import RawArea

if TYPE_CHECKING:
    from gate_tui.models import ParseResult
    from gate_tui.tui.controller import Commit
    from gate_tui.tui.screens.editor import GateScreen


class LiveEdit:
    """The pending edit of one editor screen: shown now, recorded on pause."""

    def __init__(self, screen: GateScreen) -> None:
        self.screen = screen
        self._timer: Timer | None = None

    def edit(self, field: FieldRef, value: str | None) -> None:
        """Parse one field's new value as a user patch and show the result live."""
        screen = self.screen
        committed, pending = screen.controller.edit(field, value)
        self.show_commit(committed)
        result = pending.result
        self.show_field_messages(field, result)
        if self._timer is not None:
            self._timer.stop()
        self._timer = screen.set_timer(screen.EDIT_COMMIT_DELAY, self.commit)
        if result.ok and result.canonical_state is not None and result.decision is not None:
            marker = line(("✎ editing ", DIM), (field.path, "bold"), (" — recorded when you pause or press Enter", DIM))
            screen.show_view(result.canonical_state.gates, result.decision, [marker])
        else:
            screen.show_current()

    def show_field_messages(self, field: FieldRef, result: ParseResult) -> None:
        content = field_messages(result.errors, result.warnings, field.path)
        if field == SUMMARY:
            self.screen.summary_editor.show_messages(content)
        else:
            self.screen.gate_editor.show_messages(field, content)

    def commit(self) -> None:
        """Record the pending edit (the controller decides how) and show what happened."""
        booted = self.screen.session is not None
        if booted:
            self.take_unreported_typing()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if booted:
            self.show_commit(self.screen.controller.commit())

    def take_unreported_typing(self) -> None:
        """Raw typing whose message is still on its way becomes the pending edit now, so
        what is recorded, and the gate asked next, include it."""
        found = self.screen.query("#raw")
        typed = found.first(RawArea).unreported() if found else None
        if typed is not None:
            key, text = typed
            self.edit(FieldRef("raw", key), text)

    def show_commit(self, commit: Commit) -> None:
        """Render a commit's outcome: a new transition, an unchanged state or a session error."""
        screen = self.screen
        if commit.kind == "accepted":
            screen.after_transition(reload_form=False)
        elif commit.kind == "unchanged":
            screen.show_current()
        elif commit.kind == "error":
            screen.notify(visible(commit.error or ""), title="Session error", severity="error", markup=False)
            screen.show_current()
