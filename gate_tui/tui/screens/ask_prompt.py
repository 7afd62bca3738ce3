"""The "Ask the model" message box: the analyst's words, sent with the session's context.

A multi-line field (an answer may be pasted from elsewhere): Enter sends, as in every
chat box; Shift+Enter or Ctrl+J adds a line; Esc closes without sending. The box says which model
and endpoint will be asked and whether auto-retry is on, so nothing leaves the machine by surprise.
It dismisses with the message text; the screen that opened it does the asking.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from gate_tui.tui.key_order import settle
from gate_tui.tui.render import BAD_STYLE, DIM
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.text import line, plain
from gate_tui.tui.widgets.safe_fields import SafeTextArea


class AskScreen(CenteredModal[str | None]):
    """Type a message for the model; Enter sends, Esc cancels (dismisses with None)."""

    SCOPED_CSS = False
    DEFAULT_CSS = """

        #ask-box {
            width: 72;
        }

        #ask-input {
            height: 6;
        }
    """

    BINDINGS = [
        Binding("enter", "send", "Send", id="ask_send", priority=True),
        Binding("shift+enter,ctrl+j", "newline", "New line", id="ask_newline", priority=True),
        Binding("escape", "cancel", "Cancel", id="ask_cancel"),
    ]

    def __init__(self, target: str, auto_retry: str, default: str = "") -> None:
        super().__init__()
        self.target = target
        self.auto_retry = auto_retry
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-box", classes="modal-box"):
            yield Static(plain("Ask the model", "bold"))
            yield Static(line(("To ", DIM), self.target), id="ask-target")
            yield SafeTextArea(
                self.default,
                id="ask-input",
                soft_wrap=True,
                show_line_numbers=False,
                tab_behavior="focus",
            )
            yield Static(id="ask-message")
            yield Static(
                line(
                    (
                        "Enter sends · Shift+Enter or Ctrl+J new line · Esc cancels · "
                        f"{self.auto_retry}",
                        DIM,
                    )
                ),
                id="ask-keys",
            )

    def on_mount(self) -> None:
        area = self.query_one("#ask-input", SafeTextArea)
        area.focus()
        area.move_cursor(area.document.end)

    async def action_send(self) -> None:
        # Enter is a priority key: it runs as it arrives, while keys typed just before it
        # (a terminal delivers a burst at once) may still wait in the field's queue.
        area = self.query_one("#ask-input", SafeTextArea)
        await settle(area)
        text = area.text
        if not text.strip():
            self.query_one("#ask-message", Static).update(
                line(("✗ ", BAD_STYLE), "Type your answer or question first (or Esc).")
            )
            return
        self.dismiss(text)

    def action_newline(self) -> None:
        self.query_one("#ask-input", SafeTextArea).insert("\n")

    def action_cancel(self) -> None:
        self.dismiss(None)
