"""The one modal base: every prompt and help screen is a box centred on the screen.

One CSS rule for all of them (``.modal-box``); a screen's own rules only change what
differs (its width, a warning border). Esc closes through each screen's own binding.
Ctrl+Q, the footer's Quit, works over any box: the box closes as Esc would and the editor
quits as from its own Ctrl+Q (asking first about unsaved work); the quit question itself
opts out, so a second Ctrl+Q never throws the work away.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class CenteredModal(ModalScreen[ResultType]):
    """A modal whose ``.modal-box`` child sits in the middle of the screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit_from_box", "Quit", show=False, id="modal_quit")
    ]
    QUIT_CLOSES: ClassVar[bool] = True
    """Whether Ctrl+Q closes this box and quits (the quit question says False)."""

    def action_quit_from_box(self) -> None:
        if self.QUIT_CLOSES:
            self.dismiss(None)
            self.app.call_later(self.app.run_action, "quit")

    # Unscoped: the rule reaches each subclass's box (Textual matches a type selector
    # against the subclasses too). Parsed when the first modal opens, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        CenteredModal {
            align: center middle;
        }

        CenteredModal .modal-box {
            width: 64;
            max-width: 100%;
            height: auto;
            max-height: 100%;
            border: round $accent;
            padding: 0 1;
            background: $surface;
        }

        CenteredModal .modal-box.-tall {
            width: 90%;
            max-width: 100;
            height: 90%;
        }
    """
