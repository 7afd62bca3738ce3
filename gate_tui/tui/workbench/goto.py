"""Go to a line of the reply (Ctrl+G in the reply workbench): ``144`` or ``144:31``."""

from __future__ import annotations

import re

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static, TextArea
from textual.widgets.text_area import Selection

from gate_tui.tui.render import BAD_STYLE, DIM
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.text import line, plain

POSITION = re.compile(r"\s*(\d{1,9})\s*(?:[:.,]\s*(\d{1,9}))?\s*")


def span_at(text: str, start: int) -> int:
    """The length of the span at ``start`` of a line: up to the next space (a run of
    spaces when it starts with one), at least one character."""
    rest = text[start:]
    if rest[:1].isspace():
        return max(1, len(rest) - len(rest.lstrip()))
    return len(rest.split(" ", 1)[0] or " ")


def select_position(area: TextArea, line_no: int, column: int) -> None:
    """Select the span at a 1-based position of ``area``'s text (clamped to it), focus
    the area and bring the span into view."""
    document = area.document
    row = min(max(line_no, 1), document.line_count) - 1
    text = document.get_line(row)
    start = min(max(column, 1) - 1, len(text))
    end = min(start + span_at(text, start), len(text))
    area.selection = Selection((row, start), (row, end))
    area.focus()
    area.scroll_cursor_visible(center=True, animate=False)


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
            self.query_one("#goto-message", Static).update(
                line(("✗ ", BAD_STYLE), "a line number, or line:column")
            )
            return
        self.dismiss(position)

    def action_cancel(self) -> None:
        self.dismiss(None)
