"""The editor's own screen: Textual's default screen minus one redundant restyle.

When a screen is shown, Textual restyles every node on it (``ScreenResume`` with
``refresh_styles=True``), because a screen coming back may have missed a theme or
variable change while it was hidden. The editor's screen is shown first right after
its widgets mounted, and each widget was styled as it mounted, so that first restyle
repeats work already done: about a fifth of the time to the first frame. Later
resumes (after a modal closes) restyle as usual. The snapshot tests hold the result
to the same pixels.

On a cramped terminal the screen carries the ``-cramped`` class, which the footer's
style uses to keep the essential keys in view.
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen

FULL_FOOTER_WIDTH = 76
"""Columns the footer needs for every shown key and the palette's; below, ``-cramped``."""


class EditorScreen(Screen[None]):
    """The screen the editor's widgets are composed on (``GateApp.get_default_screen``)."""

    def on_resize(self, event: events.Resize) -> None:
        # The footer drops the palette key first when narrow (styles.tcss, "-cramped").
        self.set_class(event.size.width < FULL_FOOTER_WIDTH, "-cramped")

    def __init__(self) -> None:
        super().__init__(id="_default")
        self._shown_before = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen._on_screen_resume (Textual calls each class's handler, subclass first).
        if not self._shown_before:
            self._shown_before = True
            event.refresh_styles = False
