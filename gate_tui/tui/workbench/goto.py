"""Go to a line of the reply (Ctrl+G in the reply workbench): ``144`` or ``144:31``."""

from __future__ import annotations

import re

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from gate_tui.tui.render import BAD_STYLE, DIM
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.text import line, plain

POSITION = re.compile(r"\s*(\d{1,9})\s*(?:[:.,]\s*(\d{1,9}))?\s*")


def read_position(text: str) -> tuple[int, int] | None:
    """``144`` → (144, 1); ``144:31`` → (144, 31); anything else → None."""
    found = POSITION.fullmatch(text)
    if found is None:
        return None
    return int(found.group(1)), int(found.group(2) or 1)


class GoToLine(CenteredModal[tuple[int, int] | None]):
    """Ask for a line (and column) of the reply; Enter goes there, Esc cancels."""

    DEFAULT_CSS = "GoToLine #goto-box { width: 40; }"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-box", classes="modal-box"):
            yield Static(plain(f"Go to line (1–{self.lines}), or line:column", "bold"))
            yield Input(placeholder="144 or 144:31", id="goto-input")
            yield Static(line(("Enter goes there · Esc cancels", DIM)), id="goto-message")

    @on(Input.Submitted, "#goto-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        position = read_position(event.value)
        if position is None:
            self.query_one("#goto-message", Static).update(line(("✗ ", BAD_STYLE), "a line number, or line:column"))
            return
        self.dismiss(position)

    def action_cancel(self) -> None:
        self.dismiss(None)
