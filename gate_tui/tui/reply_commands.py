"""The gate editor's replies: the reply pane's preview and applying it (Ctrl+J).

The controller (:mod:`gate_tui.tui.controller`) parses and records; the reply pane
(:mod:`gate_tui.tui.widgets.reply_pane`) decides when to preview; this helper the screen
holds (``screen.replies``) turns the controller's outcomes into what the user sees: the
preview, the new decision, the overruled claim, or the errors of a rejected reply (which
stays in the pane).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gate_tui.tui.candidates_view import candidate_rows, next_candidate
from gate_tui.tui.render import WARN_STYLE, overrule_line, verdict
from gate_tui.tui.reply_preview import preview
from gate_tui.tui.text import line, visible

if TYPE_CHECKING:
    from gate_tui.models import ParseResult
    from gate_tui.tui.screens.editor import GateScreen


def cleared_rows(paths: list[str]) -> list[Content]:
    """``⚠ This reply clears 1 answer you typed (2_use_case)``: loud, before the changes."""
    if not paths:
        return []
    count = len(paths)
    names = ", ".join(path.removeprefix("gates.").removesuffix(".raw").removesuffix(".classified") for path in paths)
    return [line(("⚠ This reply clears ", WARN_STYLE), (f"{count} answer{'s' * (count != 1)} you typed", WARN_STYLE), (f" ({names})", "bold"))]


class ReplyCommands:
    """Preview and apply for one editor screen."""

    def __init__(self, screen: GateScreen) -> None:
        self.screen = screen
        self.preview_result: ParseResult | None = None
        self._choice: tuple[str, int] | None = None  # (the reply's text, the candidate picked in it)

    def candidate(self, text: str) -> int | None:
        """The candidate the reviewer picked in ``text`` (None: the parser's own choice; a
        changed text drops the pick)."""
        return self._choice[1] if self._choice is not None and self._choice[0] == text else None

    def preview(self, text: str) -> tuple[Content | None, bool | None]:
        """What applying ``text`` would do (None: the empty-pane hint) and whether it is ok."""
        if self.screen.controller is None:
            return None, None  # not booted yet: the pane previews again once it is
        result = self.screen.controller.preview(text, self.candidate(text))
        choice_before = self.preview_result is not None and len(self.preview_result.candidates) > 1
        self.preview_result = result
        if choice_before != (result is not None and len(result.candidates) > 1):
            self.screen.refresh_bindings()  # the footer names the picker's key only while there is a choice
        return (None, False) if result is None else (self._shown(result), result.ok)

    def _shown(self, result: ParseResult) -> Content:
        keys = self.screen.key_hints
        notes = cleared_rows(self.screen.controller.cleared_typed_answers(result)) if result.ok else []
        return preview(result, keys, self.screen.config, candidate_rows(result, keys["next_candidate"]), notes)

    def next_candidate(self) -> None:
        """Use the reply's next JSON object (the preview lists them)."""
        pane = self.screen.reply()
        result = self.preview_result
        chosen = None if pane is None or result is None else next_candidate(result)
        if pane is None or chosen is None:
            self.screen.notify("The reply holds one JSON object at most: nothing to choose.", markup=False)
            return
        self._choice = (pane.text_area.text, chosen)
        pane.refresh_preview()

    def apply(self) -> None:
        """Apply the reply in the reply pane; a failing reply stays in the pane."""
        screen = self.screen
        screen.commit_pending()
        pane = screen.reply()
        if pane is None:
            return
        text = pane.text_area.text
        outcome = screen.controller.apply_reply(text, self.candidate(text), screen.asking.call_for(text))
        if outcome.kind == "empty":
            screen.notify(f"The reply pane is empty: paste a model reply first ({screen.key_hints['focus_reply']}).", severity="warning", markup=False)
        elif outcome.kind == "rejected":
            assert outcome.result is not None
            self.preview_result = outcome.result
            pane.show_preview(self._shown(outcome.result), ok=False)
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
