"""The review screen's help (F1): every key of its key table, drawn by the one help
renderer (:mod:`gate_tui.tui.help_render`) in the one modal base."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from gate_tui.tui.help_render import grid, heading, key_rows
from gate_tui.tui.keymap import key_display
from gate_tui.tui.render import DIM
from gate_tui.tui.review.keys import SCREEN_ACTIONS
from gate_tui.tui.screens.modal import CenteredModal

EXTRA_KEYS = (
    ("Enter", "Open the reply under the cursor"),
    ("Tab", "Move between the filters and the table"),
)


def shown(keys: str) -> str:
    """``slash`` → ``/``; a letter stays as typed ("a", not "A", which reads as Shift+A)."""
    return key_display(keys).replace("Slash", "/") if len(keys) > 1 else keys


def help_renderable() -> RenderableType:
    """The keys (from the key table), then the two the table widgets give."""
    rows = key_rows(SCREEN_ACTIONS, lambda action: shown(action.keys))
    rows += [(Text(key, style="bold"), Text(what)) for key, what in EXTRA_KEYS]
    closing = Text("Esc or F1 closes this screen.", style=DIM)
    return Group(heading("Keys"), grid(rows), Text(""), closing)


class ReviewHelp(CenteredModal[None]):
    """The review keys; dismissed with Esc, F1 or q."""

    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close", id="review_help_close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-help", classes="modal-box -tall"):
            yield Static(Content.styled("gate-tui review: keys", "bold"))
            yield Static(help_renderable(), id="review-help-text")
