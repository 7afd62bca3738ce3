"""The raw answer field: three soft-wrapped lines, so an analyst's sentence stays readable.

A single-line ``Input`` scrolls a long answer sideways; this is a small ``TextArea``
that behaves like the editor's other fields rather than like the reply pane:

* Enter records the edit at once (:class:`RawArea.Submitted`), as in a one-line field;
  Ctrl+N (or Shift+Enter, where the terminal tells it from Enter) starts a new line, so a
  multi-line answer can be typed; a pasted text keeps its lines. Ctrl+N because every
  terminal delivers it, while Shift+Enter and Alt+Enter arrive as a plain Enter in most;
* an edit is reported as :class:`RawArea.Edited`, carrying the gate the field showed and
  its text *at the moment of the edit* (not ``TextArea.Changed``, read when it arrives):
  keys come in bursts, and F3 may move the field to another gate before the message of
  the last keystroke reaches the app — the answer must still land, whole, in its gate;
* Ctrl+Z / Ctrl+Y undo and redo *state transitions* (the app's ``undo_transition`` /
  ``redo_transition``), not keystrokes: the edit being typed is recorded first and then
  undone, exactly as in the one-line fields. Only the reply pane keeps a text undo.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.document._edit import Edit, EditResult
from textual.message import Message
from textual.widgets import TextArea

from gate_tui.tui.keymap import field_binding
from gate_tui.tui.widgets.own_keys import run_own_binding
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

    # Under the keymap's ids: the footer shows Undo here too, and rebinding moves them. The
    # line-break key is named in the field's placeholder and in help, not in the footer:
    # at 80 columns it would push Save off the footer.
    BINDINGS = [
        field_binding("undo", "undo"),
        field_binding("redo", "redo", show=False),
        field_binding("raw_newline", "newline", show=False),
    ]

    class Submitted(Message):
        """Enter was pressed: record the edit now."""

        def __init__(self, area: RawArea) -> None:
            super().__init__()
            self.area = area

        @property
        def control(self) -> RawArea:
            return self.area

    class Edited(Message):
        """The user changed the text of gate ``key``'s answer to ``text``."""

        def __init__(self, area: RawArea, key: str | None, text: str, seq: int) -> None:
            super().__init__()
            self.area = area
            self.key = key
            self.text = text
            self.seq = seq  # the edit's number: see RawArea.claim

        @property
        def control(self) -> RawArea:
            return self.area

    gate_key: str | None = None
    """The gate whose answer the field shows (set by :meth:`show`)."""
    _edits = 0  # edits made so far
    _reported = 0  # the last edit the app has taken (from a message or from unreported())

    def __init__(self, *, placeholder: str, **kwargs: object) -> None:
        super().__init__(
            soft_wrap=True,
            show_line_numbers=False,
            tab_behavior="focus",
            compact=True,
            placeholder=Content(placeholder),
            **kwargs,  # type: ignore[arg-type]
        )
        # TextArea's F6 (select the line) is the editor's Ask here (a priority key): left in,
        # it only put "f6 Ask" first in the footer, pushing Save off a 60-column one now
        # that this field has the focus at start (#28).
        self._bindings.key_to_bindings.pop("f6", None)

    def show(self, text: str, key: str | None = None) -> None:
        """Show gate ``key``'s ``text`` with the cursor at its end, posting nothing (not a user
        edit)."""
        self.gate_key = key
        if text == self.text:
            return
        with self.prevent(TextArea.Changed):
            self.load_text(text)
        self.move_cursor(self.document.end)

    def edit(self, edit: Edit) -> EditResult:
        """Every change of the text goes through here: report it with its gate, now."""
        with self.prevent(TextArea.Changed):
            result = super().edit(edit)
        self._edits += 1
        self.post_message(self.Edited(self, self.gate_key, self.text, self._edits))
        return result

    def claim(self, seq: int) -> bool:
        """Whether edit ``seq`` is news to the app (older ones were taken by
        :meth:`unreported` already, and must not bring a shorter text back)."""
        if seq <= self._reported:
            return False
        self._reported = seq
        return True

    def unreported(self) -> tuple[str, str] | None:
        """(gate, text) when an edit's message has not reached the app yet; it counts as
        reported from now on. The app calls this before it records or moves anywhere."""
        if self._reported >= self._edits or self.gate_key is None:
            return None
        self._reported = self._edits
        return self.gate_key, self.text

    async def _on_key(self, event: events.Key) -> None:
        if await run_own_binding(self, event):  # Ctrl+N, arrows…: in typing order
            return
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.post_message(self.Submitted(self))
            return
        await super()._on_key(event)

    def action_newline(self) -> None:
        """Insert a line break at the cursor (replacing a selection)."""
        result = self._replace_via_keyboard("\n", *self.selection)
        if result is not None:
            self.move_cursor(result.end_location)

    async def action_undo(self) -> None:
        await self.app.run_action("screen.undo_transition")

    async def action_redo(self) -> None:
        await self.app.run_action("screen.redo_transition")
