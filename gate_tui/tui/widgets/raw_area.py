"""The raw answer field: three soft-wrapped lines, so an analyst's sentence stays readable.

A single-line ``Input`` scrolls a long answer sideways; this is a small ``TextArea``
that behaves like the editor's other fields rather than like the reply pane:

* Enter records the edit at once (:class:`RawArea.Submitted`), as in a one-line field;
  it inserts no newline (a pasted text keeps its lines);
* Ctrl+Z / Ctrl+Y undo and redo *state transitions* (the app's ``undo_transition`` /
  ``redo_transition``), not keystrokes: the edit being typed is recorded first and then
  undone, exactly as in the one-line fields. Only the reply pane keeps a text undo.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widgets import TextArea

from gate_tui.tui.widgets.safe_fields import SafeTextArea


class RawArea(SafeTextArea):
    """A gate's ``raw`` answer (see the module docstring for its keys)."""

    DEFAULT_CSS = """
    RawArea {
        height: 3;
        padding: 0;
        & .text-area--cursor-line {
            background: transparent;
        }
    }
    """

    class Submitted(Message):
        """Enter was pressed: record the edit now."""

        def __init__(self, area: RawArea) -> None:
            super().__init__()
            self.area = area

        @property
        def control(self) -> RawArea:
            return self.area

    def __init__(self, *, placeholder: str, **kwargs: object) -> None:
        super().__init__(
            soft_wrap=True,
            show_line_numbers=False,
            tab_behavior="focus",
            compact=True,
            placeholder=Content(placeholder),
            **kwargs,  # type: ignore[arg-type]
        )

    def show(self, text: str) -> None:
        """Show ``text`` with the cursor at its end, posting no ``Changed`` (not a user edit)."""
        if text == self.text:
            return
        with self.prevent(TextArea.Changed):
            self.load_text(text)
        self.move_cursor(self.document.end)

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.post_message(self.Submitted(self))
            return
        await super()._on_key(event)

    async def action_undo(self) -> None:
        await self.app.run_action("undo_transition")

    async def action_redo(self) -> None:
        await self.app.run_action("redo_transition")
