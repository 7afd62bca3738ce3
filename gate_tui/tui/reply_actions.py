"""Replies in the editor: the live preview of the reply pane and applying it (Ctrl+J).

The controller (:mod:`gate_tui.tui.controller`) parses and records; this base class of
:class:`gate_tui.tui.app.GateApp` only schedules the preview while the user types or
pastes, and shows what applying did: the new decision, the overruled claim, or the
errors of a rejected reply (which stays in the pane).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate_tui.tui.boot import BootApp
from gate_tui.tui.render import overrule_line, preview, verdict
from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from gate_tui.models import ParseResult
    from gate_tui.tui.widgets.reply_pane import ReplyPane


class ReplyActions(BootApp):
    """The reply pane's preview and apply."""

    def on_reply_pane_ready(self, event: ReplyPane.Ready) -> None:
        if event.pane.is_attached:
            if not self.blink:
                self.stop_blinking(event.pane)
            self.schedule_preview(now=True)

    def schedule_preview(self, now: bool = False) -> None:
        """Re-run the reply preview after a short pause in typing (or at once)."""
        if self._preview_timer is not None:
            self._preview_timer.stop()
        if now:
            self.update_preview()
        else:
            self._preview_timer = self.set_timer(self.PREVIEW_DELAY, self.update_preview)

    def update_preview(self) -> None:
        """Parse the reply pane's text against the current state and show what it would do."""
        if self._reply() is None:
            return
        result = self.controller.preview(self.reply_pane.text_area.text)
        self.preview_result = result
        self.reply_pane.show_preview(None if result is None else preview(result, self.key_hints), ok=result is not None and result.ok)

    def action_apply_reply(self) -> None:
        """Apply the reply in the reply pane; a failing reply stays in the pane."""
        self.commit_pending()
        if self._reply() is None:
            return
        text = self.reply_pane.text_area.text
        outcome = self.controller.apply_reply(text, self.asking.call_for(text))
        if outcome.kind == "empty":
            self.notify(f"The reply pane is empty: paste a model reply first ({self.key_hints['focus_reply']}).", severity="warning", markup=False)
        elif outcome.kind == "rejected":
            assert outcome.result is not None
            self._show_rejected_reply(outcome.result)
        elif outcome.kind == "error":
            self.notify(visible(outcome.error or ""), title="Session error", severity="error", markup=False)
            self.show_current()
        else:
            assert outcome.result is not None
            self.reply_pane.clear()
            self.after_transition(reload_form=True)
            self.gate_editor.clear_messages()
            self._notify_applied(outcome.result)

    def action_clear_reply(self) -> None:
        """Empty the reply pane as one text edit (Ctrl+Z in the pane brings it back)."""
        if self._reply() is None:
            return
        area = self.reply_pane.text_area
        if not area.text:
            self.notify("The reply pane is empty already.", markup=False)
            return
        area.clear_text()
        self.notify(f"Reply pane cleared ({self.key_hints['undo']} in the pane brings the text back).", markup=False)

    def _show_rejected_reply(self, result: ParseResult) -> None:
        self.preview_result = result
        self.reply_pane.show_preview(preview(result, self.key_hints), ok=False)
        # One line: the preview lists every error; a long toast would hide the decision panel.
        count = len(result.errors)
        message = f"{count} error{'s' * (count != 1)}, see the preview"
        self.notify(message, title="Reply rejected", severity="error", markup=False)

    def _notify_applied(self, result: ParseResult) -> None:
        assert result.decision is not None
        # Short: the decision panel shows the reason and the overrule in full.
        message = f"Decision: {verdict(result.decision)}"
        overruled = overrule_line(result.claimed_status, result.decision)
        if overruled is not None:
            message += " (the model's claim was overruled)"
        self.notify(message, title="Reply applied", markup=False)
