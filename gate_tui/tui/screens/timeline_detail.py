"""One timeline row in full (``o`` or Space on the timeline), without restoring it.

The text is the review report's for that row (:func:`gate_tui.session.timeline_rows.detail_text`):
every changed field before and after, a rejected attempt's errors, a model call's message
and reply. It is shown in a read-only ``TextArea``: data, never markup, scrollable and
selectable (Ctrl+C copies), however long.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static, TextArea

from gate_tui.tui.render import DIM
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.text import line, plain


class RowDetail(CenteredModal[None]):
    """The full before/after (or errors, or message and reply) of one timeline row."""

    DEFAULT_CSS = "RowDetail #row-detail-text { height: 1fr; }"
    BINDINGS = [
        Binding("escape,o,q", "close", "Close"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="row-detail", classes="modal-box -tall"):
            yield Static(plain("Timeline row in full (nothing is restored)", "bold"))
            yield TextArea(
                self.text, read_only=True, soft_wrap=True, id="row-detail-text"
            )
            yield Static(line(("Esc or o closes · Enter on a state row restores it", DIM)))

    def on_mount(self) -> None:
        self.query_one("#row-detail-text", TextArea).focus()

    def action_close(self) -> None:
        self.dismiss(None)
