"""A small modal asking for a file path (Save state as…, Export state JSON, Export report)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from gate_tui.tui.render import DIM
from gate_tui.tui.text import line, plain


class PathScreen(ModalScreen[str | None]):
    """Ask for a path; Enter confirms, Esc cancels (dismisses with None)."""

    # The editor's rules for this screen, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the screen first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        PathScreen {
            align: center middle;
        }

        #path-box {
            width: 64;
            height: auto;
            border: round $accent;
            padding: 1 2;
            background: $surface;
        }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="path_cancel")]

    def __init__(self, title: str, default: str) -> None:
        super().__init__()
        self.title_text = title
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="path-box"):
            yield Static(plain(self.title_text, "bold"))
            yield Input(value=self.default, id="path-input")
            yield Static(line(("Enter to confirm · Esc to cancel", DIM)))

    def on_mount(self) -> None:
        self.query_one("#path-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
