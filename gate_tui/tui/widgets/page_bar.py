"""The page bar of narrow terminals: Gates · Reply · History, one of them active.

A single ``Static`` (Textual's ``Tabs`` costs a dozen nodes and an animated underline
at start-up); a click picks the page under the mouse, and so do the keys it names (the
keymap's: F5 / F2 / F4 by default).
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from gate_tui.tui.keymap import PAGES, hints_of


class PageBar(Static):
    """Shows the pages with their keys; posts :class:`PageBar.Chosen` on a click."""

    class Chosen(Message):
        """The user clicked a page."""

        def __init__(self, page: str) -> None:
            super().__init__()
            self.page = page

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.active = "gates"
        self._spans: list[tuple[int, int, str]] = []

    def on_mount(self) -> None:
        self.show("gates")

    def show(self, page: str) -> None:
        """Mark ``page`` as the active one."""
        self.active = page
        parts: list[str | tuple[str, str]] = []
        self._spans = []
        position = 0
        keys = hints_of(self.app)
        for name, label, binding_id in PAGES:
            text = f" {label} {keys[binding_id]} "
            style = "bold reverse $accent" if name == page else "$text-muted"
            parts += [(text, style), " "]
            self._spans.append((position, position + len(text), name))
            position += len(text) + 1
        self.update(Content.assemble(*parts), layout=False)

    def on_click(self, event: events.Click) -> None:
        for start, end, name in self._spans:
            if start <= event.x < end:
                self.post_message(self.Chosen(name))
                return
