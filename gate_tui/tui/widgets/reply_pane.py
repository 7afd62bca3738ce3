"""The reply pane: a multi-line text area for a model's reply and a live preview of it.

Paste keeps every line (a ``TextArea``, not an ``Input``). The preview shows what
applying the reply would do; it is computed by the app (through ``parse``) and only
displayed here.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static, TextArea

from gate_tui.tui.render import DIM
from gate_tui.tui.text import lines, plain
from gate_tui.tui.widgets.safe_fields import SafeTextArea

EMPTY_HINT = lines([
    plain("Paste a model reply above (F2 focuses it).", DIM),
    plain("The preview shows what applying it would do; Ctrl+J applies it.", DIM),
])


class ReplyPane(Vertical):
    """Reply text area plus its preview."""

    # The editor's rules for this pane, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the pane first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        #reply {
            height: 1fr;
            min-height: 4;
            border: none;
            padding: 0;
        }

        Screen.-wide #reply {
            max-height: 9;
        }

        #preview-scroll {
            height: 1fr;
            border-top: solid $panel-lighten-2;
        }
    """

    BORDER_TITLE = "Model reply · F2 focus · Ctrl+J apply"

    class Ready(Message):
        """Posted once mounted (the pane is mounted lazily, after the first frame)."""

        def __init__(self, pane: ReplyPane) -> None:
            super().__init__()
            self.pane = pane

    def on_mount(self) -> None:
        self.post_message(self.Ready(self))

    def compose(self) -> ComposeResult:
        yield SafeTextArea(id="reply", soft_wrap=True, show_line_numbers=False, tab_behavior="focus")
        with VerticalScroll(id="preview-scroll"):
            yield Static(EMPTY_HINT, id="preview")

    @property
    def text_area(self) -> TextArea:
        return self.query_one("#reply", TextArea)

    def show_preview(self, content: Content | None, ok: bool | None = None) -> None:
        """Show a preview (``None``: the empty-pane hint)."""
        preview = self.query_one("#preview", Static)
        preview.update(EMPTY_HINT if content is None else content)
        preview.set_class(ok is False, "-errors")
        preview.set_class(ok is True, "-ok")

    def clear(self) -> None:
        """Empty the text area without sending a Changed message."""
        with self.prevent(TextArea.Changed):
            self.text_area.text = ""
        self.show_preview(None)
