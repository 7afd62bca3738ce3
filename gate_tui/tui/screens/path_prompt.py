"""A small modal asking for a file path (Save state as…, Export state JSON / report, Open state).

The prompt does the asking a careful user expects before anything is written: ``~`` is
expanded, a relative path is taken from the current folder (the prompt names it), an
existing file is only replaced after a second Enter on the same path, and when the
command fails the error is shown *in the prompt*, which stays open with the path typed
so that it can be corrected. It dismisses with the absolute path once ``attempt`` worked.

When the app has a files folder (``--files DIR``; ``gate-tui serve`` always sets one), a
path is taken inside it and one that leads out is refused before anything is read or
written (:func:`gate_tui.session.file_folder.inside_folder`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from gate_tui.session.file_folder import inside_folder
from gate_tui.tui.render import BAD_STYLE, DIM, WARN_STYLE
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.text import line, plain
from gate_tui.tui.widgets.safe_fields import SafeInput

Attempt = Callable[[Path], "str | None"]
"""Runs the command on an absolute path; returns an error message, or None when it worked."""


def absolute(text: str) -> Path:
    """``text`` as an absolute path: ``~`` expanded, relative to the current folder."""
    return Path(os.path.abspath(Path(text.strip()).expanduser()))


class PathScreen(CenteredModal[str | None]):
    """Ask for a path; Enter runs the command, Esc cancels (dismisses with None)."""

    # The editor's rules for this screen, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the screen first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """

        #path-message {
            display: none;
        }

        #path-message.-shown {
            display: block;
        }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="path_cancel")]

    def __init__(
        self,
        title: str,
        default: str,
        attempt: Attempt,
        *,
        replaces: bool = True,
        warning: str | None = None,
    ) -> None:
        super().__init__()
        self.warning = warning  # said before anything is asked (an invalid value to export, say)
        self.title_text = title
        self.default = default
        self.attempt = attempt
        self.replaces = replaces  # the command writes the file: ask before replacing one
        self._confirmed: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="path-box", classes="modal-box"):
            yield Static(plain(self.title_text, "bold"))
            if self.warning:
                yield Static(
                    line(("⚠ ", WARN_STYLE), (self.warning, WARN_STYLE)), id="path-warning"
                )
            yield SafeInput(value=self.default, id="path-input")
            folder = self.folder
            if folder is None:
                yield Static(
                    line(("A relative path is in the current folder, ", DIM), (os.getcwd(), DIM)),
                    id="path-where",
                )
            else:
                yield Static(
                    line(
                        ("Files stay in ", DIM),
                        (str(folder), DIM),
                        (": a relative name is taken there.", DIM),
                    ),
                    id="path-where",
                )
            yield Static(id="path-message")
            yield Static(line(("Enter to confirm · Esc to cancel", DIM)))

    @property
    def folder(self) -> Path | None:
        """The one folder paths must stay in (the app's ``files_folder``), or None."""
        folder = getattr(self.app, "files_folder", None)
        return folder if isinstance(folder, Path) else None

    def on_mount(self) -> None:
        self.query_one("#path-input", Input).focus()

    def say(self, symbol: str, style: str, text: str) -> None:
        """Show one message under the field (an error, or the question before replacing)."""
        message = self.query_one("#path-message", Static)
        message.update(line((symbol + " ", style), text))
        message.set_class(True, "-shown")

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._confirmed = None
        self.query_one("#path-message", Static).set_class(False, "-shown")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not event.value.strip():
            self.say("✗", BAD_STYLE, "Type a file name (or Esc to cancel).")
            return
        folder = self.folder
        if folder is None:
            path = absolute(event.value)
        else:
            inside, refused = inside_folder(folder, event.value)
            if inside is None:
                self.say("✗", BAD_STYLE, refused or "Refused.")
                return
            path = inside
        if path.is_dir():
            self.say("✗", BAD_STYLE, f"{path} is a folder: add a file name.")
            return
        if self.replaces and path.exists() and self._confirmed != path:
            self._confirmed = path
            self.say(
                "⚠",
                WARN_STYLE,
                f"{path} already exists. Enter again replaces it; or change the name.",
            )
            return
        error = self.attempt(path)
        if error:
            self._confirmed = None
            self.say("✗", BAD_STYLE, error)
            return
        self.dismiss(str(path))

    def action_cancel(self) -> None:
        self.dismiss(None)
