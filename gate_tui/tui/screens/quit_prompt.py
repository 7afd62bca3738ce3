"""The question Ctrl+Q asks when quitting would lose work: Save as… / Quit anyway / Cancel.

Asked by both editors (:func:`gate_tui.tui.file_commands.ask_before_quitting`) only when
the session is not writing to disk (a read-only second editor, or a state or journal
folder that could not be written) and something changed since it opened; otherwise
Ctrl+Q quits at once. Dismisses with ``"save"``, ``"quit"`` or None (cancel).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from gate_tui.tui.render import DIM, WARN_STYLE
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.text import line, plain


class QuitScreen(CenteredModal[str | None]):
    """Ask what to do with unsaved work; Enter saves as…, Esc cancels."""

    SCOPED_CSS = False
    DEFAULT_CSS = """

        #quit-box {
            border: round $warning;
        }

        #quit-buttons {
            height: auto;
            margin-top: 1;
        }

        #quit-buttons Button {
            margin-right: 1;
            min-width: 10;
        }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="quit_cancel")]
    QUIT_CLOSES = False  # a second Ctrl+Q does not throw the work away

    def __init__(
        self,
        why: str,
        changes: int,
        keep: str = "Save as… writes a state file you can reopen with --state.",
    ) -> None:
        super().__init__()
        self.why = why
        self.changes = changes
        self.keep = keep  # what Save as… keeps, in the editor's words

    def compose(self) -> ComposeResult:
        with Vertical(id="quit-box", classes="modal-box"):
            yield Static(line(("⚠ ", WARN_STYLE), ("Quit with unsaved work?", "bold")))
            count = (
                f"{self.changes} change{'s' * (self.changes != 1)} made here"
                if self.changes
                else "Your work"
            )
            yield Static(plain(f"{count} not saved: {self.why}."))
            yield Static(line((self.keep, DIM)))
            with Horizontal(id="quit-buttons"):
                yield Button("Save as…", id="save-as", variant="primary")
                yield Button("Quit anyway", id="quit-anyway", variant="error")
                yield Button("Cancel", id="quit-cancel")

    def on_mount(self) -> None:
        self.query_one("#save-as", Button).focus()

    @on(Button.Pressed, "#save-as")
    def _save_as(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("save")

    @on(Button.Pressed, "#quit-anyway")
    def _quit_anyway(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("quit")

    @on(Button.Pressed, "#quit-cancel")
    def _cancel(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
