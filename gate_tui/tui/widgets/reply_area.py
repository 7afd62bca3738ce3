"""The reply pane's text area: where a pasted reply replaces an earlier paste, and where
Ctrl+Z / Ctrl+Y reach the app's undo once the pane has no text edit left to undo.

Two rules a plain ``TextArea`` does not have:

* **A paste over a paste replaces it.** While the pane holds exactly what the last paste
  left (nothing typed or deleted since), a new paste replaces the whole text instead of
  being appended: the usual move is "paste the model's next reply", and a preview of two
  replies glued together judges the wrong one. It is one text edit, so Ctrl+Z brings the
  earlier reply back. A pane that was edited takes a paste at the cursor, as usual.
* **Undo falls through.** Ctrl+Z undoes the pane's own text edits while it has some;
  with none left (the pane is empty after Ctrl+J applied a reply, or every edit was
  undone) it undoes the last *transition*, as everywhere else. Ctrl+Y likewise redoes an
  undone text edit first, else the transition. So Ctrl+Z right after applying a reply
  undoes the reply, and the footer shows Undo here too.
"""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea

from gate_tui.tui.keymap import field_binding
from gate_tui.tui.widgets.own_keys import run_own_binding
from gate_tui.tui.widgets.safe_fields import SafeTextArea


class ReplyArea(SafeTextArea):
    """A ``TextArea`` with the paste and undo rules of the module docstring."""

    BINDINGS = [field_binding("undo", "undo"), field_binding("redo", "redo", show=False)]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._after_paste: str | None = None  # the text as the last paste left it

    @property
    def holds_unchanged_paste(self) -> bool:
        """Whether the pane holds exactly what the last paste left."""
        return bool(self.text) and self.text == self._after_paste

    async def _on_key(self, event: events.Key) -> None:
        if await run_own_binding(self, event):  # arrows, Ctrl+Z…: in typing order
            return
        await super()._on_key(event)

    async def _on_paste(self, event: events.Paste) -> None:
        if self.read_only:
            return
        event.stop()
        event.prevent_default()
        start, end = (
            (self.document.start, self.document.end)
            if self.holds_unchanged_paste
            else self.selection
        )
        self.history.checkpoint()  # its own undo step, whatever was typed just before
        result = self._replace_via_keyboard(event.text, start, end)
        if result is not None:
            self.move_cursor(result.end_location)
            self.focus()
        self.history.checkpoint()
        self._after_paste = self.text

    def clear_text(self) -> None:
        """Empty the pane as one text edit (Ctrl+Z brings the text back)."""
        if self.text:
            self.history.checkpoint()
            self.delete(self.document.start, self.document.end)
            self.history.checkpoint()

    def reset(self) -> None:
        """Empty the pane and forget its text history (a reply was applied: Ctrl+Z now
        undoes that reply). Posts no ``Changed``."""
        with self.prevent(TextArea.Changed):
            self.load_text("")
        self._after_paste = None

    async def action_undo(self) -> None:
        if self.history.undo_stack:
            super().action_undo()
        else:
            await self.app.run_action("screen.undo_transition")

    async def action_redo(self) -> None:
        if self.history.redo_stack:
            super().action_redo()
        else:
            await self.app.run_action("screen.redo_transition")
