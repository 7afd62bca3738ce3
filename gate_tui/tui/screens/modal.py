"""The one modal base: every prompt and help screen is a box centred on the screen.

One CSS rule for all of them (``.modal-box``); a screen's own rules only change what
differs (its width, a warning border). Esc closes through each screen's own binding.
"""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class CenteredModal(ModalScreen[ResultType]):
    """A modal whose ``.modal-box`` child sits in the middle of the screen."""

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
