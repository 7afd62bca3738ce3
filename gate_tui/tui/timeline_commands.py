"""The gate editor's moves through the session's timeline: undo, redo, a jump back to a
timeline row, and the user's override of the decision (a ``status`` patch the parser judges).

Every move commits the pending edit first and is itself a new, undoable transition (the
controller's rules); this helper the screen holds (``screen.timeline``) shows the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gate_tui.tui.render import number
from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from gate_tui.session.history import Transition
    from gate_tui.tui.screens.editor import GateScreen


class TimelineCommands:
    """Undo, redo, jump and override for one editor screen."""

    def __init__(self, screen: GateScreen) -> None:
        self.screen = screen

    def undo(self) -> None:
        self._step(self.screen.controller.undo, "Nothing to undo.")

    def redo(self) -> None:
        self._step(self.screen.controller.redo, "Nothing to redo.")

    def _step(self, move: Callable[[], Transition | None], nothing: str) -> None:
        screen = self.screen
        screen.commit_pending()
        if move() is None:
            screen.notify(nothing, markup=False)
            return
        screen.gate_editor.clear_messages()
        screen.after_transition(reload_form=True)

    def jump_to(self, index: int) -> None:
        """Enter on a timeline row restores the state after it (a new, undoable transition)."""
        screen = self.screen
        screen.commit_pending()
        if screen.controller.jump_to(index) is None:
            return
        screen.gate_editor.clear_messages()
        screen.after_transition(reload_form=True)
        screen.notify(f"Restored the state after {number(index)} ({screen.key_hints['undo']} undoes this).", markup=False)

    def override(self, choice: str) -> None:
        """A user override of the decision: a ``status`` patch that the parser judges."""
        screen = self.screen
        screen.commit_pending()
        outcome = screen.controller.override(choice)
        assert outcome.result is not None
        if outcome.kind == "rejected":
            screen.notify(visible(outcome.result.errors[0].message), title="Override refused", severity="error", markup=False)
        else:
            screen.live.show_commit(outcome)
        for warning in outcome.result.warnings:
            screen.notify(visible(warning.message), severity="warning", markup=False)
