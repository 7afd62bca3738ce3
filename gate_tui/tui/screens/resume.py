"""The resume question shown at start-up when an unfinished session exists for the config.

"Resume session X? n transitions · NO PASS: … · started today 00:29 · last change today
00:31 [Resume] [Start fresh]", Resume being the default (Enter). Times are human ones
(:mod:`gate_tui.tui.session_words`). The question covers the whole screen: behind it the
editor has no session yet, and showing the empty state's decision there would contradict
the session being offered. Dismisses with True to resume, False to start fresh.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from gate_tui.session.catalog import SessionInfo
from gate_tui.tui.render import DIM, WARN_STYLE
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.session_words import human_time
from gate_tui.tui.text import line


class ResumeScreen(CenteredModal[bool]):
    """Ask whether to resume ``info``; Enter resumes, Esc starts fresh."""

    # The editor's rules for this screen, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the screen first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        ResumeScreen {
            background: $background;
        }

        #resume-buttons {
            height: auto;
            margin-top: 1;
        }

        #resume-buttons Button {
            margin-right: 1;
        }
    """

    BINDINGS = [Binding("escape", "fresh", "Start fresh", id="resume_fresh")]

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        info = self.info
        with Vertical(id="resume-box", classes="modal-box"):
            yield Static(
                line(("Resume session ", "bold"), (info.name, "bold $accent"), ("?", "bold"))
            )
            count = f"{info.transitions} transition{'s' * (info.transitions != 1)}"
            yield Static(line(count, " · ", (info.decision, WARN_STYLE if not info.passed else "")))
            times = f"started {human_time(info.started)}"
            if info.last_at and human_time(info.last_at) != human_time(info.started):
                times += f" · last change {human_time(info.last_at)}"
            yield Static(line((times, DIM)))
            with Horizontal(id="resume-buttons"):
                yield Button("Resume", id="resume", variant="primary")
                yield Button("Start fresh", id="fresh")

    def on_mount(self) -> None:
        self.query_one("#resume", Button).focus()

    @on(Button.Pressed, "#resume")
    def _resume(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#fresh")
    def _fresh(self) -> None:
        self.dismiss(False)

    def action_fresh(self) -> None:
        self.dismiss(False)

    def action_quit_from_box(self) -> None:
        # Neither answer: the unfinished session stays as it is, for the next start.
        self.app.exit(0)
