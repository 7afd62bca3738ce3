"""The gate editor's replies: the reply pane's preview and applying it (Ctrl+J).

The controller (:mod:`gate_tui.tui.controller`) parses and records; the reply pane
(:mod:`gate_tui.tui.widgets.reply_pane`) decides when to preview; this helper the screen
holds (``screen.replies``) turns the controller's outcomes into what the user sees: the
preview, the new decision, the overruled claim, or the errors of a rejected reply (which
stays in the pane).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate_tui.tui.render import overrule_line, preview, verdict
from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from textual.content import Content

    from gate_tui.models import ParseResult
    from gate_tui.tui.screens.editor import GateScreen


class ReplyCommands:
    """Preview and apply for one editor screen."""

    def __init__(self, screen: GateScreen) -> None:
        self.screen = screen
        self.preview_result: ParseResult | None = None

    def preview(self, text: str) -> tuple[Content | None, bool | None]:
        """What applying ``text`` would do (None: the empty-pane hint) and whether it is ok."""
        if self.screen.controller is None:
            return None, None  # not booted yet: the pane previews again once it is
        result = self.screen.controller.preview(text)
        self.preview_result = result
        return (None, False) if result is None else (preview(result, self.screen.key_hints), result.ok)

    def apply(self) -> None:
        """Apply the reply in the reply pane; a failing reply stays in the pane."""
        screen = self.screen
        screen.commit_pending()
        pane = screen.reply()
        if pane is None:
            return
        text = pane.text_area.text
        outcome = screen.controller.apply_reply(text, screen.asking.call_for(text))
        if outcome.kind == "empty":
            screen.notify(f"The reply pane is empty: paste a model reply first ({screen.key_hints['focus_reply']}).", severity="warning", markup=False)
        elif outcome.kind == "rejected":
            assert outcome.result is not None
            self.preview_result = outcome.result
            pane.show_preview(preview(outcome.result, screen.key_hints), ok=False)
            # One line: the preview lists every error; a long toast would hide the decision panel.
            count = len(outcome.result.errors)
            screen.notify(f"{count} error{'s' * (count != 1)}, see the preview", title="Reply rejected", severity="error", markup=False)
        elif outcome.kind == "error":
            screen.notify(visible(outcome.error or ""), title="Session error", severity="error", markup=False)
            screen.show_current()
        else:
            assert outcome.result is not None and outcome.result.decision is not None
            pane.clear()
            screen.after_transition(reload_form=True)
            screen.gate_editor.clear_messages()
            # Short: the decision panel shows the reason and the overrule in full.
            overruled = overrule_line(outcome.result.claimed_status, outcome.result.decision) is not None
            message = f"Decision: {verdict(outcome.result.decision)}" + (" (the model's claim was overruled)" if overruled else "")
            screen.notify(message, title="Reply applied", markup=False)
