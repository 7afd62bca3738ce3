"""A ``TextArea`` that never draws a control, bidi or zero-width character for the terminal.

Textual's ``TextArea`` hands each line of its document to the terminal as it is, so a
pasted reply holding ``ESC[2J`` cleared the screen and ``U+202E`` reordered what the
reviewer read. The document (what is parsed and stored) keeps the exact text; only the
drawn line is translated, one character for one (:func:`gate_tui.safe_text.one_for_one`),
so the cursor and the selection still land on the characters they belong to.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import TextArea

from gate_tui.safe_text import one_for_one


class SafeTextArea(TextArea):
    """A ``TextArea`` whose drawn lines show untrusted characters as visible symbols."""

    def get_line(self, line_index: int) -> Text:
        # As TextArea.get_line, from the document itself: rich's Text would silently drop
        # BEL, BS, VT, FF and CR, so the drawn line would be shorter than the document's.
        # One character for one keeps the cursor and the selection in their places.
        return Text(one_for_one(self.document.get_line(line_index)), end="", no_wrap=True)
