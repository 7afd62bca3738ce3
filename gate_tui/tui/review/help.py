"""The review screen's help (F1): every key of its key table, with what it does."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from gate_tui.tui.review.keys import FOOTER_ACTIONS

KEY_NAMES = {"slash": "/", "escape": "Esc", "f1": "F1", "ctrl+l": "Ctrl+L"}


def help_table() -> Table:
    """The keys as a two-column table (key, what it does)."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for keys, _action, _name, help_ in FOOTER_ACTIONS:
        shown = ", ".join(KEY_NAMES.get(key, key) for key in keys.split(","))
        table.add_row(shown, help_)
    table.add_row("Enter", "Open the reply under the cursor")
    table.add_row("Tab", "Move between the filters and the table")
    return table


class ReviewHelp(ModalScreen[None]):
    """The review keys; dismissed with Esc, F1 or q."""

    DEFAULT_CSS = """
        ReviewHelp { align: center middle; }
        #review-help {
            width: 90%; max-width: 90; height: 80%;
            border: round $accent; padding: 0 1; background: $surface;
        }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-help"):
            yield Static(Content.styled("gate-tui review: keys", "bold"))
            yield Static(help_table(), id="review-help-text")

    def action_close(self) -> None:
        self.dismiss(None)
