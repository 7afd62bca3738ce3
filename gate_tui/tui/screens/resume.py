"""The resume question shown at start-up when an unfinished session exists for the config.

"Resume session X (n transitions, NO PASS)? [Resume] [Start fresh]", Resume being the
default (Enter). Dismisses with True to resume, False to start fresh.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from gate_tui.session.catalog import SessionInfo
from gate_tui.tui.text import line


class ResumeScreen(ModalScreen[bool]):
    """Ask whether to resume ``info``; Enter resumes, Esc starts fresh."""

    # The editor's rules for this screen, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the screen first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        ResumeScreen {
            align: center middle;
        }

        #resume-box {
            width: 64;
            height: auto;
            border: round $accent;
            padding: 1 2;
            background: $surface;
        }

        #resume-buttons {
            height: auto;
            margin-top: 1;
        }

        #resume-buttons Button {
            margin-right: 2;
        }
    """

    BINDINGS = [Binding("escape", "fresh", "Start fresh", id="resume_fresh")]

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        info = self.info
        with Vertical(id="resume-box"):
            yield Static(line(("Resume session ", "bold"), (info.name, "bold $accent"), ("?", "bold")))
            yield Static(line(f"{info.transitions} transitions · {info.decision} · started {info.started}"))
            with Horizontal(id="resume-buttons"):
                yield Button("Resume", id="resume", variant="primary")
                yield Button("Start fresh", id="fresh")

    def on_mount(self) -> None:
        self.query_one("#resume", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "resume")

    def action_fresh(self) -> None:
        self.dismiss(False)
