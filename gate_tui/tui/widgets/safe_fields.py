"""Text fields that never draw a control, bidi or zero-width character for the terminal.

Textual's ``TextArea`` and ``Input`` hand their text to the terminal as it is, so a pasted
reply holding ``ESC[2J`` cleared the screen and ``U+202E`` reordered what the reviewer
read. What the field holds (what is parsed and stored) keeps the exact text; only what is
drawn is translated, one character for one (:func:`gate_tui.safe_text.one_for_one`), so
the cursor and the selection still land on the characters they belong to.
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Input, TextArea
from textual.widgets.text_area import Selection

from gate_tui.safe_text import one_for_one


class SafeTextArea(TextArea):
    """A ``TextArea`` whose drawn lines show untrusted characters as visible symbols.

    Select all is Ctrl+A here (Home goes to the line's start): TextArea's own F7 is the
    editors' "ask the model again", and a key means one thing."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]

    def get_line(self, line_index: int) -> Text:
        # As TextArea.get_line, from the document itself: rich's Text would silently drop
        # BEL, BS, VT, FF and CR, so the drawn line would be shorter than the document's.
        return Text(one_for_one(self.document.get_line(line_index)), end="", no_wrap=True)

    # Textual 8.2.8 refreshes the size (scrolling to the cursor) in the middle of an undo or
    # redo, before it restores the selection: a cursor left past the new end of a shrunken
    # text raises ValueError ("line index … out of bounds") — Ctrl+Z after pasting a reply
    # taller than a 60x20 pane did. The start of the text exists in every version of it, so
    # the cursor waits there; the edit then puts the selection where it belongs.
    def undo(self) -> None:
        if self.history.undo_stack:
            self.selection = Selection.cursor((0, 0))
        super().undo()

    def redo(self) -> None:
        if self.history.redo_stack:
            self.selection = Selection.cursor((0, 0))
        super().redo()


class SafeInput(Input):
    """An ``Input`` whose drawn value shows untrusted characters as visible symbols."""

    @property
    def _value(self) -> Text:  # Input draws (and measures) its value through this property
        if self.password:
            return super()._value
        text = Text(one_for_one(self.value), no_wrap=True, overflow="ignore", end="")
        return self.highlighter(text) if self.highlighter is not None else text
